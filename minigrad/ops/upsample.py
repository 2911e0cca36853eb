"""Upsampling (F.interpolate), as PyTorch records it: ``UpsampleNearest1DBackward0`` and
``UpsampleNearest2DBackward0`` (each output copies the input element nearest to where
it falls), ``UpsampleNearestExact1DBackward0``/``2D`` (the nearest centre), and their
``3D`` twins, ``UpsampleLinear1DBackward0``, ``UpsampleBilinear2DBackward0`` and
``UpsampleTrilinear3DBackward0`` (a weighted mean of the two, four or eight neighbours),
``UpsampleBicubic2DBackward0`` (of the 4 x 4 around, cubic weights);
``PixelShuffleBackward0`` and ``PixelUnshuffleBackward0`` (channels moved into pixels and
back: a reshape and a permute, each the other's gradient), ``ChannelShuffleBackward0``
(channels interleaved, ShuffleNet's).

An upsampling is linear in its input: y = A x along each spatial dim, A a matrix of
0/1 (nearest) or of the weights (linear). So its gradient is the same sum read the
other way round, dL/dx = A^T G: each output's gradient, times its weights, added to the
elements it read. The indices, weights and loops are in ``kernels/upsample.py``. With
create_graph=True that gradient is recorded as a node of its own, as PyTorch's
(``UpsampleLinear1DBackwardBackward0``, ...): linear in G, its gradient is the upsampling.
"""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Node
from ..kernels import upsample as kernels
from ..kernels.layout import in_input_format
from ..rules.layout import check_shuffle_layout
from . import fn

__all__ = ["upsample", "pixel_shuffle", "pixel_unshuffle", "PixelShuffleBackward0",
           "PixelUnshuffleBackward0", "UpsampleNearest1DBackward0", "UpsampleNearest2DBackward0",
           "UpsampleLinear1DBackward0", "UpsampleBilinear2DBackward0", "UpsampleNearest3DBackward0",
           "UpsampleNearestExact3DBackward0", "UpsampleTrilinear3DBackward0",
           "UpsampleBicubic2DBackward0", "ChannelShuffleBackward0", "channel_shuffle"]


class UpsampleNearest1DBackward0(Node):
    formula = Formula("y[i]", "self[min(floor(i * scale), size - 1)], scale = size / out "
                              "(or 1 / scale_factor)",
                      grad={"self": "sum of G[i] over the outputs i that copied the element"})
    mode = "nearest"

    def forward(self, x, output_size, scales, align_corners=None):
        _save_sizes(self, output_size, scales, align_corners)
        self.save(self_sym_sizes=x.shape)  # (channels-last in, channels-last out: PyTorch's)
        return in_input_format(kernels.upsample(x, output_size, scales, self.mode,
                                                bool(align_corners)), x, volumes=True)

    def backward(self, saved, grad):
        return upsample_backward(grad, type(self), saved.self_sym_sizes, saved.output_size,
                                 saved._scales, saved._align_corners)


def _save_sizes(node, output_size, scales, align_corners) -> None:
    """What an upsampling's node (and its derivative's) keeps, as PyTorch names it."""
    node.save(output_size=output_size, _scales=scales, _align_corners=align_corners)
    if len(scales) == 1:
        node.save(scales=scales[0])
    else:  # (scales_h, scales_w; scales_d first for volumes)
        node.save(**dict(zip(("scales_d", "scales_h", "scales_w")[-len(scales):], scales)))
    if align_corners is not None:
        node.save(align_corners=align_corners)


def upsample_backward(grad, node, input_size, output_size, scales, align_corners):
    """dL/dx of the upsampling ``node`` records, A^T G along each spatial dim (A: the
    outputs' weights on the inputs); on tensors recorded as its derivative's node
    (UpsampleLinear1DBackwardBackward0, ...)."""
    if not fn.is_tensor(grad):
        return kernels.upsample_backward(grad, input_size, scales, node.mode,
                                         bool(align_corners))
    return DERIVATIVE_NODES[node].apply(grad, input_size=input_size, output_size=output_size,
                                        scales=scales, align_corners=align_corners)


class _UpsampleBackward(Node):
    """An upsampling's derivative as an operation, recorded by a backward with
    create_graph=True: A^T G, linear in G, so its own derivative is the upsampling again."""

    def forward(self, grad, input_size, output_size, scales, align_corners):
        _save_sizes(self, output_size, scales, align_corners)
        return kernels.upsample_backward(grad, input_size, scales, self.mode,
                                         bool(align_corners))

    def backward(self, saved, grad):
        return upsample(grad, saved.output_size, saved._scales, self.mode, saved._align_corners)


