"""Every operation against PyTorch 2.13: values, dtype, shape, the graph (node names and
``next_functions``), the gradient of every input, and the errors for bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries
(see ``torch_compare.py``).
"""

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import (assert_same_tensor, chain, check, check_error, distinct,
                            mirror, rand)

INF = float("inf")


def case(fn, *arrays, id, marks=(), **options):
    return pytest.param(fn, arrays, options, id=id, marks=marks)


def run(fn, arrays, options):
    check(fn, *arrays, **options)


X = rand((2, 3), seed=0)
Y = rand((2, 3), seed=1)
POS = rand((2, 3), seed=2, low=0.5, high=2.0)
POS2 = rand((2, 3), seed=3, low=0.5, high=2.0)
ROW = rand((3,), seed=4)
COL = rand((2, 1), seed=5)
SCALAR = np.asarray(rand((), seed=6))
X3 = rand((2, 3, 4), seed=7)
COL3 = rand((3, 1), seed=13)


# ---- arithmetic --------------------------------------------------------------

ARITHMETIC = [
    case(lambda lib, x, y: x + y, X, Y, id="add"),
    case(lambda lib, x, y: x - y, X, Y, id="sub"),
    case(lambda lib, x, y: x * y, X, Y, id="mul"),
    case(lambda lib, x, y: x / y, X, POS, id="div"),
    case(lambda lib, x, y: x ** y, POS, Y, id="pow-tensor"),
    case(lambda lib, x: x ** x, POS, id="pow-self"),
    case(lambda lib, x, y: x + y, X, ROW, id="add-broadcast-row"),
    case(lambda lib, x, y: x * y, X, COL, id="mul-broadcast-col"),
    case(lambda lib, x, y: x / y, COL, POS, id="div-broadcast-lhs"),
    case(lambda lib, x, y: x - y, X3, COL3, id="sub-broadcast-3d"),
    case(lambda lib, x, y: x ** y, POS, ROW, id="pow-broadcast"),
    case(lambda lib, x, y: x * y, X, SCALAR, id="mul-0dim"),
    case(lambda lib, x: x + 2, X, id="add-int"),
    case(lambda lib, x: 2 + x, X, id="radd-int"),
    case(lambda lib, x: x + 2.5, X, id="add-float"),
    case(lambda lib, x: x + True, X, id="add-bool"),
    case(lambda lib, x: x - 2, X, id="sub-int"),
    case(lambda lib, x: 2 - x, X, id="rsub-int"),
    case(lambda lib, x: 2.5 - x, X, id="rsub-float"),
    case(lambda lib, x: x * 3, X, id="mul-int"),
    case(lambda lib, x: 3.5 * x, X, id="rmul-float"),
    case(lambda lib, x: x / 2, X, id="div-int"),
    case(lambda lib, x: 2 / x, POS, id="rdiv-int"),
    case(lambda lib, x: 1.5 / x, POS, id="rdiv-float"),
    case(lambda lib, x: x ** 2, X, id="pow-2"),
    case(lambda lib, x: x ** 3.0, X, id="pow-3.0"),
    case(lambda lib, x: x ** 0.5, POS, id="pow-half"),
    case(lambda lib, x: x ** -1, POS, id="pow-neg"),
    case(lambda lib, x: x ** 0, X, id="pow-0"),
    case(lambda lib, x: x ** 1, X, id="pow-1"),
    case(lambda lib, x: 2 ** x, X, id="rpow-int"),
    case(lambda lib, x: 0.5 ** x, X, id="rpow-float"),
    case(lambda lib, x: -x, X, id="neg"),
    case(lambda lib, x: x.neg(), X, id="neg-method"),
    case(lambda lib, x, y: x.add(y, alpha=2), X, Y, id="add-alpha"),
    case(lambda lib, x, y: x.sub(y, alpha=0.5), X, Y, id="sub-alpha"),
    case(lambda lib, x: x.add(3, alpha=2), X, id="add-scalar-alpha"),
    case(lambda lib, x, y: lib.add(x, y), X, Y, id="torch.add"),
    case(lambda lib, x: lib.add(2, x), X, id="torch.add-number-first"),
    case(lambda lib, x: lib.sub(2, x), X, id="torch.sub-number-first"),
    case(lambda lib, x: lib.mul(2, x), X, id="torch.mul-number-first"),
    case(lambda lib, x: lib.div(2, x), POS, id="torch.div-number-first"),
    case(lambda lib, x: lib.pow(2, x), X, id="torch.pow-number-first"),
    case(lambda lib, x: lib.pow(x, 2), X, id="torch.pow"),
    case(lambda lib, x, y: lib.mul(x, y), X, Y, id="torch.mul"),
    case(lambda lib, x, y: lib.div(x, y), X, POS, id="torch.div"),
    case(lambda lib, x: x.reciprocal(), POS, id="reciprocal"),
    case(lambda lib, x, y: x * y, X, Y, requires_grad=[True, False], id="mul-one-grad"),
    case(lambda lib, x, y: x / y, X, POS, requires_grad=[False, True], id="div-other-grad"),
    case(lambda lib, x, y: x ** y, POS, Y, requires_grad=[False, True], id="pow-exp-grad"),
    case(lambda lib, x: x * x, X, id="mul-same-input-twice"),
    case(lambda lib, x: (x * 2 + 1) * (x - 3) / (x * x + 1), X, id="composite"),
]


@pytest.mark.parametrize("fn, arrays, options", ARITHMETIC)
def test_arithmetic(fn, arrays, options):
    run(fn, arrays, options)


def test_pow_tensor_exponent_at_zero_base():
    """d/db 0**b is taken as 0 for b >= 0 (torch masks log(0)); d/da where b == 0 is 0."""
    base = np.array([0.0, 0.0, 1.5, 2.0, 0.0], np.float32)
    exponent = np.array([2.0, 0.0, 0.0, 1.5, 3.0], np.float32)
    check(lambda lib, a, b: a ** b, base, exponent)


def test_pow_scalar_exponent_at_zero():
    check(lambda lib, x: x ** 2, np.array([0.0, 1.0, -1.0], np.float32))
    check(lambda lib, x: x ** 0, np.array([0.0, 1.0, -1.0], np.float32))


def test_division_by_zero_gives_inf_like_torch():
    check(lambda lib, x, y: x / y, np.array([1.0, -1.0, 0.0], np.float32),
          np.array([0.0, 0.0, 1.0], np.float32), requires_grad=[True, False])


# ---- pointwise -------------------------------------------------------------------

AWAY = rand((3, 4), seed=8, away_from=[0.0, -0.5, 0.5], gap=0.15)
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


