"""``nn.AdaptiveLogSoftmaxWithLoss`` (minigrad/nn/adaptive.py) against PyTorch 2.13, live:
the printed module, the starting weights after a seed (bit for bit), forward's named tuple
(output and loss, their graphs), ``log_prob``, ``predict``, one unbatched example, every
error, and a small word-level language model trained both ways."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
from tests.core.support.torch_compare import graph_of, outcome

TARGETS = [0, 3, 5, 9, 10, 19, 2, 12, 4, 4]


def _model(lib, dtype="float32", **options):
    lib.manual_seed(0)
    settings = dict(in_features=16, n_classes=20, cutoffs=[4, 10], div_value=2.0)
    settings.update(options)
    return lib.nn.AdaptiveLogSoftmaxWithLoss(**settings, dtype=getattr(lib, dtype))


def _input(lib, dtype="float32", rows=10):
    x = np.random.default_rng(1).standard_normal((rows, 16)).astype(dtype)
    return lib.tensor(x, requires_grad=True)


@pytest.mark.parametrize("head_bias", [False, True])
def test_printed_module_and_seeded_weights_are_pytorchs(head_bias):
    ours, theirs = _model(minigrad, head_bias=head_bias), _model(torch, head_bias=head_bias)
    assert repr(ours) == repr(theirs)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    for (_, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    for name in ("in_features", "n_classes", "cutoffs", "div_value", "head_bias",
                 "shortlist_size", "n_clusters", "head_size"):
        assert getattr(ours, name) == getattr(theirs, name)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_forward_log_prob_and_predict_as_pytorchs(dtype):
    rtol = 1e-5 if dtype == "float32" else 1e-13
    found = []
    for lib in (minigrad, torch):
        model, x = _model(lib, dtype, head_bias=True), _input(lib, dtype)
        out = model(x, lib.tensor(TARGETS))
        out.loss.backward()
        log_prob = model.log_prob(x)
        found.append(dict(type=type(out).__name__, fields=out._fields,
                          graph=graph_of([out.output, out.loss], [x]),
                          output=out.output.detach().numpy(), loss=out.loss.item(),
                          grads=[x.grad.numpy()] + [p.grad.numpy() for p in model.parameters()],
                          log_prob=log_prob.detach().numpy(),
                          predict=model.predict(x).numpy(), shape=tuple(log_prob.shape)))
    ours, theirs = found
    for key in ("type", "fields", "graph", "shape"):
        assert ours[key] == theirs[key], key
    np.testing.assert_array_equal(ours["predict"], theirs["predict"])
    for key in ("output", "log_prob"):
        np.testing.assert_allclose(ours[key], theirs[key], rtol=rtol, atol=rtol)
    np.testing.assert_allclose(ours["loss"], theirs["loss"], rtol=rtol)
    for a, b in zip(ours["grads"], theirs["grads"]):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(np.exp(ours["log_prob"]).sum(1), 1, rtol=rtol)


def test_predict_with_rows_in_and_out_of_the_shortlist():
    """predict's three paths: all rows' best in the head, none, some."""
    for scale in (0.0, 3.0, -3.0):
        found = []
        for lib in (minigrad, torch):
            model = _model(lib, "float64", head_bias=True)
            with lib.no_grad():
                model.head.bias[4:] += scale  # (the clusters' entries made likelier or not)
            found.append(model.predict(_input(lib, "float64", rows=30)).numpy())
        np.testing.assert_array_equal(found[0], found[1])


def test_one_unbatched_example():
    found = []
    for lib in (minigrad, torch):
        model, x = _model(lib, "float64"), _input(lib, "float64")
        out = model(x[3], lib.tensor(TARGETS[3]))
        found.append((repr(out.output.shape), out.output.item(), out.loss.item()))
    assert found[0][0] == found[1][0]
    np.testing.assert_allclose(found[0][1:], found[1][1:], rtol=1e-13)


BAD = {
    "no cutoffs": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, []),
    "unsorted cutoffs": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [5, 3]),
    "a cutoff of 0": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [0, 3]),
    "a cutoff too big": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 10]),
    "repeated cutoffs": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 3]),
    "a float cutoff": lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [2.5, 5]),
    "batch sizes": lambda lib: _model(lib)(_input(lib), lib.tensor(TARGETS[:4])),
    "3-d input": lambda lib: _model(lib)(_input(lib).reshape(10, 4, 4), lib.tensor(TARGETS)),
    "0-d target, 2-d input": lambda lib: _model(lib)(_input(lib), lib.tensor(3)),
    "2-d target": lambda lib: _model(lib)(_input(lib), lib.tensor([TARGETS])),
    "target too big": lambda lib: _model(lib)(_input(lib), lib.tensor(TARGETS[:9] + [20])),
    "negative target": lambda lib: _model(lib)(_input(lib), lib.tensor([-1] + TARGETS[1:])),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_errors_as_pytorchs(name):
    assert outcome(BAD[name], minigrad) == outcome(BAD[name], torch)


def test_word_language_model_trains_as_pytorch():
    """An embedding, a tanh layer and an adaptive softmax over a 50-word vocabulary whose
    words follow Zipf's law, trained with Adam from the same seeded weights (float64)."""
    rng = np.random.default_rng(2)
    probabilities = 1 / np.arange(1, 51)
    words = rng.choice(50, size=(12, 9), p=probabilities / probabilities.sum())
    losses = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        embed = lib.nn.Embedding(50, 12, dtype=lib.float64)
        hidden = lib.nn.Linear(12, 16, dtype=lib.float64)
        asm = lib.nn.AdaptiveLogSoftmaxWithLoss(16, 50, [5, 20], div_value=2.0,
                                                dtype=lib.float64)
        params = [*embed.parameters(), *hidden.parameters(), *asm.parameters()]
        opt = lib.optim.Adam(params, lr=0.05)
        found = []
        for _ in range(12):
            inputs, targets = lib.tensor(words[:, :-1]), lib.tensor(words[:, 1:])
            features = lib.tanh(hidden(embed(inputs))).reshape(-1, 16)
            loss = asm(features, targets.reshape(-1)).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            found.append(loss.item())
        losses.append(found)
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-12)
    assert losses[0][-1] < 0.8 * losses[0][0]


def test_found_under_pytorchs_module_paths():
    for lib in ("minigrad", "torch"):
        adaptive = __import__(f"{lib}.nn.modules.adaptive", fromlist=["_"])
        loss = __import__(f"{lib}.nn.modules.loss", fromlist=["_"])
        nn = __import__(f"{lib}.nn", fromlist=["_"])
        assert adaptive.AdaptiveLogSoftmaxWithLoss is nn.AdaptiveLogSoftmaxWithLoss
        assert loss.CTCLoss is nn.CTCLoss
        assert adaptive._ASMoutput._fields == ("output", "loss")
