"""Running sums, products, maxima and minima, and the running log-sum-exp, as PyTorch's
CPU kernels compute them (``ops/cumulative.py`` calls them): one step along the dim at a
time, every other dim at once.

- ``cumsum``, ``cumprod``: accumulated in PyTorch's CPU accumulation type (float64 for
  float32, float32 for float16), each output rounded to the dtype (NumPy's float32
  cumsum rounds every partial sum: 2 in 3 elements of rows of 50 differ from PyTorch's).

- ``cummax_indices``, ``cummin_indices``: PyTorch's ``cummax_cummin_helper`` takes an
  element that equals the running value (``>=``, ``<=``: the later index on ties) and any
  NaN (the running value stays NaN, its index the latest NaN's).
- ``logcumsumexp``: PyTorch's ``_log_add_exp_helper`` step by step, accumulated in float64
  (its CPU accumulation type for float32 and float64; float32 for float16), each output
  rounded to the dtype.
"""

from __future__ import annotations

import math

import numpy as np

from .special import each

__all__ = ["cumsum", "cumprod", "cummax_indices", "cummin_indices", "logcumsumexp",
           "EXACT_LIMIT"]

EXACT_LIMIT = 200_000
_libm_exp, _libm_log1p = each(math.exp), each(math.log1p)


_ACCUMULATE = {np.dtype(np.float32): np.float64, np.dtype(np.float16): np.float32}


def cumsum(x: np.ndarray, axis: int) -> np.ndarray:
    """Running sums along ``axis``, from 0 (a sum of negative zeros is +0, as PyTorch's)."""
    wide = _ACCUMULATE.get(x.dtype, x.dtype)
    sums = np.cumsum(x, axis=axis, dtype=wide).astype(x.dtype, copy=False)
    return sums + np.zeros((), sums.dtype) if sums.dtype.kind == "f" else sums


def cumprod(x: np.ndarray, axis: int) -> np.ndarray:
    """Running products along ``axis``."""
    wide = _ACCUMULATE.get(x.dtype, x.dtype)
    return np.cumprod(x, axis=axis, dtype=wide).astype(x.dtype, copy=False)


def _running_indices(x: np.ndarray, axis: int, takes) -> np.ndarray:
    if x.ndim == 0 or x.size == 0:
        return np.zeros(x.shape, np.int64)
    moved = np.moveaxis(x, axis, -1)
    indices = np.zeros(moved.shape, np.int64)
    running, index = moved[..., 0].copy(), np.zeros(moved.shape[:-1], np.int64)
    for i in range(moved.shape[-1]):
        current = moved[..., i]
        with np.errstate(invalid="ignore"):
            take = (current != current) | ((running == running) & takes(current, running))
        running = np.where(take, current, running)
        index = np.where(take, i, index)
        indices[..., i] = index
    return np.moveaxis(indices, -1, axis)


def cummax_indices(x: np.ndarray, axis: int) -> np.ndarray:
    """Where each running maximum along ``axis`` came from (the latest of equal ones)."""
    return _running_indices(x, axis, np.greater_equal)


def cummin_indices(x: np.ndarray, axis: int) -> np.ndarray:
    """Where each running minimum along ``axis`` came from (the latest of equal ones)."""
    return _running_indices(x, axis, np.less_equal)


def logcumsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    """y_i = log(exp(x_1) + ... + exp(x_i)): y_i = log1p(exp(min - max)) + max of x_i and
    y_(i-1) (x_i itself when both are the same infinity), from y_0 = -inf, in float64."""
    if x.ndim == 0 or x.size == 0:
        return x.copy()
    moved = np.moveaxis(x, axis, -1)
    result = np.empty(moved.shape, x.dtype)
    wide = np.float32 if x.dtype == np.float16 else np.float64  # (PyTorch's acc_type)
    exact = wide == np.float64 and x.size <= EXACT_LIMIT
    exp, log1p = (_libm_exp, _libm_log1p) if exact else (np.exp, np.log1p)
    total = np.full(moved.shape[:-1], -np.inf, wide)
    with np.errstate(all="ignore"):
        for i in range(moved.shape[-1]):
            current = moved[..., i].astype(wide)
            low = np.where(np.isnan(total), total, np.minimum(current, total))
            high = np.where(np.isnan(total), total, np.maximum(current, total))
            same_infinity = (low == high) & ~np.isfinite(low)
            step = np.asarray(log1p(np.asarray(exp(low - high), wide)), wide) + high
            total = np.where(same_infinity, current, step)
            result[..., i] = total
    return np.moveaxis(result, -1, axis)
