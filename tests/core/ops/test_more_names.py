"""PyTorch's other names and one-liners, against PyTorch 2.13: greater, greater_equal,
less, less_equal, not_equal, multiply, subtract, divide (and their in-place forms), eq_ ...
ge_, cumsum_, cumprod_, addmm_/addmv_/baddbmm_, inner (a tensordot: MmBackward0 and
ViewBackward0), diagflat (DiagEmbedBackward0), sum_to_size (SumBackward1, ViewBackward0),
isposinf/isneginf/isreal, is_nonzero, is_same_size, nbytes, itemsize, new_empty_strided,
unique_consecutive. Values bit for bit, graphs, gradients (and finite differences in
float64), printed results, integer inputs and the error texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_error, check_numerical, outcome, rand

X = rand((2, 3, 4), seed=0)
Y = rand((3, 4), seed=1, low=0.5, high=2.0)
M = rand((3, 4), seed=2)
V = rand((4,), seed=3)

CASES = {  # name: (function, inputs)
    "multiply": (lambda lib, x, y: lib.multiply(x, y), (X, Y)),
    "Tensor.multiply": (lambda lib, x, y: x.multiply(y), (X, Y)),
    "subtract alpha": (lambda lib, x, y: lib.subtract(x, y, alpha=2), (X, Y)),
    "Tensor.subtract": (lambda lib, x, y: x.subtract(y), (X, Y)),
    "divide": (lambda lib, x, y: lib.divide(x, y), (X, Y)),
    "divide floor": (lambda lib, x, y: lib.divide(x, y, rounding_mode="floor") * x, (X, Y)),
    "Tensor.divide trunc": (lambda lib, x, y: x.divide(y, rounding_mode="trunc") + x, (X, Y)),
    "inner vectors": (lambda lib, v, w: lib.inner(v, w), (V, V * 2)),
    "inner matrices": (lambda lib, x, m: lib.inner(x, m), (X, M)),
    "Tensor.inner": (lambda lib, m, v: m.inner(v), (M, V)),
    "inner 0-d": (lambda lib, m, v: lib.inner(m, v.sum()), (M, V)),
    "diagflat": (lambda lib, m: lib.diagflat(m), (M,)),
    "diagflat offset": (lambda lib, v: lib.diagflat(v, -1), (V,)),
    "Tensor.diagflat": (lambda lib, v: v.diagflat(2), (V,)),
    "sum_to_size keep": (lambda lib, x: x.sum_to_size(2, 1, 4), (X,)),
    "sum_to_size leading": (lambda lib, x: x.sum_to_size(3, 4), (X,)),
    "sum_to_size tuple": (lambda lib, x: x.sum_to_size((1, 4)), (X,)),
    "sum_to_size same": (lambda lib, x: x.sum_to_size(2, 3, 4) * 2, (X,)),
    "multiply_": (lambda lib, x, y: (x * 1).multiply_(y), (X, Y)),
    "subtract_": (lambda lib, x, y: (x * 1).subtract_(y, alpha=3), (X, Y)),
    "divide_": (lambda lib, x, y: (x * 1).divide_(y), (X, Y)),
    "cumsum_": (lambda lib, x: (x * 1).cumsum_(1), (X,)),
    "cumprod_": (lambda lib, x: (x * 1).cumprod_(-1), (X,)),
    "addmm_": (lambda lib, m, a, b: (m * 1).addmm_(a, b, beta=0.5, alpha=2), (M, M[:, :3], M)),
    "addmv_": (lambda lib, v, m, w: (w[:3] * 1).addmv_(m, v, alpha=3), (V, M, V)),
    "baddbmm_": (lambda lib, x, m: (x[:, :, :3] * 1).baddbmm_(x, m.T.expand(2, 4, 3)),
                 (X, M)),
}


# (a matrix product's sums run in BLAS's order, not torch's: a few ulps apart)
MATRIX_PRODUCTS = {"inner matrices", "Tensor.inner", "addmm_", "addmv_", "baddbmm_"}


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch_bit_for_bit(name):
    fn, inputs = CASES[name]
    if name in MATRIX_PRODUCTS:
        check(fn, *inputs)
        return
    check(fn, *inputs, rtol=0, atol=0)
    ours = outcome(lambda lib: fn(lib, *mirror_of(lib, inputs)), mg)
    assert ours == outcome(lambda lib: fn(lib, *mirror_of(lib, inputs)), torch)


def mirror_of(lib, inputs):
    return [lib.tensor(np.array(a), requires_grad=True) for a in inputs]


@pytest.mark.parametrize("name", [n for n in CASES if "floor" not in n and "trunc" not in n])
def test_gradient_against_finite_differences(name):
    fn, inputs = CASES[name]
    check_numerical(lambda *xs: fn(mg, *xs), *inputs)


SPECIAL = np.array([1.0, np.inf, -np.inf, np.nan, -0.0, 2.5], np.float32)
INTS = np.array([[3, -1, 4], [-1, 5, -9]], np.int64)
PROGRAMS = {  # printed results, no gradient
    "greater": lambda lib: lib.greater(lib.tensor(INTS), 0),
    "greater_equal": lambda lib: lib.greater_equal(lib.tensor(INTS), lib.tensor([3, 5, 4])),
    "less": lambda lib: lib.tensor(INTS).less(-1.5),
    "less_equal": lambda lib: lib.less_equal(lib.tensor(SPECIAL), 1),
    "not_equal": lambda lib: lib.tensor(SPECIAL).not_equal(lib.tensor(SPECIAL)),
    "out=": lambda lib: lib.greater(lib.tensor(INTS), 1, out=lib.empty(2, 3, dtype=lib.bool)),
    "multiply ints": lambda lib: lib.multiply(lib.tensor(INTS), 3),
    "divide ints": lambda lib: lib.divide(lib.tensor(INTS), 2),
    "divide ints floor": lambda lib: lib.tensor(INTS).divide(2, rounding_mode="floor"),
    "subtract ints": lambda lib: lib.subtract(lib.tensor(INTS), lib.tensor(INTS), alpha=2),
    "eq_": lambda lib: lib.tensor(SPECIAL).eq_(1),
    "ne_": lambda lib: lib.tensor(INTS).ne_(lib.tensor(INTS).flip(0)),
    "lt_ gt_ le_ ge_": lambda lib: [lib.tensor(INTS).lt_(0), lib.tensor(INTS).gt_(0),
                                    lib.tensor(SPECIAL).le_(1), lib.tensor(SPECIAL).ge_(1)],
    "greater_ ... not_equal_": lambda lib: [
        lib.tensor(SPECIAL).greater_(0), lib.tensor(SPECIAL).greater_equal_(0),
        lib.tensor(SPECIAL).less_(0), lib.tensor(SPECIAL).less_equal_(0),
        lib.tensor(SPECIAL).not_equal_(0)],
    "cumsum_ ints": lambda lib: lib.tensor(INTS).cumsum_(0),
    "cumprod_ ints": lambda lib: lib.tensor(INTS).cumprod_(1),
    "isposinf isneginf": lambda lib: [lib.isposinf(lib.tensor(SPECIAL)),
                                      lib.tensor(SPECIAL).isneginf(),
                                      lib.isposinf(lib.tensor(INTS))],
    "isreal": lambda lib: [lib.isreal(lib.tensor(SPECIAL)), lib.tensor(INTS).isreal()],
    "is_nonzero": lambda lib: [lib.tensor([2.0]).is_nonzero(), lib.tensor(0).is_nonzero(),
                               lib.tensor([[False]]).is_nonzero()],
    "is_same_size": lambda lib: [lib.ones(2, 3).is_same_size(lib.zeros(2, 3)),
                                 lib.ones(2, 3).is_same_size(lib.ones(3, 2))],
    "nbytes itemsize": lambda lib: [(t.nbytes, t.itemsize) for t in (
        lib.ones(2, 3), lib.ones(5, dtype=lib.float64), lib.ones(3, dtype=lib.int8),
        lib.ones(4, dtype=lib.bool), lib.ones(2, 2, dtype=lib.float16).t())],
    "new_empty_strided": lambda lib: [(t.shape, t.dtype) for t in (
        lib.ones(2).new_empty_strided((2, 3), (3, 1)),
        lib.ones(2).new_empty_strided((4,), (1,), dtype=lib.int64))],
    "unique_consecutive": lambda lib: lib.unique_consecutive(
        lib.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True, return_counts=True),
    "unique_consecutive floats": lambda lib: lib.tensor(
        [[1.0, 1.0], [2.0, 1.0]]).unique_consecutive(return_inverse=True),
    "unique_consecutive dim 0": lambda lib: lib.unique_consecutive(
        lib.tensor([[1, 1, 2], [1, 1, 2], [0, 0, 0]]), dim=0, return_counts=True),
    "unique_consecutive dim 1": lambda lib: lib.unique_consecutive(
        lib.tensor([[1, 1, 2], [1, 1, 2]]), dim=1, return_inverse=True, return_counts=True),
    "unique_consecutive empty": lambda lib: lib.unique_consecutive(
        lib.tensor([], dtype=lib.int64), return_counts=True),
    "unique_consecutive grad_fn": lambda lib: lib.unique_consecutive(
        lib.tensor([1.0, 1.0, 3.0], requires_grad=True)),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_printed_results(name):
    assert outcome(PROGRAMS[name], mg) == outcome(PROGRAMS[name], torch)


ERRORS = {
    "sum_to_size not expandable": lambda lib, x: x.sum_to_size(2),
    "sum_to_size too many dims": lambda lib, x: x.sum_to_size(1, 2, 3, 4),
    "sum_to_size wrong size": lambda lib, x: x.sum_to_size(2, 3),
    "is_nonzero several": lambda lib, x: x.is_nonzero(),
    "is_nonzero empty": lambda lib, x: x[:0].is_nonzero(),
    "inner sizes": lambda lib, x: lib.inner(x, x[:, :, :2]),
    "greater shapes": lambda lib, x: lib.greater(x, x[:, :2]),
    "eq_ broadcast": lambda lib, x: x[:, :1].eq_(x),
    "cumsum_ dim": lambda lib, x: x.cumsum_(3),
    "unique_consecutive backward": lambda lib, x: lib.unique_consecutive(x * 2).sum().backward(),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    check_error(ERRORS[name], X)


def test_program_mixing_the_names():
    """A masked loss written with the long names, trained a few steps on both libraries."""
    def program(lib):
        lib.manual_seed(0)
        w = lib.tensor(M.copy(), requires_grad=True)
        x = lib.tensor(X[0].T.copy())
        for _ in range(3):
            pred = lib.inner(x, w.T.contiguous())
            mask = lib.greater_equal(pred, 0).float()
            loss = lib.multiply(lib.subtract(pred, 1.0, alpha=0.5).pow(2), mask).sum()
            loss = lib.divide(loss, mask.sum().clamp(min=1))
            loss.backward()
            with lib.no_grad():
                w.subtract_(w.grad, alpha=0.1)
                w.grad.zero_()
        return loss, w
    ours, theirs = program(mg), program(torch)
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), rtol=1e-6)
        assert type(o.grad_fn).__name__ == type(t.grad_fn).__name__
