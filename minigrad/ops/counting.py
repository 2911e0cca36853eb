"""Counting and locating: ``count_nonzero``, ``nonzero``/``argwhere`` (where the nonzero
elements are), ``unique`` (the distinct values, with where each element went and how
often each occurs), ``bincount`` and ``histc`` (histograms), ``searchsorted`` and
``bucketize`` (where values would go in a sorted sequence).

Their results are counts and indices, which have no gradient. ``unique``'s values are
x's own, but PyTorch has no derivative for it: its node stops backward with an error."""

from __future__ import annotations

import builtins
import math

import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node
from ..autograd.tensor_base import is_tensor, make
from ..kernels import counting as kernels, layout, sorting
from ..kernels.fma import linspace_values
from ..rules.arguments import normalize_dim, normalize_dims, refuse_empty_slices, refuse_meta
from ..rules.counting import check_histogramdd, check_nonzero_static
from ..rules.layout import with_reduction_layout
from ..kernels.summation import sum_all
from .rounding import NotImplemented  # noqa: A004 (PyTorch's name for the node)
from ..rules.return_types import return_type

__all__ = ["count_nonzero", "nonzero", "nonzero_static", "argwhere", "unique",
           "unique_consecutive", "bincount", "histc", "histogram", "histogramdd", "searchsorted",
           "bucketize"]




class Unique2Backward0(Node):
    formula = Formula("y", "the distinct values of x, sorted",
                      note="PyTorch has no derivative for unique: backward stops here.")
    operation = "_unique2"

    def forward(self, x, values):
        return values

    def backward(self, saved, grad):
        raise NotImplementedError(f"the derivative for '{self.operation}' is not implemented.")


class UniqueDimBackward0(Unique2Backward0):
    formula = Formula("y", "the distinct slices of x along dim, sorted",
                      note="PyTorch has no derivative for unique: backward stops here.")
    operation = "unique_dim"


class UniqueConsecutiveBackward0(Unique2Backward0):
    formula = Formula("y", "x with each run of equal values kept once",
                      note="PyTorch has no derivative for unique_consecutive: backward stops "
                           "here.")
    operation = "unique_consecutive"


def count_nonzero(x, dim=None):
    """How many elements are not zero (along ``dim``: an int or a tuple of ints)."""
    axes = None if dim is None else normalize_dims(dim, x.ndim)
    return with_reduction_layout(make(np.asarray(np.count_nonzero(x._data, axis=axes), np.int64)))


def nonzero(x, as_tuple=False):
    """The indices of the nonzero elements: one row per element (``as_tuple``: one
    1-D tensor per dim)."""
    refuse_meta("nonzero", x)
    data = x._data if x.ndim else x._data.reshape(1)
    places = [p.astype(np.int64) for p in np.nonzero(data)]
    if as_tuple:
        return tuple(make(layout.new_layout(p)) for p in places)
    found = np.zeros((int(bool(x._data)), 0), np.int64) if not x.ndim else np.stack(places).T
    # (laid out as torch's kernel writes it: each dim's indices in a row of their own,
    # then transposed: strides (1, n))
    return make(layout.with_strides(found, (1, found.shape[0])))


def argwhere(x):
    return nonzero(x)


def unique(x, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (or slices along ``dim``), sorted; optionally where each
    element went (``return_inverse``) and how often each occurs (``return_counts``)."""
    refuse_meta("_unique2" if dim is None else "unique_dim", x)
    if dim is None:
        values, inverse, counts = sorting.unique_values(x._data)
        node, inverse = Unique2Backward0, inverse.reshape(x.shape)
    else:
        axis = refuse_empty_slices(x, dim)
        if x.dtype.is_floating_point and np.isnan(x._data).any():  # (torch's sort, its order)
            values, inverse, counts = sorting.unique_slices(x._data, axis)
        else:
            values, inverse, counts = np.unique(x._data, return_inverse=True,
                                                return_counts=True, axis=axis)
        node, inverse = UniqueDimBackward0, inverse.reshape(-1)
    # (row-major, also when empty: NumPy gives an empty result strides of 0; slices along a
    # dim are stacked along a first dim, then moved to theirs, as torch's unique_dim)
    values, inverse, counts = (layout.with_strides(a, layout.contiguous_strides(a.shape))
                               for a in (values, inverse.astype(np.int64), counts.astype(np.int64)))
    if dim is not None and values.size:
        values = layout.with_strides(values, layout.dim_first_strides(values.shape, axis))
    result = node.apply(x, values=values)
    extra = ([make(inverse)] if return_inverse else []) + ([make(counts)] if return_counts else [])
    return (result, *extra) if extra else result


def unique_consecutive(x, return_inverse=False, return_counts=False, dim=None):
    """Each run of equal consecutive values (or slices along ``dim``) kept once; optionally
    which run each element belongs to (``return_inverse``) and each run's length."""
    refuse_meta("unique_consecutive", x)
    axis = 0 if dim is None else refuse_empty_slices(x, dim)
    data = x._data.reshape(-1) if dim is None else np.moveaxis(x._data, axis, 0)
    if len(data):
        rest = data.reshape(len(data), -1)
        starts = np.concatenate([[True], np.any(rest[1:] != rest[:-1], axis=1)])
    else:
        starts = np.zeros(0, bool)
    values = data[starts] if dim is None else np.moveaxis(data[starts], 0, axis)
    inverse = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.flatnonzero(starts), len(data)))
    values = layout.new_layout(np.ascontiguousarray(values))
    if dim is not None and values.size:  # (as unique's slices)
        values = layout.with_strides(values, layout.dim_first_strides(values.shape, axis))
    result = UniqueConsecutiveBackward0.apply(x, values=values)
    inverse = inverse.reshape(x.shape) if dim is None else inverse
    extra = ([make(layout.new_layout(inverse.astype(np.int64)))] if return_inverse else []) + \
        ([make(layout.new_layout(counts.astype(np.int64)))] if return_counts else [])
    return (result, *extra) if extra else result


