"""Trigonometric, hyperbolic and special functions on arrays, as close to PyTorch's CPU
kernels as NumPy allows (``ops/trig.py`` and ``ops/special.py`` call them).

- float32 (and float16) are computed in float64 and rounded once: PyTorch's float32
  kernels (SLEEF's vectorised ones, the C library's ``sinf``, ``erff``... elsewhere) are
  within an ulp of the true value, and the true value rounded is what float64 then
  float32 gives; NumPy's own float32 loops round more values otherwise (measured:
  ``tests/core/ops/test_trig.py`` and the README).
- ``erf``, ``erfc``: NumPy has none; the C library's (Python's ``math``), per element.
- ``asinh``, ``acosh``: PyTorch calls the C library's per element; so does minigrad
  (``asinhf`` through ctypes for float32, Python's ``math`` for float64).
- ``erfinv``: PyTorch's ``calc_erfinv`` (a rational first guess, two Newton steps).
- ``sinc``, ``logit``, ``xlogy``, ``entr``, ``lerp``, ``logaddexp``, ``logaddexp2``,
  ``heaviside``: PyTorch's formulas, step by step in the tensor's dtype (float16 in
  float32 where PyTorch's kernel computes it so; ``logit``'s, ``xlogy``'s and ``entr``'s
  steps round to half, as theirs).
- ``addcmul``, ``addcdiv``: ``self + value * t1 * t2`` (its last multiply and the add
  fused, as PyTorch's compiler fuses them) and ``self + value * t1 / t2``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np

from . import fma

__all__ = ["in_float64", "half_in_float32", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh",
           "acosh", "atanh", "exp2", "hypot", "erf", "erfc", "erfinv", "sinc", "logit",
           "logit_backward", "xlogy", "entr", "lerp", "logaddexp", "logaddexp2", "heaviside", "copysign",
           "addcmul", "addcdiv"]


def in_float64(kernel):
    """``kernel`` on float64 values, the result rounded once to the operands' dtype."""
    def computed(*arrays):
        dtype = np.result_type(*arrays)
        if dtype == np.float64:
            return np.asarray(kernel(*arrays))
        wide = (np.asarray(a, np.float64) for a in arrays)
        return np.asarray(kernel(*wide)).astype(dtype)
    computed.__name__ = kernel.__name__
    return computed


def half_in_float32(kernel):
    """float16 operands computed in float32 and the result rounded once, as PyTorch's
    kernels compute half (NumPy's float16 arithmetic rounds every step)."""
    def computed(*arrays, **params):
        if not any(getattr(a, "dtype", None) == np.float16 for a in arrays):
            return kernel(*arrays, **params)
        wide = (a.astype(np.float32) if getattr(a, "dtype", None) == np.float16 else a
                for a in arrays)
        return np.asarray(kernel(*wide, **params).astype(np.float16))
    computed.__name__, computed.__doc__ = kernel.__name__, kernel.__doc__
    return computed


tan, asin, acos, atan = (in_float64(f) for f in (np.tan, np.arcsin, np.arccos, np.arctan))
sinh, cosh, exp2 = (in_float64(f) for f in (np.sinh, np.cosh, np.exp2))
atanh = in_float64(np.arctanh)
atan2, hypot = in_float64(np.arctan2), in_float64(np.hypot)
_sin = in_float64(np.sin)

_erf, _erfc = np.frompyfunc(math.erf, 1, 1), np.frompyfunc(math.erfc, 1, 1)


def _c_library(name: str):
    """The C library's float function ``name`` (``asinhf``), None where it is not found."""
    path = ctypes.util.find_library("m")
    try:
        function = getattr(ctypes.CDLL(path), name)
    except (OSError, AttributeError, TypeError):
        return None
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return np.frompyfunc(function, 1, 1)


def _per_element(double, single):
    """PyTorch computes asinh and acosh with the C library's function, element by element
    (``asinh`` for float64, ``asinhf`` for float32), not with a vectorised one: so does
    this kernel (float32 where the C library has no ``asinhf``: float64, rounded)."""
    double = np.frompyfunc(double, 1, 1)
    single = _c_library(single)

    def computed(x):
        if x.dtype == np.float32 and single is not None:
            return np.asarray(single(x).astype(np.float32))
        with np.errstate(all="ignore"):
            return np.asarray(double(x.astype(np.float64)).astype(np.float64).astype(x.dtype))
    return computed


def _domain(function, low):
    """``math.acosh`` raises below 1 where C's gives NaN."""
    def total(x):
        return function(x) if x >= low or x != x else math.nan
    return total


asinh = _per_element(math.asinh, "asinhf")
acosh = _per_element(_domain(math.acosh, 1.0), "acoshf")


@in_float64
def erf(x):
    return _erf(x).astype(np.float64)


@in_float64
def erfc(x):
    return _erfc(x).astype(np.float64)


_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


@in_float64
def erfinv(y):
    """The inverse of erf: PyTorch's ``calc_erfinv`` steps, a rational guess (central
    |y| <= 0.7, or the tails), then two Newton steps x -= (erf(x) - y) / (2/sqrt(pi)
    exp(-x*x)), in float64 (float32 rounded from it: PyTorch's float32 erfinv is
    correctly rounded, and so is this one on every value tried; its float64 one is too,
    which these steps are not in about a third of the values, by one ulp)."""
    t = y.dtype.type
    a, b, c, d = ([t(v) for v in k] for k in (_ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D))
    one, two = t(1), t(2)
    with np.errstate(all="ignore"):
        size = np.abs(y)
        z = y * y
        num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
        dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + one
        central = y * num / dem
        z = np.sqrt(-np.log((one - size) / two))
        num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0]
        dem = (d[1] * z + d[0]) * z + one
        x = np.where(size <= t(0.7), central, np.copysign(num, y) / dem)
        slope = two / t(math.sqrt(math.pi))
        for _ in range(2):
            x = x - (erf(x) - y) / (slope * in_float64(np.exp)(-x * x))
        x = np.where(size == one, np.copysign(t(np.inf), y), x)
        return np.asarray(np.where(size > one, t(np.nan), x), y.dtype)


