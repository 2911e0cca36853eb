"""Indexing: ``x[0]``, ``x[1:]``, ``x[None]``, ``x[..., 0]``, ``x[mask]``,
``x[[0, 2]]`` and ``x[idx] = value``.

As in PyTorch, an index is applied one piece at a time: integers become
``select`` (SelectBackward0), slices ``slice`` (SliceBackward0), ``None``
``unsqueeze``, and integer or boolean arrays one final advanced index
(IndexBackward0). The backward of each puts the gradient into a tensor of
zeros shaped like the input, at the positions that were read.

Writing ``x[idx] = value`` is recorded the way PyTorch records it: on a view
of ``x`` (ints, slices, None) it is ``CopySlices``; on ``x`` itself it is
``IndexPutBackward0`` (integer/boolean arrays), ``FillBackward3`` (one value)
or ``CopyBackwards`` (a tensor of values).
"""

from __future__ import annotations


import numpy as np

from .. import dtypes, errors
from ..autograd import grad_mode
from ..autograd.broadcast import broadcast_shapes, has_internal_overlap, is_expandable_to
from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..rules import layout as rules_layout
from . import fn
from ..autograd.tensor_base import is_tensor, make
from ..rules.arguments import normalize_dim, refuse_meta
from ..rules.conversion import assignable, checked_fill_value
from ._saved import as_shown
from ..kernels.layout import check_no_partial_overlap, preserved_copy
from ..kernels import layout
from . import inplace
from . import shape as shape_ops

__all__ = ["getitem", "setitem", "select", "slice_dim", "index_put_into", "index_put",
           "masked_scatter"]


class SelectBackward0(Node):
    formula = Formula("y",
                      "x[..., index, ...] at dim",
                      grad={"x": "G placed at index, zeros elsewhere"})

    is_view = True

    def forward(self, x, dim, index, given=None):
        # (saved as given, a negative int as C++ keeps it: see _saved.py)
        shown = (dim, index) if given is None else given
        self.save(dim=as_shown(shown[0]), index=as_shown(shown[1]), self_sym_sizes=x.shape,
                  _dim=dim, _index=index)
        return x[(slice(None),) * dim + (index, Ellipsis)]  # (... keeps a 0-dim view)

    def backward(self, saved, grad):
        return fn.select_backward(grad, saved.self_sym_sizes, saved._dim,
                                  saved._index)


def select_backward_of(grad, shape, dim, index):
    """Zeros of ``shape`` with ``grad`` written at ``index`` along ``dim`` (arrays)."""
    out = np.zeros(shape, grad.dtype)
    out[(slice(None),) * dim + (index, Ellipsis)] = grad
    return out


class SelectBackwardBackward0(Node):
    formula = Formula("z", "select_backward(grad): zeros with grad written at index along dim",
                      grad={"grad": "G read back at index"},
                      note="The backward of x[i] as an operation, recorded by a backward "
                           "with create_graph=True.")

    def forward(self, grad, shape, dim, index):
        self.save(dim=dim, index=index)
        return select_backward_of(grad, shape, dim, index)

    def backward(self, saved, grad):
        return fn.select(grad, saved.dim, saved.index)


