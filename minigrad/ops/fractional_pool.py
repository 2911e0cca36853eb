"""Fractional max pooling (Graham, 2014): windows of ``kernel_size`` that step through the
input at pseudo-random, non-integer strides, so that an input shrinks by any ratio (not
only by halves). Each (batch element, channel) plane draws its own steps from its samples
in [0, 1) (``kernels.fractional_starts``); each output is the largest element of its window,
and, as for every max pooling, its gradient goes to that element only."""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..autograd.tensor_base import make
from ..kernels import conv as kernels
from ..rules import conv as rules
from . import fn
from .conv import MaxPool2DWithIndicesBackwardBackward0

__all__ = ["fractional_max_pool"]


class FractionalMaxPool2DBackwardBackward0(MaxPool2DWithIndicesBackwardBackward0):
    formula = Formula("g", "G' added at the element each window chose (fractional max "
                           "pooling's backward)",
                      grad={"grad_output": "G read at the chosen elements (a gather)",
                            "self": "zeros (the choice is flat)"},
                      note="How fractional max pooling's backward is recorded with "
                           "create_graph=True.")


class FractionalMaxPool3DBackwardBackward0(FractionalMaxPool2DBackwardBackward0):
    spatial = 3


class FractionalMaxPool2DBackward0(Node):
    formula = Formula("y[n, c, i, j]", "max of self[n, c, window (i, j)], the windows at the "
                                       "plane's pseudo-random steps",
                      grad={"self": "G[n, c, i, j] at the element chosen, 0 elsewhere"},
                      note="Also returns the indices (h * W + w) of the chosen elements.")
    saves = {"self": Input(0)}
    spatial = 2
    recorded_backward = FractionalMaxPool2DBackwardBackward0

    def forward(self, x, kernel_size, output_size, samples):
        values, self.indices = kernels.fractional_max_pool(x, kernel_size, output_size, samples)
        self.save(kernel_size=kernel_size, output_size=output_size, result1=self.indices)
        return values

    def backward(self, saved, grad):
        return fn.max_pool_backward(grad, saved.self, saved.result1, self.spatial,
                                    self.recorded_backward)


class FractionalMaxPool3DBackward0(FractionalMaxPool2DBackward0):
    formula = Formula("y[n, c, t, i, j]", "max of self[n, c, window (t, i, j)], the windows "
                                          "at the plane's pseudo-random steps",
                      grad={"self": "G[n, c, t, i, j] at the element chosen, 0 elsewhere"},
                      note="Also returns the indices (t * H * W + h * W + w).")
    spatial = 3
    recorded_backward = FractionalMaxPool3DBackwardBackward0


def fractional_max_pool(x, kernel_size, output_size, samples):
    """(values, indices) of fractional max pooling with 2 or 3 spatial dims (the length of
    ``kernel_size``), each plane's steps drawn from ``samples`` (N, C, spatial)."""
    rules.check_fractional_max_pool(x, kernel_size, output_size, samples)
    node = FractionalMaxPool2DBackward0 if len(kernel_size) == 2 else FractionalMaxPool3DBackward0
    values = node.apply(x, kernel_size=kernel_size, output_size=output_size,
                        samples=samples._data)
    if values.grad_fn is not None:
        return values, make(values.grad_fn.indices)
    # (not recorded: the node is gone, so ask the kernel again)
    return values, make(kernels.fractional_max_pool(x._data, kernel_size, output_size,
                                                    samples._data)[1])
