"""Batch normalisation's statistics and transform, rounded as PyTorch's CPU kernels
(aten/src/ATen/native/cpu/batch_norm_kernel.cpp, Normalization.cpp) round them.

For a float32 input ``x`` of shape (N, C) or (N, C, L) ((N, C, H, W) is taken as
(N, C, H * W); (N, C, 1) as (N, C)), per channel c:

* (N, C): each thread adds up its block of rows in float32, one row after another
  (``at::parallel_for`` cuts the N rows into one block per thread); the blocks'
  sums are added in float64; mean = sum / N. The same for sum((x - mean)**2), each
  step ``buffer + d * d`` a fused multiply-add.
* (N, C, L): every element of the channel is added in float64, in memory order;
  mean = sum / N (rounded to float32); sum((x - mean)**2), each square in float32.

Then invstd = 1 / sqrt(var_sum / N + eps) in float64 (var_sum / N in float32), and
the output is x * alpha + beta with alpha = invstd * weight, beta = bias - mean * alpha
(both multiply-adds fused, rounded once).
"""

from __future__ import annotations

import numpy as np

from .fma import fma32, fma64
from .special import half_in_float32
from .threads import get_num_threads

__all__ = ["batch_norm_stats", "running_update", "eval_invstd", "transform", "in_param_dtype"]