class SliceBackward0(Node):
    formula = Formula("y",
                      "x[start:end:step] along dim",
                      grad={"x": "G placed in the slice, zeros elsewhere"})

    is_view = True

    def forward(self, x, dim, start, end, step, given=None):
        # (saved as given: no start 0, no end the largest int64, a negative one as
        # C++ keeps it; the formula uses them clamped to the size)
        shown = (dim, start, end) if given is None else given
        self.save(dim=as_shown(shown[0]), start=as_shown(shown[1]), end=as_shown(shown[2]),
                  step=step, self_sym_sizes=x.shape, _dim=dim, _start=start, _end=end,
                  _given=shown)
        view = x[(slice(None),) * dim + (slice(start, end, step),)]
        if view.size == 0:  # (where torch has it in memory)
            view = layout.empty_view_at(
                view, x, layout.geometry(x)[2] + start * (x.strides[dim] // x.itemsize))
        return view

    def backward(self, saved, grad):
        return fn.slice_backward(grad, saved.self_sym_sizes, saved._dim,
                                 saved._start, saved._end, saved.step,
                                 given=saved._given)


def slice_backward_of(grad, shape, dim, start, end, step):
    """Zeros of ``shape`` with ``grad`` written in the slice along ``dim`` (arrays)."""
    out = np.zeros(shape, grad.dtype)
    out[(slice(None),) * dim + (slice(start, end, step),)] = grad
    return out


class SliceBackwardBackward0(Node):
    formula = Formula("z", "slice_backward(grad): zeros with grad written in the slice",
                      grad={"grad": "G read back in the slice"},
                      note="The backward of x[a:b] as an operation, recorded by a backward "
                           "with create_graph=True.")

    def forward(self, grad, shape, dim, start, end, step, given=None):
        # (dim, start and end shown as the slice was given, as torch passes them on:
        # no end is the largest int64, a negative one as C++ keeps it)
        shown = (dim, start, end) if given is None else given
        self.save(dim=as_shown(shown[0]), start=as_shown(shown[1]), end=as_shown(shown[2]),
                  step=step, _dim=dim, _given=shown)
        return slice_backward_of(grad, shape, dim, start, end, step)

    def backward(self, saved, grad):
        given_dim, start, end = saved._given
        return fn.slice_part(grad, saved._dim, start, end, saved.step,
                             given_dim=given_dim)


def masked_select_of(x, mask):
    """The elements of ``x`` where ``mask`` (broadcast together) is True, in order,
    as a new 1-D array (arrays)."""
    x, mask = np.broadcast_arrays(x, mask)
    selected = np.ascontiguousarray(x[mask])
    # (nothing selected: torch's stride 1, where NumPy gives 0)
    return selected if selected.size else layout.empty_strided((0,), (1,), selected.dtype)


class MaskedSelectBackward0(Node):
    formula = Formula("y", "the elements of x where mask is True, as one row",
                      grad={"x": "zeros with G written back where mask is True"},
                      note="How the value of masked_fill (and of max() and min()) gets its "
                           "gradient: the sum of G where mask is True.")
    saves = {"self": Input(0)}

    def forward(self, x, mask):
        self.save(mask=mask)
        return masked_select_of(x, mask)

    def backward(self, saved, grad):
        return fn.masked_select_backward(grad, saved.self, saved.mask)


def masked_select(x, mask):
    """The elements of ``x`` where ``mask`` (a bool tensor, broadcast with ``x``) is
    True, in order, as a new 1-D tensor (``torch.masked_select``)."""
    if not is_tensor(mask) or mask.dtype is not dtypes.bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    refuse_meta("masked_select", x, mask)
    broadcast_shapes(mask._data.shape, x._data.shape)  # (torch's error: mask is tensor a)
    return rules_layout.with_contiguous_layout(MaskedSelectBackward0.apply(x, mask=mask._data))


def masked_select_backward_of(grad, shape, mask):
    """Zeros (of ``shape`` broadcast with ``mask``) with ``grad`` written where ``mask``
    is True (arrays)."""
    out = np.zeros(np.broadcast_shapes(shape, mask.shape), grad.dtype)
    out[np.broadcast_to(mask, out.shape)] = grad
    return out


def masked_scatter_of(x, source, mask):
    """``x`` (broadcast with ``mask``) with the first elements of ``source`` written, in
    order, where ``mask`` is True (arrays)."""
    # (row-major whatever x's layout, as torch's contiguous clone of x)
    out = np.array(np.broadcast_to(x, np.broadcast_shapes(x.shape, mask.shape)), order="C")
    where = np.broadcast_to(mask, out.shape)
    out[where] = source.reshape(-1)[:int(where.sum())]
    return out


class MaskedScatterBackward0(Node):
    formula = Formula("z", "self with the elements of source written, in order, where mask "
                           "is True",
                      grad={"self": "G where mask is False, else 0",
                            "source": "G where mask is True, as source's shape"},
                      note="The backward of masked_select as an operation, recorded by a "
                           "backward with create_graph=True.")

    def forward(self, x, source, mask):
        self.save(mask=mask, source_sym_sizes=source.shape)
        return masked_scatter_of(x, source, mask)

    def backward(self, saved, grad):
        mask = saved.mask
        grad_x = fn.masked_fill(grad, mask, 0) if self.needs_input_grad[0] else None
        grad_source = fn.masked_scatter_backward(grad, mask, saved.source_sym_sizes) \
            if self.needs_input_grad[1] else None
        return grad_x, grad_source


def masked_scatter_backward_of(grad, mask, sizes):
    """G where mask is True, in order, then zeros, as ``sizes`` (arrays: torch's
    masked_scatter_backward)."""
    picked = masked_select_of(grad, mask)
    missing = int(np.prod(sizes, dtype=np.int64)) - picked.size
    if missing > 0:
        picked = np.concatenate([picked, np.zeros(missing, picked.dtype)])
    return picked.reshape(sizes)


class MaskedScatterBackwardBackward0(Node):
    formula = Formula("z", "masked_scatter_backward(grad): grad where mask is True, as "
                           "source's shape",
                      grad={"grad": "zeros with G written where mask is True"},
                      note="Recorded by a backward of masked_scatter with create_graph=True.")

    def forward(self, grad, mask, sizes):
        self.save(mask=mask)
        self.grad_sizes = grad.shape
        return masked_scatter_backward_of(grad, mask, sizes)

    def backward(self, saved, grad):
        zeros = fn.zeros(self.grad_sizes, grad)
        return fn.masked_scatter(zeros, fn.as_array(saved.mask), grad)


class IndexBackward0(Node):
    formula = Formula("y",
                      "x[indices]",
                      grad={"x": "G added at the positions read (repeated positions add up)"},
                      note="Integer or boolean index arrays: a gather, which makes a copy.")

    def forward(self, x, indices):
        self.save(self_sym_sizes=x.shape)
        _save_index(self, indices)
        return layout.new_layout(np.asarray(x[indices], order="C"))  # (new, row-major as torch's)

    @property
    def _saved_indices(self) -> tuple:
        return _saved_indices(self)

    def backward(self, saved, grad):
        return fn.index_backward(grad, saved.self_sym_sizes, _index_of(saved))


def index_backward_of(grad, shape, indices):
    """Zeros of ``shape`` with ``grad`` added at ``indices`` (repeats add up; arrays)."""
    out = np.zeros(shape, grad.dtype)
    if _is_basic(indices):
        out[indices] += grad
    else:
        np.add.at(out, indices, grad)
    return out


class IndexPutImplBackward0(Node):
    formula = Formula("z", "zeros.index_put_(indices, grad, accumulate=True)",
                      grad={"grad": "G read back at indices"},
                      note="The backward of x[mask] or x[[0, 2]] as an operation, recorded "
                           "by a backward with create_graph=True.")

    # (inputs as torch's: the zeros written into, which need no gradient, then grad)
    def forward(self, zeros, grad, indices):
        _save_index(self, indices)
        self.save(accumulate=True)
        return index_backward_of(grad, zeros.shape, indices)

    @property
    def _saved_indices(self) -> tuple:
        return _saved_indices(self)

    def backward(self, saved, grad):
        return None, fn.index(grad, _index_of(saved))


class IndexPutBackward0(Node):
    formula = Formula("y",
                      "self with values written (or, with accumulate, added) at index",
                      d={"self": "1 (0 where values were written)"},
                      grad={"values": "G read at index"},
                      note=("``x[[0, 2]] = v``; with accumulate it is also the backward of "
                            "indexing."))

    formula_on_arrays = False  # (its backward builds masks as Tensors)

    def forward(self, x, values, index, accumulate):
        _save_index(self, index)
        self.save(accumulate=accumulate)
        return index_put_of(x, values, index, accumulate)

    @property
    def _saved_indices(self) -> tuple:
        return _saved_indices(self)

    def backward(self, saved, grad):
        index = _index_of(saved)
        needs_self, needs_values = self.needs_input_grad
        grad_self = None
        if needs_self:  # (the written places get 0, even from a NaN: torch's index_put of zeros)
            grad_self = grad if saved.accumulate else _zeroed_at(grad, index)
        return grad_self, (grad[index] if needs_values else None)


def index_put_of(x, values, index, accumulate):
    out = preserved_copy(x)  # (torch's clone, then index_put_)
    if not accumulate:
        out[index] = values
    elif _is_basic(index):
        out[index] += values
    else:
        np.add.at(out, index, values)  # (repeated indices add up)
    return out


def _zeroed_at(grad, index):
    """``grad`` with 0 written at ``index``, recorded as torch records it
    (``grad.index_put(indices, zeros_like(values))``: IndexPutBackward0)."""
    zeros = grad.new_zeros(grad._data[index].shape)
    return IndexPutBackward0.apply(grad, zeros, index=index, accumulate=False)


def _save_index(node, index) -> None:
    """Save an index as torch does: each index array on its own, as a tensor
    (freed after backward, so a second backward fails as in torch); ints and
    slices as they are."""
    items = index if isinstance(index, tuple) else (index,)
    node.save(_index_layout=tuple(None if isinstance(i, np.ndarray) else i for i in items))
    node.save(**{f"_index_{k}": i for k, i in enumerate(items) if isinstance(i, np.ndarray)})


def _saved_indices(node) -> tuple:
    """The saved index as torch shows it: one tensor per index array, None for the rest."""
    return tuple(getattr(node, f"_saved__index_{k}") if item is None else None
                 for k, item in enumerate(node._saved__index_layout))


def _index_of(saved) -> tuple:
    """The saved index back as a NumPy index (from a formula's ``saved``)."""
    return tuple(fn.as_array(getattr(saved, f"_index_{k}")) if item is None else item
                 for k, item in enumerate(saved._index_layout))


def _is_basic(index) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return all(isinstance(i, (int, slice, np.integer)) or i is None for i in items)


def index_put_into(values, shape, index):
    """A tensor of zeros shaped ``shape`` with ``values`` added at ``index``."""
    zeros = make(np.zeros(shape, dtype=values._data.dtype))
    return IndexPutBackward0.apply(zeros, values, index=index, accumulate=True)


def index_put(x, indices, values, accumulate=False):
    """``x`` with ``values`` written (added, with ``accumulate``: repeated places add up) at
    ``indices``, a tuple of index tensors (long or int; a bool mask stands for its
    nonzero() coordinates): ``x[indices] = values`` without changing x (IndexPutBackward0)."""
    used = sum(item.ndim if item.dtype is dtypes.bool else 1 for item in indices)
    if used > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim} (got {used})")
    arrays, dims, dim = [], [], 0
    for item in indices:
        arrays.append(_as_index_array(item, dim, x.shape, bounds=False))
        dims.append(dim)
        dim += item.ndim if item.dtype is dtypes.bool else 1
    _check_broadcastable(arrays)
    # (PyTorch's order: the shapes, the dtypes, then each index within its dim)
    written = np.broadcast_shapes(*(a.shape if a.dtype != np.bool_ else (int(a.sum()),)
                                    for a in arrays)) + tuple(x.shape[dim:])
    if not is_expandable_to(values.shape, written):
        raise RuntimeError(errors.INDEX_PUT_SHAPE_MISMATCH.format(
            value=list(values.shape), target=list(written)))
    if values.dtype is not x.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{dtypes.SCALAR_NAMES[x.dtype]} for the destination and "
            f"{dtypes.SCALAR_NAMES[values.dtype]} for the source.")
    index = tuple(_as_index_array(a, d, x.shape) for a, d in zip(arrays, dims))
    return IndexPutBackward0.apply(x, values, index=index, accumulate=bool(accumulate))


