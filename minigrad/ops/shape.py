"""Operations that move elements around without changing them: view,
reshape, transpose, permute, (un)squeeze, expand, cat, stack, flip, narrow,
plus clone and dtype conversion.

Views (``is_view = True``) share memory and the version counter with the
tensor they look into, as in PyTorch; their backward puts the gradient back
in the original layout.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes, errors
from ..autograd import forward_ad, mutation
from ..autograd.broadcast import expand_array
from ..autograd.formula import Formula
from ..autograd.node import Node
from . import fn
from ..rules.arguments import normalize_dim
from ._saved import as_shown
from ..kernels import layout
from ..autograd.replaced import forward_input_meta
from ..autograd.tensor_base import make
from ..rules.layout import (check_view_dtype, to_copy_gradient, with_cat_layout,
                             with_empty_like_layout, with_reduction_layout, with_stack_layout)
from . import indexing, inplace

__all__ = ["view", "reshape", "flatten", "transpose", "t", "permute", "unsqueeze",
           "squeeze", "expand", "cat", "stack", "flip", "narrow", "clone", "to_dtype",
           "contiguous"]


def _shape_arg(shape) -> tuple:
    """Accept both ``view(2, 3)`` and ``view((2, 3))``."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def _infer_size(shape: tuple, numel: int) -> tuple:
    """Fill in a single -1 and check the element count, with torch's errors."""
    inferred = False
    for index, size in enumerate(shape):  # (in order, as torch: the first problem is named)
        if size == -1 and inferred:
            raise RuntimeError("only one dimension can be inferred")
        if size < -1:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape "
                               f"{list(shape)}")
        inferred = inferred or size == -1
    known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
    if -1 in shape:
        if known == 0 and numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                               "because the unspecified dimension size -1 can be any value and "
                               "is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


class ViewBackward0(Node):
    formula = Formula("y", "x seen with another shape", grad={"x": "G reshaped back"})

    is_view = True

    def forward(self, x, shape):
        self.save(self_sym_sizes=x.shape)
        return layout.viewed(x, shape)

    def backward(self, saved, grad):
        return fn.reshape(grad, saved.self_sym_sizes)


class UnsafeViewBackward0(Node):
    formula = Formula("y",
                      "a reshaped copy of x",
                      grad={"x": "G reshaped back"},
                      note="``reshape`` of a non-contiguous tensor.")

    def forward(self, x, shape):
        self.save(self_sym_sizes=x.shape)
        return np.reshape(x, shape)

    def backward(self, saved, grad):
        return fn.reshape(grad, saved.self_sym_sizes)


class ReshapeAliasBackward0(ViewBackward0):
    formula = Formula("y",
                      "x seen with another shape",
                      grad={"x": "G reshaped back"},
                      note=("For a non-contiguous x whose strides allow it (``reshape`` uses "
                            "``_reshape_alias`` there)."))


class AliasBackward0(Node):
    formula = Formula("y",
                      "x itself, as a new view",
                      d={"x": "1"},
                      note="``x[...]``, ``x[:, :]``.")

    is_view = True

    def forward(self, x):
        return x.view()

    def backward(self, saved, grad):
        return grad


class CloneBackward0(Node):
    formula = Formula("y", "a copy of x", d={"x": "1"})

    def forward(self, x, contiguous=False):
        # torch's clone keeps the order of x's dims in memory (a transposed x
        # gives a transposed copy, without gaps); contiguous() gives row-major.
        if x.size == 0:  # (NumPy would forget the layout: only strides to record)
            return layout.empty_strided(x.shape, layout.contiguous_strides(x.shape)
                                         if contiguous else layout.preserved_strides(x),
                                         x.dtype)
        copied = np.array(x, copy=True, order="C" if contiguous else "K")
        if not contiguous and copied.strides != x.strides:
            # (NumPy also reorders size-1 dims, and may lay a non-dense x out
            # otherwise than torch's infer_dense_strides)
            copied = layout.with_strides(copied, layout.preserved_strides(x))
        return copied

    def backward(self, saved, grad):
        return grad


class ToCopyBackward0(Node):
    formula = Formula("y",
                      "x converted to another dtype",
                      d={"x": "1"},
                      note="The gradient is converted back.")

    def forward(self, x, dtype):
        # (as clone: the copy keeps the order of x's dims in memory, preserve_format)
        return layout.cast_preserved(x, dtype.numpy)

    def backward(self, saved, grad):
        return to_copy_gradient(grad, forward_input_meta(self, 0))


