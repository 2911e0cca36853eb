"""Elementwise functions on arrays as PyTorch's CPU kernels compute them: the same
bits (sigmoid's formula, relu's -0, maximum's ties, sign of NaN), and big arrays
split across threads (``threads.py``): exp, log, sqrt, sin, cos, tanh, sigmoid
(each element computed by the same NumPy kernel as in one call, so the same bits)."""

from __future__ import annotations

import numpy as np

from . import compiled, fma, threads
from .special import half_in_float32


def sigmoid(x):
    """1 / (1 + exp(-x)) for an array, as PyTorch's CPU kernel computes it: in x's
    dtype (float16 in float32), so exp(-x) overflows below about -88 in float32 and
    the result is 0 there (not a denormal). A C-contiguous float32 array takes the
    compiled loop (``compiled.sigmoid_vectorised``): PyTorch's bits in every element.
    Without it (no numba, other layouts, float64): float32's exp is taken in float64 and
    rounded, as the C library's expf rounds it (PyTorch's for 0-dim and strided
    tensors and the ends of runs). On whole blocks of contiguous runs PyTorch uses a
    vectorized exp: there about 4 % of float32 and 2.5 % of float64 results differ
    from PyTorch's, mostly in the last bit (at most 4 ulps, in the tails).

    A big array (``threads.BIG`` elements or more) is made part after part, on
    threads, in its own dtype: float32's exp is NumPy's float32 loop there, as for
    ``exp`` and ``tanh`` (the float64 exp cost twice as much as the whole float32
    sigmoid; 17 % of values then differ from PyTorch's in the last bits, at most 4
    ulps, where 4 % did)."""
    if x.dtype is _FLOAT32 and _compiled(x):  # (PyTorch's loop, SLEEF's exp: compiled.py)
        if x.size >= threads.BIG:
            result = threads.parts(compiled.sigmoid_vectorised, None, x)
            if result is not None:
                return result
        result = np.empty(x.shape, _FLOAT32)
        compiled.sigmoid_vectorised(result, x)
        return result
    if x.size >= threads.BIG and x.dtype.char != "e":
        result = threads.parts(_sigmoid, None, x)
        if result is None:  # (a layout the parts do not take: the same steps, whole)
            result = np.empty_like(x)
            _sigmoid(result, x)
        return result
    if x.dtype.char in "fe":  # (float32, and float16 computed in float32)
        exp = np.exp(np.negative(x, dtype=np.float64)).astype(np.float32)
        return np.asarray((_ONE32 / (_ONE32 + exp)).astype(x.dtype, copy=False))
    one = x.dtype.type(1)
    return np.asarray(one / (one + np.exp(np.negative(x))))


def _sigmoid(out, x):
    one = one_of(x.dtype)
    np.negative(x, out=out)
    np.exp(out, out=out)
    np.add(one, out, out=out)
    np.divide(one, out, out=out)


_ONE32 = np.float32(1)
_ONE64 = np.ones((), np.float64)
_FLOAT32, _FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)


def sigmoid_backward(grad, y):
    """The derivative of y = sigmoid(x), times grad: grad * (1 - y) * y (torch's order;
    1 as a 0-dim array, see tanh_backward). A big one in one new buffer, part after
    part, as tanh_backward."""
    if y.size < threads.BIG or grad.dtype != y.dtype or grad.shape != y.shape:
        return grad * (one_of(y.dtype) - y) * y
    out = threads.parts(_sigmoid_backward, None, grad, y, split=False)
    return grad * (one_of(y.dtype) - y) * y if out is None else out


def _sigmoid_backward(out, grad, y):
    # (the operands in the order NumPy takes them for the formula on big arrays, which
    # computes grad * (1 - y) into the new array 1 - y: where grad and y both hold a
    # NaN, the NaN of the first operand is the one kept)
    np.subtract(one_of(y.dtype), y, out=out)
    np.multiply(out, grad, out=out)
    np.multiply(out, y, out=out)


