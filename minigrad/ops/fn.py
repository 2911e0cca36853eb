"""The functions backward formulas call, for arrays and for Tensors alike.

A node's ``backward`` is written once, with operators (``grad * other``) and
the functions below (``fn.where(mask, grad, 0)``), and runs in two modes:

* usually (``create_graph=False``) on plain NumPy arrays: the gradients and
  the saved values are arrays, nothing is recorded;
* with ``create_graph=True`` on Tensors, so that the formula is itself
  recorded and can be differentiated again.

Each function here looks at what it was given and calls the NumPy function
for arrays, or the minigrad operation for Tensors (which records a node).
Operators need no help: ``grad * 2`` is NumPy's on arrays, and on Tensors
inside a formula it records ``MulBackward1``, the node of C++'s
tensor-times-Scalar, as PyTorch's formulas (written in C++) do.
Where PyTorch computes a derivative with an operation of its own (the
backward of ``tanh`` is ``tanh_backward``, recorded as
``TanhBackwardBackward0``), the function has that name, so that a second
backward shows PyTorch's nodes.
"""

from __future__ import annotations

import numpy as np

from ..kernels import arithmetic as kernels_arithmetic, layout, linalg as kernels_linalg
from ..kernels import conv as kernels_conv, layers as kernels_layers, pointwise as kernels_pointwise
from ..kernels import normalization as kernels_normalization, upsample as kernels_upsample
from ..kernels import rounding as kernels_rounding, special as kernels_special
from ..kernels import gamma as kernels_gamma
from ..kernels import grid_sample as kernels_grid_sample
from ..kernels import embedding_bag as kernels_embedding_bag
from ..kernels import ctc as kernels_ctc
from ..rules import layout as rules_layout
from ..autograd.broadcast import expand_array
from ..autograd.tensor_base import TensorBase, make
from ..kernels.matrix_exp import matrix_exp as matrix_exp_kernel
from ..kernels.summation import mean_all, mean_axes, sum_all, sum_axes
# (the op modules import this one too: a cycle on the ops' floor, so modules only, no names)
from . import arithmetic, compare, conv, cumulative, indexing, layers, linalg, loss, pointwise
from . import reduction, rounding, special, strided, trig
from . import gather as gather_ops
from . import random as random_ops
from . import linalg_module
from . import linalg_lu
from . import scatter as scatter_ops
from . import diagonal as diagonal_ops
from . import rolling as rolling_ops
from . import shape as shape_ops
from . import upsample as upsample_ops
from . import view_scatter
from . import special_functions
from . import combine

__all__ = ["where", "masked_fill", "masked_fill_", "clamp_min", "exp", "log", "log1p", "type_as", "ones", "mul_", "sgn", "abs", "cos", "sin",
           "sigmoid", "pow", "rpow", "number_minus", "number_over", "digamma", "digamma_", "lgamma", "trigamma",
           "polygamma", "special_zeta", "special_i0e", "special_i1e", "xlog1py", "isinf", "rsqrt", "reciprocal", "cosh", "sinh", "erfinv", "xlogy",
           "times_number", "sum", "mean", "count", "expand", "reshape",
           "unsqueeze", "squeeze", "transpose", "t", "permute", "matmul", "narrow", "select",
           "slice_part", "index", "contiguous", "cumsum", "cumprod", "is_tensor", "as_array",
           "as_strided_backward", "as_strided", "as_strided_scatter", "cat", "stack", "flip", "gather", "scatter", "scatter_add", "as_constant",
           "zeros", "tanh_backward", "logit_backward", "copysign_backward", "sigmoid_backward", "softmax_backward_data",
           "log_softmax_backward_data", "log_sigmoid", "log_sigmoid_backward",
           "masked_select", "masked_select_backward", "masked_scatter",
           "masked_scatter_backward",
           "mse_loss_backward", "soft_margin_loss_backward", "nll_loss", "nll_loss_backward",
           "threshold_backward", "select_backward", "slice_backward", "diag_embed", "inverse",
           "linalg_solve", "solve_triangular", "cholesky_solve", "pinv", "cofactor", "index_backward",
           "embedding_bag_backward", "embedding_bag_per_sample_weights_backward",
           "ctc_loss_backward", "lu_solve",
           "embedding_backward_by_frequency",
           "value_selecting_backward",
           "tril", "triu", "gelu_backward", "place", "einsum", "renorm_backward", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "sqrt", "flash_attention_backward",
           "max_pool_backward",
           "max_pool_gather", "avg_pool", "avg_pool_backward", "adaptive_avg_pool",
           "adaptive_avg_pool_backward", "constant_pad", "im2col",
           "col2im"]


def is_tensor(value) -> bool:
    """Whether the formula runs on Tensors (create_graph=True: torch's grad mode
    is on in backward, and some formulas take another path then)."""
    return isinstance(value, TensorBase)


def as_array(x):
    """The values of ``x`` as an array, to decide which formula applies."""
    return x._data if is_tensor(x) else x


# ---- elementwise ---------------------------------------------------------------

def where(condition, a, b):
    """``a`` where ``condition`` holds, else ``b`` (either may be a number)."""
    if is_tensor(a) or is_tensor(b) or is_tensor(condition):
        return pointwise.where(condition, a, b)
    # (laid out as torch's iterator orders where's operands: the condition first)
    return layout.iterator_laid(np.where(condition, a, b), (condition, a, b))


def masked_fill(x, mask, value):
    """``x`` with ``value`` written where ``mask`` is True (MaskedFillBackward0): a new
    row-major array, as torch's ``masked_fill`` (a contiguous clone, then filled)."""
    if is_tensor(x):
        return pointwise.masked_fill(x, mask, value)
    return np.ascontiguousarray(np.where(mask, np.asarray(value, x.dtype), x))


def masked_fill_(x, mask, value):
    """torch's in-place ``x.masked_fill_(mask, value)`` on a formula's new ``x``: the
    result keeps ``x``'s layout (NumPy's ``where`` lays out an ``x`` and a mask of
    different layouts row-major)."""
    if is_tensor(x):
        return pointwise.masked_fill(x, mask, value)
    return layout.iterator_laid(np.where(mask, np.asarray(value, x.dtype), x), (x,))


def exp(x):
    return pointwise.exp(x) if is_tensor(x) else kernels_pointwise.exp(x)


def tanh(x):
    return pointwise.tanh(x) if is_tensor(x) else kernels_pointwise.tanh(x)


def log(x):
    return pointwise.log(x) if is_tensor(x) else kernels_pointwise.log(x)


def log1p(x):
    return rounding.log1p(x) if is_tensor(x) else np.log1p(x)


def logit(x):
    return special.logit(x) if is_tensor(x) else kernels_special.logit(x)


