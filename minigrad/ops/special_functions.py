"""The rest of torch.special: Bessel and Airy functions, the orthogonal polynomials
(PyTorch records no graph for them: their results never require grad), and erfcx,
ndtri, log_ndtr, zeta and multigammaln, each with PyTorch's node and derivative. The
values come from kernels/cephes.py (PyTorch's steps)."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd.broadcast import broadcast_shapes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, Param, RESULT
from ..autograd.tensor_base import is_tensor, make
from ..kernels import cephes, igamma as kernels_igamma
from ..kernels import special as kernels_special
from ..kernels.summation import sum_axes
from ..rules import promotion
from ..rules.layout import with_iterator_layout, with_unary_layout
from . import fn

__all__ = ["unrecorded", "polynomial", "erfcx", "ndtri", "log_ndtr", "zeta", "zeta_values",
           "mvlgamma", "igamma", "igammac"]

_SQRT_2PI = math.sqrt(2 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _flat(kernel, array):
    """kernel (of 1-D arrays) on an array of any shape."""
    with np.errstate(all="ignore"):
        return kernel(np.ascontiguousarray(array).reshape(-1)).reshape(array.shape)


def _float_kernel(name: str, dtype):
    """PyTorch's CPU kernels for these exist for float32 and float64 only."""
    if dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[dtype]}'")


def unrecorded(name: str, x):
    """A one-operand function PyTorch does not differentiate (no grad_fn, even for an
    input that requires grad): integers and bools computed in the default float dtype."""
    dtype = promotion.float_dtype_for(x.dtype)
    _float_kernel(name, dtype)
    result = _flat(getattr(cephes, name), x._data.astype(dtype.numpy, copy=False))
    return with_unary_layout(make(result), x)


def polynomial(name: str, x, n):
    """An orthogonal polynomial of degree n (a tensor or a number: truncated to an
    integer) at x, elementwise; no grad_fn, as PyTorch."""
    dtype = promotion.float_dtype_for(dtypes.result_type(x, n))
    _float_kernel(name, dtype)
    arrays = [v._data if is_tensor(v) else np.asarray(v) for v in (x, n)]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    xs, ns = (np.broadcast_to(a.astype(dtype.numpy), shape).reshape(-1) for a in arrays)
    with np.errstate(all="ignore"):
        result = cephes.POLYNOMIALS[name](xs.copy(), ns.copy()).reshape(shape)
    return with_iterator_layout(make(result), *(v._data for v in (x, n) if is_tensor(v)))


