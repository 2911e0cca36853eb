"""Convolution layers: ``Conv1d``, ``Conv2d`` and ``Conv3d``; ``ConvTranspose1d``, ``2d`` and
``3d`` (the layers that grow images, as in a DCGAN's generator); ``Unfold`` and ``Fold`` (windows
as columns and back, the "im2col" a convolution is made of).

A ``Conv2d(in_channels, out_channels, kernel_size)`` holds ``out_channels`` small
filters of shape (in_channels / groups, kH, kW) and slides each one over the input;
the math is ``F.conv2d`` (``minigrad/ops/conv.py`` has the derivative).
"""

from __future__ import annotations

import math

import minigrad

from .. import devices
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
           "Unfold", "Fold"]

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_TRANSPOSE = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


_PADDING_STRINGS = {"same", "valid"}
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _ntuple(value, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """What Conv1d and Conv2d share: the checks, the parameters and their starting
    values, the printed form. ``n``: the number of spatial dims."""

    n = 2
    transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        stride = _ntuple(stride, self.n)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        # (the texts print Python sets, as PyTorch's do; the order of their elements depends
        # on string hashes, so it may differ from PyTorch's printout)
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _ntuple(kernel_size, self.n)
        self.stride = stride
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, self.n)
        self.dilation = _ntuple(dilation, self.n)
        self.output_padding = (0,) * self.n  # (a transposed convolution sets its own)
        self.groups, self.padding_mode = groups, padding_mode
        # (a transposed convolution's weight is (in, out / groups, *kernel))
        shape = ((in_channels, out_channels // groups) if self.transposed else
                 (out_channels, in_channels // groups))
        self.weight = Parameter(minigrad.empty((*shape, *self.kernel_size), dtype=dtype,
                                               device=device))
        if bias:
            self.bias = Parameter(minigrad.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's starting values: weight uniform on +-1/sqrt(fan_in) (kaiming_uniform_
        with a = sqrt(5)), bias alike; fan_in = in_channels / groups * kernel size."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _conv(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = _CONV[self.n]
        if self.padding_mode != "zeros":  # (F.pad first, then no padding: PyTorch's way)
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    @property
    def _reversed_padding_repeated_twice(self) -> list:
        """F.pad's widths for ``padding``: the last dim first, each width on both sides
        ('same': the total d (k - 1) split, the odd one on the right)."""
        if self.padding == "valid":
            return [0, 0] * self.n
        widths = []
        for d, k, p in reversed(list(zip(self.dilation, self.kernel_size, self.padding
                                         if self.padding != "same" else (None,) * self.n))):
            total = d * (k - 1) if p is None else 2 * p
            widths += [total // 2, total - total // 2]
        return widths

    def forward(self, input: Tensor) -> Tensor:
        return self._conv(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L): ``weight`` (C_out, C_in / groups, k).

    >>> Conv1d(3, 4, 3, padding='same')
    Conv1d(3, 4, kernel_size=(3,), stride=(1,), padding=same)
    """

    n = 1


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W): ``weight`` (C_out, C_in / groups, kH, kW).

    >>> conv = Conv2d(1, 6, kernel_size=5)
    >>> conv
    Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
    >>> conv(minigrad.ones(64, 1, 28, 28)).shape
    torch.Size([64, 6, 24, 24])
    """

    n = 2


class Conv3d(_ConvNd):
    """3-D convolution over (N, C_in, D, H, W): ``weight`` (C_out, C_in / groups, kD, kH, kW).

    >>> conv = Conv3d(1, 4, kernel_size=3, padding=1)
    >>> conv
    Conv3d(1, 4, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1))
    >>> conv(minigrad.ones(2, 1, 5, 6, 7)).shape
    torch.Size([2, 4, 5, 6, 7])
    """

    n = 3


class _ConvTransposeNd(_ConvNd):
    """What ConvTranspose1d and ConvTranspose2d share: ``output_padding`` (extra rows on
    one side, to pick among the sizes a strided layer could grow to) and ``output_size``."""

    transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f"{type(self).__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype)
        self.output_padding = _ntuple(output_padding, self.n)

    def _output_padding(self, input: Tensor, output_size) -> tuple:
        """The output_padding that makes the output ``output_size`` (PyTorch's texts)."""
        if output_size is None:
            return self.output_padding
        if len(output_size) == self.n + 2:
            output_size = output_size[2:]
        wanted, grows = [], []
        for d in range(self.n):
            size = ((input.shape[input.dim() - self.n + d] - 1) * self.stride[d]
                    - 2 * self.padding[d] + self.dilation[d] * (self.kernel_size[d] - 1) + 1)
            wanted.append(size)
            grows.append(size + self.stride[d] - 1)
        for d in range(self.n):
            if not wanted[d] <= output_size[d] <= grows[d]:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                                 f"range from {wanted} to {grows} (for an input of "
                                 f"{input.shape[input.dim() - self.n:]})")
        return tuple(o - w for o, w in zip(output_size, wanted))

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        return _CONV_TRANSPOSE[self.n](input, self.weight, self.bias, self.stride, self.padding,
                    self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution over (N, C_in, L): ``weight`` (C_in, C_out / groups, k);
    output length (L - 1) stride - 2 padding + dilation (k - 1) + output_padding + 1.

    >>> ConvTranspose1d(4, 2, 3, stride=2)
    ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,))
    """

    n = 1


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution over (N, C_in, H, W): ``weight`` (C_in, C_out / groups,
    kH, kW). A DCGAN's generator grows 4x4 images to 8x8 with kernel 4, stride 2, padding 1.

    >>> up = ConvTranspose2d(8, 3, 4, stride=2, padding=1, bias=False)
    >>> up
    ConvTranspose2d(8, 3, kernel_size=(4, 4), stride=(2, 2), padding=(1, 1), bias=False)
    >>> up(minigrad.ones(1, 8, 4, 4)).shape
    torch.Size([1, 3, 8, 8])
    """

    n = 2


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution over (N, C_in, D, H, W): ``weight`` (C_in, C_out / groups,
    kD, kH, kW); each spatial size grows as ConvTranspose1d's length.

    >>> up = ConvTranspose3d(4, 2, 2, stride=2)
    >>> up
    ConvTranspose3d(4, 2, kernel_size=(2, 2, 2), stride=(2, 2, 2))
    >>> up(minigrad.ones(1, 4, 3, 3, 3)).shape
    torch.Size([1, 2, 6, 6, 6])
    """

    n = 3


class Unfold(Module):
    """Every ``kernel_size`` window of (N, C, H, W) as a column: (N, C * kH * kW, L).

    >>> Unfold(kernel_size=(2, 3))(minigrad.ones(2, 5, 3, 4)).shape
    torch.Size([2, 30, 4])
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """Columns (N, C * kH * kW, L) added back into images of ``output_size``."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")

