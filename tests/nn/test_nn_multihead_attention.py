"""nn.MultiheadAttention and F.multi_head_attention_forward against PyTorch 2.13, live:
parameter names and seeded starting values (bit for bit), printed module, outputs,
attention weights and gradients (float64 to 1e-12, float32 to float32 precision), the whole
graph node for node (the explicit baddbmm/softmax/bmm path with weights, the
scaled_dot_product_attention path without), every mask kind, dropout after a seed,
PyTorch's errors and warning, finite differences in float64, and a small training loop.

PyTorch's eval-mode "fast path" (``torch._native_multi_head_attention``: batch_first
self-attention with no gradient) is one fused kernel; minigrad computes the slow path,
which gives the same values (compared below to float precision).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, raised
from test_nn_rnn import graph

TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-12, atol=1e-13)}
CAUSAL = np.triu(np.ones((5, 6), bool), 1)
PADDING = np.array([[False] * 5 + [True], [False] * 4 + [True] * 2])


def built(kwargs, dtype="float64", seed=0):
    torch.manual_seed(seed)
    theirs = torch.nn.MultiheadAttention(**kwargs, dtype=getattr(torch, dtype))
    mg.manual_seed(seed)
    ours = mg.nn.MultiheadAttention(**kwargs, dtype=getattr(mg, dtype))
    return ours, theirs


def compare(kwargs, call=lambda lib, m, q, k, v: m(q, k, v), dtype="float64", train=False,
            inputs="cross", shapes=((5, 2, 8), (6, 2, 8), (6, 2, 8))):
    """Run ``call`` in both libraries on the same arrays ("self": q is k is v; "cross": k is
    v; "three": three tensors) and compare everything."""
    ours, theirs = built(kwargs, dtype)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for (key, a), b in zip(ours.state_dict().items(), theirs.state_dict().values(), strict=True):
        assert np.array_equal(as_numpy(a), b.numpy()), key
    ours.train(train), theirs.train(train)
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(dtype) for s in shapes]
    results = []
    for lib, module in ((mg, ours), (torch, theirs)):
        tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
        q, k, v = {"self": lambda: (tensors[0],) * 3,
                   "cross": lambda: (tensors[0], tensors[1], tensors[1]),
                   "three": lambda: tuple(tensors)}[inputs]()
        lib.manual_seed(3)
        output, weights = call(lib, module, q, k, v)
        ramp = lib.tensor(np.linspace(-1, 1, output.numel()).reshape(tuple(output.shape)).astype(dtype))
        loss = (output * ramp).sum()
        if weights is not None:
            loss = loss + (weights * weights).sum()
        loss.backward()
        results.append((output, weights, tensors))
    (out, w, xs), (out_t, w_t, xs_t) = results
    np.testing.assert_allclose(as_numpy(out), out_t.detach().numpy(), **TOL[dtype])
    assert graph(out) == graph(out_t)
    assert (w is None) == (w_t is None)
    if w is not None:
        np.testing.assert_allclose(as_numpy(w), w_t.detach().numpy(), **TOL[dtype])
        assert graph(w) == graph(w_t)
    for a, b in zip(xs, xs_t, strict=True):
        assert (a.grad is None) == (b.grad is None)
        if a.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), **TOL[dtype])
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), **TOL[dtype], err_msg=name)
    return out


MODULES = {
    "plain": dict(embed_dim=8, num_heads=2),
    "one head": dict(embed_dim=6, num_heads=1),
    "kdim vdim": dict(embed_dim=8, num_heads=4, kdim=3, vdim=5),
    "no bias, bias_kv, zero_attn": dict(embed_dim=8, num_heads=2, bias=False, add_bias_kv=True,
                                        add_zero_attn=True),
    "bias_kv": dict(embed_dim=8, num_heads=2, add_bias_kv=True),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind,inputs", [(kind, inputs) for kind in MODULES
                                         for inputs in ("self", "cross", "three")
                                         if kind != "kdim vdim" or inputs == "three"])
def test_modules(kind, inputs, dtype):
    """(With kdim/vdim, key and value are necessarily tensors of their own.)"""
    kwargs = MODULES[kind]
    shapes = ((5, 2, 8), (6, 2, 8), (6, 2, 8))
    if kind == "kdim vdim":
        shapes = ((5, 2, 8), (6, 2, 3), (6, 2, 5))
    if kind == "one head":
        shapes = tuple(s[:2] + (6,) for s in shapes)
    if inputs == "self":
        shapes = shapes[:1]
    compare(kwargs, dtype=dtype, inputs=inputs, shapes=shapes)


CALLS = {
    "no weights": lambda lib, m, q, k, v: m(q, k, v, need_weights=False),
    "weights per head": lambda lib, m, q, k, v: m(q, k, v, average_attn_weights=False),
    "bool mask": lambda lib, m, q, k, v: m(q, k, v, attn_mask=lib.tensor(CAUSAL)),
    "bool mask, no weights": lambda lib, m, q, k, v: m(q, k, v, attn_mask=lib.tensor(CAUSAL),
                                                       need_weights=False),
    "float mask": lambda lib, m, q, k, v: m(
        q, k, v, attn_mask=lib.tensor(np.where(CAUSAL, -np.inf, 0.0)).to(q.dtype)),
    "3-D mask": lambda lib, m, q, k, v: m(
        q, k, v, attn_mask=lib.tensor(np.stack([CAUSAL, ~CAUSAL | np.eye(5, 6, dtype=bool)] * 2))),
    "padding": lambda lib, m, q, k, v: m(q, k, v, key_padding_mask=lib.tensor(PADDING)),
    "padding, no weights": lambda lib, m, q, k, v: m(q, k, v, need_weights=False,
                                                     key_padding_mask=lib.tensor(PADDING)),
    "padding and mask": lambda lib, m, q, k, v: m(q, k, v, key_padding_mask=lib.tensor(PADDING),
                                                  attn_mask=lib.tensor(CAUSAL)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", list(CALLS))
def test_masks_and_options(call, dtype):
    compare(MODULES["plain"], CALLS[call], dtype=dtype)


@pytest.mark.parametrize("need_weights", [True, False])
def test_causal_self_attention(need_weights):
    """is_causal with its mask (the hint: without weights PyTorch drops the mask and lets
    scaled_dot_product_attention make it)."""
    mask = np.triu(np.full((5, 5), -np.inf), 1)
    compare(MODULES["plain"], lambda lib, m, q, k, v: m(
        q, k, v, attn_mask=lib.tensor(mask), is_causal=True, need_weights=need_weights),
        inputs="self", shapes=((5, 2, 8),))


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("inputs", ["self", "three"])
def test_batch_first_and_unbatched(need_weights, inputs):
    kwargs = dict(embed_dim=8, num_heads=2, batch_first=True)
    shapes = ((2, 5, 8), (2, 6, 8), (2, 6, 8)) if inputs == "three" else ((2, 5, 8),)
    compare(kwargs, lambda lib, m, q, k, v: m(q, k, v, need_weights=need_weights),
            inputs=inputs, shapes=shapes)
    compare(kwargs, lambda lib, m, q, k, v: m(q, k, v, need_weights=need_weights),
            inputs=inputs, shapes=tuple(s[1:] for s in shapes))


@pytest.mark.parametrize("need_weights", [True, False])
def test_dropout_draws_pytorchs_numbers(need_weights):
    compare(dict(embed_dim=8, num_heads=2, dropout=0.3),
            lambda lib, m, q, k, v: m(q, k, v, need_weights=need_weights), train=True)


def test_eval_fast_path_values():
    """PyTorch's fused eval kernel (no grad, batch_first self-attention, even heads) gives
    the slow path's values, which minigrad computes."""
    ours, theirs = built(dict(embed_dim=8, num_heads=2, batch_first=True), "float32")
    ours.eval(), theirs.eval()
    x = np.random.default_rng(1).standard_normal((3, 7, 8)).astype("float32")
    with mg.no_grad(), torch.no_grad():
        for kwargs in ({}, {"need_weights": False}):
            a, b = mg.tensor(x), torch.tensor(x)
            out, out_t = ours(a, a, a, **kwargs), theirs(b, b, b, **kwargs)
            np.testing.assert_allclose(as_numpy(out[0]), out_t[0].numpy(), **TOL["float32"])
            if out_t[1] is not None:
                np.testing.assert_allclose(as_numpy(out[1]), out_t[1].numpy(), **TOL["float32"])


