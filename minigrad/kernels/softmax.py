"""softmax, log_softmax and logsumexp along a dimension, and the gradients of the
first two, on arrays: the largest value of each row taken out first (so that no
exp overflows), then NumPy's sum of each row.

For a big array whose dimension is its last axis, laid out row after row (the
usual case: class scores of shape (N, C), dim=1), every step runs in blocks of
whole rows (``threads.rows``), on threads: a block's rows are still in the core's
cache from one step to the next (one pass over memory, where the whole-array
steps made four), and NumPy adds up each row of a block in the order it adds it
up in one call over the whole array, so every result has the same bits. Along
another dimension of a C-contiguous array (softmax(x, dim=0)) the blocks are of
whole columns (``threads.columns``), each added up one row after the other, as
NumPy adds up the whole array along that dimension. Any other layout: the same
steps on the whole array, on one thread.

Where both operands of a step hold a NaN, the result is the first operand's NaN
(its sign and payload), so each step takes its operands in the order NumPy takes
them for the whole-array formula; that includes NumPy's reuse of a big
temporary array for the result (``y * (grad - s)`` is computed as
``(grad - s) * y``, into the array ``grad - s``).
"""

from __future__ import annotations

import numpy as np

from . import compiled, threads, vec
from .fma import fma32, fma64
from .summation import sum_axes

__all__ = ["softmax", "log_softmax", "logsumexp", "softmax_backward_data",
           "log_softmax_backward_data"]


def _along_rows(array: np.ndarray, dim: int) -> bool:
    """Whether ``dim`` is the last axis of a big array (the blocks of rows apply). The
    size is looked at first: for a small array it is the only cost."""
    return array.size >= threads.BIG and dim % array.ndim == array.ndim - 1


