"""Comparisons (``minigrad/ops/compare.py``) against PyTorch 2.13: values, dtype, shape, the
graph (node names and ``next_functions``), the gradient of every input, and the errors for
bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries (see
``torch_compare.py``; the shared arrays are in ``op_cases.py``)."""

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, X
from torch_compare import check, check_error, outcome, rand


HALVES = np.array([[0.5, 1.0, 1.5], [1.0, 2.0, 0.5]], np.float32)
HALVES2 = np.array([[0.5, 2.0, 1.0], [1.0, 1.5, 0.5]], np.float32)


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_comparisons(op):
    operators = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__",
                 "gt": "__gt__", "ge": "__ge__"}
    check(lambda lib, x, y: getattr(x, op)(y), HALVES, HALVES2)
    check(lambda lib, x, y: getattr(lib, op)(x, y), HALVES, HALVES2[0])
    check(lambda lib, x, y: getattr(x, operators[op])(y), HALVES, HALVES2)
    check(lambda lib, x: getattr(x, operators[op])(1.0), HALVES)
    check(lambda lib, x: getattr(x, operators[op])(1), HALVES)
    check(lambda lib, x, y: getattr(x, op)(y), HALVES, np.float32(1.0))
    check(lambda lib, x, y: getattr(x, op)(y), HALVES,
          np.array([[1, 2, 1], [0, 1, 1]], np.int64))


def test_comparison_operators_on_the_right():
    check(lambda lib, x: 1.0 < x, HALVES)
    check(lambda lib, x: 1 == x, HALVES)
    check(lambda lib, x: 1.0 >= x, HALVES)


def test_allclose_and_isclose():
    a = np.array([1.0, 2.0, 3.0], np.float32)
    b = a + np.array([0.0, 1e-6, 1e-3], np.float32)
    check(lambda lib, x, y: x.allclose(y), a, b)
    check(lambda lib, x, y: lib.allclose(x, y, atol=1e-2), a, b)
    check(lambda lib, x, y: lib.allclose(x, y, rtol=0, atol=0), a, a.copy())
    check(lambda lib, x, y: x.isclose(y), a, b)
    check(lambda lib, x, y: x.allclose(y), a, np.array([1.0, 2.0, np.nan], np.float32))
    check(lambda lib, x, y: x.allclose(y, equal_nan=True),
          np.array([np.nan], np.float32), np.array([np.nan], np.float32))
    check_error(lambda lib, x, y: lib.allclose(x, y), a, a.astype(np.float64))
    check_error(lambda lib, x, y: lib.isclose(x, y), a, a.astype(np.float64))
    check_error(lambda lib, x, y: lib.isclose(x, y), a, np.ones((2, 3, 4), np.float32))
    check_error(lambda lib, x, y: lib.allclose(x, y), a, np.ones((2, 3, 4), np.float32))
    check_error(lambda lib, x, y: x.isclose(y.long()), a, a)
    check(lambda lib, x, y: x.long().isclose(y.long()), a, b)


OP_ERRORS = [
    case(lambda lib, x, y: x == y, X, rand((4,)), id="eq-shapes"),
    case(lambda lib, x, y: x < y, X, rand((3, 2)), id="lt-shapes"),
]


@pytest.mark.parametrize("fn, arrays, options", OP_ERRORS)
def test_op_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)


@pytest.mark.parametrize("name", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
@pytest.mark.parametrize("other", ["tensor", "number", "0-dim", "int tensor"])
def test_a_comparison_in_place_is_recorded_as_torch_records_it(name, other):
    """y.lt_(x) on a tensor needing a gradient (or with x needing one): 1 or 0 in y's
    dtype, recorded as LtBackward1 (LtBackward0 against a number), whose gradients are 0."""
    import torch
    import minigrad as mg
    seen = []
    for lib in (mg, torch):
        a = lib.tensor([[-1.0, 0.5, 2.0], [0.5, 0.0, 3.0]], requires_grad=True)
        b = lib.tensor([0.5, 0.0, 1.0], requires_grad=True)
        operand = {"tensor": b, "number": 0.5, "0-dim": lib.tensor(0.5),
                   "int tensor": lib.tensor([0, 1, 2])}[other]
        c = a * 2
        getattr(c, name)(operand)
        (c * a).sum().backward()
        seen.append((repr(c).replace("minigrad", "torch"), c._version, c.grad_fn.name(),
                     [n.name() if n else None for n, _ in c.grad_fn.next_functions],
                     a.grad.tolist(), None if b.grad is None else b.grad.tolist()))
    assert seen[0] == seen[1]


def test_a_negative_or_big_number_beside_an_unsigned_tensor_wraps_as_torch():
    """torch casts a Python int to the integer tensor's type as C casts it (uint8's -2 is
    254) in comparisons, bitwise ops, %, fmod and //, where NumPy compared the numbers
    themselves or raised OverflowError."""
    import torch
    import minigrad as mg
    from torch_compare import outcome
    for text in ["x == -251", "x < -1", "x.eq(-251)", "x & -2", "x | 300", "x % -3",
                 "x.fmod(-2)", "x.remainder(-2)", "x // -1", "-3 % x", "x.floor_divide(-2)",
                 "x.div(-2, rounding_mode='trunc')", "x.bitwise_xor(-1)", "x >= 300"]:
        def call(lib, text=text):
            return eval(text, {"x": lib.tensor([5, 7, 0], dtype=lib.uint8)})
        assert outcome(call, mg) == outcome(call, torch), text


@pytest.mark.parametrize("dtype", ["float16", "float32", "int64", "uint8", "bool"])
def test_an_int_past_64_bits_is_refused_as_torchs_parser_refuses_it(dtype):
    """PyTorch reads a Python number beside a tensor as a C++ Scalar: an int of more than
    64 bits is its OverflowError ("int too big to convert"; "can't convert negative int to
    unsigned" below int64's least), in comparisons, // and % too (minigrad compared
    ``float16 == 2**70`` as inf, with NumPy's overflow warning, and divided by it)."""
    for text in ["x == 2**70", "x != 2**64", "x < -2**63 - 1", "x.eq(2**70)", "x.ge(-2**70)",
                 "torch.gt(x, 2**64)", "x // 2**70", "2**70 // x", "x % -2**64",
                 "x.remainder(2**70)", "x.fmod(2**64)", "x.floor_divide(2**65)"]:
        def call(lib, text=text):
            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)  # (none from NumPy)
                x = lib.tensor([1, 0], dtype=getattr(lib, dtype))
                return eval(text, {"x": x, "torch": lib})
        assert outcome(call, mg) == outcome(call, torch), text
        assert outcome(call, torch)[0] == "error" and "OverflowError" in outcome(call, torch)