class UpsampleNearest2DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[i, j]", "self[nearest row to i, nearest column to j]",
                      grad={"self": "sum of G[i, j] over the outputs that copied the element"})


class UpsampleNearest3DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[t, i, j]", "self[nearest frame to t, row to i, column to j]",
                      grad={"self": "sum of G[t, i, j] over the outputs that copied the element"})


class UpsampleNearestExact1DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[i]", "self[min(floor((i + 0.5) * scale), size - 1)]",
                      grad={"self": "sum of G[i] over the outputs i that copied the element"})
    mode = "nearest-exact"


class UpsampleNearestExact2DBackward0(UpsampleNearestExact1DBackward0):
    formula = Formula("y[i, j]", "self[nearest centre row to i, to column j]",
                      grad={"self": "sum of G[i, j] over the outputs that copied the element"})


class UpsampleNearestExact3DBackward0(UpsampleNearestExact1DBackward0):
    formula = Formula("y[t, i, j]", "self[nearest centre frame to t, row to i, column to j]",
                      grad={"self": "sum of G[t, i, j] over the outputs that copied the element"})


class UpsampleLinear1DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[i]", "self[i0] * (1 - l) + self[i1] * l, i0 + l = where i falls",
                      grad={"self": "G[i] * (1 - l) added to i0, G[i] * l to i1"})
    mode = "linear"


class UpsampleBilinear2DBackward0(UpsampleLinear1DBackward0):
    formula = Formula("y[i, j]", "linear along the rows of linear along the columns: the four "
                                 "neighbours, weights (1 - l) or l per dim",
                      grad={"self": "G[i, j] times each neighbour's weight, added to it"})


class UpsampleTrilinear3DBackward0(UpsampleLinear1DBackward0):
    formula = Formula("y[t, i, j]", "linear along each of the three dims: the eight "
                                    "neighbours, weights (1 - l) or l per dim",
                      grad={"self": "G[t, i, j] times each neighbour's weight, added to it"})


class UpsampleBicubic2DBackward0(UpsampleNearest1DBackward0):
    formula = Formula("y[i, j]", "sum over the 4 x 4 neighbours of self times cubic weights "
                                 "w(row distance) w(column distance)",
                      grad={"self": "G[i, j] times each neighbour's weights, added to it"},
                      note="w: Keys' cubic convolution kernel, A = -0.75.")
    mode = "cubic"


class UpsampleNearest1DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the 1-D nearest upsampling's backward: A^T grad",
                      grad={"grad": "the 1-D nearest upsampling of G"})
    mode = "nearest"


class UpsampleNearest2DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the 2-D nearest upsampling's backward: A^T grad",
                      grad={"grad": "the 2-D nearest upsampling of G"})
    mode = "nearest"


class UpsampleNearest3DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the 3-D nearest upsampling's backward: A^T grad",
                      grad={"grad": "the 3-D nearest upsampling of G"})
    mode = "nearest"


class UpsampleNearestExact1DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the 1-D nearest-exact upsampling's backward: A^T grad",
                      grad={"grad": "the 1-D nearest-exact upsampling of G"})
    mode = "nearest-exact"


class UpsampleNearestExact2DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the 2-D nearest-exact upsampling's backward: A^T grad",
                      grad={"grad": "the 2-D nearest-exact upsampling of G"})
    mode = "nearest-exact"


class UpsampleNearestExact3DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the 3-D nearest-exact upsampling's backward: A^T grad",
                      grad={"grad": "the 3-D nearest-exact upsampling of G"})
    mode = "nearest-exact"


class UpsampleLinear1DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the linear upsampling's backward: A^T grad",
                      grad={"grad": "the linear upsampling of G"})
    mode = "linear"


class UpsampleBilinear2DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the bilinear upsampling's backward: A^T grad",
                      grad={"grad": "the bilinear upsampling of G"})
    mode = "linear"


class UpsampleTrilinear3DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the trilinear upsampling's backward: A^T grad",
                      grad={"grad": "the trilinear upsampling of G"})
    mode = "linear"


class UpsampleBicubic2DBackwardBackward0(_UpsampleBackward):
    formula = Formula("z", "the bicubic upsampling's backward: A^T grad",
                      grad={"grad": "the bicubic upsampling of G"})
    mode = "cubic"