def sgn(x):
    """``sign`` as torch's ``sgn`` (SgnBackward0; the same numbers for real tensors)."""
    if is_tensor(x):
        return pointwise.sgn(x)
    return kernels_pointwise.sign(x)


def sqrt(x):
    return pointwise.sqrt(x) if is_tensor(x) else np.sqrt(x)


def clamp_min(x, low):
    """max(x, low) elementwise (NaN stays NaN), as ``x.clamp(min=low)``."""
    return pointwise.clamp(x, min=low) if is_tensor(x) else np.maximum(x, low)


def abs(x):
    return pointwise.abs(x) if is_tensor(x) else np.abs(x)


def cos(x):
    return pointwise.cos(x) if is_tensor(x) else kernels_pointwise.cos(x)


def sin(x):
    return pointwise.sin(x) if is_tensor(x) else kernels_pointwise.sin(x)


def sigmoid(x):
    return pointwise.sigmoid(x) if is_tensor(x) else kernels_pointwise.sigmoid(x)


def pow(x, exponent):
    """``x ** exponent`` computed as torch computes it (``x * x`` for 2, ...)."""
    if is_tensor(x):
        return arithmetic.pow(x, exponent)
    return kernels_arithmetic.power(x, exponent)


def rpow(base, x):
    """``base ** x`` for a number ``base`` (PowBackward2 on Tensors)."""
    if is_tensor(x):
        return arithmetic.rpow(x, base)
    return np.asarray(kernels_arithmetic.power(base, x))


def digamma(x):
    return special.digamma(x) if is_tensor(x) else kernels_special.digamma(x)


def special_zeta(x, q):
    """Hurwitz's zeta (SpecialZetaBackward0/1/2 on Tensors)."""
    if is_tensor(x) or is_tensor(q):
        return special_functions.zeta(x, q)
    return special_functions.zeta_values(np.asarray(x), np.asarray(q))


def lgamma(x):
    return special.lgamma(x) if is_tensor(x) else kernels_special.lgamma(x)


def digamma_(x):
    """``x.digamma_()`` (in place on Tensors: PyTorch's mvlgamma_backward writes so, and a
    second backward sees its CloneBackward0)."""
    return x.digamma_() if is_tensor(x) else kernels_special.digamma(x)


def mul_(x, other):
    """``x.mul_(other)`` (in place on Tensors, as a PyTorch formula writes it: a second
    backward sees the CloneBackward0 of x kept for other's gradient)."""
    return x.mul_(other) if is_tensor(x) else x * other


def standard_gamma_grad(alpha, x):
    """d x / d alpha for x drawn from Gamma(alpha, 1) (StandardGammaGradBackward0 on
    Tensors)."""
    if is_tensor(alpha):
        return random_ops.standard_gamma_grad(alpha, x)
    return kernels_gamma.standard_gamma_grad(alpha, x)


def trigamma(x):
    """polygamma(1, x) (PolygammaBackward0 on Tensors)."""
    return polygamma(1, x)


def i0(x):
    return special.i0(x) if is_tensor(x) else kernels_special.i0(x)


def special_i1(x):
    return special.special_i1(x) if is_tensor(x) else kernels_special.i1(x)


def special_i0e(x):
    return special.special_i0e(x) if is_tensor(x) else kernels_special.i0e(x)


def special_i1e(x):
    return special.special_i1e(x) if is_tensor(x) else kernels_special.i1e(x)


def polygamma(n, x):
    return special.polygamma(n, x) if is_tensor(x) else kernels_special.polygamma(n, x)


def number_over(number, x):
    """``number / x`` as C++ writes it in a formula (``empty_like(x).fill_(number).div_(x)``):
    on Tensors DivBackward0, whose first input is a constant."""
    if is_tensor(x):
        return arithmetic.div(make(np.full(x.shape, number, x._data.dtype)), x)
    return number / x


def number_minus(number, x):
    """``number - x`` as C++ writes it in a formula (``empty_like(x).fill_(number).sub_(x)``):
    on Tensors SubBackward0, whose first input is a constant (Python's ``1 - x`` records
    RsubBackward1)."""
    if is_tensor(x):
        return arithmetic.sub(make(np.full(x.shape, number, x._data.dtype)), x)
    return number - x


def isinf(x):
    return compare.isinf(x) if is_tensor(x) else np.isinf(x)


def rsqrt(x):
    return rounding.rsqrt(x) if is_tensor(x) else kernels_rounding.rsqrt(np.asarray(x))


def reciprocal(x):
    return arithmetic.reciprocal(x) if is_tensor(x) else np.asarray(np.reciprocal(x))


def cosh(x):
    return trig.cosh(x) if is_tensor(x) else kernels_special.cosh(x)


def sinh(x):
    return trig.sinh(x) if is_tensor(x) else kernels_special.sinh(x)


def erfinv(x):
    return special.erfinv(x) if is_tensor(x) else kernels_special.erfinv(np.asarray(x))


def xlogy(x, y):
    """x log(y), 0 where x is 0; ``y`` a number or like ``x``."""
    if is_tensor(x) or is_tensor(y):
        return special.xlogy(x, y)
    return kernels_special.xlogy(x, np.asarray(y, x.dtype))


def xlog1py(x, y):
    """x log1p(y), 0 where x is 0; ``y`` a number or like ``x``."""
    if is_tensor(x) or is_tensor(y):
        return special.xlog1py(x, y)
    return kernels_special.xlog1py(x, np.asarray(y, x.dtype))


def times_number(x, number):
    """``x * number``, laid out as torch lays it out (for arrays too: the layout of
    a gradient is seen in ``.grad.stride()``)."""
    if is_tensor(x):
        return x * number
    return rules_layout.with_number_layout(x * number, x)


# ---- reductions and shapes -----------------------------------------------------

def sum(x, dim=None, keepdim=False):
    if is_tensor(x):  # (no dim: SumBackward0, as in torch's formulas)
        return reduction.sum(x) if dim is None else reduction.sum(x, dim, keepdim)
    dtype = x.dtype if x.dtype.kind == "f" else np.int64  # (torch sums bools to int64)
    if dim is None:  # (as SumBackward0 computes it: torch's order where it applies)
        return np.asarray(sum_all(x) if x.dtype.kind == "f" else np.sum(x, dtype=dtype))
    if x.dtype.kind == "f":  # (as SumBackward1 computes it: torch's order where it applies)
        return sum_axes(x, dim, keepdim)
    return np.asarray(np.sum(x, axis=dim, keepdims=keepdim, dtype=dtype))