def masked_scatter(x, mask, source):
    """``x`` (broadcast with ``mask``) with the elements of ``source`` written, in order,
    where ``mask`` is True (MaskedScatterBackward0)."""
    if mask.dtype is not dtypes.bool:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {dtypes.SCALAR_NAMES[mask.dtype]}")
    if source.dtype is not x.dtype:
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but "
                           f"got{dtypes.SCALAR_NAMES[x.dtype]} and "
                           f"{dtypes.SCALAR_NAMES[source.dtype]}")
    shape = broadcast_shapes(mask.shape, x.shape)
    if source.numel() < int(np.broadcast_to(mask._data, shape).sum()):
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return MaskedScatterBackward0.apply(x, source, mask=mask._data)


def select(x, dim, index):
    """``x.select(dim, index)``: the slice at ``index`` along ``dim``, without that dim."""
    if x.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    given, dim = (dim, index), normalize_dim(dim, x.ndim)
    size = x.shape[dim]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size "
            f"[{', '.join(map(str, x.shape))}] at dimension {dim}"
        )
    return SelectBackward0.apply(x, dim=dim, index=index % size, given=given)


def _check_item(size, index, position) -> int:
    """An int index; torch's message names its position in the index tuple."""
    if not -size <= index < size:
        raise IndexError(
            f"index {index} is out of bounds for dimension {position} with size {size}")
    return index % size