NAN = np.array([[1.0, np.nan, 3.0], [-1.0, 2.0, np.nan]], np.float32)
NON_FINITE = {
    "max": lambda lib, t: t.max(), "max-dim": lambda lib, t: t.max(1),
    "min-dim": lambda lib, t: t.min(0), "argmax": lambda lib, t: t.argmax(1),
    "argmin": lambda lib, t: t.argmin(), "maximum": lambda lib, t: lib.maximum(t, t * 0),
    "minimum": lambda lib, t: lib.minimum(t, t * 0 + 1), "clamp": lambda lib, t: t.clamp(0, 2),
    "clamp-tensor": lambda lib, t: t.clamp(min=t * 0), "relu": lambda lib, t: t.relu(),
    "abs": lambda lib, t: t.abs(), "sign": lambda lib, t: t.sign(),
    "sigmoid": lambda lib, t: t.sigmoid(), "softmax": lambda lib, t: t.softmax(1),
    "log_softmax": lambda lib, t: t.log_softmax(1), "logsumexp": lambda lib, t: t.logsumexp(1),
    "norm": lambda lib, t: t.norm(dim=1), "norm-inf": lambda lib, t: t.norm(INF, dim=1),
    "sum": lambda lib, t: t.sum(), "var": lambda lib, t: t.var(1), "std": lambda lib, t: t.std(),
    "prod": lambda lib, t: t.prod(1), "prod-all": lambda lib, t: t.prod(),
    "where": lambda lib, t: lib.where(t > 0, t, 0.0), "eq": lambda lib, t: t == t,
    "inf-max": lambda lib, t: (t * INF).max(1), "inf-softmax": lambda lib, t: (t * INF).softmax(1),
    "inf-exp": lambda lib, t: (t * 100).exp(), "inf-tanh": lambda lib, t: (t * INF).tanh(),
}


@pytest.mark.parametrize("fn", list(NON_FINITE.values()), ids=list(NON_FINITE))
def test_nan_and_inf_like_torch(fn):
    check(fn, NAN)


def test_number_over_tensor_is_reciprocal_times_number():
    ours, theirs = check(lambda lib, x: 2 / x, POS)
    assert chain(ours) == chain(theirs) == [
        "MulBackward0", "ReciprocalBackward0", "torch::autograd::AccumulateGrad"]


# ---- reductions ------------------------------------------------------------------

D3 = distinct((2, 3, 4), seed=11)
D2 = distinct((3, 4), seed=12)

REDUCTIONS = [
    case(lambda lib, x: x.sum(), X3, id="sum"),
    case(lambda lib, x: x.sum(1), X3, id="sum-dim"),
    case(lambda lib, x: x.sum(-1, keepdim=True), X3, id="sum-dim-keepdim"),
    case(lambda lib, x: x.sum((0, 2)), X3, id="sum-dims"),
    case(lambda lib, x: x.sum((0, -1), keepdim=True), X3, id="sum-dims-keepdim"),
    case(lambda lib, x: x.sum(dim=[]), X3, id="sum-empty-dims"),
    case(lambda lib, x: lib.sum(x, 0), X3, id="torch.sum"),
    case(lambda lib, x: x.sum(dtype=lib.float64), X3, id="sum-dtype"),
    case(lambda lib, x: x.mean(), X3, id="mean"),
    case(lambda lib, x: x.mean(0), X3, id="mean-dim"),
    case(lambda lib, x: x.mean(-2, keepdim=True), X3, id="mean-dim-keepdim"),
    case(lambda lib, x: x.mean((1, 2)), X3, id="mean-dims"),
    case(lambda lib, x: lib.mean(x, (0, 1), True), X3, id="torch.mean-keepdim"),
    case(lambda lib, x: x.max(), D3, id="max"),
    case(lambda lib, x: x.min(), D3, id="min"),
    case(lambda lib, x: x.max(1), D3, id="max-dim"),
    case(lambda lib, x: x.max(-1, keepdim=True), D3, id="max-dim-keepdim"),
    case(lambda lib, x: x.min(0), D3, id="min-dim"),
    case(lambda lib, x: x.min(dim=2, keepdim=True), D3, id="min-dim-keepdim"),
    case(lambda lib, x: lib.max(x, 1), D3, id="torch.max-dim"),
    case(lambda lib, x: lib.max(x, 1).values, D3, id="max-dim-values"),
    case(lambda lib, x: lib.min(x, 1)[1], D3, id="min-dim-indices"),
    case(lambda lib, x: x.prod(), POS, id="prod"),
    case(lambda lib, x: x.prod(1), X3, id="prod-dim"),
    case(lambda lib, x: x.prod(-1, keepdim=True), X3, id="prod-dim-keepdim"),
    case(lambda lib, x: x.var(), X3, id="var"),
    case(lambda lib, x: x.var(1), X3, id="var-dim"),
    case(lambda lib, x: x.var(1, keepdim=True), X3, id="var-dim-keepdim"),
    case(lambda lib, x: x.var((0, 2)), X3, id="var-dims"),
    case(lambda lib, x: x.var(unbiased=False), X3, id="var-biased"),
    case(lambda lib, x: x.var(False), X3, id="var-biased-positional"),
    case(lambda lib, x: x.var(1, unbiased=False), X3, id="var-dim-biased"),
    case(lambda lib, x: x.var(correction=0), X3, id="var-correction-0"),
    case(lambda lib, x: x.var(2, correction=2), X3, id="var-correction-2"),
    case(lambda lib, x: x.std(), X3, id="std"),
    case(lambda lib, x: x.std(0), X3, id="std-dim"),
    case(lambda lib, x: x.std(-1, keepdim=True), X3, id="std-dim-keepdim"),
    case(lambda lib, x: x.std(unbiased=False), X3, id="std-biased"),
    case(lambda lib, x: x.std((0, 1), correction=0), X3, id="std-dims-correction"),
    case(lambda lib, x: x.norm(), X3, id="norm"),
    case(lambda lib, x: x.norm("fro"), X3, id="norm-fro"),
    case(lambda lib, x: x.norm(2), X3, id="norm-2"),
    case(lambda lib, x: x.norm(1), AWAY, id="norm-1"),
    case(lambda lib, x: x.norm(INF), D3, id="norm-inf"),
    case(lambda lib, x: x.norm(3), X3, id="norm-3"),
    case(lambda lib, x: x.norm(0.5), AWAY, id="norm-0.5"),
    case(lambda lib, x: x.norm(0), AWAY, id="norm-0"),
    case(lambda lib, x: x.norm(0, dim=1), AWAY, id="norm-0-dim"),
    case(lambda lib, x: x.norm(dim=1), X3, id="norm-dim"),
    case(lambda lib, x: x.norm(2, dim=-1, keepdim=True), X3, id="norm-dim-keepdim"),
    case(lambda lib, x: x.norm(1, dim=0), AWAY, id="norm-1-dim"),
    case(lambda lib, x: x.norm(INF, dim=2), D3, id="norm-inf-dim"),
    case(lambda lib, x: x.norm(3, dim=(0, 2)), X3, id="norm-3-dims"),
    case(lambda lib, x: lib.norm(x, 3, 1, True), X3, id="torch.norm"),
    case(lambda lib, x: x.softmax(0), X3, id="softmax-0"),
    case(lambda lib, x: x.softmax(-1), X3, id="softmax-last"),
    case(lambda lib, x: lib.softmax(x, 1), X3, id="torch.softmax"),
    case(lambda lib, x: (x * 50).softmax(1), X3, id="softmax-large"),
    case(lambda lib, x: x.log_softmax(1), X3, id="log_softmax"),
    case(lambda lib, x: lib.log_softmax(x * 50, -1), X3, id="log_softmax-large"),
    case(lambda lib, x: x.logsumexp(1), X3, id="logsumexp"),
    case(lambda lib, x: x.logsumexp(-1, keepdim=True), X3, id="logsumexp-keepdim"),
    case(lambda lib, x: x.logsumexp((0, 2)), X3, id="logsumexp-dims"),
    case(lambda lib, x: lib.logsumexp(x * 100, 0), X3, id="logsumexp-large"),
    case(lambda lib, x: x.sum(), SCALAR, id="sum-0dim"),
    case(lambda lib, x: x.mean(0), SCALAR, id="mean-0dim-dim"),
    case(lambda lib, x: x.max(0), SCALAR, id="max-0dim-dim"),
    case(lambda lib, x: x.softmax(0), SCALAR, id="softmax-0dim"),
    case(lambda lib, x: x.norm(), SCALAR, id="norm-0dim"),
]


