"""Reads and writes along one dim at the places an index tensor names: ``index_select``,
``index_add``, ``index_fill``, ``index_copy``, ``scatter`` (of a number or of a
tensor; ``scatter_add`` is beside ``gather`` in gather.py) and ``scatter_reduce``.

``index_select`` reads whole slices: for dim 0, y[i] = x[index[i]]. Its gradient adds
each slice's gradient back where it was read (``index_add``), and ``index_add``'s
gradient for what was added reads it back (``index_select``): each is the other's
adjoint, as ``gather`` and ``scatter_add`` are. A write (``index_fill``, ``index_copy``,
``scatter``) replaces the places it writes, so no gradient reaches x's old values there:
x's gradient is G with those places set to 0.

``scatter_reduce`` combines each element of x with the src elements sent to it (their sum,
product, mean, maximum or minimum; without x's own value with ``include_self=False``): each
input's gradient is the derivative of that reduction, read back at index for src."""

from __future__ import annotations

import numpy as np

from .. import dtypes, errors
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..autograd.tensor_base import is_tensor, make
from ..rules.arguments import normalize_dim
from ..rules.conversion import checked_fill_value
from ..kernels.layout import preserved_copy
from ..rules.layout import with_contiguous_layout
from . import fn, rounding
from ._saved import as_shown
from .gather import _along, gather_of

__all__ = ["index_select", "index_add", "index_fill", "index_copy", "scatter", "scatter_add",
           "scatter_reduce"]


def _slices(dim: int, index) -> tuple:
    """The NumPy index of the slices ``index`` names along ``dim``."""
    return (slice(None),) * dim + (index,)


def index_add_of(x: np.ndarray, dim: int, index: np.ndarray, source: np.ndarray) -> np.ndarray:
    """A copy of ``x`` with the slices of ``source`` added at ``index`` along ``dim``
    (repeated indices add up)."""
    out = x.copy()
    if out.ndim == 0:
        out[()] += source.reshape(())
        return out
    np.add.at(out, _slices(dim, index), source)
    return out


def index_fill_of(x: np.ndarray, dim: int, index: np.ndarray, value) -> np.ndarray:
    out = preserved_copy(x)  # (torch's clone, then index_fill_)
    out[_slices(dim, index) if out.ndim else ()] = value
    return out


def scatter_of(x: np.ndarray, dim: int, index: np.ndarray, src) -> np.ndarray:
    """A copy of ``x`` with ``src`` (an array like ``index``, or a number) written at
    ``index`` along ``dim``."""
    out = x.copy()
    if not index.size:
        return out
    if out.ndim == 0:
        out[()] = np.asarray(src).reshape(-1)[-1]
        return out
    values = src if np.ndim(src) == 0 else src[tuple(slice(0, n) for n in index.shape)]
    out[_along(index, dim)] = values
    return out


_REDUCERS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
             "amin": np.minimum}


def scatter_reduce_of(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray, reduce: str,
                      include_self: bool) -> np.ndarray:
    """A copy of ``x`` with ``src``'s elements reduced into it at ``index`` along ``dim``, in
    index order (as torch's loop); without include_self, the places reached start from the
    reduction's identity; ``mean`` divides by the count (floor division for integers)."""
    out = x.copy()
    where = _along(index, dim)
    src = src[tuple(slice(0, n) for n in index.shape)]
    if not include_self:
        out[where] = _identity(reduce, x.dtype)
    _REDUCERS[reduce].at(out, where, src)
    if reduce in ("amax", "amin") and out.dtype.kind == "f":
        _keep_first_zero(out, x, where, src, include_self)
    if reduce != "mean":
        return out
    count = np.full(x.shape, int(include_self), x.dtype)
    np.add.at(count, where, 1)
    count[count == 0] = 1
    return out // count if x.dtype.kind in "iub" else out / count


def _keep_first_zero(out, x, where, src, include_self):
    """amax and amin keep the value they hold when the next is equal (PyTorch's std::max and
    std::min), NumPy's maximum and minimum take the next: this shows only between -0. and
    0. A place whose result is a zero holds the first zero of its sequence (x's own with
    include_self, then src's in index order: NumPy's .at and PyTorch's loop walk the same),
    so its sign is that zero's (in place, on ``out``)."""
    zero = out == 0
    if not zero.any():
        return
    where = np.broadcast_arrays(*where)
    order = np.where(src == 0, np.arange(src.size).reshape(src.shape), src.size)
    first = np.full(out.shape, src.size)
    np.minimum.at(first, tuple(where), order)
    chosen = (order == first[tuple(where)]) & (src == 0)
    negative = np.zeros(out.shape, bool)
    negative[tuple(w[chosen] for w in where)] = np.signbit(src[chosen])
    own = x == 0
    if not include_self:  # (a place no src reaches keeps x)
        reached = np.zeros(out.shape, bool)
        reached[tuple(where)] = True
        own &= ~reached
    negative = np.where(own, np.signbit(x), negative)
    out[zero] = np.where(negative[zero], -0.0, 0.0)