def _select_item(x, dim, index, position=0):
    """``x[..., index]``: as ``select``, with the message indexing gives."""
    given = (dim, index)
    index = _check_item(x.shape[dim], index, position)
    return SelectBackward0.apply(x, dim=dim, index=index, given=given)


def slice_dim(x, dim, start, end, step, given_dim=None):
    """``x[start:end:step]`` along ``dim`` (``given_dim``: the dim as the caller gave it,
    which the node shows)."""
    if step is not None and step <= 0:
        raise ValueError("step must be greater than zero")
    given = (dim if given_dim is None else given_dim, 0 if start is None else start,
             _INT64_MAX if end is None else end)
    start, end, step = slice(start, end, step).indices(x.shape[dim])
    end = max(end, start)
    return SliceBackward0.apply(x, dim=dim, start=start, end=end, step=step, given=given)


_INT64_MAX = 2**63 - 1  # (torch's end of a slice without one)


def _as_index_array(item, dim, x_shape, position=None, bounds: bool = True):
    """A list, NumPy array or Tensor used as an index, as a NumPy array
    (``position``: its place among the index arrays, which torch's message names;
    ``bounds``: each index checked to be inside ``x_shape[dim]``)."""
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
    if isinstance(item, list) and np.issubdtype(array.dtype, np.floating):
        array = array.astype(np.int64)  # (torch makes a list of numbers a long tensor)
    if not np.issubdtype(array.dtype, np.integer):
        if array.size == 0:
            return array.astype(np.int64)
        raise IndexError(
            "tensors used as indices must be long, int, byte or bool tensors"
        )
    size = x_shape[dim]
    if array.size and size == 0:  # (refused first, bounds or not: PyTorch's order)
        raise IndexError("index is out of bounds for dimension with size 0")
    if not bounds:
        return array
    bad = array[(array >= size) | (array < -size)]
    if bad.size:
        raise IndexError(
            f"index {int(bad.flat[0])} is out of bounds for dimension "
            f"{dim if position is None else position} with size {size}"
        )
    return array