def tanh_backward(grad, y):
    """The derivative of y = tanh(x), times grad: grad * (1 - y*y), as PyTorch's CPU
    kernel computes it. Its ``a * (1 - b * b)`` is compiled to a fused multiply-add,
    so 1 - y*y is rounded once (``one_minus_square``), then multiplied by grad;
    computed as written, 1 - y*y rounds twice, and about 30 % of the gradients would
    differ by one bit (so a hand-derived ``(1 - t**2) * dt`` is not exactly autograd's,
    in PyTorch as here). float16 is computed in float32 and rounded at the end, as in
    PyTorch. A big array in parts on threads (``threads.parts``), with the same bits."""
    if y.dtype is _FLOAT32 and grad.dtype is _FLOAT32 and y.size < threads.BIG:
        if compiled.AVAILABLE and type(y) is np.ndarray and type(grad) is np.ndarray:
            return compiled.tanh_backward_rounded(y, grad)  # (the usual case: one ufunc)
        return one_minus_square(y) * grad
    if y.dtype.char == "e" or grad.dtype.char == "e":
        # (in PyTorch's float16 loops a NaN of both is grad's)
        wide = np.multiply(grad.astype(np.float32), one_minus_square(y.astype(np.float32)))
        return wide.astype(np.result_type(grad, y))
    if y.size >= threads.BIG and grad.dtype == y.dtype and grad.shape == y.shape:
        if not any(grad.strides) and grad.flat[0] == 1:
            # The gradient of a sum, expanded: every element is exactly 1, and 1 * v is
            # v for every float (inf, nan, -0 too), so that product is left out.
            out = threads.parts(_one_minus_square, None, y)
        else:
            out = threads.parts(_tanh_backward, None, grad, y)
        if out is not None:
            return out
    return one_minus_square(y) * grad  # (a NaN of both: 1 - y*y's, as in PyTorch)


def one_minus_square(y):
    """1 - y*y rounded once, as the fused multiply-add fma(y, -y, 1), in y's dtype. (A
    NaN keeps y's sign: y is the first operand, whose NaN x86 passes on.)

    float32: y*y is exact in float64 (24 + 24 bits < 53), so 1 - y*y rounds once
    there, and once more to float32. Rounding twice gives the once-rounded result
    for every float32 y: every one was tried (``tests/core/ops/test_fma.py``). float64
    has no wider type to do that in: ``fma.one_minus_square64``."""
    if y.dtype.char == "f":
        wide = y.astype(_FLOAT64)
        return (_ONE64 - wide * wide).astype(_FLOAT32)
    return fma.one_minus_square64(y).astype(y.dtype, copy=False)


def one_of(dtype):
    """1 as a read-only 0-dim array of a NumPy dtype (made once per dtype)."""
    one = _ONES.get(dtype)
    if one is None:
        one = _ONES[dtype] = np.ones((), dtype)
        one.flags.writeable = False
    return one


_ONES: dict = {}


def _tanh_backward(out, grad, y):
    _one_minus_square(out, y)
    np.multiply(out, grad, out=out)


def _one_minus_square(out, y):
    if y.dtype.char != "f":
        fma.one_minus_square64(y, out=out)
        return
    wide = y.astype(_FLOAT64)  # (one_minus_square's steps in one buffer: a big one's part)
    np.multiply(wide, wide, out=wide)
    np.subtract(_ONE64, wide, out=wide)
    np.copyto(out, wide, casting="same_kind")


def threshold_backward(grad, x, threshold):
    """grad where x > threshold, else 0 (relu's derivative, with x its result)."""
    if grad.shape != x.shape or grad.dtype.kind != "f" or not grad.ndim or not (
            grad.flags.c_contiguous and x.flags.c_contiguous):
        return np.where(x <= threshold, np.zeros((), grad.dtype), grad)
    # np.where takes an element at a time; the same bits come several times quicker
    # from vectorised steps: grad's bits ANDed with all ones where it is kept (x is
    # not <= threshold: a NaN x keeps grad, as in torch), all zeros (+0) elsewhere.
    out = np.empty(grad.shape, grad.dtype)
    bits = out.view(_BITS[grad.itemsize])
    kept = np.less_equal(x, threshold)
    np.logical_not(kept, out=kept)
    np.copyto(bits, kept)
    np.negative(bits, out=bits)  # (1 -> all ones: unsigned arithmetic wraps)
    np.bitwise_and(bits, grad.view(bits.dtype), out=bits)
    return out


_BITS = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def sign(x):
    """-1, 0 or 1 for each element of an array; torch's sign(nan) is 0 (of a bool, itself)."""
    if x.dtype == np.bool_:
        return x.copy()
    return np.asarray(np.where(np.isnan(x), 0, np.sign(x)).astype(x.dtype))