@pytest.mark.parametrize("fn, arrays, options", REDUCTIONS)
def test_reductions(fn, arrays, options):
    run(fn, arrays, options)


def test_max_min_of_everything_split_ties_evenly():
    x = np.array([[1.0, 3.0, 3.0], [3.0, -2.0, -2.0]], np.float32)
    check(lambda lib, t: t.max(), x)
    check(lambda lib, t: t.min(), x)
    check(lambda lib, t: t.norm(INF), x)
    check(lambda lib, t: t.norm(INF, dim=1), x)


def test_max_min_along_dim_with_ties_pick_what_torch_picks():
    x = np.array([[1.0, 3.0, 3.0], [3.0, -2.0, -2.0], [0.0, 0.0, 0.0]], np.float32)
    for dim in (0, 1):
        check(lambda lib, t: t.max(dim), x)
        check(lambda lib, t: t.min(dim, keepdim=True), x)
        check(lambda lib, t: t.argmax(dim), x, requires_grad=False)
        check(lambda lib, t: t.argmin(dim), x, requires_grad=False)
    check(lambda lib, t: t.argmax(), x, requires_grad=False)
    check(lambda lib, t: t.argmin(), x, requires_grad=False)


def test_prod_with_zeros():
    for values in ([2.0, 0.0, 3.0, 4.0], [0.0, 0.0, 3.0, 4.0], [1.5, -2.0, 3.0, 0.5]):
        x = np.array(values, np.float32).reshape(2, 2)
        check(lambda lib, t: t.prod(), x)
        check(lambda lib, t: t.prod(0), x)
        check(lambda lib, t: t.prod(1, keepdim=True), x)


def test_norm_at_zero_follows_torch():
    zeros = np.zeros((2, 3), np.float32)
    for p in (2, 3, 1.5, 1, 0.5, INF):
        check(lambda lib, t: t.norm(p), zeros)
        check(lambda lib, t: t.norm(p, dim=1), zeros)
    some_zeros = np.array([[0.0, 1.0, -2.0], [0.0, 0.0, 0.0]], np.float32)
    for p in (2, 3, 1.5, 1, 0.5, INF):
        check(lambda lib, t: t.norm(p, dim=1), some_zeros)
    check(lambda lib, t: t.norm(0, dim=1), some_zeros)


def test_norm_0_sends_no_gradient():
    check(lambda lib, t: t.norm(0), X)  # torch leaves x.grad None


def test_var_std_of_a_single_element():
    """n - correction <= 0: torch warns and returns nan (or inf); the grad follows."""
    one = np.array([1.5], np.float32)
    with pytest.warns(UserWarning):
        torch.tensor(one).var()
    check(lambda lib, t: t.var(correction=0), one)
    check(lambda lib, t: t.std(correction=0), np.array([1.5, 1.5], np.float32))


def test_reductions_on_integers_and_bools():
    ints = np.array([[1, -2, 3], [4, 5, -6]], np.int64)
    bools = ints > 0
    for fn in (lambda lib, x: x.sum(), lambda lib, x: x.sum(1),
               lambda lib, x: x.prod(), lambda lib, x: x.prod(0),
               lambda lib, x: x.max(), lambda lib, x: x.min(1),
               lambda lib, x: x.argmax(), lambda lib, x: x.argmin(0, keepdim=True),
               lambda lib, x: x.all(), lambda lib, x: x.any(1),
               lambda lib, x: x.sum(dtype=lib.float32)):
        check(fn, ints)
    for fn in (lambda lib, x: x.sum(), lambda lib, x: x.sum(0), lambda lib, x: x.prod(),
               lambda lib, x: x.all(1), lambda lib, x: x.any(),
               lambda lib, x: x.max(), lambda lib, x: x.max(1)):
        check(fn, bools)
    check(lambda lib, x: x.mean(dtype=lib.float64), ints)


ARG_AND_LOGIC = [
    case(lambda lib, x: x.argmax(), D3, id="argmax"),
    case(lambda lib, x: x.argmin(), D3, id="argmin"),
    case(lambda lib, x: x.argmax(1), D3, id="argmax-dim"),
    case(lambda lib, x: x.argmin(-1, keepdim=True), D3, id="argmin-dim-keepdim"),
    case(lambda lib, x: lib.argmax(x, dim=0), D3, id="torch.argmax"),
    case(lambda lib, x: (x > 0).all(), X3, id="all"),
    case(lambda lib, x: (x > -5).all(), X3, id="all-true"),
    case(lambda lib, x: (x > 0).any(2), X3, id="any-dim"),
    case(lambda lib, x: (x > 0).all(1, keepdim=True), X3, id="all-dim-keepdim"),
    case(lambda lib, x: lib.any(x > 1), X3, id="torch.any"),
    case(lambda lib, x: x.all(), X3, id="all-float"),
    case(lambda lib, x: x.any(0), X3, id="any-float-dim"),
]


@pytest.mark.parametrize("fn, arrays, options", ARG_AND_LOGIC)
def test_argmax_all_any(fn, arrays, options):
    run(fn, arrays, options)


