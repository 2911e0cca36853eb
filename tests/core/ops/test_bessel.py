"""torch.i0 / special.i0 (I0Backward0) and special.i1 (SpecialI1Backward0, which i0's
gradient records) against PyTorch 2.13: values bit for bit over 300,000 points in
float32, float64 and float16 (PyTorch's Cephes series step by step, fused as its
compiler fuses it, with the C library's exp), gradients bit for bit (at 0 too, where
i1's formula is 0/0 and PyTorch puts 1/2), finite differences, second derivatives,
integer inputs, in place, ``out=`` and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_bits, check_double_backward, check_numerical, outcome

rng = np.random.default_rng(0)
POINTS = np.concatenate([rng.uniform(-10, 10, 200000), rng.uniform(-90, 90, 100000),
                         rng.uniform(-1e-3, 1e-3, 1000),
                         [0, -0.0, 8, -8, 8.0000001, 7.9999999, np.inf, -np.inf, np.nan, 1e-30,
                          1e-7, -1e-7, 88.5, 89.5, 720, -720]])
EDGES = np.array([[0.0, -0.0, 1e-30, -1e-8, 8.0, -8.0], [7.5, 8.5, -30.0, 2.5, np.inf, np.nan]])


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("name", ["i0", "i1"])
def test_values_are_torchs_bit_for_bit(name, dtype):
    x = POINTS.astype(dtype)
    with np.errstate(all="ignore"):
        ours = getattr(mg.special, name)(mg.tensor(x)).numpy()
    theirs = getattr(torch.special, name)(torch.tensor(x)).numpy()
    assert ours.dtype == theirs.dtype
    same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
    assert same.all(), (x[~same][:5], ours[~same][:5], theirs[~same][:5])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda lib, x: lib.i0(x), lambda lib, x: lib.special.i1(x), lambda lib, x: x.i0() * x,
    lambda lib, x: lib.special.i0(x * 2) + lib.special.i1(x * x),
], ids=["i0", "i1", "method", "special"])
def test_gradients_have_torchs_bits(fn, dtype):
    """At 0 and +-0, tiny values (i1's gradient is 1/2 where |x| <= eps), the two series'
    border at 8, infinities and NaN."""
    with np.errstate(all="ignore"):
        check_bits(fn, EDGES.astype(dtype))


@pytest.mark.parametrize("fn", [
    lambda lib, x: lib.i0(x), lambda lib, x: lib.special.i1(x),
    lambda lib, x: x.i0() * lib.special.i1(x) - x, lambda lib, x: (x * 1).i0_() * x,
], ids=["i0", "i1", "program", "in-place"])
def test_graphs_and_gradients_are_torchs(fn):
    check(fn, rng.uniform(-12, 12, (3, 4)).astype(np.float32))


@pytest.mark.parametrize("fn", [lambda x: mg.i0(x), lambda x: mg.special.i1(x),
                                lambda x: mg.special.i1(x / 2) * (x / 3).i0()],
                         ids=["i0", "i1", "both"])
def test_gradients_against_finite_differences(fn):
    check_numerical(fn, rng.uniform(-6, 6, (3, 4)))


@pytest.mark.parametrize("fn", [lambda lib, x: lib.i0(x), lambda lib, x: lib.special.i1(x)],
                         ids=["i0", "i1"])
def test_second_derivatives_are_torchs(fn):
    check_double_backward(fn, rng.uniform(-10, 10, (2, 3)))


CALLS = {
    "printed": lambda lib: lib.i0(lib.tensor([0.0, 1.0, -2.0], requires_grad=True)),
    "i1-printed": lambda lib: lib.special.i1(lib.tensor([0.0, 1.0, -2.0], requires_grad=True)),
    "int": lambda lib: lib.i0(lib.tensor([1, 2])),
    "bool": lambda lib: lib.i0(lib.tensor([True])),
    "i1-int": lambda lib: lib.special.i1(lib.tensor([1, 2])),
    "half": lambda lib: lib.i0(lib.tensor([1.5, 2.0], dtype=lib.float16)),
    "in-place": lambda lib: lib.tensor([1.0, 2.0]).i0_(),
    "0-dim": lambda lib: (lib.i0(lib.tensor(0.0)), lib.special.i1(lib.tensor(-1.5)),
                          lib.i0(lib.tensor(2.0, dtype=lib.float16))),
    "0-dim-gradient": lambda lib: [lib.autograd.grad(lib.special.i1(t), t) for t in
                                   [lib.tensor(1.5, requires_grad=True),
                                    lib.tensor(0.0, requires_grad=True)]],
    "empty": lambda lib: lib.i0(lib.ones(0)),
    "out": lambda lib: lib.i0(lib.ones(2), out=lib.empty(2)),
    "int-in-place": lambda lib: lib.tensor([1, 2]).i0_(),
    "not-a-tensor": lambda lib: lib.i0([1.0]),
    "out-requires-grad": lambda lib: lib.special.i1(lib.ones(2, requires_grad=True),
                                                    out=lib.empty(2)),
    "saved": lambda lib: sorted(a for a in dir(lib.special.i1(lib.ones(2, requires_grad=True))
                                                .grad_fn) if a.startswith("_saved")),
}


@pytest.mark.parametrize("name", CALLS)
def test_calls_print_and_fail_as_torch(name):
    assert outcome(CALLS[name], mg) == outcome(CALLS[name], torch)
