"""dtype promotion against PyTorch 2.13: between tensors of every dtype (0-dim ones
included), with Python numbers, the gradients' dtypes, and ``result_type``."""

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import X, Y
from torch_compare import check, check_error, rand


TENSOR_DTYPES = ["float32", "float64", "int64", "int32", "bool"]


def typed(dtype, shape=(2, 3), seed=0):
    if dtype == "bool":
        return rand(shape, seed=seed, dtype="bool")
    if dtype.startswith("int"):
        return rand(shape, seed=seed, dtype=dtype, low=1, high=4)
    return rand(shape, seed=seed, dtype=dtype, low=0.5, high=2.0)


def _binary_ops():
    return {
        "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
        "div": lambda x, y: x / y, "pow": lambda x, y: x ** y,
        "maximum": lambda x, y: (mg if isinstance(x, mg.Tensor) or isinstance(y, mg.Tensor)
                                 else torch).maximum(x, y),
        "eq": lambda x, y: x == y, "lt": lambda x, y: x < y,
        "where": lambda x, y: (mg if isinstance(x, mg.Tensor) else torch).where(x > 1, x, y),
    }


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "pow", "maximum", "eq", "lt",
                                "where"])
@pytest.mark.parametrize("left", TENSOR_DTYPES)
@pytest.mark.parametrize("right", TENSOR_DTYPES + ["0-dim float64", "0-dim int64",
                                                   "0-dim int32", "0-dim bool"])
def test_promotion_between_tensors(op, left, right):
    fn = _binary_ops()[op]
    if right.startswith("0-dim"):
        right_array = np.asarray(typed(right.split()[1], shape=()))
    else:
        right_array = typed(right, seed=1)
    expected_error = None
    try:
        fn(*[torch.tensor(a) for a in (typed(left), right_array)])
    except Exception as error:  # bool - bool, bool ** ... and friends fail in torch too
        expected_error = error
    if expected_error is not None:
        check_error(lambda lib, x, y: fn(x, y), typed(left), right_array, requires_grad=False)
    else:
        check(lambda lib, x, y: fn(x, y), typed(left), right_array, requires_grad=False)


SCALARS = [2, 2.5, True, -3, 0.5]


@pytest.mark.parametrize("op", ["add", "sub", "rsub", "mul", "div", "rdiv", "pow", "rpow",
                                "eq", "gt", "clamp", "where", "masked_fill"])
@pytest.mark.parametrize("dtype", TENSOR_DTYPES + ["0-dim float64", "0-dim int32"])
@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
def test_promotion_with_python_scalars(op, dtype, scalar):
    ops = {
        "add": lambda lib, x: x + scalar, "sub": lambda lib, x: x - scalar,
        "rsub": lambda lib, x: scalar - x, "mul": lambda lib, x: x * scalar,
        "div": lambda lib, x: x / scalar, "rdiv": lambda lib, x: scalar / x,
        "pow": lambda lib, x: x ** scalar, "rpow": lambda lib, x: scalar ** x,
        "eq": lambda lib, x: x == scalar, "gt": lambda lib, x: x > scalar,
        "clamp": lambda lib, x: x.clamp(min=scalar),
        "where": lambda lib, x: lib.where(x > 1, x, scalar),
        "masked_fill": lambda lib, x: x.masked_fill(x > 1, scalar),
    }
    array = np.asarray(typed(dtype.split()[-1], shape=() if dtype.startswith("0-dim") else (2, 3)))
    fn = ops[op]
    try:
        fn(torch, torch.tensor(array))
    except Exception:
        check_error(fn, array, requires_grad=False)
        return
    check(fn, array, requires_grad=False)


def test_promotion_examples_from_the_docs():
    ints = np.array([1, 2, 3], np.int64)
    floats = np.array([1.0, 2.0, 3.0], np.float32)
    ours, theirs = check(lambda lib, x: x * 2.5, ints)
    assert ours.dtype == mg.float32 and theirs.dtype == torch.float32
    ours, theirs = check(lambda lib, x, y: x * y, floats, np.asarray(np.float64(2.0)),
                         requires_grad=False)
    assert ours.dtype == mg.float32
    ours, theirs = check(lambda lib, x, y: x / y, ints, ints + 1)
    assert ours.dtype == mg.float32


def test_gradient_dtype_follows_each_input():
    """float32 * float64 promotes to float64; each input's gradient has its own dtype."""
    check(lambda lib, x, y: x * y, X, Y.astype(np.float64))
    check(lambda lib, x, y: x * y, X, np.asarray(np.float64(1.5)))
    check(lambda lib, x, y: lib.cat([x, y]), X, Y.astype(np.float64))
    check(lambda lib, x, y: lib.where(x > 0, x, y), X, Y.astype(np.float64))


def test_result_type_function():
    for a, b in ((np.float32(1), 2), (np.int64(1), 2.5), (np.int32(1), True)):
        ours = mg.result_type(mg.tensor(np.asarray(a)), b)
        theirs = torch.result_type(torch.tensor(np.asarray(a)), b)
        assert repr(ours) == str(theirs)