def mean(x, dim=None, keepdim=False):
    if is_tensor(x):
        return reduction.mean(x) if dim is None else reduction.mean(x, dim, keepdim)
    if x.size == 0:  # the mean of nothing is nan (NumPy would warn)
        return np.asarray(np.sum(x, axis=dim, keepdims=keepdim, dtype=x.dtype) * np.nan)
    if dim is not None:  # (as MeanBackward1 computes it: torch's sum, then / n)
        return mean_axes(x, dim, keepdim)
    return mean_all(x)  # (as MeanBackward0 computes it)


def count(mask, dim=None, keepdim=False, *, like):
    """How many elements of a boolean ``mask`` are True (along ``dim``), to divide
    ``like`` by: torch divides a float tensor by the int64 count in the float's
    dtype, so for arrays the count is made in ``like``'s dtype."""
    if is_tensor(like):
        return reduction.sum(mask) if dim is None else reduction.sum(mask, dim, keepdim)
    return np.asarray(np.sum(mask, axis=dim, keepdims=keepdim, dtype=like.dtype))


def expand(x, shape):
    if is_tensor(x):
        return shape_ops.expand(x, tuple(shape))
    return expand_array(x, shape)


def reshape(x, shape):
    if is_tensor(x):
        return shape_ops.reshape(x, tuple(shape))
    return np.reshape(x, shape)


def unsqueeze(x, dim):
    if is_tensor(x):
        return shape_ops.unsqueeze(x, dim)
    # (an empty x: torch's strides, which NumPy's expand_dims recomputes)
    return np.expand_dims(x, dim) if x.size else \
        layout.unsqueezed(x, dim if dim >= 0 else dim + x.ndim + 1)


def squeeze(x, dim):
    if is_tensor(x):
        return shape_ops.squeeze(x, dim)
    return np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x


def transpose(x, dim0, dim1):
    if is_tensor(x):
        return shape_ops.transpose(x, dim0, dim1)
    if not x.size:  # (a new empty array: torch's row-major strides first, not NumPy's 0s)
        x = layout.new_layout(x)
    return np.swapaxes(x, dim0, dim1) if x.ndim else x  # (0-dim: dims 0 and -1 are itself)


def t(x):
    if is_tensor(x):
        return shape_ops.t(x)
    return (x if x.size else layout.new_layout(x)).T  # (as transpose's)


def permute(x, dims):
    if is_tensor(x):
        return shape_ops.permute(x, *dims)
    return np.transpose(x if x.size else layout.new_layout(x), dims)  # (as transpose's)


def matmul(a, b):
    """mm, mv, bmm: the matrix product of the formula's operands."""
    if is_tensor(a) or is_tensor(b):
        if a.ndim == 2 and b.ndim == 1:
            return linalg.mv(a, b)
        if a.ndim == 3:
            return linalg.bmm(a, b)
        return linalg.mm(a, b)
    if a.ndim == 2 and b.ndim == 2:
        return kernels_linalg.matrix_product(a, b)
    return np.matmul(a, b)


def narrow(x, dim, start, length):
    if is_tensor(x):
        return shape_ops.narrow(x, dim, start, length)
    return x[(slice(None),) * (dim % x.ndim) + (slice(start, start + length),)]


def select(x, dim, index):
    if is_tensor(x):
        return indexing.select(x, dim, index)
    return x[(slice(None),) * dim + (index, Ellipsis)]


def slice_part(x, dim, start, end, step, given_dim=None):
    """``x[start:end:step]`` along ``dim`` (SliceBackward0; ``given_dim``: the dim as
    given, which the node shows)."""
    if is_tensor(x):
        return indexing.slice_dim(x, dim, start, end, step, given_dim)
    return x[(slice(None),) * dim + (slice(start, end, step),)]


def index(x, indices):
    """``x[indices]`` with integer or boolean arrays (IndexBackward0)."""
    if is_tensor(x):
        return indexing.IndexBackward0.apply(x, indices=tuple(indices))
    return x[tuple(indices)]


def contiguous(x):
    """``x`` laid out row-major (CloneBackward0 when it was not)."""
    if is_tensor(x):
        return shape_ops.contiguous(x)
    return np.ascontiguousarray(x)


def cumsum(x, dim):
    if is_tensor(x):
        return cumulative.cumsum(x, dim)
    return cumulative.cumsum_of(x, dim)


def cumprod(x, dim):
    if is_tensor(x):
        return cumulative.cumprod(x, dim)
    return np.cumprod(x, axis=dim, dtype=x.dtype)


def cat(parts, dim):
    if any(is_tensor(p) for p in parts):
        return shape_ops.cat(parts, dim)
    return np.concatenate(parts, axis=dim)


def stack(parts, dim):
    if any(is_tensor(p) for p in parts):
        return shape_ops.stack(parts, dim)
    return np.stack(parts, axis=dim)


def flip(x, dims):
    if is_tensor(x):
        return shape_ops.flip(x, dims)
    return layout.flipped(x, dims) if x.ndim else x.copy()  # (a 0-dim tensor flips to itself)


def gather(x, dim, indices, given_dim=None):
    """``x`` read at ``indices`` along ``dim`` (GatherBackward0; ``given_dim``: the dim
    as given, which the node shows)."""
    indices = indices._data if is_tensor(indices) else np.asarray(indices)
    if is_tensor(x):
        return gather_ops.GatherBackward0.apply(x, dim=dim, index=indices, given_dim=given_dim)
    return gather_ops.gather_of(x, dim, indices)


def take(x, index):
    """``x`` read as one dim at ``index`` (TakeBackward0)."""
    if is_tensor(x):
        return gather_ops.TakeBackward0.apply(x, index=index)
    return np.array(x.reshape(-1)[index])


def unpacked_steps(grad, shape, batch_sizes, batch_first):
    """A packed sequence's gradient in its padded input's ``shape``: zeros, each step's
    rows copied in (``copy_`` into a slice on Tensors, CopySlices), then the transpose
    for ``batch_first`` (PyTorch's ``_pack_padded_sequence_backward``)."""
    steps_first = (shape[1], shape[0]) + tuple(shape[2:]) if batch_first else tuple(shape)
    result = grad.new_zeros(steps_first) if is_tensor(grad) else np.zeros(steps_first, grad.dtype)
    offset = 0
    for t, size in enumerate(batch_sizes):
        if is_tensor(grad):
            result.select(0, t).narrow(0, 0, size).copy_(grad.narrow(0, offset, size))
        else:
            result[t, :size] = grad[offset:offset + size]
        offset += size
    return transpose(result, 0, 1) if batch_first else result


