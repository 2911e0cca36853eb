"""Upsampling (F.interpolate) on arrays (N, C, *spatial), as PyTorch's CPU kernels
(UpSample.h, UpSampleKernel.cpp) compute it, one spatial dim at a time.

Where output element i reads from, along a dim of ``size`` elements grown to ``out``:
the scale is 1 / scale_factor when one was given, else size / out (in float32, as the
kernel's ``float`` arithmetic); 'nearest' reads floor(i * scale) ('nearest-exact':
floor((i + 0.5) * scale)), capped at size - 1. 'linear' reads the two neighbours of
s = scale * (i + 0.5) - 0.5 (at least 0; align_corners: s = (size - 1) / (out - 1) * i)
with weights 1 - l and l, l = s - floor(s), in the input's dtype; bilinear is linear
along H of linear along W: t(h) = x[h, w0] w0 + x[h, w1] w1, y = t(h0) h0 + t(h1) h1,
each a + b fused as fma(a's factors, b) where PyTorch's compiler fuses them; trilinear
alike with one more dim. 'cubic' (bicubic) reads the four neighbours i0 - 1 ... i0 + 2 of
s = scale * (i + 0.5) - 0.5 (not clamped at 0; the indices clamped into the input) with
Keys' cubic convolution weights (A = -0.75) of l = s - i0. The backward adds each output's
gradient times its weights into the elements it read, output after output, as PyTorch's
loops do (``np.add.at`` keeps that order). float16 is computed as PyTorch's kernels compute
it (opmath): weights and sums in float32, rounded to float16 once, forward and backward.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .fma import fma32, fma64

__all__ = ["nearest_indices", "linear_indices", "cubic_indices", "taps", "upsample",
           "upsample_backward", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def _fma(a, b, c):
    """a * b + c rounded once, in the dtype of the arrays."""
    dtype = np.result_type(a, b, c)
    return np.asarray((fma32 if dtype == np.float32 else fma64)(a, b, c), dtype=dtype)


def _scale(size: int, out: int, scale) -> np.float32:
    return np.float32(1.0 / scale) if scale is not None and scale > 0 else \
        np.float32(size) / np.float32(out)


def nearest_indices(size: int, out: int, scale, exact: bool = False) -> np.ndarray:
    """The source index of each output element along one dim (int64)."""
    if out == size and not exact:
        return np.arange(out)
    if out == 2 * size and not exact:
        return np.arange(out) >> 1
    position = np.arange(out, dtype=np.float32) + (np.float32(0.5) if exact else np.float32(0))
    return np.minimum(np.floor(position * _scale(size, out, scale)).astype(np.int64), size - 1)


def _source_and_offset(size: int, out: int, scale, align_corners: bool, dtype, cubic: bool,
                       fused: bool = True):
    """(i0, l) along one dim: where each output falls in the input, s = scale (i + 0.5)
    - 0.5 (at least 0 unless ``cubic``; align_corners: (size - 1) / (out - 1) i; ``fused``:
    one rounding for the multiply-add), its index i0 = floor(s) (capped at size - 1) and
    l = s - i0 in [0, 1], in ``dtype``."""
    if align_corners:
        step = dtype(size - 1) / dtype(out - 1) if out > 1 else dtype(0)
        source = step * np.arange(out, dtype=dtype)
    else:
        step = dtype(1.0 / scale) if scale is not None and scale > 0 else dtype(size) / dtype(out)
        half = np.arange(out, dtype=dtype) + dtype(0.5)  # (the compiler fuses s * (i + .5) - .5)
        source = (_fma(np.full(out, step, dtype), half, np.full(out, -0.5, dtype)) if fused
                  else (step * half - dtype(0.5)).astype(dtype))
        source = source if cubic else np.maximum(source, dtype(0))
    i0 = np.minimum(np.floor(source).astype(np.int64), size - 1)
    return i0, np.clip(source - i0.astype(dtype), dtype(0), dtype(1)).astype(dtype)


def linear_indices(size: int, out: int, scale, align_corners: bool, dtype):
    """(i0, i1, w0, w1) along one dim: the two neighbours each output reads and their
    weights, in ``dtype``."""
    dtype = np.dtype(dtype).type
    i0, lam = _source_and_offset(size, out, scale, align_corners, dtype, cubic=False)
    i1 = i0 + (i0 < size - 1)
    return i0, i1, (dtype(1) - lam).astype(dtype), lam


def cubic_indices(size: int, out: int, scale, align_corners: bool, dtype, fused: bool = True):
    """The four (indices, weights) pairs along one dim of bicubic resizing: neighbours
    i0 - 1 ... i0 + 2 (clamped into the input) of the source s, Keys' weights of
    l = s - i0 with A = -0.75 (PyTorch's get_cubic_upsample_coefficients), in ``dtype``;
    with the multiply-adds PyTorch's compiler fuses in its forward kernel (``fused``) or
    in its backward (none)."""
    dtype = np.dtype(dtype).type
    i0, t = _source_and_offset(size, out, scale, align_corners, dtype, True, fused)
    a, one = dtype(-0.75), dtype(1)

    def full(value):
        return np.full(out, value, dtype)

    def near(x):  # |x| <= 1: ((A + 2) x - (A + 3)) x x + 1 (its first step fused)
        first = (_fma(full(a + dtype(2)), x, full(-(a + dtype(3)))) if fused
                 else (a + dtype(2)) * x - (a + dtype(3)))
        return (first * x * x + one).astype(dtype)

    def far(x):  # 1 < |x| < 2: ((A x - 5A) x + 8A) x - 4A (its first two steps fused)
        inner = (_fma(_fma(full(a), x, full(-dtype(5) * a)), x, full(dtype(8) * a)) if fused
                 else (a * x - dtype(5) * a) * x + dtype(8) * a)
        return (inner * x - dtype(4) * a).astype(dtype)

    weights = (far(t + one), near(t), near(one - t), far((one - t) + one))
    return [(np.clip(i0 - 1 + j, 0, size - 1), weights[j]) for j in range(4)]


def taps(x_shape, out, scales, mode, align_corners, dtype, fused: bool = True):
    """Per spatial dim, a list of (indices, weights or None) pairs: one tap for nearest,
    two for linear, four for cubic (its weights ``fused`` as in PyTorch's forward)."""
    taps = []
    for size, o, scale in zip(x_shape, out, scales):
        if mode == "cubic":
            taps.append(cubic_indices(size, o, scale, align_corners, dtype, fused))
        elif mode == "linear":
            i0, i1, w0, w1 = linear_indices(size, o, scale, align_corners, dtype)
            taps.append([(i0, w0), (i1, w1)])
        else:
            taps.append([(nearest_indices(size, o, scale, mode == "nearest-exact"), None)])
    return taps


def upsample(x: np.ndarray, out, scales, mode: str, align_corners: bool = False):
    """``x`` (N, C, *spatial) resized to ``out`` (mode 'nearest', 'nearest-exact', 'linear'
    or 'cubic', along every spatial dim)."""
    per_dim = taps(x.shape[2:], out, scales, mode, align_corners, x.dtype)
    if x.dtype != np.float16 or mode.startswith("nearest"):
        return _combine(x, per_dim, 0)
    # float16: its weights and sums in float32, rounded once (opmath)
    wide = taps(x.shape[2:], out, scales, mode, align_corners, np.float32)
    return _combine(x.astype(np.float32), wide, 0).astype(np.float16)


def _combine(x, taps, dim):
    """The taps of spatial dims ``dim``... applied, the outer dim's weights last: for two
    taps fma(t0, w0, t1 * w1), as the compiler fuses t0 * w0 + t1 * w1; for four, each
    next tap added to that as fma(t_j, w_j, sum so far)."""
    if dim == len(taps):
        return x
    axis = 2 + dim
    parts = [_combine(np.take(x, indices, axis=axis), taps, dim + 1) for indices, _ in taps[dim]]
    if len(parts) == 1:
        return parts[0]
    shape = (-1,) + (1,) * (len(taps) - dim - 1)
    weights = [np.broadcast_to(w.reshape(shape), parts[0].shape) for _, w in taps[dim]]
    total = _fma(parts[0], weights[0], parts[1] * weights[1])
    for part, weight in zip(parts[2:], weights[2:]):
        total = _fma(part, weight, total)
    return total


def _times_weights(g, weights, mode: str):
    """Each output's gradient (a column of ``g``) times its tap's weights along every dim:
    (w0 w1 ...) G for linear (PyTorch's h0lambda * w0lambda * grad), (G w0) w1 for cubic
    (its out_value * y_coeffs[i] * x_coeffs[j])."""
    if all(w is None for w in weights):
        return g
    if mode != "cubic":
        product = functools.reduce(np.multiply.outer, weights)
        return g * product.reshape(-1)
    grids = np.meshgrid(*weights, indexing="ij")
    return functools.reduce(lambda value, grid: value * grid.reshape(-1), grids, g)


def upsample_backward(grad: np.ndarray, input_shape, scales, mode: str,
                      align_corners: bool = False):
    """dL/dx: each output's gradient, times its weights, added into the elements it read,
    outputs in order and, per output, the taps in order."""
    spatial_in, out = tuple(input_shape[2:]), grad.shape[2:]
    half = grad.dtype == np.float16  # (float16: weights and sums in float32, rounded once)
    if half:
        grad = grad.astype(np.float32)
    per_dim = taps(spatial_in, out, scales, mode, align_corners, grad.dtype, fused=False)
    lead = int(np.prod(input_shape[:2], dtype=np.int64))
    flat_size = int(np.prod(spatial_in, dtype=np.int64))
    places, values = [], []
    g = grad.reshape(lead, -1)
    for combo in itertools.product(*per_dim):  # (tap choices, the order per output)
        grids = np.meshgrid(*[indices for indices, _ in combo], indexing="ij")
        places.append(np.ravel_multi_index(grids, spatial_in).reshape(-1))
        values.append(_times_weights(g, [w for _, w in combo], mode))
    order = np.stack(places, axis=1).reshape(-1)  # (output by output, tap by tap)
    contributions = np.stack(values, axis=2).reshape(lead, -1)
    total = np.zeros((lead, flat_size), grad.dtype)
    for row in range(lead):
        np.add.at(total[row], order, contributions[row])
    return total.reshape(input_shape).astype(np.float16) if half else total.reshape(input_shape)


def pixel_shuffle(x: np.ndarray, r: int) -> np.ndarray:
    """(*, C r r, H, W) -> (*, C, H r, W r): channel c r r + i r + j to pixel (h r + i, w r + j)."""
    *lead, channels, h, w = x.shape
    blocks = x.reshape(*lead, channels // (r * r), r, r, h, w)
    k = len(lead)
    order = tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2)
    return np.ascontiguousarray(blocks.transpose(order)).reshape(*lead, channels // (r * r),
                                                                  h * r, w * r)


def pixel_unshuffle(x: np.ndarray, r: int) -> np.ndarray:
    """(*, C, H r, W r) -> (*, C r r, H, W): pixel_shuffle undone."""
    *lead, channels, h, w = x.shape
    blocks = x.reshape(*lead, channels, h // r, r, w // r, r)
    k = len(lead)
    order = tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3)
    return np.ascontiguousarray(blocks.transpose(order)).reshape(*lead, channels * r * r,
                                                                  h // r, w // r)


def channel_shuffle(x: np.ndarray, groups: int) -> np.ndarray:
    """(N, C, *) with the channels dealt out of ``groups`` groups in turn: channel
    g * (C / groups) + k moves to k * groups + g (ShuffleNet's shuffle)."""
    n, channels = x.shape[:2]
    blocks = x.reshape((n, groups, channels // groups) + x.shape[2:])
    return np.ascontiguousarray(blocks.swapaxes(1, 2)).reshape(x.shape)