# ---- comparisons -------------------------------------------------------------------

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


# ---- matrix products -----------------------------------------------------------------

MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)), ((5, 2, 3), (3,)), ((3,), (5, 3, 4)), ((2, 3), (5, 3, 4)),
    ((5, 2, 3), (5, 3, 4)), ((1, 2, 3), (5, 3, 4)), ((5, 2, 3), (1, 3, 4)),
    ((2, 1, 2, 3), (5, 3, 4)), ((2, 5, 2, 3), (3, 4)), ((2, 5, 2, 3), (3,)),
    ((3,), (2, 1, 3, 4)), ((2, 1, 2, 3), (1, 5, 3, 4)),
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=lambda s: f"{s[0]}@{s[1]}")
@pytest.mark.parametrize("grads", [(True, True), (True, False), (False, True)],
                         ids=["both", "lhs", "rhs"])
def test_matmul_graph_values_grads(shapes, grads):
    a, b = rand(shapes[0], seed=20), rand(shapes[1], seed=21)
    check(lambda lib, x, y: x @ y, a, b, requires_grad=list(grads))
    check(lambda lib, x, y: lib.matmul(x, y), a, b, requires_grad=list(grads))


@pytest.mark.parametrize("shapes", [((5, 3, 2), (3, 4)), ((5, 3, 2), (3,)),
                                    ((4, 5, 2, 3), (3, 4))], ids=str)
@pytest.mark.parametrize("grads", [(True, True), (True, False)], ids=["both", "lhs"])
def test_matmul_of_transposed_batches(shapes, grads):
    """A non-contiguous batch cannot be folded into one mm without a copy."""
    a, b = rand(shapes[0], seed=22), rand(shapes[1], seed=23)
    check(lambda lib, x, y: x.transpose(-1, -2) @ y if x.ndim == 3 else x.transpose(0, 1) @ y,
          a, b, requires_grad=list(grads))


def test_one_d_times_two_d_chain():
    a, b = rand((3,), seed=24), rand((3, 4), seed=25)
    ours, theirs = check(lambda lib, x, y: x @ y, a, b)
    assert chain(ours) == chain(theirs) == [
        "SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0",
        "torch::autograd::AccumulateGrad"]


MATRIX_FUNCTIONS = [
    case(lambda lib, x, y: x.mm(y), rand((2, 3)), rand((3, 4), seed=1), id="mm"),
    case(lambda lib, x, y: lib.mm(x, y), rand((2, 3)), rand((3, 4), seed=1), id="torch.mm"),
    case(lambda lib, x, y: x.mv(y), rand((2, 3)), rand((3,), seed=1), id="mv"),
    case(lambda lib, x, y: lib.mv(x, y), rand((2, 3)), rand((3,), seed=1), id="torch.mv"),
    case(lambda lib, x, y: x.dot(y), rand((3,)), rand((3,), seed=1), id="dot"),
    case(lambda lib, x, y: lib.dot(x, y), rand((3,)), rand((3,), seed=1), id="torch.dot"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((2, 3, 4), seed=1), id="bmm"),
    case(lambda lib, x, y: lib.bmm(x, y), rand((2, 2, 3)), rand((2, 3, 4), seed=1),
         id="torch.bmm"),
    case(lambda lib, x, y: x.mm(y.t()), rand((2, 3)), rand((4, 3), seed=1), id="mm-t"),
    case(lambda lib, x, y: x.t().mm(y), rand((3, 2)), rand((3, 4), seed=1), id="t-mm"),
    case(lambda lib, x, y: x @ y, rand((2, 3)).astype(np.float64),
         rand((3, 2), seed=1).astype(np.float64), id="matmul-float64"),
]


@pytest.mark.parametrize("fn, arrays, options", MATRIX_FUNCTIONS)
def test_matrix_functions(fn, arrays, options):
    run(fn, arrays, options)


MATMUL_ERRORS = [
    case(lambda lib, x, y: x @ y, rand((2, 3)), rand((4, 2)), id="mm-shapes"),
    case(lambda lib, x, y: x @ y, rand((3,)), rand((4,)), id="dot-shapes"),
    case(lambda lib, x, y: x @ y, rand((2, 3)), rand((4,)), id="mv-shapes"),
    case(lambda lib, x, y: x @ y, rand((3,)), rand((4, 2)), id="vm-shapes"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((4, 2)), id="folded-shapes"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((4, 2)),
         requires_grad=False, id="folded-shapes-no-grad"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((5, 4, 2)), id="bmm-shapes"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((4, 3, 2)), id="batch-broadcast"),
    case(lambda lib, x, y: x @ y, rand(()), rand((3,)), id="0-dim"),
    case(lambda lib, x, y: x @ y, rand((2, 3)), rand((3, 2)).astype(np.float64),
         id="dtypes"),
    case(lambda lib, x, y: x.mm(y), rand((3,)), rand((3, 2)), id="mm-vector"),
    case(lambda lib, x, y: x.mm(y), rand((2, 3)), rand((3,)), id="mm-vector-rhs"),
    case(lambda lib, x, y: x.mm(y), rand((2, 3)), rand((2, 3)), id="mm-mismatch"),
    case(lambda lib, x, y: x.mv(y), rand((2, 3)), rand((2,)), id="mv-mismatch"),
    case(lambda lib, x, y: x.mv(y), rand((3,)), rand((3,)), id="mv-vector"),
    case(lambda lib, x, y: x.dot(y), rand((2, 3)), rand((3,)), id="dot-matrix"),
    case(lambda lib, x, y: x.dot(y), rand((3,)), rand((2,)), id="dot-mismatch"),
    case(lambda lib, x, y: x.dot(y), rand((3,)), rand((3,)).astype(np.float64),
         id="dot-dtypes"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 3)), rand((2, 3, 4)), id="bmm-2d"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((3, 4)), id="bmm-2d-rhs"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((3, 3, 4)), id="bmm-batch"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((2, 2, 4)), id="bmm-inner"),
]


@pytest.mark.parametrize("fn, arrays, options", MATMUL_ERRORS)
def test_matmul_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)


# ---- shape operations -----------------------------------------------------------------

