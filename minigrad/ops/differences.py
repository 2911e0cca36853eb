"""``torch.gradient``: the derivative of sampled values, estimated from their neighbours
(second-order central differences inside, first- or second-order one-sided ones at the two
ends), written with slices, arithmetic and ``cat`` as PyTorch's ReduceOps.cpp writes it,
so its values, bits and graph (``CatBackward0``) are PyTorch's.

With a step h between samples, inside: (f[i+1] - f[i-1]) / h / 2; at the ends, with
``edge_order=1``: (f[1] - f[0]) / h, and with ``edge_order=2``: (-1.5 f[0] + 2 f[1] -
0.5 f[2]) / h. Given the samples' coordinates instead, each point's weights come from
its two distances dx1, dx2 (a second-order fit through three unevenly spaced points)."""

from __future__ import annotations

from ..autograd.tensor_base import is_tensor
from ..rules.arguments import gradient_arguments
from . import aliases, indexing, shape
from .arithmetic import add, div, mul, neg, scalar_op, sub

__all__ = ["gradient"]


def gradient(x, spacing=None, dim=None, edge_order=1) -> tuple:
    """The estimated partial derivatives of ``x`` along each of ``dim`` (all dims when
    None), one tensor each: samples ``spacing`` apart (a number, one per dim) or at the
    coordinates of 1-D tensors (one per dim)."""
    dims, steps = gradient_arguments(x, spacing, dim, edge_order)
    return tuple((_along_coordinates if is_tensor(h) else _along_steps)(x, h, d, edge_order)
                 for d, h in zip(dims, steps))


def _part(x, dim, start, end=None):
    """x[start:end] along ``dim`` (SliceBackward0)."""
    return indexing.slice_dim(x, dim, start, end, 1)


def _times(t, number):
    """t * number as C++'s Scalar overload records it (MulBackward1)."""
    return scalar_op(t, "*", number)


def _over(t, number):
    """t / number as C++'s Scalar overload records it (DivBackward1)."""
    return scalar_op(t, "/", number)


def _along_steps(x, h, dim, edge_order):
    center = _over(sub(_part(x, dim, 2), _part(x, dim, 0, -2)), h)
    if edge_order == 1:
        first = _over(sub(_part(x, dim, 1, 2), _part(x, dim, 0, 1)), h)
        last = _over(sub(_part(x, dim, -1), _part(x, dim, -2, -1)), h)
    else:
        first = _over(sub(add(_times(_part(x, dim, 0, 1), -1.5), _times(_part(x, dim, 1, 2), 2)),
                          _times(_part(x, dim, 2, 3), 0.5)), h)
        last = _over(add(sub(_times(_part(x, dim, -3, -2), 0.5), _times(_part(x, dim, -2, -1), 2)),
                         _times(_part(x, dim, -1), 1.5)), h)
    return shape.cat([first, _over(center, 2), last], dim)


def _along_coordinates(x, coordinates, dim, edge_order):
    dx = aliases.diff(coordinates, 1, 0)
    dx1, dx2 = _part(dx, 0, 0, -1), _part(dx, 0, 1)
    along = [-1 if d == dim else 1 for d in range(x.ndim)]
    a = shape.reshape(div(neg(dx2), mul(dx1, add(dx1, dx2))), along)
    b = shape.reshape(div(sub(dx2, dx1), mul(dx1, dx2)), along)
    c = shape.reshape(div(dx1, mul(dx2, add(dx1, dx2))), along)
    center = add(add(mul(a, _part(x, dim, 0, -2)), mul(b, _part(x, dim, 1, -1))),
                 mul(c, _part(x, dim, 2)))
    if edge_order == 1:
        first = div(sub(_part(x, dim, 1, 2), _part(x, dim, 0, 1)), indexing.select(dx, 0, 0))
        last = div(sub(_part(x, dim, -1), _part(x, dim, -2, -1)), indexing.select(dx, 0, -1))
    else:
        d0, d1, d_1, d_2 = (indexing.select(dx, 0, i) for i in (0, 1, -1, -2))
        first = _weighted(x, dim, (0, 1, 2), (
            div(neg(add(_times(d0, 2.0), d1)), mul(d0, add(d0, d1))),
            div(add(d0, d1), mul(d0, d1)),
            div(neg(d0), mul(d1, add(d0, d1)))))
        last = _weighted(x, dim, (-3, -2, -1), (
            div(d_1, mul(d_2, add(d_1, d_2))),
            div(neg(add(d_1, d_2)), mul(d_1, d_2)),
            div(add(_times(d_1, 2), d_2), mul(d_1, add(d_1, d_2)))))
    return shape.cat([first, center, last], dim)


def _weighted(x, dim, places, weights):
    """w0 x[p0] + w1 x[p1] + w2 x[p2], the samples one wide along ``dim``."""
    a, b, c = (mul(w, _part(x, dim, p, p + 1 or None)) for w, p in zip(weights, places))
    return add(add(a, b), c)
