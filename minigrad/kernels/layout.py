"""Memory layout as PyTorch counts it: strides and storage offsets in elements, the
strides a new tensor gets, and the order TensorIterator visits dimensions in.

NumPy lays out results by its own rules (and gives every empty array strides of 0);
these functions say what PyTorch would give, for arrays. The rules that apply them to
an op's result (``with_unary_layout``, ...) are in ``minigrad/rules/layout.py``.
"""

from __future__ import annotations

import numpy as np

from .. import errors
from .meta import MetaArray
from .vec import VECTOR_BYTES


def storage_nbytes(array: np.ndarray) -> int:
    """The bytes of the memory ``array`` is a view of (its storage, as torch counts it)."""
    return _storage(array)[0].nbytes


def storage_elements(array: np.ndarray) -> np.ndarray:
    """The whole memory ``array`` is a view of, as a 1-D array of ``array``'s dtype (what
    ``x.storage()`` indexes): writing into it writes into every view of that memory."""
    owner = _storage(array)[0]
    if not owner.flags.c_contiguous:  # (an owner NumPy strided itself: its elements, copied)
        return np.ascontiguousarray(owner).reshape(-1).view(array.dtype)
    return owner.reshape(-1).view(np.uint8).view(array.dtype)


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


def storage_owner(array: np.ndarray) -> np.ndarray:
    """The array that owns ``array``'s memory (its views share it)."""
    return _storage(array)[0]


def geometry(array: np.ndarray) -> tuple:
    """``(sizes, strides, storage_offset)`` of an array, in elements. A meta array has
    no memory: it reports the row-major strides a new tensor of its shape has."""
    if type(array) is MetaArray:
        return tuple(array.shape), contiguous_strides(array.shape), 0
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


def unsqueezed(x: np.ndarray, dim: int) -> np.ndarray:
    """``np.expand_dims(x, dim)``, with torch's strides where NumPy's differ (an empty x,
    whose strides NumPy's reshape forgets; a size-1 dim of an expanded x, which it gives
    stride 0): x's own, and for the new dim the next dim's size times its stride (its
    itemsize at the end)."""
    out = np.expand_dims(x, dim)
    strides = list(x.strides)
    strides.insert(dim, x.shape[dim] * x.strides[dim] if dim < x.ndim else x.itemsize)
    if x.size and out.strides == tuple(strides):
        return out
    return np.lib.stride_tricks.as_strided(out, strides=strides,
                                           writeable=out.flags.writeable)


def viewed(x: np.ndarray, shape) -> np.ndarray:
    """``np.reshape(x, shape, copy=False)`` (x.view(shape)) with torch's strides for the
    new size-1 dims, which NumPy picks otherwise (they are only records: a channels-last
    (4, 4, 1, 1) viewed as (2, 2, 4, 1, 1) has strides (8, 4, 1, 4, 4) in torch)."""
    out = np.reshape(x, shape, copy=False)
    if not out.size or not x.ndim or 1 not in out.shape:
        return out
    strides = _view_strides(x.shape, geometry(x)[1], out.shape)
    if strides == geometry(out)[1]:
        return out
    return np.lib.stride_tricks.as_strided(out, strides=[s * x.itemsize for s in strides],
                                           writeable=out.flags.writeable)