def _identity(reduce, dtype):
    if reduce in ("amax", "amin"):
        bound = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
        infinite = dtype.kind == "f"
        return (-np.inf if infinite else bound.min) if reduce == "amax" else \
            (np.inf if infinite else bound.max)
    return 1 if reduce == "prod" else 0


class IndexSelectBackward0(Node):
    formula = Formula("y", "x.index_select(dim, index): for dim 0, y[i] = x[index[i]]",
                      grad={"x": "zeros with G added at index along dim (index_add)"})

    def forward(self, x, dim, index, given):
        self.save(dim=as_shown(given), _dim=dim, index=index, self_sym_sizes=x.shape)
        return np.take(x, index, axis=dim) if x.ndim else x.reshape(1)[index]

    def backward(self, saved, grad):
        zeros = fn.zeros(saved.self_sym_sizes, grad)
        return fn.index_add(zeros, saved._dim, saved.index, grad)


class IndexAddBackward0(Node):
    formula = Formula("y", "x with alpha * source added at index along dim",
                      grad={"x": "G", "source": "alpha * G read at index along dim"})
    saves = {"source": Input(1)}

    def forward(self, x, source, dim, index, alpha):
        self.save(dim=dim, index=index, alpha=alpha, source_dim=source.ndim)
        return index_add_of(x, dim, index, source * alpha if alpha != 1 else source)

    def backward(self, saved, grad):
        picked = fn.expand(fn.index_select(grad, saved.dim, saved.index), saved.source.shape)
        return grad, picked * saved.alpha if saved.alpha != 1 else picked


class IndexFillBackward0(Node):
    formula = Formula("y", "x with value written at index along dim",
                      grad={"x": "G with 0 at the places written"})

    def forward(self, x, dim, index, value):
        self.save(dim=dim, index=index)
        return index_fill_of(x, dim, index, value)

    def backward(self, saved, grad):
        return fn.index_fill(grad, saved.dim, saved.index, 0)


class IndexFillBackward1(Node):
    formula = Formula("y", "x with the value of a 0-dim tensor written at index along dim",
                      grad={"x": "G with 0 at the places written",
                            "value": "the sum of G at the places written"},
                      note="How trace's backward is recorded by create_graph=True.")

    def forward(self, x, value, dim, index):
        self.save(dim=dim, index=index)
        return index_fill_of(x, dim, index, value)

    def backward(self, saved, grad):
        return (fn.index_fill(grad, saved.dim, saved.index, 0),
                fn.sum(fn.index_select(grad, saved.dim, saved.index)))


class IndexCopyBackward0(Node):
    formula = Formula("y", "x with the slices of source written at index along dim",
                      grad={"x": "G with 0 at the places written",
                            "source": "G read at index along dim"})

    def forward(self, x, source, dim, index):
        self.save(dim=dim, index=index, source_shape=source.shape)
        out = x.copy()
        out[_slices(dim, index) if out.ndim else ()] = source
        return out

    def backward(self, saved, grad):
        return (fn.index_fill(grad, saved.dim, saved.index, 0),
                fn.expand(fn.index_select(grad, saved.dim, saved.index), saved.source_shape))


class ScatterBackward1(Node):
    formula = Formula("y", "x with value written at index along dim",
                      grad={"x": "G with 0 at the places written"})

    def forward(self, x, dim, index, value):
        self.save(dim=dim, index=index)
        return scatter_of(x, dim, index, value)

    def backward(self, saved, grad):
        return fn.scatter_value(grad, saved.dim, saved.index, 0)


class ScatterReduceBackward0(Node):
    formula = Formula("z", "x with src reduced into it at index along dim (sum, prod, mean, "
                           "amax or amin)",
                      grad={"x": "G times the reduction's derivative for x (0 at index "
                                 "without include_self)",
                            "src": "G times the reduction's derivative, read at index"})
    saves = {"self": Input(0), "src": Input(1), "result": RESULT}

    def forward(self, x, src, dim, index, reduce, include_self, given_dim):
        self.save(dim=as_shown(given_dim), _dim=dim, index=index, reduce=reduce,
                  include_self=include_self)
        return scatter_reduce_of(x, dim, index, src, reduce, include_self)

    def backward(self, saved, grad):
        return scatter_reduce_backward(grad, saved.self, saved._dim, saved.index, saved.src,
                                       saved.reduce, saved.include_self, saved.result)