# PyTorch's softmax and log_softmax kernels along the last dim, float32 and float64:
# exp(x - max) per element, summed in vector lanes (a vector of this machine's,
# vec.NATIVE_VECTOR_BYTES: AVX-512's 16 floats or 8 doubles, AVX2's 8 or 4; whole vectors
# lane by lane, the leftover elements into the first lanes; then the lanes: float32's
# pairwise, i + 8, i + 4, i + 2, i + 1 (AVX2 from i + 4), by its SIMD shuffles,
# float64's one after the other, as ATen's generic vec_reduce_all adds them; a
# row shorter than a vector one element after the other), then softmax multiplies by
# 1 / sum and log_softmax subtracts log(sum). float32's exp and log are computed in
# float64 and rounded (PyTorch's SLEEF kernels nearly always give that), float64's are
# NumPy's. Of random rows 5-100 long, float32: 87-91 % of softmax's values and 98 % of
# log_softmax's have PyTorch's bits (35 % and 83 % with NumPy's own exp and pairwise
# sums); float64: 87-94 % and 96-98 % (45-78 % and 82-96 % with NumPy's sums and a
# division), the rest an ulp apart where SLEEF's exp rounds otherwise than NumPy's.
_LANES = {np.dtype(np.float32): vec.NATIVE_VECTOR_BYTES // 4,
          np.dtype(np.float64): vec.NATIVE_VECTOR_BYTES // 8}


def _lane_sums(rows: np.ndarray) -> np.ndarray:
    """The sum of each row of a 2-dim float32 or float64 array, added up as PyTorch's
    vectorised reduce_all adds it (see above)."""
    width, lanes = rows.shape[1], _LANES[rows.dtype]
    if width < lanes:  # (one element after the other: a running sum's last)
        return np.add.accumulate(rows, axis=1, dtype=rows.dtype)[:, -1]
    full = width - width % lanes
    acc = rows[:, :lanes].copy()
    for start in range(lanes, full, lanes):
        acc += rows[:, start:start + lanes]
    if full < width:
        acc[:, :width - full] += rows[:, full:]
    if rows.dtype == np.float64:
        return np.add.accumulate(acc, axis=1)[:, -1]
    while acc.shape[1] > 1:
        half = acc.shape[1] // 2
        acc = acc[:, :half] + acc[:, half:]
    return acc[:, 0]


def _exp_rows(shifted: np.ndarray) -> np.ndarray:
    return np.exp(shifted.astype(np.float64)).astype(shifted.dtype)


def _log_rows(sums: np.ndarray) -> np.ndarray:
    # (no np.errstate around the row kernels: their callers, an op's forward and the
    # backward walks, have NumPy's float warnings off already: kernels/float_errors.py)
    return np.log(sums.astype(np.float64)).astype(sums.dtype)


def _float_rows(x: np.ndarray, dim: int) -> bool:
    """PyTorch's order (above) for float32 and float64 rows below ``threads.BIG``
    elements; a big array keeps NumPy's exp and sums on threads (the float64 exp costs
    about three times as much there, for differences in the last bit that 4 printed
    digits never show)."""
    return (x.dtype in _LANES and 0 < x.size < threads.BIG and x.ndim > 0
            and dim % x.ndim == x.ndim - 1)


def _compiled_rows(x, dim: int) -> bool:
    """float32 along the last dim, where the compiled kernels are there
    (``kernels/compiled.py``: PyTorch's loop and SLEEF's exp, at every size)."""
    return (compiled.AVAILABLE and type(x) is np.ndarray and x.dtype is _FLOAT32
            and x.ndim > 0 and x.size > 0 and dim % x.ndim == x.ndim - 1)


def _by_rows(kernel, shape, *arrays):
    """``kernel(out, *arrays)`` on (rows, last dim) views of C-contiguous arrays of
    ``shape``: a big one in blocks of rows on threads (each row made by one thread, so
    the same bits), a small one in one call. Returns out, of ``shape``."""
    out = np.empty(shape, np.float32)
    if out.size < threads.BIG or threads.rows(kernel, out, *arrays) is None:
        width = shape[-1]
        kernel(out.reshape(-1, width), *[array.reshape(-1, width) for array in arrays])
    return out


_FLOAT32 = np.dtype(np.float32)


def _softmax_float_rows(out, x):
    """PyTorch's float32 or float64 softmax along rows (see above), into ``out``."""
    x = x.reshape(-1, x.shape[-1])
    exps = _exp_rows(x - np.maximum.reduce(x, axis=1, keepdims=True))
    one = x.dtype.type(1)
    np.multiply(exps, (one / _lane_sums(exps))[:, None], out=out.reshape(x.shape))


def _log_softmax_float_rows(out, x):
    """PyTorch's float32 or float64 log_softmax along rows (see above), into ``out``."""
    x = x.reshape(-1, x.shape[-1])
    shifted = x - np.maximum.reduce(x, axis=1, keepdims=True)
    np.subtract(shifted, _log_rows(_lane_sums(_exp_rows(shifted)))[:, None],
                out=out.reshape(x.shape))


def softmax(x, dim):
    """exp(x - max) / sum(exp(x - max)) along ``dim`` (row-major)."""
    if x.dtype == np.float16:  # (PyTorch's CPU kernel computes a half in float32)
        if x.ndim and dim % x.ndim != x.ndim - 1:
            return _softmax_half_columns(x, dim)
        return softmax(x.astype(np.float32), dim).astype(np.float16)
    if _compiled_rows(x, dim):
        return _by_rows(compiled.softmax_rows, x.shape, np.ascontiguousarray(x))
    if _float_rows(x, dim):
        rows = np.ascontiguousarray(x)
        result = np.empty(rows.shape, x.dtype)
        _softmax_float_rows(result, rows)
        return result
    if _float_other_dim(x, dim):
        shifted, total = _exps_along(x, dim % x.ndim)
        with np.errstate(invalid="ignore"):
            return np.asarray(_exp_rows(shifted) / total, x.dtype, order="C")
    if _along_rows(x, dim):
        result = threads.rows(_softmax_rows, None, x)
        if result is not None:
            return result
    elif x.size >= threads.BIG:
        result = threads.columns(_softmax_columns, None, x, dim=dim)
        if result is not None:
            return result
    shifted = np.exp(x - np.maximum.reduce(x, axis=dim, keepdims=True, initial=-np.inf))
    return np.asarray(shifted / np.add.reduce(shifted, axis=dim, keepdims=True), order="C")


def safe_softmax(x, dim):
    """softmax, with 0 for a slice that is all -inf (where softmax gives NaN): ATen's
    _safe_softmax, which scaled_dot_product_attention's math path calls, so that a
    query masked from every key attends to nothing."""
    y = softmax(x, dim)
    dead = np.all(x == -np.inf, axis=dim, keepdims=True)
    return np.where(dead, np.zeros((), y.dtype), y) if dead.any() else y


def _softmax_rows(out, x):
    np.subtract(x, np.maximum.reduce(x, axis=1, keepdims=True, initial=-np.inf), out=out)
    np.exp(out, out=out)
    np.divide(out, np.add.reduce(out, axis=1, keepdims=True), out=out)


def _softmax_columns(out, x):
    np.subtract(x, np.maximum.reduce(x, axis=0, keepdims=True, initial=-np.inf), out=out)
    np.exp(out, out=out)
    np.divide(out, np.add.reduce(out, axis=0, keepdims=True), out=out)


def log_softmax(x, dim):
    """(x - max) - log(sum(exp(x - max))) along ``dim`` (row-major)."""
    if x.dtype == np.float16:  # (in float32, as softmax; see _log_softmax_half_rows)
        if x.ndim and dim % x.ndim == x.ndim - 1:
            return _log_softmax_half_rows(x)
        return log_softmax(x.astype(np.float32), dim).astype(np.float16)
    if _compiled_rows(x, dim):
        return _by_rows(compiled.log_softmax_rows, x.shape, np.ascontiguousarray(x))
    if _float_rows(x, dim):
        rows = np.ascontiguousarray(x)
        result = np.empty(rows.shape, x.dtype)
        _log_softmax_float_rows(result, rows)
        return result
    if _float_other_dim(x, dim):
        shifted, total = _exps_along(x, dim % x.ndim)
        with np.errstate(invalid="ignore"):
            return np.asarray(shifted - _log_rows(total), x.dtype, order="C")
    if _along_rows(x, dim):
        result = threads.rows(_log_softmax_rows, None, x)
        if result is not None:
            return result
    elif x.size >= threads.BIG:
        result = threads.columns(_log_softmax_columns, None, x, dim=dim)
        if result is not None:
            return result
    # (the ufuncs' reduce directly: np.max/np.sum are Python wrappers around it)
    shifted = x - np.maximum.reduce(x, axis=dim, keepdims=True, initial=-np.inf)
    return np.asarray(shifted - np.log(np.add.reduce(np.exp(shifted), axis=dim, keepdims=True)),
                      order="C")


def _softmax_half_columns(x, dim):
    """softmax of a half along a dim other than the last, as PyTorch's kernel computes it:
    in float32, the exps kept as halves (in the output) before the division by their sum."""
    wide = x.astype(np.float32)
    exps = np.exp(wide - np.maximum.reduce(wide, axis=dim, keepdims=True, initial=-np.inf))
    total = np.add.reduce(exps, axis=dim, keepdims=True)
    return np.asarray(exps.astype(np.float16).astype(np.float32) / total, np.float16, order="C")


def _log_softmax_half_rows(x):
    """log_softmax of a half along its last dim as PyTorch's vectorised kernel computes it:
    in float32, but the sum of the exps and its log are kept as halves between the steps."""
    wide = x.astype(np.float32)
    shifted = wide - np.maximum.reduce(wide, axis=-1, keepdims=True, initial=-np.inf)
    total = np.add.reduce(np.exp(shifted), axis=-1, keepdims=True).astype(np.float16)
    with np.errstate(divide="ignore"):
        log_total = np.log(total.astype(np.float32)).astype(np.float16)
    return np.asarray(shifted - log_total.astype(np.float32), np.float16, order="C")


def _log_softmax_rows(out, x):
    np.subtract(x, np.maximum.reduce(x, axis=1, keepdims=True, initial=-np.inf), out=out)
    total = np.add.reduce(np.exp(out), axis=1, keepdims=True)
    np.subtract(out, np.log(total), out=out)


def _log_softmax_columns(out, x):
    np.subtract(x, np.maximum.reduce(x, axis=0, keepdims=True, initial=-np.inf), out=out)
    total = np.add.reduce(np.exp(out), axis=0, keepdims=True)
    np.subtract(out, np.log(total), out=out)


def logsumexp(x, dims: tuple, keepdim: bool):
    """log(sum(exp(x))) over ``dims`` (a tuple), the largest value (where it is
    finite) taken out first and added back. The sum is summation.sum_axes
    (PyTorch's order, where it follows it: below 32,768 elements, and along the last
    dim of float32 at any size); a big array's blocks of rows add up each row as
    sum_axes does (float32 rows of 8 or more) or as NumPy does."""
    if len(dims) == 1 and _along_rows(x, dims[0]):
        result = threads.rows(_logsumexp_rows, np.empty((*x.shape[:-1], 1), x.dtype), x)
        if result is not None:
            return result if keepdim else result.squeeze(-1)
    peak = np.max(x, axis=dims, keepdims=True, initial=-np.inf)  # (-inf when empty)
    peak = np.where(np.isfinite(peak), peak, 0)
    result = np.log(sum_axes(np.exp(x - peak), dims, keepdims=True)) + peak
    if not keepdim:
        result = result.squeeze(dims)
    return np.asarray(result, dtype=x.dtype)


def _logsumexp_rows(out, x):
    peak = np.maximum.reduce(x, axis=1, keepdims=True, initial=-np.inf)
    peak = np.where(np.isfinite(peak), peak, 0)
    exps = np.exp(x - peak)
    if _compiled_rows(exps, 1) and exps.shape[1] >= 8:  # (each row in PyTorch's order,
        total = np.empty((len(exps), 1), exps.dtype)  # as summation.sum_axes adds it)
        compiled.cascade_sum_rows(total[:, 0], np.ascontiguousarray(exps))
    else:
        total = np.add.reduce(exps, axis=1, keepdims=True)
    np.add(np.log(total), peak, out=out)


def softmax_backward_data(grad, y, dim):
    """y * (grad - sum(grad * y)) along ``dim``: the gradient of y = softmax(x) (a half's
    in float32, rounded once, as PyTorch's kernel: NumPy's half steps parted in 197 of
    200 random rows)."""
    if y.ndim == 0:  # (PyTorch's kernel sees one element along a dim: its sum starts at 0.)
        return softmax_backward_data(np.reshape(grad, (1,)), y.reshape(1), 0).reshape(())
    if y.dtype == np.float16:
        return np.asarray(softmax_backward_data(np.asarray(grad, np.float32), y.astype(np.float32),
                                                dim).astype(np.float16))
    if _compiled_rows(y, dim) and _plain(grad, y):
        return _by_rows(compiled.softmax_backward_rows, y.shape, *_grad_and_y(grad, y))
    if _float_rows(y, dim) and _plain(grad, y):
        return _softmax_backward_float_rows(np.asarray(grad, y.dtype), y)
    if _float_other_dim(y, dim) and _plain(grad, y):
        return _softmax_backward_other_dim(np.asarray(grad, y.dtype), y, dim % y.ndim)
    if _along_rows(y, dim):
        result = threads.rows(_softmax_backward_rows, None, grad, y)
        if result is not None:
            return result
    elif y.size >= threads.BIG:
        result = threads.columns(_softmax_backward_columns, None, grad, y, dim=dim)
        if result is not None:
            return result
    return y * (grad - np.sum(grad * y, axis=dim, keepdims=True))


def _softmax_backward_float_rows(grad, y):
    """PyTorch's float32 and float64 kernel along the last dim: each row's sum of grad * y
    (the products rounded, then added in vector lanes as the forward's sums), then
    (grad - sum) * y: PyTorch's bits in every element of random rows 3-40 wide (70-80 %
    with NumPy's pairwise sums and y * (grad - sum))."""
    if grad.shape != y.shape:
        grad = np.broadcast_to(grad, y.shape)
    grads = grad.reshape(-1, y.shape[-1])
    rows = y.reshape(grads.shape)
    total = _lane_sums(grads * rows)[:, None]
    return np.asarray((grads - total) * rows, y.dtype, order="C").reshape(y.shape)


def _grad_and_y(grad, y):
    """grad (float32, of y's shape) and y, C-contiguous: the compiled loops read
    contiguous rows fastest (a sum's expanded gradient, stride 0, is written out: 7
    times faster than the loop reading it through its strides)."""
    grad = np.broadcast_to(np.asarray(grad, np.float32), y.shape)
    return np.ascontiguousarray(grad), np.ascontiguousarray(y)


def _plain(*arrays) -> bool:
    """No meta array among them (one has no values: NumPy's steps work out its shape)."""
    return all(type(a) is np.ndarray or np.ndim(a) == 0 for a in arrays)


def _float_other_dim(x: np.ndarray, dim: int) -> bool:
    """Float32 or float64 below ``threads.BIG`` elements, along a dim other than the last
    (a meta array, which has no values, takes NumPy's steps for its shape)."""
    return (type(x) is np.ndarray and x.dtype in _LANES and 0 < x.size < threads.BIG
            and x.ndim > 1 and dim % x.ndim != x.ndim - 1)


def _slices(array: np.ndarray, dim: int):
    return (np.take(array, [i], axis=dim) for i in range(array.shape[dim]))


def _exps_along(x, dim):
    """x - max and the sum of its exps along a dim other than the last, as PyTorch's
    kernel makes them: the exps (float32's in float64, rounded) added slice after slice.
    softmax then divides by the sum, log_softmax subtracts its log: of random tensors
    89-100 % and 95-100 % of elements have PyTorch's bits (SLEEF's exp: the rest)."""
    with np.errstate(invalid="ignore"):
        shifted = x - np.maximum.reduce(x, axis=dim, keepdims=True)
        total = np.zeros_like(np.take(x, [0], axis=dim))
        for part in _slices(_exp_rows(shifted), dim):
            total = total + part
    return shifted, total


def _softmax_backward_other_dim(grad, y, dim):
    """PyTorch's kernel along a dim other than the last: sum(grad * y) along ``dim``
    accumulated slice after slice, each product fused into the running sum (one
    multiply-add), then (grad - sum) * y: PyTorch's bits in every element given its y
    (NumPy's order and roundings: 70-86 %)."""
    grad = np.broadcast_to(grad, y.shape)
    fused = fma32 if y.dtype == np.float32 else fma64
    with np.errstate(invalid="ignore", over="ignore"):
        total = np.zeros_like(np.take(y, [0], axis=dim))
        for g, out in zip(_slices(grad, dim), _slices(y, dim)):
            total = fused(g, out, total)
        return np.asarray((grad - total) * y, y.dtype, order="C")


def _log_softmax_backward_other_dim(grad, y, dim):
    """PyTorch's kernel along a dim other than the last: sum(grad) along ``dim`` slice
    after slice, then grad - exp(y) * sum fused into one multiply-add: 95-100 % of
    elements have PyTorch's bits (63-81 % before)."""
    grad = np.broadcast_to(grad, y.shape)
    fused = fma32 if y.dtype == np.float32 else fma64
    with np.errstate(invalid="ignore", over="ignore"):
        total = np.zeros_like(np.take(y, [0], axis=dim))
        for g in _slices(grad, dim):
            total = total + g
        exps = _exp_rows(y)
        return np.asarray(fused(-exps, np.broadcast_to(total, y.shape), grad), y.dtype, order="C")


def _softmax_backward_rows(out, grad, y):
    np.multiply(grad, y, out=out)
    total = np.add.reduce(out, axis=1, keepdims=True)
    np.subtract(grad, total, out=out)
    np.multiply(out, y, out=out)  # (NumPy's order for y * (new array): see above)


def _softmax_backward_columns(out, grad, y):
    np.multiply(grad, y, out=out)
    total = np.add.reduce(out, axis=0, keepdims=True)
    np.subtract(grad, total, out=out)
    np.multiply(out, y, out=out)  # (NumPy's order for y * (new array): see above)


def log_softmax_backward_data(grad, y, dim):
    """grad - exp(y) * sum(grad) along ``dim``: the gradient of y = log_softmax(x) (a
    half's in float32, rounded once, as PyTorch's kernel)."""
    if y.ndim == 0:  # (as softmax_backward_data's: sum(-0.) is 0. there, so -0. - 1 * 0.)
        return log_softmax_backward_data(np.reshape(grad, (1,)), y.reshape(1), 0).reshape(())
    if y.dtype == np.float16:
        return np.asarray(log_softmax_backward_data(
            np.asarray(grad, np.float32), y.astype(np.float32), dim).astype(np.float16))
    if _compiled_rows(y, dim) and _plain(grad, y):
        return _by_rows(compiled.log_softmax_backward_rows, y.shape, *_grad_and_y(grad, y))
    if _float_rows(y, dim) and _plain(grad, y):
        return _log_softmax_backward_float_rows(np.asarray(grad, y.dtype), y)
    if _float_other_dim(y, dim) and _plain(grad, y):
        return _log_softmax_backward_other_dim(np.asarray(grad, y.dtype), y, dim % y.ndim)
    if _along_rows(y, dim):
        result = threads.rows(_log_softmax_backward_rows, None, grad, y)
        if result is not None:
            return result
    elif y.size >= threads.BIG:
        result = threads.columns(_log_softmax_backward_columns, None, grad, y, dim=dim)
        if result is not None:
            return result
    return grad - np.exp(y) * np.add.reduce(grad, axis=dim, keepdims=True)


def _log_softmax_backward_float_rows(grad, y):
    """PyTorch's float32 and float64 kernel along the last dim: each row's sum of grad in
    vector lanes (as the forward's sums), then grad - exp(y) * sum with the product and
    the difference fused (its compiler contracts them into one multiply-add). Of random
    float32 rows 3-40 wide, 95-98 % of elements have PyTorch's bits (61-73 % with NumPy's
    float32 exp, its pairwise sums and two roundings)."""
    if grad.shape != y.shape:
        grad = np.broadcast_to(grad, y.shape)
    grads = grad.reshape(-1, y.shape[-1])
    exps = _exp_rows(y.reshape(grads.shape))
    total = _lane_sums(grads)[:, None]  # (fma32 broadcasts it along each row)
    fused = fma32 if y.dtype == np.float32 else fma64
    return np.asarray(fused(-exps, total, grads), y.dtype, order="C").reshape(y.shape)


def _log_softmax_backward_rows(out, grad, y):
    # (a gradient broadcast across the rows, a sum's or a mean's: every row holds the
    # same numbers, so the first row's sum, made as NumPy makes each row's, is every row's)
    total = np.add.reduce(grad[:1] if grad.strides[0] == 0 else grad, axis=1, keepdims=True)
    np.exp(y, out=out)
    np.multiply(out, total, out=out)
    np.subtract(grad, out, out=out)


def _log_softmax_backward_columns(out, grad, y):
    total = np.add.reduce(grad, axis=0, keepdims=True)
    np.exp(y, out=out)
    np.multiply(out, total, out=out)
    np.subtract(grad, out, out=out)
