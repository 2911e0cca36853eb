"""Sampling an image at points given as coordinates in [-1, 1] (``F.grid_sample``), and
the grid of an affine map (``F.affine_grid``), as PyTorch's CPU kernels compute them.

A grid point (x, y) in [-1, 1]^2 is moved to pixel coordinates: with ``align_corners``
-1 and 1 are the centres of the corner pixels, ((x + 1) / 2) (W - 1); without, they
are the outer edges of the corner pixels, (x + 1) (W / 2) - 1/2. Points outside the
image read zeros (``"zeros"``), are moved to the nearest edge (``"border"``) or are
reflected back in (``"reflection"``). ``"bilinear"`` weighs the four pixels around the
point by the opposite rectangles' areas; ``"nearest"`` takes the closest pixel (a tie
goes to the even one, as C's nearbyint). The weights and sums are written as PyTorch's
vectorised kernel writes them, with the multiply-adds its compiler fuses (the pixel
coordinate (x + 1) (W / 2) - 1/2, and the sum of the four weighed pixels): float32
values bit for bit.
"""

from __future__ import annotations

import numpy as np

from . import fma

__all__ = ["base_grid", "affine_grid", "affine_grid_backward", "grid_sample", "grid_sample_backward"]


def _steps(n: int, align_corners: bool, dtype) -> np.ndarray:
    """PyTorch's linspace_from_neg_one: linspace(-1, 1, n) as its kernel counts (the first
    half up from -1, the second down from 1, each a fused multiply-add), then, without
    ``align_corners``, times (n - 1) and divided by n, two roundings in ``dtype``."""
    if n <= 1:
        return np.zeros(max(n, 0), dtype)
    one, fused = dtype.type(1), fma.fma32 if dtype == np.float32 else fma.fma64
    step, index = (one + one) / dtype.type(n - 1), np.arange(n).astype(dtype)
    line = np.where(index < n // 2, fused(step, index, -one),
                    fused(-step, dtype.type(n - 1) - index, one)).astype(dtype)
    return line if align_corners else line * dtype.type(n - 1) / dtype.type(n)


def base_grid(height: int, width: int, align_corners: bool, dtype) -> np.ndarray:
    """(H, W, 3): each pixel's (x, y, 1), x and y from -1 to 1 (pulled in by (n - 1) / n
    without ``align_corners``, so that they are pixel centres)."""
    def steps(n):
        return _steps(n, align_corners, np.dtype(dtype))
    base = np.empty((height, width, 3), dtype)
    base[..., 0] = steps(width)[None, :]
    base[..., 1] = steps(height)[:, None]
    base[..., 2] = 1
    return base


def affine_grid(theta: np.ndarray, size, align_corners: bool) -> np.ndarray:
    """(N, H, W, 2): theta (N, 2, 3) applied to the base grid of ``size`` (N, C, H, W)."""
    n, _, height, width = size
    base = base_grid(height, width, align_corners, theta.dtype).reshape(1, -1, 3, 1)
    terms = base * np.swapaxes(theta, 1, 2)[:, None]  # (N, H W, 3, 2): x a, y b, 1 c
    # (PyTorch's bmm of these sizes adds the three products in order, each rounded)
    return ((terms[:, :, 0] + terms[:, :, 1]) + terms[:, :, 2]).reshape(n, height, width, 2)


def affine_grid_backward(grad: np.ndarray, size, align_corners: bool) -> np.ndarray:
    """d loss / d theta: base^T @ grad, per batch element, transposed to (N, 2, 3)."""
    n, _, height, width = size
    base = base_grid(height, width, align_corners, grad.dtype).reshape(1, -1, 3)
    return np.swapaxes(np.swapaxes(base, 1, 2) @ grad.reshape(n, -1, 2), 1, 2)


def _clip(index, size: int):
    """index moved into [0, size - 1], and its derivative (0 where it was moved)."""
    inside = (index > 0) & (index < size - 1)
    return np.minimum(np.maximum(index, 0), size - 1), inside.astype(index.dtype)


def _reflect(index, twice_low: int, twice_high: int):
    """index reflected at low and high (twice each given) until inside, and its
    derivative (+-1: each reflection flips it)."""
    if twice_low == twice_high:
        return np.zeros_like(index), np.zeros_like(index)
    low, span = index.dtype.type(twice_low / 2), index.dtype.type((twice_high - twice_low) / 2)
    shifted = index - low
    sign = np.where(shifted < 0, -1, 1).astype(index.dtype)
    shifted = np.abs(shifted)
    extra = np.fmod(shifted, span)
    flips = np.floor(shifted / span)
    even = flips % 2 == 0
    return np.where(even, extra + low, span - extra + low), np.where(even, sign, -sign)


