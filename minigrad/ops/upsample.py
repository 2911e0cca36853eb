"""Upsampling (F.interpolate), as PyTorch records it: ``UpsampleNearest1DBackward0`` and
``UpsampleNearest2DBackward0`` (each output copies the input element nearest to where
it falls), ``UpsampleNearestExact1DBackward0``/``2D`` (the nearest centre),
``UpsampleLinear1DBackward0`` and ``UpsampleBilinear2DBackward0`` (a weighted mean of the
two, or four, neighbours); ``PixelShuffleBackward0`` and ``PixelUnshuffleBackward0``
(channels moved into pixels and back: a reshape and a permute, each the other's gradient).

An upsampling is linear in its input: y = A x along each spatial dim, A a matrix of
0/1 (nearest) or of the weights (linear). So its gradient is the same sum read the
other way round, dL/dx = A^T G: each output's gradient, times its weights, added to the
elements it read. The indices, weights and loops are in ``kernels/upsample.py``.
"""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Node
from ..kernels import upsample as kernels
from . import fn

__all__ = ["upsample", "pixel_shuffle", "pixel_unshuffle", "PixelShuffleBackward0",
           "PixelUnshuffleBackward0", "UpsampleNearest1DBackward0", "UpsampleNearest2DBackward0",
           "UpsampleLinear1DBackward0", "UpsampleBilinear2DBackward0"]


class UpsampleNearest1DBackward0(Node):
    formula = Formula("y[i]", "self[min(floor(i * scale), size - 1)], scale = size / out "
                              "(or 1 / scale_factor)",
                      grad={"self": "sum of G[i] over the outputs i that copied the element"})
    mode = "nearest"

    def forward(self, x, output_size, scales, align_corners=None):
        self.save(output_size=output_size, self_sym_sizes=x.shape, _scales=scales,
                  _align_corners=bool(align_corners))
        if len(scales) == 1:
            self.save(scales=scales[0])
        else:
            self.save(scales_h=scales[0], scales_w=scales[1])
        if align_corners is not None:
            self.save(align_corners=align_corners)
        return kernels.upsample(x, output_size, scales, self.mode, bool(align_corners))

    def backward(self, saved, grad):
        return fn.upsample_backward(grad, saved.self_sym_sizes, saved._scales, self.mode,
                                    saved._align_corners)


class UpsampleNearest2DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[i, j]", "self[nearest row to i, nearest column to j]",
                      grad={"self": "sum of G[i, j] over the outputs that copied the element"})


class UpsampleNearestExact1DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[i]", "self[min(floor((i + 0.5) * scale), size - 1)]",
                      grad={"self": "sum of G[i] over the outputs i that copied the element"})
    mode = "nearest-exact"


class UpsampleNearestExact2DBackward0(UpsampleNearestExact1DBackward0):
    formula = Formula("y[i, j]", "self[nearest centre row to i, to column j]",
                      grad={"self": "sum of G[i, j] over the outputs that copied the element"})


class UpsampleLinear1DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[i]", "self[i0] * (1 - l) + self[i1] * l, i0 + l = where i falls",
                      grad={"self": "G[i] * (1 - l) added to i0, G[i] * l to i1"})
    mode = "linear"


class UpsampleBilinear2DBackward0(UpsampleLinear1DBackward0):
    formula = Formula("y[i, j]", "linear along the rows of linear along the columns: the four "
                                 "neighbours, weights (1 - l) or l per dim",
                      grad={"self": "G[i, j] times each neighbour's weight, added to it"})


class PixelShuffleBackward0(Node):
    formula = Formula("y[n, c, h r + i, w r + j]", "self[n, c r r + i r + j, h, w]",
                      grad={"self": "pixel_unshuffle(G, r)"})

    def forward(self, x, factor):
        self.save(upscale_factor=factor)
        return kernels.pixel_shuffle(x, factor)

    def backward(self, saved, grad):
        return fn.pixel_unshuffle(grad, saved.upscale_factor)


class PixelUnshuffleBackward0(Node):
    formula = Formula("y[n, c r r + i r + j, h, w]", "self[n, c, h r + i, w r + j]",
                      grad={"self": "pixel_shuffle(G, r)"})

    def forward(self, x, factor):
        self.save(downscale_factor=factor)
        return kernels.pixel_unshuffle(x, factor)

    def backward(self, saved, grad):
        return fn.pixel_shuffle(grad, saved.downscale_factor)


NODES = {("nearest", 1): UpsampleNearest1DBackward0, ("nearest", 2): UpsampleNearest2DBackward0,
         ("nearest-exact", 1): UpsampleNearestExact1DBackward0,
         ("nearest-exact", 2): UpsampleNearestExact2DBackward0,
         ("linear", 1): UpsampleLinear1DBackward0, ("linear", 2): UpsampleBilinear2DBackward0}


def upsample(x, output_size: tuple, scales: tuple, mode: str, align_corners=None):
    """``x`` (N, C, *spatial; 1 or 2 spatial dims) resized to ``output_size``: ``scales``
    the scale factors given (or None each), ``mode`` 'nearest', 'nearest-exact' or
    'linear' (bilinear for two dims)."""
    return NODES[mode, x.ndim - 2].apply(x, output_size=tuple(output_size),
                                         scales=tuple(scales), align_corners=align_corners)


def pixel_shuffle(x, factor: int):
    """(*, C r^2, H, W) -> (*, C, H r, W r): each r x r block of pixels from r^2 channels."""
    return PixelShuffleBackward0.apply(x, factor=factor)


def pixel_unshuffle(x, factor: int):
    """(*, C, H r, W r) -> (*, C r^2, H, W): pixel_shuffle undone."""
    return PixelUnshuffleBackward0.apply(x, factor=factor)