def test_functional_form():
    """F.multi_head_attention_forward called directly with the module's weights."""
    ours, theirs = built(MODULES["plain"])
    x = np.random.default_rng(2).standard_normal((4, 3, 8))
    results = []
    for lib, m in ((mg, ours), (torch, theirs)):
        t = lib.tensor(x)
        results.append(lib.nn.functional.multi_head_attention_forward(
            t, t, t, 8, 2, m.in_proj_weight, m.in_proj_bias, None, None, False, 0.0,
            m.out_proj.weight, m.out_proj.bias, training=False))
    for a, b in zip(results[0], results[1], strict=True):
        np.testing.assert_allclose(as_numpy(a), b.detach().numpy(), **TOL["float64"])


@pytest.mark.parametrize("kind", ["plain", "kdim vdim", "no bias, bias_kv, zero_attn"])
def test_finite_differences(kind):
    ours = mg.nn.MultiheadAttention(**MODULES[kind], dtype=mg.float64)
    rng = np.random.default_rng(5)
    sizes = (8, 3, 5) if kind == "kdim vdim" else (8, 8, 8)
    q, k, v = (mg.tensor(rng.standard_normal((3, 2, n)), requires_grad=True) for n in sizes)
    names = [name for name, _ in ours.named_parameters()]

    def fn(q, k, v, *weights):
        for key, w in zip(names, weights, strict=True):
            owner = ours.out_proj if key.startswith("out_proj.") else ours
            owner._parameters[key.removeprefix("out_proj.")] = w
        return ours(q, k, v, key_padding_mask=mg.tensor([[False, False, True], [False] * 3]))

    weights = [p.detach().clone().requires_grad_() for p in ours.parameters()]
    assert mg.autograd.gradcheck(fn, (q, k, v, *weights))