def put_into_zeros(grad, shape, index):
    """Zeros of ``shape`` with ``grad`` added at ``index``, read as one dim (PutBackward0,
    as PyTorch's ``zeros_like(self).put_(index, grad, true)``)."""
    if is_tensor(grad):
        return gather_ops.PutBackward0.apply(grad.new_zeros(tuple(shape)), grad, index=index,
                                             accumulate=True)
    return gather_ops.put_of(np.zeros(shape, grad.dtype), index, grad, True)


def put_zeros(x, index):
    """``x`` with 0 written at ``index``, read as one dim (PutBackward0, as PyTorch's
    ``grad.put(index, zeros_like(source))``)."""
    if is_tensor(x):
        return gather_ops.PutBackward0.apply(x, x.new_zeros(index.shape), index=index,
                                             accumulate=False)
    return gather_ops.put_of(x, index, np.zeros(index.shape, x.dtype), False)


def scatter_add(src, shape, dim, indices, given_dim=None):
    """Zeros of ``shape`` with ``src`` added at ``indices`` along ``dim``
    (ScatterAddBackward0)."""
    indices = indices._data if is_tensor(indices) else np.asarray(indices)
    if is_tensor(src):
        zeros = src.new_zeros(tuple(shape))
        return gather_ops.ScatterAddBackward0.apply(zeros, src, dim=dim, index=indices,
                                                    given_dim=given_dim)
    return gather_ops.scatter_add_of(src, shape, dim, indices)


def scatter(src, shape, dim, indices):
    """Zeros of ``shape`` with ``src`` written at ``indices`` along ``dim`` (ScatterBackward0)."""
    if is_tensor(src):
        zeros = src.new_zeros(tuple(shape))
        return reduction.ScatterBackward0.apply(zeros, src, dim=dim, indices=np.asarray(indices))
    return reduction.scatter_of(src, shape, dim, indices)


def scatter_value(x, dim, indices, value):
    """``x`` with ``value`` (a number) written at ``indices`` along ``dim`` (ScatterBackward1)."""
    indices = np.asarray(indices)
    if is_tensor(x):
        return scatter_ops.ScatterBackward1.apply(x, dim=dim, index=indices, value=value)
    return scatter_ops.scatter_of(x, dim, indices, value)


def scatter_into(x, src, dim, indices):
    """``x`` with ``src`` written at ``indices`` along ``dim`` (ScatterBackward0)."""
    return reduction.ScatterBackward0.apply(x, src, dim=dim, indices=np.asarray(indices))


def scatter_add_into(x, src, dim, indices):
    """``x`` with ``src`` added at ``indices`` along ``dim`` (ScatterAddBackward0)."""
    return gather_ops.ScatterAddBackward0.apply(x, src, dim=dim, index=np.asarray(indices))


def index_select(x, dim, index):
    """The slices of ``x`` at ``index`` along ``dim`` (IndexSelectBackward0)."""
    if is_tensor(x):
        return scatter_ops.IndexSelectBackward0.apply(x, dim=dim, index=index, given=dim)
    return np.take(x, index, axis=dim) if x.ndim else x.reshape(1)[index].reshape(())


def index_add(x, dim, index, source):
    """``x`` with ``source``'s slices added at ``index`` along ``dim`` (IndexAddBackward0)."""
    if is_tensor(x):
        return scatter_ops.IndexAddBackward0.apply(x, source, dim=dim, index=index, alpha=1)
    return scatter_ops.index_add_of(x, dim, index, source)


def index_fill_tensor(x, dim, index, value):
    """``x`` with a 0-dim ``value`` written at ``index`` along ``dim`` (IndexFillBackward1)."""
    if is_tensor(x):
        return scatter_ops.IndexFillBackward1.apply(x, value, dim=dim, index=index)
    return scatter_ops.index_fill_of(x, dim, index, value)


def index_fill(x, dim, index, value):
    """``x`` with ``value`` written at ``index`` along ``dim`` (IndexFillBackward0)."""
    if is_tensor(x):
        return scatter_ops.IndexFillBackward0.apply(x, dim=dim, index=index, value=value)
    return scatter_ops.index_fill_of(x, dim, index, value)


def cross(a, b, dim):
    """The cross product along ``dim`` (LinalgCrossBackward0)."""
    if is_tensor(a):
        return linalg.cross(a, b, dim)
    return kernels_linalg.cross(a, b, dim)


def roll(x, shifts, dims):
    """``x`` shifted by ``shifts`` along ``dims`` (RollBackward0)."""
    if is_tensor(x):
        return rolling_ops.RollBackward0.apply(x, shifts=shifts, dims=dims, given=dims)
    return rolling_ops.roll_of(x, shifts, dims)


def rot90(x, k, dims):
    """``x`` turned ``k`` quarter turns in the plane of ``dims`` (Rot90Backward0)."""
    if is_tensor(x):
        return rolling_ops.Rot90Backward0.apply(x, k=k, dims=dims, given=dims)
    return np.ascontiguousarray(np.rot90(x, k, axes=dims))


def isfinite(x):
    """True where ``x`` is neither infinite nor NaN (not differentiable)."""
    return compare.isfinite(x) if is_tensor(x) else np.isfinite(x)


def diagonal(x, offset, dim1, dim2):
    """The diagonal of ``x`` in the plane of ``dim1``, ``dim2`` (DiagonalBackward0)."""
    if is_tensor(x):
        return diagonal_ops.diagonal(x, offset, dim1, dim2)
    return diagonal_ops.diagonal_view(x, offset, dim1, dim2)


def diag_embed(x):
    """``x``'s last dim laid on the diagonal of a matrix (DiagEmbedBackward0)."""
    if is_tensor(x):
        return diagonal_ops.diag_embed(x, 0, -2, -1)
    return diagonal_ops.diag_embed_of(x, 0, x.ndim - 1, x.ndim)


def inverse(x):
    """A^{-1} (LinalgInvExBackward0)."""
    if is_tensor(x):
        return linalg_module.inv(x)
    return kernels_linalg.inverse(x, kernels_linalg.lu_info(x))


def linalg_solve(a, b):
    """X with A X = B, B a (batch of) matrix (LinalgSolveExBackward0)."""
    return linalg_module.solve(a, b) if is_tensor(a) else kernels_linalg.solve(a, b, False)


def affine_grid_backward(grad, size, align_corners: bool):
    """dL/dtheta = base^T @ G per batch element (AffineGridGeneratorBackward0's formula);
    on Tensors a matrix product with the constant base grid (create_graph=True)."""
    if not is_tensor(grad):
        return kernels_grid_sample.affine_grid_backward(grad, size, align_corners)
    n, _, height, width = size
    base = make(_base_columns(n, height, width, align_corners, grad))
    return transpose(matmul(base, reshape(grad, (n, height * width, 2))), 1, 2)


