"""nn.Transformer and its layers against PyTorch 2.13, live: seeded parameters bit for bit,
printed modules, outputs and gradients in training mode (dropout from PyTorch's random
stream) and in eval mode (float64 to 1e-12, float32 to float32 precision), the graph node
for node, masks (causal, padding, both), norm_first, gelu, batch_first, unbatched input,
PyTorch's warning and errors; eval without gradients, where PyTorch takes its fused "fast
path" (and nested tensors for padded batches: zeros at padded positions), compared by value;
and a language model in the style of PyTorch's "Language Modeling with nn.Transformer"
tutorial trained both ways.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, raised
from test_nn_rnn import graph

TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-12, atol=1e-13)}
BASE = dict(d_model=8, nhead=2, dim_feedforward=16)


def build(lib, kind, kwargs, dtype):
    lib.manual_seed(0)
    nn, options = lib.nn, dict(dtype=getattr(lib, dtype))
    if kind == "encoder layer":
        return nn.TransformerEncoderLayer(**kwargs, **options)
    if kind == "decoder layer":
        return nn.TransformerDecoderLayer(**kwargs, **options)
    if kind == "encoder":
        return nn.TransformerEncoder(nn.TransformerEncoderLayer(**kwargs, **options), 2,
                                     nn.LayerNorm(kwargs["d_model"], **options))
    if kind == "decoder":
        return nn.TransformerDecoder(nn.TransformerDecoderLayer(**kwargs, **options), 2)
    return nn.Transformer(**kwargs, num_encoder_layers=2, num_decoder_layers=1, **options)


def built(kind, kwargs, dtype="float64"):
    """Both modules, and the warnings each library gave while building it."""
    seen = []
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = build(lib, kind, kwargs, dtype)
        seen.append((module, [(str(w.message), w.category, w.filename.rsplit("/", 1)[1])
                              for w in caught]))
    (ours, our_warnings), (theirs, their_warnings) = seen
    assert our_warnings == their_warnings  # (the file: the caller's, or both transformer.py)
    return ours, theirs


def causal(lib, n, dtype):
    return lib.nn.Transformer.generate_square_subsequent_mask(n, dtype=getattr(lib, dtype))


def call_of(kind, masks):
    """How to call ``kind``: (lib, module, src, tgt, dtype) -> output."""
    padding = [[False] * 4 + [True], [False] * 5]
    if kind in ("encoder layer", "encoder"):
        def call(lib, m, s, t, dtype):
            kwargs = {}
            if "causal" in masks:
                kwargs["mask" if kind == "encoder" else "src_mask"] = causal(lib, 5, dtype)
            if "padding" in masks:
                kwargs["src_key_padding_mask"] = lib.tensor(padding)
            return m(s, **kwargs)
    elif kind in ("decoder layer", "decoder"):
        def call(lib, m, s, t, dtype):
            kwargs = {}
            if "causal" in masks:
                kwargs["tgt_mask"] = causal(lib, 4, dtype)
            if "padding" in masks:
                kwargs["memory_key_padding_mask"] = lib.tensor(padding)
            return m(t, s, **kwargs)
    else:
        def call(lib, m, s, t, dtype):
            kwargs = {}
            if "causal" in masks:
                kwargs["tgt_mask"] = m.generate_square_subsequent_mask(4, dtype=getattr(lib, dtype))
            if "padding" in masks:
                kwargs["src_key_padding_mask"] = lib.tensor(padding)
                kwargs["memory_key_padding_mask"] = lib.tensor(padding)
            return m(s, t, **kwargs)
    return call


def compare(kind, kwargs, masks=(), dtype="float64", train=True, unbatched=False):
    ours, theirs = built(kind, kwargs, dtype)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for (key, a), b in zip(ours.state_dict().items(), theirs.state_dict().values(), strict=True):
        assert np.array_equal(as_numpy(a), b.numpy()), key
    ours.train(train), theirs.train(train)
    rng = np.random.default_rng(0)
    first = kwargs.get("batch_first", False)
    shapes = [(2, n, 8) if first else (n, 2, 8) for n in (5, 4)]
    if unbatched:
        shapes = [(n, 8) for n in (5, 4)]
    src, tgt = (rng.standard_normal(s).astype(dtype) for s in shapes)
    call = call_of(kind, masks)
    results = []
    for lib, module in ((mg, ours), (torch, theirs)):
        s, t = lib.tensor(src, requires_grad=True), lib.tensor(tgt, requires_grad=True)
        lib.manual_seed(7)
        out = call(lib, module, s, t, dtype)
        ramp = np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)).astype(dtype)
        (out * lib.tensor(ramp)).sum().backward()
        results.append((out, s, t))
    (out, s, t), (out_t, s_t, t_t) = results
    np.testing.assert_allclose(as_numpy(out), out_t.detach().numpy(), **TOL[dtype])
    assert graph(out) == graph(out_t)
    for a, b in ((s, s_t), (t, t_t)):
        assert (a.grad is None) == (b.grad is None)
        if a.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), **TOL[dtype])
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        assert (p.grad is None) == (q.grad is None), name
        if p.grad is not None:
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), **TOL[dtype],
                                       err_msg=name)


KINDS = ["encoder layer", "decoder layer", "encoder", "decoder", "transformer"]
OPTIONS = {
    "post-norm": BASE,
    "pre-norm, gelu": dict(BASE, norm_first=True, activation="gelu"),
    "batch_first, no bias": dict(BASE, batch_first=True, bias=False),
    "callable activation": dict(BASE, activation=torch.tanh, dropout=0.2),
}


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("options", list(OPTIONS))
@pytest.mark.parametrize("kind", KINDS)
def test_layers_and_stacks(kind, options, train):
    if options == "callable activation":
        compare_callable(kind, OPTIONS[options], train)
    else:
        compare(kind, OPTIONS[options], masks=("causal",), train=train)


def compare_callable(kind, kwargs, train):
    """A callable activation: each library gets its own ``tanh``."""
    rng = np.random.default_rng(1)
    src, tgt = rng.standard_normal((5, 2, 8)), rng.standard_normal((4, 2, 8))
    outputs = []
    for lib in (mg, torch):
        module = build(lib, kind, dict(kwargs, activation=lib.tanh), "float64")
        module.train(train)
        lib.manual_seed(7)
        out = call_of(kind, ())(lib, module, lib.tensor(src), lib.tensor(tgt), "float64")
        outputs.append(as_numpy(out))
    np.testing.assert_allclose(outputs[0], outputs[1], **TOL["float64"])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("masks", [(), ("padding",), ("causal", "padding")])
@pytest.mark.parametrize("kind", KINDS)
def test_masks(kind, masks, dtype):
    compare(kind, BASE, masks=masks, dtype=dtype)


@pytest.mark.parametrize("kind", KINDS)
def test_unbatched(kind):
    compare(kind, BASE, masks=("causal",), unbatched=True)


@pytest.mark.parametrize("masks", [(), ("padding",), ("causal",)])
@pytest.mark.parametrize("kind", ["encoder", "transformer", "encoder layer"])
def test_eval_without_gradients_fast_path_values(kind, masks):
    """In eval mode under no_grad PyTorch runs fused kernels (and packs a padded batch into
    nested tensors, whose padded positions come back as zeros); the values are the slow
    path's, which minigrad computes, and the zeros are minigrad's too."""
    kwargs = dict(BASE, batch_first=True)
    ours, theirs = built(kind, kwargs, "float32")
    ours.eval(), theirs.eval()
    rng = np.random.default_rng(3)
    src, tgt = rng.standard_normal((2, 5, 8)).astype("float32"), rng.standard_normal(
        (2, 4, 8)).astype("float32")
    call = call_of(kind, masks)
    with mg.no_grad(), torch.no_grad():
        out = call(mg, ours, mg.tensor(src), mg.tensor(tgt), "float32")
        out_t = call(torch, theirs, torch.tensor(src), torch.tensor(tgt), "float32")
    np.testing.assert_allclose(as_numpy(out), out_t.numpy(), rtol=1e-5, atol=1e-5)


def test_encoder_zeros_padded_positions_in_eval_as_pytorch():
    """The nested-tensor path: with no final norm, padded positions are exactly 0 in both."""
    results = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        encoder = lib.nn.TransformerEncoder(layer, 2).eval()
        x = lib.tensor(np.random.default_rng(4).standard_normal((2, 5, 8)).astype("float32"))
        padding = lib.tensor([[False] * 3 + [True] * 2, [False] * 5])
        with lib.no_grad():
            results.append(as_numpy(encoder(x, src_key_padding_mask=padding)))
        results.append(as_numpy(encoder(x, src_key_padding_mask=padding)))  # (with grad)
    assert (results[2][0, 3:] == 0).all() and (results[0][0, 3:] == 0).all()
    assert not (results[3][0, 3:] == 0).all() and not (results[1][0, 3:] == 0).all()
    np.testing.assert_allclose(results[0], results[2], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(results[1], results[3], rtol=1e-5, atol=1e-5)


def test_nested_tensor_warning_reasons():
    """PyTorch's warning at TransformerEncoder(...), with each of its reasons."""
    cases = [dict(), dict(batch_first=True, norm_first=True), dict(batch_first=True, bias=False),
             dict(batch_first=True, activation="gelu"), dict(batch_first=True, nhead=1),
             dict(batch_first=True, activation=torch.tanh)]
    for case in cases:
        seen = []
        for lib in (mg, torch):
            options = dict(case)
            if options.get("activation") is torch.tanh:
                options["activation"] = lib.tanh
            layer = lib.nn.TransformerEncoderLayer(**{"d_model": 8, "nhead": 2, **options})
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                lib.nn.TransformerEncoder(layer, 1)
                lib.nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
            seen.append([(str(w.message), w.category, w.filename) for w in caught])
        assert seen[0] == seen[1]
        assert all(w[2] == __file__ for w in seen[0])


