"""Memory layout: strides, storage offsets, ``as_strided``, and what a view becomes
when the memory it looks into is changed in place.

A view (``x[0]``, ``x.t()``, ``x.view(6)``, ...) shares memory with its base. When
the base, or another view of it, is changed in place, the view's values change too,
so its old ``grad_fn`` (``SelectBackward0`` -> the base's old node) no longer says
how it was computed. PyTorch then rebuilds it, the first time it is asked for, as
``AsStridedBackward0``: "these elements of the base's memory", pointing to the
base's current node. ``regenerate_grad_fn`` does the same (``Tensor.grad_fn`` calls
it), and an in-place op on a view records ``CopySlices`` on the base
(``inplace.rebase``), whose backward uses the same geometry.

Strides and offsets are counted in elements, as torch counts them.
"""

from __future__ import annotations

import numpy as np

from .. import errors
from ..autograd.formula import Formula
from ..autograd.node import Node, SavedTensor, forward_name
from . import fn

__all__ = ["check_no_partial_overlap", "geometry", "stride", "storage_offset", "as_strided", "regenerate_grad_fn",
           "AsStridedBackward0", "as_strided_backward_of", "contiguous_strides",
           "preserved_strides", "empty_strided", "with_strides"]


def _storage(array: np.ndarray):
    """The array that owns ``array``'s memory, and its first byte's address."""
    owner = array
    while True:
        base = owner.base
        if not isinstance(base, np.ndarray):
            # (NumPy's as_strided leaves an object holding the array in between)
            base = getattr(base, "base", None)
            if not isinstance(base, np.ndarray):
                return owner, np.lib.array_utils.byte_bounds(owner)[0]
        owner = base


