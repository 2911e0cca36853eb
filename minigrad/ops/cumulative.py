"""Cumulative sums and products along a dim: ``cumsum``, ``cumprod``.

y_i = x_1 + ... + x_i (or x_1 * ... * x_i). Each x_k reaches every y_j with
j >= k, so its gradient sums over those: for cumsum the upstream gradient summed
from the end (a reversed cumulative sum); for cumprod the same, each term times
the product of the other factors of y_j. PyTorch computes the gradient of a
product (``prod``) through ``cumprod`` too, so a second backward through ``prod``
shows ``CumprodBackward0``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..kernels import summation as kernels_summation
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from . import fn
from ..rules.arguments import normalize_dim
from ._saved import as_shown
from ..rules.layout import with_contiguous_layout
from . import indexing, inplace, reduction
from . import shape as shape_ops

__all__ = ["cumsum", "cumprod", "cumprod_backward"]


class CumsumBackward0(Node):
    formula = Formula("y_i", "x_1 + ... + x_i along dim",
                      grad={"x_k": "G_k + G_(k+1) + ... + G_n (summed from the end)"})

    def forward(self, x, dim, given=None):
        self.save(dim=as_shown(dim if given is None else given), _dim=dim)
        return cumsum_of(x, dim)

    def backward(self, saved, grad):
        return reversed_cumsum(grad, saved._dim)


class CumprodBackward0(Node):
    formula = Formula("y_i", "x_1 * ... * x_i along dim",
                      grad={"x_k": "sum over j >= k of G_j * (y_j without the factor x_k)"},
                      note=("y_j / x_k when no x is 0 (as torch computes it), else the "
                            "products of the other factors taken explicitly."))
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, dim, given=None):
        self.save(dim=as_shown(dim if given is None else given), _dim=dim)
        return kernels_summation.cumulative(x, dim, product=True) if x.ndim else x.copy()

    def backward(self, saved, grad):
        return cumprod_backward(grad, saved.self, saved._dim, saved.result)


def cumsum_of(x, dim):
    """Cumulative sums (arrays) as torch's kernel adds them, from 0 (a sum of
    negative zeros is +0.; NumPy would start from the first element: -0.), float32's
    in float64, float16's in float32 (torch's accumulate type)."""
    if x.ndim == 0:
        return x.copy()
    return kernels_summation.cumulative(x, dim)


def reversed_cumsum(x, dim):
    """Sums from the end along ``dim``: flip, cumulative sum, flip (torch's
    cumsum_backward; nothing to do for one element)."""
    if fn.as_array(x).size <= 1 or x.ndim == 0 or x.shape[dim] == 1:
        return x
    return fn.flip(fn.cumsum(fn.flip(x, (dim,)), dim), (dim,))


def cumprod_backward(grad, x, dim, output):
    """The gradient of y = cumprod(x) along ``dim``, as torch's cumprod_backward:
    without zeros sum_{j >= k} G_j y_j / x_k; with zeros, on arrays, torch's O(n)
    masks (before the first zero of a row: the same sum over j < z1; at the first
    zero: its own product; after it: 0); with zeros on Tensors (create_graph=True)
    the products of the other factors one position k at a time, written into
    zeros (``CopySlices``), so that the result can be differentiated again."""
    if fn.as_array(x).size <= 1 or x.ndim == 0 or x.shape[dim] == 1:
        return grad
    w = output * grad
    is_zero = fn.as_array(x) == 0
    if not is_zero.any():
        return reversed_cumsum(w, dim) / x
    if not fn.is_tensor(grad):
        return _cumprod_backward_with_zeros(grad, x, dim, output, w, is_zero)
    return _cumprod_backward_recorded(grad, x, dim)


def _cumprod_backward_with_zeros(grad, x, dim, output, w, is_zero):
    """Arrays: torch's O(n) formula, mask by mask (its values and signed zeros)."""
    grad_input = np.zeros(x.shape, grad.dtype)
    zeros_so_far = np.cumsum(is_zero, axis=dim)
    before = zeros_so_far == 0  # k < z1
    part = reversed_cumsum(np.where(before, w, 0).astype(w.dtype), dim) / x
    grad_input[before] = part[before]
    between = zeros_so_far == 1  # z1 <= k < z2
    first = np.argmax(between, axis=dim)[_keep(dim)]  # (0 when the row has no zero)
    at_first = np.zeros(x.shape, bool)
    np.put_along_axis(at_first, first, True, axis=dim)
    at_first &= between
    between &= ~at_first
    # dy_j / dx_z1 summed: prod(x[:z1]) * sum_{z1 <= j < z2} G_j prod(x[z1+1 : j+1])
    tail = np.cumprod(np.where(between, x, 1).astype(x.dtype), axis=dim)
    tail = (tail * np.where(zeros_so_far == 1, grad, 0)).sum(axis=dim, keepdims=True,
                                                              dtype=x.dtype)
    before_first = np.take_along_axis(output, np.maximum(first - 1, 0), axis=dim)
    before_first = np.where(first == 0, 1, before_first).astype(x.dtype)
    value = np.broadcast_to(tail * before_first, x.shape)
    grad_input[at_first] = value[at_first]
    return grad_input


def _keep(dim):
    return (slice(None),) * dim + (None,)


def _cumprod_backward_recorded(grad, x, dim):
    """Tensors (create_graph=True): torch's O(n^2) formula, which is differentiable
    again: for each k, sum_{j >= k} G_j prod(x[:k]) prod(x[k+1 : j+1])."""

    n = x.shape[dim]
    grad_input = fn.zeros(x.shape, grad)
    ones = shape_ops.expand(fn.zeros((1,), grad) + 1,
                  tuple(1 if d == dim else s for d, s in enumerate(x.shape)))
    for k in range(n):
        if k == 0:
            omitted = shape_ops.cat([ones, cumprod(fn.slice_part(x, dim, k + 1, None, 1), dim)], dim)
        elif k == n - 1:
            omitted = reduction.prod(fn.slice_part(x, dim, 0, k, 1), dim, keepdim=True)
        else:
            until_k = reduction.prod(fn.slice_part(x, dim, 0, k, 1), dim, keepdim=True)
            from_k_plus_1 = cumprod(fn.slice_part(x, dim, k + 1, None, 1), dim)
            omitted = shape_ops.expand(until_k, from_k_plus_1.shape) * from_k_plus_1
            omitted = shape_ops.cat([until_k, omitted], dim)
        grad_slice = reduction.sum(fn.slice_part(grad, dim, k, None, 1) * omitted, dim)
        inplace.inplace(indexing.select(grad_input, dim, k), inplace.copy, grad_slice)
    return grad_input


def _cumulative_dtype(x, dtype):
    """Integers and bools accumulate in int64, as in PyTorch (unless ``dtype``)."""
    if dtype is not None:
        return dtype
    return x.dtype if x.dtype.is_floating_point else dtypes.int64


def cumsum(x, dim, *, dtype=None):
    """``y_i = x_1 + ... + x_i`` along ``dim``."""
    return with_contiguous_layout(CumsumBackward0.apply(
        x, cast_to=_cumulative_dtype(x, dtype), dim=normalize_dim(dim, x.ndim), given=dim))


def cumprod(x, dim, *, dtype=None):
    """``y_i = x_1 * ... * x_i`` along ``dim``."""
    return with_contiguous_layout(CumprodBackward0.apply(
        x, cast_to=_cumulative_dtype(x, dtype), dim=normalize_dim(dim, x.ndim), given=dim))