def test_errors_and_masks_as_pytorchs():
    ours, theirs = built("transformer", BASE)
    calls = [
        lambda lib, m: m(lib.zeros(5, 2, 8, dtype=lib.float64), lib.zeros(4, 3, 8, dtype=lib.float64)),
        lambda lib, m: m(lib.zeros(5, 2, 7, dtype=lib.float64), lib.zeros(4, 2, 7, dtype=lib.float64)),
        lambda lib, m: lib.nn.TransformerEncoderLayer(8, 2, activation="tanh"),
        lambda lib, m: m.encoder(lib.zeros(5, 2, 8, dtype=lib.float64), is_causal=True),
    ]
    for call in calls:
        assert raised(lambda: call(mg, ours)) == raised(lambda: call(torch, theirs))
    for n in (1, 3):
        assert repr(mg.nn.Transformer.generate_square_subsequent_mask(n)) == repr(
            torch.nn.Transformer.generate_square_subsequent_mask(n))


def test_language_model_trains_as_in_pytorch():
    """PyTorch's "Language Modeling with nn.Transformer" tutorial in small: an embedding
    scaled by sqrt(d_model), a sinusoidal positional encoding with dropout, a
    TransformerEncoder with a causal mask, a linear decoder; CrossEntropyLoss, SGD with
    gradient clipping and a StepLR."""
    def run(lib):
        nn = lib.nn

        class PositionalEncoding(nn.Module):
            def __init__(self, d_model, dropout=0.1, max_len=50):
                super().__init__()
                self.dropout = nn.Dropout(p=dropout)
                position = lib.arange(max_len).unsqueeze(1)
                div_term = lib.exp(lib.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
                pe = lib.zeros(max_len, 1, d_model)
                pe[:, 0, 0::2] = lib.sin(position * div_term)
                pe[:, 0, 1::2] = lib.cos(position * div_term)
                self.register_buffer("pe", pe)

            def forward(self, x):
                return self.dropout(x + self.pe[:x.size(0)])

        class TransformerModel(nn.Module):
            def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.2):
                super().__init__()
                self.pos_encoder = PositionalEncoding(d_model, dropout)
                layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
                self.transformer_encoder = nn.TransformerEncoder(layers, nlayers)
                self.embedding = nn.Embedding(ntoken, d_model)
                self.d_model = d_model
                self.linear = nn.Linear(d_model, ntoken)
                initrange = 0.1
                self.embedding.weight.data.uniform_(-initrange, initrange)
                self.linear.bias.data.zero_()
                self.linear.weight.data.uniform_(-initrange, initrange)

            def forward(self, src, src_mask=None):
                src = self.embedding(src) * math.sqrt(self.d_model)
                src = self.pos_encoder(src)
                output = self.transformer_encoder(src, src_mask)
                return self.linear(output)

        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = TransformerModel(12, 8, 2, 16, 2)
        criterion = nn.CrossEntropyLoss()
        optimizer = lib.optim.SGD(model.parameters(), lr=0.5)
        scheduler = lib.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)
        data = lib.tensor([(3 * i + i // 4) % 12 for i in range(40)]).view(-1, 2)
        losses = []
        model.train()
        for i in range(0, 16, 4):
            src, target = data[i:i + 5], data[i + 1:i + 6].reshape(-1)
            output = model(src, nn.Transformer.generate_square_subsequent_mask(5))
            loss = criterion(output.view(-1, 12), target)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
            scheduler.step()
            losses.append(loss.item())
        model.eval()
        with lib.no_grad():
            evaluation = criterion(model(data[:5]).view(-1, 12), data[1:6].reshape(-1)).item()
        return losses + [evaluation], [p.detach().numpy().copy() for p in model.parameters()]

    ours, theirs = run(mg), run(torch)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    for a, b in zip(ours[1], theirs[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_nested_tensor_prototype_warning_once_as_pytorchs():
    """PyTorch's nested-tensor path warns once per process; compared in fresh processes."""
    program = (
        "import warnings, {lib} as torch\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    warnings.simplefilter('always')\n"
        "    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)\n"
        "    encoder = torch.nn.TransformerEncoder(layer, 2).eval()\n"
        "    padding = torch.tensor([[False, False, True], [False, False, False]])\n"
        "    with torch.no_grad():\n"
        "        encoder(torch.zeros(2, 3, 8), src_key_padding_mask=padding)\n"
        "        encoder(torch.zeros(2, 3, 8), src_key_padding_mask=padding)\n"
        "print([(str(w.message), w.category.__name__, w.filename.rsplit('/', 1)[1]) "
        "for w in seen])\n")
    outputs = [subprocess.run([sys.executable, "-c", program.format(lib=lib)],
                              capture_output=True, text=True, check=True).stdout
               for lib in ("minigrad", "torch")]
    assert outputs[0] == outputs[1]
    assert "prototype stage" in outputs[0]