class SpecialErfcxBackward0(Node):
    formula = Formula("y", "erfcx(x) = exp(x**2) erfc(x)", d={"x": "2 x y - 2 / sqrt(pi)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return _flat(cephes.erfcx, x)

    def backward(self, saved, grad):
        return (2.0 * saved.self * saved.result - _TWO_OVER_SQRT_PI) * grad


class SpecialNdtriBackward0(Node):
    formula = Formula("y", "ndtri(p): the x where the normal CDF is p",
                      d={"p": "sqrt(2 pi) exp(y**2 / 2)"})
    saves = {"result": RESULT}

    def forward(self, x):
        return _flat(cephes.ndtri, x)

    def backward(self, saved, grad):
        scale = fn.exp(fn.pow(saved.result, 2) / 2)  # (made first: PyTorch's order)
        return grad * _SQRT_2PI * scale


class SpecialLogNdtrBackward0(Node):
    formula = Formula("y", "log of the normal CDF at x",
                      d={"x": "exp(-(y + x**2 / 2)) / sqrt(2 pi)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return _flat(cephes.log_ndtr, x)

    def backward(self, saved, grad):
        density = fn.exp(-(saved.result + fn.pow(saved.self, 2) / 2))  # (made first)
        return grad / _SQRT_2PI * density


def _unary(node_cls, name: str, x):
    _float_kernel(name, promotion.float_dtype_for(x.dtype))
    return promotion.unary(node_cls, x)


def erfcx(x):
    return _unary(SpecialErfcxBackward0, "erfcx", x)


def ndtri(x):
    return _unary(SpecialNdtriBackward0, "ndtri", x)


def log_ndtr(x):
    return _unary(SpecialLogNdtrBackward0, "log_ndtr", x)


# ---- Hurwitz's zeta: differentiable in q only ----------------------------------------

def zeta_values(x, q):
    """zeta(x, q) elementwise, Cephes' series in double (PyTorch's float32 kernel
    accumulates in double too), rounded to the dtype."""
    values = kernels_special._zeta_elements(x.astype(np.float64), q.astype(np.float64))
    return np.asarray(values, np.float64).astype(np.result_type(x, q))


class SpecialZetaBackward0(Node):
    formula = Formula("z", "zeta(x, q) = sum over k >= 0 of (k + q)**-x",
                      d={"x": "not implemented", "q": "-x zeta(x + 1, q)"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, x, q):
        return zeta_values(x, q)

    def backward(self, saved, grad):
        if self.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        following = fn.special_zeta(saved.self + 1.0, saved.other)  # (made first)
        return None, grad * -saved.self * following


class SpecialZetaBackward1(Node):
    formula = Formula("z", "zeta(x, q), x a number", d={"q": "-x zeta(x + 1, q)"})
    saves = {"other": Input(0)}

    def forward(self, q, number):
        self.save(self=number)  # (PyTorch's name for the number: ``_saved_self``)
        return zeta_values(np.asarray(number, q.dtype), q)

    def backward(self, saved, grad):
        following = fn.special_zeta(saved.self + 1.0, saved.other)  # (made first)
        return grad * -saved.self * following


class SpecialZetaBackward2(Node):
    formula = Formula("z", "zeta(x, q), q a number", d={"x": "not implemented"})

    def forward(self, x, other=None):
        return zeta_values(x, np.asarray(other, x.dtype))

    def backward(self, saved, grad):
        raise NotImplementedError("the derivative for 'zeta' is not implemented.")


def zeta(x, q):
    """Hurwitz's zeta function zeta(x, q); either may be a number."""
    dtype = promotion.float_dtype_for(dtypes.result_type(x, q))
    if is_tensor(x) and is_tensor(q):
        broadcast_shapes(x.shape, q.shape)
        _float_kernel("zeta", dtype)
        return promotion.binary(SpecialZetaBackward0, x, q, "special_zeta", float_only=True)
    _float_kernel("zeta", dtype)
    if is_tensor(x):
        return with_unary_layout(SpecialZetaBackward2.apply(x, cast_to=dtype, other=q), x)
    return with_unary_layout(SpecialZetaBackward1.apply(q, cast_to=dtype, number=x), q)


# ---- the multivariate log-gamma ------------------------------------------------------

class MvlgammaBackward0(Node):
    formula = Formula("y", "log Gamma_p(x) = p(p-1)/4 log(pi) + sum_j lgamma(x - j/2)",
                      d={"x": "sum_j digamma(x - j/2), j = 0 .. p-1"})
    saves = {"self": Input(0), "p": Param(1)}

    def forward(self, x, p=1):
        args = _halves(p, x.dtype) + x[..., None]
        total = sum_axes(kernels_special.lgamma(args), (-1,), False)
        return np.asarray(total + x.dtype.type(p * (p - 1) * math.log(math.pi) * 0.25))

    def backward(self, saved, grad):
        steps = fn.as_constant(_halves(saved.p, _numpy_dtype(saved.self)), saved.self)
        return grad * fn.sum(fn.digamma_(steps + fn.unsqueeze(saved.self, -1)), -1)


def _halves(p: int, dtype):
    """-(p - 1)/2, ..., -1/2, 0 (PyTorch's arange(-p/2 + 1/2, 1/2, 1/2)) in dtype."""
    return np.arange(-p / 2 + 0.5, 0.5, 0.5).astype(dtype)


def _numpy_dtype(x):
    return x.dtype.numpy if is_tensor(x) else x.dtype


def mvlgamma(x, p: int):
    """The multivariate log-gamma function of dimension p (torch.mvlgamma,
    special.multigammaln); integers give the default float dtype."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return with_unary_layout(MvlgammaBackward0.apply(
        x, cast_to=promotion.float_dtype_for(x.dtype), p=p), x)


# ---- the regularized incomplete gamma functions: differentiable in x only ------------------

def _gamma_density(a, x):
    """x**(a-1) exp(-x) / Gamma(a), PyTorch's formula in its order of operations."""
    lgamma = fn.lgamma(a)
    logs = fn.log(x)
    return fn.exp((a - 1) * logs - x - lgamma)


class IgammaBackward0(Node):
    formula = Formula("z", "P(a, x): the regularized lower incomplete gamma function",
                      d={"a": "not implemented", "x": "x**(a-1) exp(-x) / Gamma(a)"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, x):
        return kernels_igamma.igamma(a, x)

    def backward(self, saved, grad):
        if self.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'igamma: input' is not implemented.")
        return None, grad * _gamma_density(saved.self, saved.other)


class IgammacBackward0(Node):
    formula = Formula("z", "Q(a, x) = 1 - P(a, x)",
                      d={"a": "not implemented", "x": "-x**(a-1) exp(-x) / Gamma(a)"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, x):
        return kernels_igamma.igammac(a, x)

    def backward(self, saved, grad):
        if self.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'igammac: input' is not implemented.")
        density = _gamma_density(saved.self, saved.other)  # (made before -grad: PyTorch's order)
        return None, -grad * density


def _check_igamma(name: str, a, x):
    broadcast_shapes(a.shape, x.shape)
    dtype = dtypes.result_type(a, x)
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[dtype]}'")


def igamma(a, x):
    """P(a, x), the regularized lower incomplete gamma function (torch.igamma,
    special.gammainc)."""
    _check_igamma("igamma", a, x)
    return promotion.binary(IgammaBackward0, a, x, "igamma", float_only=True)


def igammac(a, x):
    """Q(a, x) = 1 - P(a, x) (torch.igammac, special.gammaincc)."""
    _check_igamma("igammac", a, x)
    return promotion.binary(IgammacBackward0, a, x, "igammac", float_only=True)