def scatter_reduce_backward(grad, x, dim, index, src, reduce, include_self, result):
    """torch's scatter_reduce_backward, reduction by reduction."""
    index = fn.as_array(index)
    if reduce == "sum":
        grad_self, grad_src = grad, fn.gather(grad, dim, index)
    elif reduce == "mean":
        grad_self, grad_src = _mean_backward(grad, x, dim, index, include_self)
    elif reduce == "prod":
        grad_self, grad_src = _prod_backward(grad, x, dim, index, src, include_self, result)
    else:  # (amax, amin: G shared evenly by the elements equal to the result)
        grad_self, grad_src = _extremum_backward(grad, x, dim, index, src, result)
    if not include_self:
        grad_self = fn.scatter_value(grad_self, dim, index, 0)
    return grad_self, grad_src


def _mean_backward(grad, x, dim, index, include_self):
    dtype = fn.as_array(grad).dtype
    count = scatter_reduce_of(np.full(x.shape, int(include_self), dtype), dim, index,
                              np.ones(index.shape, dtype), "sum", True)
    count[count == 0] = 1
    count_src = fn.as_constant(gather_of(count, dim, index), grad)
    return grad / fn.as_constant(count, grad), fn.gather(grad, dim, index) / count_src


def _prod_backward(grad, x, dim, index, src, include_self, result):
    """The product of the others: result / x where x is not 0, else explicitly."""
    masked_self = fn.masked_fill(x, fn.as_array(x) == 0, 1)
    grad_self = grad * _reduced(masked_self, dim, index, src, "prod", include_self) / masked_self
    src_zero = fn.as_array(src) == 0
    zeros = scatter_reduce_of(np.zeros(x.shape), dim, index, src_zero.astype(float), "sum", True)
    single_zero = src_zero & (gather_of(zeros, dim, index) == 1)
    masked_src = fn.masked_fill(src, single_zero, 1)
    masked_src_result = _reduced(x, dim, index, masked_src, "prod", include_self)
    grad_src = fn.where(single_zero, fn.gather(grad * masked_src_result, dim, index),
                        fn.gather(grad * result, dim, index) / fn.masked_fill(src, src_zero, 1))
    return grad_self, grad_src


def _extremum_backward(grad, x, dim, index, src, result):
    dtype = fn.as_array(grad).dtype
    value = gather_of(fn.as_array(result), dim, index)
    self_is_result = (fn.as_array(x) == fn.as_array(result)).astype(dtype)
    src_is_result = (fn.as_array(src) == value).astype(dtype)
    shared = scatter_reduce_of(self_is_result, dim, index, src_is_result, "sum", True)
    grad_distributed = grad / fn.as_constant(shared, grad)
    return (fn.as_constant(self_is_result, grad) * grad_distributed,
            fn.as_constant(src_is_result, grad) * fn.gather(grad_distributed, dim, index))


def _reduced(x, dim, index, src, reduce, include_self):
    """scatter_reduce on Tensors (recorded) or arrays."""
    if is_tensor(x) or is_tensor(src):
        return scatter_reduce(x, dim, make(index), src, reduce, include_self=include_self)
    return scatter_reduce_of(x, dim, index, src, reduce, include_self)


# ---- entry functions ----------------------------------------------------------------------


def _vector(name, x, dim, index):
    """A 1-D (or 0-dim) index tensor's values, as int64, and the size they index."""
    if not is_tensor(index):
        raise TypeError(f"{name}(): argument 'index' (position 2) must be Tensor, "
                        f"not {type(index).__name__}")
    return index._data.reshape(-1).astype(np.int64), (x.shape[dim] if x.ndim else 1)


def _first_outside(values, low, size):
    bad = (values < low) | (values >= size)
    return int(values[bad][0]) if bad.any() else None


def index_select(x, dim, index):
    """The slices of ``x`` at ``index`` (a 1-D int tensor) along ``dim``."""
    given, dim = dim, normalize_dim(dim, x.ndim)
    values, size = _vector("index_select", x, dim, index)
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if x.ndim == 0 and values.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{values.size} value(s)")
    if x.ndim > 1 and not x._data.size and values.size and not size:  # (torch's empty path)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = _first_outside(values, 0, size)
    if bad is not None and dim == 0:
        raise IndexError("index out of range in self")
    if bad is not None:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
    if index.ndim == 0 and x.ndim <= 1 or x.ndim == 0:
        values = values.reshape(())
    result = IndexSelectBackward0.apply(x, dim=dim, index=values, given=given)
    return with_contiguous_layout(result) if not result._data.size else result