SHAPES = [
    case(lambda lib, x: x.reshape(4, 6), X3, id="reshape"),
    case(lambda lib, x: x.reshape(-1), X3, id="reshape-flat"),
    case(lambda lib, x: x.reshape((2, -1)), X3, id="reshape-tuple"),
    case(lambda lib, x: x.reshape(2, 3, 4), X3, id="reshape-same"),
    case(lambda lib, x: lib.reshape(x, (3, 8)), X3, id="torch.reshape"),
    case(lambda lib, x: x.view(6, 4), X3, id="view"),
    case(lambda lib, x: x.view(-1, 2), X3, id="view-infer"),
    case(lambda lib, x: x.view((4, 3, 2)), X3, id="view-tuple"),
    case(lambda lib, x: x.view(()), SCALAR, id="view-0dim"),
    case(lambda lib, x: x.reshape(1, 1), SCALAR, id="reshape-0dim"),
    case(lambda lib, x: x.transpose(0, 1).reshape(6, 4), X3, id="reshape-transposed-copy"),
    case(lambda lib, x: x.transpose(0, 1).reshape(3, 2, 4), X3, id="reshape-transposed-alias"),
    case(lambda lib, x: x.t().reshape(6), X, id="reshape-t"),
    case(lambda lib, x: x[:, ::2].reshape(-1), X3, id="reshape-strided"),
    case(lambda lib, x: x.expand(2, 2, 3).reshape(4, 3), X, id="reshape-expanded"),
    case(lambda lib, x: x.transpose(1, 2).view(2, 4, 3), X3, id="view-transposed-same"),
    case(lambda lib, x, y: x.view_as(y), X, rand((3, 2)), id="view_as"),
    case(lambda lib, x, y: x.reshape_as(y), X, rand((6,)), id="reshape_as"),
    case(lambda lib, x: x.transpose(0, 2), X3, id="transpose"),
    case(lambda lib, x: x.transpose(-1, 0), X3, id="transpose-neg"),
    case(lambda lib, x: lib.transpose(x, 1, 1), X3, id="transpose-same-dim"),
    case(lambda lib, x: x.t(), X, id="t"),
    case(lambda lib, x: x.t(), ROW, id="t-1d"),
    case(lambda lib, x: lib.t(x), X, id="torch.t"),
    case(lambda lib, x: x.T, X, id="T"),
    case(lambda lib, x: x.mT, X3, id="mT"),
    case(lambda lib, x: x.permute(2, 0, 1), X3, id="permute"),
    case(lambda lib, x: x.permute((1, -1, 0)), X3, id="permute-tuple"),
    case(lambda lib, x: lib.permute(x, (0, 2, 1)), X3, id="torch.permute"),
    case(lambda lib, x: x.unsqueeze(0), X, id="unsqueeze"),
    case(lambda lib, x: x.unsqueeze(-1), X, id="unsqueeze-last"),
    case(lambda lib, x: x.unsqueeze(1).unsqueeze(-2), X, id="unsqueeze-twice"),
    case(lambda lib, x: x.unsqueeze(0), SCALAR, id="unsqueeze-0dim"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze(), X, id="squeeze"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze(2), X, id="squeeze-dim"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze(-1), X, id="squeeze-dim-not-1"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze((0, 2)), X, id="squeeze-dims"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze((1, 2)), X, id="squeeze-dims-partly"),
    case(lambda lib, x: lib.squeeze(x.reshape(1, 6)), X, id="torch.squeeze"),
    case(lambda lib, x: x.squeeze(), SCALAR, id="squeeze-0dim"),
    case(lambda lib, x: x.squeeze(0), SCALAR, id="squeeze-0dim-dim"),
    case(lambda lib, x: x.expand(4, 2, 3), X, id="expand"),
    case(lambda lib, x: x.expand(2, -1, 3), COL[None], id="expand-minus-one"),
    case(lambda lib, x: x.expand(3, 4), SCALAR, id="expand-0dim"),
    case(lambda lib, x, y: x.expand_as(y), ROW, X, id="expand_as"),
    case(lambda lib, x: x.flatten(), X3, id="flatten"),
    case(lambda lib, x: x.flatten(1), X3, id="flatten-start"),
    case(lambda lib, x: x.flatten(0, 1), X3, id="flatten-range"),
    case(lambda lib, x: x.flatten(1, 1), X3, id="flatten-one-dim"),
    case(lambda lib, x: x.flatten(), SCALAR, id="flatten-0dim"),
    case(lambda lib, x: x.transpose(0, 1).flatten(), X3, id="flatten-transposed"),
    case(lambda lib, x: lib.flatten(x, -2), X3, id="torch.flatten"),
    case(lambda lib, x, y: lib.cat([x, y]), X, Y, id="cat"),
    case(lambda lib, x, y: lib.cat([x, y], 1), X, rand((2, 5)), id="cat-dim"),
    case(lambda lib, x, y: lib.cat((x, y, x), -1), X, Y, id="cat-three"),
    case(lambda lib, x, y: lib.cat([x, y]), X, Y, requires_grad=[False, True],
         id="cat-one-grad"),
    case(lambda lib, x, y: lib.cat([x, y]), X, Y.astype(np.float64), id="cat-promote"),
    case(lambda lib, x: lib.cat([x]), X, id="cat-one"),
    case(lambda lib, e, x: lib.cat([e, x]), np.zeros(0, np.float32), X, id="cat-legacy-empty"),
    case(lambda lib, e, x: lib.cat([x, e, x], 1), np.zeros(0, np.float32), X,
         id="cat-legacy-empty-middle"),
    case(lambda lib, e: lib.cat([e, e]), np.zeros(0, np.float32), id="cat-only-empty"),
    case(lambda lib, x: x.T, X3, id="T-3d",  # (torch warns that .T on 3-D is deprecated)
         marks=pytest.mark.filterwarnings("ignore:The use of `x.T`:UserWarning")),
    case(lambda lib, x: x.T, ROW, id="T-1d"),
    case(lambda lib, x, y: lib.stack([x, y]), X, Y, id="stack"),
    case(lambda lib, x, y: lib.stack([x, y], 2), X, Y, id="stack-last"),
    case(lambda lib, x, y: lib.stack((x, y), -1), X, Y, id="stack-neg"),
    case(lambda lib, x, y: lib.stack([x, y]), SCALAR, SCALAR + 1, id="stack-0dim"),
    case(lambda lib, x, y: lib.stack([x, y], 1), X, Y, requires_grad=[True, False],
         id="stack-one-grad"),
    case(lambda lib, x: x.flip(0), X3, id="flip"),
    case(lambda lib, x: x.flip((0, 2)), X3, id="flip-dims"),
    case(lambda lib, x: lib.flip(x, [-1]), X3, id="torch.flip"),
    case(lambda lib, x: x.narrow(1, 1, 2), X3, id="narrow"),
    case(lambda lib, x: x.narrow(-1, 0, 1), X3, id="narrow-neg"),
    case(lambda lib, x: lib.narrow(x, 0, 1, 1), X3, id="torch.narrow"),
    case(lambda lib, x: x.select(1, 2), X3, id="select"),
    case(lambda lib, x: x.select(-1, -1), X3, id="select-neg"),
    case(lambda lib, x: lib.select(x, 0, 1), X3, id="torch.select"),
    case(lambda lib, x: x.clone(), X, id="clone"),
    case(lambda lib, x: lib.clone(x), X, id="torch.clone"),
    case(lambda lib, x: x.t().contiguous(), X, id="contiguous"),
    case(lambda lib, x: x.contiguous(), X, id="contiguous-noop"),
    case(lambda lib, x: x.to(lib.float64), X, id="to-float64"),
    case(lambda lib, x: x.double().float(), X, id="double-float"),
    case(lambda lib, x: x.to(lib.int64), X, id="to-int64"),
    case(lambda lib, x: x.to(lib.float32), X, id="to-same"),
    case(lambda lib, x: x.t().t(), X, id="t-t"),
    case(lambda lib, x: x.permute(1, 0, 2).reshape(3, 8).t().unsqueeze(0).squeeze(),
         X3, id="shape-chain"),
]


