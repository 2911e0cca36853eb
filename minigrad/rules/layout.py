"""The layout of an op's result, as PyTorch lays it out: NumPy decides strides by its
own rules, so a result whose strides would differ from PyTorch's (a transposed
operand, a number beside a tensor, an empty result) is laid out again here. The
values never change; ``x.stride()`` and what follows from it (the order of a sum's
additions, ``is_contiguous``) then match PyTorch's."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.saved import SavedTensor
from ..autograd.tensor_base import TensorBase
from ..kernels.layout import (cast_preserved, channels_last_strides, contiguous_strides,
                              empty_strided, geometry, in_iterator_layout,
                              is_non_overlapping_and_dense, preserved_strides, storage_nbytes,
                              strides_like_channels_last, viewed, with_strides)


def with_iterator_layout(result, *operands, cast_to=None):
    """``result`` (a Tensor) laid out as torch lays out an elementwise op's result
    on ``operands`` (arrays, in torch's operand order): only operands of
    different layouts, or an empty result, can change it. ``cast_to``: the NumPy dtype
    the iterator converts its inputs to (its common dtype; None: the operands are not
    converted, or are of it already), see ``as_iterator_sees``."""
    data = result._data
    if not data.size:
        return with_empty_layout(result, *operands)
    if data.ndim > 1 and not all(array.flags.c_contiguous for array in operands):
        if cast_to is not None:
            operands = as_iterator_sees(operands, cast_to)
        _relay(result, in_iterator_layout(data, operands))
    return result


def as_iterator_sees(operands, cast_to) -> tuple:
    """The operands as PyTorch's TensorIterator orders the dims by them: on the CPU it
    first converts each input of another dtype than ``cast_to`` (``.to()``, keeping the
    strides of a dense one, dense strides in the same order for any other: an expanded
    float16 beside a float32 is seen row-major)."""
    return tuple([array if array.dtype == cast_to or array.ndim < 2 or array.flags.c_contiguous
                  else empty_strided(array.shape, preserved_strides(array), cast_to)
                  for array in operands])


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
    if data.size and data.flags.c_contiguous and 1 not in data.shape:
        return result  # (a size-1 dim: NumPy's flag ignores its stride, torch's does not)
    laid_out = with_strides(data, contiguous_strides(data.shape))
    if laid_out is not data:
        _relay(result, laid_out)
    return result


def with_reduction_layout(results):
    """``results`` (a Tensor, or a tuple of Tensors: values and indices) of a reduction
    or of an op that allocates its result anew (``roll``, ``repeat``, ``cummax``), with
    row-major strides as torch allocates them; NumPy keeps the input's order of dims
    (``x.permute(2, 0, 1).sum(1)`` is (3, 1) in torch, (1, 4) in NumPy) and gives an
    empty result strides of 0; a size-1 dim's stride is torch's too)."""
    for result in (results,) if isinstance(results, TensorBase) else results:
        data = result._data
        if data.ndim > 1 or not data.size:
            laid_out = with_strides(data, contiguous_strides(data.shape))
            if laid_out is not data:
                _relay(result, laid_out)
    return results


def with_cat_layout(result, parts):
    """``cat``'s result: channels-last when every part has channels-last strides, as
    PyTorch's cat lays it out (compute_output_memory_format: the one format all its inputs
    suggest); else row-major, as a new tensor (``with_reduction_layout``)."""
    data = result._data
    if data.ndim in (4, 5) and parts and all(
            p.ndim == data.ndim and strides_like_channels_last(*geometry(p._data)[:2])
            for p in parts):
        laid_out = with_strides(data, channels_last_strides(data.shape))
        if laid_out is not data:
            _relay(result, laid_out)
        return result
    return with_reduction_layout(result)


def with_stack_layout(result, parts, dim: int):
    """``stack``'s result as PyTorch's stack makes it when ``dim`` is not the new last
    one: ``cat`` of the parts along ``dim`` (channels-last when they all are, as
    ``with_cat_layout``), then viewed with ``dim`` split in two; else row-major."""
    data, first = result._data, parts[0]._data
    if dim < first.ndim and first.size and first.ndim in (4, 5) and all(
            strides_like_channels_last(*geometry(p._data)[:2]) for p in parts):
        joined = list(first.shape)
        joined[dim] *= len(parts)
        cat = with_strides(np.ascontiguousarray(data).reshape(joined),
                           channels_last_strides(tuple(joined)))
        _relay(result, viewed(cat, data.shape))
        return result
    return with_reduction_layout(result)


def check_shuffle_layout(x) -> None:
    """pixel_shuffle and pixel_unshuffle lay their result out in the input's suggested
    format, and PyTorch's CPU kernels take only row-major and 2-d channels-last ones: a
    5-d input with channels-last-3d strides is refused, with its text."""
    if x._data.ndim == 5 and strides_like_channels_last(*geometry(x._data)[:2]):
        raise RuntimeError("Unsupported memory format. Supports only ChannelsLast, Contiguous")


def with_empty_like_layout(results, x):
    """``results`` (a Tensor or a tuple of them) of an op on ``x`` laid out as
    ``torch.empty_like(x)``: x's strides where x is dense (torch's sort and argsort
    return it, and roll along dims of an empty x; NumPy gives strides of 0 to an empty
    result, and its own row-major ones to a sorted transposed x with a size-1 dim)."""
    strides = preserved_strides(x._data)
    for result in (results,) if isinstance(results, TensorBase) else results:
        laid_out = with_strides(result._data, strides)
        if laid_out is not result._data:
            _relay(result, laid_out)
    return results


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
    data = result._data if isinstance(result, TensorBase) else result
    if data.size and (data.ndim < 2 or data.strides == array.strides):
        return result  # (an empty result: NumPy may copy strides of 0 from an empty array)
    laid_out = in_iterator_layout(data, (array,))
    if laid_out is data:
        return result
    if isinstance(result, TensorBase):
        _relay(result, laid_out)
        return result
    return laid_out


def empty_gradient_cast(grad, meta):
    """An empty gradient cast to its input's dtype (``meta``: shape, dtype) as torch's
    copy casts it, keeping its layout, where NumPy's ``astype`` would give strides of 0;
    any other gradient as it is (``Node._validate`` casts those)."""
    if type(grad) is np.ndarray and not grad.size and meta is not None and grad.dtype != meta[1]:
        return cast_preserved(grad, meta[1])  # (an empty expansion stays one)
    return grad


def to_copy_gradient(grad, meta):
    """ToCopyBackward0's gradient: converted back to the dtype its input had in forward
    (``meta``: shape, dtype; ``replaced.forward_input_meta``), as PyTorch's formula
    converts it; ``Node._validate`` converts any other on to its input's recorded dtype
    (another one only where the input's array was replaced before the op)."""
    data = grad._data if isinstance(grad, TensorBase) else grad
    if meta is None or data.dtype == meta[1] or not data.size:
        return empty_gradient_cast(grad, meta)
    return cast_preserved(data, meta[1]) if data is grad else grad.to(dtypes.DTYPE_OF[meta[1]])


def check_row_major_grad_input(x) -> None:
    """torch's 2-d nll_loss backward writes into zeros laid out as ``x`` and refuses a
    layout that is not row-major (only a 4-dim input that is not contiguous reaches it)."""
    data = x._data if isinstance(x, TensorBase) else x
    if data.size and preserved_strides(data) != contiguous_strides(data.shape):
        raise RuntimeError("grad_input must be contiguous")


def check_as_strided(array: np.ndarray, size: tuple, stride: tuple, offset: int,
                     fresh: bool = False) -> None:
    """torch's checks of ``x.as_strided(size, stride, storage_offset)``, with its texts: the
    view must lie inside ``array``'s storage (NumPy's as_strided checks nothing, so a view
    past it read and wrote the process's other memory); ``fresh``: inside the storage of
    ``array``'s clone (``as_strided_scatter``), its elements and no more."""
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {_listed(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={_listed(size)} "
                           f"and strides={_listed(stride)}")
    if 0 in size:
        return  # (no element: any storage holds it)
    itemsize = array.itemsize
    needed = itemsize * (1 + sum((n - 1) * s for n, s in zip(size, stride)) + offset)
    available = array.size * itemsize if fresh else storage_nbytes(array)
    if needed > available:
        raise RuntimeError(f"setStorage: sizes {_listed(size)}, strides {_listed(stride)}, "
                           f"storage offset {offset}, and itemsize {itemsize} requiring a "
                           f"storage size of {needed} are out of bounds for storage of size "
                           f"{available}")


def check_as_strided_scatter(x) -> None:
    """PyTorch 2.13 computes as_strided_scatter's gradient only for a row-major input and
    says so with an internal assert."""
    if x.requires_grad and not x._data.flags.c_contiguous:
        raise RuntimeError(
            '!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at '
            '"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a '
            'bug to PyTorch. as_strided_scatter is currently only supported for contiguous inputs')


def check_view_dtype(array: np.ndarray, source, target) -> None:
    """PyTorch's checks of ``x.view(dtype)`` between element sizes that differ: the last
    dim contiguous and (to a larger element) divisible, the offset and other strides too."""
    old, new = array.itemsize, target.numpy.itemsize
    if old == new:
        return
    how = (f"to view {dtypes.SCALAR_NAMES[source]} as {dtypes.SCALAR_NAMES[target]} "
           "(different element sizes)")
    if array.ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {how}")
    sizes, strides, offset = geometry(array)
    if strides[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {how}, but got {strides[-1]}")
    ratio = new // old
    if new > old and sizes[-1] % ratio:
        raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {how}, but got "
                           f"{sizes[-1]}")
    if new > old and offset % ratio:
        raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {how}, but "
                           f"got {offset}")
    for d, stride in enumerate(strides[:-1] if new > old else ()):
        if stride % ratio:
            raise RuntimeError(f"self.stride({d}) must be divisible by {ratio} {how}, but got "
                               f"{stride}")


def _listed(numbers) -> str:
    return "[" + ", ".join(str(int(n)) for n in numbers) + "]"


def permuted_strides(size: tuple, physical_layout: tuple) -> tuple:
    """``empty_permuted``'s strides: the dims laid out in memory in the order
    ``physical_layout`` names them (outermost first), with PyTorch's checks and texts."""
    if len(size) != len(physical_layout):
        raise RuntimeError("Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(physical_layout)}")
    seen = set()
    for place, dim in enumerate(physical_layout):
        if not 0 <= dim < len(size):
            raise RuntimeError(
                f"Dimension out of range (expected to be between 0 and {len(size) - 1}, but got "
                f"{dim} at index {place}).  NB: negative dims not currently supported; file an "
                "issue if you want it.")
        if dim in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(dim)
    inner = contiguous_strides(tuple(size[d] for d in physical_layout))
    strides = [0] * len(size)
    for dim, stride in zip(physical_layout, inner):
        strides[dim] = stride
    return tuple(strides)


def dense_in_order(size: tuple, strides: tuple, order: tuple) -> bool:
    """Whether the dims, innermost first in ``order``, step through memory densely (size-1
    dims aside): PyTorch's contiguity checks for a memory format."""
    expected = 1
    for dim in order:
        if size[dim] != 1:
            if strides[dim] != expected:
                return False
            expected *= size[dim]
    return True


def dim_order(size: tuple, strides: tuple, ambiguity_check) -> tuple:
    """``Tensor.dim_order``: the dims from the outermost in memory to the innermost, as
    PyTorch's compute_elementwise_output_logical_to_physical_perm sorts them (row-major
    and channels-last tensors first, then an insertion sort of the strides, the innermost
    last); ``ambiguity_check``: True, or the memory formats of which exactly one must fit,
    raises PyTorch's error when the order is not the only one."""
    ndim = len(size)
    is_list = isinstance(ambiguity_check, list)
    if not isinstance(ambiguity_check, bool) and not (is_list and all(
            type(f).__name__ == "memory_format" for f in ambiguity_check)):
        raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
    several = any(a == b for a, b in zip(strides, strides[1:])) or 1 in size
    fitting = sum(dense_in_order(size, strides, tuple(reversed(range(ndim))))
                  for f in (ambiguity_check if is_list else []) if f.name == "contiguous_format")
    if (is_list or ambiguity_check) and several and fitting != 1:
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact "
                           "one of the given memory formats.")
    if ndim < 2:
        return tuple(range(ndim))
    row_major = dense_in_order(size, strides, tuple(reversed(range(ndim))))
    channels_last = ndim == 4 and dense_in_order(size, strides, (1, 3, 2, 0))
    if row_major and not channels_last:
        return tuple(range(ndim))
    if channels_last and not row_major:
        return (0, *range(2, ndim), 1)
    perm = list(reversed(range(ndim)))
    for i in range(1, ndim):  # (an insertion sort that leaves ties where they are)
        dim1 = i
        for dim0 in reversed(range(i)):
            order = _stride_order(size, strides, perm[dim0], perm[dim1])
            if order > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif order < 0:
                break
    if ambiguity_check and any(  # (PyTorch's test: an empty list asks for no check here)
            _stride_order(size, strides, a, b) != -1 for a, b in zip(perm, perm[1:])):
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(reversed(perm))


def _stride_order(size, strides, a, b) -> int:
    """-1 when dim ``a`` is inside dim ``b`` in memory, 1 when outside, 0 when either may be
    (PyTorch's should_swap for one tensor)."""
    def at_least(x, y):
        return y == 0 or (x != 0 and (x >= y or x % y == 0))

    if strides[a] == 0 or strides[b] == 0:
        return 0
    if strides[a] == strides[b]:
        return 0 if at_least(size[b], size[a]) else 1
    return -1 if at_least(strides[b], strides[a]) else 1