def maximum(a, b):
    """torch's maximum: on a tie the first operand (so maximum(-0., 0.) is -0.);
    a NaN on either side wins. (NumPy's gives the second on a tie.)"""
    return np.asarray(np.where(a == b, a, np.maximum(a, b)))


def minimum(a, b):
    """torch's minimum: on a tie the first operand; a NaN on either side wins."""
    return np.asarray(np.where(a == b, a, np.minimum(a, b)))


def fmax(a, b):
    """torch's fmax: on a tie the first operand (fmax(-0., 0.) is -0.), a NaN loses to a
    number. (NumPy's vectorised loop gives either zero.)"""
    return np.asarray(np.where(a == b, a, np.fmax(a, b)))


def fmin(a, b):
    """torch's fmin: on a tie the first operand, a NaN loses to a number."""
    return np.asarray(np.where(a == b, a, np.fmin(a, b)))


def tanh(x):
    """tanh, an array: float32 below ``threads.BIG`` elements computed in float64 and
    rounded once (as ``exp``); a big array split across threads (same bits as one
    ``np.tanh``). (``_rounded_from_float64``'s float32 case written out first: it runs
    once per tanh of every RNN step.)"""
    if x.dtype is _FLOAT32 and x.ndim and x.size < threads.BIG:
        if compiled.AVAILABLE and type(x) is np.ndarray:
            return compiled.tanh_rounded(x)  # (the same steps in one ufunc: compiled.py)
        return np.tanh(x.astype(_FLOAT64)).astype(_FLOAT32)
    return np.asarray(_rounded_from_float64(np.tanh, x))


def _compiled(x) -> bool:
    """Whether the compiled sigmoid loop takes this float32 array: there, and a plain
    C-contiguous array (other layouts keep NumPy's, whose result follows the operand's
    layout, as PyTorch's)."""
    return compiled.AVAILABLE and type(x) is np.ndarray and x.flags.c_contiguous


def _rounded_from_float64(ufunc, x):
    """``ufunc(x)``; for float32 below ``threads.BIG`` elements, computed in float64 and
    rounded once. PyTorch's vectorised SLEEF kernels are within an ulp and nearly
    always the correctly rounded value, NumPy's own float32 loops (AVX-512) less often:
    of 200,000 random float32 values, PyTorch's bits came from NumPy's float32 loop /
    this way in tanh 68 / 99.9 % (and
    NumPy prints a float32 array's shortest digits, so an ulp shows: the RNN of
    rasbt/machine-learning-book ch15 printed -0.35198012 where PyTorch gives
    -0.3519801). A big array keeps NumPy's float32 loop on threads, for speed."""
    if x.size >= threads.BIG:
        return threads.call(ufunc, x)
    if x.dtype is _FLOAT32:
        return ufunc(x.astype(_FLOAT64)).astype(_FLOAT32)
    return ufunc(x)


# The other functions whose NumPy kernels cost a few ns per element (bound by
# computing, not by memory): a big array split across threads, with the bits of
# one NumPy call. (log, sin and cos return what their ufunc returns: a 0-dim
# array gives a NumPy scalar.)

def exp(x):
    """e ** x, an array (also for a 0-dim x).

    float32 below ``threads.BIG`` elements: computed in float64 and rounded once.
    PyTorch's vectorised SLEEF exp is nearly always the correctly rounded value and
    NumPy's own float32 loop (AVX-512) is not: of 200,000 random values 61 % agreed
    with PyTorch's, 99 % this way; and exp's large values show an ulp in print (d2l's
    ``torch.exp(x)`` printed 162754.7812 where PyTorch prints 162754.7969). A big array
    keeps NumPy's float32 loop: the float64 route costs about five times as much there
    (``make bench``'s "op exp"). tanh takes the same route (``_rounded_from_float64``);
    log, sin and cos keep NumPy's loops (see ``log`` and ``cos``)."""
    if x.size >= threads.BIG:
        return np.asarray(threads.call(np.exp, x))
    if x.dtype is _FLOAT32:
        return np.exp(x.astype(_FLOAT64)).astype(_FLOAT32)
    return np.asarray(np.exp(x))


