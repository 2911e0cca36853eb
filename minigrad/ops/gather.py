"""``gather``: read ``x`` along one dim at the places an index tensor names, and
its backward, ``scatter_add``; ``take`` and ``put``, the same on ``x`` read as one dim.

For dim 1 of a 2-D ``x``: y[i][j] = x[i][index[i][j]]. The index may be smaller
than ``x`` in the other dims (only its part of ``x`` is read) and larger along
``dim`` (a place may be read many times). Each x element gets the sum of the
gradients of the places that read it: zeros with G added at the index
(``scatter_add``), whose own gradient is a gather again.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..autograd.saved import SavedTensor
from . import fn
from ..autograd.tensor_base import is_tensor
from ..rules.arguments import normalize_dim
from ._saved import as_shown
from ..rules.indexing import check_put
from ..rules.layout import with_contiguous_layout

__all__ = ["gather", "GatherBackward0", "ScatterAddBackward0", "take", "put", "PutBackward0"]


def _along(index: np.ndarray, dim: int) -> tuple:
    """The NumPy index that reads ``index``'s places along ``dim``: the index
    itself along ``dim``, every other dim's own position elsewhere."""
    places = list(np.indices(index.shape, sparse=True))
    places[dim] = index
    return tuple(places)


def gather_of(x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    """``x`` read at ``index`` along ``dim`` (arrays; a 0-dim x or index reads as a
    1-D one of one element, as torch reads it)."""
    if x.ndim == 0 or index.ndim == 0 or index.size == 0:  # (an empty index: any dims)
        return x.reshape(-1)[index.reshape(-1)].reshape(index.shape)
    return np.ascontiguousarray(x[_along(index, dim)])


def scatter_add_of(src: np.ndarray, shape, dim: int, index: np.ndarray,
                   into: np.ndarray | None = None) -> np.ndarray:
    """Zeros of ``shape`` (or a copy of ``into``) with ``src`` added at ``index`` along
    ``dim`` (arrays); float16 added up in float32 and rounded once, as PyTorch's kernel."""
    if src.dtype == np.float16:
        wide = scatter_add_of(src.astype(np.float32), shape, dim, index,
                              None if into is None else into.astype(np.float32))
        return wide.astype(np.float16)
    out = np.zeros(shape, src.dtype) if into is None else into.copy()
    if index.size and index.shape != src.shape:  # (src may be larger than index)
        src = src[tuple(slice(0, n) for n in index.shape)]
    if index.size == 0:
        return out
    if out.ndim == 0 or index.ndim == 0:
        flat = out.reshape(-1)
        np.add.at(flat, index.reshape(-1), src.reshape(-1))
        return flat.reshape(shape)
    np.add.at(out, _along(index, dim), src)
    return out


class GatherBackward0(Node):
    formula = Formula("y[i][j]", "x[i][index[i][j]] (dim 1; likewise along any dim)",
                      grad={"x": "zeros with G added at index along dim (scatter_add)"})
    saves = {"self": Input(0)}

    def forward(self, x, dim, index, given_dim=None, index_tensor=None):
        # (the index as torch keeps it: the tensor itself, checked for in-place changes)
        given_dim = dim if given_dim is None else given_dim
        self.save(dim=as_shown(given_dim), _dim=dim, _given_dim=given_dim,
                  index=index if index_tensor is None else SavedTensor(index_tensor),
                  sparse_grad=False)
        return gather_of(x, dim, index)

    def backward(self, saved, grad):
        return fn.scatter_add(grad, saved.self.shape, saved._dim,
                              saved.index, given_dim=saved._given_dim)


class ScatterAddBackward0(Node):
    formula = Formula("z", "x.scatter_add(dim, index, src)",
                      grad={"x": "G", "src": "G read back at index along dim (a gather)"},
                      note="Also how the backward of gather is recorded by a backward with "
                           "create_graph=True (x: zeros).")

    # (inputs as torch's: the tensor added into, then src)
    def forward(self, x, src, dim, index, given_dim=None):
        given_dim = dim if given_dim is None else given_dim
        self.save(dim=as_shown(given_dim), _dim=dim, _given_dim=given_dim, index=index)
        return scatter_add_of(src, x.shape, dim, index, into=x)

    def backward(self, saved, grad):
        return grad, fn.gather(grad, saved._dim, saved.index, given_dim=saved._given_dim)


def _check_index(x, dim: int, index) -> None:
    """torch's checks of gather's index, with its texts."""
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if index.ndim != max(x.ndim, 1) and not (index.ndim <= 1 and x.ndim <= 1) and index.numel():
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    x_shape = x.shape if x.ndim else (1,)
    index_shape = tuple(index.shape) if index.ndim else (1,)
    for d, (got, size) in enumerate(zip(index_shape, x_shape)):
        if d != dim and got > size and index.numel():  # (an empty index: no check)
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index "
                f"[{', '.join(map(str, index_shape))}] to be no larger than self "
                f"[{', '.join(map(str, x_shape))}] apart from dimension {dim}")
    values = index._data
    if values.size:
        size = x_shape[dim]
        bad = (values < 0) | (values >= size)
        if bad.any():
            raise RuntimeError(f"index {int(values[bad].flat[0])} is out of bounds for "
                               f"dimension {dim} with size {size}")