def _base_columns(n, height, width, align_corners, like):
    """(N, 3, H W): the base grid's (x, y, 1) as columns, once per batch element."""
    base = kernels_grid_sample.base_grid(height, width, align_corners, np.dtype(like.dtype.numpy))
    return np.ascontiguousarray(np.broadcast_to(base.reshape(-1, 3).T, (n, 3, height * width)))


def grid_sample_backward(grad, image, grid, mode: str, padding: str, align_corners: bool):
    """(dL/dinput, dL/dgrid) of grid_sample (GridSampler2DBackward0); its own derivative
    (create_graph=True) is not built: refused with an error saying so."""
    if is_tensor(grad) or is_tensor(image) or is_tensor(grid):
        raise NotImplementedError("minigrad: the second derivative of grid_sample "
                                  "(PyTorch's GridSampler2DBackwardBackward0) is not built")
    return kernels_grid_sample.grid_sample_backward(grad, image, grid, mode, padding,
                                                    align_corners)


def linalg_matrix_exp(a):
    """exp(A) of a (batch of) square matrix (LinalgMatrixExpBackward0)."""
    return linalg_module.matrix_exp(a) if is_tensor(a) else matrix_exp_kernel(a)


def solve_triangular(a, b, upper, left, unitriangular):
    """X with A X = B (X A = B), A triangular (LinalgSolveTriangularBackward0)."""
    if is_tensor(a) or is_tensor(b):
        return linalg_module.solve_triangular(a, b, upper, left, unitriangular)
    return kernels_linalg.solve_triangular(a, b, upper, left, unitriangular)


def lu_solve(LU, pivots, b, left: bool, adjoint: bool):
    """X with A X = B from A's LU factors (LinalgLuSolveBackward0)."""
    if is_tensor(LU) or is_tensor(b):
        return linalg_lu.LinalgLuSolveBackward0.apply(LU, b, pivots=as_array(pivots), left=left,
                                                      adjoint=adjoint)
    return kernels_linalg.lu_solve(LU, as_array(pivots), b, left, adjoint)


def cholesky_solve(b, l, upper):
    """X with (L L^T) X = B (CholeskySolveBackward0)."""
    if is_tensor(b) or is_tensor(l):
        return linalg_module.cholesky_solve(b, l, upper)
    return kernels_linalg.cholesky_solve(b, l, upper)


def pinv(x):
    """The pseudo-inverse (LinalgPinvBackward0)."""
    return linalg_module.pinv(x) if is_tensor(x) else kernels_linalg.pinv(x, None, None, False)


def cofactor(a, det):
    """det(A) A^{-T}, the derivative of det (for a Tensor: A non-singular)."""
    if is_tensor(a):
        return unsqueeze(unsqueeze(det, -1), -1) * transpose(linalg_module.inv(a), -2, -1)
    return kernels_linalg.cofactor(a, det)


def diagonal_backward(grad, shape, offset, dim1, dim2):
    """Zeros of ``shape`` with ``grad`` on the diagonal (DiagonalBackwardBackward0)."""
    if is_tensor(grad):
        return diagonal_ops.DiagonalBackwardBackward0.apply(
            grad, shape=tuple(shape), offset=offset, dim1=dim1, dim2=dim2)
    return diagonal_ops.diagonal_backward_of(grad, shape, offset, dim1, dim2)


def renorm_backward(grad, x, p, dim: int, maxnorm: float):
    """torch's renorm_backward: with i = 1 / (norm + 1e-7) per slice, maxnorm i (G - i n),
    n the norm's gradient for the upstream sum(x G), where the slice was scaled; G
    elsewhere."""
    others = tuple(d for d in range(x.ndim) if d != dim)
    if is_tensor(x) or is_tensor(grad):
        norm = linalg_module.vector_norm(x, p, others, True)
        total = sum(x * grad, others, keepdim=True)
    else:  # (the norm and sum in the CPU's accumulate type: the gradient too, rounded once)
        norm = kernels_linalg.renorm_norm(x, p, others, on_cpu=True)
        total = sum((x * grad).astype(norm.dtype, copy=False), others, keepdim=True)
    norm_grad = reduction.vector_norm_backward_of(total, x, norm, p, others, True)
    inverse = 1 / (norm + 1e-7)
    return where(norm > maxnorm, inverse * maxnorm * (grad - inverse * norm_grad), grad)


def einsum(equation: str, *operands):
    """NumPy's einsum on arrays; minigrad's (recorded) on Tensors."""
    if any(is_tensor(x) for x in operands):
        return combine.einsum(equation, *operands)
    return np.einsum(equation, *operands)


def place(x, src, kind: str, where: tuple):
    """A copy of ``x`` with its part ``kind`` ('select', 'slice' or 'diagonal', at
    ``where``) replaced by ``src`` (the view_scatter ops on Tensors)."""
    if is_tensor(x) or is_tensor(src):
        scatter = {"select": view_scatter.select_scatter, "slice": view_scatter.slice_scatter,
                   "diagonal": view_scatter.diagonal_scatter}[kind]
        return scatter(x, src, *where)
    out = np.array(x, copy=True)
    if kind == "diagonal":
        diagonal_ops.diagonal_view(out, *where)[...] = src
    elif kind == "select":
        out[(slice(None),) * where[0] + (where[1],)] = src
    else:
        dim, start, end, step = where
        out[(slice(None),) * dim + (slice(start, end, step),)] = src
    return out


def unfold_windows(x, dim, size, step):
    """The windows of ``size`` elements, ``step`` apart, along ``dim`` (UnfoldBackward0)."""
    if is_tensor(x):
        return rolling_ops.unfold(x, dim, size, step)
    return layout.windows(x, dim, size, step)


def unfold_backward(grad, input_sizes, dim, size, step):
    """Zeros of ``input_sizes`` with unfold's windows of ``grad`` added back
    (UnfoldBackwardBackward0)."""
    if is_tensor(grad):
        return rolling_ops.UnfoldBackwardBackward0.apply(
            grad, input_sizes=tuple(input_sizes), dim=dim, size=size, step=step)
    return layout.windows_backward(grad, input_sizes, dim, size, step)


def as_strided(x, size, stride, storage_offset):
    """The elements of row-major ``x``'s memory at ``storage_offset + sum(i_k * stride_k)``
    (AsStridedBackward0)."""
    if is_tensor(x):
        return strided.as_strided(x, size, stride, storage_offset)
    return layout.strided_view(np.array(x, copy=True, order="C"), size, stride, storage_offset)


def as_strided_scatter(x, src, size, stride, storage_offset):
    """A copy of row-major ``x`` with those elements replaced by ``src``
    (AsStridedScatterBackward0)."""
    if is_tensor(x) or is_tensor(src):
        return view_scatter.as_strided_scatter(x, src, size, stride, storage_offset)
    out = np.array(x, copy=True, order="C")
    layout.strided_view(out, size, stride, storage_offset)[...] = src
    return out