def index_add(x, dim, index, source, alpha=1):
    """``x`` with ``alpha * source``'s slices added at ``index`` along ``dim``."""
    dim = normalize_dim(dim, x.ndim)
    values, size = _vector("index_add", x, dim, index)
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{dtypes.SCALAR_NAMES[index.dtype]}")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"index_add_(): self ({dtypes.SCALAR_NAMES[x.dtype]}) and source "
                           f"({dtypes.SCALAR_NAMES[source.dtype]}) must have the same scalar type")
    if dim and dim >= source.ndim:
        raise RuntimeError(f"index_add_(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {source.ndim}")
    count = source.shape[dim] if source.ndim else 1
    if values.size != count:
        raise RuntimeError(f"index_add_(): Number of indices ({values.size}) should be equal "
                           f"to source.size(dim): ({count}), for dim: {dim}")
    kept = [[n for d, n in enumerate(t.shape) if d != dim or not (x.ndim and source.ndim)]
            for t in (x, source)]
    if kept[0] != kept[1]:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(x.shape)} "
                           f"source.shape = {list(source.shape)}")
    bad = _first_outside(values, 0, size)
    if bad is not None and (x.ndim <= 1 or alpha != 1):  # (ATen's 1-d path, and its path for
        raise IndexError("index out of range in self")  # an alpha, check as index_select)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    return IndexAddBackward0.apply(x, source, cast_to=x.dtype, dim=dim, index=values,
                                   alpha=alpha)


def index_fill(x, dim, index, value):
    """``x`` with ``value`` written in the slices at ``index`` along ``dim``."""
    dim = normalize_dim(dim, x.ndim)
    values, size = _vector("index_fill", x, dim, index)
    if index.dtype is not dtypes.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    bad = _first_outside(values, -size, size)
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    value = checked_fill_value(value.item() if is_tensor(value) else value, x.dtype)
    return IndexFillBackward0.apply(x, dim=dim, index=values % max(size, 1), value=value)


def index_copy(x, dim, index, source):
    """``x`` with ``source``'s slices written at ``index`` along ``dim``."""
    dim = normalize_dim(dim, x.ndim)
    values, size = _vector("index_copy", x, dim, index)
    _check_index_copy(x, dim, index, source)
    bad = _first_outside(values, 0, size)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {dim} "
                         f"with size {size}")
    return IndexCopyBackward0.apply(x, source, cast_to=x.dtype, dim=dim, index=values)


def _check_index_copy(x, dim, index, source) -> None:
    """PyTorch's checks of index_copy, in its order: the index's dims and count against
    the source's, the dtypes, then the slices' shapes."""
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    count = index.numel()
    if source.ndim == 0 and count != 1:
        raise IndexError("index_copy_(): When source is scalar, index should have one element "
                         f"(got {count})")
    if source.ndim != x.ndim and source.ndim and x.ndim:
        raise IndexError("index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.ndim}), "
                         f"destination dimensionality ({x.ndim})")
    if index.dtype is not dtypes.int64:
        raise RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                           f"{dtypes.SCALAR_NAMES[index.dtype]}")
    if source.dtype is not x.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but "
                           f"got (self) {dtypes.SCALAR_NAMES[x.dtype]} and (source) "
                           f"{dtypes.SCALAR_NAMES[source.dtype]}")
    sliced, source_sliced = ([n for d, n in enumerate(t.shape) if d != dim] for t in (x, source))
    if sliced != source_sliced:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. Destination "
            f"slice shape: {' '.join(map(str, sliced))} at dimension {dim} and source slice "
            f"shape: {' '.join(map(str, source_sliced))} at dimension 0.")
    if index.ndim and count != (source.shape[dim] if source.ndim else 1):
        raise IndexError(f"index_copy_(): Number of indices ({count}) should be equal to "
                         f"source.size(dim) ({source.shape[dim] if source.ndim else 1})")


def _one_element_index(x, index, src):
    """torch counts a 0-dim index (and a 0-dim source) as one element along a 1-dim
    tensor's dim: ``torch.zeros(10).scatter_(0, torch.tensor(y), value=1)``, the one-hot
    label of pytorch/tutorials' basics/transforms_tutorial.py."""
    if x.ndim == 1 and is_tensor(index) and index.ndim == 0:
        index = fn.reshape(index, (1,))
        if is_tensor(src) and src.ndim == 0:
            src = fn.reshape(src, (1,))
    return index, src