def geometry(array: np.ndarray) -> tuple:
    """``(sizes, strides, storage_offset)`` of an array, in elements."""
    _, start = _storage(array)
    itemsize = array.itemsize
    offset = (array.__array_interface__["data"][0] - start) // itemsize
    return tuple(array.shape), tuple(s // itemsize for s in array.strides), offset


def empty_view_at(view: np.ndarray, array: np.ndarray, offset: int) -> np.ndarray:
    """``view``, an empty view of ``array``'s memory, starting at element ``offset`` of
    it, as torch keeps it (``x[:, 2:2].storage_offset()`` is 2): NumPy points an empty
    view at its memory's first byte. Nothing is ever read there."""
    owner = _storage(array)[0]
    pointer = offset * array.itemsize
    if not 0 <= pointer <= owner.nbytes:
        return view
    return np.ndarray(view.shape, view.dtype, buffer=owner, offset=pointer, strides=view.strides)


def stride(x, dim=None):
    """``x.stride()``: how many elements to step in memory along each dim."""
    strides = geometry(x._data)[1]
    return strides if dim is None else strides[dim]


def storage_offset(x) -> int:
    return geometry(x._data)[2]


# ---- the layout of a new tensor ---------------------------------------------------
# NumPy gives every empty array zero strides, and a copy of an empty array forgets its
# layout; torch keeps strides on empty tensors too (a size-0 dim counts as 1).

def contiguous_strides(shape) -> tuple:
    """torch's row-major strides for ``shape`` (a size-0 dim steps like a size-1 one)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def is_non_overlapping_and_dense(shape, strides) -> bool:
    """torch's rule: the dims of size >= 2, ordered by stride, step through memory
    without gaps or overlaps (dims of size 0 or 1 end the check)."""
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    expected = 1
    for step, size in sorted((s, n) for s, n in zip(strides, shape) if n >= 2):
        if step != expected:
            return False
        expected *= size
    return True


def dense_strides(shape, strides) -> tuple:
    """torch's infer_dense_strides: strides without gaps that keep the order of
    ``strides`` (a copy of a tensor that is not dense, in preserve_format)."""
    ndim = len(shape)
    if ndim < 2:
        return (1,) * ndim

    def should_swap(dim0, dim1) -> int:
        stride0, stride1 = strides[dim0], strides[dim1]
        if stride0 == 0 or stride1 == 0:
            return 0
        if stride0 != stride1:
            return -1 if stride0 < stride1 else 1
        return 1 if shape[dim0] > shape[dim1] else 0

    perm = sorted_dims(ndim, should_swap)
    out, step = [0] * ndim, 1
    for dim in perm:
        out[dim] = step
        if shape[dim] > 1:
            step *= shape[dim]
    return tuple(out)


def preserved_strides(array: np.ndarray) -> tuple:
    """The strides of a copy of ``array`` in torch's preserve_format (clone,
    zeros_like, ...): its own when dense, else dense ones in the same order."""
    shape, strides, _ = geometry(array)
    if array.size == 0 or is_non_overlapping_and_dense(shape, strides):  # (empty: contiguous)
        return strides
    return dense_strides(shape, strides)


def empty_strided(shape, strides, dtype) -> np.ndarray:
    """A new array of ``shape`` whose strides (in elements) are ``strides``, which
    must be dense or, for an empty array, anything."""
    shape, strides = tuple(shape), tuple(strides)
    itemsize = np.dtype(dtype).itemsize
    if 0 in shape:  # no element: the strides are only a record
        return np.lib.stride_tricks.as_strided(
            np.empty(1, dtype), shape=shape, strides=[s * itemsize for s in strides])
    slow_to_fast = sorted(range(len(shape)), key=lambda d: (-strides[d], -shape[d]))
    buffer = np.empty([shape[d] for d in slow_to_fast], dtype).transpose(np.argsort(slow_to_fast))
    if geometry(buffer)[1] != strides:  # (a size-1 dim's stride is only a record)
        buffer = np.lib.stride_tricks.as_strided(buffer, strides=[s * itemsize for s in strides])
    return buffer


def with_strides(array: np.ndarray, strides) -> np.ndarray:
    """``array``'s values laid out with ``strides`` (``array`` itself if they are
    its own)."""
    if geometry(array)[1] == tuple(strides):
        return array
    out = empty_strided(array.shape, strides, array.dtype)
    if array.size:
        out[...] = array
    return out


def _is_dense(array: np.ndarray) -> bool:
    """torch's is_non_overlapping_and_dense: the elements fill a block of memory
    without gaps, in some order of the dims."""
    itemsize, expected = array.itemsize, array.itemsize
    for step, size in sorted((s, n) for s, n in zip(array.strides, array.shape) if n != 1):
        if step != expected:
            return False
        expected *= size
    return True


def check_no_partial_overlap(written: np.ndarray, read: np.ndarray) -> None:
    """An in-place op may read the tensor it writes (``b.mul_(b)``), but not some
    other elements of the same memory (``b.mul_(b[0])``): torch refuses that when
    it can tell cheaply (both tensors dense)."""
    if written.size == 0 or read.size == 0 or not np.may_share_memory(written, read):
        return
    if not _is_dense(written) or not _is_dense(read):
        return  # (torch: "too hard" to tell, allowed)
    start_w = np.lib.array_utils.byte_bounds(written)[0]
    start_r = np.lib.array_utils.byte_bounds(read)[0]
    if start_w == start_r and written.nbytes == read.nbytes and written.strides == read.strides:
        return  # the same elements: a full overlap is fine
    raise RuntimeError(errors.PARTIAL_OVERLAP)


def _strided_view(array: np.ndarray, size, strides, offset) -> np.ndarray:
    """The elements of ``array``'s memory at ``offset + sum(i_k * strides_k)``."""
    owner, start = _storage(array)
    itemsize = array.itemsize
    flat = np.lib.stride_tricks.as_strided(
        owner, shape=(owner.nbytes // itemsize,), strides=(itemsize,),
        writeable=owner.flags.writeable)
    return np.lib.stride_tricks.as_strided(
        flat[offset:], shape=tuple(size), strides=tuple(s * itemsize for s in strides),
        writeable=owner.flags.writeable)


def _min_storage_size(sizes, strides, offset) -> int:
    """How many elements of memory a geometry without size-0 dims reaches."""
    return offset + 1 + sum((n - 1) * s for n, s in zip(sizes, strides))


def _maybe_overlapping(sizes, strides) -> bool:
    """torch's _maybe_overlapping_memory: could two elements share memory?"""
    reach = 0
    for step, size in sorted(zip(strides, sizes)):
        if step <= reach:
            return True
        reach += step * (size - 1)
    return False


def _as_strided_backward_plan(grad_dims, base_geometry, size, strides, offset):
    """The steps of torch's as_strided_backward that depend only on the geometry:
    the dims of G to squeeze (size 1) or sum (stride 0), the length of memory to
    build, where the view and the base sit in it, and whether either may show an
    element twice. None when a size is 0 (the gradient is then zeros)."""
    base_size, base_strides, base_offset = base_geometry
    reduce, out_sizes, out_strides = [], [], []
    for dim in reversed(range(grad_dims)):
        if size[dim] == 0:
            return None
        if size[dim] == 1:
            reduce.append(("squeeze", dim))
        elif strides[dim] == 0:
            reduce.append(("sum", dim))
        else:
            out_sizes.insert(0, size[dim])
            out_strides.insert(0, strides[dim])
    in_sizes, in_strides = [], []
    for n, step in zip(base_size, base_strides):
        if n == 0:
            return None
        if n != 1:
            in_sizes.append(n)
            in_strides.append(step)
    shared = min(base_offset, offset)
    in_offset, out_offset = base_offset - shared, offset - shared
    length = max(_min_storage_size(in_sizes, in_strides, in_offset),
                 _min_storage_size(out_sizes, out_strides, out_offset))
    return (reduce, length, (tuple(out_sizes), tuple(out_strides), out_offset),
            _maybe_overlapping(out_sizes, out_strides),
            (tuple(in_sizes), tuple(in_strides), in_offset),
            _maybe_overlapping(in_sizes, in_strides),
            (tuple(base_size), tuple(base_strides), in_offset))


def as_strided_backward_of(grad, base_geometry, size, strides, offset):
    """The gradient of ``as_strided`` (arrays): ``grad`` put into zeros laid out as
    the memory, at the viewed elements (an element viewed twice gets the sum), then
    read back as the base (an element the base shows twice gets its share)."""
    plan = _as_strided_backward_plan(grad.ndim, base_geometry, size, strides, offset)
    if plan is None:
        return np.zeros(base_geometry[0], grad.dtype)
    reduce, length, out, out_overlaps, inp, inp_overlaps, base = plan
    for how, dim in reduce:
        grad = np.squeeze(grad, dim) if how == "squeeze" else np.sum(grad, dim, dtype=grad.dtype)
    memory = np.zeros(length, grad.dtype)
    if out_overlaps:
        np.add.at(memory, _strided_view(np.arange(length), *out), grad)
    else:  # (copied, not added to 0: a -0. stays -0.)
        _strided_view(memory, *out)[...] = grad
    if inp_overlaps:
        count = np.zeros(length, grad.dtype)
        np.add.at(count, _strided_view(np.arange(length), *inp), 1)
        memory = memory / count
    return _strided_view(memory, *base).copy()


def as_strided_backward_tensor(grad, base_geometry, size, strides, offset):
    """``as_strided_backward_of`` recorded as torch records it (create_graph=True):
    size-1 dims squeezed (SqueezeBackward1), stride-0 dims summed, zeros, the
    gradient copied into the viewed elements (CopySlices), the base's elements
    viewed (AsStridedBackward0)."""
    from .indexing import index_put_into
    from .inplace import copy, inplace
    from .reduction import sum as sum_
    from .shape import squeeze

    Tensor = _tensor.Tensor
    plan = _as_strided_backward_plan(grad.ndim, base_geometry, size, strides, offset)
    if plan is None:
        return Tensor._make(np.zeros(base_geometry[0], grad._data.dtype))
    reduce, length, out, out_overlaps, inp, inp_overlaps, base = plan
    for how, dim in reduce:
        grad = squeeze(grad, dim) if how == "squeeze" else sum_(grad, dim)
    memory = Tensor._make(np.zeros(length, grad._data.dtype))
    if out_overlaps:  # (torch: index_add_, IndexAddBackward0)
        positions = _strided_view(np.arange(length), *out)
        memory = index_put_into(grad, (length,), (positions,))
    else:
        inplace(as_strided(memory, *out), copy, grad)
    if inp_overlaps:
        count = np.zeros(length, grad._data.dtype)
        np.add.at(count, _strided_view(np.arange(length), *inp), 1)
        memory = memory / Tensor._make(count)
    return as_strided(memory, *base)


class AsStridedBackward0(Node):
    formula = Formula("y",
                      "the elements of x's memory at storage_offset + sum(i_k * stride_k)",
                      grad={"x": "G added back at those elements"},
                      note=("What a view's grad_fn becomes once its base (or another view "
                            "of it) was changed in place: the view is then described by "
                            "where it sits in the base's memory."))

    is_view = True

    def forward(self, x, size, stride, storage_offset, given_offset=True):
        # (storage_offset shown None when not given, as torch keeps it)
        self.save(size=tuple(size), stride=tuple(stride),
                  storage_offset=storage_offset if given_offset else None,
                  _storage_offset=storage_offset, _self_geometry=geometry(x))
        return _strided_view(x, size, stride, storage_offset)

    def backward(self, grad):
        return fn.as_strided_backward(grad, self._saved__self_geometry, self._saved_size,
                                      self._saved_stride, self._saved__storage_offset)


def as_strided(x, size, stride, storage_offset=None):
    """``x.as_strided(size, stride, storage_offset)``: a view of ``x``'s memory."""
    given = storage_offset is not None
    if not given:
        storage_offset = geometry(x._data)[2]
    return AsStridedBackward0.apply(x, size=tuple(size), stride=tuple(stride),
                                    storage_offset=int(storage_offset), given_offset=given)


def as_strided_node(base, view_array: np.ndarray) -> AsStridedBackward0:
    """A recorded ``AsStridedBackward0`` from ``base`` to the view ``view_array``."""
    size, strides, offset = geometry(view_array)
    node = object.__new__(AsStridedBackward0)
    node._saved, node._forward_args = {}, None
    node.save(size=size, stride=strides, storage_offset=offset, _storage_offset=offset,
              _self_geometry=geometry(base._data))
    node._link((base,), None)
    return node


def regenerate_grad_fn(view) -> None:
    """``view``'s node after its memory was changed in place (see the module
    docstring): as PyTorch, an ``AsStridedBackward0`` from the base's current node,
    made once per change; the view's ``retain_grad`` moves to it."""
    base = view._base
    old = view._grad_fn
    if old is None and not base._requires_grad:
        view._view_version = view._version_cell.value
        return
    if view._view_made != "grad mode":  # (torch refuses, at every reading)
        raise RuntimeError(errors.view_changed_in_place(
            view._view_made, forward_name(old) if old is not None else None, view._output_nr,
            indirect=True))
    view._view_version = view._version_cell.value
    node = as_strided_node(base, view._data)
    move_retain_grad(view, old, view._output_nr, node)
    view._grad_fn = node
    view._output_nr = 0
    view._requires_grad = True


def move_retain_grad(tensor, old, old_nr: int, new) -> None:
    """A tensor's ``retain_grad()`` follows it from its node ``old`` (where it was
    output ``old_nr``) to its new node, output 0, as torch's
    update_tensor_hooks_on_new_gradfn does; hooks stay with the old node."""
    if old is None or not old._retains_grad:
        return
    ref = old._retains_grad.get(old_nr)
    if ref is not None and ref() is tensor:
        del old._retains_grad[old_nr]
        if new._retains_grad is None:
            new._retains_grad = {}
        new._retains_grad[0] = ref


# At the bottom, because tensor.py (the floor above) imports the ops.
from .. import tensor as _tensor  # noqa: E402


# ---- the layout of an elementwise result ----------------------------------------

def _broadcast_strides(array: np.ndarray, shape) -> list:
    """``array``'s strides (in bytes) seen at ``shape``: 0 along broadcast dims."""
    offset = len(shape) - array.ndim
    strides = [0] * len(shape)
    for dim, (size, step) in enumerate(zip(array.shape, array.strides)):
        strides[offset + dim] = 0 if size == 1 and shape[offset + dim] != 1 else step
    return strides


def iterator_order(shape, arrays) -> list:
    """The dims of an elementwise result, fastest first, as torch's TensorIterator
    orders them (reorder_dimensions): each pair of dims is ordered by the first
    operand whose strides tell them apart (broadcast dims tell nothing; equal
    strides put the smaller dim first)."""
    strides = [_broadcast_strides(array, shape) for array in arrays]

    def should_swap(dim0, dim1) -> int:
        for operand in strides:
            stride0, stride1 = operand[dim0], operand[dim1]
            if stride0 == 0 or stride1 == 0:
                continue
            if stride0 != stride1:
                return -1 if stride0 < stride1 else 1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0

    return sorted_dims(len(shape), should_swap)


def sorted_dims(ndim: int, should_swap) -> list:
    """The dims, fastest first, sorted as torch sorts them: an insertion sort from
    the last dim, where ``should_swap(dim0, dim1)`` says 1 (swap), -1 (keep, stop)
    or 0 (no opinion: look further back). Not a total order, so only this exact
    sort gives torch's layouts."""
    perm = list(reversed(range(ndim)))
    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    return perm


def in_iterator_layout(result: np.ndarray, arrays) -> np.ndarray:
    """``result`` (an elementwise op's, laid out by NumPy) laid out as torch lays it
    out for these operands: the same values, copied only where the layouts differ
    (operands of different layouts, e.g. ``c.t() + ones(3, 2)``)."""
    shape = result.shape
    slow_to_fast = list(reversed(iterator_order(shape, arrays)))
    wanted = [0] * len(shape)
    step = result.itemsize
    for dim in reversed(slow_to_fast):
        wanted[dim] = step
        step *= shape[dim]  # (a size-0 dim makes the slower ones' strides 0, as torch's)
    if tuple(wanted) == result.strides:
        return result
    if result.size == 0:  # (nothing to copy: only the strides are torch's; in the natural
        # order of dims, torch's row-major strides, a size-0 dim counting as 1)
        strides = contiguous_strides(shape) if slow_to_fast == sorted(slow_to_fast) \
            else [w // result.itemsize for w in wanted]
        return empty_strided(shape, strides, result.dtype)
    buffer = np.empty([shape[dim] for dim in slow_to_fast], result.dtype)
    out = buffer.transpose(np.argsort(slow_to_fast))
    out[...] = result
    return out


def with_iterator_layout(result, *operands):
    """``result`` (a Tensor) laid out as torch lays out an elementwise op's result
    on ``operands`` (arrays, in torch's operand order): only operands of
    different layouts, or an empty result, can change it."""
    data = result._data
    if not data.size:
        return with_empty_layout(result, *operands)
    if data.ndim > 1 and not all(array.flags.c_contiguous for array in operands):
        _relay(result, in_iterator_layout(data, operands))
    return result


def with_empty_layout(result, *operands):
    """``result`` (a Tensor), an elementwise op's empty result on ``operands``
    (arrays, in torch's operand order), with torch's strides (NumPy gives it
    strides of 0): operands all of the result's shape take TensorIterator's
    fast path, where an empty tensor counts as contiguous (row-major strides);
    others are laid out as the iterator orders them."""
    data = result._data
    shape = data.shape
    if all(array.shape == shape for array in operands):
        strides = contiguous_strides(shape)
        if geometry(data)[1] != strides:
            _relay(result, empty_strided(shape, strides, data.dtype))
    else:
        _relay(result, in_iterator_layout(data, operands))
    return result


def with_unary_layout(result, x):
    """``result`` (a Tensor), a one-operand elementwise op's result on the tensor
    ``x``, laid out as torch lays it out: TensorIterator's fast path gives a
    contiguous ``x`` (an empty one counts as contiguous) a row-major result, and
    a dense one its own strides; else the iterator orders the dims. NumPy differs
    only for views that are not contiguous (an array NumPy made is dense, and
    NumPy lays out the result as it) and empty results (strides of 0)."""
    array = x._data
    if array.size and (array.base is None or array.flags.c_contiguous):
        return result
    data = result._data
    shape, strides = array.shape, tuple(step // array.itemsize for step in array.strides)
    if not array.size or array.flags.c_contiguous:
        laid_out = with_strides(data, contiguous_strides(shape))
    elif is_non_overlapping_and_dense(shape, strides):
        laid_out = with_strides(data, strides)
    else:
        laid_out = in_iterator_layout(data, (array,))
    if laid_out is not data:
        _relay(result, laid_out)
    return result


def with_contiguous_layout(result):
    """``result`` (a Tensor) with row-major strides, as torch allocates the result
    of ops that do not follow their input's layout (``2 ** x``, ``cumsum``,
    ``masked_fill``): NumPy follows it, and gives an empty result strides of 0."""
    data = result._data
    if data.size and data.flags.c_contiguous:
        return result
    laid_out = with_strides(data, contiguous_strides(data.shape))
    if laid_out is not data:
        _relay(result, laid_out)
    return result


def _relay(result, data: np.ndarray) -> None:
    """``result`` (a Tensor) now holds ``data`` (the same values, laid out anew), and
    so does the result its node saved (torch saves the tensor itself)."""
    node = result._grad_fn
    if node is not None:
        saved = node._saved.get("result")
        if type(saved) is SavedTensor and saved.tensor is None and saved.data is result._data:
            saved.data = data
    result._data = data


def with_number_layout(result, array: np.ndarray):
    """``result`` (a Tensor or an array) of ``array`` op a number, laid out as torch
    lays it out: the number is a 0-dim operand, so TensorIterator orders the dims
    by ``array``'s strides, size-1 dims included (``x.t() * 2`` for x of shape
    (3, 1) keeps the strides (1, 1); NumPy gives (3, 1)). Only a result whose
    strides are not ``array``'s can differ."""
    data = result._data if isinstance(result, _tensor.Tensor) else result
    if (data.ndim < 2 and data.size) or data.strides == array.strides:
        return result
    laid_out = in_iterator_layout(data, (array,))
    if laid_out is data:
        return result
    if isinstance(result, _tensor.Tensor):
        _relay(result, laid_out)
        return result
    return laid_out