@pytest.mark.parametrize("fn, arrays, options", SHAPES)
def test_shapes(fn, arrays, options):
    run(fn, arrays, options)


def test_reshape_of_a_transposed_tensor_copies_first():
    ours, theirs = check(lambda lib, x: x.t().reshape(6), X)
    assert chain(ours) == chain(theirs)
    assert chain(ours)[:2] == ["UnsafeViewBackward0", "CloneBackward0"]


def test_squeeze_node_names():
    x = rand((1, 2, 1, 3))
    for fn, name in ((lambda lib, t: t.squeeze(), "SqueezeBackward0"),
                     (lambda lib, t: t.squeeze(0), "SqueezeBackward1"),
                     (lambda lib, t: t.squeeze((0, 2)), "SqueezeBackward2")):
        ours, theirs = check(fn, x)
        assert ours.grad_fn.name() == theirs.grad_fn.name() == name


def test_views_share_memory_and_version():
    for fn in (lambda t: t.view(6), lambda t: t.t(), lambda t: t[0], lambda t: t[:, 1:],
               lambda t: t.unsqueeze(0), lambda t: t.expand(2, 2, 3), lambda t: t.permute(1, 0),
               lambda t: t.transpose(0, 1), lambda t: t.narrow(1, 0, 2),
               lambda t: t.reshape(3, 2), lambda t: t.squeeze(), lambda t: t[...]):
        ours, theirs = mirror([X], requires_grad=False)
        view_ours, view_theirs = fn(ours[0]), fn(theirs[0])
        assert (view_ours._base is ours[0]) == (view_theirs._base is theirs[0])
        with torch.no_grad(), mg.no_grad():
            ours[0].add_(1)
            theirs[0].add_(1)
        assert view_ours._version == view_theirs._version
        np.testing.assert_allclose(view_ours._data, view_theirs.numpy())


SHAPE_ERRORS = [
    case(lambda lib, x: x.t().view(6), X, id="view-non-contiguous"),
    case(lambda lib, x: x.transpose(0, 2).view(-1), X3, id="view-transposed"),
    case(lambda lib, x: x.view(5), X, id="view-size"),
    case(lambda lib, x: x.view(-1, 4), X, id="view-infer-size"),
    case(lambda lib, x: x.view(-1, -1), X, id="view-two-infers"),
    case(lambda lib, x: x.reshape(7), X, id="reshape-size"),
    case(lambda lib, x: x.reshape(-1, 5), X, id="reshape-infer-size"),
    case(lambda lib, x: x.transpose(0, 2), X, id="transpose-dim"),
    case(lambda lib, x: x.t(), X3, id="t-3d"),
    case(lambda lib, x: x.permute(1, 0), X3, id="permute-length"),
    case(lambda lib, x: x.permute(0, 1, 1), X3, id="permute-duplicate"),
    case(lambda lib, x: x.permute(0, 1, 3), X3, id="permute-dim"),
    case(lambda lib, x: x.unsqueeze(3), X, id="unsqueeze-dim"),
    case(lambda lib, x: x.unsqueeze(-4), X, id="unsqueeze-neg-dim"),
    case(lambda lib, x: x.squeeze(2), X, id="squeeze-dim"),
    case(lambda lib, x: x.expand(3, 3), X, id="expand-size"),
    case(lambda lib, x: x.expand(3), X, id="expand-too-few"),
    case(lambda lib, x: x.double().expand(3), X, id="expand-too-few-double"),
    case(lambda lib, x: (x > 0).expand(3), X, id="expand-too-few-bool"),
    case(lambda lib, x: x.long().expand(2, 2), X, id="expand-size-long"),
    case(lambda lib, x: x.expand(-1, 2, 3), X, id="expand-new-minus-one"),
    case(lambda lib, x: x.flatten(2, 1), X3, id="flatten-order"),
    case(lambda lib, x: x.flatten(0, 3), X3, id="flatten-dim"),
    case(lambda lib, x, y: lib.cat([x, y]), X, rand((2, 4)), id="cat-sizes"),
    case(lambda lib, x, y: lib.cat([x, y]), X, ROW, id="cat-ndim"),
    case(lambda lib, x, y: lib.cat([x, y], 2), X, Y, id="cat-dim"),
    case(lambda lib, x: lib.cat([]), X, id="cat-empty"),
    case(lambda lib, x: lib.cat([x[:0, :1].reshape(0, 1), x]), X, id="cat-2d-empty"),
    case(lambda lib, x, y: lib.stack([x, y]), X, rand((3, 2)), id="stack-sizes"),
    case(lambda lib, x, y: lib.stack([x, y], 3), X, Y, id="stack-dim"),
    case(lambda lib, x: lib.stack([]), X, id="stack-empty"),
    case(lambda lib, x: x.flip(3), X3, id="flip-dim"),
    case(lambda lib, x: x.flip((0, 0)), X3, id="flip-repeated"),
    case(lambda lib, x: x.narrow(1, 2, 2), X, id="narrow-past-end"),
    case(lambda lib, x: x.narrow(1, -1, 2), X, id="narrow-neg-start"),
    case(lambda lib, x: x.narrow(2, 0, 1), X, id="narrow-dim"),
    case(lambda lib, x: x.select(1, 3), X, id="select-index"),
    case(lambda lib, x: x.select(1, -4), X, id="select-neg-index"),
    case(lambda lib, x: x.select(2, 0), X, id="select-dim"),
    case(lambda lib, x: x.select(0, 0), SCALAR, id="select-0dim"),
]


@pytest.mark.parametrize("fn, arrays, options", SHAPE_ERRORS)
def test_shape_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)


# ---- errors of the other ops ---------------------------------------------------------

