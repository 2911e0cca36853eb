"""Broadcasting, forward and backward, in one place.

Forward: two shapes are aligned from the right; each pair of sizes must be
equal or one of them 1 (the size-1 axis is repeated).

Backward: the adjoint of broadcasting is a sum. If ``x`` of shape (3, 1) was
broadcast to (2, 3, 4), every element of ``x`` was used 2 * 4 times, so its
gradient is the incoming (2, 3, 4) gradient summed over the axes that were
added or repeated: ``sum_to(grad, (3, 1))``.
"""

from __future__ import annotations

from ..errors import shape_mismatch_error

__all__ = ["broadcast_shapes", "sum_to"]


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to, or torch's error naming the axis."""
    ndim = max(len(shape) for shape in shapes)
    result = [1] * ndim
    for shape in shapes:
        offset = ndim - len(shape)
        for axis, size in enumerate(shape):
            current = result[offset + axis]
            if current == 1:
                result[offset + axis] = size
            elif size != 1 and size != current:
                # torch calls the operands a and b and counts the axis in the
                # result's (right-aligned) shape.
                raise shape_mismatch_error(current, size, offset + axis)
    return tuple(result)


def sum_to(grad, shape: tuple[int, ...]):
    """Sum ``grad`` (a Tensor) down to ``shape``: undo broadcasting.

    Axes that broadcasting added on the left are summed away; axes that were
    size 1 and got repeated are summed with keepdim.
    """
    if grad.shape == shape:
        return grad
    leading = grad.ndim - len(shape)
    axes = tuple(range(leading)) + tuple(
        leading + axis for axis, size in enumerate(shape)
        if size == 1 and grad.shape[leading + axis] != 1
    )
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
