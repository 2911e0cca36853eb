"""Padding: ``F.pad`` by mirroring or repeating the edges (``ReflectionPad1DBackward0``, ``ReplicationPad2DBackward0``, ...)."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..kernels.layout import in_input_format
from . import fn

__all__ = ["edge_pad"]


def _source_positions(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each position of a padded dim, the input position it copies: mirrored
    at the edges ('reflect': ..., 2, 1 | 0, 1, 2, ... ) or the edge repeated ('replicate')."""
    source = np.arange(-before, size + after)
    if mode == "reflect":
        source = np.abs(source)
        return np.where(source >= size, 2 * (size - 1) - source, source)
    return np.clip(source, 0, size - 1)


def _open_mesh(shape, pad, mode: str) -> tuple:
    """Index arrays (one per dim, broadcasting as np.ix_) that read the padded tensor."""
    padded = len(pad) // 2
    ranges = [np.arange(size) for size in shape[:len(shape) - padded]]
    for i in range(padded):  # (pad lists the last dim first)
        before, after = pad[2 * (padded - 1 - i)], pad[2 * (padded - 1 - i) + 1]
        ranges.append(_source_positions(shape[len(shape) - padded + i], before, after, mode))
    return np.ix_(*ranges)


class _EdgePad(Node):
    """Reflection and replication padding: the output reads the input at index arrays,
    so the gradient adds up, at each input element, the gradients of its copies."""
    saves = {"self": Input(0)}

    def forward(self, x, padding):
        indices = _open_mesh(x.shape, padding, self.mode)
        self.save(padding=tuple(padding), _indices=indices)  # ("_": not one of torch's names)
        return in_input_format(x[indices], x, volumes=True)

    def backward(self, saved, grad):
        return _edge_pad_backward(grad, saved.self, saved._indices, saved.padding, type(self))


def _edge_pad_backward(grad, x, indices, padding, pad_node):
    """The gradients of x's copies added up (recorded on tensors as ``pad_node``'s
    derivative, ReflectionPad1DBackwardBackward0, ...)."""
    if not fn.is_tensor(grad):
        return fn.index_backward(grad, x.shape, indices)
    return _BACKWARD_NODES[pad_node].apply(grad, x, indices=indices, padding=padding)


class _EdgePadBackward(Node):
    """The derivative of a reflection or replication pad as an operation, recorded by a
    backward with create_graph=True: linear in grad, so its own derivative is the pad
    again; with respect to x, 0."""

    def forward(self, grad, x, indices, padding):
        self.save(padding=padding, _self_sizes=x.shape)
        return fn.index_backward(grad, x.shape, indices)

    def backward(self, saved, grad):
        grad_grad = edge_pad(grad, saved.padding, self.mode) if self.needs_input_grad[0] \
            else None
        return grad_grad, fn.zeros(saved._self_sizes, grad) if self.needs_input_grad[1] \
            else None


class ReflectionPad1DBackward0(_EdgePad):
    formula = Formula("y", "x with its edges mirroring in the last 1 dim",
                      d={"x": "the sum of the gradients of x's copies"})
    mode = "reflect"


class ReflectionPad2DBackward0(_EdgePad):
    formula = Formula("y", "x with its edges mirroring in the last 2 dims",
                      d={"x": "the sum of the gradients of x's copies"})
    mode = "reflect"


class ReflectionPad3DBackward0(_EdgePad):
    formula = Formula("y", "x with its edges mirroring in the last 3 dims",
                      d={"x": "the sum of the gradients of x's copies"})
    mode = "reflect"


class ReplicationPad1DBackward0(_EdgePad):
    formula = Formula("y", "x with its edges repeating in the last 1 dim",
                      d={"x": "the sum of the gradients of x's copies"})
    mode = "replicate"


class ReplicationPad2DBackward0(_EdgePad):
    formula = Formula("y", "x with its edges repeating in the last 2 dims",
                      d={"x": "the sum of the gradients of x's copies"})
    mode = "replicate"


class ReplicationPad3DBackward0(_EdgePad):
    formula = Formula("y", "x with its edges repeating in the last 3 dims",
                      d={"x": "the sum of the gradients of x's copies"})
    mode = "replicate"


class ReflectionPad1DBackwardBackward0(_EdgePadBackward):
    formula = Formula("z", "reflection_pad1d_backward(grad, x): the sum of the gradients of "
                           "x's copies", d={"grad": "the pad itself", "x": "0"})
    mode = "reflect"


class ReflectionPad2DBackwardBackward0(_EdgePadBackward):
    formula = Formula("z", "reflection_pad2d_backward(grad, x): the sum of the gradients of "
                           "x's copies", d={"grad": "the pad itself", "x": "0"})
    mode = "reflect"


class ReflectionPad3DBackwardBackward0(_EdgePadBackward):
    formula = Formula("z", "reflection_pad3d_backward(grad, x): the sum of the gradients of "
                           "x's copies", d={"grad": "the pad itself", "x": "0"})
    mode = "reflect"


class ReplicationPad1DBackwardBackward0(_EdgePadBackward):
    formula = Formula("z", "replication_pad1d_backward(grad, x): the sum of the gradients of "
                           "x's copies", d={"grad": "the pad itself", "x": "0"})
    mode = "replicate"


class ReplicationPad2DBackwardBackward0(_EdgePadBackward):
    formula = Formula("z", "replication_pad2d_backward(grad, x): the sum of the gradients of "
                           "x's copies", d={"grad": "the pad itself", "x": "0"})
    mode = "replicate"


class ReplicationPad3DBackwardBackward0(_EdgePadBackward):
    formula = Formula("z", "replication_pad3d_backward(grad, x): the sum of the gradients of "
                           "x's copies", d={"grad": "the pad itself", "x": "0"})
    mode = "replicate"


_EDGE_NODES = {("reflect", 1): ReflectionPad1DBackward0, ("reflect", 2): ReflectionPad2DBackward0,
               ("reflect", 3): ReflectionPad3DBackward0,
               ("replicate", 1): ReplicationPad1DBackward0,
               ("replicate", 2): ReplicationPad2DBackward0,
               ("replicate", 3): ReplicationPad3DBackward0}


_BACKWARD_NODES = {ReflectionPad1DBackward0: ReflectionPad1DBackwardBackward0,
                   ReflectionPad2DBackward0: ReflectionPad2DBackwardBackward0,
                   ReflectionPad3DBackward0: ReflectionPad3DBackwardBackward0,
                   ReplicationPad1DBackward0: ReplicationPad1DBackwardBackward0,
                   ReplicationPad2DBackward0: ReplicationPad2DBackwardBackward0,
                   ReplicationPad3DBackward0: ReplicationPad3DBackwardBackward0}


def edge_pad(x, pad, mode):
    """``F.pad(x, pad, mode='reflect' / 'replicate')`` for 1, 2 or 3 padded dims."""
    return _EDGE_NODES[mode, len(pad) // 2].apply(x, padding=tuple(pad))
