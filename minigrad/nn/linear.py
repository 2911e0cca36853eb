"""``Linear`` (y = x W^T + b), ``Bilinear`` (y = x1 W x2 + b), ``Identity``, ``Flatten`` and
``Unflatten``."""

from __future__ import annotations

import math

import minigrad

from .. import devices

from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Identity", "Linear", "NonDynamicallyQuantizableLinear", "Bilinear", "Flatten",
           "Unflatten"]


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """A fully connected layer: y = x W^T + b.

    ``weight`` has shape (out_features, in_features) and ``bias`` (out_features,).
    Both start uniform on [-1/sqrt(in_features), 1/sqrt(in_features)], as in
    PyTorch (``kaiming_uniform_`` with a = sqrt(5) gives exactly that bound).

    >>> layer = Linear(784, 256)
    >>> layer
    Linear(in_features=784, out_features=256, bias=True)
    >>> layer(minigrad.ones(32, 784)).shape
    torch.Size([32, 256])
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(minigrad.empty(out_features, in_features, dtype=dtype,
                                               device=device))
        if bias:
            self.bias = Parameter(minigrad.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh starting values (PyTorch's default initialisation)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` under another name: ``MultiheadAttention.out_proj``, printed as in
    PyTorch (whose quantisation tools treat it apart)."""


class Bilinear(Module):
    """y[o] = x1 . weight[o] . x2 + bias[o]: ``weight`` (out, in1, in2) and ``bias`` start
    uniform on +-1/sqrt(in1_features), as in PyTorch.

    >>> Bilinear(2, 3, 4, bias=False)
    Bilinear(in1_features=2, in2_features=3, out_features=4, bias=False)
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        self.weight = Parameter(minigrad.empty((out_features, in1_features, in2_features),
                                               dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(minigrad.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.in1_features <= 0:
            raise ValueError(f"in1_features must be > 0, but got (in1_features="
                             f"{self.in1_features})")
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class Flatten(Module):
    """Merge dimensions ``start_dim`` .. ``end_dim`` into one: by default an
    image batch (N, 1, 28, 28) becomes (N, 784)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension ``dim`` into ``unflattened_size``: (N, 784) becomes (N, 1, 28, 28)
    with ``Unflatten(1, (1, 28, 28))``."""

    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("unflattened_size must be tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        dim = self.dim + input.dim() if self.dim < 0 else self.dim
        shape = (*input.shape[:dim], *self.unflattened_size, *input.shape[dim + 1:])
        return input.view(shape)  # (a view, ViewBackward0, as torch's unflatten)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