class TransposeBackward0(Node):
    formula = Formula("y",
                      "x with dims dim0 and dim1 swapped",
                      grad={"x": "G with them swapped back"})

    is_view = True

    def forward(self, x, dim0, dim1, given=None):
        # (saved as given, a negative dim as C++ keeps it: see _saved.py)
        shown = (dim0, dim1) if given is None else given
        self.save(dim0=as_shown(shown[0]), dim1=as_shown(shown[1]), _given=tuple(shown))
        return np.swapaxes(x, dim0, dim1) if x.ndim else x.view()  # (0-dim: dims are 0, 0)

    def backward(self, saved, grad):  # (the dims as given: PyTorch's formula passes them on)
        return fn.transpose(grad, *saved._given)


class TBackward0(Node):
    formula = Formula("y", "x.t()", grad={"x": "G transposed back"})

    is_view = True

    def forward(self, x):
        return x.T

    def backward(self, saved, grad):
        return fn.t(grad)


class PermuteBackward0(Node):
    formula = Formula("y", "x with its dims reordered", grad={"x": "G in the inverse order"})

    is_view = True

    def forward(self, x, dims, given=None):
        self.save(dims=as_shown(dims if given is None else given), _dims=dims)
        return np.transpose(x, dims)

    def backward(self, saved, grad):
        return fn.permute(grad, np.argsort(saved._dims).tolist())


class UnsqueezeBackward0(Node):
    formula = Formula("y",
                      "x with a size-1 dim inserted at dim",
                      grad={"x": "G with that dim removed"})

    is_view = True

    def forward(self, x, dim, given=None):
        given = dim if given is None else given
        self.save(dim=as_shown(given), _dim=dim, _given=int(given))
        return layout.unsqueezed(x, dim)

    def backward(self, saved, grad):  # (the dim as given: PyTorch's formula passes it on)
        return fn.squeeze(grad, saved._given)


class SqueezeBackward0(Node):
    formula = Formula("y", "x without its size-1 dims", grad={"x": "G reshaped back"})

    is_view = True

    def forward(self, x):
        self.save(self_sym_sizes=x.shape)
        return np.reshape(x, tuple(s for s in x.shape if s != 1))

    def backward(self, saved, grad):
        sizes = saved.self_sym_sizes
        return _unsqueeze_to(grad, sizes, range(len(sizes)))


class SqueezeBackward1(Node):
    formula = Formula("y", "x without dim (if it has size 1)", grad={"x": "G reshaped back"})

    is_view = True

    def forward(self, x, dim, given=None):
        self.save(dim=as_shown(dim if given is None else given), _dim=dim,
                  self_sym_sizes=x.shape)
        return np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x.view()

    def backward(self, saved, grad):
        dim = saved._dim
        return _unsqueeze_to(grad, saved.self_sym_sizes,
                             dim if isinstance(dim, tuple) else (dim,))


class SqueezeBackward2(SqueezeBackward1):
    formula = Formula("y",
                      "x without the size-1 dims among dim (a tuple)",
                      grad={"x": "G reshaped back"})

    def forward(self, x, dim, given=None):
        self.save(dim=as_shown(dim if given is None else given), _dim=dim,
                  self_sym_sizes=x.shape)
        drop = tuple(d for d in dim if x.ndim and x.shape[d] == 1)
        return np.squeeze(x, drop) if drop else x.view()


# ---- the same views made in place: x.t_(), x.transpose_(0, 1), x.unsqueeze_(0), ...
# x itself takes the view's shape and strides (its memory is the same), and its node
# becomes the view's, under another name (torch's overload numbers for the in-place ops).

class TBackward1(TBackward0):
    formula = Formula("y", "x.t_(): x transposed in place", grad={"x": "G transposed back"})


class TransposeBackward1(TransposeBackward0):
    formula = Formula("y",
                      "x.transpose_(dim0, dim1): dims swapped in place",
                      grad={"x": "G with them swapped back"})


class UnsqueezeBackward1(UnsqueezeBackward0):
    formula = Formula("y",
                      "x.unsqueeze_(dim): a size-1 dim inserted in place",
                      grad={"x": "G with that dim removed"})


class SqueezeBackward3(SqueezeBackward0):
    formula = Formula("y", "x.squeeze_(): its size-1 dims removed in place",
                      grad={"x": "G reshaped back"})


class SqueezeBackward4(SqueezeBackward1):
    formula = Formula("y",
                      "x.squeeze_(dim): dim removed in place (if it has size 1)",
                      grad={"x": "G with the dim put back"},
                      note="matmul does this to the result of 1-D @ 2-D.")


