"""Elementwise functions (``minigrad/ops/pointwise.py``) against PyTorch 2.13: values, dtype,
shape, the graph (node names and ``next_functions``), the gradient of every input, and the
errors for bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries (see
``torch_compare.py``; the shared arrays are in ``op_cases.py``)."""

import numpy as np
import pytest

from op_cases import case, run, X, Y, POS, ROW, AWAY
from torch_compare import check, check_error, rand


BOUND_LOW = rand((4,), seed=9, low=-1.0, high=-0.2)
BOUND_HIGH = rand((3, 1), seed=10, low=0.2, high=1.0)

POINTWISE = [
    case(lambda lib, x: x.exp(), X, id="exp"),
    case(lambda lib, x: lib.exp(x), X, id="torch.exp"),
    case(lambda lib, x: x.log(), POS, id="log"),
    case(lambda lib, x: x.sqrt(), POS, id="sqrt"),
    case(lambda lib, x: x.tanh(), X, id="tanh"),
    case(lambda lib, x: x.sigmoid(), X, id="sigmoid"),
    case(lambda lib, x: lib.sigmoid(x * 30), X, id="sigmoid-saturated"),
    case(lambda lib, x: x.relu(), AWAY, id="relu"),
    case(lambda lib, x: lib.relu(x), AWAY, id="torch.relu"),
    case(lambda lib, x: x.abs(), AWAY, id="abs"),
    case(lambda lib, x: abs(x), AWAY, id="abs-builtin"),
    case(lambda lib, x: x.sign(), AWAY, id="sign"),
    case(lambda lib, x: x.sin(), X, id="sin"),
    case(lambda lib, x: x.cos(), X, id="cos"),
    case(lambda lib, x: x.clamp(-0.5, 0.5), AWAY, id="clamp"),
    case(lambda lib, x: x.clamp(min=-0.5), AWAY, id="clamp-min"),
    case(lambda lib, x: x.clamp(max=0.5), AWAY, id="clamp-max"),
    case(lambda lib, x: x.clamp(min=1, max=0), AWAY, id="clamp-min-above-max"),
    case(lambda lib, x: lib.clamp(x, -0.5, 0.5), AWAY, id="torch.clamp"),
    case(lambda lib, x: x.clip(-0.5, 0.5), AWAY, id="clip"),
    case(lambda lib, x, lo: x.clamp(min=lo), AWAY, BOUND_LOW, id="clamp-tensor-min"),
    case(lambda lib, x, hi: x.clamp(max=hi), AWAY, BOUND_HIGH, id="clamp-tensor-max"),
    case(lambda lib, x, lo, hi: x.clamp(lo, hi), AWAY, BOUND_LOW, BOUND_HIGH,
         id="clamp-tensor-both"),
    case(lambda lib, x, lo, hi: x.clamp(lo, hi), AWAY, BOUND_LOW, BOUND_HIGH,
         requires_grad=[True, False, False], id="clamp-tensor-bounds-constant"),
    case(lambda lib, x, hi: x.clamp(min=hi, max=hi - 0.5), AWAY, BOUND_HIGH,
         id="clamp-tensor-min-above-max"),
    case(lambda lib, x, y: lib.maximum(x, y), X, Y, id="maximum"),
    case(lambda lib, x, y: lib.minimum(x, y), X, Y, id="minimum"),
    case(lambda lib, x, y: x.maximum(y), X, ROW, id="maximum-broadcast"),
    case(lambda lib, x, y: lib.max(x, y), X, Y, id="max-of-two"),
    case(lambda lib, x, y: lib.min(x, y), X, Y, id="min-of-two"),
    case(lambda lib, x, y: lib.where(x > 0, x, y), X, Y, id="where"),
    case(lambda lib, x, y: lib.where(x > 0, x, y), X, ROW, id="where-broadcast"),
    case(lambda lib, x: lib.where(x > 0, x, 0.0), X, id="where-scalar-other"),
    case(lambda lib, x: lib.where(x > 0, 1.0, x), X, id="where-scalar-self"),
    case(lambda lib, x, y: x.where(x > 0, y), X, Y, id="where-method"),
    case(lambda lib, x, y: lib.where(x > 0, x, y), X, Y, requires_grad=[False, True],
         id="where-other-grad"),
    case(lambda lib, x: x.masked_fill(x > 0, -1.0), X, id="masked_fill"),
    case(lambda lib, x, m: x.masked_fill(m > 0, 2.0), X, ROW, id="masked_fill-broadcast"),
    case(lambda lib, x: x.masked_fill(x > 0, 3), X, id="masked_fill-int-value"),
]


