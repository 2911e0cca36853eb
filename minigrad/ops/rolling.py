"""Elements moved to other places: ``roll`` (shifted along dims, wrapping around) and
``rot90`` (turned by quarter turns in the plane of two dims); and read in windows:
``unfold`` (the windows of ``size`` elements, ``step`` apart, along one dim: a view).

``roll`` and ``rot90`` only move elements, so the gradient moves them back: ``roll`` by
the opposite shifts, ``rot90`` by the opposite number of quarter turns. ``unfold``'s
windows may overlap (step < size), so an element read by several windows gets the sum
of their gradients."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node
from ..kernels import layout
from ..rules.arguments import normalize_dim, normalize_dim_strict
from ..rules.layout import with_empty_like_layout, with_reduction_layout
from ._saved import as_shown
from . import fn

__all__ = ["roll", "rot90", "unfold"]


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
    axes = tuple(normalize_dim_strict(d, x.ndim) for d in given)
    result = RollBackward0.apply(x, shifts=tuple(int(s) for s in shifts), dims=axes, given=given)
    if axes and not x._data.size:
        return with_empty_like_layout(result, x)
    return with_reduction_layout(result)


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


class UnfoldBackward0(Node):
    formula = Formula("y", "the windows of x along dim: y[..., i, ..., j] = x[..., i * step + j, ...]",
                      grad={"x": "each window's G added back where it was read (overlaps add up)"})

    is_view = True

    def forward(self, x, dimension, size, step, given):
        self.save(dimension=as_shown(given), _dimension=dimension, size=size, step=step,
                  self_sym_sizes=x.shape)
        return layout.windows(x, dimension, size, step)

    def backward(self, saved, grad):
        return fn.unfold_backward(grad, saved.self_sym_sizes, saved._dimension, saved.size,
                                  saved.step)


class UnfoldBackwardBackward0(Node):
    formula = Formula("x", "zeros with each window of y added back where unfold read it",
                      grad={"y": "G's windows (unfold)"},
                      note="How unfold's backward is recorded by create_graph=True.")

    def forward(self, grad, input_sizes, dim, size, step):
        self.save(dim=dim, size=size, step=step)
        return layout.windows_backward(grad, input_sizes, dim, size, step)

    def backward(self, saved, grad):
        return fn.unfold_windows(grad, saved.dim, saved.size, saved.step)


def unfold(x, dimension, size, step):
    """The windows of ``size`` elements, ``step`` apart, along ``dimension``: that dim
    becomes the window's number and a new last dim of ``size`` holds each window (a view)."""
    dim = normalize_dim(dimension, x.ndim)
    length = x.shape[dim] if x.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return UnfoldBackward0.apply(x, dimension=dim, size=int(size), step=int(step),
                                 given=dimension)