OP_ERRORS = [
    case(lambda lib, x, y: x + y, X, rand((3, 2)), id="add-shapes"),
    case(lambda lib, x, y: x * y, X3, rand((3, 3)), id="mul-shapes"),
    case(lambda lib, x, y: x / y, X, rand((4,)), id="div-shapes"),
    case(lambda lib, x, y: x ** y, POS, rand((5,)), id="pow-shapes"),
    case(lambda lib, x: x + "a", X, id="add-str"),
    case(lambda lib, x: -(x > 0), X, id="neg-bool"),
    case(lambda lib, x: x.sum(3), X, id="sum-dim"),
    case(lambda lib, x: x.sum((0, 0)), X, id="sum-repeated-dim"),
    case(lambda lib, x: x.mean(-3), X, id="mean-dim"),
    case(lambda lib, x: (x > 0).mean(), X, id="mean-bool"),
    case(lambda lib, x: x.long().mean(), X, id="mean-int"),
    case(lambda lib, x: x.max(2), X, id="max-dim"),
    case(lambda lib, x: x[:0].max(), X, id="max-empty"),
    case(lambda lib, x: x[:0].min(), X, id="min-empty"),
    case(lambda lib, x: x.argmax(5), X, id="argmax-dim"),
    case(lambda lib, x: x.softmax(2), X, id="softmax-dim"),
    case(lambda lib, x: x.log_softmax(-3), X, id="log_softmax-dim"),
    case(lambda lib, x: x.logsumexp(2), X, id="logsumexp-dim"),
    case(lambda lib, x: x.var(2), X, id="var-dim"),
    case(lambda lib, x: x.norm(dim=2), X, id="norm-dim"),
    case(lambda lib, x: x.norm(dim=(0, 1, 2)), X3, id="norm-fro-three-dims"),
    case(lambda lib, x: x.long().norm(), X, id="norm-int"),
    case(lambda lib, x: x.clamp(), X, id="clamp-no-bounds"),
    case(lambda lib, x, y: x.clamp(min=y), X, rand((4,)), id="clamp-tensor-shape"),
    case(lambda lib, x, y: lib.maximum(x, y), X, rand((4,)), id="maximum-shapes"),
    case(lambda lib, x, y: lib.where(x, x, y), X, Y, id="where-float-condition"),
    case(lambda lib, x, y: lib.where(x > 0, x, y), X, rand((4,)), id="where-shapes"),
    case(lambda lib, x, y: x.masked_fill(y, 1.0), X, Y, id="masked_fill-float-mask"),
    case(lambda lib, x: x.masked_fill(x[0] > 0, x), X, id="masked_fill-value-dims"),
    case(lambda lib, x, m: x.masked_fill(m > 0, 1.0), X, rand((4,)), id="masked_fill-shape"),
    case(lambda lib, x, y: x == y, X, rand((4,)), id="eq-shapes"),
    case(lambda lib, x, y: x < y, X, rand((3, 2)), id="lt-shapes"),
    case(lambda lib, x: x.long().requires_grad_(), X, id="requires-grad-int"),
]


@pytest.mark.parametrize("fn, arrays, options", OP_ERRORS)
def test_op_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)


def test_backward_twice_through_saved_tensors():
    def twice(lib, x):
        y = (x * x).sum()
        y.backward()
        y.backward()
    check_error(twice, X)


TWICE = {
    "add": lambda lib, x: x + 2, "add-tensor": lambda lib, x: x + x.detach(),
    "sub": lambda lib, x: x - 1, "rsub": lambda lib, x: 1 - x, "neg": lambda lib, x: -x,
    "mul-number": lambda lib, x: x * 2, "mul-tensor": lambda lib, x: x * x.detach(),
    "div-number": lambda lib, x: x / 2, "rdiv": lambda lib, x: 2 / x, "pow": lambda lib, x: x ** 2,
    "rpow": lambda lib, x: 2 ** x, "exp": lambda lib, x: x.exp(),
    "log": lambda lib, x: x.abs().log(),
    "tanh": lambda lib, x: x.tanh(), "sigmoid": lambda lib, x: x.sigmoid(),
    "relu": lambda lib, x: x.relu(), "abs": lambda lib, x: x.abs(), "sign": lambda lib, x: x.sign(),
    "clamp": lambda lib, x: x.clamp(0, 1), "sum": lambda lib, x: x.sum(),
    "sum-dim": lambda lib, x: x.sum(1), "mean": lambda lib, x: x.mean(),
    "mean-dim": lambda lib, x: x.mean(0), "max": lambda lib, x: x.max(),
    "max-dim": lambda lib, x: x.max(1)[0], "prod": lambda lib, x: x.prod(),
    "var": lambda lib, x: x.var(), "norm": lambda lib, x: x.norm(),
    "softmax": lambda lib, x: x.softmax(1), "logsumexp": lambda lib, x: x.logsumexp(1),
    "view": lambda lib, x: x.view(6), "reshape-copy": lambda lib, x: x.t().reshape(6),
    "t": lambda lib, x: x.t(), "permute": lambda lib, x: x.permute(1, 0),
    "unsqueeze": lambda lib, x: x.unsqueeze(0), "squeeze": lambda lib, x: x[None].squeeze(0),
    "expand": lambda lib, x: x.expand(2, 2, 3), "select": lambda lib, x: x[0],
    "slice": lambda lib, x: x[:, 1:], "index": lambda lib, x: x[[0, 1, 1]],
    "mask": lambda lib, x: x[x > 0], "cat": lambda lib, x: lib.cat([x, x]),
    "stack": lambda lib, x: lib.stack([x, x]), "flip": lambda lib, x: x.flip(0),
    "clone": lambda lib, x: x.clone(), "to": lambda lib, x: x.double(),
    "where": lambda lib, x: lib.where(x > 0, x, 0.0),
    "masked_fill": lambda lib, x: x.masked_fill(x > 0, 1.0),
    "maximum": lambda lib, x: lib.maximum(x, x.detach() * 0), "matmul": lambda lib, x: x @ x.t(),
    "matmul-1d": lambda lib, x: x[0] @ x.t(),
}


@pytest.mark.parametrize("fn", list(TWICE.values()), ids=list(TWICE))
def test_backward_twice_fails_exactly_when_torch_does(fn):
    """Only nodes that saved a tensor free something, so only they refuse a second backward."""
    def twice(lib, x):
        out = fn(lib, x).sum()
        out.backward()
        out.backward()
        return x.grad

    try:
        twice(torch, torch.tensor(X, requires_grad=True))
    except RuntimeError:
        check_error(twice, X)
    else:
        check(twice, X, graph=False, backward=False)


def test_implicit_gradient_needs_a_scalar():
    check_error(lambda lib, x: (x * 2).backward(), X)


# ---- keyword arguments, empty tensors, integer and bool inputs ---------------------------
# torch decides: where it raises, minigrad must raise the same; elsewhere results must agree.