def _view_strides(old_shape, old_strides, new_shape) -> tuple:
    """torch's computeStride: the old dims in chunks that step through memory together,
    each chunk's new dims given strides from the chunk's last stride up (a new size-1 dim
    at a chunk's start takes the stride past the chunk)."""
    new, view_d, base = [0] * len(new_shape), len(new_shape) - 1, old_strides[-1]
    old_numel = view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        old_numel *= old_shape[d]
        if d == 0 or (old_shape[d - 1] != 1 and old_strides[d - 1] != old_numel * base):
            while view_d >= 0 and (view_numel < old_numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if d > 0:
                base, old_numel, view_numel = old_strides[d - 1], 1, 1
    return tuple(new)


def contiguous_strides(shape) -> tuple:
    """torch's row-major strides for ``shape`` (a size-0 dim steps like a size-1 one)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def channels_last_order(ndim: int) -> list:
    """The dims of an (N, C, *spatial) tensor from the fastest in memory in torch's
    channels-last formats: C, then the spatial dims from the last, N slowest."""
    return [1] + list(range(ndim - 1, 1, -1)) + [0]


def channels_last_strides(shape) -> tuple:
    """torch's strides of a new channels-last tensor of ``shape`` (get_channels_last_strides)."""
    strides, step = [0] * len(shape), 1
    for d in channels_last_order(len(shape)):
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


def is_channels_last(shape, strides) -> bool:
    """torch's compute_channels_last_contiguous_2d/3d: the dims of size other than 1, in
    channels-last order, step through memory without gaps."""
    expected = 1
    for d in channels_last_order(len(shape)):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def strides_like_channels_last(shape, strides) -> bool:
    """torch's is_channels_last_strides_2d/3d (what suggest_memory_format reads): a 4-d or
    5-d tensor whose strides grow in channels-last order, the ambiguous cases (a zero
    channel stride, N111-like strides) read as row-major."""
    if len(shape) not in (4, 5) or strides[1] == 0:
        return False
    least = 0
    for d in channels_last_order(len(shape)):
        if shape[d] == 0 or strides[d] < least or (d == 0 and least == strides[1]):
            return False
        least = strides[d] * (shape[d] if shape[d] > 1 else 1)
    return True


def in_input_format(y: np.ndarray, x: np.ndarray, volumes: bool = False) -> np.ndarray:
    """``y`` laid out channels-last when ``x`` (of as many dims) has channels-last strides,
    as PyTorch's CPU pooling kernels lay out their results (the input's
    suggest_memory_format); else as it is. A volume's (5-d) only with ``volumes`` (max
    pooling: PyTorch's other 3-d pooling kernels write row-major)."""
    if y.ndim == x.ndim and (volumes or y.ndim == 4) and \
            strides_like_channels_last(*geometry(x)[:2]):
        return with_strides(y, channels_last_strides(y.shape))
    return y


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


def preserved_copy(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` laid out as torch's ``clone()`` (preserve_format) lays it out
    (NumPy's ``copy()`` is row-major): ``index_fill`` and ``index_put`` write into one."""
    out = empty_strided(array.shape, preserved_strides(array), array.dtype)
    out[...] = array
    return out


def dim_first_strides(shape, dim: int) -> tuple:
    """The strides of a row-major array of ``shape`` with ``dim`` moved first, then moved
    back to its place (torch's unique(dim=...) stacks the slices along a new first dim)."""
    moved = contiguous_strides((shape[dim],) + tuple(shape[:dim]) + tuple(shape[dim + 1:]))
    return tuple(moved[1:dim + 1]) + (moved[0],) + tuple(moved[dim + 1:])


def flipped(x: np.ndarray, dims) -> np.ndarray:
    """``x`` reversed along ``dims``, a new array laid out as torch's ``flip`` lays out its
    result (as ``clone()``: x's strides when dense, else dense ones; NumPy's ``copy(order=
    "K")`` of a flipped expansion orders its broadcast dim first)."""
    view = np.flip(x, dims)
    if type(x) is MetaArray or not x.size or x.flags.c_contiguous:
        return view.copy(order="K")
    out = empty_strided(x.shape, preserved_strides(x), x.dtype)
    out[...] = view
    return out


def cast_preserved(array: np.ndarray, dtype) -> np.ndarray:
    """``array`` converted to the NumPy ``dtype``, laid out as torch's ``.to()`` lays out
    its copy (preserve_format: its own strides when dense, else dense ones in its order);
    NumPy's ``astype`` lays out a broadcast array otherwise, and an empty one with
    strides of 0."""
    if type(array) is MetaArray:
        return array.astype(dtype)
    if array.size == 0:
        if is_empty_expansion(array):  # (its strides of 0 are torch's: it stays one)
            return np.ndarray(array.shape, dtype, np.zeros(1, dtype), 0, array.strides)
        return empty_strided(array.shape, preserved_strides(array), dtype)
    converted = array.astype(dtype)
    if [step // array.itemsize for step in array.strides] == \
            [step // converted.itemsize for step in converted.strides]:
        return converted
    return with_strides(converted, preserved_strides(array))


def empty_strided(shape, strides, dtype) -> np.ndarray:
    """A new array of ``shape`` whose strides (in elements) are ``strides``, which
    must be dense or, for an empty array, anything."""
    shape, strides = tuple(shape), tuple(strides)
    itemsize = np.dtype(dtype).itemsize
    if 0 in shape:  # no element: the strides are only a record
        return np.lib.stride_tricks.as_strided(
            np.empty(0, dtype), shape=shape, strides=[s * itemsize for s in strides])
    slow_to_fast = sorted(range(len(shape)), key=lambda d: (-strides[d], -shape[d]))
    buffer = np.empty([shape[d] for d in slow_to_fast], dtype).transpose(np.argsort(slow_to_fast))
    if geometry(buffer)[1] != strides:  # (a size-1 dim's stride is only a record)
        buffer = np.lib.stride_tricks.as_strided(buffer, strides=[s * itemsize for s in strides])
    return buffer


def new_layout(array: np.ndarray) -> np.ndarray:
    """A new result as torch lays out a new tensor: an empty one row-major (NumPy gives a
    new empty array strides of 0; torch keeps those only for a tensor made of a NumPy
    array, which is why ``geometry`` reports an array's own strides). An empty expansion
    (``is_empty_expansion``: a sum's gradient) keeps its strides of 0, as torch's."""
    if array.size or type(array) is MetaArray or not array.ndim or any(array.strides) \
            or is_empty_expansion(array):
        return array
    return with_strides(array, contiguous_strides(array.shape))


def is_empty_expansion(array: np.ndarray) -> bool:
    """Whether ``array``, empty with every stride 0, is an expansion (torch's
    ``expand`` of an element to a shape with a size-0 dim, whose strides stay 0) rather
    than a new empty array, which NumPy gives strides of 0 too: an expansion views
    memory that holds an element, a new empty array owns none."""
    return not array.size and not any(array.strides) and _storage(array)[0].nbytes > 0


def with_strides(array: np.ndarray, strides) -> np.ndarray:
    """``array``'s values laid out with ``strides`` (``array`` itself if they are
    its own, or if it is a meta array: no values)."""
    if type(array) is MetaArray or geometry(array)[1] == tuple(strides):
        return array
    out = empty_strided(array.shape, strides, array.dtype)
    if array.size:
        out[...] = array
    return out


def leaf_grad_layout(grad: np.ndarray, variable) -> np.ndarray:
    """A leaf's first gradient as torch's AccumulateGrad keeps it (its layout contract):
    with the leaf's own strides when the leaf (the array ``variable``) is dense, else
    row-major, as also a retained gradient (``variable`` None); ``grad`` itself when it
    is laid out so already (a size-1 dim's stride does not count, unless 0). An empty
    leaf counts as dense: its gradient takes its strides."""
    if grad.size == 0 and type(grad) is not MetaArray and type(variable) is not MetaArray:
        # (a new one: a copy of an empty array would have NumPy's strides of 0 again)
        return empty_strided(grad.shape, contiguous_strides(grad.shape) if variable is None
                             else geometry(variable)[1], grad.dtype)
    if type(grad) is MetaArray or type(variable) is MetaArray or \
            (grad.flags.c_contiguous and (variable is None or variable.flags.c_contiguous)):
        return grad
    shape = tuple(grad.shape)
    strides = contiguous_strides(shape) if variable is None else geometry(variable)[1]
    target = strides if is_non_overlapping_and_dense(shape, strides) else contiguous_strides(shape)
    own = geometry(grad)[1]
    if all(s == t if n != 1 else s != 0 for s, t, n in zip(own, target, shape)):
        return grad
    return with_strides(grad, target)


def _is_dense(array: np.ndarray) -> bool:
    """torch's is_non_overlapping_and_dense: the elements fill a block of memory
    without gaps, in some order of the dims."""
    expected = array.itemsize
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


def element_by_element(written: np.ndarray, reads) -> list | None:
    """The order in which torch's elementwise loop writes ``written``'s elements one by one,
    when that matters: an operand in ``reads`` is some other part of the same memory
    (``x.T[0].sub_(x[0, 0])``: the later elements read the new value), and torch's loop
    takes one element at a time (its scalar loop: the fastest dim, in its iterator order,
    not contiguous in ``written`` or in an operand, or shorter than two vectors). None
    otherwise (its vector loop, not followed here, or every element reads what was there)."""
    aliased = [read for read in reads if read.size and np.may_share_memory(written, read) and not (
        read.shape == written.shape and read.strides == written.strides and
        np.lib.array_utils.byte_bounds(read) == np.lib.array_utils.byte_bounds(written))]
    if written.size <= 1 or not aliased:
        return None
    order = iterator_order(written.shape, [written, *reads])
    fastest = next((dim for dim in order if written.shape[dim] > 1), None)
    if fastest is None:
        return None
    strides = [_broadcast_strides(read, written.shape)[fastest] for read in reads]
    if written.strides[fastest] == written.itemsize and \
            written.shape[fastest] >= 2 * VECTOR_BYTES // written.itemsize and \
            all(stride in (0, read.itemsize) for stride, read in zip(strides, reads)):
        return None
    slow_to_fast = list(reversed(order))
    return [tuple(index[slow_to_fast.index(dim)] for dim in range(written.ndim))
            for index in np.ndindex(*[written.shape[dim] for dim in slow_to_fast])]


def strided_view(array: np.ndarray, size, strides, offset) -> np.ndarray:
    """The elements of ``array``'s memory at ``offset + sum(i_k * strides_k)``."""
    owner, start = _storage(array)
    itemsize = array.itemsize
    flat = np.lib.stride_tricks.as_strided(
        owner, shape=(owner.nbytes // itemsize,), strides=(itemsize,),
        writeable=owner.flags.writeable)
    return np.lib.stride_tricks.as_strided(
        flat[offset:], shape=tuple(size), strides=tuple(s * itemsize for s in strides),
        writeable=owner.flags.writeable)


def resized(array: np.ndarray, shape: tuple) -> np.ndarray:
    """torch's ``resize_``: ``shape`` filled row after row with the memory's elements
    from where ``array`` starts (the same shape: ``array`` as it is). Memory too short
    for it grows: its elements copied, then zeros (PyTorch leaves them uninitialised)."""
    sizes, _, offset = geometry(array)
    if tuple(shape) == sizes:
        return array
    owner, _ = _storage(array)
    length = owner.nbytes // array.itemsize
    count = int(np.prod(shape, dtype=np.int64))
    if offset + count <= length:
        return strided_view(array, shape, contiguous_strides(shape), offset)
    grown = np.zeros(offset + count, array.dtype)
    grown[:length] = strided_view(array, (length,), (1,), 0)
    return grown[offset:].reshape(shape)


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


def as_strided_backward_plan(grad_dims, base_geometry, size, strides, offset):
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
    plan = as_strided_backward_plan(grad.ndim, base_geometry, size, strides, offset)
    if plan is None:
        return np.zeros(base_geometry[0], grad.dtype)
    reduce, length, out, out_overlaps, inp, inp_overlaps, base = plan
    for how, dim in reduce:
        grad = np.squeeze(grad, dim) if how == "squeeze" else np.sum(grad, dim, dtype=grad.dtype)
    memory = np.zeros(length, grad.dtype)
    if out_overlaps:
        np.add.at(memory, strided_view(np.arange(length), *out), grad)
    else:  # (copied, not added to 0: a -0. stays -0.)
        strided_view(memory, *out)[...] = grad
    if inp_overlaps:
        count = np.zeros(length, grad.dtype)
        np.add.at(count, strided_view(np.arange(length), *inp), 1)
        memory = memory / count
    return strided_view(memory, *base).copy()


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
    (operands of different layouts, e.g. ``c.t() + ones(3, 2)``). A meta array has no
    numbers to lay out."""
    if type(result) is MetaArray:
        return result
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


def iterator_laid(result, operands):
    """``in_iterator_layout`` for a backward formula's elementwise step on arrays
    (``operands`` in the order torch's kernel hands them to its iterator; numbers have no
    say): quick when nothing could change it (a result of fewer than 2 dims or empty, or
    operands all row-major, as NumPy's result then is)."""
    if type(result) is not np.ndarray or result.ndim < 2 or not result.size:
        return result
    arrays = [array for array in operands if type(array) is np.ndarray and array.ndim]
    if all(array.flags.c_contiguous for array in arrays):
        return result
    return in_iterator_layout(result, arrays)


# The elementwise nodes whose formula in PyTorch begins with the gradient received
# (``grad * result``, ``grad / other``, ``tanh_backward(grad, y)``, ``zeros_like(grad)``),
# so that torch's iterator lays out their gradients as that gradient: each checked against
# torch (tests/core/engine/test_formula_layouts.py). Not here: the formulas PyTorch begins
# with the input (relu's threshold_backward(grad, self) orders self first, erf's
# 2/sqrt(pi) * exp(-self**2) * grad, mse_loss's), with a condition (where, clamp,
# maximum), with zeros_like(self) (sgn, angle), or an out-of-place masked_fill (fmax).
GRADIENT_FIRST = frozenset({
    "AbsBackward0", "AcosBackward0", "AddBackward0", "AddcdivBackward0", "AddcmulBackward0",
    "AsinBackward0", "AsinhBackward0", "Atan2Backward0", "AtanBackward0", "AtanhBackward0",
    "CeluBackward0", "CosBackward0", "CoshBackward0",
    "Deg2RadBackward0", "DigammaBackward0", "DivBackward0", "EluBackward0", "Exp2Backward0",
    "ExpBackward0", "Expm1Backward0", "FloorBackward0", "FmodBackward1", "FracBackward0",
    "GeluBackward0", "HardshrinkBackward0", "HardsigmoidBackward0", "HardswishBackward0",
    "HardtanhBackward0", "HypotBackward0", "I0Backward0", "LerpBackward0", "LerpBackward1",
    "LgammaBackward0", "Log10Backward0", "Log1PBackward0", "Log2Backward0", "LogBackward0",
    "LogSigmoidBackward0", "Logaddexp2Backward0", "LogaddexpBackward0", "LogitBackward0",
    "MishBackward0", "MulBackward0", "NanToNumBackward0", "NegBackward0",
    "PolygammaBackward0", "PowBackward0", "PowBackward1", "PowBackward2",
    "ReciprocalBackward0", "RemainderBackward1", "RoundBackward0", "RsqrtBackward0",
    "SigmoidBackward0", "SignBackward0", "SiluBackward0", "SinBackward0", "SinhBackward0",
    "SoftplusBackward0", "SoftshrinkBackward0", "SpecialEntrBackward0",
    "SpecialI0EBackward0", "SpecialI1Backward0", "SpecialI1EBackward0",
    "SpecialLogNdtrBackward0", "SpecialNdtriBackward0", "SqrtBackward0", "SubBackward0",
    "TanBackward0", "TanhBackward0", "TruncBackward0",
})


def laid_as_received(grads: tuple, grad) -> tuple:
    """An elementwise formula's gradients (``grad * y``, ``grad / x``, ...) laid out as
    torch's iterator lays them out: it orders the dims by the first operand that tells
    them apart, the gradient received, where NumPy lays out operands of different layouts
    row-major. Only a gradient received dense but not row-major (a transposed one) can
    make them differ; each result of ``grad``'s shape then takes its order of dims (where
    ``grad`` tells none apart, NumPy's result keeps its own)."""
    if type(grad) is not np.ndarray or grad.ndim < 2 or grad.flags.c_contiguous \
            or not grad.size or not all(grad.strides):
        return grads
    return tuple([result if type(result) is not np.ndarray or result.shape != grad.shape
                  else in_iterator_layout(result, (grad, result)) for result in grads])


def windows(x: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    """``x.unfold(dim, size, step)``: a view of the windows of ``size`` elements, ``step``
    apart, along ``dim`` (which becomes the windows' number; a last dim holds each window).
    A 0-dim ``x`` is one element along one dim, as in torch."""
    if x.ndim == 0:
        x = x.reshape(1)
        return np.lib.stride_tricks.as_strided(x, (size,), x.strides, writeable=x.flags.writeable)
    count = (x.shape[dim] - size) // step + 1
    shape = x.shape[:dim] + (count,) + x.shape[dim + 1:] + (size,)
    strides = x.strides[:dim] + (x.strides[dim] * step,) + x.strides[dim + 1:] + (x.strides[dim],)
    return np.lib.stride_tricks.as_strided(x, shape, strides, writeable=x.flags.writeable)


def windows_backward(grad: np.ndarray, input_sizes, dim: int, size: int, step: int):
    """Zeros of ``input_sizes`` with each window of ``grad`` added back where ``windows``
    read it; an element in several windows gets their sum, the first window's first (as
    torch's unfold_backward kernel adds them)."""
    out = np.zeros(input_sizes, grad.dtype)
    flat = out.reshape(1) if out.ndim == 0 else out
    count = grad.shape[dim] if out.ndim else 1
    for j in reversed(range(size)):  # (for each element: the earlier window first)
        places = [slice(None)] * flat.ndim
        places[dim] = slice(j, j + step * (count - 1) + 1, step)
        flat[tuple(places)] += grad[..., j] if count else 0
    return out