def as_strided_backward(grad, base_geometry, size, stride, storage_offset):
    """The gradient of a view described by where it sits in its base's memory
    (AsStridedBackward0): ``grad`` added back at those elements."""
    if is_tensor(grad):
        return strided.as_strided_backward_tensor(grad, base_geometry, size, stride,
                                                  storage_offset)
    return layout.as_strided_backward_of(grad, base_geometry, size, stride, storage_offset)


def as_constant(array, like):
    """A NumPy array computed by a formula, as the kind ``like`` is (a Tensor
    outside the graph, or the array itself)."""
    return make(array) if is_tensor(like) else array


def type_as(mask, like):
    """``mask.type_as(like)``: a comparison's result in ``like``'s dtype (no node: a
    comparison needs no gradient)."""
    return mask.to(like.dtype) if is_tensor(mask) else mask.astype(like.dtype)


def ones(shape, like):
    """Ones of ``shape`` with the dtype (and kind: array or Tensor) of ``like``."""
    if is_tensor(like):
        return like.new_ones(tuple(shape))
    return np.ones(shape, like.dtype)


def zeros(shape, like):
    """Zeros of ``shape`` with the dtype (and kind: array or Tensor) of ``like``."""
    if is_tensor(like):
        return like.new_zeros(tuple(shape))
    return np.zeros(shape, like.dtype)


# ---- derivatives that are operations of their own in PyTorch ----------------------

def tanh_backward(grad, y):
    """grad * (1 - y**2): the derivative of y = tanh(x) (TanhBackwardBackward0)."""
    if isinstance(grad, TensorBase) or isinstance(y, TensorBase):
        return pointwise.TanhBackwardBackward0.apply(grad, y)
    return kernels_pointwise.tanh_backward(grad, y)


def logit_backward(grad, x, eps):
    """grad / (x (1 - x)) inside [eps, 1 - eps] (0 outside), or inside [0, 1] (NaN
    outside) without eps: PyTorch's ``logit_backward`` (and with create_graph=True its
    ``infinitely_differentiable_logit_backward``, the same where)."""
    if not (is_tensor(grad) or is_tensor(x)):
        return kernels_special.logit_backward(grad, x, eps)
    low, fill = (0.0, float("nan")) if eps is None else (eps, 0.0)
    inside = (x >= low) & (x <= 1.0 - low)
    return pointwise.where(inside, grad / (x * number_minus(1.0, x)), fill)


def copysign_backward(grad, x, result):
    """grad * (result / x), 0 where x is 0 (PyTorch's copysign_tensor_self_backward)."""
    ratio = masked_fill(result / x, x == 0, 0)
    return grad * ratio


def softmax_backward_data(grad, y, dim):
    """y * (grad - sum(grad * y)): the derivative of y = softmax(x)
    (SoftmaxBackwardDataBackward0)."""
    if is_tensor(grad) or is_tensor(y):
        return reduction.SoftmaxBackwardDataBackward0.apply(grad, y, dim=dim)
    return reduction.softmax_backward_data_of(grad, y, dim)


def log_softmax_backward_data(grad, y, dim):
    """grad - exp(y) * sum(grad): the derivative of y = log_softmax(x)
    (LogSoftmaxBackwardDataBackward0)."""
    if is_tensor(grad) or is_tensor(y):
        return reduction.LogSoftmaxBackwardDataBackward0.apply(grad, y, dim=dim)
    return reduction.log_softmax_backward_data_of(grad, y, dim)


def masked_select(x, mask):
    """The elements of ``x`` where ``mask`` is True, as one row (MaskedSelectBackward0)."""
    if is_tensor(x):
        return indexing.MaskedSelectBackward0.apply(x, mask=as_array(mask))
    return indexing.masked_select_of(x, as_array(mask))


def masked_select_backward(grad, x, mask):
    """Zeros shaped as ``x`` with ``grad`` written where ``mask`` is True (a masked_scatter
    into zeros: MaskedScatterBackward0)."""
    mask = as_array(mask)
    if is_tensor(grad):
        shape = np.broadcast_shapes(tuple(x.shape), mask.shape)
        return masked_scatter(grad.new_zeros(shape), mask, grad)
    return indexing.masked_select_backward_of(grad, x.shape, mask)


def masked_scatter(x, mask, source):
    """``x`` with the elements of ``source`` written where ``mask`` is True
    (MaskedScatterBackward0)."""
    if is_tensor(x) or is_tensor(source):
        return indexing.MaskedScatterBackward0.apply(x, source, mask=as_array(mask))
    return indexing.masked_scatter_of(x, source, as_array(mask))


def masked_scatter_backward(grad, mask, sizes):
    """``grad`` where ``mask`` is True, then zeros, as ``sizes``
    (MaskedScatterBackwardBackward0)."""
    if is_tensor(grad):
        return indexing.MaskedScatterBackwardBackward0.apply(grad, mask=as_array(mask),
                                                             sizes=tuple(sizes))
    return indexing.masked_scatter_backward_of(grad, as_array(mask), sizes)


def log_sigmoid(x):
    """log sigmoid(x) (LogSigmoidBackward0)."""
    return loss.LogSigmoidBackward0.apply(x) if is_tensor(x) else loss.log_sigmoid_of(x)


def log_sigmoid_backward(grad, x, buffer):
    """grad * (1 - sigmoid(x)) from the buffer exp(-|x|) (LogSigmoidBackwardBackward0)."""
    if is_tensor(grad) or is_tensor(x):
        return loss.LogSigmoidBackwardBackward0.apply(grad, x, buffer=as_array(buffer))
    return loss.log_sigmoid_backward_of(grad, x, buffer)


def mse_loss_backward(grad, x, target, reduction):
    """2 (x - target) grad (/ n for 'mean'): mse_loss's derivative (MseLossBackwardBackward0)."""
    if is_tensor(grad) or is_tensor(x):
        return loss.MseLossBackwardBackward0.apply(grad, x, target, reduction=reduction)
    return loss.mse_loss_backward_of(grad, x, target, reduction)


def soft_margin_loss_backward(grad, x, target, reduction):
    """soft_margin_loss's derivative (SoftMarginLossBackwardBackward0)."""
    if is_tensor(grad) or is_tensor(x):
        return loss.SoftMarginLossBackwardBackward0.apply(grad, x, target=target,
                                                          reduction=reduction)
    return loss.soft_margin_loss_backward_of(grad, x, target, reduction)