B = rand((3,), seed=3)
MISC = {
    "clamp mixed": lambda lib, x, b: x.clamp(min=b, max=0.5),
    "clamp mixed2": lambda lib, x, b: x.clamp(min=-0.5, max=b),
    "where scalars": lambda lib, x, b: lib.where(x > 0, 1.0, 0.0),
    "where int scalars": lambda lib, x, b: lib.where(x > 0, 1, 0),
    "where tensor int": lambda lib, x, b: lib.where(x > 0, x, 2),
    "maximum number": lambda lib, x, b: lib.maximum(x, b.double()),
    "masked_fill inf": lambda lib, x, b: x.masked_fill(x > 0, float('inf')),
    "sum keepdim positional": lambda lib, x, b: x.sum(0, True),
    "mean neg dims": lambda lib, x, b: x.mean((-1, -2)),
    "std unbiased kw": lambda lib, x, b: x.std(dim=1, unbiased=False),
    "var keepdim kw": lambda lib, x, b: x.var(dim=0, keepdim=True),
    "softmax neg": lambda lib, x, b: lib.softmax(x, dim=-1),
    "max dim kw": lambda lib, x, b: lib.max(x, dim=1, keepdim=True),
    "argmax keepdim": lambda lib, x, b: x.argmax(dim=1, keepdim=True),
    "norm p kw": lambda lib, x, b: x.norm(p=1, dim=1),
    "norm p None": lambda lib, x, b: lib.norm(x, p=2),
    "flatten kw": lambda lib, x, b: x.flatten(start_dim=0, end_dim=-1),
    "transpose kw": lambda lib, x, b: x.transpose(dim0=0, dim1=1),
    "unsqueeze kw": lambda lib, x, b: x.unsqueeze(dim=1),
    "cat kw": lambda lib, x, b: lib.cat(tensors=[x, x], dim=1),
    "stack tuple": lambda lib, x, b: lib.stack((x, x), dim=0),
    "sum dim kw": lambda lib, x, b: x.sum(dim=1, keepdim=True),
    "logsumexp kw": lambda lib, x, b: x.logsumexp(dim=1, keepdim=True),
    "pow method tensor": lambda lib, x, b: x.abs().pow(b),
    "torch.pow tensor": lambda lib, x, b: lib.pow(x.abs(), b),
    "neg torch": lambda lib, x, b: lib.neg(x),
    "abs torch": lambda lib, x, b: lib.abs(x),
    "sub torch alpha": lambda lib, x, b: lib.sub(x, b, alpha=2),
    "add torch alpha": lambda lib, x, b: lib.add(x, b, alpha=2),
    "rsub tensor": lambda lib, x, b: b.__rsub__(x),
    "squeeze dim kw": lambda lib, x, b: x[None].squeeze(dim=0),
    "expand tuple": lambda lib, x, b: x.expand((2, 2, 3)),
    "view dtype-less": lambda lib, x, b: x.view(-1),
    "narrow kw": lambda lib, x, b: x.narrow(dim=1, start=0, length=2),
    "select kw": lambda lib, x, b: x.select(dim=1, index=0),
    "mm 0 size": lambda lib, x, b: x[:, :0] @ b[:0, None],
    "sum empty": lambda lib, x, b: x[:0].sum(),
    "mean empty": lambda lib, x, b: x[:0].mean(),
    "max dim empty": lambda lib, x, b: x[:, :0].max(0),
    "softmax empty": lambda lib, x, b: x[:0].softmax(0),
    "prod empty": lambda lib, x, b: x[:0].prod(),
    "norm empty": lambda lib, x, b: x[:0].norm(),
    "var empty": lambda lib, x, b: x[:0].var(),
    "logsumexp empty": lambda lib, x, b: x[:0].logsumexp(0),
    "matmul empty batch": lambda lib, x, b: x[None, :0] @ b,
    "cat empty 2d": lambda lib, x, b: lib.cat([x[:0], x]),
    "exp int": lambda lib, x, b: (x > 0).long().exp(),
    "neg int": lambda lib, x, b: -(x > 0).long(),
    "abs bool": lambda lib, x, b: (x > 0).abs(),
    "relu bool": lambda lib, x, b: (x > 0).relu(),
    "sigmoid bool": lambda lib, x, b: (x > 0).sigmoid(),
    "sum bool dim": lambda lib, x, b: (x > 0).sum(1, keepdim=True),
    "max int dim": lambda lib, x, b: (x * 10).long().max(1),
    "min bool": lambda lib, x, b: (x > 0).min(),
    "clamp int float": lambda lib, x, b: (x * 10).long().clamp(min=0.5),
    "clamp int tensor": lambda lib, x, b: (x * 10).long().clamp(min=b),
    "maximum int float": lambda lib, x, b: lib.maximum((x * 10).long(), b),
    "where int float": lambda lib, x, b: lib.where(x > 0, (x * 10).long(), b),
    "matmul int": lambda lib, x, b: (x * 10).long() @ (b * 10).long(),
    "pow int tensor": lambda lib, x, b: (x * 10).long() ** (b > 0).long(),
    "div int int": lambda lib, x, b: (x * 10).long() / (b * 10 + 30).long(),
    "mul bool bool": lambda lib, x, b: (x > 0) * (b > 0),
    "add bool bool": lambda lib, x, b: (x > 0) + (b > 0),
    "add bool int": lambda lib, x, b: (x > 0) + 1,
    "t 0dim": lambda lib, x, b: x[0, 0].t(),
    "flatten 0dim": lambda lib, x, b: x[0, 0].flatten(0, 0),
}


@pytest.mark.parametrize("fn", list(MISC.values()), ids=list(MISC))
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_arguments_empty_tensors_and_dtypes(fn):
    try:
        fn(torch, torch.tensor(X), torch.tensor(B))
    except Exception:
        check_error(fn, X, B)
    else:
        check(fn, X, B)


# ---- dtype promotion --------------------------------------------------------------------

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


def test_assert_same_tensor_catches_differences():
    """The comparison helper itself must be able to fail."""
    ours, theirs = mirror([X], requires_grad=False)
    with pytest.raises(AssertionError):
        assert_same_tensor(ours[0] * 2, theirs[0])
    with pytest.raises(AssertionError):
        assert_same_tensor(ours[0].double(), theirs[0])
    with pytest.raises(AssertionError):
        assert_same_tensor(ours[0].reshape(3, 2), theirs[0].reshape(6))
    with pytest.raises(AssertionError):
        check(lambda lib, x: x.exp() if lib is mg else x.exp() + 1e-3, X)
    with pytest.raises(AssertionError):
        check(lambda lib, x: x.exp() if lib is mg else x.exp().clone(), X)
    with pytest.raises(AssertionError):  # same values, different gradients
        check(lambda lib, x: x * 2 if lib is mg else (x * 2).detach() + x * 0, X)