def _normalize_index(x, index) -> list:
    """The index as ``(item, position)`` pairs without Ellipsis (it becomes full
    slices), checked against x.ndim; ``position`` is the item's place in the
    index as written, which torch's error messages name."""
    if not isinstance(index, tuple):
        index = (index,)

    def consumed(item):
        if item is None or item is Ellipsis or _is_bool_scalar(item):
            return 0
        if is_tensor(item) or isinstance(item, (list, np.ndarray)):
            array = item._data if is_tensor(item) else np.asarray(item)
            return array.ndim if array.dtype == np.bool_ else 1
        return 1

    used = sum(consumed(item) for item in index)
    if used > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
    pairs = []
    for position, item in enumerate(index):
        if item is Ellipsis:
            pairs.extend((slice(None), position) for _ in range(x.ndim - used))
        else:
            pairs.append((item, position))
    return pairs


def _check_broadcastable(arrays) -> None:
    """The index arrays (a boolean mask counts as its nonzero() coordinates) must
    broadcast together."""
    shapes = []
    for array in arrays:
        if array.dtype == np.bool_:
            shapes.extend([(int(array.sum()),)] * array.ndim)
        else:
            shapes.append(array.shape)
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes "
            + ", ".join(f"[{', '.join(map(str, shape))}]" for shape in shapes)
        ) from None


def _is_bool_scalar(item) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return True
    return is_tensor(item) and item.ndim == 0 and item.dtype is dtypes.bool


def _is_int_scalar(item) -> bool:
    if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
        return True
    return is_tensor(item) and item.ndim == 0 and item.dtype.is_integer


def _is_trivial_slice(item: slice, size: int) -> bool:
    """``:``, ``0:``, ``:size`` (or beyond), ``::1``: torch skips these inside a tuple index."""
    return item.start in (None, 0) and item.step in (None, 1) and (
        item.stop is None or item.stop >= size)


_SEQUENCE_AS_TUPLE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
    "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will "
    "be interpreted as tensor index, x[torch.tensor(seq)], which will result either in an "
    "error or a different result"
)


def _ranges_as_lists(index):
    """A Python ``range`` indexes as the list of its ints (PyTorch reads any sequence
    of numbers as an index tensor), alone or as an item of a tuple."""
    if isinstance(index, range):
        return list(index)
    if isinstance(index, tuple) and any(isinstance(item, range) for item in index):
        return tuple(list(item) if isinstance(item, range) else item for item in index)
    return index


def _sequence_as_tuple(index) -> bool:
    """A list holding slices, None, Ellipsis, tensors or lists is read as a tuple
    (NumPy's old rule, which torch still follows with a warning)."""
    return isinstance(index, list) and any(
        isinstance(i, (slice, list, tuple)) or i is None or i is Ellipsis or is_tensor(i)
        for i in index)


def _zero_dim_index_error(index) -> str:
    """torch's message for an int, a 0-dim integer tensor or a slice used on a 0-dim
    tensor (0 is "invalid", another int out of bounds of a dim of size 0)."""
    if isinstance(index, slice):
        return "slice() cannot be applied to a 0-dim tensor."
    if is_tensor(index):  # (a 0-dim integer tensor: an index array there)
        return "too many indices for tensor of dimension 0"
    if int(index) == 0:
        return _ZERO_DIM_INDEX
    return f"index {int(index)} is out of bounds for dimension 0 with size 0"