def _scatter_index(name, x, dim, index, src=None):
    """torch's checks of scatter's index tensor (int64, x's number of dims, in range), and
    between its dtype's and its dims' (scatter_gather_dtype_check) the source's dtype."""
    if not is_tensor(index):
        raise TypeError(f"{name}(): argument 'index' (position 2) must be Tensor, "
                        f"not {type(index).__name__}")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if is_tensor(src) and src.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if max(index.ndim, 1) != max(x.ndim, 1) and index.numel():  # (0-dim: as 1-d, as torch)
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    _check_shape(x, dim, index, src)
    values = index._data.astype(np.int64)
    size = x.shape[dim] if x.ndim else 1
    bad = (values < 0) | (values >= size)
    if bad.any():
        raise RuntimeError(f"index {int(values[bad].flat[0])} is out of bounds for "
                           f"dimension {dim} with size {size}")
    return values



def _check_shape(x, dim: int, index, src) -> None:
    """torch's scatter_shape_check: index no larger than x apart from ``dim``, and no
    larger than a source tensor in any dim (a 0-dim tensor counts as size 1)."""
    if not index.numel():
        return
    sizes = [tuple(t.shape) or (1,) for t in (index, x)]
    larger = any(d != dim and got > size for d, (got, size) in enumerate(zip(*sizes)))
    text = (f"Expected index [{', '.join(map(str, index.shape))}] to be no larger than self "
            f"[{', '.join(map(str, x.shape))}] apart from dimension {dim}")
    if is_tensor(src):
        larger = larger or any(got > size for got, size in zip(sizes[0], tuple(src.shape) or (1,)))
        text += f" and to be no larger size than src [{', '.join(map(str, src.shape))}]"
    if larger:
        raise RuntimeError(text)


def scatter(x, dim, index, src=None, value=None, reduce=None):
    """``x`` with ``src``'s elements (or a number) written at ``index`` along ``dim``:
    for dim 1, y[i][index[i][j]] = src[i][j]."""
    if reduce is not None and reduce not in _TWO_REDUCERS:
        raise RuntimeError("reduce argument must be either add or multiply.")
    if reduce is not None and is_tensor(src):
        errors.warn_once(SCATTER_REDUCE_DEPRECATED, stacklevel=4)
    dim = normalize_dim(dim, x.ndim)
    src = value if src is None else src
    index, src = _one_element_index(x, index, src)
    values = _scatter_index("scatter", x, dim, index, src)
    if reduce is not None:
        return _scatter_reducing(x, dim, values, src, reduce)
    if is_tensor(src):
        if src.dtype != x.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        return fn.scatter_into(x, src, dim, values)
    return ScatterBackward1.apply(x, dim=dim, index=values, value=src)


_TWO_REDUCERS = {"add": "sum", "multiply": "prod"}
SCATTER_REDUCE_DEPRECATED = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in "
    "a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.")


def _scatter_reducing(x, dim, index, src, reduce):
    """scatter's older ``reduce='add'`` or ``'multiply'``: src (or the number, once per
    index) added or multiplied in at ``index``. PyTorch has no derivative for it: its node
    is ``NotImplemented``, whose backward raises."""
    data = src._data if is_tensor(src) else np.full(index.shape, src, x._data.dtype)
    out = scatter_reduce_of(x._data, dim, index, data, _TWO_REDUCERS[reduce], True)
    inputs = (x, src) if is_tensor(src) else (x,)
    return rounding.NotImplemented.apply(*inputs, operation="scatter", value=out)


def scatter_add(x, dim, index, src):
    """``x`` with ``src``'s elements added at ``index`` along ``dim`` (repeats add up)."""
    dim = normalize_dim(dim, x.ndim)
    index, src = _one_element_index(x, index, src)
    values = _scatter_index("scatter_add", x, dim, index, src)
    if src.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return fn.scatter_add_into(x, src, dim, values)


def scatter_reduce(x, dim, index, src, reduce, include_self=True):
    """``x`` with ``src``'s elements reduced into it at ``index`` along ``dim``: ``reduce``
    one of "sum", "prod", "mean", "amax", "amin"; ``include_self=False`` leaves x's own
    values out of the places reached."""
    if reduce not in _REDUCERS:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    given, dim = dim, normalize_dim(dim, x.ndim)
    index, src = _one_element_index(x, index, src)
    values = _scatter_index("scatter_reduce", x, dim, index, src)
    if src.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return ScatterReduceBackward0.apply(x, src, dim=dim, index=values, reduce=reduce,
                                        include_self=bool(include_self), given_dim=given)
