"""One-sided clamps and NaN/infinity replacement: ``clamp_min`` (max(x, min)),
``clamp_max`` (min(x, max)) and ``nan_to_num``.

A clamp passes the gradient where x is inside its bound and stops it where the bound
took over (which then gets it, when the bound is a tensor). ``nan_to_num`` passes the
gradient where x was finite and stops it where a NaN or an infinity was replaced."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.broadcast import broadcast_shapes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..autograd.tensor_base import is_tensor
from ..kernels import linalg as linalg_kernels, pointwise as kernels
from ..rules.arguments import normalize_dim
from ..rules.layout import with_reduction_layout, with_unary_layout
from ..rules.promotion import python_number
from . import fn

__all__ = ["clamp_min", "clamp_max", "nan_to_num", "renorm"]


class ClampMinBackward0(Node):
    formula = Formula("y", "max(x, min)", d={"x": "1 where x >= min, else 0"},
                      note="min is a number.")
    saves = {"self": Input(0)}

    def forward(self, x, bound):
        self.save(min=bound)
        return kernels.clamp(x, bound, None)

    def backward(self, saved, grad):
        return fn.where(saved.self >= saved.min, grad, 0)


class ClampMaxBackward0(Node):
    formula = Formula("y", "min(x, max)", d={"x": "1 where x <= max, else 0"},
                      note="max is a number.")
    saves = {"self": Input(0)}

    def forward(self, x, bound):
        self.save(max=bound)
        return kernels.clamp(x, None, bound)

    def backward(self, saved, grad):
        return fn.where(saved.self <= saved.max, grad, 0)


class ClampMinBackward1(Node):
    formula = Formula("y", "max(x, min)", d={"x": "1 where x >= min, else 0",
                                             "min": "1 where x < min, else 0"})
    saves = {"self": Input(0), "min": Input(1)}

    def forward(self, x, low):
        return np.maximum(x, low) if low.dtype.kind != "f" else kernels.maximum(x, low)

    def backward(self, saved, grad):
        x, low = saved.self, saved.min
        grad_min = fn.where(x < low, grad, 0)  # (first: torch's order, its inputs by name)
        return fn.where(x >= low, grad, 0), grad_min


class ClampMaxBackward1(Node):
    formula = Formula("y", "min(x, max)", d={"x": "1 where x <= max, else 0",
                                             "max": "1 where x > max, else 0"})
    saves = {"self": Input(0), "max": Input(1)}

    def forward(self, x, high):
        return np.minimum(x, high) if high.dtype.kind != "f" else kernels.minimum(x, high)

    def backward(self, saved, grad):
        x, high = saved.self, saved.max
        grad_max = fn.where(x > high, grad, 0)  # (first: torch's order, its inputs by name)
        return fn.where(x <= high, grad, 0), grad_max


class NanToNumBackward0(Node):
    formula = Formula("y", "x with NaN, +inf, -inf replaced by numbers",
                      d={"x": "1 where x is finite, else 0"})
    saves = {"self": Input(0)}

    def forward(self, x, nan, posinf, neginf):
        return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    def backward(self, saved, grad):
        return grad * fn.isfinite(saved.self)


def _one_sided(x, bound, name, number_node, tensor_node):
    if is_tensor(bound):
        broadcast_shapes(x._data.shape, bound._data.shape)
        return tensor_node.apply(x, bound, cast_to=dtypes.result_type(x, bound))
    bound = python_number(bound)
    if bound is None:  # (neither a tensor nor a number: the caller's error)
        return NotImplemented
    dtype = dtypes.result_type(x, bound)
    if dtype is dtypes.bool:
        raise NotImplementedError(f'"{name}_scalar_cpu" not implemented for \'Bool\'')
    return with_unary_layout(number_node.apply(x, cast_to=dtype, bound=bound), x)


def clamp_min(x, min):
    """max(x, min): every element at least ``min`` (a number or a tensor)."""
    return _one_sided(x, min, "clamp_min", ClampMinBackward0, ClampMinBackward1)


def clamp_max(x, max):
    """min(x, max): every element at most ``max`` (a number or a tensor)."""
    return _one_sided(x, max, "clamp_max", ClampMaxBackward0, ClampMaxBackward1)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """x with NaN replaced by ``nan``, +inf by ``posinf`` and -inf by ``neginf`` (by
    default the dtype's largest and smallest finite numbers)."""
    if not x.dtype.is_floating_point:
        return with_unary_layout(fn.as_constant(x._data.copy(), x), x)
    info = np.finfo(x._data.dtype)
    return with_unary_layout(NanToNumBackward0.apply(
        x, nan=0.0 if nan is None else nan, posinf=info.max if posinf is None else posinf,
        neginf=info.min if neginf is None else neginf), x)


class RenormBackward0(Node):
    formula = Formula("y[i]", "self[i] * f if ||self[i]||_p > maxnorm else self[i], "
                              "f = maxnorm / (||self[i]||_p + 1e-7), self[i] the slices along dim",
                      grad={"self": "f G - f / (norm + 1e-7) * (d norm / d self) sum(self G) "
                                    "where the slice was scaled, else G"})
    saves = {"self": Input(0)}

    def forward(self, x, p, dim, maxnorm):
        self.save(p=p, dim=dim, maxnorm=maxnorm)
        return linalg_kernels.renorm(x, p, dim, maxnorm)

    def backward(self, saved, grad):
        return fn.renorm_backward(grad, saved.self, saved.p, saved.dim, saved.maxnorm)


def renorm(x, p, dim: int, maxnorm: float):
    """Each slice of ``x`` along ``dim`` scaled down to p-norm ``maxnorm`` if it is larger."""
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:  # (C++ prints the double as %g does)
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm):g}")
    if x.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {x.ndim} dimensions")
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {dtypes.SCALAR_NAMES[x.dtype]}")
    return with_reduction_layout(RenormBackward0.apply(x, p=p, dim=normalize_dim(dim, x.ndim),
                                                       maxnorm=maxnorm))
