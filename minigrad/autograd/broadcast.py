"""Broadcasting, forward and backward, in one place.

Forward: two shapes are aligned from the right; each pair of sizes must be
equal or one of them 1 (the size-1 axis is repeated).

Backward: the adjoint of broadcasting is a sum. If ``x`` of shape (3, 1) was
broadcast to (2, 3, 4), every element of ``x`` was used 2 * 4 times, so its
gradient is the incoming (2, 3, 4) gradient summed over the axes that were
added or repeated: ``sum_to(grad, (3, 1))``.
"""

from __future__ import annotations

import numpy as np

from .. import errors
from ..kernels.meta import MetaArray
from ..kernels.summation import cascade_sum, sum_axes

__all__ = ["broadcast_shapes", "sum_to", "expand_array", "has_internal_overlap"]


def broadcast_shapes(*shapes) -> tuple[int, ...]:
    """The shape ``shapes`` broadcast to, as torch's ``infer_size`` finds it: the
    shapes are combined pair by pair, left to right, each pair compared from the
    last axis; the first mismatch is reported with the pair called a and b."""
    result = tuple(shapes[0])
    for shape in shapes[1:]:
        a, b = result, tuple(shape)
        ndim = max(len(a), len(b))
        combined = [1] * ndim
        for axis in range(ndim - 1, -1, -1):
            offset = ndim - 1 - axis
            size_a = a[len(a) - 1 - offset] if offset < len(a) else 1
            size_b = b[len(b) - 1 - offset] if offset < len(b) else 1
            if size_a != size_b and size_a != 1 and size_b != 1:
                raise errors.shape_mismatch_error(size_a, size_b, axis)
            combined[axis] = size_b if size_a == 1 else size_a
        result = tuple(combined)
    return result


def expand_array(array: np.ndarray, shape) -> np.ndarray:
    """``array`` broadcast to ``shape`` without copying, as torch's ``expand``: the
    repeated elements share memory (stride 0). Unlike ``np.broadcast_to`` the view
    stays writable when ``array`` is, since torch lets ``fill_``/``zero_`` write into
    an expanded tensor (the other in-place ops refuse it, see ``has_internal_overlap``)."""
    if type(array) is np.ndarray and not array.ndim:
        # (the usual case, a sum's gradient: the view made directly, every stride 0,
        # writable as the array is; np.broadcast_to takes some 15 times longer)
        return np.ndarray(shape, array.dtype, array, 0, (0,) * len(shape))
    view = np.broadcast_to(array, shape)
    strides = expanded_strides(array, view.shape)
    if strides != view.strides:  # (a dim of size 1 that stays 1: NumPy gives it stride 0)
        return np.lib.stride_tricks.as_strided(array, view.shape, strides,
                                               writeable=array.flags.writeable)
    if array.flags.writeable:
        view.flags.writeable = True
    return view


def expanded_strides(array: np.ndarray, shape: tuple) -> tuple:
    """The strides (in bytes) torch's ``expand`` gives: 0 where a dim of size 1 is
    repeated; the array's own where a dim keeps its size (NumPy gives a dim of size 1
    stride 0 there too); a new leading dim of size 1 steps over the dims after it (every
    dim of a 0-dim array's expansion: 0)."""
    strides = [0] * len(shape)
    lead = len(shape) - array.ndim
    for i in reversed(range(len(shape))):
        if i >= lead:
            size, stride = array.shape[i - lead], array.strides[i - lead]
        else:
            size, stride = 1, shape[i + 1] * strides[i + 1] if i + 1 < len(shape) else 0
        strides[i] = stride if size == shape[i] else 0
    return tuple(strides)


def has_internal_overlap(array: np.ndarray) -> bool:
    """True when two elements of ``array`` are one memory location (a stride 0 over a
    size > 1, as ``expand`` makes): torch's in-place ops other than fill refuse to
    write there. (A meta array's zero strides stand for no memory: see kernels/meta.py.)"""
    return array.size > 1 and type(array) is not MetaArray and any(stride == 0 and size > 1
                                  for stride, size in zip(array.strides, array.shape))


def sum_to(grad, shape: tuple[int, ...]):
    """Sum ``grad`` (a Tensor, or a NumPy array) down to ``shape``: undo broadcasting.

    Axes that broadcasting added on the left are summed away; axes that were
    size 1 and got repeated are summed with keepdim.
    """
    if tuple(grad.shape) == tuple(shape):
        return grad
    if not shape:  # (torch's sum_to: a 0-dim target is one plain sum, SumBackward0)
        if isinstance(grad, np.ndarray):
            exact = cascade_sum(grad)  # (torch's order, so torch's last bits, where it applies)
            return np.asarray(np.sum(grad, dtype=grad.dtype) if exact is None else exact)
        return grad.sum()
    leading = grad.ndim - len(shape)
    axes = tuple(range(leading)) + tuple(
        leading + axis for axis, size in enumerate(shape)
        if size == 1 and grad.shape[leading + axis] != 1
    )
    if isinstance(grad, np.ndarray):
        if axes:
            grad = sum_axes(grad, axes, keepdims=True)  # (torch's order, where it applies)
        return grad.reshape(shape)
    if axes:
        grad = grad.sum(axes, keepdim=True)
    if leading:
        grad = grad.reshape(shape)
    return grad


def is_expandable_to(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """True when ``shape`` broadcasts to ``target`` without changing ``target``."""
    if len(shape) > len(target):
        return False
    for size, goal in zip(reversed(shape), reversed(target)):
        if size != goal and size != 1:
            return False
    return True
