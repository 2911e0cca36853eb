"""Elements moved to other places: ``roll`` (shifted along dims, wrapping around) and
``rot90`` (turned by quarter turns in the plane of two dims).

Both only move elements, so the gradient moves them back: ``roll`` by the opposite
shifts, ``rot90`` by the opposite number of quarter turns."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node
from ..rules.arguments import normalize_dim
from ._saved import as_shown
from . import fn

__all__ = ["roll", "rot90"]


def roll_of(x: np.ndarray, shifts: tuple, dims: tuple) -> np.ndarray:
    """``x`` shifted by ``shifts`` along ``dims`` (none: the flattened x), a copy."""
    if not dims:
        return np.roll(x.reshape(-1), shifts[0]).reshape(x.shape)
    return np.roll(x, shifts, axis=dims)


class RollBackward0(Node):
    formula = Formula("y", "x shifted by shifts along dims (wrapping around)",
                      grad={"x": "G shifted back by -shifts"})

    def forward(self, x, shifts, dims, given):
        self.save(shifts=as_shown(shifts), _shifts=shifts, dims=as_shown(given), _dims=given)
        return roll_of(x, shifts, dims)

    def backward(self, saved, grad):
        return fn.roll(grad, tuple(-s for s in saved._shifts), saved._dims)


class Rot90Backward0(Node):
    formula = Formula("y", "x turned k quarter turns, from dims[0] towards dims[1]",
                      grad={"x": "G turned -k quarter turns"})

    def forward(self, x, k, dims, given):
        self.save(k=as_shown(k), _k=k, dims=as_shown(given), _given=tuple(given))
        return np.ascontiguousarray(np.rot90(x, k, axes=dims))

    def backward(self, saved, grad):
        return fn.rot90(grad, -saved._k, saved._given)


def roll(x, shifts, dims=None):
    """``x`` shifted by ``shifts`` along ``dims``; what leaves one end comes back at the
    other (no ``dims``: the flattened tensor, then its shape again)."""
    shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    given = () if dims is None else tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if given and len(shifts) != len(given) or not given and len(shifts) != 1:
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(given)}")
    axes = tuple(normalize_dim(d, x.ndim) for d in given)
    return RollBackward0.apply(x, shifts=tuple(int(s) for s in shifts), dims=axes, given=given)


def rot90(x, k=1, dims=(0, 1)):
    """``x`` turned ``k`` quarter turns in the plane of ``dims``, from the first dim
    towards the second."""
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if x.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {x.ndim}")
    axes = (normalize_dim(dims[0], x.ndim), normalize_dim(dims[1], x.ndim))
    if axes[0] == axes[1]:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} "
                           f"and dim1 = {dims[1]}")
    return Rot90Backward0.apply(x, k=int(k), dims=axes, given=dims)