class SqueezeBackward5(SqueezeBackward2):
    formula = Formula("y",
                      "x.squeeze_(dims): the size-1 dims among dims removed in place",
                      grad={"x": "G reshaped back"})


def _change_layout(x, node_cls, **params):
    """An in-place view op (t_, transpose_, unsqueeze_, squeeze_), as torch does it
    (refused on a leaf that requires grad, and on a view of one: _check_inplace): x takes the
    view's shape and strides, its version moves on (a backward that saved x fails),
    and when recorded its node is the view's, whose input is what x was. Hooks and
    retain_grad stay with the old node. A view stays a view of its base."""
    view = node_cls.apply(x, **params)
    mutation.before_write(x)  # (allow_mutation_on_saved_tensors: x's saved value kept)
    x._replace_data(view._data)
    inplace.counted(x)
    if forward_ad.active:  # (x takes the view's tangent too)
        forward_ad.share_tangent(view, x)
    if view._grad_fn is not None:
        x._grad_fn, x._output_nr, x._requires_grad = view._grad_fn, 0, True
        if x._view_version is not None:  # (its node describes the view as it is now)
            x._view_version = x._version_counter.value
    return x


def _check_inplace(x) -> None:
    """(first, as in torch: before the op looks at its arguments)"""

    inplace.check_inplace(x)


def t_(x):
    _check_inplace(x)
    if x.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    return _change_layout(x, TBackward1)


def transpose_(x, dim0, dim1):
    _check_inplace(x)
    given = (dim0, dim1)
    dim0, dim1 = normalize_dim(dim0, x.ndim), normalize_dim(dim1, x.ndim)
    return _change_layout(x, TransposeBackward1, dim0=dim0, dim1=dim1, given=given)


def unsqueeze_(x, dim):
    _check_inplace(x)
    return _change_layout(x, UnsqueezeBackward1, dim=normalize_dim(dim, x.ndim + 1), given=dim)


def squeeze_(x, dim=None):
    _check_inplace(x)
    if dim is None:
        return _change_layout(x, SqueezeBackward3)
    if isinstance(dim, (tuple, list)):
        dims = tuple(normalize_dim(d, x.ndim) for d in dim)
        _check_unique(dims)
        return _change_layout(x, SqueezeBackward5, dim=dims, given=tuple(dim))
    return _change_layout(x, SqueezeBackward4, dim=normalize_dim(dim, x.ndim), given=dim)


def _unsqueeze_to(grad, sizes, dims):
    """Put back the size-1 dims among ``dims`` that squeeze removed from ``sizes``
    (torch's unsqueeze_to: one unsqueeze each)."""
    for dim in sorted(d for d in dims if d < len(sizes)):
        if sizes[dim] == 1:
            grad = fn.unsqueeze(grad, dim)
    return grad


class ExpandBackward0(Node):
    formula = Formula("y",
                      "x broadcast to a larger shape",
                      grad={"x": "G summed over the repeated dims"},
                      note="No copy is made; summing is the adjoint of broadcasting.")

    is_view = True

    def forward(self, x, shape):
        self.save(self_sym_sizes=x.shape)
        return expand_array(x, shape)

    def backward(self, saved, grad):
        return grad  # Node._validate sums it back to the input's shape


class CatBackward0(Node):
    formula = Formula("y",
                      "the inputs joined along dim",
                      grad={"x_k": "the slice of G that x_k came from"})

    def forward(self, *arrays, dim, given=None):
        self.save(dim=as_shown(dim if given is None else given), _dim=dim)
        # torch still skips 1-D empty tensors (cat([tensor([]), x]) is x), whatever x's shape
        self.sizes = [None if _is_legacy_empty(a) else a.shape[dim] for a in arrays]
        parts = [a for a, size in zip(arrays, self.sizes) if size is not None]
        return np.asarray(np.concatenate(parts or arrays[:1], axis=dim), order="C")

    def backward(self, saved, grad):
        dim, start, grads = saved._dim, 0, []
        for size, needed in zip(self.sizes, self.needs_input_grad):
            if not needed:
                grads.append(None)
            elif size is None:
                grads.append(fn.zeros((0,), grad))
            else:
                grads.append(fn.narrow(grad, dim, start, size))
            start += size or 0
        return tuple(grads)


def _is_legacy_empty(array) -> bool:
    return array.ndim == 1 and array.shape[0] == 0


class StackBackward0(Node):
    formula = Formula("y",
                      "the inputs stacked along a new dim",
                      grad={"x_k": "the k-th slice of G"})

    def forward(self, *arrays, dim, given=None):
        self.save(dim=as_shown(dim if given is None else given), _dim=dim)
        return np.asarray(np.stack(arrays, axis=dim), order="C")

    def backward(self, saved, grad):
        dim = saved._dim
        return tuple(fn.select(grad, dim, k) if needed else None
                     for k, needed in enumerate(self.needs_input_grad))