_INT64_MAX = np.iinfo(np.int64).max


def bincount(x, weights=None, minlength=0):
    """How often each of 0, 1, 2, ... occurs in ``x`` (a 1-D tensor of non-negative
    integers); with ``weights``, their sums instead of counts."""
    refuse_meta("bincount", x, weights)
    if x.dtype.is_floating_point:
        raise NotImplementedError(
            f'"bincount_cpu" not implemented for \'{dtypes.SCALAR_NAMES[x.dtype]}\'')
    if x.ndim != 1 or (x.numel() and x._data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if x.numel() and x._data.max() == _INT64_MAX:  # (its count would need one more bin)
        raise RuntimeError(f"maximum value of input overflowed, it should be < {_INT64_MAX} "
                           f"but got {_INT64_MAX}")
    if weights is None:
        return make(layout.new_layout(np.bincount(x._data, minlength=minlength).astype(np.int64)))
    kept = weights.dtype in (dtypes.float32, dtypes.float64)  # (else: float64, as torch)
    counts = np.bincount(x._data, weights=weights._data.astype(np.float64), minlength=minlength)
    return make(counts.astype(weights._data.dtype if kept else np.float64))


def _edge(value: float, data) -> str:
    """A range's edge as PyTorch's C++ prints it (a NaN that x's min or max made from more
    than one element of ``data`` is the CPU's default NaN, printed -nan)."""
    if value != value:
        negative = np.signbit(value) if data is None else data.size > 1 or np.signbit(data).any()
        return "-nan" if negative else "nan"
    return f"{value:g}"


def histc(x, bins=100, min=0, max=0):
    """A histogram of ``bins`` equal bins between ``min`` and ``max`` (both 0: x's own
    smallest and largest element); elements outside are not counted."""
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if not x.dtype.is_floating_point:
        raise NotImplementedError(
            f'"histogram_cpu" not implemented for \'{dtypes.SCALAR_NAMES[x.dtype]}\'')
    data = x._data.reshape(-1)
    low, high = float(min), float(max)
    made = low == high and data.size  # (the range: x's own)
    if made:
        low, high = float(data.min()), float(data.max())
    if low == high:
        low, high = low - 1, high + 1
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{_edge(low, data if made else None)}, "
                           f"{_edge(high, data if made else None)}] is not finite")
    if low > high:
        raise RuntimeError("torch.histc: max must be larger than min")
    kind = data.dtype.type  # (PyTorch's kernel computes the place in x's dtype)
    inside = data[(data >= kind(low)) & (data <= kind(high))]
    places = ((inside - kind(low)) * kind(bins) / (kind(high) - kind(low))).astype(np.int64)
    places = np.minimum(places, bins - 1)  # (max itself: the last bin)
    return make(np.bincount(places, minlength=bins).astype(x._data.dtype))


def _histogram_result(name: str):
    return return_type(name, ["hist", "bin_edges"])


HistogramResult, HistogramOutResult = map(_histogram_result, ("histogram", "histogram_out"))