def log(x):
    """The natural logarithm: NumPy's loop at every size (computed in float64 and rounded,
    float32 logs have PyTorch's bits in 92 % of random values against 83 %, but the
    float32 sum of 25,088 of them in pytorch/examples' vae then came out an ulp from
    PyTorch's where NumPy's loop gave its bits, and the loss cancels down to that ulp)."""
    return np.log(x) if x.size < threads.BIG else threads.call(np.log, x)


def sqrt(x):
    """The square root, an array (also for a 0-dim x). Only float64 is split: a
    float32 square root costs about what a product does (bound by memory)."""
    if x.size < threads.BIG or x.dtype != np.float64:
        return np.asarray(np.sqrt(x))
    return threads.call(np.sqrt, x)


def sin(x):
    """NumPy's loop at every size (see ``cos``)."""
    return np.sin(x) if x.size < threads.BIG else threads.call(np.sin, x)


def cos(x):
    """NumPy's loop at every size: the float64 route would give PyTorch's bits in 95 % of
    random float32 values against 82 % (sin 87 %), but not in the signal windows' few
    values that tests/core/fidelity/test_top_level_names.py holds bit for bit."""
    return np.cos(x) if x.size < threads.BIG else threads.call(np.cos, x)


@half_in_float32
def log_sigmoid(x):
    """log sigmoid(x) = min(x, 0) - log(1 + exp(-|x|)), stable for any x, as PyTorch's
    kernel computes it (so log sigmoid(104.) is +0, as in torch, not -0), and its buffer
    exp(-|x|) (what backward reads, as PyTorch's kernel keeps it): (result, buffer). A
    big one part after part, on threads: the buffer first, then the result."""
    if x.size >= threads.BIG:
        buffer = np.empty(x.shape, x.dtype)
        result = threads.parts(log_sigmoid_into, None, x, buffer)
        if result is not None:
            return result, buffer
    buffer = np.exp(-np.abs(x))
    return np.minimum(x, 0) - np.log1p(buffer), buffer


def log_sigmoid_into(out, x, buffer):
    """log_sigmoid on arrays of one shape and dtype: the result into ``out``, the
    buffer exp(-|x|) into ``buffer`` (a part of a big kernel: no threads here)."""
    np.abs(x, out=buffer)
    np.negative(buffer, out=buffer)
    np.exp(buffer, out=buffer)
    np.minimum(x, 0, out=out)
    np.subtract(out, np.log1p(buffer), out=out)


@half_in_float32
def log_sigmoid_backward(grad, x, buffer):
    """grad * (1 - sigmoid(x)), as PyTorch's kernel computes it from the buffer
    b = exp(-|x|): grad * (1 - b / (1 + b)) where x < 0, grad * (b / (1 + b))
    elsewhere. A big one part after part, on threads."""
    if buffer.size >= threads.BIG and grad.shape == buffer.shape:
        result = threads.parts(_log_sigmoid_backward, None, grad, x, buffer)
        if result is not None:
            return result
    one = np.ones((), buffer.dtype)  # (in x's dtype: float32 stays float32)
    ratio = buffer / (one + buffer)
    # (max_deriv - sign * ratio: 1 - ratio where x < 0, 0 - (-ratio) = ratio elsewhere)
    return np.where(x < 0, one - ratio, ratio) * grad


def _log_sigmoid_backward(out, grad, x, buffer):
    one = one_of(buffer.dtype)
    ratio = np.add(one, buffer)
    np.divide(buffer, ratio, out=ratio)
    np.multiply(np.where(x < 0, one - ratio, ratio), grad, out=out)


def relu(x):
    """x < 0 ? 0 : x, as torch's clamp_min: -0 and NaN stay as they are."""
    if x.dtype.kind == "f":  # (np.maximum: a few times quicker than np.where,
        result = np.maximum(x, 0, out=np.empty_like(x))  # but it makes -0 +0:
        np.copyto(result, x, where=x == 0)  # the zeros are put back as they were)
        return result
    return np.asarray(np.where(x < 0, 0, x)).astype(x.dtype, copy=False)


def clamp(x, low, high):
    """min(max(x, low), high) with number bounds (either may be None), as torch
    computes it: on a tie x stays (-0 too), NaN stays; a NaN bound gives NaN."""
    result = x if low is None else np.where(x < low, low, x)
    result = result if high is None else np.where(result > high, high, result)
    if (low is not None and low != low) or (high is not None and high != high):
        result = np.where(True, np.nan, x)  # (torch's vectorized max/min give NaN)
    return np.asarray(result, dtype=x.dtype)
