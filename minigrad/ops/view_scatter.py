"""The out-of-place writes into a view: ``select_scatter``, ``slice_scatter``,
``diagonal_scatter`` and ``as_strided_scatter`` (SelectScatterBackward0, ...,
AsStridedScatterBackward0): a copy of ``self`` with one part (a select, a slice, a
diagonal, the elements at given strides of its memory) replaced by ``src``. Each output
element comes from self or from src, so the gradient splits: src gets G's part, self gets
G with that part zeroed. And the other way round, ``narrow_copy`` (NarrowCopyBackward0):
a slice copied out, whose gradient is G placed into zeros."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node
from ..kernels.layout import preserved_copy, strided_view
from ..rules.arguments import narrow_copy_range, normalize_dim
from ..rules.layout import check_as_strided, check_as_strided_scatter
from . import fn
from ._saved import as_shown

__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter", "as_strided_scatter",
           "narrow_copy"]


class SelectScatterBackward0(Node):
    formula = Formula("y", "self with self.select(dim, index) replaced by src",
                      grad={"self": "G with G.select(dim, index) zeroed",
                            "src": "G.select(dim, index)"})

    def forward(self, x, src, dim, index):
        self.save(dim=dim, index=index, _src_sizes=src.shape)
        return fn.place(x, src, "select", (dim, index))

    def backward(self, saved, grad):
        where = (saved.dim, saved.index)
        grad_self = fn.place(grad, fn.zeros(saved._src_sizes, grad), "select", where)
        return grad_self, fn.select(grad, *where)


class SliceScatterBackward0(Node):
    formula = Formula("y", "self with self[start:end:step] along dim replaced by src",
                      grad={"self": "G with the slice zeroed", "src": "G's slice"})

    def forward(self, x, src, dim, start, end, step):
        self.save(dim=dim, start=start, end=end, step=step, _src_sizes=src.shape)
        return fn.place(x, src, "slice", (dim, start, end, step))

    def backward(self, saved, grad):
        where = (saved.dim, saved.start, saved.end, saved.step)
        grad_self = fn.place(grad, fn.zeros(saved._src_sizes, grad), "slice", where)
        return grad_self, fn.slice_part(grad, *where)


class DiagonalScatterBackward0(Node):
    formula = Formula("y", "self with its diagonal (offset, dim1, dim2) replaced by src",
                      grad={"self": "G with its diagonal zeroed", "src": "G's diagonal"})

    def forward(self, x, src, offset, dim1, dim2):
        self.save(offset=offset, dim1=dim1, dim2=dim2, _src_sizes=src.shape)
        return fn.place(x, src, "diagonal", (offset, dim1, dim2))

    def backward(self, saved, grad):
        where = (saved.offset, saved.dim1, saved.dim2)
        grad_self = fn.place(grad, fn.zeros(saved._src_sizes, grad), "diagonal", where)
        return grad_self, fn.diagonal(grad, *where)


class AsStridedScatterBackward0(Node):
    formula = Formula("y", "self's copy with the elements at offset + sum(i_k * stride_k) "
                      "of its memory replaced by src",
                      grad={"self": "G with those elements zeroed", "src": "G's elements there"})

    def forward(self, x, src, size, stride, storage_offset, given_offset=True):
        self.save(size=size, stride=stride, storage_offset=storage_offset if given_offset
                  else None, _offset=storage_offset)
        out = preserved_copy(x)
        strided_view(out, size, stride, storage_offset)[...] = src
        return out

    def backward(self, saved, grad):
        where = (saved.size, saved.stride, saved._offset)
        grad = fn.contiguous(grad)
        return (fn.as_strided_scatter(grad, fn.zeros(saved.size, grad), *where),
                fn.as_strided(grad, *where))


class NarrowCopyBackward0(Node):
    formula = Formula("y", "a copy of x[start:start + length] along dim",
                      grad={"x": "zeros of x's shape with G at that slice"})

    def forward(self, x, dim, start, length, given=(None, None)):
        self.save(dim=as_shown(given[0]), start=as_shown(given[1]), length=length,
                  self_sym_sizes=x.shape, _dim=dim, _start=start)
        return np.array(fn.narrow(x, dim, start, length), copy=True, order="C")

    def backward(self, saved, grad):
        where = (saved._dim, saved._start, saved._start + saved.length, 1)
        return fn.place(fn.zeros(saved.self_sym_sizes, grad), grad, "slice", where)


def _check_src(x, src, part_shape) -> None:
    if tuple(src.shape) != tuple(part_shape):
        raise RuntimeError("expected src to have a size equal to the slice of self. src size = "
                           f"[{', '.join(map(str, src.shape))}], slice size = "
                           f"[{', '.join(map(str, part_shape))}]")


def select_scatter(x, src, dim: int, index: int):
    """A copy of ``x`` with ``x.select(dim, index)`` replaced by ``src``."""
    axis = normalize_dim(dim, x.ndim)
    size = x.shape[axis]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{', '.join(map(str, x.shape))}] at dimension {axis}")
    _check_src(x, src, x.shape[:axis] + x.shape[axis + 1:])
    return SelectScatterBackward0.apply(x, src, dim=axis, index=index % size)


def slice_scatter(x, src, dim: int = 0, start=None, end=None, step: int = 1):
    """A copy of ``x`` with ``x[start:end:step]`` along ``dim`` replaced by ``src``."""
    axis = normalize_dim(dim, x.ndim)
    start, end, step = slice(start, end, step).indices(x.shape[axis])
    count = len(range(start, end, step))
    _check_src(x, src, x.shape[:axis] + (count,) + x.shape[axis + 1:])
    return SliceScatterBackward0.apply(x, src, dim=axis, start=start, end=end, step=step)


def diagonal_scatter(x, src, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """A copy of ``x`` with its diagonal (``offset``, in the plane of ``dim1``, ``dim2``)
    replaced by ``src``."""
    d1, d2 = normalize_dim(dim1, x.ndim), normalize_dim(dim2, x.ndim)
    _check_src(x, src, fn.diagonal(x._data, offset, d1, d2).shape)
    return DiagonalScatterBackward0.apply(x, src, offset=offset, dim1=d1, dim2=d2)


def as_strided_scatter(x, src, size, stride, storage_offset=None):
    """A copy of ``x`` (laid out as ``x.clone()``) with the elements its
    ``as_strided(size, stride, storage_offset)`` would view replaced by ``src``."""
    size, stride = tuple(size), tuple(stride)
    given = storage_offset is not None
    offset = int(storage_offset) if given else 0
    check_as_strided_scatter(x)
    check_as_strided(x._data, size, stride, offset, fresh=True)
    _check_src(x, src, size)
    return AsStridedScatterBackward0.apply(x, src, size=size, stride=stride,
                                           storage_offset=offset, given_offset=given)


def narrow_copy(x, dim: int, start: int, length: int):
    """A new tensor holding ``x.narrow(dim, start, length)``'s elements."""
    given = (dim, start)
    dim, start = narrow_copy_range(x.shape, dim, start, length)
    return NarrowCopyBackward0.apply(x, dim=dim, start=start, length=length, given=given)
