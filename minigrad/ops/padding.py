"""Padding: ``F.pad`` in constant mode (``ConstantPadNdBackward0``)."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node
from ..autograd.tensor_base import is_tensor

__all__ = ["constant_pad_nd"]


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
        self.save(pad=tuple(pad))
        return pad_array(x, pad, value)

    def backward(self, saved, grad):
        return _pad(grad, [-amount for amount in saved.pad])


def constant_pad_nd(x, pad, value=0):
    return ConstantPadNdBackward0.apply(x, pad=tuple(pad), value=value)
