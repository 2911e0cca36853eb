"""Padding: ``F.pad`` in constant mode (``ConstantPadNdBackward0``), and by mirroring or
repeating the edges (``ReflectionPad1DBackward0``, ``ReplicationPad2DBackward0``, ...)."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..autograd.tensor_base import is_tensor
from . import fn

__all__ = ["constant_pad_nd", "edge_pad"]


def pad_array(x: np.ndarray, pad, value=0) -> np.ndarray:
    """``x`` with ``pad[2i]`` values before and ``pad[2i + 1]`` after its i-th dim from
    the end (a negative amount crops instead)."""
    pairs = [(0, 0)] * (x.ndim - len(pad) // 2) + [
        (pad[2 * i], pad[2 * i + 1]) for i in reversed(range(len(pad) // 2))]
    sizes = [size + before + after for size, (before, after) in zip(x.shape, pairs)]
    source = tuple(slice(max(-before, 0), size - max(-after, 0))
                   for size, (before, after) in zip(x.shape, pairs))
    target = tuple(slice(max(before, 0), out - max(after, 0))
                   for out, (before, after) in zip(sizes, pairs))
    out = np.full(sizes, value, dtype=x.dtype)
    out[target] = x[source]
    return out


def _pad(values, pad):
    """Pad an array, or record the op on a tensor (a backward with create_graph)."""
    return constant_pad_nd(values, pad) if is_tensor(values) else pad_array(values, pad)


class ConstantPadNdBackward0(Node):
    formula = Formula("y", "x surrounded by value (pad[2i] before, pad[2i + 1] after the "
                           "i-th dim from the end)",
                      d={"x": "G with the padding cut away: constant_pad_nd(G, -pad)"})

    def forward(self, x, pad, value):
        self.save(pad=_as_shown(pad))
        self.pad = tuple(pad)
        return pad_array(x, pad, value)

    def backward(self, saved, grad):
        return _pad(grad, [-amount for amount in self.pad])


def _as_shown(pad) -> tuple:
    """``pad`` as torch shows it in ``_saved_pad``: a negative amount as the unsigned
    64-bit number with its bits (-1 as 18446744073709551615)."""
    return tuple(amount if amount >= 0 else amount + (1 << 64) for amount in pad)


def constant_pad_nd(x, pad, value=0):
    return ConstantPadNdBackward0.apply(x, pad=tuple(pad), value=value)


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
        self.save(padding=tuple(padding))
        self.indices = _open_mesh(x.shape, padding, self.mode)
        return x[self.indices]

    def backward(self, saved, grad):
        return fn.index_backward(grad, saved.self.shape, self.indices)


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


_EDGE_NODES = {("reflect", 1): ReflectionPad1DBackward0, ("reflect", 2): ReflectionPad2DBackward0,
               ("reflect", 3): ReflectionPad3DBackward0,
               ("replicate", 1): ReplicationPad1DBackward0,
               ("replicate", 2): ReplicationPad2DBackward0,
               ("replicate", 3): ReplicationPad3DBackward0}


def edge_pad(x, pad, mode):
    """``F.pad(x, pad, mode='reflect' / 'replicate')`` for 1, 2 or 3 padded dims."""
    return _EDGE_NODES[mode, len(pad) // 2].apply(x, padding=tuple(pad))