def nll_loss(x, target, weight, ignore_index, reduction):
    """nll_loss of log-probabilities ``x`` (N, C) (NllLossBackward0), or (N, C, H, W)
    (NllLoss2DBackward0)."""
    if is_tensor(x):
        node = loss.NllLoss2DBackward0 if x.ndim == 4 else loss.NllLossBackward0
        return node.apply(x, target=target, weight=weight, ignore_index=ignore_index,
                          reduction=reduction)
    return loss.nll_loss_of(x, target, weight, ignore_index, reduction)[0]


def nll_loss_backward(grad, x, classes):
    """grad times d nll_loss / d x: -w[t_n] grad at [n, t_n], 0 elsewhere
    (NllLossBackwardBackward0); ``classes``: loss.NllClasses."""
    if is_tensor(grad) or is_tensor(x):
        node = loss.NllLoss2DBackwardBackward0 if x.ndim == 4 else loss.NllLossBackwardBackward0
        return node.apply(grad, x, classes=classes)
    return loss.nll_loss_backward_of(grad, classes, x.shape)


def sigmoid_backward(grad, y):
    """grad * (1 - y) * y: the derivative of y = sigmoid(x) (SigmoidBackwardBackward0)."""
    if is_tensor(grad) or is_tensor(y):
        return pointwise.SigmoidBackwardBackward0.apply(grad, y)
    return kernels_pointwise.sigmoid_backward(grad, y)


def threshold_backward(grad, x, threshold):
    """grad where x > threshold, else 0: relu's derivative (ThresholdBackwardBackward0)."""
    if is_tensor(grad):
        return pointwise.ThresholdBackwardBackward0.apply(grad, x, threshold=threshold)
    # (laid out as torch's iterator orders its operands: x, then grad)
    return layout.iterator_laid(kernels_pointwise.threshold_backward(grad, x, threshold), (x, grad))


def select_backward(grad, shape, dim, index):
    """Zeros of ``shape`` with ``grad`` at ``index`` along ``dim`` (SelectBackwardBackward0)."""
    if is_tensor(grad):
        return indexing.SelectBackwardBackward0.apply(grad, shape=shape, dim=dim, index=index)
    return indexing.select_backward_of(grad, shape, dim, index)


def slice_backward(grad, shape, dim, start, end, step, given=None):
    """Zeros of ``shape`` with ``grad`` in the slice (SliceBackwardBackward0; ``given``:
    dim, start and end as the slice was given, which the node shows)."""
    if is_tensor(grad):
        return indexing.SliceBackwardBackward0.apply(grad, shape=shape, dim=dim, start=start,
                                                     end=end, step=step, given=given)
    return indexing.slice_backward_of(grad, shape, dim, start, end, step)


def index_backward(grad, shape, indices):
    """Zeros of ``shape`` with ``grad`` added at ``indices`` (IndexPutImplBackward0)."""
    if is_tensor(grad):
        zeros = grad.new_zeros(tuple(shape))
        return indexing.IndexPutImplBackward0.apply(zeros, grad, indices=indices)
    return indexing.index_backward_of(grad, shape, indices)


def embedding_backward_by_frequency(grad, indices, rows: int, padding_idx: int):
    """embedding's table gradient with scale_grad_by_freq: each looked-up row's gradient
    divided by how often its index occurs, added into that row."""
    if not is_tensor(grad):
        return kernels_embedding_bag.embedding_backward_by_frequency(
            grad, as_array(indices), rows, padding_idx)
    index = as_array(indices)
    share = 1.0 / np.bincount(index.reshape(-1), minlength=rows)[index]
    share = np.where(index == padding_idx, 0.0, share).astype(grad.dtype.numpy)[..., None]
    return index_backward(grad * make(share), (rows, grad.shape[-1]), (index,))


def embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, max_indices,
                           rows: int, mode: int, per_sample_weights, padding_idx: int,
                           by_frequency: bool):
    """embedding_bag's table gradient: each bag's gradient row (scaled) added to the rows
    its indices read. PyTorch has no derivative for it: recorded (create_graph=True), it
    is an EmbeddingBagBackwardBackward0 node, whose backward raises PyTorch's error."""
    table = kernels_embedding_bag.embedding_bag_backward(
        as_array(grad), as_array(indices), as_array(offsets), as_array(offset2bag),
        as_array(bag_size), as_array(max_indices), rows, mode, as_array(per_sample_weights),
        padding_idx, by_frequency)
    if not (is_tensor(grad) or is_tensor(per_sample_weights)):
        return table
    return layers.EmbeddingBagBackwardBackward0.apply(grad, per_sample_weights, value=table)


def embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets, offset2bag,
                                              padding_idx: int):
    """Each per-sample weight's gradient: its bag's gradient row dot its table row. PyTorch
    has no derivative for it: recorded, a NotImplemented node."""
    dots = kernels_embedding_bag.per_sample_weights_backward(
        as_array(grad), as_array(weight), as_array(indices), as_array(offsets),
        as_array(offset2bag), padding_idx)
    if not (is_tensor(grad) or is_tensor(weight)):
        return dots
    return rounding.NotImplemented.apply(
        grad, weight, operation="_embedding_bag_per_sample_weights_backward", value=dots)


def ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths,
                      neg_log_likelihood, log_alpha, blank: int, zero_infinity: bool):
    """ctc_loss's gradient with respect to log_probs (kernels/ctc.py: beta, then the
    formula). PyTorch has no derivative for it: recorded, a NotImplemented node."""
    value = kernels_ctc.ctc_loss_backward(
        as_array(grad), as_array(log_probs), as_array(targets), input_lengths,
        target_lengths, as_array(neg_log_likelihood), as_array(log_alpha), blank,
        zero_infinity)
    if not (is_tensor(grad) or is_tensor(log_probs)):
        return value
    return rounding.NotImplemented.apply(grad, log_probs, neg_log_likelihood,
                                         operation="_ctc_loss_backward", value=value)


def value_selecting_backward(grad, dim, indices, shape, keepdim):
    """max(dim)/min(dim): zeros of ``shape`` with ``grad`` scattered to ``indices``
    along ``dim`` (ScatterBackward0)."""
    if not keepdim and len(shape):
        grad, indices = unsqueeze(grad, dim), np.expand_dims(np.asarray(indices), dim)
    return scatter(grad, shape, dim, indices)


def tril(x, diagonal):
    """``x`` with the elements above the ``diagonal``-th diagonal zeroed (TrilBackward0)."""
    return pointwise.tril(x, diagonal) if is_tensor(x) else np.tril(x, diagonal)


def triu(x, diagonal):
    """``x`` with the elements below the ``diagonal``-th diagonal zeroed (TriuBackward0)."""
    return pointwise.triu(x, diagonal) if is_tensor(x) else np.triu(x, diagonal)