class FlipBackward0(Node):
    formula = Formula("y", "x reversed along dims", grad={"x": "G reversed the same way"})

    def forward(self, x, dims, given=None):
        self.save(dims=as_shown(dims if given is None else given), _dims=dims)
        # (a copy laid out as torch's; a 0-dim tensor: dims are (0,))
        return layout.flipped(x, dims) if x.ndim else x.copy()

    def backward(self, saved, grad):
        return fn.flip(grad, saved._dims)


# ---- public functions -------------------------------------------------------

def view(x, *shape):
    """The same data with another shape; fails if the memory layout does not allow it."""
    shape = _infer_size(_shape_arg(shape), x.numel())
    try:
        np.reshape(x._data, shape, copy=False)
    except ValueError:
        raise RuntimeError(errors.VIEW_NOT_COMPATIBLE) from None
    return ViewBackward0.apply(x, shape=shape)


def reshape(x, *shape):
    """The same data with another shape: a view when possible, else a copy.

    As in PyTorch the graph shows which: ``ViewBackward0`` for a contiguous
    tensor, ``ReshapeAliasBackward0`` for a strided one that can still be
    viewed, ``UnsafeViewBackward0`` after ``CloneBackward0`` when a copy is needed.
    """
    shape = _infer_size(_shape_arg(shape), x.numel())
    if x._data.flags.c_contiguous:
        return ViewBackward0.apply(x, shape=shape)
    try:
        np.reshape(x._data, shape, copy=False)
    except ValueError:
        # Like PyTorch: copy into a contiguous layout, then view it.
        return UnsafeViewBackward0.apply(clone(x), shape=shape)
    return ReshapeAliasBackward0.apply(x, shape=shape)


def flatten(x, start_dim=0, end_dim=-1):
    """Merge dims start_dim..end_dim into one."""
    if x.ndim == 0:
        return reshape(x, 1)
    start, end = normalize_dim(start_dim, x.ndim), normalize_dim(end_dim, x.ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return x
    merged = int(np.prod(x.shape[start:end + 1], dtype=np.int64))  # (-1: ambiguous if empty)
    return reshape(x, x.shape[:start] + (merged,) + x.shape[end + 1:])


def transpose(x, dim0, dim1):
    given = (dim0, dim1)
    dim0, dim1 = normalize_dim(dim0, x.ndim), normalize_dim(dim1, x.ndim)
    return TransposeBackward0.apply(x, dim0=dim0, dim1=dim1, given=given)


def t(x):
    """Transpose a matrix (1-D and 0-D tensors are returned as they are)."""
    if x.ndim > 2:
        raise RuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D"
        )
    return TBackward0.apply(x)


def permute(x, *dims):
    dims = _shape_arg(dims)
    if len(dims) != x.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match "
            "the length of the desired ordering of dimensions i.e. input.dim() = "
            f"{x.ndim} is not equal to len(dims) = {len(dims)}"
        )
    given, dims = dims, tuple(normalize_dim(d, x.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return PermuteBackward0.apply(x, dims=dims, given=given)


def unsqueeze(x, dim):
    return UnsqueezeBackward0.apply(x, dim=normalize_dim(dim, x.ndim + 1), given=dim)


def squeeze(x, dim=None):
    """Remove size-1 dims (all of them, or ``dim`` if it has size 1)."""
    if dim is None:
        return SqueezeBackward0.apply(x)
    if isinstance(dim, (tuple, list)):
        dims = tuple(normalize_dim(d, x.ndim) for d in dim)
        _check_unique(dims)
        return SqueezeBackward2.apply(x, dim=dims, given=tuple(dim))
    return SqueezeBackward1.apply(x, dim=normalize_dim(dim, x.ndim), given=dim)


def expand(x, *sizes):
    """Broadcast to ``sizes`` without copying (-1 keeps a size)."""
    sizes = _shape_arg(sizes)
    if len(sizes) < x.ndim:
        raise RuntimeError(
            f"expand({tensor_type_name(x)}{{[{', '.join(map(str, x.shape))}]}}, "
            f"size=[{', '.join(map(str, sizes))}]): "
            "the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the "
            f"tensor ({x.ndim})"
        )
    offset = len(sizes) - x.ndim
    target = []
    for axis in reversed(range(len(sizes))):  # torch checks from the last dim
        size = sizes[axis]
        current = x.shape[axis - offset] if axis >= offset else None
        if size == -1:
            if current is None:
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {axis}"
                )
            size = current
        if current is not None and current != 1 and current != size:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size "
                f"({current}) at non-singleton dimension {axis}.  Target sizes: "
                f"[{', '.join(map(str, sizes))}].  Tensor sizes: "
                f"[{', '.join(map(str, x.shape))}]"
            )
        target.append(size)
    if any(size < 0 for size in target):  # (torch's own words for a negative size)
        raise RuntimeError("numel: integer multiplication overflow")
    return ExpandBackward0.apply(x, shape=tuple(reversed(target)))


