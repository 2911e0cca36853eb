"""Every differentiable op against central finite differences in float64 (so the
gradients are proven even where torch is absent), and second derivatives
(``create_graph=True``, then the gradient of the gradient) against torch and against
finite differences of the first derivative."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd.gradcheck import numerical_jacobian

from torch_compare import check_double_backward, check_numerical, distinct, rand

F64 = "float64"
X = rand((2, 3), seed=0, dtype=F64)
Y = rand((2, 3), seed=1, dtype=F64)
POS = rand((2, 3), seed=2, dtype=F64, low=0.5, high=2.0)
ROW = rand((3,), seed=3, dtype=F64)
COL = rand((2, 1), seed=4, dtype=F64)
X3 = rand((2, 3, 4), seed=5, dtype=F64)
D3 = distinct((2, 3, 4), seed=6, dtype=F64)
AWAY = rand((3, 4), seed=7, dtype=F64, away_from=[0.0, -0.5, 0.5], gap=0.15)
S = np.asarray(rand((), seed=8, dtype=F64))
WITH_ZERO = np.array([[2.0, 0.0, -1.5], [0.5, 3.0, 1.0]])


def case(fn, *arrays, id, **options):
    return pytest.param(fn, arrays, options, id=id)


def _assign(lib, x, v):
    y = x * 1
    y[0, 1:] = v
    return y


def _assign_advanced(lib, x, v):
    y = x * 1
    y[[1, 0], [2, 2]] = v
    return y


def _inplace(lib, x, w):
    y = x * 1
    y.mul_(w)
    y.add_(w, alpha=2)
    y /= w
    return y


OPS = [
    case(lambda lib, x, y: x + y, X, ROW, id="add"),
    case(lambda lib, x, y: x.add(y, alpha=-3), X, Y, id="add-alpha"),
    case(lambda lib, x, y: x - y, X, COL, id="sub"),
    case(lambda lib, x: 2 - x, X, id="rsub"),
    case(lambda lib, x, y: x * y, X, COL, id="mul"),
    case(lambda lib, x, y: x / y, X, POS, id="div"),
    case(lambda lib, x: 2 / x, POS, id="rdiv"),
    case(lambda lib, x: x.reciprocal(), POS, id="reciprocal"),
    case(lambda lib, x: x ** 3, X, id="pow-int"),
    case(lambda lib, x: x ** 2.5, POS, id="pow-float"),
    case(lambda lib, x: x ** 0, X, id="pow-0"),
    case(lambda lib, x, y: x ** y, POS, Y, id="pow-tensor"),
    case(lambda lib, x: x ** x, POS, id="pow-self"),
    case(lambda lib, x: 1.7 ** x, X, id="rpow"),
    case(lambda lib, x: -x, X, id="neg"),
    case(lambda lib, x: x.exp(), X, id="exp"),
    case(lambda lib, x: x.log(), POS, id="log"),
    case(lambda lib, x: x.sqrt(), POS, id="sqrt"),
    case(lambda lib, x: x.tanh(), X, id="tanh"),
    case(lambda lib, x: x.sigmoid(), X, id="sigmoid"),
    case(lambda lib, x: x.relu(), AWAY, id="relu"),
    case(lambda lib, x: x.abs(), AWAY, id="abs"),
    case(lambda lib, x: x.sin(), X, id="sin"),
    case(lambda lib, x: x.cos(), X, id="cos"),
    case(lambda lib, x: x.clamp(-0.5, 0.5), AWAY, id="clamp"),
    case(lambda lib, x, lo, hi: x.clamp(lo, hi), AWAY, rand((4,), seed=9, dtype=F64, low=-1,
                                                            high=-0.3),
         rand((3, 1), seed=10, dtype=F64, low=0.3, high=1), id="clamp-tensors"),
    case(lambda lib, x, y: lib.maximum(x, y), X, Y, id="maximum"),
    case(lambda lib, x, y: lib.minimum(x, y), X, ROW, id="minimum"),
    case(lambda lib, x, y: lib.where(x > 0, x, y), X, ROW, id="where"),
    case(lambda lib, x: x.masked_fill(x > 0, 2.0), X, id="masked_fill"),
    case(lambda lib, x, v: x.masked_fill(x > 0, v), X, S, id="masked_fill-tensor"),
    case(lambda lib, x: x.sum(), X3, id="sum"),
    case(lambda lib, x: x.sum((0, 2), keepdim=True), X3, id="sum-dims"),
    case(lambda lib, x: x.mean(), X3, id="mean"),
    case(lambda lib, x: x.mean(1), X3, id="mean-dim"),
    case(lambda lib, x: x.max(), D3, id="max"),
    case(lambda lib, x: x.min(1)[0], D3, id="min-dim"),
    case(lambda lib, x: x.max(-1, keepdim=True), D3, id="max-dim-keepdim"),
    case(lambda lib, x: x.prod(), POS, id="prod"),
    case(lambda lib, x: x.prod(1), WITH_ZERO, id="prod-dim-with-zero"),
    case(lambda lib, x: x.prod(), WITH_ZERO, id="prod-with-zero"),
    case(lambda lib, x: x.var(), X3, id="var"),
    case(lambda lib, x: x.var(1, correction=0), X3, id="var-dim"),
    case(lambda lib, x: x.std(), X3, id="std"),
    case(lambda lib, x: x.std((0, 2), keepdim=True), X3, id="std-dims"),
    case(lambda lib, x: x.norm(), X3, id="norm"),
    case(lambda lib, x: x.norm(1), AWAY, id="norm-1"),
    case(lambda lib, x: x.norm(float("inf"), dim=1), D3, id="norm-inf"),
    case(lambda lib, x: x.norm(3, dim=(0, 2)), X3, id="norm-3"),
    case(lambda lib, x: x.norm(0.5), AWAY, id="norm-0.5"),
    case(lambda lib, x: x.softmax(1), X3, id="softmax"),
    case(lambda lib, x: x.log_softmax(-1), X3, id="log_softmax"),
    case(lambda lib, x: x.logsumexp((0, 1)), X3, id="logsumexp"),
    case(lambda lib, x, y: x.dot(y), ROW, ROW[::-1].copy(), id="dot"),
    case(lambda lib, x, y: x.mv(y), X, ROW, id="mv"),
    case(lambda lib, x, y: x.mm(y), X, X.T.copy(), id="mm"),
    case(lambda lib, x, y: x.bmm(y), X3, X3.transpose(0, 2, 1).copy(), id="bmm"),
    case(lambda lib, x, y: x @ y, ROW, X.T.copy(), id="matmul-1d-2d"),
    case(lambda lib, x, y: x @ y, X3, ROW[[0, 1, 2, 0]].copy(), id="matmul-3d-1d"),
    case(lambda lib, x, y: x @ y, X, X3[:, :, :2].copy(), id="matmul-2d-3d"),
    case(lambda lib, x, y: x @ y, X3[:1], X3.transpose(0, 2, 1).copy(), id="matmul-broadcast"),
    case(lambda lib, x: x.reshape(4, 6), X3, id="reshape"),
    case(lambda lib, x: x.transpose(0, 1).reshape(-1), X3, id="reshape-copy"),
    case(lambda lib, x: x.view(3, 8), X3, id="view"),
    case(lambda lib, x: x.transpose(0, 2), X3, id="transpose"),
    case(lambda lib, x: x.t(), X, id="t"),
    case(lambda lib, x: x.T, X, id="T"),
    case(lambda lib, x: x.permute(1, 2, 0), X3, id="permute"),
    case(lambda lib, x: x.unsqueeze(1), X, id="unsqueeze"),
    case(lambda lib, x: x[None, :, None].squeeze(), X, id="squeeze"),
    case(lambda lib, x: x.expand(3, 2, 3), X, id="expand"),
    case(lambda lib, x: x.flatten(1), X3, id="flatten"),
    case(lambda lib, x, y: lib.cat([x, y, x], 1), X, Y, id="cat"),
    case(lambda lib, x, y: lib.stack([x, y], 1), X, Y, id="stack"),
    case(lambda lib, x: x.flip((0, 2)), X3, id="flip"),
    case(lambda lib, x: x.narrow(2, 1, 2), X3, id="narrow"),
    case(lambda lib, x: x.select(1, -1), X3, id="select"),
    case(lambda lib, x: x[1, ::2, None, ..., 1:3], X3, id="basic-indexing"),
    case(lambda lib, x: x[x > 0], X3, id="mask"),
    case(lambda lib, x: x[[0, 0, 1], :, [3, 1, 3]], X3, id="advanced"),
    case(lambda lib, x: x[0, [2, 0, 2]], X3, id="int-and-list"),
    case(lambda lib, x, v: _assign(lib, x, v), X, ROW[:2].copy(), id="setitem-view"),
    case(lambda lib, x, v: _assign_advanced(lib, x, v), X, ROW[:2].copy(), id="setitem-advanced"),
    case(lambda lib, x, w: _inplace(lib, x, w), X, POS, id="inplace"),
    case(lambda lib, x: x.to(lib.float32).to(lib.float64) * 1, X, id="to-dtype",
         eps=1e-2, rtol=1e-3, atol=1e-4),  # (float32 rounding needs a larger step)
    case(lambda lib, x: x.clone(), X, id="clone"),
    case(lambda lib, x: x.sum() * x, S, id="0-dim"),
]


@pytest.mark.parametrize("fn, arrays, options", OPS)
def test_backward_matches_finite_differences(fn, arrays, options):
    check_numerical(lambda *xs: fn(mg, *xs), *arrays, **options)


SECOND_ORDER = [
    case(lambda lib, x, y: x * y, X, Y, id="mul"),
    case(lambda lib, x, y: x / y, X, POS, id="div"),
    case(lambda lib, x: x ** 3, X, id="pow"),
    case(lambda lib, x, y: x ** y, POS, Y, id="pow-tensor"),
    case(lambda lib, x: 1.5 ** x, X, id="rpow"),
    case(lambda lib, x: x.exp(), X, id="exp"),
    case(lambda lib, x: x.log(), POS, id="log"),
    case(lambda lib, x: x.sqrt(), POS, id="sqrt"),
    case(lambda lib, x: x.tanh(), X, id="tanh"),
    case(lambda lib, x: x.sigmoid(), X, id="sigmoid"),
    case(lambda lib, x: x.sin() * x.cos(), X, id="sin-cos"),
    case(lambda lib, x: x.abs() * x, AWAY, id="abs"),
    case(lambda lib, x: x.relu() * x, AWAY, id="relu"),
    case(lambda lib, x: x.clamp(-0.5, 0.5) * x, AWAY, id="clamp"),
    case(lambda lib, x, y: lib.maximum(x, y) * x, X, Y, id="maximum"),
    case(lambda lib, x, y: lib.where(x > 0, x * x, y * x), X, Y, id="where"),
    case(lambda lib, x, y: x @ y, X, X3[0].copy(), id="matmul"),
    case(lambda lib, x, y: (x @ y) ** 2, X3, ROW.copy()[[0, 1, 2, 0]], id="matmul-batched"),
    case(lambda lib, x: (x * x).sum(), X3, id="sum"),
    case(lambda lib, x: (x ** 3).mean(1), X3, id="mean"),
    case(lambda lib, x: x.max(1)[0] ** 2, D3, id="max-dim"),
    case(lambda lib, x: x.prod(1), X3, id="prod"),
    case(lambda lib, x: x.var(1), X3, id="var"),
    case(lambda lib, x: x.std(), X3, id="std"),
    case(lambda lib, x: x.softmax(1), X3, id="softmax"),
    case(lambda lib, x: x.log_softmax(-1), X3, id="log_softmax"),
    case(lambda lib, x: x.logsumexp(0), X3, id="logsumexp"),
    case(lambda lib, x: x.norm(), X3, id="norm"),
    case(lambda lib, x: x.norm(3, dim=1), X3, id="norm-3"),
    case(lambda lib, x: x[1, ::2] ** 2, X3, id="indexing-basic"),
    case(lambda lib, x: x[[0, 0], :, [1, 3]] ** 2, X3, id="indexing-advanced"),
    case(lambda lib, x: x[x > 0] ** 3, X3, id="indexing-mask"),
    case(lambda lib, x, y: lib.cat([x * y, y.exp()]) ** 2, X, Y, id="cat"),
    case(lambda lib, x: x.t().reshape(-1) ** 2, X, id="reshape"),
    case(lambda lib, x, v: _assign(lib, x * x, v * v), X, ROW[:2].copy(), id="setitem-view"),
    case(lambda lib, x, v: _assign_advanced(lib, x * x, v.exp()), X, ROW[:2].copy(),
         id="setitem-advanced"),
    case(lambda lib, x, w: _inplace(lib, x * x, w), X, POS, id="inplace"),
]


@pytest.mark.parametrize("fn, arrays, options", SECOND_ORDER)
def test_double_backward(fn, arrays, options):
    check_double_backward(fn, *arrays, **options)


def test_finite_difference_check_can_fail():
    """A wrong backward must be caught by the helper."""
    class Wrong(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2.01

    with pytest.raises(AssertionError):
        check_numerical(lambda x: Wrong.apply(x), X)


def test_double_backward_check_can_fail():
    """A backward that is right but not differentiable (it detaches x) must be caught."""
    class Square(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 2 * x.detach()

    with pytest.raises(AssertionError):
        check_double_backward(lambda lib, x: x * x if lib is not mg else Square.apply(x), X)


def test_gradcheck_nudges_a_non_contiguous_input():
    """An input that is a transposed view is nudged in its own memory (a reshape of it would
    be a copy, and every numerical derivative 0), as torch's gradcheck does."""
    values = np.random.default_rng(0).standard_normal((4, 2))
    x = mg.tensor(values).mT.detach().requires_grad_()
    assert mg.autograd.gradcheck(lambda b: (b * b.exp()).sum(1), (x,))
    jacobian = numerical_jacobian(lambda b: b * 3, [x])[0][0]
    np.testing.assert_allclose(jacobian, np.eye(8) * 3, rtol=1e-6)
