"""Pooling layers: ``MaxPool1d``/``2d``/``3d`` (and ``MaxUnpool1d``/``2d``/``3d``, which put
the maxima back where the indices say), ``AvgPool1d``/``2d``/``3d``,
``AdaptiveAvgPool1d``/``2d``/``3d``, ``AdaptiveMaxPool1d``/``2d``/``3d``.
None has parameters: each summarises
every window of its input (the largest element, or the mean); the math is in
``minigrad.nn.functional``.
"""

from __future__ import annotations

import minigrad

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
           "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "LPPool3d",
           "FractionalMaxPool2d", "FractionalMaxPool3d"]


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
                f", dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """The largest element of each window of a row (N, C, L)."""

    def forward(self, input: Tensor):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """The largest element of each kernel_size window of (N, C, H, W), windows ``stride``
    apart (the kernel size by default).

    >>> MaxPool2d(2)
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    def forward(self, input: Tensor):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool3d(_MaxPoolNd):
    """The largest element of each kernel_size window of a volume (N, C, D, H, W).

    >>> MaxPool3d(2)(minigrad.ones(1, 2, 4, 4, 4)).shape
    torch.Size([1, 2, 2, 2, 2])
    """

    def forward(self, input: Tensor):
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class _MaxUnpoolNd(Module):
    """What the MaxUnpool layers share; ``n``: the spatial dims."""

    n = 2

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        self.kernel_size = F._tuple(kernel_size, self.n)
        self.stride = F._tuple(stride if stride is not None else kernel_size, self.n)
        self.padding = F._tuple(padding, self.n)

    def forward(self, input: Tensor, indices: Tensor, output_size=None) -> Tensor:
        unpool = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self.n - 1]
        return unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """MaxPool1d partly undone, from its indices."""

    n = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """MaxPool2d partly undone: each maximum put back where it was, zeros elsewhere.

    >>> pool, unpool = MaxPool2d(2, return_indices=True), MaxUnpool2d(2)
    >>> unpool(*pool(minigrad.arange(16.).view(1, 1, 4, 4)))
    tensor([[[[ 0.,  0.,  0.,  0.],
              [ 0.,  5.,  0.,  7.],
              [ 0.,  0.,  0.,  0.],
              [ 0., 13.,  0., 15.]]]])
    """

    n = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """MaxPool3d partly undone, from its indices."""

    n = 3


class AvgPool1d(Module):
    """The mean of each window of a row (N, C, L)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _single(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class _AvgPoolNd(Module):
    """What AvgPool2d and AvgPool3d share; ``pool``: the function."""

    pool = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return self.pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                         self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolNd):
    """The mean of each kernel_size window of (N, C, H, W), windows ``stride`` apart (the
    kernel size by default).

    >>> AvgPool2d(2)
    AvgPool2d(kernel_size=2, stride=2, padding=0)
    """

    pool = staticmethod(F.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    """The mean of each kernel_size window of a volume (N, C, D, H, W).

    >>> AvgPool3d((1, 2, 2))
    AvgPool3d(kernel_size=(1, 2, 2), stride=(1, 2, 2), padding=0)
    """

    pool = staticmethod(F.avg_pool3d)


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Averages over ``output_size`` regions of a row, whatever its length."""

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Averages over an ``output_size`` grid of regions, whatever the input's size:
    ``AdaptiveAvgPool2d((1, 1))`` is global average pooling.

    >>> AdaptiveAvgPool2d((1, 1))(minigrad.ones(8, 16, 7, 7)).shape
    torch.Size([8, 16, 1, 1])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Averages over an ``output_size`` grid of regions of a volume: ``AdaptiveAvgPool3d(1)``
    is global average pooling of a 3-D network.

    >>> AdaptiveAvgPool3d(1)(minigrad.ones(2, 8, 3, 5, 5)).shape
    torch.Size([2, 8, 1, 1, 1])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """The largest element of each of ``output_size`` regions of a row."""

    def forward(self, input: Tensor):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """The largest element of each of an ``output_size`` grid of regions.

    >>> AdaptiveMaxPool2d((2, None))(minigrad.ones(1, 3, 5, 7)).shape
    torch.Size([1, 3, 2, 7])
    """

    def forward(self, input: Tensor):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """The largest element of each of an ``output_size`` grid of regions of a volume."""

    def forward(self, input: Tensor):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPoolNd(Module):
    def __init__(self, norm_type: float, kernel_size, stride=None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """The p-norm of each window of a row (N, C, L): (sum of x ** p) ** (1 / p)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """The p-norm of each window of an image (N, C, H, W)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)


class LPPool3d(_LPPoolNd):
    """The p-norm of each window of a volume (N, C, D, H, W)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)


class _FractionalMaxPoolNd(Module):
    """PyTorch's checks of the sizes, with its texts (no extra_repr: it prints bare)."""

    spatial = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None,
                 return_indices: bool = False, _random_samples=None) -> None:
        super().__init__()
        n, name = self.spatial, type(self).__name__
        if n == 3 and any(k <= 0 for k in ((kernel_size,) if isinstance(kernel_size, int)
                                           else kernel_size)):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        self.kernel_size = _ntuple(kernel_size, n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, n) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling "
                             "ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")


def _ntuple(value, n: int) -> tuple:
    """PyTorch's _pair and _triple: an iterable as a tuple, anything else repeated."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Max pooling over windows at pseudo-random fractional steps, shrinking (H, W) to
    ``output_size`` or by ``output_ratio`` (Graham, 2014).

    >>> m = FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
    >>> m(minigrad.randn(2, 4, 10, 8)).shape
    torch.Size([2, 4, 5, 4])
    """

    def forward(self, input: Tensor):
        return F.fractional_max_pool2d(input, self.kernel_size, self.output_size,
                                       self.output_ratio, self.return_indices,
                                       _random_samples=self._random_samples)


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """FractionalMaxPool2d over volumes (N, C, T, H, W)."""

    spatial = 3

    def forward(self, input: Tensor):
        return F.fractional_max_pool3d(input, self.kernel_size, self.output_size,
                                       self.output_ratio, self.return_indices,
                                       _random_samples=self._random_samples)
