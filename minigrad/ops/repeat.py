"""Copies of a tensor side by side: ``repeat`` (the whole tensor, ``RepeatBackward0``),
``tile`` (``repeat`` with NumPy's rule for fewer dims) and ``repeat_interleave`` (each
element repeated in place: [a, b] -> [a, a, b, b]).

Every copy of an element receives its own part of the gradient, so x's gradient is the
sum of G over the copies: for ``repeat``, G reshaped so that each repeat count has a dim
of its own, summed over those dims (the adjoint of copying is a sum, as for broadcasting).
``repeat_interleave`` is written as PyTorch writes it, with other ops (an expand then a
copy, or an ``index_select``), so its gradient comes from theirs."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node
from ..autograd.tensor_base import is_tensor, make
from ..rules.arguments import normalize_dim
from ..rules.layout import with_reduction_layout
from . import fn, scatter, shape

__all__ = ["repeat", "tile", "repeat_interleave"]


def copies_apart(repeats, sizes) -> tuple:
    """PyTorch's repeat_backward's shape: each repeated dim of x split into (repeat, size),
    and which of those dims hold the copies (the new leading dims are summed first)."""
    split, summed = [], []
    for repeat, size in zip(repeats[len(repeats) - len(sizes):], sizes):
        if repeat != 1:
            summed.append(len(split))
            split.append(repeat)
        split.append(size)
    return tuple(split), tuple(summed)


class RepeatBackward0(Node):
    formula = Formula("y", "x copied repeats[d] times along each dim d",
                      grad={"x": "G summed over the copies"})

    def forward(self, x, repeats):
        self.save(repeats=repeats, self_sym_sizes=x.shape)
        lifted = x.reshape((1,) * (len(repeats) - x.ndim) + x.shape)
        return np.tile(lifted, repeats)

    def backward(self, saved, grad):
        sizes, repeats = saved.self_sym_sizes, saved.repeats
        for _ in range(len(repeats) - len(sizes)):  # (the new leading dims)
            grad = fn.sum(grad, (0,))
        split, summed = copies_apart(repeats, sizes)
        grad = fn.reshape(grad, split)
        return fn.sum(grad, summed) if summed else grad


def repeat(x, *repeats):
    """``x`` copied ``repeats[d]`` times along each dim d (more repeats than dims: new
    leading dims)."""
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = repeats[0]
    repeats = tuple(int(r) for r in repeats)
    if len(repeats) < x.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than "
                           "number of dimensions of tensor")
    if any(r < 0 for r in repeats):
        lifted = (1,) * (len(repeats) - x.ndim) + tuple(x.shape)
        sizes = [r * n for r, n in zip(repeats, lifted)]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: "
                           f"[{', '.join(map(str, sizes))}]")
    return with_reduction_layout(RepeatBackward0.apply(x, repeats=repeats))


def tile(x, dims):
    """``repeat``, with fewer ``dims`` than x has read as ones in front (NumPy's tile)."""
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    return repeat(x, (1,) * (x.ndim - len(dims)) + dims)


def repeat_interleave(x, repeats, dim=None, output_size=None):
    """Each element (each slice along ``dim``) repeated ``repeats`` times in place
    (``repeats``: a number, or a tensor with one count per element)."""
    if dim is None:
        x, dim = shape.flatten(x), 0
    dim = normalize_dim(dim, x.ndim)
    if is_tensor(repeats):
        size = x.shape[dim] if x.ndim else 1
        counts = repeats._data.reshape(-1)
        if counts.size == 1:  # (one count: for every slice)
            counts = np.repeat(counts, size)
        if repeats.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if counts.size != size:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {counts.size} and input.size({dim}) = {size}")
        if (counts < 0).any():
            raise RuntimeError("repeats can not be negative")
        index = make(np.repeat(np.arange(size, dtype=np.int64), counts))
        return scatter.index_select(x, dim, index)
    count = int(repeats)
    if count < 0:
        raise RuntimeError("Repeats must be non-negative")
    wide = shape.unsqueeze(x, dim + 1)  # (a 0-dim x with a dim: torch's error, "got 1")
    sizes = list(wide.shape)
    sizes[dim + 1] = count
    copied = shape.CloneBackward0.apply(shape.expand(wide, *sizes), contiguous=True)
    return shape.flatten(copied, dim, dim + 1)