def _source(coordinate, size: int, padding: str, align_corners: bool):
    """Pixel coordinates of grid coordinates along one dim, and d pixel / d grid."""
    dtype = coordinate.dtype.type
    if align_corners:
        scale = dtype((size - 1) / 2)
        index = (coordinate + dtype(1)) * scale
    else:
        scale = dtype(size / 2)
        index = _fused(coordinate + dtype(1), scale, dtype(-0.5))
    slope = np.full_like(index, scale)
    if padding == "border":
        index, inside = _clip(index, size)
        slope = slope * inside
    elif padding == "reflection":
        index, flip = _reflect(index, 0, 2 * (size - 1)) if align_corners else \
            _reflect(index, -1, 2 * size - 1)
        index, inside = _clip(index, size)
        slope = slope * flip * inside
    return index, slope


def _corners(x, y, height: int, width: int):
    """The four pixels around (x, y): for each, its row and column (clamped into the
    image) and whether it is inside; and the bilinear weights' parts."""
    x_west, y_north = np.floor(x), np.floor(y)
    w = x - x_west
    e = x.dtype.type(1) - w
    n = y - y_north
    s = y.dtype.type(1) - n
    corners = []
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        row, column = y_north + dy, x_west + dx
        inside = (row >= 0) & (row < height) & (column >= 0) & (column < width)
        corners.append((_index(row, height, inside), _index(column, width, inside), inside))
    return corners, (e, w, n, s)


def _index(coordinate, size: int, inside):
    """Whole-number coordinates as indices, those outside (or NaN) as 0 (read as 0 anyway)."""
    return np.where(inside, np.clip(coordinate, 0, size - 1), 0).astype(np.intp)


def _read(image, corner):
    """image (N, C, H, W) at one corner of every grid point: (N, C, Ho, Wo), 0 outside."""
    row, column, inside = corner
    batch = np.arange(image.shape[0])[:, None, None]
    values = np.moveaxis(image[batch, :, row, column], -1, 1)
    return np.where(inside[:, None], values, image.dtype.type(0))


def grid_sample(image, grid, mode: str, padding: str, align_corners: bool):
    """image (N, C, H, W) sampled at grid (N, Ho, Wo, 2): (N, C, Ho, Wo), row-major as
    PyTorch's CPU kernel writes it whatever the image's layout (the reads below give
    NumPy's channels-last order)."""
    height, width = image.shape[2:]
    x, _ = _source(grid[..., 0], width, padding, align_corners)
    y, _ = _source(grid[..., 1], height, padding, align_corners)
    if mode == "nearest":
        return np.ascontiguousarray(_read(image, _nearest(x, y, height, width)))
    corners, (e, w, n, s) = _corners(x, y, height, width)
    nw, ne, sw, se = (_read(image, corner) for corner in corners)
    total = nw * (s * e)[:, None]
    for value, weight in ((ne, s * w), (sw, n * e), (se, n * w)):
        total = _fused(value, weight[:, None], total)
    return np.ascontiguousarray(total)


def _fused(a, b, c):
    """a * b + c rounded once (fused), in the operands' dtype."""
    a, b, c = np.broadcast_arrays(a, b, c)
    return fma.fma32(a, b, c) if a.dtype == np.float32 else fma.fma64(a, b, c)


def _nearest(x, y, height: int, width: int):
    row, column = np.rint(y), np.rint(x)
    inside = (row >= 0) & (row < height) & (column >= 0) & (column < width)
    return _index(row, height, inside), _index(column, width, inside), inside


def _scatter(target, corner, values):
    """target[n, :, row, column] += values[n, :, i, j] at each point of the corner inside."""
    row, column, inside = corner
    batch = np.broadcast_to(np.arange(target.shape[0])[:, None, None], row.shape)
    pick = np.nonzero(inside)
    moved = np.moveaxis(values, 1, -1)[pick]  # (points, C)
    np.add.at(target, (batch[pick], slice(None), row[pick], column[pick]), moved)


def grid_sample_backward(grad, image, grid, mode: str, padding: str, align_corners: bool):
    """(d loss / d image, d loss / d grid) for grad (N, C, Ho, Wo)."""
    height, width = image.shape[2:]
    x, x_slope = _source(grid[..., 0], width, padding, align_corners)
    y, y_slope = _source(grid[..., 1], height, padding, align_corners)
    grad_image = np.zeros_like(image)
    if mode == "nearest":
        _scatter(grad_image, _nearest(x, y, height, width), grad)
        return grad_image, np.zeros_like(grid)
    corners, (e, w, n, s) = _corners(x, y, height, width)
    for corner, weight in zip(corners, (s * e, s * w, n * e, n * w)):
        _scatter(grad_image, corner, grad * weight[:, None])
    nw, ne, sw, se = (_read(image, corner) for corner in corners)
    gx = np.zeros_like(x)
    gy = np.zeros_like(y)
    for c in range(image.shape[1]):  # (channel by channel, as the kernel adds them)
        gx = gx + ((ne[:, c] - nw[:, c]) * s + (se[:, c] - sw[:, c]) * n) * grad[:, c]
        gy = gy + ((sw[:, c] - nw[:, c]) * e + (se[:, c] - ne[:, c]) * w) * grad[:, c]
    return grad_image, np.stack([gx * x_slope, gy * y_slope], axis=-1)