def getitem(x, index):
    """``x[index]``, recorded piece by piece as PyTorch does: ints are ``select``,
    slices ``slice``, None ``unsqueeze``, and the integer/boolean arrays one final
    advanced index. A lone slice is always recorded; inside a tuple, slices that
    keep everything are skipped, and an index that changes nothing is an alias."""
    index = _ranges_as_lists(index)
    if _sequence_as_tuple(index):
        errors.warn(_SEQUENCE_AS_TUPLE_WARNING, UserWarning, stacklevel=3)
        index = tuple(index)
    index = _uint8_as_masks(index)
    lone = not isinstance(index, tuple) and (_is_int_scalar(index) or isinstance(index, slice))
    if lone and x.ndim == 0:  # (before a view's checks; a slice: after its grad_fn)
        if isinstance(index, slice) and x.requires_grad and grad_mode.is_grad_enabled():
            x.grad_fn  # noqa: B018
        raise IndexError(_zero_dim_index_error(index))
    if x._view_version is not None and grad_mode.is_grad_enabled() and x.requires_grad:
        # (as torch: a changed view's node is rebuilt, or refused, before the index is
        # read, after Python's count of the dims it names)
        _normalize_index(x, index)
        x.grad_fn  # noqa: B018
    if not isinstance(index, tuple):
        if index is Ellipsis:
            return shape_ops.AliasBackward0.apply(x)
        if index is None:
            return shape_ops.UnsqueezeBackward0.apply(x, dim=0)
        if _is_int_scalar(index) or isinstance(index, slice):
            if x.ndim == 0:
                raise IndexError(_zero_dim_index_error(index))
            if isinstance(index, slice):
                return slice_dim(x, 0, index.start, index.stop, index.step)
            return _select_item(x, 0, int(index))
    result, dim, advanced, arrays, pending = x, 0, [], 0, []
    for item, position in _normalize_index(x, index):
        if item is None:
            result = shape_ops.UnsqueezeBackward0.apply(result, dim=dim)
            advanced.append(slice(None))
            dim += 1
        elif _is_bool_scalar(item):
            # x[True] adds a dim of size 1 and keeps it (False: keeps none of it)
            result = shape_ops.UnsqueezeBackward0.apply(result, dim=dim)
            advanced.append(np.array([bool(item)]))
            dim += 1
            arrays += 1
        elif _is_int_scalar(item):
            result = _select_item(result, dim, int(item), position)
        elif isinstance(item, slice):
            if not _is_trivial_slice(item, result.shape[dim]):
                result = slice_dim(result, dim, item.start, item.stop, item.step)
            advanced.append(slice(None))
            dim += 1
        else:  # (read and checked below, against the tensor the basic items leave)
            array = _index_array(item, dim, result.shape, arrays, checked=False)
            pending.append((len(advanced), item, dim, arrays))
            advanced.append(array)
            consumed = array.ndim if array.dtype == np.bool_ else 1
            dim += consumed
            arrays += consumed
    for place, item, at, position in pending:
        advanced[place] = _index_array(item, at, result.shape, position)
    if arrays:
        _check_broadcastable([a for a in advanced if isinstance(a, np.ndarray)])
        return IndexBackward0.apply(result, indices=tuple(advanced))
    if result is x:
        return shape_ops.AliasBackward0.apply(x)
    return result


_ZERO_DIM_INDEX = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                   "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")


def _index_array(item, dim, shape, position, checked=True):
    """An array-like index item as a NumPy array, or torch's error for other types
    (``checked=False``: without looking at its values and bounds yet)."""
    if is_tensor(item) or isinstance(item, (list, tuple, np.ndarray)):
        if not checked:
            return item._data if is_tensor(item) else np.asarray(item)
        return _as_index_array(item, dim, shape, position)
    if isinstance(item, str):
        raise TypeError(f"new(): invalid data type {type(item).__name__!r}")
    raise IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
        f"Variables are valid indices (got {type(item).__name__})"
    )


