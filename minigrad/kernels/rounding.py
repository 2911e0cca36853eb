"""Rounding and the division family on arrays, with the bits of PyTorch's CPU kernels.

- ``round_decimals``: PyTorch rounds ``x * 10**d`` to the nearest even integer and
  divides back, in the tensor's dtype (float16 in float32); NumPy's ``np.round`` does
  the same steps, written out here so the dtype of each step is visible.
- ``remainder``: PyTorch's ``fmod`` then ``+ b`` where the signs differ; it keeps the
  sign of ``a`` in a zero remainder (``-4. % 2`` is ``-0.``), where NumPy's
  ``np.remainder`` gives ``+0.``.
- ``floor_divide``: NumPy's float loop is PyTorch's algorithm (``(a - fmod(a, b)) / b``,
  then corrected to the floor; ``a / b`` when ``b`` is 0).
- integer ``//``, ``%`` and ``fmod`` by zero raise ``RuntimeError: ZeroDivisionError``,
  as PyTorch's kernels do (NumPy gives 0 with a warning).

``log10``, ``log2``, ``log1p`` and ``expm1`` are NumPy's, with float32 computed in
float64 and rounded once more: so nearly always the correctly rounded result, the same on
every machine (NumPy's float32 loops are vectorised differently on AVX2 and AVX-512
machines, and round differently there), and nearer PyTorch's vectorised kernels (SLEEF's,
within one ulp), which still differ in the last bit for some values (README, known
differences).
"""

from __future__ import annotations

import numpy as np

from .arithmetic import power
from .layout import in_iterator_layout
from .special import by_vectors

__all__ = ["round_decimals", "remainder", "fmod", "floor_divide", "trunc_divide", "rsqrt",
           "log10", "log2", "log1p", "expm1", "left_shift", "right_shift", "ldexp",
           "integer_power_of_two"]


def ldexp(x, other, dtype):
    """x * 2 ** other in ``dtype`` (a float dtype), as torch's ldexp: a float ``x`` and an
    integer exponent through C's ldexp, exact (0 * 2**200 is 0; past the dtype's range,
    inf or 0); else x * 2. ** other, each in ``dtype`` (0 * 2.**200 is nan in float32)."""
    if x.dtype.kind == "f" and other.dtype.kind in "iu":
        exponent = np.clip(other, -4096, 4096).astype(np.int32)  # (beyond: the same result)
        return np.ldexp(x.astype(dtype, copy=False), exponent)
    # (torch's x * pow(2., other): each an elementwise result laid out by its iterator)
    powers = in_iterator_layout(power(dtype.type(2), other.astype(dtype)), [other])
    return in_iterator_layout(x.astype(dtype, copy=False) * powers, [x, powers])


def integer_power_of_two(k: np.ndarray) -> np.ndarray:
    """2 ** k in k's integer dtype, as torch's integer pow computes it: wrapped (2**63 is
    -2**63 in int64, 2**64 is 0), and 0 for k < 0."""
    inside = (k >= 0) & (k < k.dtype.itemsize * 8)
    shifted = np.left_shift(np.ones_like(k), np.where(inside, k, 0))
    return np.where(inside, shifted, 0).astype(k.dtype)


def _in_float32(kernel):
    """float16 operands computed in float32 and rounded once, as PyTorch's kernels do
    (NumPy's float16 loops round every step)."""
    def computed(a, b):
        if np.result_type(a, b) == np.float16:
            return np.asarray(kernel(np.float32(a) if np.ndim(a) == 0 else a.astype(np.float32),
                                     np.asarray(b, np.float32)).astype(np.float16))
        return kernel(a, b)
    computed.__name__, computed.__doc__ = kernel.__name__, kernel.__doc__
    return computed


def _float32_in_float64(ufunc):
    """``ufunc`` of an array, float32 computed in float64 then rounded to float32."""
    def computed(x):
        if x.dtype == np.float32:
            return ufunc(x, dtype=np.float64).astype(np.float32)
        return ufunc(x)
    computed.__name__ = ufunc.__name__
    return computed


log10, log2 = _float32_in_float64(np.log10), _float32_in_float64(np.log2)
log1p, expm1 = _float32_in_float64(np.log1p), _float32_in_float64(np.expm1)