DERIVATIVE_NODES = {UpsampleNearest1DBackward0: UpsampleNearest1DBackwardBackward0,
                    UpsampleNearest2DBackward0: UpsampleNearest2DBackwardBackward0,
                    UpsampleNearest3DBackward0: UpsampleNearest3DBackwardBackward0,
                    UpsampleNearestExact1DBackward0: UpsampleNearestExact1DBackwardBackward0,
                    UpsampleNearestExact2DBackward0: UpsampleNearestExact2DBackwardBackward0,
                    UpsampleNearestExact3DBackward0: UpsampleNearestExact3DBackwardBackward0,
                    UpsampleLinear1DBackward0: UpsampleLinear1DBackwardBackward0,
                    UpsampleBilinear2DBackward0: UpsampleBilinear2DBackwardBackward0,
                    UpsampleTrilinear3DBackward0: UpsampleTrilinear3DBackwardBackward0,
                    UpsampleBicubic2DBackward0: UpsampleBicubic2DBackwardBackward0}


class ChannelShuffleBackward0(Node):
    formula = Formula("y[n, k g + j]", "self[n, j (C / g) + k]",
                      grad={"self": "channel_shuffle(G, C / g) (the shuffle undone)"})

    def forward(self, x, groups):
        self.save(groups=groups, _channels=x.shape[1])
        return in_input_format(kernels.channel_shuffle(x, groups), x, volumes=True)

    def backward(self, saved, grad):
        return fn.channel_shuffle(grad, saved._channels // saved.groups)


class PixelShuffleBackward0(Node):
    formula = Formula("y[n, c, h r + i, w r + j]", "self[n, c r r + i r + j, h, w]",
                      grad={"self": "pixel_unshuffle(G, r)"})

    def forward(self, x, factor):
        self.save(upscale_factor=factor)
        return in_input_format(kernels.pixel_shuffle(x, factor), x)

    def backward(self, saved, grad):
        return fn.pixel_unshuffle(grad, saved.upscale_factor)


class PixelUnshuffleBackward0(Node):
    formula = Formula("y[n, c r r + i r + j, h, w]", "self[n, c, h r + i, w r + j]",
                      grad={"self": "pixel_shuffle(G, r)"})

    def forward(self, x, factor):
        self.save(downscale_factor=factor)
        return in_input_format(kernels.pixel_unshuffle(x, factor), x)

    def backward(self, saved, grad):
        return fn.pixel_shuffle(grad, saved.downscale_factor)


NODES = {("nearest", 1): UpsampleNearest1DBackward0, ("nearest", 2): UpsampleNearest2DBackward0,
         ("nearest-exact", 1): UpsampleNearestExact1DBackward0,
         ("nearest-exact", 2): UpsampleNearestExact2DBackward0,
         ("linear", 1): UpsampleLinear1DBackward0, ("linear", 2): UpsampleBilinear2DBackward0,
         ("nearest", 3): UpsampleNearest3DBackward0,
         ("nearest-exact", 3): UpsampleNearestExact3DBackward0,
         ("linear", 3): UpsampleTrilinear3DBackward0, ("cubic", 2): UpsampleBicubic2DBackward0}


def upsample(x, output_size: tuple, scales: tuple, mode: str, align_corners=None):
    """``x`` (N, C, *spatial; 1, 2 or 3 spatial dims) resized to ``output_size``: ``scales``
    the scale factors given (or None each), ``mode`` 'nearest', 'nearest-exact',
    'linear' (bilinear for two dims, trilinear for three) or 'cubic' (bicubic, two dims)."""
    return NODES[mode, x.ndim - 2].apply(x, output_size=tuple(output_size),
                                         scales=tuple(scales), align_corners=align_corners)


def channel_shuffle(x, groups: int):
    """(N, C, *) with the channels of ``groups`` groups interleaved."""
    return ChannelShuffleBackward0.apply(x, groups=groups)


def pixel_shuffle(x, factor: int):
    """(*, C r^2, H, W) -> (*, C, H r, W r): each r x r block of pixels from r^2 channels."""
    check_shuffle_layout(x)
    return PixelShuffleBackward0.apply(x, factor=factor)


def pixel_unshuffle(x, factor: int):
    """(*, C, H r, W r) -> (*, C r^2, H, W): pixel_shuffle undone."""
    check_shuffle_layout(x)
    return PixelUnshuffleBackward0.apply(x, factor=factor)
