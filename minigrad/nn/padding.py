"""Padding layers, ``F.pad`` as a module: ``ZeroPad1d``/``2d``/``3d`` and ``ConstantPad1d``/
``2d``/``3d`` (a border of one value: ConstantPadNdBackward0), ``ReflectionPad1d``/``2d``/
``3d`` (the edge mirrored, without repeating it: ReflectionPad2DBackward0),
``ReplicationPad1d``/``2d``/``3d`` (the edge repeated) and ``CircularPad1d``/``2d``/``3d``
(the other end wrapped around: CopySlices, as ATen writes it). ``padding``: one int for
every side, or (left, right[, top, bottom[, front, back]])."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
           "CircularPad2d", "CircularPad3d"]


def _sides(padding, dims: int) -> tuple:
    """An int as the same width on all 2 * dims sides; a sequence as given."""
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * dims)


class _ConstantPadNd(Module):
    dims = 1

    def __init__(self, padding, value: float) -> None:
        super().__init__()
        self.padding, self.value = _sides(padding, self.dims), value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """The last dim padded with ``value``.

    >>> ConstantPad1d(2, 3.5)(minigrad.ones(1, 2))
    tensor([[3.5000, 3.5000, 1.0000, 1.0000, 3.5000, 3.5000]])
    """

    dims = 1


class ConstantPad2d(_ConstantPadNd):
    """The last two dims padded with ``value``."""

    dims = 2


class ConstantPad3d(_ConstantPadNd):
    """The last three dims padded with ``value``."""

    dims = 3


class ZeroPad1d(ConstantPad1d):
    """The last dim padded with zeros."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """The last two dims padded with zeros.

    >>> ZeroPad2d((1, 1, 2, 0))
    ZeroPad2d((1, 1, 2, 0))
    """

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """The last three dims padded with zeros."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _EdgePadNd(Module):
    dims, mode = 1, "reflect"

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _sides(padding, self.dims)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_EdgePadNd):
    """The last dim padded with its mirror image (the edge element not repeated)."""

    dims, mode = 1, "reflect"


class ReflectionPad2d(_EdgePadNd):
    """The last two dims padded with their mirror image.

    >>> ReflectionPad2d(1)(minigrad.arange(4.).view(1, 2, 2))
    tensor([[[3., 2., 3., 2.],
             [1., 0., 1., 0.],
             [3., 2., 3., 2.],
             [1., 0., 1., 0.]]])
    """

    dims, mode = 2, "reflect"


class ReplicationPad1d(_EdgePadNd):
    """The last dim padded with copies of its edge elements."""

    dims, mode = 1, "replicate"


class ReplicationPad2d(_EdgePadNd):
    """The last two dims padded with copies of their edge elements."""

    dims, mode = 2, "replicate"


class ReflectionPad3d(_EdgePadNd):
    """The last three dims padded with their mirror image."""

    dims, mode = 3, "reflect"


class ReplicationPad3d(_EdgePadNd):
    """The last three dims padded with copies of their edge elements."""

    dims, mode = 3, "replicate"


class CircularPad1d(_EdgePadNd):
    """The last dim padded by wrapping around: the left border is the row's end.

    >>> CircularPad1d((1, 2))(minigrad.arange(4.).view(1, 4))
    tensor([[3., 0., 1., 2., 3., 0., 1.]])
    """

    dims, mode = 1, "circular"


class CircularPad2d(_EdgePadNd):
    """The last two dims padded by wrapping around (a torus)."""

    dims, mode = 2, "circular"


class CircularPad3d(_EdgePadNd):
    """The last three dims padded by wrapping around."""

    dims, mode = 3, "circular"