def _no_integer_zero(b, a=None) -> None:
    """torch's error for an integer division by zero (none when the broadcast result is
    empty: its kernel never runs)."""
    if not np.issubdtype(b.dtype, np.floating) and not np.all(b):
        if a is None or 0 not in np.broadcast_shapes(np.shape(a), b.shape):
            raise RuntimeError("ZeroDivisionError")


def round_decimals(x, decimals: int):
    """``torch.round(x, decimals=d)``: rint(x * 10**d) / 10**d (d < 0: rint(x / 10**-d)
    * 10**-d), each step in x's dtype (float16's in float32)."""
    work = np.float32 if x.dtype == np.float16 else x.dtype.type
    ten = work(10.0 ** abs(decimals))
    values = x.astype(work, copy=False)
    if decimals >= 0:
        result = np.rint(values * ten) / ten
    else:
        result = np.rint(values / ten) * ten
    return np.asarray(result.astype(x.dtype, copy=False))


def rsqrt(x):
    """1 / sqrt(x), two correctly rounded steps, as PyTorch's vectorised kernel (a half's
    vector blocks in float32, rounded once: NumPy's half steps parted in 8,402 of the
    63,488 halves; its last n % 32 in two half steps)."""
    if x.dtype == np.float16:  # (its vector blocks in float, rounded once; the rest twice)
        return np.asarray(by_vectors(x, lambda v: rsqrt(v.astype(np.float32)).astype(np.float16),
                                     lambda v: np.divide(v.dtype.type(1), np.sqrt(v))))
    return np.asarray(np.divide(x.dtype.type(1), np.sqrt(x)))


@_in_float32
def remainder(a, b):
    """a - b * floor(a / b), with the sign of b (Python's ``%``)."""
    _no_integer_zero(b, a)
    if not np.issubdtype(np.result_type(a, b), np.floating):
        return np.asarray(np.remainder(a, b))
    mod = np.fmod(a, b)
    return np.asarray(np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod))


@_in_float32
def fmod(a, b):
    """a - b * trunc(a / b), with the sign of a (C's ``fmod``)."""
    _no_integer_zero(b, a)
    return np.asarray(np.fmod(a, b))


def floor_divide(a, b):
    """floor(a / b) (``//``). float16 takes PyTorch's steps one by one, each rounded to
    float16 (unlike its other float16 kernels, and unlike NumPy's float16 loop)."""
    _no_integer_zero(b, a)
    if np.result_type(a, b) != np.float16:
        return np.asarray(np.floor_divide(a, b))
    a, b = np.asarray(a, np.float16), np.asarray(b, np.float16)
    one, half = np.float16(1), np.float16(0.5)
    mod = np.fmod(a, b)
    div = (a - mod) / b
    div = np.where((mod != 0) & ((b < 0) != (mod < 0)), div - one, div)
    floor = np.floor(div)
    floor = np.where(div - floor > half, floor + one, floor)
    floor = np.where(div == 0, np.copysign(np.float16(0), a / b), floor)
    return np.asarray(np.where(b == 0, a / b, floor))


def trunc_divide(a, b):
    """trunc(a / b): ``div(a, b, rounding_mode='trunc')`` (float16: the quotient rounded
    to float16 first, as PyTorch's kernel)."""
    _no_integer_zero(b, a)
    if np.issubdtype(np.result_type(a, b), np.floating):
        return np.asarray(np.trunc(np.divide(a, b)))
    quotient = np.floor_divide(a, b)  # (integers: toward zero, not toward -inf)
    return np.asarray(quotient + ((np.remainder(a, b) != 0) & ((a < 0) != (b < 0))))


def left_shift(a, b):
    """a << b on integers, as PyTorch's lshift: 0 for a shift below 0 or of the type's
    bits or more (C leaves those undefined)."""
    inside = (b >= 0) & (b < a.dtype.itemsize * 8)
    return np.where(inside, np.left_shift(a, np.where(inside, b, 0)), 0).astype(a.dtype)


def right_shift(a, b):
    """a >> b on integers, as PyTorch's rshift: a shift below 0 or past the value bits
    shifts by all of them (the sign, for a signed type)."""
    most = a.dtype.itemsize * 8 - (a.dtype.kind == "i")
    return np.right_shift(a, np.where((b < 0) | (b >= most), most, b)).astype(a.dtype)
