"""Cumulative sums and products along a dim: ``cumsum``, ``cumprod``; running maxima and
minima, ``cummax``, ``cummin``; and the running log-sum-exp, ``logcumsumexp``.

y_i = x_1 + ... + x_i (or x_1 * ... * x_i). Each x_k reaches every y_j with
j >= k, so its gradient sums over those: for cumsum the upstream gradient summed
from the end (a reversed cumulative sum); for cumprod the same, each term times
the product of the other factors of y_j. PyTorch computes the gradient of a
product (``prod``) through ``cumprod`` too, so a second backward through ``prod``
shows ``CumprodBackward0``.

A running maximum y_i = max(x_1, ..., x_i) is one of the x_k: its gradient goes back to
that k, and an x_k that stays the maximum for several i gets the sum of their gradients.
The gradient of y_i = log(exp(x_1) + ... + exp(x_i)) with respect to x_k (k <= i) is
exp(x_k - y_i), the softmax of x_1 ... x_i at k.
"""

from __future__ import annotations

import numpy as np


from .. import dtypes
from ..autograd.tensor_base import make
from ..kernels import cumulative as kernels
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from . import fn
from ..rules.arguments import normalize_dim
from ..rules.math_dtypes import check_differentiable_dtype
from ._saved import as_shown
from ..rules.layout import with_contiguous_layout, with_reduction_layout
from . import indexing, inplace, reduction
from . import shape as shape_ops
from ..rules.return_types import return_type

__all__ = ["cumsum", "cumprod", "cumprod_backward", "cummax", "cummin", "logcumsumexp"]


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
        return kernels.cumprod(x, dim) if x.ndim else x.copy()

    def backward(self, saved, grad):
        return cumprod_backward(grad, saved.self, saved._dim, saved.result)


class CummaxBackward0(Node):
    formula = Formula("values_i", "max(x_1, ..., x_i) along dim",
                      grad={"x_k": "the sum of G_i over the i whose running max is x_k"})
    saves = {"self": Input(0)}

    def forward(self, x, dim, indices, given):
        self.save(dim=as_shown(given), _dim=dim, indices=indices)
        return np.take_along_axis(x, indices, axis=dim) if x.ndim else x.copy()

    def backward(self, saved, grad):
        return cummaxmin_backward(grad, saved.self, saved.indices, saved._dim)


class CumminBackward0(CummaxBackward0):
    formula = Formula("values_i", "min(x_1, ..., x_i) along dim",
                      grad={"x_k": "the sum of G_i over the i whose running min is x_k"})


class LogcumsumexpBackward0(Node):
    formula = Formula("y_i", "log(exp(x_1) + ... + exp(x_i)) along dim",
                      grad={"x_k": "sum over i >= k of G_i exp(x_k - y_i)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, dim, given):
        self.save(dim=as_shown(given), _dim=dim)
        return kernels.logcumsumexp(x, dim)

    def backward(self, saved, grad):
        return logcumsumexp_backward(grad, saved.self, saved.result, saved._dim)


def cummaxmin_backward(grad, x, indices, dim):
    """Zeros of x's shape with G added at the indices (torch's scatter_add_)."""
    if fn.as_array(x).size == 0:
        return x
    return fn.scatter_add(grad, x.shape, dim, indices)


def logcumsumexp_backward(grad, x, result, dim):
    """sum_{i >= k} G_i exp(x_k - y_i), as torch computes it without overflow: the positive
    and the negative G apart, each a reversed logcumsumexp of log|G_i| - y_i, plus x_k."""
    if grad.ndim == 0 or fn.as_array(grad).size == 0:
        return grad
    dtype = fn.as_array(grad).dtype
    lowest = fn.as_constant(np.asarray(np.finfo(dtype).min, dtype), grad)  # (in grad's dtype)
    log_abs_grad = fn.log(fn.abs(grad))
    positive = fn.where(fn.as_array(grad) > 0, log_abs_grad, lowest)
    negative = fn.where(fn.as_array(grad) < 0, log_abs_grad, lowest)
    output_positive = fn.exp(_reversed_logcumsumexp(positive - result, dim) + x)
    output_negative = fn.exp(_reversed_logcumsumexp(negative - result, dim) + x)
    return output_positive - output_negative


def _reversed_logcumsumexp(x, dim):
    flipped = fn.flip(x, (dim,))
    summed = logcumsumexp(flipped, dim) if fn.is_tensor(x) else kernels.logcumsumexp(flipped, dim)
    return fn.flip(summed, (dim,))


def cumsum_of(x, dim):
    """Cumulative sums (arrays) as torch's kernel adds them: in float64 for float32, from
    0 (a sum of negative zeros is +0; NumPy would start from the first element: -0)."""
    if x.ndim == 0:
        return x.copy()
    return kernels.cumsum(x, dim)


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


def _cumulative_dtype(x, dtype, name: str):
    """Integers and bools accumulate in int64, as in PyTorch (unless ``dtype``; not bool:
    PyTorch's kernel has none, though an empty or 0-dim input never reaches it)."""
    if dtype is dtypes.bool and x.numel() and x.ndim:
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')
    if dtype is not None:
        check_differentiable_dtype(x, dtype)
        return dtype
    return x.dtype if x.dtype.is_floating_point else dtypes.int64


def cumsum(x, dim, *, dtype=None):
    """``y_i = x_1 + ... + x_i`` along ``dim``."""
    return with_contiguous_layout(CumsumBackward0.apply(
        x, cast_to=_cumulative_dtype(x, dtype, "cumsum"), dim=normalize_dim(dim, x.ndim),
        given=dim))


def cumprod(x, dim, *, dtype=None):
    """``y_i = x_1 * ... * x_i`` along ``dim``."""
    return with_contiguous_layout(CumprodBackward0.apply(
        x, cast_to=_cumulative_dtype(x, dtype, "cumprod"), dim=normalize_dim(dim, x.ndim),
        given=dim))


def _named_pair(name):
    return return_type(name, ["values", "indices"])


CummaxResult, CumminResult = _named_pair("cummax"), _named_pair("cummin")


def cummax(x, dim):
    """``(values, indices)``: the running maximum along ``dim`` and where each came from."""
    return _running(CummaxBackward0, CummaxResult, kernels.cummax_indices, x, dim, "cummax")


def cummin(x, dim):
    """``(values, indices)``: the running minimum along ``dim`` and where each came from."""
    return _running(CumminBackward0, CumminResult, kernels.cummin_indices, x, dim, "cummin")


def _running(node_cls, result_cls, find, x, dim, name):
    # (PyTorch's checks: a 0-dim tensor's dim is -1 or 0; an empty tensor comes back
    # empty before its dim is looked at)
    if x.ndim == 0 and dim not in (-1, 0):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    inside = -max(x.ndim, 1) <= dim < max(x.ndim, 1)
    axis = normalize_dim(dim, x.ndim) if inside or x.numel() else 0
    indices = find(x._data, axis)
    values = node_cls.apply(x, dim=axis, indices=indices, given=dim)
    return with_reduction_layout(result_cls(values, make(indices)))


def logcumsumexp(x, dim):
    """``y_i = log(exp(x_1) + ... + exp(x_i))`` along ``dim``, without overflow."""
    axis = normalize_dim(dim, x.ndim)
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[x.dtype]}'")
    return with_contiguous_layout(LogcumsumexpBackward0.apply(x, dim=axis, given=dim))