def _parse_for_setitem(x, index, checked=True):
    """Split an index for writing, as torch applies it: the ints, slices and None
    give a view of ``x`` (``basic``, a NumPy index); the arrays then index into
    that view (``advanced``, or None). ``is_view`` tells whether the view is a
    real one (torch skips full slices inside a tuple). ``checked=False`` leaves
    the index arrays' values unchecked."""
    if not isinstance(index, tuple):
        # torch's shortcuts for a single index (a lone full slice writes x itself)
        if index is Ellipsis:
            return (Ellipsis,), None, False
        if index is None or index is True:
            return (None,), None, True
        if _is_int_scalar(index) or isinstance(index, slice):
            if x.ndim == 0:
                if isinstance(index, slice):  # (torch reads grad_fn first: a view made
                    x.grad_fn  # noqa: B018  under no_grad whose base changed raises)
                raise IndexError(_zero_dim_index_error(index))
            if isinstance(index, slice):
                if _is_trivial_slice(index, x.shape[0]):
                    return (Ellipsis,), None, False
                start, stop, step = _slice_bounds(x.shape[0], index)
                return (slice(start, stop, step),), None, True
            return (_check_item(x.shape[0], int(index), 0),), None, True
    basic, advanced, is_view, pending = [], [], False, []
    view_shape, dim, arrays = list(x.shape), 0, 0
    for item, position in _normalize_index(x, index):
        if item is None or _is_bool_scalar(item):
            basic.append(None)
            view_shape.insert(dim, 1)
            advanced.append(np.array([bool(item)]) if item is not None else slice(None))
            arrays += item is not None
            dim, is_view = dim + 1, True
        elif _is_int_scalar(item):
            basic.append(_check_item(view_shape.pop(dim), int(item), position))
            is_view = True
        elif isinstance(item, slice):
            if _is_trivial_slice(item, view_shape[dim]):
                basic.append(slice(None))
            else:
                start, stop, step = _slice_bounds(view_shape[dim], item)
                basic.append(slice(start, stop, step))
                view_shape[dim] = len(range(start, stop, step))
                is_view = True
            advanced.append(slice(None))
            dim += 1
        else:  # (checked below, against the view the basic items leave, as torch)
            array = _index_array(item, dim, tuple(view_shape), arrays, checked=False)
            pending.append((len(advanced), item, dim, arrays))
            consumed = array.ndim if array.dtype == np.bool_ else 1
            basic.extend([slice(None)] * consumed)
            advanced.append(array)
            dim += consumed
            arrays += consumed
    for place, item, at, position in pending:
        advanced[place] = _index_array(item, at, tuple(view_shape), position, checked)
    if not arrays:
        return tuple(basic), None, is_view
    if checked:
        _check_broadcastable([a for a in advanced if isinstance(a, np.ndarray)])
    return tuple(basic), tuple(advanced), is_view


def _slice_bounds(size, item: slice):
    if item.step is not None and item.step <= 0:
        raise ValueError("step must be greater than zero")
    start, stop, step = item.indices(size)
    return start, max(stop, start), step


def _has_uint8(index) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(is_tensor(item) and item.dtype is dtypes.uint8 for item in items)


def _uint8_as_masks(index):
    """uint8 tensors in an index are masks, with PyTorch's deprecation warning."""
    if not _has_uint8(index):
        return index
    errors.warn(errors.UINT8_INDEX, UserWarning, stacklevel=4)

    def as_mask(item):
        if is_tensor(item) and item.dtype is dtypes.uint8:
            return make(item._data != 0)
        return item
    return tuple(as_mask(item) for item in index) if isinstance(index, tuple) else as_mask(index)


def _has_0dim_mask(index) -> bool:
    """A 0-dim bool tensor in the index: torch writes through index_put_ (dtypes checked)."""
    items = index if isinstance(index, tuple) else (index,)
    return any(is_tensor(item) and item.ndim == 0 and item.dtype is dtypes.bool for item in items)


def _fills_through_mask(index, value) -> bool:
    """Whether torch's index_put_ writes ``value`` with masked_fill_ (its value.item(),
    so of any dtype): a one-element value, and one bool mask (a tensor, or a list of
    bools) as the only advanced index, the rest of the index ints, slices, None and
    Ellipsis."""
    if value.numel() != 1:
        return False
    mask = _only_advanced(index)
    if mask is None:
        return False
    if isinstance(mask, list):
        return bool(mask) and all(isinstance(item, bool) for item in mask)
    return mask.dtype is dtypes.bool


def _only_advanced(index):
    """The one advanced item of ``index`` (a tensor or a list) when the rest are ints,
    slices, None and Ellipsis; else None."""
    items = index if isinstance(index, tuple) else (index,)
    advanced = [item for item in items if is_tensor(item) or isinstance(item, list)]
    if len(advanced) != 1 or not all(
            item is None or item is Ellipsis or isinstance(item, (int, np.integer, slice))
            for item in items if item is not advanced[0]):
        return None
    return advanced[0]


