"""Convolution and pooling on arrays laid out (N, C, *spatial), for 1, 2 or 3 spatial
dims, computed as windows: ``windows`` views every window the kernel visits without
copying (NumPy's ``sliding_window_view``, then strided), and a convolution is one
matrix product (per group) of the weight with those windows laid out as columns
("im2col", copied one kernel position at a time).

The backward kernels run the windows the other way: ``add_windows`` adds a value per
window position back into the input ("col2im"), one strided slice per kernel
position, so that an element covered by several windows gets the sum.

Bits: PyTorch's CPU convolution is oneDNN's (float32) or its own im2col with a
blocked GEMM (float64); both add the products in another order than NumPy's BLAS,
so the last bits differ (README gives the measured figures). Pooling adds each
window's elements one after the other in the window's order, as PyTorch's pooling
kernels do, and so has its bits.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .layout import (channels_last_strides, contiguous_strides, geometry, new_layout,
                     strides_like_channels_last, with_strides)
from .meta import empty as meta_empty, is_meta
from .special import half_in_float32

__all__ = ["output_size", "pad", "constant_pad", "windows", "add_windows", "convolution",
           "in_suggested_format",
           "convolution_input_grad", "convolution_weight_grad", "conv_transpose", "im2col", "col2im", "max_pool",
           "max_pool_backward", "max_pool_gather", "max_unpool", "avg_pool",
           "avg_pool_backward", "pool_divisors", "adaptive_avg_pool", "adaptive_avg_pool_backward",
           "adaptive_max_pool", "adaptive_ranges", "adaptive_regions", "fractional_starts",
           "fractional_max_pool"]


def output_size(size, kernel, stride, padding, dilation, ceil_mode=False) -> int:
    """The number of windows along one dim: floor((size + 2p - d(k - 1) - 1) / s) + 1;
    with ``ceil_mode`` rounded up, unless the last window would start in the right padding."""
    span = dilation * (kernel - 1) + 1
    count = (size + 2 * padding - span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (count - 1) * stride >= size + padding:
        count -= 1
    return count


def pad(x, before, after, value=0):
    """``x`` with ``before[i]`` and ``after[i]`` elements of ``value`` around spatial dim i."""
    if not any(before) and not any(after):
        return x
    widths = [(0, 0)] * (x.ndim - len(before)) + list(zip(before, after))
    return np.pad(x, widths, constant_values=value)


def constant_pad(x, widths, value=0):
    """torch's constant_pad_nd: ``widths`` (before, after) pairs from the last dim
    backwards; a negative width cuts elements off instead."""
    pairs = [(0, 0)] * x.ndim
    for k in range(len(widths) // 2):
        pairs[x.ndim - 1 - k] = widths[2 * k], widths[2 * k + 1]
    cut = tuple(slice(max(-a, 0), x.shape[d] - max(-b, 0)) for d, (a, b) in enumerate(pairs))
    grown = [(max(a, 0), max(b, 0)) for a, b in pairs]
    return new_layout(np.pad(x[cut], grown, constant_values=value))  # (empty: row-major)


def windows(x, kernel, stride, dilation, out):
    """The view (N, C, *out, *kernel) of ``x`` (N, C, *spatial, already padded): window
    ``o`` along a dim starts at ``o * stride`` and takes every ``dilation``-th element."""
    spatial = len(kernel)
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = sliding_window_view(x, span, axis=tuple(range(x.ndim - spatial, x.ndim)))
    starts = tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(out, stride))
    steps = tuple(slice(None, None, d) for d in dilation)
    return view[(Ellipsis,) + starts + steps]


def add_windows(values, shape, stride, dilation, outputs_in_order=False):
    """The adjoint of ``windows``: zeros of ``shape`` (..., *spatial, padded) with each
    window's ``values`` (..., *out, *kernel) added back where the window read them.
    An element read by several windows gets their values added in the order of the
    kernel positions (as PyTorch's col2im), or, ``outputs_in_order``, of the windows
    (as its pooling backwards: the kernel positions backwards)."""
    spatial = len(stride)
    out, kernel = values.shape[-2 * spatial:-spatial], values.shape[-spatial:]
    total = np.zeros(shape, values.dtype)
    positions = list(itertools.product(*map(range, kernel)))
    for position in reversed(positions) if outputs_in_order else positions:
        total[(Ellipsis,) + _window_slices(position, dilation, stride, out)] += \
            values[(Ellipsis,) + position]
    return total


def _window_slices(position, kernel_dilation, stride, out):
    """The input elements that kernel ``position`` meets in every window: one strided
    slice per spatial dim."""
    return tuple(slice(k * d, k * d + (o - 1) * s + 1, s)
                 for k, d, o, s in zip(position, kernel_dilation, out, stride))


def _window_matrix(x, kernel, stride, padding, dilation, groups, out):
    """im2col: the windows of ``x`` as one matrix per group, (G, C/G * K, N * L): a row
    per weight element (c, k), a column per output position (n, i). Filled one kernel
    position at a time (a strided copy each)."""
    n, channels = x.shape[:2]
    padded = pad(x, padding, padding)
    cols = np.empty((channels,) + tuple(kernel) + (n,) + tuple(out), x.dtype)
    for position in itertools.product(*map(range, kernel)):
        part = padded[(slice(None), slice(None)) + _window_slices(position, dilation, stride, out)]
        cols[(slice(None),) + position] = part.swapaxes(0, 1)
    return cols.reshape(groups, channels // groups * _count(kernel), n * _count(out))


def _count(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _grad_matrix(grad, groups):
    """grad (N, O, *out) as one matrix per group, (G, O/G, N * L)."""
    n, channels = grad.shape[:2]
    length = _count(grad.shape[2:])
    rows = np.ascontiguousarray(grad.reshape(n, channels, length).swapaxes(0, 1))
    return rows.reshape(groups, channels // groups, n * length)


def _per_group(a, b):
    """a[g] @ b[g] for each group g, each one BLAS's matrix product (np.matmul on a
    stack of transposed matrices would take NumPy's slow loop)."""
    if a.shape[0] == 1:
        return (a[0] @ b[0])[None]
    return np.stack([a[g] @ b[g] for g in range(a.shape[0])])


@half_in_float32  # (half: each output summed in float32, rounded once)
def convolution(x, weight, bias, stride, padding, dilation, groups, output_padding=None):
    """y[n, o, i] = bias[o] + sum over c (in o's group) and kernel positions k of
    weight[o, c, k] * x_padded[n, c, i * stride + k * dilation]: one matrix product.
    With ``output_padding`` (a tuple), the transposed convolution (``conv_transpose``)."""
    if output_padding is not None:
        return conv_transpose(x, weight, bias, stride, padding, dilation, groups, output_padding)
    kernel = weight.shape[2:]
    out = tuple(output_size(*args) for args in zip(x.shape[2:], kernel, stride, padding, dilation))
    if is_meta(x) or is_meta(weight):  # (a shape only: see meta.py)
        return meta_empty((x.shape[0], weight.shape[0]) + out, np.result_type(x.dtype,
                                                                              weight.dtype))
    cols = _window_matrix(x, kernel, stride, padding, dilation, groups, out)
    w = weight.reshape(groups, weight.shape[0] // groups, -1)
    y = _per_group(w, cols)  # (G, O/G, N * L)
    y = y.reshape((weight.shape[0], x.shape[0]) + out).swapaxes(0, 1)
    y = np.ascontiguousarray(y)
    if bias is not None:
        y += bias.reshape((-1,) + (1,) * len(kernel))
    return y


def in_suggested_format(y, x, weight):
    """The output laid out as PyTorch's CPU convolution lays it out: channels-last when
    its input or its weight has channels-last strides (their suggest_memory_format), else
    row-major; a volume's (5-d) only in float32, which oneDNN convolves (float64 and
    float16 volumes come back row-major)."""
    if y.ndim == 5 and x.dtype != np.float32:
        return y
    if any(strides_like_channels_last(*geometry(a)[:2]) for a in (x, weight)):
        return with_strides(y, channels_last_strides(y.shape))
    row_major = contiguous_strides(y.shape)
    if y.flags.c_contiguous and y.size and geometry(y)[1] != row_major:
        # (NumPy's reshapes leave a size-1 dim, a batch of one, another stride, which only
        # records; torch's is the row-major one: the same memory, its strides restated)
        return np.lib.stride_tricks.as_strided(y, strides=[s * y.itemsize for s in row_major])
    return y


def convolution_input_grad(grad, weight, input_shape, stride, padding, dilation, groups):
    """dL/dx: each output's gradient times the weight, added back into every input
    element its window read (a transposed convolution of grad with the weight)."""
    n, channels = input_shape[:2]
    kernel, out = weight.shape[2:], grad.shape[2:]
    w = weight.reshape(groups, weight.shape[0] // groups, -1)
    cols = _per_group(w.transpose(0, 2, 1), _grad_matrix(grad, groups))  # (G, C/G * K, N * L)
    cols = cols.reshape((channels,) + kernel + (n,) + out)
    padded = tuple(size + 2 * p for size, p in zip(input_shape[2:], padding))
    total = np.zeros((channels, n) + padded, grad.dtype)  # (col2im, channels first)
    for position in itertools.product(*map(range, kernel)):
        total[(slice(None), slice(None)) + _window_slices(position, dilation, stride, out)] += \
            cols[(slice(None),) + position]
    inside = total[(Ellipsis,) + tuple(slice(p, p + size)
                                        for p, size in zip(padding, input_shape[2:]))]
    return np.ascontiguousarray(inside.swapaxes(0, 1))


def convolution_weight_grad(x, grad, weight_shape, stride, padding, dilation, groups):
    """dL/dweight[o, c, k] = sum over n and output positions i of
    grad[n, o, i] * x_padded[n, c, i * stride + k * dilation] (the correlation of x
    with grad)."""
    cols = _window_matrix(x, weight_shape[2:], stride, padding, dilation, groups, grad.shape[2:])
    return _per_group(_grad_matrix(grad, groups), cols.transpose(0, 2, 1)).reshape(weight_shape)


def conv_transpose(x, weight, bias, stride, padding, dilation, groups, output_padding):
    """A transposed convolution: y is what a convolution with this weight would give as
    the gradient of its input, for x as the gradient of its output; each input element
    times the kernel, added into the output window it stands for. Output size along a
    dim: (n - 1) stride - 2 padding + dilation (k - 1) + output_padding + 1."""
    kernel = weight.shape[2:]
    out = tuple((n - 1) * s - 2 * p + d * (k - 1) + o + 1 for n, k, s, p, d, o in
                zip(x.shape[2:], kernel, stride, padding, dilation, output_padding))
    shape = (x.shape[0], weight.shape[1] * groups) + out
    y = convolution_input_grad(x, weight, shape, stride, padding, dilation, groups)
    if bias is not None:
        y += bias.reshape((-1,) + (1,) * len(kernel))
    return y


def im2col(x, kernel, dilation, padding, stride):
    """torch's unfold: (N, C, H, W) -> (N, C * kH * kW, L), a column per window (the
    rows in the order c, then the kernel positions); without N alike."""
    unbatched = x.ndim == 3
    x = x[None] if unbatched else x
    out = tuple(output_size(*args) for args in zip(x.shape[2:], kernel, stride, padding, dilation))
    view = windows(pad(x, padding, padding), kernel, stride, dilation, out)
    cols = view.transpose(0, 1, 4, 5, 2, 3).reshape(
        x.shape[0], x.shape[1] * kernel[0] * kernel[1], out[0] * out[1])
    return np.ascontiguousarray(cols[0] if unbatched else cols)


def col2im(cols, size, kernel, dilation, padding, stride):
    """torch's fold, the adjoint of ``im2col``: each column's values added back where its
    window lies in an image of ``size`` (H, W); overlaps summed in kernel-position order."""
    unbatched = cols.ndim == 2
    cols = cols[None] if unbatched else cols
    out = tuple(output_size(*args) for args in zip(size, kernel, stride, padding, dilation))
    n, channels = cols.shape[0], cols.shape[1] // (kernel[0] * kernel[1])
    values = cols.reshape((n, channels) + tuple(kernel) + out).transpose(0, 1, 4, 5, 2, 3)
    padded = tuple(m + 2 * p for m, p in zip(size, padding))
    total = add_windows(values, (n, channels) + padded, stride, dilation)
    image = np.ascontiguousarray(total[..., padding[0]:padding[0] + size[0],
                                       padding[1]:padding[1] + size[1]])
    return image[0] if unbatched else image


# ---- pooling -----------------------------------------------------------------------

def max_pool(x, kernel, stride, padding, dilation, ceil_mode):
    """The largest element of each window and its index in the flattened input plane
    (h * W + w), as PyTorch's kernel picks it: it starts at the window's first element
    inside the input and moves on to a strictly larger one, or to any NaN (so the first
    of equal maxima, the last NaN; padding never wins)."""
    spatial = len(kernel)
    size = x.shape[-spatial:]
    out = tuple(output_size(*a, ceil_mode) for a in zip(size, kernel, stride, padding, dilation))
    after = _right_padding(size, kernel, stride, padding, dilation, out)
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    view = windows(pad(x, padding, after, low), kernel, stride, dilation, out)
    flat = view.reshape(view.shape[:x.ndim] + (_count(kernel),))
    inside = windows(pad(np.ones(size, bool), padding, after, False), kernel, stride, dilation,
                     out).reshape(out + (_count(kernel),))
    largest = np.max(np.where(inside, flat, low), -1, keepdims=True)  # (NaN if any)
    chosen = np.argmax(inside & (flat == largest), -1)  # (the first inside, for -inf too)
    if x.dtype.kind == "f":
        nan = np.isnan(flat) & inside
        last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1)
        chosen = np.where(nan.any(-1), last_nan, chosen)
    values = np.take_along_axis(flat, chosen[..., None], -1)[..., 0]
    # the chosen element's place in the unpadded plane
    positions = np.unravel_index(chosen, kernel)
    index = np.zeros(chosen.shape, np.int64)
    for dim in range(spatial):
        start = np.arange(out[dim]) * stride[dim] - padding[dim]
        start = start.reshape((-1,) + (1,) * (spatial - 1 - dim))
        index = index * x.shape[x.ndim - spatial + dim] + start + positions[dim] * dilation[dim]
    return values, index


def max_pool_backward(grad, indices, input_shape, spatial):
    """Each window's gradient added to the input element it chose (``indices`` count
    in the flattened plane of the last ``spatial`` dims)."""
    spatial_size = int(np.prod(input_shape[-spatial:], dtype=np.int64))
    rows = grad.reshape(-1, int(np.prod(grad.shape[-spatial:], dtype=np.int64)))
    where = indices.reshape(rows.shape) + (np.arange(rows.shape[0]) * spatial_size)[:, None]
    total = np.zeros(rows.shape[0] * spatial_size, grad.dtype)
    np.add.at(total, where.ravel(), rows.ravel())  # (one after the other, in the windows' order)
    return total.reshape(input_shape)


def max_pool_gather(grad, indices, spatial):
    """The adjoint of ``max_pool_backward``: each window reads the gradient of the element
    it chose."""
    flat = grad.reshape(grad.shape[:-spatial] + (_count(grad.shape[-spatial:]),))
    chosen = indices.reshape(indices.shape[:-spatial] + (_count(indices.shape[-spatial:]),))
    return np.take_along_axis(flat, chosen, -1).reshape(indices.shape)


def max_unpool(values, indices, size):
    """Max pooling partly undone: zeros of spatial ``size`` with each value written at its
    index in the flattened plane (where two share an index, the later one stays, as in
    PyTorch's loop)."""
    spatial = len(size)
    rows = values.reshape(-1, _count(values.shape[-spatial:]))
    out = np.zeros((rows.shape[0], _count(size)), values.dtype)
    np.put_along_axis(out, indices.reshape(rows.shape), rows, axis=1)
    return out.reshape(values.shape[:-spatial] + tuple(size))


def _right_padding(size, kernel, stride, padding, dilation, out):
    """The padding on the right that the last window needs (more than ``padding`` in
    ceil_mode, where it may reach past the padded input)."""
    return tuple(max(p, (o - 1) * s + d * (k - 1) + 1 - n - p)
                 for n, k, s, p, d, o in zip(size, kernel, stride, padding, dilation, out))


def pool_divisors(size, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """What each window's sum is divided by, as PyTorch counts it: the window's
    elements inside the padded input (count_include_pad), or inside the input only."""
    if divisor_override:
        return np.asarray(divisor_override)
    divisors = np.ones(())
    for n, k, s, p in zip(size, kernel, stride, padding):
        count = output_size(n, k, s, p, 1, ceil_mode)
        start = np.arange(count) * s - p
        end = np.minimum(start + k, n + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, n)
        divisors = divisors[..., None] * (end - start)
    return divisors


@half_in_float32
def avg_pool(x, kernel, stride, padding, ceil_mode, divisors):
    """Each window's sum, its elements added one after the other in the window's
    order (as PyTorch's kernel), divided by ``divisors`` (see ``pool_divisors``)."""
    spatial = len(kernel)
    out = tuple(output_size(*a, ceil_mode) for a in zip(x.shape[-spatial:], kernel, stride,
                                                         padding, (1,) * spatial))
    after = _right_padding(x.shape[-spatial:], kernel, stride, padding, (1,) * spatial, out)
    view = windows(pad(x, padding, after), kernel, stride, (1,) * spatial, out)
    total = np.zeros(view.shape[:x.ndim], x.dtype)
    for position in itertools.product(*map(range, kernel)):
        total += view[(Ellipsis,) + position]
    return (total / divisors.astype(x.dtype)).astype(x.dtype)


def avg_pool_backward(grad, input_shape, kernel, stride, padding, divisors):
    """Each window's gradient over its divisor, added to every element of the window."""
    spatial = len(kernel)
    share = (grad / divisors.astype(grad.dtype)).astype(grad.dtype)
    out = grad.shape[-spatial:]
    after = _right_padding(input_shape[-spatial:], kernel, stride, padding, (1,) * spatial, out)
    values = np.broadcast_to(share.reshape(share.shape + (1,) * spatial), share.shape + kernel)
    padded = tuple(n + p + a for n, p, a in zip(input_shape[-spatial:], padding, after))
    total = add_windows(values, tuple(input_shape[:-spatial]) + padded, stride, (1,) * spatial,
                        outputs_in_order=True)
    return np.ascontiguousarray(total[(Ellipsis,) + tuple(
        slice(p, p + n) for p, n in zip(padding, input_shape[-spatial:]))])


def adaptive_ranges(size, out):
    """Output i of ``out`` averages input [floor(i size / out), ceil((i + 1) size / out))."""
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def adaptive_regions(size, out):
    """Each output position (a tuple) with its region of the input, a slice per spatial dim
    (``adaptive_ranges`` along each), outputs in order."""
    ranges = [adaptive_ranges(n, o) for n, o in zip(size, out)]
    for position in itertools.product(*map(range, out)):
        yield position, tuple(slice(*ranges[d][i]) for d, i in enumerate(position))


def _counts(region, dtype):
    """The region's length along each dim, in ``dtype`` (each a division of its own, as
    PyTorch divides by the height, then the width)."""
    return [dtype.type(part.stop - part.start) for part in region]


def adaptive_avg_pool(x, out):
    """Each output the mean of its region (``adaptive_regions``), summed element after
    element as PyTorch's kernel, then divided by the region's length along each dim (a
    half's in float32, rounded once; but PyTorch's 3-d kernel adds and divides a half
    region in half: 59 of 60 random ones bit for bit, where float32 gave 4)."""
    if x.dtype == np.float16 and len(out) == 3:  # (PyTorch's 3-D kernel adds halves in half)
        return _adaptive_avg_pool_in_dtype(x, out)
    return _adaptive_avg_pool_wide(x, out)


def _adaptive_avg_pool_in_dtype(x, out):
    spatial = len(out)
    y = np.empty(x.shape[:-spatial] + tuple(out), x.dtype)
    for position, region in adaptive_regions(x.shape[-spatial:], out):
        total = np.zeros(x.shape[:-spatial], x.dtype)
        for point in itertools.product(*(range(part.start, part.stop) for part in region)):
            total += x[(Ellipsis,) + point]
        for count in _counts(region, x.dtype):
            total = total / count
        y[(Ellipsis,) + position] = total
    return y


_adaptive_avg_pool_wide = half_in_float32(_adaptive_avg_pool_in_dtype)


def adaptive_max_pool(x, out):
    """(values, indices): each output the largest element of its region (the first one
    met; a NaN wins, the last one, as PyTorch's ``val > max || isnan(val)``), and its place
    in the flattened plane (h * W + w, or t * H * W + h * W + w)."""
    spatial = len(out)
    size = x.shape[-spatial:]
    values = np.empty(x.shape[:-spatial] + tuple(out), x.dtype)
    indices = np.empty(values.shape, np.int64)
    if not values.size:  # (an empty batch: nothing to choose from)
        return values, indices
    for position, region in adaptive_regions(size, out):
        part = x[(Ellipsis,) + region]
        flat = part.reshape(x.shape[:-spatial] + (-1,))
        chosen = np.argmax(flat, -1)
        if x.dtype.kind == "f":
            nan = np.isnan(flat)
            last = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1)
            chosen = np.where(nan.any(-1), last, chosen)
        values[(Ellipsis,) + position] = np.take_along_axis(flat, chosen[..., None], -1)[..., 0]
        inside = np.unravel_index(chosen, part.shape[-spatial:])
        indices[(Ellipsis,) + position] = np.ravel_multi_index(
            tuple(i + r.start for i, r in zip(inside, region)), size)
    return values, indices


def adaptive_avg_pool_backward(grad, input_shape, spatial=2):
    """Each output's gradient over its counts, added to every element it averaged, the
    outputs in order (PyTorch's order of the additions)."""
    total = np.zeros(input_shape, grad.dtype)
    for position, region in adaptive_regions(input_shape[-spatial:], grad.shape[-spatial:]):
        share = grad[(Ellipsis,) + position]
        for count in _counts(region, grad.dtype):
            share = share / count
        total[(Ellipsis,) + region] += share[(Ellipsis,) + (None,) * spatial]
    return total


def fractional_starts(sample, input_size: int, output_size: int, pool_size: int) -> np.ndarray:
    """Where each of ``output_size`` windows starts along one dim: at pseudo-random steps of
    about (input - pool) / (output - 1), shifted by ``sample`` in [0, 1), the last window at
    the end; computed in the sample's dtype and cut to integers, as PyTorch's
    generate_intervals computes them."""
    kind = type(sample)
    starts = np.empty(output_size, np.int64)
    if output_size > 1:
        alpha = kind(input_size - pool_size) / kind(output_size - 1)
        steps = np.arange(output_size - 1).astype(kind)
        starts[:-1] = ((steps + sample) * alpha).astype(np.int64) - np.int64(sample * alpha)
    if output_size > 0:
        starts[-1] = input_size - pool_size
    return starts


def fractional_max_pool(x: np.ndarray, kernel_size, output_size, samples: np.ndarray):
    """(values, indices) of fractional max pooling of (C, *spatial) or (N, C, *spatial): each
    plane's windows start where ``fractional_starts`` puts them, with the plane's own samples
    (2-D: [W's, H's]; 3-D: [T's, H's, W's]); each output the largest element of its window
    (the first met; a NaN wins, the last one) and its place in the plane."""
    spatial = len(kernel_size)
    planes = x if x.ndim == spatial + 2 else x[None]
    size = planes.shape[2:]
    values = np.empty(planes.shape[:2] + tuple(output_size), x.dtype)
    indices = np.empty(values.shape, np.int64)
    order = (1, 0) if spatial == 2 else (0, 1, 2)
    strides = [int(np.prod(size[d + 1:], dtype=np.int64)) for d in range(spatial)]
    for n, c in (np.ndindex(*planes.shape[:2]) if values.size else ()):
        flat = np.zeros((1,) * (2 * spatial), np.int64)
        for d in range(spatial):
            starts = fractional_starts(samples[n, c, order[d]], size[d], output_size[d],
                                       kernel_size[d])
            place = [1] * (2 * spatial)
            place[d], place[spatial + d] = output_size[d], kernel_size[d]
            flat = flat + ((starts[:, None] + np.arange(kernel_size[d])) * strides[d]).reshape(place)
        flat = flat.reshape(tuple(output_size) + (-1,))
        window = planes[n, c].reshape(-1)[flat]
        chosen = np.argmax(window, -1)
        if x.dtype.kind == "f":  # (PyTorch's `val > max || isnan(val)`: the last NaN)
            nan = np.isnan(window)
            chosen = np.where(nan.any(-1), window.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1),
                              chosen)
        values[n, c] = np.take_along_axis(window, chosen[..., None], -1)[..., 0]
        indices[n, c] = np.take_along_axis(flat, chosen[..., None], -1)[..., 0]
    if x.ndim == spatial + 1:
        return values[0], indices[0]
    return values, indices
