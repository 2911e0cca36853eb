"""Reductions: sum, mean, max, min, prod, var, std, norm, logsumexp, and the
softmax family (which reduce, then broadcast back).

Without ``dim`` a reduction covers every element (``SumBackward0``); with
``dim`` it covers those axes (``SumBackward1``), keeping them as size 1 when
``keepdim=True``. As in PyTorch, ``x.sum(dim=None)`` (or ``dim=()``) also
covers every element, but as a reduction with ``dim``: ``SumBackward1``,
which saves the ``dim`` it was given and takes ``keepdim``. Backward first
restores the reduced axes as size 1 (``_unsqueeze_reduced``) so the gradient
broadcasts back over them.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes, errors
from ..kernels.arithmetic import times
from ..kernels.summation import (mean_all, mean_axes, prod_axis, spread, spread_and_mean, sum_all,
                                 sum_axes)
from ..autograd.broadcast import broadcast_shapes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..autograd.tensor_base import is_tensor, make
from ..rules.layout import with_reduction_layout
from ..rules.linalg import check_norm_identity
from ..rules.math_dtypes import check_differentiable_dtype
from ..rules.promotion import float_dtype_for
from . import arithmetic, fn, pointwise
from ..rules.arguments import (check_logsumexp_dims, check_sub, normalize_dim, normalize_dims,
                              warn_degrees_of_freedom)
from ._saved import as_shown
from . import shape as shape_ops
from .split import several_outputs
from ..autograd.packing import keep
from ..autograd.saved import show_saved
from ..kernels import layout, linalg as kernels_linalg, softmax as kernels_softmax
from ..kernels import vec as kernels_vec
from ..rules.return_types import return_type

__all__ = ["sum", "mean", "max", "min", "prod", "var", "std", "norm", "aten_norm", "dist",
           "safe_softmax",
           "logsumexp", "softmax", "log_softmax", "argmax", "argmin", "all", "any", "nansum",
           "nanmean", "var_mean", "std_mean"]

_builtin_sum, _builtin_max, _builtin_min, _builtin_all = sum, max, min, all


def _unsqueeze_reduced(grad, shape, axes, keepdim):
    """Give ``grad`` size-1 axes where the reduction along ``axes`` removed them (one
    ``unsqueeze`` each, as torch does, also back from 0 dims when every axis was
    named; nothing to do for a 0-dim input)."""
    if keepdim or not axes or not shape:
        return grad
    for axis in axes:
        grad = fn.unsqueeze(grad, axis)
    return grad


class SumBackward0(Node):
    formula = Formula("y",
                      "sum of all x",
                      d={"x_i": "1"},
                      note="So the gradient is spread to every element.")

    def forward(self, x):
        self.save(self_sym_sizes=x.shape)
        return np.asarray(sum_all(x))

    def backward(self, saved, grad):
        return fn.expand(grad, saved.self_sym_sizes)


class SumBackward1(Node):
    formula = Formula("y", "sum of x over dim", d={"x_i": "1"}, note="For each x_i in the sum.")

    def forward(self, x, dim, keepdim):
        axes = _reduced_axes(dim, x.ndim)
        self.save(dim=_saved_dims(dim), _axes=axes, keepdim=keepdim, self_sym_sizes=x.shape,
                  _single=dim[0] if dim is not None and len(dim) == 1 else None)
        return sum_axes(x, axes or range(x.ndim), keepdim)  # (in torch's order, where it applies)

    def backward(self, saved, grad):
        shape = saved.self_sym_sizes
        if saved._single is not None and not saved.keepdim and shape:
            grad = fn.unsqueeze(grad, saved._single)  # (one dim: as given, as torch's)
        else:
            grad = _unsqueeze_reduced(grad, shape, saved._axes, saved.keepdim)
        return fn.expand(grad, shape)


class MeanBackward0(Node):
    formula = Formula("y", "mean of all n elements of x", d={"x_i": "1/n"})

    def forward(self, x):
        self.save(self_sym_sizes=x.shape, self_sym_numel=x.size)
        return mean_all(x)

    def backward(self, saved, grad):
        return fn.expand(grad, saved.self_sym_sizes) / saved.self_sym_numel


class MeanBackward1(Node):
    formula = Formula("y", "mean of x over dim (n elements each)", d={"x_i": "1/n"})

    def forward(self, x, dim, keepdim):
        axes = _reduced_axes(dim, x.ndim)
        self.save(dim=_saved_dims(dim), _axes=axes, keepdim=keepdim, self_sym_sizes=x.shape,
                  self_sym_numel=x.size)
        if x.size == 0:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # the mean of nothing is nan
                return np.asarray(np.mean(x, axis=axes or None, keepdims=keepdim, dtype=x.dtype))
        return mean_axes(x, axes or range(x.ndim), keepdim)  # (torch's sum, then / n)

    def backward(self, saved, grad):
        shape, axes = saved.self_sym_sizes, saved._axes
        count = int(np.prod([shape[d] for d in axes], dtype=np.int64)) if axes \
            else saved.self_sym_numel
        grad = _unsqueeze_reduced(grad, shape, axes, saved.keepdim)
        return fn.expand(grad, shape) / count


def evenly_distribute(grad, x, value):
    """The gradient of max()/min(): shared equally by the elements equal to the
    result (by the NaNs, when the result is NaN)."""
    hits = (x != x) if bool((value != value).item()) else (x == value)
    return fn.masked_fill_(fn.zeros(x.shape, grad), hits, grad / fn.count(hits, like=grad))


class MaxBackward1(Node):
    formula = Formula("y",
                      "max of all x",
                      grad={"x": "G at the maximal elements (split evenly on ties), 0 elsewhere"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return kernels_vec.max_all(x)

    def backward(self, saved, grad):
        return evenly_distribute(grad, saved.self, saved.result)


class MinBackward1(Node):
    formula = Formula("y",
                      "min of all x",
                      grad={"x": "G at the minimal elements (split evenly on ties), 0 elsewhere"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return kernels_vec.min_all(x)

    def backward(self, saved, grad):
        return evenly_distribute(grad, saved.self, saved.result)


class _ArgReduceBackward(Node):
    """Shared by max(dim) and min(dim): the gradient goes to the index chosen."""

    pick = staticmethod(np.argmax)

    def forward(self, x, dim, keepdim, given=None):
        shown = as_shown(dim if given is None else given)  # (see _saved.py)
        if x.ndim == 0:  # a 0-dim tensor is its own maximum, at index 0
            self.indices = np.zeros((), np.int64)
            self.save(dim=shown, _dim=dim, keepdim=keepdim, indices=self.indices,
                      self_sym_sizes=x.shape)
            return x.copy()
        indices = np.expand_dims(self.pick(x, axis=dim), dim)
        values = np.take_along_axis(x, indices, axis=dim)
        if not keepdim:
            values, indices = values.squeeze(dim), indices.squeeze(dim)
        self.indices = indices
        self.save(dim=shown, _dim=dim, keepdim=keepdim, indices=indices, self_sym_sizes=x.shape)
        return values

    def backward(self, saved, grad):
        shape = saved.self_sym_sizes
        return fn.value_selecting_backward(grad, saved._dim, saved.indices, shape,
                                           saved.keepdim)


def scatter_of(src, shape, dim, indices, into=None):
    """Zeros of ``shape`` (or a copy of ``into``) with ``src`` written at ``indices``
    along ``dim`` (arrays)."""
    out = np.zeros(shape, src.dtype) if into is None else into.copy()
    if not out.ndim:  # (a 0-dim tensor: its one element, at index 0: src's first)
        out[()] = src.reshape(-1)[0] if np.ndim(src) and np.size(src) else src
        return out
    indices = np.asarray(indices)
    if indices.shape != src.shape:  # (src may be larger than indices: its first part)
        src = src[tuple(slice(0, n) for n in indices.shape)]
    places = list(np.indices(indices.shape, sparse=True))  # (indices may be smaller than out)
    places[dim] = indices
    out[tuple(places)] = src
    return out


class ScatterBackward0(Node):
    formula = Formula("z", "x.scatter(dim, indices, src)",
                      grad={"x": "G with 0 at the places written",
                            "src": "G read back at indices along dim (a gather)"},
                      note="Also how the backward of max(dim) and min(dim) is recorded by a "
                           "backward with create_graph=True (x: zeros).")

    # (inputs as torch's: the tensor written into, then src)
    def forward(self, x, src, dim, indices):
        self.save(dim=as_shown(dim), _dim=dim, index=np.asarray(indices))
        return scatter_of(src, x.shape, dim, indices, into=x)

    def backward(self, saved, grad):
        written = fn.scatter_value(grad, saved._dim, saved.index, 0) \
            if self.needs_input_grad[0] else None
        return written, fn.gather(grad, saved._dim, saved.index)


class MaxBackward0(_ArgReduceBackward):
    formula = Formula("values",
                      "max(x, dim)",
                      grad={"x": "G at the chosen index, 0 elsewhere"},
                      note="Also returns indices.")

    pick = staticmethod(np.argmax)


class MinBackward0(_ArgReduceBackward):
    formula = Formula("values",
                      "min(x, dim)",
                      grad={"x": "G at the chosen index, 0 elsewhere"},
                      note="Also returns indices.")

    pick = staticmethod(np.argmin)


class ProdBackward0(Node):
    formula = Formula("y",
                      "product of all x",
                      d={"x_i": "product of the others"},
                      note=("y / x_i when no x is 0 (as torch computes it), else the product of "
                            "the others, from cumulative products (cumprod) from both ends."))
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return prod_axis(x)

    def backward(self, saved, grad):
        # (torch's prod_backward)
        x = saved.self
        if x.ndim == 0:
            return grad
        zeros = int((fn.as_array(x) == 0).sum())
        if zeros == 0:
            return grad * (saved.result / x)
        if zeros > 1 and not fn.is_tensor(grad):  # every product of the others has a 0
            return fn.zeros(x.shape, grad)
        flat = fn.reshape(fn.contiguous(x), (-1,))
        return fn.reshape(_prod_safe_zeros_backward(grad, flat, 0), x.shape)


class ProdBackward1(Node):
    formula = Formula("y", "product of x along dim", d={"x_i": "product of the others along dim"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, dim, keepdim, given=None):
        result = prod_axis(x, dim, keepdim)
        self.save(dim=as_shown(dim if given is None else given), _dim=dim, keepdim=keepdim)
        return result

    def backward(self, saved, grad):
        x = saved.self
        if x.ndim == 0:
            return grad
        dim, keepdim = saved._dim, saved.keepdim
        grad = _unsqueeze_reduced(grad, x.shape, (dim,), keepdim)
        result = _unsqueeze_reduced(saved.result, x.shape, (dim,), keepdim)
        if not bool((fn.as_array(x) == 0).any()):  # as torch: divide when no factor is 0
            return grad * (result / x)
        return _prod_safe_zeros_backward(grad, x, dim)


def _prod_safe_zeros_backward(grad, x, dim):
    """G times the product of the other elements along ``dim``, safe with zeros
    (torch's prod_safe_zeros_backward): exclusive cumulative products from the left
    and from the right.  [a, b, c] -> [1, a, a*b] * [b*c, c, 1]."""
    if fn.as_array(x).size == 0:
        return fn.expand(grad, x.shape)
    n = x.shape[dim]
    if n == 1:
        return grad
    ones = fn.zeros(tuple(1 if d == dim else s for d, s in enumerate(x.shape)), grad) + 1
    left = fn.cumprod(fn.cat([ones, fn.narrow(x, dim, 0, n - 1)], dim), dim)
    right = fn.flip(fn.cumprod(fn.cat([ones, fn.flip(fn.narrow(x, dim, 1, n - 1), (dim,))], dim),
                               dim), (dim,))
    return grad * (left * right)


def _var_backward(grad, x, dim, correction, keepdim, counted=None):
    """d var / dx = 2 (x - mean) / (n - correction), as torch computes it: over all
    elements (``dim`` None) with n - correction <= 0 the answer is nan where x equals
    the mean and inf elsewhere; along ``dim`` the division by n - correction happens
    as written (so n == correction gives inf * 0 = nan). ``counted``: the dims n counts
    when not ``dim``: torch counts the dims as given, and none given (``x.var(())``,
    every dim in forward) makes n 1."""
    if dim is None or x.ndim == 0:
        dof = int(np.prod(x.shape, dtype=np.int64)) - correction
        if dof <= 0:
            return grad * fn.where(x == fn.mean(x), float("nan"), float("inf"))
        centered = x - fn.mean(x)  # (first: C++ evaluates the right operand first)
        return times(grad, 2.0 / dof) * centered  # (a half times a float32 number, as torch)
    dof = int(np.prod([x.shape[d] for d in (dim if counted is None else counted)],
                      dtype=np.int64)) - correction
    if x.ndim > 1:  # (torch's rule here: a 1-dim x's 0-dim gradient broadcasts as it is)
        grad = _unsqueeze_reduced(grad, x.shape, dim, keepdim)
    factor = 2.0 / dof if dof else float("inf")
    centered = x - fn.mean(x, dim, keepdim=True)  # (first, as C++ evaluates it)
    return times(grad, factor) * centered


class VarBackward0(Node):
    formula = Formula("y",
                      "sum((x - mean)**2) / (n - correction)",
                      d={"x_i": "2 (x_i - mean) / (n - correction)"})
    saves = {"self": Input(0)}

    def forward(self, x, dim, correction, keepdim, shown=None):
        self.save(dim=dim if shown is None else shown[0], _dim=dim, keepdim=keepdim,
                  correction=correction if shown is None else shown[1], _correction=correction,
                  _counted=() if shown is not None and shown[0] == () else None)
        warn_degrees_of_freedom("var", x, dim, correction)
        return spread(x, dim, correction, keepdim, root=False)

    def backward(self, saved, grad):
        return _var_backward(grad, saved.self, saved._dim, saved._correction,
                             saved.keepdim, saved._counted)


class StdBackward0(Node):
    formula = Formula("y",
                      "sqrt(var(x))",
                      d={"x": "d var/dx / (2 y)"},
                      note="Taken as 0 where y == 0.")
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, dim, correction, keepdim, shown=None):
        warn_degrees_of_freedom("std", x, dim, correction)
        result = spread(x, dim, correction, keepdim, root=True)
        self.save(dim=dim if shown is None else shown[0], _dim=dim, keepdim=keepdim,
                  correction=correction if shown is None else shown[1], _correction=correction,
                  _counted=() if shown is not None and shown[0] == () else None)
        return result

    def backward(self, saved, grad):
        result = saved.result
        grad_var = fn.masked_fill_(grad / (result * 2), result == 0, 0)
        return _var_backward(grad_var, saved.self, saved._dim,
                             saved._correction, saved.keepdim, saved._counted)


class LinalgVectorNormBackward0(Node):
    formula = Formula("y",
                      "(sum |x_i|**p)**(1/p)",
                      d={"x_i": "sign(x_i) |x_i|**(p-1) / y**(p-1)"},
                      note=("p = 1: sign(x_i); p = 2: x_i / y; p = inf: split between the "
                            "largest |x_i| (p = -inf: the smallest); p = 0 counts the "
                            "nonzeros: 0. Taken as 0 where y == 0, as in torch."))
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, ord, dim, keepdim, every_dim=False, shown=None):
        # (every_dim: no dim was given; torch then shows _saved_dim None, and the
        # gradient broadcasts without unsqueezing; ord and dim are shown as given:
        # ``x.norm()`` shows ord 2, an int)
        self.save(ord=ord if shown is None else shown[0], _ord=ord, keepdim=keepdim, _axes=dim,
                  dim=None if every_dim else (dim if shown is None else shown[1]))
        return kernels_linalg.vector_norm(x, ord, dim, keepdim,
                                          over_a_dim=bool(shown and shown[1]))

    def backward(self, saved, grad):
        x, norm = saved.self, saved.result
        if saved.dim is not None:
            norm = _unsqueeze_reduced(norm, x.shape, saved._axes, saved.keepdim)
            grad = _unsqueeze_reduced(grad, x.shape, saved._axes, saved.keepdim)
        return vector_norm_backward_of(grad, x, norm, saved._ord, saved._axes, saved.keepdim)


class NormBackward1(LinalgVectorNormBackward0):
    # ``at::norm(x, p, dim)``, the node of ATen's own callers (pairwise_distance): the
    # vector norm with its ``p`` saved as ``_saved_p`` (a float)

    def forward(self, x, p, dim, keepdim, over_a_dim=True):
        self.save(p=float(p), _ord=float(p), keepdim=keepdim, _axes=dim, dim=as_shown(dim))
        return kernels_linalg.vector_norm(x, float(p), dim, keepdim, over_a_dim)


class NormBackward0(LinalgVectorNormBackward0):
    # ``at::norm(x, p)``: of all the elements (norm_except_dim's dim=-1)

    def forward(self, x, p):
        every = tuple(range(x.ndim))
        self.save(p=p, _ord=float(p), _axes=every)  # (p as given: torch keeps the Scalar)
        return kernels_linalg.vector_norm(x, float(p), every, False)

    def backward(self, saved, grad):
        return vector_norm_backward_of(grad, saved.self, saved.result, saved._ord, saved._axes,
                                       False)


def aten_norm(x, p, dim=None, keepdim=False):
    """The p-norm over ``dim`` recorded as NormBackward1 (C++'s ``at::norm``); without
    ``dim``, of all the elements, NormBackward0."""
    if dim is None:
        return NormBackward0.apply(x, p=p)
    return NormBackward1.apply(x, p=p, dim=normalize_dims(dim, x.ndim), keepdim=keepdim,
                               over_a_dim=dim not in ((), []))


def vector_norm_backward_of(grad, x, norm, p, dim, keepdim):
    """The gradient of the p-norm, one case per p as torch's norm_backward writes it
    (``norm`` and ``grad`` already broadcast against ``x``)."""
    if p == 0:
        # Counting nonzeros is piecewise constant: no gradient at all, as in PyTorch.
        return None
    if p == 1:
        return fn.sgn(x) * grad
    if p == 2:
        return grad * fn.masked_fill_(x / norm, norm == 0, 0)
    if p in (float("inf"), -float("inf")):
        magnitude = fn.abs(x)  # (the largest |x_i|, or the smallest; NaNs count as both)
        hits = (magnitude == norm) | (magnitude != magnitude)
        return fn.sgn(x) * ((grad / fn.count(hits, dim, keepdim=True, like=grad)) * hits)
    if p < 1:
        scaled = fn.sgn(x) * fn.masked_fill_(fn.pow(fn.abs(x), p - 1), x == 0, 0)
        return scaled * grad * fn.pow(norm, 1 - p)
    scaled = fn.sgn(x) * fn.pow(fn.abs(x), p - 1) if p < 2 else \
        x * fn.pow(fn.abs(x), p - 2)
    return scaled * fn.masked_fill_(grad / fn.pow(norm, p - 1), norm == 0, 0)


class DistBackward0(Node):
    formula = Formula("y", "||x - other||_p = (sum |v_i|**p)**(1/p), v = x - other",
                      d={"x_i": "sign(v_i) |v_i|**(p-1) / y**(p-1)",
                         "other_i": "-sign(v_i) |v_i|**(p-1) / y**(p-1)"})
    saves = {"self": Input(0), "other": Input(1), "result": RESULT}

    def forward(self, x, other, p):
        self.save(p=p)
        return kernels_linalg.vector_norm(x - other, float(p), None, False)

    def backward(self, saved, grad):
        def norm_backward():  # (once for each input that needs it, other's first: torch's)
            return vector_norm_backward_of(grad, saved.self - saved.other, saved.result,
                                           float(saved.p), None, False)
        grad_other = norm_backward() if self.needs_input_grad[1] else None
        if grad_other is None and self.needs_input_grad[1]:  # (p = 0: none to negate)
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined "
                               "Tensor in C++) for argument #0 'self'")
        grad_other = None if grad_other is None else -grad_other
        return norm_backward() if self.needs_input_grad[0] else None, grad_other


class LogsumexpBackward0(Node):
    formula = Formula("y", "log(sum exp(x)) over dim", d={"x_i": "exp(x_i - y) (the softmax)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, dim, keepdim, given=None):
        result = kernels_softmax.logsumexp(x, dim, keepdim)
        self.save(dim=as_shown(dim if given is None else given), _dim=dim, keepdim=keepdim)
        return result

    def backward(self, saved, grad):
        x, dim, keepdim = saved.self, saved._dim, saved.keepdim
        result = _unsqueeze_reduced(saved.result, x.shape, dim, keepdim)
        grad = _unsqueeze_reduced(grad, x.shape, dim, keepdim)
        return grad * fn.exp(x - result)


class SoftmaxBackward0(Node):
    formula = Formula("y_i",
                      "exp(x_i) / sum_j exp(x_j) over dim",
                      grad={"x": "y * (G - sum(G * y))"})
    saves = {"result": RESULT}

    def forward(self, x, dim, given=None):
        result = _row_major(kernels_softmax.softmax(x, dim))
        self.save(dim=as_shown(dim if given is None else given), _dim=dim)
        return result

    def backward(self, saved, grad):
        return fn.softmax_backward_data(grad, saved.result, saved._dim)


class SafeSoftmaxBackward0(Node):
    formula = Formula("y_i", "softmax(x)_i, or 0 where every x_j of the slice is -inf",
                      grad={"x": "y * (G - sum(G * y))"},
                      note="scaled_dot_product_attention's math path (ATen's _safe_softmax).")
    saves = {"result": RESULT}

    def forward(self, x, dim, given):
        self.save(dim=as_shown(given), _given=given)  # (shown as given: torch's -1)
        return _row_major(kernels_softmax.safe_softmax(x, dim))

    def backward(self, saved, grad):  # (the dim as given: PyTorch's formula passes it on)
        return fn.softmax_backward_data(grad, saved.result, saved._given)


def _row_major(array: np.ndarray) -> np.ndarray:
    """An empty result with torch's row-major strides (NumPy gives it strides of 0);
    any other as it is."""
    if array.size:
        return array
    return layout.empty_strided(array.shape, layout.contiguous_strides(array.shape),
                                 array.dtype)


def softmax_backward_data_of(grad, y, dim):
    """y * (grad - sum(grad * y)): the gradient of y = softmax(x) over dim (arrays)."""
    return _row_major(kernels_softmax.softmax_backward_data(grad, y, dim))


class SoftmaxBackwardDataBackward0(Node):
    formula = Formula("z", "softmax_backward_data(grad, y) = y * (grad - sum(grad * y))",
                      grad={"grad": "softmax_backward_data(G, y)",
                            "y": "grad * G - sum(y * grad) * G - grad * sum(y * G)"},
                      note="softmax's derivative as an operation, recorded by a backward "
                           "with create_graph=True (sums over dim).")
    saves = {"grad_output": Input(0), "output": Input(1)}

    def forward(self, grad, y, dim):
        self.save(dim=as_shown(dim), _dim=dim)  # (as given: a negative dim as C++ keeps it)
        return softmax_backward_data_of(grad, y, dim)

    def backward(self, saved, grad):
        grad_output, y, dim = saved.grad_output, saved.output, saved._dim
        grad_grad = fn.softmax_backward_data(grad, y, dim) if self.needs_input_grad[0] else None
        grad_y = None
        if self.needs_input_grad[1]:
            # a - b - c, its terms made as C++ evaluates them: c, then b, then a
            c = grad_output * fn.sum(y * grad, dim, keepdim=True)
            b = fn.sum(y * grad_output, dim, keepdim=True) * grad
            a = grad_output * grad
            grad_y = a - b - c
        return grad_grad, grad_y


class LogSoftmaxBackward0(Node):
    formula = Formula("y_i", "x_i - logsumexp(x) over dim", grad={"x": "G - softmax(x) * sum(G)"})
    saves = {"result": RESULT}

    def forward(self, x, dim, given=None):
        result = _row_major(kernels_softmax.log_softmax(x, dim))
        self.save(dim=as_shown(dim if given is None else given), _dim=dim)
        return result

    def backward(self, saved, grad):
        return fn.log_softmax_backward_data(grad, saved.result, saved._dim)


def log_softmax_backward_data_of(grad, y, dim):
    """grad - exp(y) * sum(grad): the gradient of y = log_softmax(x) over dim (arrays)."""
    return _row_major(kernels_softmax.log_softmax_backward_data(grad, y, dim))


class LogSoftmaxBackwardDataBackward0(Node):
    formula = Formula("z", "log_softmax_backward_data(grad, y) = grad - exp(y) * sum(grad)",
                      grad={"grad": "G - sum(G * exp(y))", "y": "-sum(grad) * exp(y) * G"},
                      note="log_softmax's derivative as an operation, recorded by a backward "
                           "with create_graph=True (sums over dim).")
    saves = {"grad_output": Input(0), "output": Input(1)}

    def forward(self, grad, y, dim):
        self.save(dim=dim)
        return log_softmax_backward_data_of(grad, y, dim)

    def backward(self, saved, grad):
        grad_output, y, dim = saved.grad_output, saved.output, saved.dim
        grad_grad = grad - fn.sum(grad * fn.exp(y), dim, keepdim=True) \
            if self.needs_input_grad[0] else None
        grad_y = None
        if self.needs_input_grad[1]:
            exp_y = fn.exp(y)  # (first, as C++ evaluates -sum * exp(y) * grad)
            grad_y = -fn.sum(grad_output, dim, keepdim=True) * exp_y * grad
        return grad_grad, grad_y


# ---- public functions -------------------------------------------------------

def _accumulate_dtype(x, dtype):
    """sum/prod of integers and bools give int64, as in PyTorch."""
    if dtype is not None:
        check_differentiable_dtype(x, dtype)
        return dtype
    return x.dtype if x.dtype.is_floating_point else dtypes.int64


class _NotGiven:
    """The default of ``dim`` in ``sum()``, ``mean()``, ``var()`` and ``std()``: no ``dim`` given. PyTorch
    tells ``x.sum()`` (``SumBackward0``) from ``x.sum(None)`` (``SumBackward1``, every
    dim, with ``keepdim``), so ``None`` cannot be the default."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<not given>"


NOT_GIVEN = _NotGiven()


def _given_dims(dim):
    """``dim`` as given to sum() or mean(): None, or a tuple of ints (from an int, a
    one-element integer tensor, or a list of them; empty means every dim)."""
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(int(d) for d in dim)
    return (int(dim),)


def _reduced_axes(dim, ndim: int) -> tuple:
    """The axes a reduction over ``dim`` (as ``_given_dims`` gives it) covers, sorted;
    () when ``dim`` is None or empty (every axis: nothing to unsqueeze in backward)."""
    return normalize_dims(dim, ndim) if dim else ()


def _saved_dims(dim):
    """``dim`` as PyTorch's node saves it: as given, in its order, a negative dim as
    the unsigned 64-bit number C++ stores (``x.sum(-1)`` saves 18446744073709551615)."""
    return None if dim is None else tuple(d % 2**64 for d in dim)


def _checked_dims(x, dim):
    """``dim`` checked against x's dims (before a dtype= is: PyTorch's order)."""
    if dim is not NOT_GIVEN and dim is not None:
        normalize_dims(_given_dims(dim), x.ndim)


def sum(x, dim=NOT_GIVEN, keepdim=False, *, dtype=None):
    """Sum of all elements, or along ``dim`` (an int or a tuple of ints)."""
    _checked_dims(x, dim)
    cast = _accumulate_dtype(x, dtype)
    if dim is NOT_GIVEN:
        return SumBackward0.apply(x, cast_to=cast)
    return with_reduction_layout(SumBackward1.apply(x, cast_to=cast, dim=_given_dims(dim),
                                                    keepdim=keepdim))


def mean(x, dim=NOT_GIVEN, keepdim=False, *, dtype=None):
    """Average of all elements, or along ``dim``. Floating point only."""
    cast = dtype or x.dtype
    if not cast.is_floating_point:
        raise RuntimeError(
            f"mean(): could not infer output dtype. {'Optional' if dtype else 'Input'} dtype "
            f"must be either a floating point or complex dtype. Got: {dtypes.SCALAR_NAMES[cast]}")
    if dim is NOT_GIVEN:
        return MeanBackward0.apply(x, cast_to=cast)
    return with_reduction_layout(MeanBackward1.apply(x, cast_to=cast, dim=_given_dims(dim),
                                                     keepdim=keepdim))


_MaxResult = return_type("max", ["values", "indices"])
_MinResult = return_type("min", ["values", "indices"])


def _check_nonempty(x, name):
    if x.numel() == 0:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )


def max(x, dim=None, keepdim=False):
    """The largest element; with ``dim``, ``(values, indices)`` along it.
    ``max(a, b)`` with two tensors is ``maximum``."""
    if is_tensor(dim):
        return pointwise.maximum(x, dim)
    if dim is None:
        _check_nonempty(x, "max")
        return MaxBackward1.apply(x)
    return _arg_reduce(MaxBackward0, _MaxResult, x, dim, keepdim)


def min(x, dim=None, keepdim=False):
    """The smallest element; with ``dim``, ``(values, indices)`` along it."""
    if is_tensor(dim):
        return pointwise.minimum(x, dim)
    if dim is None:
        _check_nonempty(x, "min")
        return MinBackward1.apply(x)
    return _arg_reduce(MinBackward0, _MinResult, x, dim, keepdim)


def _arg_reduce(node_cls, result_cls, x, dim, keepdim):
    given, dim = dim, normalize_dim(dim, x.ndim)
    _check_dim_nonempty(x, dim, "max" if result_cls is _MaxResult else "min")
    values = node_cls.apply(x, dim=dim, keepdim=keepdim, given=given)
    if values.grad_fn is not None:
        indices = values.grad_fn.indices
    elif x.ndim == 0:
        indices = np.zeros((), np.int64)
    else:  # not recorded: recompute the indices
        picker = np.argmax if node_cls is MaxBackward0 else np.argmin
        indices = picker(x._data, axis=dim)
        if keepdim:
            indices = np.expand_dims(indices, dim)
    return with_reduction_layout(result_cls(values, make(np.asarray(indices, np.int64))))


def prod(x, dim=None, keepdim=False, *, dtype=None):
    _checked_dims(x, dim)
    cast = _accumulate_dtype(x, dtype)
    if dim is None:
        return ProdBackward0.apply(x, cast_to=cast)
    return with_reduction_layout(ProdBackward1.apply(
        x, cast_to=cast, dim=normalize_dim(dim, x.ndim), keepdim=keepdim, given=dim))


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def _shown_var_arguments(dim, unbiased, correction) -> tuple:
    """``dim`` and ``correction`` as torch's VarBackward0/StdBackward0 show them: the dims
    as given; no correction (None) when neither dim (not even None), unbiased nor
    correction is given (``x.var()``, ``x.var(keepdim=True)``: torch's overloads
    without one), else the correction used (``x.var(None)`` shows 1)."""
    if dim is NOT_GIVEN:
        if correction is None and unbiased is None:
            return None, None
        dim = None
    if dim is not None:
        dim = as_shown(dim if isinstance(dim, (tuple, list)) else (dim,))
    return dim, _correction(unbiased, correction)


def _check_var_dtype(x):
    if not x.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")


def var(x, dim=NOT_GIVEN, unbiased=None, keepdim=False, *, correction=None):
    """Variance (Bessel-corrected by default: divides by n - 1)."""
    if isinstance(dim, bool):  # var(unbiased) positional form
        dim, unbiased = None, dim
    _check_var_dtype(x)
    return with_reduction_layout(VarBackward0.apply(
        x, dim=None if dim is None or dim is NOT_GIVEN else normalize_dims(dim, x.ndim),
        correction=_correction(unbiased, correction), keepdim=keepdim,
        shown=_shown_var_arguments(dim, unbiased, correction)))


def std(x, dim=NOT_GIVEN, unbiased=None, keepdim=False, *, correction=None):
    """Standard deviation (Bessel-corrected by default)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    _check_var_dtype(x)
    return with_reduction_layout(StdBackward0.apply(
        x, dim=None if dim is None or dim is NOT_GIVEN else normalize_dims(dim, x.ndim),
        correction=_correction(unbiased, correction), keepdim=keepdim,
        shown=_shown_var_arguments(dim, unbiased, correction)))


def norm(x, p="fro", dim=None, keepdim=False):
    """The vector p-norm over all elements or over ``dim`` (``fro`` = 2)."""
    if p == "fro" and dim is not None and not isinstance(dim, int) and len(dim) > 2:
        # torch.norm sends this case to matrix_norm, which takes exactly two dims
        raise RuntimeError(
            f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    ord = 2.0 if p in ("fro", None) else float(p)
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {dtypes.SCALAR_NAMES[x.dtype]}"
        )
    check_norm_identity(x, ord, None if dim is None else
                        tuple(dim) if isinstance(dim, (tuple, list)) else (dim,))
    shown = (2 if p in ("fro", None) else p,
             None if dim is None else as_shown(dim if isinstance(dim, (tuple, list)) else (dim,)))
    return with_reduction_layout(LinalgVectorNormBackward0.apply(
        x, ord=ord, dim=normalize_dims(dim, x.ndim), keepdim=keepdim, every_dim=dim is None,
        shown=shown))


def dist(x, other, p=2):
    """The p-norm of x - other (broadcast), over all elements."""
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"dist(): argument 'p' must be Number, not {type(p).__name__}")
    check_sub(x, other)  # (torch computes x - other first: bools refused so, before shapes)
    broadcast_shapes(x.shape, other.shape)  # (torch's text for shapes that do not fit)
    dtype = dtypes.result_type(x, other)  # (a 0-dim other keeps x's float dtype)
    if not dtype.is_floating_point:
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {dtypes.SCALAR_NAMES[dtype]} instead.")
    return DistBackward0.apply(x, other, cast_to=dtype, p=p)


def logsumexp(x, dim, keepdim=False):
    """log(sum(exp(x))) along ``dim``, computed without overflow."""
    check_logsumexp_dims(x, dim, keepdim)
    return with_reduction_layout(LogsumexpBackward0.apply(
        x, cast_to=float_dtype_for(x.dtype), dim=normalize_dims(dim, x.ndim), keepdim=keepdim,
        given=dim if isinstance(dim, (tuple, list)) else (dim,)))


def _integers_run_no_kernel(name, x, dim, dtype) -> bool:
    """torch's softmax kernels exist for floating point types only; an empty integer or
    bool tensor runs none and comes back as it is (True: return an empty copy)."""
    target = dtype or x.dtype
    if target.is_floating_point:
        return False
    if x.numel() == 0:
        return True
    kernel = "lastdim_kernel_impl" if dim == x.ndim - 1 or x.ndim == 0 else "kernel_impl"
    raise NotImplementedError(
        f'"{name}_{kernel}" not implemented for \'{dtypes.SCALAR_NAMES[target]}\'')


def softmax(x, dim, dtype=None):
    """exp(x) normalised to sum to 1 along ``dim``."""
    given, dim = dim, normalize_dim(dim, x.ndim)
    if _integers_run_no_kernel("softmax", x, dim, dtype):
        return make(layout.empty_strided(x.shape, layout.contiguous_strides(x.shape),
                                         (dtype or x.dtype).numpy))
    if dtype is not None:  # (as torch: converted first, a ToCopyBackward0 in the graph)
        x = shape_ops.to_dtype(x, dtype)
    return SoftmaxBackward0.apply(x, dim=dim, given=given)


def safe_softmax(x, dim: int):
    """softmax along ``dim``; a slice that is all -inf gives zeros (not NaN)."""
    return SafeSoftmaxBackward0.apply(x, dim=normalize_dim(dim, x.ndim), given=dim)


def log_softmax(x, dim, dtype=None):
    """log(softmax(x)) along ``dim``, computed stably."""
    given, dim = dim, normalize_dim(dim, x.ndim)
    if _integers_run_no_kernel("log_softmax", x, dim, dtype):
        return make(layout.empty_strided(x.shape, layout.contiguous_strides(x.shape),
                                         (dtype or x.dtype).numpy))
    if dtype is not None:  # (as torch: converted first, a ToCopyBackward0 in the graph)
        x = shape_ops.to_dtype(x, dtype)
    return LogSoftmaxBackward0.apply(x, dim=dim, given=given)


def argmax(x, dim=None, keepdim=False):
    """Index of the largest element (of the flattened tensor when ``dim`` is None)."""
    return _index_of(np.argmax, "argmax", x, dim, keepdim)


def argmin(x, dim=None, keepdim=False):
    return _index_of(np.argmin, "argmin", x, dim, keepdim)


def _index_of(find, name, x, dim, keepdim):
    """argmax/argmin with torch's errors: no bool input, no empty dimension."""
    if x.dtype is dtypes.bool:
        raise RuntimeError(errors.ARG_REDUCE_BOOL.format(name))
    if dim is None:
        if x.numel() == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        return make(np.asarray(find(x._data), np.int64))
    dim = normalize_dim(dim, x.ndim)
    _check_dim_nonempty(x, dim, name)
    return with_reduction_layout(make(np.asarray(find(x._data, axis=dim, keepdims=keepdim),
                                                 np.int64)))


def _check_dim_nonempty(x, dim, name):
    if x.ndim and x.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


def all(x, dim=None, keepdim=False):
    """True where every element (along ``dim``) is nonzero (uint8 for a uint8 tensor,
    as torch). Not differentiable."""
    return _logical_reduce(np.all, x, dim, keepdim)


def any(x, dim=None, keepdim=False):
    """True where some element (along ``dim``) is nonzero. Not differentiable."""
    return _logical_reduce(np.any, x, dim, keepdim)


def _logical_reduce(reduce, x, dim, keepdim):
    axes = None if dim is None else normalize_dims(dim, x.ndim)
    result = np.asarray(reduce(x._data, axis=axes, keepdims=keepdim))
    return with_reduction_layout(make(result.astype(np.uint8) if x.dtype is dtypes.uint8
                                      else result))


class NansumBackward0(Node):
    formula = Formula("y", "sum of the x_i that are not nan", d={"x_i": "1 (0 where x_i is nan)"})
    saves = {"self": Input(0)}

    def forward(self, x, dim, keepdim):
        axes = _reduced_axes(dim, x.ndim)
        self.save(dim=_saved_dims(dim), _axes=axes, keepdim=keepdim)
        return sum_axes(np.where(x != x, x.dtype.type(0), x), axes or range(x.ndim), keepdim)

    def backward(self, saved, grad):
        x = saved.self
        grad = _unsqueeze_reduced(grad, x.shape, saved._axes, saved.keepdim)
        return fn.expand(grad, x.shape) * (x == x)  # (PyTorch: times "not nan")


def nansum(x, dim=None, keepdim=False, *, dtype=None):
    """The sum with NaN counted as zero (all elements, or along ``dim``)."""
    _checked_dims(x, dim)
    if dtype is not None and x.dtype.is_floating_point and not dtype.is_floating_point:
        # (into an integer dtype PyTorch zeroes the NaNs first, then converts each element
        # and adds; with grad recorded, the integer sum refuses as PyTorch's does)
        zeroed = fn.where(x != x, 0, x)
        return sum(zeroed, NOT_GIVEN if dim is None else dim, keepdim, dtype=dtype)
    return with_reduction_layout(NansumBackward0.apply(
        x, cast_to=_accumulate_dtype(x, dtype), dim=_given_dims(dim), keepdim=keepdim))


def nanmean(x, dim=None, keepdim=False, *, dtype=None):
    """The mean of the elements that are not NaN: ``nansum`` divided by their count
    (DivBackward0 over NansumBackward0, as PyTorch composes it)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {dtypes.SCALAR_NAMES[x.dtype]}")
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be "
                           "either a floating point or complex dtype. Got: "
                           f"{dtypes.SCALAR_NAMES[dtype]}")
    counted = make(np.asarray(x._data == x._data))
    count = sum(counted) if dim is None else sum(counted, dim, keepdim)
    return arithmetic.div(nansum(x, dim, keepdim, dtype=dtype), count)


def _mean_backward(grad, x, dim, keepdim):
    """d mean / dx_i = 1 / n: ``grad`` spread back over the n elements averaged."""
    n = x.size if dim is None else int(np.prod([x.shape[d] for d in dim], dtype=np.int64))
    if dim is not None:
        grad = _unsqueeze_reduced(grad, x.shape, dim, keepdim)
    return fn.expand(grad, x.shape) / n


def _keeping_input_and_result(outputs, x, result: bool):
    """A two-output node's outputs, its node (when recorded) keeping what backward reads,
    shown as PyTorch shows it: ``x`` (``_saved_self``) and, for std_mean, output 0
    (``_saved_result0``, the std)."""
    node = outputs[0].grad_fn
    if node is not None:
        node._saved["self"] = keep(x, x._data)
        if result:
            node._saved["result0"] = keep(outputs[0], outputs[0]._data, is_output=True)
    return outputs


show_saved(Node, "self")
show_saved(Node, "result0")


class VarMeanBackward0(Node):
    formula = Formula("(v, m)", "(var(x), mean(x)), one node with two outputs",
                      grad={"x": "d var/dx G_v + G_m / n"})

    keeps_result = False

    @classmethod
    def apply(cls, x, **params):
        return _keeping_input_and_result(several_outputs(cls, x, params), x, cls.keeps_result)

    def forward(self, x, dim, correction, keepdim):
        self.save(dim=None if dim is None else as_shown(dim), correction=correction,
                  keepdim=keepdim)
        std = self.name() == "StdMeanBackward0"
        warn_degrees_of_freedom("std_mean" if std else "var_mean", x, dim, correction)
        return spread_and_mean(x, dim, correction, keepdim, root=std)

    def backward(self, saved, grad_spread=None, grad_mean=None):
        x, parts = saved.self, []
        if grad_spread is not None:
            parts.append(_var_backward(self._spread_grad(saved, grad_spread), x, saved.dim,
                                       saved.correction, saved.keepdim))
        if grad_mean is not None:
            parts.append(_mean_backward(grad_mean, x, saved.dim, saved.keepdim))
        return parts[0] if len(parts) == 1 else parts[0] + parts[1]

    def _spread_grad(self, saved, grad):
        return grad


class StdMeanBackward0(VarMeanBackward0):
    formula = Formula("(s, m)", "(std(x), mean(x)), one node with two outputs",
                      grad={"x": "d var/dx G_s / (2 s) + G_m / n"})
    keeps_result = True

    def _spread_grad(self, saved, grad):
        std = saved.result0
        return fn.masked_fill_(grad / (std * 2), std == 0, 0)


def _spread_and_mean(node, name, x, dim, unbiased, correction, keepdim):
    if isinstance(dim, bool):  # var_mean(x, unbiased)
        dim, unbiased = None, dim
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    dims = None if dim is None else normalize_dims(dim, x.ndim)
    return with_reduction_layout(node.apply(
        x, dim=dims, correction=_correction(unbiased, correction), keepdim=keepdim))


def var_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(var, mean)`` in one pass (VarMeanBackward0, two outputs)."""
    return _spread_and_mean(VarMeanBackward0, "var_mean", x, dim, unbiased, correction, keepdim)


def std_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """``(std, mean)`` in one pass (StdMeanBackward0, two outputs)."""
    return _spread_and_mean(StdMeanBackward0, "std_mean", x, dim, unbiased, correction, keepdim)
