"""group_norm on arrays, in the steps of PyTorch's CPU kernel (group_norm_kernel.cpp).

Forward: for each sample n and group g, the mean and (biased) variance of the group's
C / G * HxW elements as layer_norm takes them (``rowwise_moments``: Welford on vectors,
the same bits), rstd = 1 / sqrt(max(var, 0) + eps) (in double: eps is a double); then per channel c of the group
scale = rstd * weight[c] and shift = fma(-scale, mean, bias[c]), y = fma(x, scale, shift)
(without weight and bias: (x - mean) * rstd).

Backward (GroupNormBackwardKernelImpl): per (n, c) ds = sum(G * x) and db = sum(G) over
the HxW positions; per (n, g) with the channels' weights folded in,
b = (db_g * mean - ds_g) * rstd**3 / (C / G * HxW), c = -b * mean - db_g * rstd /
(C / G * HxW), and dx = rstd * weight[c] * G + b * x + c; dweight[c] = sum_n (ds - db *
mean) * rstd, dbias[c] = sum_n db. The sums here are NumPy's pairwise sums, not
PyTorch's vector order: the last bits of the gradients may differ (README).
"""

from __future__ import annotations

import numpy as np

from .layers import _fma, rowwise_moments

__all__ = ["group_norm", "group_norm_backward"]


def _in_float32(function, *arrays):
    """float16 computed in float32 and rounded back (PyTorch's opmath for half)."""
    results = function(*[None if a is None else a.astype(np.float32) for a in arrays])
    return tuple(None if r is None else r.astype(np.float16) for r in results)


def group_norm(x: np.ndarray, weight, bias, groups: int, eps: float):
    """(y, mean, rstd) for x (N, C, *): mean and rstd of shape (N, groups)."""
    if x.dtype == np.float16:
        return _in_float32(lambda *a: group_norm(*a, groups, eps), x, weight, bias)
    n, channels = x.shape[:2]
    dtype = x.dtype.type
    spatial = int(np.prod(x.shape[2:], dtype=np.int64))  # (not -1: a batch of 0)
    rows = np.ascontiguousarray(x).reshape(n * groups, channels // groups * spatial)
    if rows.size:
        mean, var = rowwise_moments(rows)
    else:
        mean = var = np.zeros(n * groups, x.dtype)
    # (eps is a C++ double there: var + eps, the root and the quotient are taken in double)
    rstd = (1.0 / np.sqrt(np.maximum(var, dtype(0)).astype(np.float64) + eps)).astype(x.dtype)
    flat = np.ascontiguousarray(x).reshape(n, channels, spatial)
    per_channel = channels // groups
    mean_c, rstd_c = (np.repeat(a.reshape(n, groups), per_channel, axis=1)[:, :, None]
                      for a in (mean, rstd))  # (N, C, 1)
    if weight is None and bias is None:
        y = (flat - mean_c) * rstd_c
    else:
        scale = rstd_c if weight is None else rstd_c * weight.reshape(1, channels, 1)
        beta = np.zeros_like(scale) if bias is None else np.broadcast_to(
            bias.reshape(1, channels, 1), scale.shape)
        shift = _fma(-scale, mean_c, beta)
        y = _fma(flat, np.broadcast_to(scale, flat.shape), np.broadcast_to(shift, flat.shape))
    return y.reshape(x.shape), mean.reshape(n, groups), rstd.reshape(n, groups)


def group_norm_backward(grad, x, mean, rstd, weight, groups: int, needs: tuple):
    """(dx, dweight, dbias) of group_norm (None where not needed)."""
    if x.dtype == np.float16:
        return _in_float32(lambda *a: group_norm_backward(*a, groups, needs), grad, x, mean,
                           rstd, weight)
    n, channels = x.shape[:2]
    dtype = x.dtype.type
    per_channel = channels // groups
    spatial = int(np.prod(x.shape[2:], dtype=np.int64))
    g = np.ascontiguousarray(grad).reshape(n, channels, spatial)
    xs = np.ascontiguousarray(x).reshape(n, channels, spatial)
    ds, db = (g * xs).sum(-1), g.sum(-1)  # (N, C)
    w = np.ones(channels, x.dtype) if weight is None else weight.reshape(channels)
    dx = dw = dbias = None
    if needs[0]:
        ds_g = (ds * w).reshape(n, groups, per_channel).sum(-1)
        db_g = (db * w).reshape(n, groups, per_channel).sum(-1)
        s = dtype(1) / dtype(per_channel * g.shape[-1])
        b = (db_g * mean - ds_g) * rstd * rstd * rstd * s
        c = -b * mean - db_g * rstd * s
        expand = (lambda a: np.repeat(a, per_channel, axis=1)[:, :, None])
        dx = (expand(rstd) * w[None, :, None] * g + expand(b) * xs + expand(c)).reshape(x.shape)
    if len(needs) > 1 and needs[1]:
        dw = ((ds - db * np.repeat(mean, per_channel, axis=1))
              * np.repeat(rstd, per_channel, axis=1)).sum(0)
    if len(needs) > 2 and needs[2]:
        dbias = db.sum(0)
    return dx, dw, dbias
