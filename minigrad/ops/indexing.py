"""Indexing: ``x[0]``, ``x[1:]``, ``x[None]``, ``x[..., 0]``, ``x[mask]``,
``x[[0, 2]]`` and ``x[idx] = value``.

As in PyTorch, an index is applied one piece at a time: integers become
``select`` (SelectBackward0), slices ``slice`` (SliceBackward0), ``None``
``unsqueeze``, and integer or boolean arrays one final advanced index
(IndexBackward0). The backward of each puts the gradient into a tensor of
zeros shaped like the input, at the positions that were read.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.node import Node
from ._common import is_tensor, normalize_dim

__all__ = ["getitem", "setitem", "select", "slice_dim", "index_put_into"]


class SelectBackward0(Node):
    """y = x[..., index, ...] at dim.   dy/dx: the gradient placed at index, zeros elsewhere"""

    is_view = True

    def forward(self, x, dim, index):
        self.save(dim=dim, index=index, self_sym_sizes=x.shape)
        return x[(slice(None),) * dim + (index,)]

    def backward(self, grad):
        index = (slice(None),) * self._saved_dim + (self._saved_index,)
        return index_put_into(grad, self._saved_self_sym_sizes, index)


class SliceBackward0(Node):
    """y = x[start:end:step] along dim.   dy/dx: the gradient placed in the slice, zeros elsewhere"""

    is_view = True

    def forward(self, x, dim, start, end, step):
        self.save(dim=dim, start=start, end=end, step=step, self_sym_sizes=x.shape)
        return x[(slice(None),) * dim + (slice(start, end, step),)]

    def backward(self, grad):
        index = (slice(None),) * self._saved_dim + (
            slice(self._saved_start, self._saved_end, self._saved_step),)
        return index_put_into(grad, self._saved_self_sym_sizes, index)


class IndexBackward0(Node):
    """y = x[indices] with integer or boolean arrays (a gather; makes a copy).
    dy/dx: the gradient added at the positions read (repeated positions add up)"""

    def forward(self, x, indices):
        self.save(indices=indices, self_sym_sizes=x.shape)
        return x[indices]

    def backward(self, grad):
        return index_put_into(grad, self._saved_self_sym_sizes, self._saved_indices)


class IndexPutBackward0(Node):
    """y = zeros(shape) with values added at index (the backward of indexing).
    dy/dvalues = the gradient read back at index"""

    def forward(self, values, shape, index):
        self.save(indices=index)
        out = np.zeros(shape, dtype=values.dtype)
        if _is_basic(index):
            out[index] = values
        else:
            np.add.at(out, index, values)
        return out

    def backward(self, grad):
        return grad[self._saved_indices]


class CopySlices(Node):
    """y = x with y[index] = value (``x[index] = value`` on a tensor in the graph).
    dy/dx: the gradient with zeros at index; dy/dvalue: the gradient read at index"""

    def forward(self, x, value, index):
        self.save(indices=index)
        out = x.copy()
        out[index] = value
        return out

    def backward(self, grad):
        from ..tensor import Tensor

        index = self._saved_indices
        untouched = np.ones(grad.shape, dtype=bool)
        untouched[index] = False
        grad_value = grad[index] if self.needs_input_grad[1] else None
        return grad * Tensor._make(untouched), grad_value


def _is_basic(index) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return all(isinstance(i, (int, slice, np.integer)) or i is None for i in items)


def index_put_into(values, shape, index):
    """A tensor of zeros shaped ``shape`` with ``values`` added at ``index``."""
    return IndexPutBackward0.apply(values, shape=tuple(shape), index=index)


def select(x, dim, index):
    dim = normalize_dim(dim, x.ndim)
    size = x.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    return SelectBackward0.apply(x, dim=dim, index=index % size)


def slice_dim(x, dim, start, end, step):
    if step is not None and step <= 0:
        raise ValueError("step must be greater than zero")
    start, end, step = slice(start, end, step).indices(x.shape[dim])
    end = max(end, start)
    return SliceBackward0.apply(x, dim=dim, start=start, end=end, step=step)


def _as_index_array(item, dim, x_shape):
    """A list, NumPy array or Tensor used as an index, as a NumPy array."""
    array = item._data if is_tensor(item) else np.asarray(item)
    if array.dtype == np.bool_:
        for offset, size in enumerate(array.shape):
            if dim + offset >= len(x_shape) or x_shape[dim + offset] != size:
                raise IndexError(
                    f"The shape of the mask [{', '.join(map(str, array.shape))}] at index "
                    f"{offset} does not match the shape of the indexed tensor "
                    f"[{', '.join(map(str, x_shape))}] at index {dim + offset}"
                )
        return array
    if not np.issubdtype(array.dtype, np.integer):
        if array.size == 0:
            return array.astype(np.int64)
        raise IndexError(
            "tensors used as indices must be long, int, byte or bool tensors"
        )
    size = x_shape[dim]
    bad = array[(array >= size) | (array < -size)]
    if bad.size:
        raise IndexError(
            f"index {int(bad.flat[0])} is out of bounds for dimension {dim} with size {size}"
        )
    return array


def _normalize_index(x, index) -> tuple:
    """The index as a tuple without Ellipsis, checked against x.ndim."""
    if not isinstance(index, tuple):
        index = (index,)

    def consumed(item):
        if item is None or item is Ellipsis:
            return 0
        if isinstance(item, (bool, np.bool_)):
            return 0
        if is_tensor(item) or isinstance(item, (list, np.ndarray)):
            array = item._data if is_tensor(item) else np.asarray(item)
            return array.ndim if array.dtype == np.bool_ else 1
        return 1

    used = sum(consumed(item) for item in index)
    if used > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
    if Ellipsis in [i for i in index if not (is_tensor(i) or isinstance(i, (list, np.ndarray)))]:
        at = next(k for k, i in enumerate(index) if i is Ellipsis)
        index = index[:at] + (slice(None),) * (x.ndim - used) + index[at + 1:]
    return index


def getitem(x, index):
    """``x[index]``, recorded piece by piece as PyTorch does."""
    index = _normalize_index(x, index)
    result, dim, advanced = x, 0, []
    for item in index:
        if item is None:
            result = UnsqueezeBackward0.apply(result, dim=dim)
            advanced.append(slice(None))
            dim += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
            result = select(result, dim, int(item))
        elif is_tensor(item) and item.ndim == 0 and item.dtype.category == 1:
            result = select(result, dim, int(item.item()))
        elif isinstance(item, slice):
            if item != slice(None):
                result = slice_dim(result, dim, item.start, item.stop, item.step)
            advanced.append(slice(None))
            dim += 1
        else:
            array = _as_index_array(item, dim, result.shape)
            advanced.append(array)
            dim += array.ndim if array.dtype == np.bool_ else 1
    if any(isinstance(a, np.ndarray) for a in advanced):
        return IndexBackward0.apply(result, indices=tuple(advanced))
    if result is x:
        # x[:] or x[...]: PyTorch still records a (full) slice
        return slice_dim(x, 0, None, None, None) if x.ndim else x.view(())
    return result


def setitem(x, index, value):
    """``x[index] = value``, in place."""
    from .inplace import check_inplace, rebase

    check_inplace(x)
    index = _normalize_index(x, index)
    numpy_index = tuple(
        i._data if is_tensor(i) else i for i in index
    )
    value_data = value._data if is_tensor(value) else value
    recorded = is_tensor(value) and value.requires_grad or x.requires_grad
    from ..autograd import grad_mode

    if recorded and grad_mode.is_grad_enabled():
        from ._common import as_tensor

        dtype = x.dtype
        result = CopySlices.apply(x, as_tensor(value), cast_to=dtype, index=numpy_index)
        rebase(x, result)
        return
    try:
        x._data[numpy_index] = value_data
    except ValueError as error:
        raise RuntimeError(str(error)) from None
    x._version.value += 1


from .shape import UnsqueezeBackward0  # noqa: E402  (shape.py imports indexing lazily)

_ = dtypes