@half_in_float32
def sinc(x):
    """sin(pi x) / (pi x), and 1 at 0 (pi in x's dtype)."""
    product = x * x.dtype.type(math.pi)
    with np.errstate(all="ignore"):
        return np.asarray(np.where(x == 0, x.dtype.type(1), _sin(product) / product), x.dtype)


def logit(x, eps=None):
    """log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given."""
    if eps is not None:
        low = x.dtype.type(eps)
        x = np.where(x < low, low, np.where(x > 1 - low, 1 - low, x))
    return in_float64(np.log)(x / (1 - x))


def logit_backward(grad, x, eps=None):
    """grad / (x (1 - x)); outside [0, 1] NaN, or outside [eps, 1 - eps] 0 (PyTorch's
    ``logit_backward`` kernel)."""
    if eps is None:
        outside, fill = (x < 0) | (x > 1), np.nan
    else:
        low = x.dtype.type(eps)
        outside, fill = (x < low) | (x > 1 - low), 0
    return np.asarray(np.where(outside, x.dtype.type(fill), grad / (x * (1 - x))), grad.dtype)


def xlogy(x, y):
    """x log(y), 0 where x is 0 (unless y is NaN)."""
    return np.asarray(np.where(np.isnan(y), y, np.where(x == 0, 0, x * in_float64(np.log)(y))),
                      np.result_type(x, y))


def entr(x):
    """-x log(x) for x > 0, 0 at 0, -inf below (NaN stays NaN)."""
    negative = np.where(x < 0, x.dtype.type(-np.inf), np.where(x == 0, x.dtype.type(0), x))
    return np.asarray(np.where(x > 0, -x * in_float64(np.log)(np.abs(x)), negative), x.dtype)


@half_in_float32
def lerp(start, end, weight):
    """start + weight (end - start) where |weight| < 0.5, else end - (end - start)(1 -
    weight), each one fused multiply-add, as PyTorch's vectorised kernel."""
    start, end, weight = np.broadcast_arrays(start, end, np.asarray(weight, start.dtype))
    small = np.abs(weight) < 0.5
    coefficient = np.where(small, weight, weight - 1)
    base = np.where(small, start, end)
    fused = fma.fma32 if start.dtype == np.float32 else fma.fma64
    return np.asarray(fused(coefficient, end - start, base), start.dtype)


@half_in_float32
def logaddexp(a, b):
    """log(exp(a) + exp(b)) = max + log1p(exp(-|a - b|)); a when both are the same inf."""
    top = np.maximum(a, b)
    with np.errstate(all="ignore"):
        result = top + in_float64(np.log1p)(in_float64(np.exp)(-np.abs(a - b)))
    return np.asarray(np.where(np.isinf(a) & (a == b), a, result))


@half_in_float32
def logaddexp2(a, b):
    """log2(2**a + 2**b) = max + log1p(2**-|a - b|) / ln 2."""
    top = np.maximum(a, b)
    dtype = top.dtype.type
    with np.errstate(all="ignore"):
        tail = in_float64(np.log1p)(exp2(-np.abs(a - b))) * dtype(1 / math.log(2))
        return np.asarray(np.where(np.isinf(a) & (a == b), a, top + tail))


def heaviside(x, values):
    """0 below 0, 1 above, ``values`` at 0."""
    return np.asarray(np.where(x == 0, values, x > 0).astype(np.result_type(x, values)))


def copysign(a, b):
    """|a| with the sign of b (of a zero or a NaN too)."""
    return np.asarray(np.copysign(a, b))


def addcmul(self_, t1, t2, value):
    """``self + value * t1 * t2``. PyTorch's kernel writes it so, and its compiler fuses
    the last multiply with the add: ``fma(value * t1, t2, self)`` (every element of
    float32 and float64, measured against torch 2.13). float16 is computed in float32
    and rounded once to half; integers wrap, the value cast to their type."""
    self_, t1, t2 = np.broadcast_arrays(self_, t1, t2)
    dtype = self_.dtype
    if dtype.kind != "f":
        with np.errstate(over="ignore"):
            return np.asarray(self_ + dtype.type(int(value)) * t1 * t2, dtype)
    wide = np.float32 if dtype == np.float16 else dtype.type
    fused = fma.fma64 if wide == np.float64 else fma.fma32
    with np.errstate(all="ignore"):
        scaled = wide(value) * t1.astype(wide)
        return np.asarray(fused(scaled, t2.astype(wide), self_.astype(wide)), wide).astype(dtype)


def addcdiv(self_, t1, t2, value):
    """``self + value * t1 / t2``, each step rounded (a division is not fused); float16
    computed in float32 and rounded once to half."""
    self_, t1, t2 = np.broadcast_arrays(self_, t1, t2)
    dtype = self_.dtype
    wide = np.float32 if dtype == np.float16 else dtype.type
    with np.errstate(all="ignore"):
        quotient = wide(value) * t1.astype(wide) / t2.astype(wide)
        return np.asarray(self_.astype(wide) + quotient).astype(dtype)