@pytest.mark.parametrize("fn, arrays, options", POINTWISE)
def test_pointwise(fn, arrays, options):
    run(fn, arrays, options)


def test_maximum_minimum_split_ties_evenly():
    a = np.array([1.0, 2.0, 3.0, -1.0], np.float32)
    b = np.array([1.0, 0.0, 3.0, 5.0], np.float32)
    check(lambda lib, x, y: lib.maximum(x, y), a, b)
    check(lambda lib, x, y: lib.minimum(x, y), a, b)


def test_relu_abs_clamp_at_their_kinks():
    """At the kink torch picks a one-sided derivative; so must minigrad."""
    x = np.array([0.0, -0.5, 0.5, 1.0, -1.0], np.float32)
    check(lambda lib, t: t.relu(), x)
    check(lambda lib, t: t.abs(), x)
    check(lambda lib, t: t.clamp(-0.5, 0.5), x)
    check(lambda lib, t: t.clamp(min=0.0), x)
    check(lambda lib, t: t.clamp(max=0.5), x)
    check(lambda lib, t, lo: t.clamp(min=lo), x, x.copy())


def test_clamp_tensor_bound_ties():
    x = np.array([0.0, 1.0, 2.0, 3.0], np.float32)
    lo = np.array([0.0, 2.0, 1.0, 3.0], np.float32)
    hi = np.array([1.0, 2.0, 2.0, 3.0], np.float32)
    check(lambda lib, t, a, b: t.clamp(a, b), x, lo, hi)


def test_masked_fill_with_a_tensor_value():
    value = np.asarray(np.float32(1.5))
    check(lambda lib, x, v: x.masked_fill(x > 0, v), X, value)
    check(lambda lib, x, v: x.masked_fill(x > 0, v), X, value, requires_grad=[True, False])


def test_sqrt_log_of_zero_and_negative_match_torch():
    x = np.array([0.0, 1.0, 4.0], np.float32)
    check(lambda lib, t: t.log(), x, requires_grad=False)
    check(lambda lib, t: t.sqrt(), x)
    check(lambda lib, t: t.log(), np.array([-1.0, 0.5], np.float32), requires_grad=False)


def test_pointwise_on_integers_gives_float32():
    ints = np.array([[1, 2], [3, 4]], np.int64)
    for fn in (lambda lib, x: x.exp(), lambda lib, x: x.log(), lambda lib, x: x.sqrt(),
               lambda lib, x: x.tanh(), lambda lib, x: x.sigmoid(), lambda lib, x: x.sin(),
               lambda lib, x: x.cos(), lambda lib, x: x.relu(), lambda lib, x: x.abs(),
               lambda lib, x: -x, lambda lib, x: x.clamp(2, 3),
               lambda lib, x: x.clamp(1.5, 3), lambda lib, x: x.sign(),
               lambda lib, x: x.reciprocal(), lambda lib, x: x.masked_fill(x > 2, 0),
               lambda lib, x: x.logsumexp(0), lambda lib, x: lib.softmax(x, 0, dtype=lib.float64)):
        check(fn, ints)
    for fn in (lambda lib, x: x.softmax(0), lambda lib, x: x.softmax(1),
               lambda lib, x: x.log_softmax(1), lambda lib, x: x.log_softmax(0),
               lambda lib, x: x.var(), lambda lib, x: x.std(0)):
        check_error(fn, ints)


OP_ERRORS = [
    case(lambda lib, x: x.clamp(), X, id="clamp-no-bounds"),
    case(lambda lib, x, y: x.clamp(min=y), X, rand((4,)), id="clamp-tensor-shape"),
    case(lambda lib, x, y: lib.maximum(x, y), X, rand((4,)), id="maximum-shapes"),
    case(lambda lib, x, y: lib.where(x, x, y), X, Y, id="where-float-condition"),
    case(lambda lib, x, y: lib.where(x > 0, x, y), X, rand((4,)), id="where-shapes"),
    case(lambda lib, x, y: x.masked_fill(y, 1.0), X, Y, id="masked_fill-float-mask"),
    case(lambda lib, x: x.masked_fill(x[0] > 0, x), X, id="masked_fill-value-dims"),
    case(lambda lib, x, m: x.masked_fill(m > 0, 1.0), X, rand((4,)), id="masked_fill-shape"),
]


@pytest.mark.parametrize("fn, arrays, options", OP_ERRORS)
def test_op_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)
