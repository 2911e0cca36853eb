"""``quantile`` and ``nanquantile``, written with other ops as PyTorch writes them
(ATen's ``quantile_compute``), so their graphs show those ops' nodes and their gradients
come from them.

The q-th quantile of n sorted values sits at rank r = q (n - 1). Between the values
below (place floor r) and above (place ceil r) it is read by ``interpolation``:

    linear    v_below + (r - floor r) (v_above - v_below)      (a lerp)
    midpoint  (v_below + v_above) / 2                          (a lerp at 0.5)
    lower, higher, nearest                                     the value at floor r,
                                                               ceil r, round r

So the gradient of a quantile goes back through the lerp (weights 1 - w and w) and the
gathers to the two sorted places, and through the sort to where those values came from.
A row holding NaN has the quantile NaN (``quantile``) or the quantile of its other
values (``nanquantile``). The ranks are counted in ``kernels/sorting.py``
(``quantile_ranks``, in q's dtype, as PyTorch counts them)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..autograd.tensor_base import is_tensor, make
from ..kernels import sorting as kernels
from ..rules.arguments import normalize_dim
from . import arithmetic, pointwise, reduction, shape, sorting, special
from .inplace import inplace
from .gather import gather

__all__ = ["quantile", "nanquantile"]

INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _checked_q(x, q, interpolation):
    """q as a tensor of x's dtype, with PyTorch's checks in PyTorch's order."""
    if not is_tensor(q) and not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")
    if interpolation not in INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    q = q if is_tensor(q) else make(np.asarray(q).astype(x.dtype.numpy))
    if x.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype is not x.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    return q


def _output_shape(x, q, dim, keepdim) -> list:
    """The result's shape: q's length first (for a 1-D q), then x's without dim."""
    if dim is not None and x.ndim:
        shape_ = list(x.shape)
        shape_[dim] = 1 if keepdim else None
        shape_ = [n for n in shape_ if n is not None]
    else:
        shape_ = [1] * x.ndim if keepdim else []
    return [q.numel()] + shape_


def _quantile(x, q, dim, keepdim, interpolation, ignore_nan):
    q = _checked_q(x, q, interpolation)
    axis = None if dim is None else normalize_dim(dim, x.ndim)
    if not bool(np.all((q._data >= 0) & (q._data <= 1))):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if axis is None:
        rows = sorting.sort(shape.flatten(x)).values
    elif axis == x.ndim - 1:
        rows = sorting.sort(x).values
    else:
        rows = sorting.sort(shape.transpose(shape.unsqueeze(x, -1), axis, -1)).values
    rows = shape.view(rows, *_output_shape(x, q, axis, keepdim)[1:], rows.shape[-1])
    below, above, weights = kernels.quantile_ranks(q._data, rows._data, interpolation,
                                                   ignore_nan)
    values = gather(rows, -1, make(below))
    if interpolation == "linear" and q.requires_grad and grad_mode.is_grad_enabled():
        weights = _weights_of_q(q, rows, below, ignore_nan)
    if interpolation in ("linear", "midpoint"):  # v_below + w (v_above - v_below)
        values = inplace(values, special.lerp, gather(rows, -1, make(above)),
                         weights if is_tensor(weights) else make(weights))
    if q.ndim == 0:
        return shape.squeeze_(values, -1)
    return shape.squeeze_(shape.transpose_(shape.unsqueeze_(values, 0), 0, -1), -1)


def _broadcast(x, shape_):
    """``x`` expanded to ``shape_`` (itself if it has that shape, as broadcast_tensors)."""
    return x if tuple(x.shape) == tuple(shape_) else shape.expand(x, *shape_)


def _weights_of_q(q, rows, below, ignore_nan):
    """r - floor r written with ops of q, as PyTorch's graph has them (the same values
    as ``quantile_ranks``'), so that q's gradient is (v_above - v_below) (n - 1) G."""
    nan = make(rows._data != rows._data)
    if ignore_nan:
        counted = reduction.sum(make(~nan._data), -1, True) - 1
        ranks = arithmetic.mul(q, counted)
        ranks = pointwise.masked_fill(ranks, make(ranks._data < 0), 0)
    else:
        last = rows.shape[-1] - 1
        mask = reduction.any(nan, -1, True)
        ranks = arithmetic.scalar_op(q, "*", last)
        common = np.broadcast_shapes(tuple(ranks.shape), tuple(mask.shape))
        ranks = pointwise.masked_fill(_broadcast(ranks, common), _broadcast(mask, common), last)
    return arithmetic.sub(ranks, make(below))


def quantile(x, q, dim=None, keepdim=False, interpolation="linear"):
    """The ``q``-th quantiles of ``x`` (all of it, or along ``dim``); a row with NaN
    gives NaN."""
    return _quantile(x, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(x, q, dim=None, keepdim=False, interpolation="linear"):
    """``quantile`` of the values that are not NaN (NaN for a row of NaN only)."""
    return _quantile(x, q, dim, keepdim, interpolation, ignore_nan=True)