def _thread_blocks(n: int) -> list:
    """How ``at::parallel_for(0, n, 1, ...)`` cuts n rows between the threads."""
    threads = min(get_num_threads(), n)
    if threads <= 1:
        return [(0, n)]
    chunk = -(-n // threads)
    return [(start, min(n, start + chunk)) for start in range(0, n, chunk)]


def _channel_sums(values: np.ndarray, square_of_minus=None) -> np.ndarray:
    """The per-channel sums (as float64) of ``values`` (or of (values - mean)**2)."""
    if values.ndim == 2:  # (channels last: a float32 buffer per thread)
        total = np.zeros(values.shape[1], np.float64)
        for start, stop in _thread_blocks(values.shape[0]):
            block = values[start:stop]
            if square_of_minus is None:
                total += np.add.reduce(block, axis=0)  # (row after row, in float32)
                continue
            buffer = np.zeros(values.shape[1], values.dtype)
            for row in block - square_of_minus:  # (buffer + d * d, fused: row after row)
                buffer = _fused(row, row, buffer)
            total += buffer
        return total
    if square_of_minus is not None:
        values = values - square_of_minus[:, None]
        values = values * values
    rows = values.astype(np.float64).transpose(1, 0, 2).reshape(values.shape[1], -1)
    if not rows.shape[1]:
        return np.zeros(rows.shape[0])
    return np.add.accumulate(rows, axis=1)[:, -1]  # (one after the other: not NumPy's pairs)


def _as_planes(x: np.ndarray) -> np.ndarray:
    """``x`` as (N, C) when each channel of a sample is one number (PyTorch's kernel then
    takes its channels-last path), else as (N, C, L): (N, C, H, W) is (N, C, H * W)."""
    count = x.size // (x.shape[0] * x.shape[1]) if x.size else 0
    return x.reshape(x.shape[0], x.shape[1]) if count == 1 else \
        x.reshape(x.shape[0], x.shape[1], -1)


def batch_norm_stats(x: np.ndarray, eps: float):
    """(mean, invstd, var_sum) per channel (dim 1) of an (N, C, ...) array (of a half one in
    float32, as PyTorch keeps them: its running statistics then agree bit for bit)."""
    x = _as_planes(x if x.dtype != np.float16 else x.astype(np.float32))
    count = x.size // x.shape[1]
    mean = (_channel_sums(x) / count).astype(x.dtype)
    var_sum = _channel_sums(x, mean).astype(x.dtype)
    invstd = 1 / np.sqrt((var_sum / x.dtype.type(count)).astype(np.float64) + eps)
    return mean, invstd.astype(x.dtype), var_sum


def in_param_dtype(mean, invstd, x_dtype, param_dtypes):
    """The batch's mean and invstd as PyTorch saves them and transforms with them: in
    the parameters' dtype, a half input's rounded to half unless a weight, bias or running
    statistic is float32 (PyTorch's mixed type: then float32)."""
    if x_dtype == np.float16 and all(dtype == np.float16 for dtype in param_dtypes):
        return mean.astype(np.float16), invstd.astype(np.float16)
    return mean, invstd


def running_update(running_mean, running_var, mean, var_sum, count: int, momentum: float):
    """running = momentum * batch + (1 - momentum) * running, in place; the variance
    unbiased (var_sum / (n - 1)), in float64 as torch's kernel adds it."""
    m = mean.dtype.type(momentum)
    if running_mean is not None:
        running_mean[...] = m * mean + (1 - m) * running_mean
    if running_var is not None:
        unbiased = (var_sum / var_sum.dtype.type(count - 1)).astype(np.float64)
        running_var[...] = (np.float64(m) * unbiased
                            + ((1 - m) * running_var).astype(np.float64))


def eval_invstd(running_var: np.ndarray, eps: float) -> np.ndarray:
    """1 / sqrt(running_var + eps), in the variance's dtype (eval mode; half's in float32)."""
    if running_var.dtype == np.float16:
        running_var = running_var.astype(np.float32)
    return 1 / np.sqrt(running_var + running_var.dtype.type(eps))


def _fused(a, b, c):
    """a * b + c rounded once (the compiler fuses torch's kernel's multiply-add)."""
    return fma32(a, b, c) if a.dtype == np.float32 else fma64(a, b, c)


@half_in_float32  # (half: in float32, rounded once)
def transform(x, mean, invstd, weight, bias):
    """x * alpha + beta per channel: alpha = invstd * weight, beta = bias - mean * alpha,
    each multiply-add rounded once."""
    alpha = invstd if weight is None else invstd * weight
    beta = _fused(-mean, alpha, np.zeros_like(mean) if bias is None else bias)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return _fused(x, alpha.reshape(shape), beta.reshape(shape)).astype(x.dtype, copy=False)


# ---- backward ---------------------------------------------------------------------------

_LANES = 8  # (float32 lanes: this kernel runs on 256-bit vectors, measured)


def _lane_tree(acc: np.ndarray) -> np.ndarray:
    """``vec_reduce_all`` on full vectors (the last axis): lane i plus lane i ^ 8, then
    ^ 4, ^ 2, ^ 1 (PyTorch's shuffles), each step rounded."""
    width = acc.shape[-1]
    while width > 1:
        width //= 2
        acc = acc[..., :width] + acc[..., width:2 * width]
    return acc[..., 0]


def _reduce_rows(rows: np.ndarray, factor: np.ndarray | None = None) -> np.ndarray:
    """``vec::reduce_all`` of each row (the last axis), in the rows' dtype: short rows
    one element after another, longer ones in vector lanes, then the lane tree. With
    ``factor``, of rows * factor (``map2_reduce_all``: the products of the last,
    partial vector are fused into the lanes' sums)."""
    size = rows.shape[-1]
    lanes = _LANES if rows.dtype == np.float32 else _LANES // 2
    products = rows if factor is None else rows * factor
    if size == 0:
        return np.zeros(rows.shape[:-1], rows.dtype)
    if size < lanes:
        return np.cumsum(products, axis=-1, dtype=rows.dtype)[..., -1]
    acc = products[..., :lanes].copy()
    full = size - size % lanes
    for start in range(lanes, full, lanes):
        acc += products[..., start:start + lanes]
    if full < size:  # (the tail's lanes are added, the others kept)
        if factor is None:
            acc[..., :size - full] += rows[..., full:]
        else:
            acc[..., :size - full] = _fused(rows[..., full:], factor[..., full:],
                                            acc[..., :size - full])
    return _lane_tree(acc)


def _gradient_sums(grad, x, mean):
    """Per channel: sum(grad) and sum((x - mean) * grad), as PyTorch's backward kernels
    add them: (N, C) in float32 buffers per thread (the product fused into the sum),
    then the threads' buffers in float64; (N, C, L) per (n, c) row with ``reduce_all``,
    the rows added in float64. Returned in float64 (the (N, C) sums already rounded)."""
    if x.ndim == 2:
        sums = np.zeros(x.shape[1], np.float64)
        dotps = np.zeros(x.shape[1], np.float64)
        for start, stop in _thread_blocks(x.shape[0]):
            sums += np.add.reduce(grad[start:stop], axis=0)
            buffer = np.zeros(x.shape[1], x.dtype)
            for row, dy in zip(x[start:stop] - mean, grad[start:stop]):
                buffer = _fused(row, dy, buffer)
            dotps += buffer
        return sums.astype(x.dtype).astype(np.float64), dotps.astype(x.dtype).astype(np.float64)
    return (_reduce_rows(grad).astype(np.float64).sum(axis=0),
            _reduce_rows(x - mean[:, None], grad).astype(np.float64).sum(axis=0))


@half_in_float32  # (half: in float32, rounded once)
def backward(grad, x, mean, invstd, weight, training: bool, eval_var=None, eps=0.0):
    """(grad_x, grad_weight, grad_bias) of the transform, as PyTorch's CPU kernel
    computes them (``eval_var``: the running variance, whose invstd the kernel takes
    again, in float64, in eval mode)."""
    kind = x.dtype.type
    shape_of_x = x.shape
    x, grad = _as_planes(x), _as_planes(grad)
    count = x.size // x.shape[1]
    if not training:
        invstd = (1 / np.sqrt(eval_var.astype(np.float64) + eps)).astype(x.dtype)
    sums, dotps = _gradient_sums(grad, x, mean)
    w = np.ones_like(invstd) if weight is None else weight
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        k = dotps.astype(x.dtype) * invstd * invstd / kind(count)
        grad_mean = (sums / count if x.ndim > 2 else sums.astype(x.dtype) / kind(count))
        grad_mean = grad_mean.astype(x.dtype)
        centred, k = x - mean.reshape(shape), k.reshape(shape)
        dy = grad - grad_mean.reshape(shape)
        inner = _fused(-centred, k, dy)  # (dy - grad_mean) - (x - mean) k, fused
        if x.ndim == 2:  # (the channels past the last full vector: not fused)
            tail = x.shape[1] - x.shape[1] % _LANES
            inner[:, tail:] = dy[:, tail:] - centred[:, tail:] * k[:, tail:]
        grad_x = inner * invstd.reshape(shape) * w.reshape(shape)
    else:
        grad_x = grad * invstd.reshape(shape) * w.reshape(shape)
    grad_w = (dotps * invstd).astype(x.dtype)
    return grad_x.astype(x.dtype, copy=False).reshape(shape_of_x), grad_w, sums.astype(x.dtype)
