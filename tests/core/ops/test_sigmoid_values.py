"""sigmoid compared with PyTorch 2.13 at test time: computed as its CPU kernel does,
1 / (1 + exp(-x)) in x's dtype (float16 in float32), so exactly 0 (not a denormal)
where float32's exp(-x) overflows (x below about -88), float64's sigmoid(-100),
float16, inf, -inf and NaN to the bit; every other value within 4 ulps of PyTorch's,
most the same (PyTorch's vectorized exp, SLEEF's, differs from the correctly rounded
exp minigrad uses: about 4 % of float32 and 2.5 % of float64 results differ, mostly by
1 ulp, up to 4 in the tails), in
every layout (contiguous, transposed, strided, rows of a slice) and size (0-dim, the
tail of the kernel's vectorized loop, big tensors cut between threads), through every
way to call it, and its gradient."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

EDGES = [*np.arange(-105, -86, 0.25).tolist(), -88.72283935546875, -88.7228317260742,
         -103.97207641601562, -103.972084, -104.0, -745.1, -746.0, -709.8, 709.8, 710.0,
         86.0, 88.0, 88.8, 100.0, 0.0, -0.0, 1e-8, -1e-8, float("inf"), float("-inf"),
         float("nan"), 2.5, -2.5, 15.9, -16.7, 36.7, -36.8]
DTYPES = ["float32", "float64", "float16"]


def _values(count: int, dtype: str, seed: int = 0) -> np.ndarray:
    """``count`` values: the edges first, then normal values of a wide spread."""
    rng = np.random.default_rng(seed)
    values = np.concatenate([np.array(EDGES), rng.standard_normal(count) * 30])[:count]
    return rng.permutation(values).astype(dtype) if count > len(EDGES) else values.astype(dtype)


def _bits(array) -> np.ndarray:
    array = np.ascontiguousarray(array)
    return array.view(f"u{array.itemsize}")


def _assert_same_bits(ours, theirs, what, ulps=0):
    """The same values (NaN where PyTorch has NaN), bit for bit, or at most ``ulps``
    apart (next representable numbers; 0, inf and the sign are always exact)."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, what
    nan = np.isnan(ours) & np.isnan(theirs)
    apart = np.abs(_bits(ours).astype(np.int64) - _bits(theirs).astype(np.int64))
    exact = (ours == 0) | (theirs == 0) | np.isinf(ours) | np.isinf(theirs)
    differ = ((apart > ulps) | (exact & (apart > 0))) & ~nan
    assert not differ.any(), (
        f"{what}: {differ.sum()} of {ours.size} differ, e.g. at x = "
        f"{np.flatnonzero(differ)[:3]}: minigrad {ours[differ][:3]}, torch {theirs[differ][:3]}")


LAYOUTS = {
    "contiguous": lambda t: t,
    "transposed": lambda t: t.reshape(-1, 4).t() if t.numel() % 4 == 0 else t,
    "every other": lambda t: t[::2],
    "rows of a slice": lambda t: t.reshape(-1, 4)[:, :3] if t.numel() % 4 == 0 else t,
    "rows of 20 of 24": lambda t: t.reshape(-1, 24)[:, 2:22] if t.numel() % 24 == 0 else t,
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("count", [1, 4, 15, 16, 17, 31, 33, 96, 480, 1000])
@pytest.mark.parametrize("dtype", DTYPES)
def test_values_are_torchs_within_four_ulps(dtype, count, layout):
    values = _values(count, dtype, seed=count)
    ours = LAYOUTS[layout](mg.tensor(values)).sigmoid()
    theirs = LAYOUTS[layout](torch.tensor(values)).sigmoid()
    _assert_same_bits(ours.numpy(), theirs.numpy(), f"{dtype} {count} {layout}", ulps=4)
    assert ours.stride() == theirs.stride()


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_edges_are_torchs_bit_for_bit(dtype):
    """Where exp(-x) overflows or underflows, at 0, inf and NaN: taken one by one, as
    PyTorch's kernel takes a strided tensor's elements. (float64's exp overflows
    only near -709: float32's edges, -105 to -86, are ordinary values there, whose
    last bit depends on which SLEEF kernel torch picks for the CPU, AVX2 or AVX512;
    they are held to 4 ulps, as in the test above, and 0, inf and NaN to the bit.)"""
    values = np.repeat(np.array(EDGES, dtype), 2)
    ours = mg.tensor(values)[::2].sigmoid().numpy()
    theirs = torch.tensor(values)[::2].sigmoid().numpy()
    ordinary = (values[::2] > -106) & (values[::2] < -86) & (dtype == "float64")
    _assert_same_bits(ours[~ordinary], theirs[~ordinary], dtype)
    _assert_same_bits(ours, theirs, dtype, ulps=4)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value", [-100.0, -88.5, -87.5, -104.5, -710.0, 50.0, float("nan")])
def test_zero_dim_values_are_torchs(dtype, value):
    ours = mg.tensor(value, dtype=getattr(mg, dtype)).sigmoid()
    theirs = torch.tensor(value, dtype=getattr(torch, dtype)).sigmoid()
    _assert_same_bits(ours.numpy(), theirs.numpy(), f"sigmoid({value}) in {dtype}")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("count", [40000, 65552, 70001])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_big_tensors_cut_between_threads_are_torchs(dtype, count, threads):
    values = _values(count, dtype, seed=7)
    before = torch.get_num_threads(), mg.get_num_threads()
    torch.set_num_threads(threads)
    mg.set_num_threads(threads)
    try:
        theirs = torch.tensor(values).sigmoid().numpy()
        ours = mg.tensor(values).sigmoid().numpy()
        strided_theirs = torch.tensor(values)[1::2].sigmoid().numpy()
        strided_ours = mg.tensor(values)[1::2].sigmoid().numpy()
    finally:
        torch.set_num_threads(before[0])
        mg.set_num_threads(before[1])
    _assert_same_bits(ours, theirs, f"{count} {dtype} on {threads} threads", ulps=4)
    _assert_same_bits(strided_ours, strided_theirs, f"{count} {dtype}[1::2]", ulps=4)


CALLS = {
    "x.sigmoid()": lambda lib, x: x.sigmoid(),
    "torch.sigmoid(x)": lambda lib, x: lib.sigmoid(x),
    "F.sigmoid(x)": lambda lib, x: lib.nn.functional.sigmoid(x),
    "nn.Sigmoid()(x)": lambda lib, x: lib.nn.Sigmoid()(x),
    "(x * 1).sigmoid_()": lambda lib, x: (x * 1).sigmoid_(),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", list(CALLS))
def test_every_call_and_its_gradient_are_torchs(call, dtype):
    values = _values(40 if dtype == "float32" else 7, dtype, seed=3)
    values = values[np.isfinite(values)]
    results = []
    for lib in (mg, torch):
        x = lib.tensor(values, requires_grad=True)
        y = CALLS[call](lib, x)
        (y * lib.tensor(values[::-1].copy())).sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy(), y.grad_fn.name()))
    (ours, ours_grad, ours_node), (theirs, theirs_grad, theirs_node) = results
    _assert_same_bits(ours, theirs, call, ulps=4)
    _assert_same_bits(ours_grad, theirs_grad, f"gradient of {call}", ulps=8)
    assert ours_node == theirs_node


def test_no_numpy_warning_where_exp_overflows():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = mg.tensor(_values(200, "float32")).sigmoid()
        mg.tensor([-1000.0, 1000.0], dtype=mg.float64).sigmoid()
    assert y.shape == (200,)
