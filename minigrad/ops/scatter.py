"""Reads and writes along one dim at the places an index tensor names: ``index_select``,
``index_add``, ``index_fill``, ``index_copy``, and ``scatter`` (of a number or of a
tensor; ``scatter_add`` is beside ``gather`` in gather.py).

``index_select`` reads whole slices: for dim 0, y[i] = x[index[i]]. Its gradient adds
each slice's gradient back where it was read (``index_add``), and ``index_add``'s
gradient for what was added reads it back (``index_select``): each is the other's
adjoint, as ``gather`` and ``scatter_add`` are. A write (``index_fill``, ``index_copy``,
``scatter``) replaces the places it writes, so no gradient reaches x's old values there:
x's gradient is G with those places set to 0."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..autograd.tensor_base import is_tensor, make
from ..rules.arguments import normalize_dim
from . import fn
from ._saved import as_shown
from .gather import _along

__all__ = ["index_select", "index_add", "index_fill", "index_copy", "scatter", "scatter_add"]


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
    out = x.copy()
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


class IndexSelectBackward0(Node):
    formula = Formula("y", "x.index_select(dim, index): for dim 0, y[i] = x[index[i]]",
                      grad={"x": "zeros with G added at index along dim (index_add)"})

    def forward(self, x, dim, index, given):
        self.save(dim=as_shown(given), _dim=dim, index=index, self_sym_sizes=x.shape)
        return np.take(x, index, axis=dim) if x.ndim else x[index.reshape(())]

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
    bad = _first_outside(values, 0, size)
    if bad is not None and dim == 0:
        raise IndexError("index out of range in self")
    if bad is not None:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
    if index.ndim == 0 and x.ndim <= 1:
        values = values.reshape(())
    return IndexSelectBackward0.apply(x, dim=dim, index=values, given=given)


def index_add(x, dim, index, source, alpha=1):
    """``x`` with ``alpha * source``'s slices added at ``index`` along ``dim``."""
    dim = normalize_dim(dim, x.ndim)
    values, size = _vector("index_add", x, dim, index)
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{dtypes.SCALAR_NAMES[index.dtype]}")
    count = source.shape[dim] if source.ndim else 1
    if values.size != count:
        raise RuntimeError(f"index_add_(): Number of indices ({values.size}) should be equal "
                           f"to source.size(dim): ({count}), for dim: {dim}")
    bad = _first_outside(values, 0, size)
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
    value = value.item() if is_tensor(value) else value
    return IndexFillBackward0.apply(x, dim=dim, index=values % max(size, 1), value=value)


def index_copy(x, dim, index, source):
    """``x`` with ``source``'s slices written at ``index`` along ``dim``."""
    dim = normalize_dim(dim, x.ndim)
    values, size = _vector("index_copy", x, dim, index)
    if index.dtype is not dtypes.int64:
        raise RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                           f"{dtypes.SCALAR_NAMES[index.dtype]}")
    bad = _first_outside(values, 0, size)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {dim} "
                         f"with size {size}")
    return IndexCopyBackward0.apply(x, source, cast_to=x.dtype, dim=dim, index=values)


def _scatter_index(name, x, dim, index):
    """torch's checks of scatter's index tensor (int64, x's number of dims, in range)."""
    if not is_tensor(index):
        raise TypeError(f"{name}(): argument 'index' (position 2) must be Tensor, "
                        f"not {type(index).__name__}")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if index.ndim != x.ndim and index.numel():
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    values = index._data.astype(np.int64)
    size = x.shape[dim] if x.ndim else 1
    bad = (values < 0) | (values >= size)
    if bad.any():
        raise RuntimeError(f"index {int(values[bad].flat[0])} is out of bounds for "
                           f"dimension {dim} with size {size}")
    return values


def scatter(x, dim, index, src=None, value=None, reduce=None):
    """``x`` with ``src``'s elements (or a number) written at ``index`` along ``dim``:
    for dim 1, y[i][index[i][j]] = src[i][j]."""
    if reduce is not None:
        raise NotImplementedError("scatter(reduce=...): minigrad writes only; use "
                                  "scatter_add or scatter_reduce's sum with index_add")
    dim = normalize_dim(dim, x.ndim)
    src = value if src is None else src
    values = _scatter_index("scatter", x, dim, index)
    if is_tensor(src):
        if src.dtype != x.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        return fn.scatter_into(x, src, dim, values)
    return ScatterBackward1.apply(x, dim=dim, index=values, value=src)


def scatter_add(x, dim, index, src):
    """``x`` with ``src``'s elements added at ``index`` along ``dim`` (repeats add up)."""
    dim = normalize_dim(dim, x.ndim)
    values = _scatter_index("scatter_add", x, dim, index)
    if src.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return fn.scatter_add_into(x, src, dim, values)