def gather(x, dim, index, *, sparse_grad: bool = False):
    """``x`` read along ``dim`` at ``index`` (an int64 or int32 tensor of x's number
    of dims): for dim 1, y[i][j] = x[i][index[i][j]]."""
    if not is_tensor(index):
        raise TypeError(f"gather(): argument 'index' (position 2) must be Tensor, "
                        f"not {type(index).__name__}")
    wrapped = normalize_dim(dim, max(x.ndim, 1))
    _check_index(x, wrapped, index)
    if sparse_grad:
        raise NotImplementedError(
            "gather(sparse_grad=True): minigrad has no sparse tensors; leave sparse_grad "
            "False (the gradient is then an ordinary tensor)")
    return with_contiguous_layout(GatherBackward0.apply(
        x, dim=wrapped, index=index._data.astype(np.int64, copy=False), given_dim=dim,
        index_tensor=index))


class TakeBackward0(Node):
    formula = Formula("y", "x flattened, read at index",
                      grad={"x": "zeros of x's shape with G added at index (repeats add up)"})
    saves = {"self": Input(0)}

    def forward(self, x, index):
        self.save(index=index)
        return np.array(x.reshape(-1)[index])  # (a new array, of index's shape)

    def backward(self, saved, grad):
        return fn.put_into_zeros(grad, saved.self.shape, saved.index)


def take(x, index):
    """The elements of ``x`` (read as one dimension) at ``index``; the result has
    ``index``'s shape (a negative index counts from the end)."""
    if index.dtype is not dtypes.int64:
        raise RuntimeError("take(): Expected a long tensor for index, but got "
                           f"{dtypes.SCALAR_NAMES[index.dtype]}")
    positions = index._data
    outside = (positions >= x.numel()) | (positions < -x.numel())
    if outside.any():
        raise IndexError(f"out of range: tried to access index {positions[outside].flat[0]} on "
                         f"a tensor of {x.numel()} elements.")
    return TakeBackward0.apply(x, index=np.where(positions < 0, positions + x.numel(),
                                                 positions))


def put_of(x: np.ndarray, index: np.ndarray, source: np.ndarray, accumulate: bool) -> np.ndarray:
    """``x`` (read as one dim, in its logical order) with ``source`` written (or added:
    repeats add up) at ``index``."""
    flat, index = x.reshape(-1).copy(), index.reshape(-1)
    if accumulate:
        np.add.at(flat, index, source.reshape(-1))
    else:
        flat[index] = source.reshape(-1)
    return flat.reshape(x.shape)


class PutBackward0(Node):
    formula = Formula("y", "x flattened, source written at index (added, with accumulate)",
                      grad={"x": "G (with 0 at index unless accumulate)",
                            "source": "G read at index"})

    def forward(self, x, source, index, accumulate):
        self.save(index=index, accumulate=accumulate, source_shape=source.shape)
        return put_of(x, index, source, accumulate)

    def backward(self, saved, grad):
        kept = grad if saved.accumulate else fn.put_zeros(grad, saved.index)
        return kept, fn.reshape(fn.take(grad, saved.index), saved.source_shape)


def put(x, index, source, accumulate: bool = False):
    """``x`` read as one dim with ``source``'s elements written at ``index`` (added
    there with ``accumulate``; a negative index counts from the end)."""
    check_put(x, index, source)
    positions = index._data.reshape(-1)
    return PutBackward0.apply(x, source, index=np.where(positions < 0, positions + x.numel(),
                                                        positions), accumulate=bool(accumulate))