def test_errors_and_warning_as_pytorchs():
    constructors = [lambda nn: nn.MultiheadAttention(0, 2), lambda nn: nn.MultiheadAttention(8, -1),
                    lambda nn: nn.MultiheadAttention(8, 3)]
    for case in constructors:
        assert raised(lambda: case(mg.nn)) == raised(lambda: case(torch.nn))
    ours, theirs = built(MODULES["plain"], "float32")
    calls = [
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 8), lib.zeros(6, 8)),
        lambda lib, m: m(lib.zeros(5, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8)),
        lambda lib, m: m(lib.zeros(1, 5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8)),
        lambda lib, m: m(lib.zeros(5, 2, 7), lib.zeros(6, 2, 7), lib.zeros(6, 2, 7)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(7, 2, 8)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8),
                         attn_mask=lib.zeros(5, 5)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8),
                         attn_mask=lib.zeros(3, 5, 6)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8),
                         attn_mask=lib.zeros(1, 1, 5, 6)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8),
                         attn_mask=lib.zeros(5, 6, dtype=lib.int64)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8),
                         key_padding_mask=lib.zeros(2, 5, dtype=lib.bool)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8),
                         key_padding_mask=lib.zeros(2, dtype=lib.bool)),
        lambda lib, m: m(lib.zeros(5, 2, 8), lib.zeros(6, 2, 8), lib.zeros(6, 2, 8),
                         is_causal=True),
        lambda lib, m: m(lib.zeros(5, 8), lib.zeros(6, 8), lib.zeros(6, 8),
                         attn_mask=lib.zeros(3, 5, 6)),
    ]
    for call in calls:
        assert raised(lambda: call(mg, ours)) == raised(lambda: call(torch, theirs))
    seen = []
    for lib, m in ((mg, ours), (torch, theirs)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = lib.zeros(5, 2, 8)
            m(x, x, x, key_padding_mask=lib.zeros(2, 5, dtype=lib.bool), attn_mask=lib.zeros(5, 5))
        seen.append([(str(w.message), w.category, w.filename.rsplit("/", 1)[1]) for w in caught])
    assert seen[0] == seen[1] and len(seen[0]) == 1


def test_a_small_attention_model_trains_as_in_pytorch():
    """Self-attention over an embedded sequence, mean-pooled and classified; SGD with
    momentum (not Adam: the key bias's gradient is 0 up to rounding, softmax being blind to
    a shift of every score, and Adam would scale that rounding noise up to its step)."""
    def run(lib):
        lib.manual_seed(0)
        embed = lib.nn.Embedding(10, 8)
        attn = lib.nn.MultiheadAttention(8, 2, batch_first=True, dropout=0.1)
        head = lib.nn.Linear(8, 2)
        params = list(embed.parameters()) + list(attn.parameters()) + list(head.parameters())
        opt = lib.optim.SGD(params, lr=0.1, momentum=0.9)
        tokens = lib.tensor([[1, 2, 3, 4, 0], [5, 6, 7, 0, 0], [8, 9, 1, 2, 3]])
        padding = tokens == 0
        labels = lib.tensor([0, 1, 0])
        losses = []
        for _ in range(5):
            x = embed(tokens)
            y, _ = attn(x, x, x, key_padding_mask=padding)
            loss = lib.nn.functional.cross_entropy(head(y.mean(1)), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [p.detach().numpy().copy() for p in params]
    ours, theirs = run(mg), run(torch)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    for a, b in zip(ours[1], theirs[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