def gelu_backward(grad, x, approximate):
    """G * gelu'(x) (GeluBackwardBackward0)."""
    if is_tensor(grad) or is_tensor(x):
        return layers.GeluBackwardBackward0.apply(grad, x, approximate=approximate)
    return kernels_layers.gelu_backward(grad, x, approximate)


def flash_attention_backward(grad, q, k, v, out, logsumexp, mask, scale):
    """scaled_dot_product_attention's three gradients (query, key, value). PyTorch has no
    derivative for them: recorded (create_graph=True), each is a NotImplemented node, and
    backward through it raises PyTorch's error."""
    if not any(is_tensor(t) for t in (grad, q, k, v)):
        return kernels_layers.flash_attention_backward(grad, q, k, v, out, logsumexp, mask,
                                                       scale)
    grads = kernels_layers.flash_attention_backward(
        as_array(grad), as_array(q), as_array(k), as_array(v), as_array(out),
        as_array(logsumexp), mask, scale)
    return tuple(rounding.NotImplemented.apply(
        grad, q, k, v, operation="_scaled_dot_product_flash_attention_for_cpu_backward",
        value=g) for g in grads)


def pixel_shuffle(x, factor: int):
    if is_tensor(x):
        return upsample_ops.pixel_shuffle(x, factor)
    return kernels_upsample.pixel_shuffle(x, factor)


def channel_shuffle(x, groups: int):
    if is_tensor(x):
        return upsample_ops.channel_shuffle(x, groups)
    return kernels_upsample.channel_shuffle(x, groups)


def pixel_unshuffle(x, factor: int):
    if is_tensor(x):
        return upsample_ops.pixel_unshuffle(x, factor)
    return kernels_upsample.pixel_unshuffle(x, factor)

# ---- convolution and pooling (kernels/conv.py) ---------------------------------------
# (On Tensors, create_graph=True, a convolution's gradients are recorded as unfold, matrix
# products and fold, which differentiate again: the same values as PyTorch's one
# ConvolutionBackwardBackward0 node, a node of three outputs, through other nodes. The
# pooling backwards are recorded as PyTorch's ...BackwardBackward0 nodes.)

def constant_pad(x, widths, value=0):
    """``x`` padded with ``value`` (ConstantPadNdBackward0; negative widths cut)."""
    if is_tensor(x):
        return conv.constant_pad(x, widths, value)
    return kernels_conv.constant_pad(x, widths, value)


def im2col(x, kernel, dilation, padding, stride):
    """Every window of ``x`` as a column (Im2ColBackward0, F.unfold)."""
    if is_tensor(x):
        return conv.Im2ColBackward0.apply(x, kernel_size=kernel, dilation=dilation,
                                          padding=padding, stride=stride)
    return kernels_conv.im2col(x, kernel, dilation, padding, stride)


def col2im(cols, size, kernel, dilation, padding, stride):
    """Columns added back into an image of ``size`` (Col2ImBackward0, F.fold)."""
    if is_tensor(cols):
        return conv.Col2ImBackward0.apply(cols, output_size=tuple(size), kernel_size=kernel,
                                          dilation=dilation, padding=padding, stride=stride)
    return kernels_conv.col2im(cols, size, kernel, dilation, padding, stride)


def max_pool_backward(grad, x, indices, spatial=2, node=None):
    """Each window's gradient added to the element it chose (indices count h * W + w, or
    t * H * W + h * W + w) (MaxPool2DWithIndicesBackwardBackward0, or 3D; or ``node``:
    adaptive max pooling's)."""
    if is_tensor(grad):
        node = node or (conv.MaxPool2DWithIndicesBackwardBackward0 if spatial == 2 else
                        conv.MaxPool3DWithIndicesBackwardBackward0)
        return node.apply(grad, x, indices=as_array(indices))
    return kernels_conv.max_pool_backward(grad, indices, x.shape, spatial)


def max_pool_gather(grad, indices, spatial=2):
    """Each window reads the gradient of the element it chose (a gather)."""
    indices = as_array(indices)
    if is_tensor(grad):
        plane = int(np.prod(grad.shape[-spatial:], dtype=np.int64))
        flat = reshape(grad, tuple(grad.shape[:-spatial]) + (plane,))
        chosen = indices.reshape(indices.shape[:-spatial] + (-1,))
        return reshape(gather(flat, flat.ndim - 1, chosen, given_dim=-1), indices.shape)
    return kernels_conv.max_pool_gather(grad, indices, spatial)


def avg_pool(x, geometry, divisors, shown):
    """Average pooling (AvgPool2DBackward0); ``geometry``: kernel, stride, padding, ceil_mode."""
    divisors = as_array(divisors)
    if is_tensor(x):
        kernel, stride, padding, ceil_mode = geometry
        node = conv.AvgPool2DBackward0 if len(kernel) == 2 else conv.AvgPool3DBackward0
        return node.apply(
            x, kernel_size=kernel, stride=stride, padding=padding, ceil_mode=ceil_mode,
            count_include_pad=shown["count_include_pad"],
            divisor_override=shown["divisor_override"], shown_stride=shown["stride"])
    return kernels_conv.avg_pool(x, *geometry, divisors)


def avg_pool_backward(grad, x, geometry, divisors, shown):
    """Each window's gradient over its divisor, added to every element of the window
    (AvgPool2DBackwardBackward0)."""
    divisors = as_array(divisors)
    if is_tensor(grad):
        node = (conv.AvgPool2DBackwardBackward0 if len(geometry[0]) == 2 else
                conv.AvgPool3DBackwardBackward0)
        return node.apply(grad, x, geometry=geometry, divisors=divisors, shown=shown)
    kernel, stride, padding, _ = geometry
    return kernels_conv.avg_pool_backward(grad, x.shape, kernel, stride, padding, divisors)


def adaptive_avg_pool(x, size):
    """Adaptive average pooling to ``size`` (AdaptiveAvgPool2DBackward0, or 3D)."""
    if is_tensor(x):
        node = conv.AdaptiveAvgPool2DBackward0 if len(size) == 2 else \
            conv.AdaptiveAvgPool3DBackward0
        return node.apply(x, output_size=tuple(size))
    return kernels_conv.adaptive_avg_pool(x, size)


def adaptive_avg_pool_backward(grad, x, spatial=2):
    """Each output's gradient over its count, added to every element it averaged
    (AdaptiveAvgPool2DBackwardBackward0, or 3D)."""
    if is_tensor(grad):
        node = conv.AdaptiveAvgPool2DBackwardBackward0 if spatial == 2 else \
            conv.AdaptiveAvgPool3DBackwardBackward0
        return node.apply(grad, x)
    return kernels_conv.adaptive_avg_pool_backward(grad, x.shape, spatial)