def tensor_type_name(x) -> str:
    """How torch's C++ messages name a tensor type: torch.FloatTensor, CPUBoolType."""
    if x.dtype is dtypes.bool:
        return "CPUBoolType"
    return f"torch.{dtypes.LEGACY_NAMES[x.dtype]}"


def cat(tensors, dim=0):
    """Join tensors along an existing dim."""
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for number, tensor in enumerate(tensors):
        if tensor.ndim == 0:
            raise RuntimeError(
                f"zero-dimensional tensor (at position {number}) cannot be concatenated")
    kept = [(number, t) for number, t in enumerate(tensors) if not _is_legacy_empty(t._data)]
    first = kept[0][1] if kept else tensors[0]
    given, dim = dim, normalize_dim(dim, first.ndim)
    for number, tensor in kept[1:]:
        if tensor.ndim != first.ndim:
            raise RuntimeError(
                "Tensors must have same number of dimensions: got "
                f"{first.ndim} and {tensor.ndim}"
            )
        for axis in range(first.ndim):
            if axis != dim and tensor.shape[axis] != first.shape[axis]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{first.shape[axis]} but got size {tensor.shape[axis]} for tensor "
                    f"number {number} in the list."
                )
    return with_cat_layout(CatBackward0.apply(  # (an empty result too: row-major)
        *tensors, cast_to=dtypes.result_type(*tensors), dim=dim, given=given), tensors)


def stack(tensors, dim=0):
    """Join tensors along a new dim."""
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]
    for entry, tensor in enumerate(tensors[1:], start=1):
        if tensor.shape != first.shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"[{', '.join(map(str, first.shape))}] at entry 0 and "
                f"[{', '.join(map(str, tensor.shape))}] at entry {entry}"
            )
    given, dim = dim, normalize_dim(dim, first.ndim + 1)
    return with_stack_layout(StackBackward0.apply(
        *tensors, cast_to=dtypes.result_type(*tensors), dim=dim, given=given), tensors, dim)


def flip(x, dims):
    if isinstance(dims, int):
        dims = (dims,)
    given, dims = tuple(dims), tuple(normalize_dim(d, x.ndim) for d in dims)
    _check_unique(dims)
    result = FlipBackward0.apply(x, dims=dims, given=given)
    return result if x._data.size else with_empty_like_layout(result, x)


def fliplr(x):
    """The columns in reverse order: ``flip(x, 1)``, for 2 dims or more."""
    if x.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(x, 1)


def flipud(x):
    """The rows in reverse order: ``flip(x, 0)``, for 1 dim or more."""
    if x.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(x, 0)


def _check_unique(dims) -> None:
    seen = set()
    for d in dims:
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)


def narrow(x, dim, start, length):
    """The slice ``start:start+length`` along ``dim`` (a view)."""

    if x.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    given, dim = dim, normalize_dim(dim, x.ndim)
    size = x.shape[dim]
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return indexing.slice_dim(x, dim, start, start + length, 1, given_dim=given)


def clone(x):
    return CloneBackward0.apply(x)


def contiguous(x):
    return x if x._data.flags.c_contiguous else CloneBackward0.apply(x, contiguous=True)


def to_dtype(x, dtype, copy: bool = False):
    """Convert to ``dtype``; returns ``x`` itself when it already has it (unless ``copy``)."""
    if not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"to() received an invalid combination of arguments: got {dtype!r}")
    if dtype is x.dtype and not copy:
        return x
    result = ToCopyBackward0.apply(x, dtype=dtype)
    if not dtype.is_floating_point and result.grad_fn is not None:
        # Integer results cannot require grad: PyTorch returns them detached.
        return result.detach()
    return result


def view_dtype(x, dtype):
    """``x.view(dtype)``: x's memory read as ``dtype`` (a view sharing it; between element
    sizes that differ, the last dim grows or shrinks). PyTorch records no gradient: the
    result never requires grad."""
    check_view_dtype(x._data, x.dtype, dtype)
    return make(x._data.view(dtype.numpy), version=x._version_counter)