def histogram(x, bins, range=None, weight=None, density=False):  # noqa: A002 - torch's names
    """A histogram of x's elements (any shape) in ``bins`` equal bins over ``range`` (x's
    own smallest and largest element when None; a bin either side of one value), or
    between the edges of a 1-D tensor ``bins``: each element in the bin whose left edge
    it reaches (the last bin takes its right edge too), others not counted; ``weight``:
    each element adds its weight; ``density``: divided by the total and each bin's width.
    (hist, bin_edges), x's dtype, as PyTorch; no derivative (its NotImplemented node)."""
    if not x.dtype.is_floating_point:
        raise NotImplementedError(
            f'"histogramdd" not implemented for \'{dtypes.SCALAR_NAMES[x.dtype]}\'')
    data = x._data.reshape(-1)
    if weight is not None and weight.dtype is not x.dtype:
        raise RuntimeError(
            f"torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
            f"should have the same dtype, but got input({dtypes.C_TYPE_NAMES[x.dtype]}), and "
            f"weight({dtypes.C_TYPE_NAMES[weight.dtype]})")
    edges = bins._data.reshape(-1) if is_tensor(bins) else _bin_edges(data, bins, range)
    hist = kernels.histogram(data, edges, None if weight is None else weight._data.reshape(-1))
    edges = np.array(edges, data.dtype)
    if density:  # (PyTorch's order: divided by the total, then by each bin's width)
        hist = hist / sum_all(hist) / (edges[1:] - edges[:-1])
    inputs = (x,) if weight is None else (x, weight)  # (no derivative: where a graph is
    return HistogramResult(*(NotImplemented.apply(  # recorded, PyTorch's NotImplemented)
        *inputs, operation="histogram", value=values) for values in (hist, edges)))


def _bin_edges(data: np.ndarray, bins: int, range, dim: int = 0) -> np.ndarray:  # noqa: A002
    """``bins + 1`` equal steps over the range (PyTorch's linspace), with its checks."""
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension {dim}")
    if range is not None:
        low, high = (float(edge) for edge in range)
    elif data.size:
        low, high = float(data.min()), float(data.max())
    else:
        low, high = 0.0, 1.0
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                           f"{low:g} max {high:g} for dimension {dim}")
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{low:g}, {high:g}] is "
                           f"not finite")
    if low == high:
        low, high = low - 0.5, high + 0.5
    kind = data.dtype.type
    return linspace_values(kind(low), kind(high), bins + 1).astype(data.dtype)


HistogramddResult = _histogram_result("histogramdd")


def histogramdd(x, bins, range=None, weight=None, density=False):  # noqa: A002 - torch's names
    """A histogram of the points in x's last dim (D coordinates each: ``x`` of shape
    (..., D)), a D-dimensional array of bins: ``bins`` equal bins in each dim (an int, or one
    per dim) over ``range`` (``[min0, max0, min1, max1, ...]``; the points' own when None),
    or between the edges of D 1-D tensors; each point in the bin its coordinates reach,
    ``weight`` and ``density`` as ``histogram``. (hist, bin_edges): no derivative."""
    dims = check_histogramdd(x, bins, range, weight)
    data = x._data.reshape(-1, dims)
    if is_tensor(bins[0] if isinstance(bins, (list, tuple)) and bins else bins):
        edges = [b._data.reshape(-1) for b in bins]
    else:
        counts = [bins] * dims if isinstance(bins, int) else list(bins)
        pairs = [None] * dims if range is None else list(zip(range[::2], range[1::2]))
        edges = [_bin_edges(data[:, d], counts[d], pairs[d], d) for d in builtins.range(dims)]
    hist = kernels.histogramdd(data, edges, None if weight is None else weight._data.reshape(-1))
    edges = [np.array(e, data.dtype) for e in edges]
    if density:  # (PyTorch's order: divided by the total, then by the widths dim by dim)
        hist = hist / sum_all(hist)
        for d, e in enumerate(edges):
            hist = hist / (e[1:] - e[:-1]).reshape([-1 if k == d else 1 for k in builtins.range(dims)])
    hist = NotImplemented.apply(x, operation="histogramdd", value=hist)
    return HistogramddResult(hist, tuple(make(e) for e in edges))


def nonzero_static(x, size: int, fill_value: int = -1):
    """``nonzero``'s rows, ``size`` of them: the first ones found, then rows of
    ``fill_value`` (a fixed shape whatever the values: (size, x.ndim))."""
    check_nonzero_static(size, fill_value)
    found = nonzero(x)._data[:size] if x.ndim else np.zeros((0, 0), np.int64)
    out = np.full((size, x.ndim), fill_value, np.int64)
    out[:len(found)] = found
    return make(out)


def searchsorted(sorted_sequence, values, out_int32=False, right=False, side=None,
                 sorter=None):
    """Where each of ``values`` would go in ``sorted_sequence`` (along its last dim) to
    keep it sorted: before equal elements, or after them with ``right=True``."""
    side = side or ("right" if right else "left")
    seq = sorted_sequence._data
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, axis=-1)
    vals = values._data if is_tensor(values) else np.asarray(values)
    rows = seq.reshape(math.prod(seq.shape[:-1]), seq.shape[-1]) if seq.ndim else seq.reshape(1, 1)
    flat = np.asarray(vals).reshape(1, -1) if seq.ndim <= 1 else vals.reshape(len(rows), -1)
    places = sorting.search_places(rows, flat, side == "right").reshape(np.shape(vals))
    return make(np.asarray(places, np.int32 if out_int32 else np.int64))


def bucketize(x, boundaries, out_int32=False, right=False):
    """The bucket of each element of ``x``, by the sorted 1-D ``boundaries``."""
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return searchsorted(boundaries, x, out_int32, right)