def setitem(x, index, value):
    """``x[index] = value``, in place, recorded as PyTorch records it (see the
    module docstring); ``value`` (a number or a tensor) broadcasts to the target."""
    value = assignable(value, x.dtype)
    index = _ranges_as_lists(index)
    if _sequence_as_tuple(index):
        errors.warn(_SEQUENCE_AS_TUPLE_WARNING, UserWarning, stacklevel=3)
        index = tuple(index)
    if _has_uint8(index):
        mask = _only_advanced(index) if not is_tensor(value) or value.numel() == 1 else None
        if mask is not None and mask.ndim:
            # (torch's index_put_ writes a one-element value through its masked_fill_,
            # which takes bool masks only)
            raise RuntimeError(errors.MASKED_FILL_UINT8)
        index = _uint8_as_masks(index)
    if index is False:
        return  # torch writes nothing (and checks nothing)
    parsed = _parse_for_setitem(x, index, checked=False)
    source = value if is_tensor(value) else make(np.array(value, dtype=x._data.dtype))
    if parsed[1] is None:
        # torch's copy_to: the view written into is made (a view made under no_grad
        # whose base changed is refused there), then a value of another shape is
        # viewed without its leading 1s and expanded to it (a 0-dim value fills it),
        # and only then does copy_ check the write
        if parsed[2] and x._view_version is not None and grad_mode.is_grad_enabled() \
                and x.requires_grad:
            x.grad_fn  # noqa: B018
        target_shape = x._data[parsed[0]].shape
        if source.shape != target_shape and source.ndim:
            source = source.view(_without_leading_ones(source.shape))
            if source.shape != target_shape:
                source = source.expand(target_shape)
    # torch refuses a forbidden write before it looks at the index arrays' values
    _check_write(x, parsed, inplace.check_inplace, value)
    basic, advanced, is_view = _parse_for_setitem(x, index)
    if advanced is not None:  # (a value for copy_to is shaped above)
        if _without_leading_ones(source.shape) != source.shape:
            source = source.view(_without_leading_ones(source.shape))  # index_put_ broadcasts
        written = x._data[basic + (Ellipsis,)][advanced] if is_view else x._data[advanced]
        if not is_expandable_to(source.shape, written.shape):
            raise RuntimeError(errors.INDEX_PUT_SHAPE_MISMATCH.format(
                value=list(source.shape), target=list(written.shape)))
    # (the shapes first, then the dtypes: a one-element value written through one
    # mask is torch's masked_fill_, of any dtype)
    if is_tensor(value) and value.dtype is not x.dtype and (
            advanced is not None and not _fills_through_mask(index, value)
            or _has_0dim_mask(index)):  # (torch: index_put_ on a view, CopySlices)
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{dtypes.SCALAR_NAMES[x.dtype]} for the destination and "
            f"{dtypes.SCALAR_NAMES[value.dtype]} for the source."
        )
    if is_tensor(value) and advanced is not None and _fills_through_mask(index, value):
        checked_fill_value(value.item(), x.dtype)  # (masked_fill_ writes its item(), checked)
    # torch writes through a view: x[1:, 0] = v is x[1:, 0].copy_(v) (an in-place
    # change of a view, recorded on x as CopySlices, see inplace.rebase)
    target = getitem(x, basic) if is_view else x
    written = True
    if has_internal_overlap(target._data):
        # an expanded tensor: torch refuses to write where elements share memory,
        # or (index_put_) warns and writes only the elements indexed
        if advanced is None:
            raise RuntimeError(errors.INTERNAL_OVERLAP)
        errors.warn(errors.EXPANDED_WRITE_WARNING.format(
            op="index_put_", index="indices", value="tensor"), UserWarning, stacklevel=3)
        written = np.zeros(target.shape, dtype=bool)
        written[advanced] = True
    if advanced is not None or source.shape == target.shape or source.ndim:
        check_no_partial_overlap(target._data, source._data)  # (copy_ and index_put_ do)
    if advanced is not None:
        result = IndexPutBackward0.apply(target, source, cast_to=x.dtype, index=advanced,
                                         accumulate=False)
    elif source.shape == target.shape or source.ndim:
        result = inplace.copied(target, source, cast_to=x.dtype)
    else:
        result = inplace.FillBackward3.apply(target, source, cast_to=x.dtype)
    inplace.rebase(target, result, overlap_ok=True, where=written)


def _without_leading_ones(shape) -> tuple:
    shape = tuple(shape)
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


def _check_write(x, parsed, check_inplace, value) -> None:
    """Writing into a view of a leaf that requires grad is refused with the view
    message (torch writes ``x[0] = v`` through the view ``x[0]``), and so is writing
    through a view of a view made under no_grad or by a custom Function (that inner
    view is made here)."""
    basic, _, is_view = parsed
    if is_view and grad_mode.is_grad_enabled() and x._view_version is not None \
            and x._view_made != "grad mode":
        check_inplace(getitem(x, basic), value)
    if is_view and grad_mode.is_grad_enabled() and x.requires_grad and (
            x.grad_fn is None or (x._base is not None and x._base.grad_fn is None
                                  and x._base.requires_grad)):
        raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
    check_inplace(x, value)


