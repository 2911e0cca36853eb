"""``LayerNorm``: normalise each sample over its last dims, then scale and shift."""

from __future__ import annotations

import numbers

import minigrad

from .. import devices
from ..tensor import Tensor
from . import functional as F
from .module import Module
from .parameter import Parameter

__all__ = ["LayerNorm"]


class LayerNorm(Module):
    """y = (x - mean) / sqrt(var + eps) * weight + bias, mean and (biased) var taken over
    the last dims, ``normalized_shape``. ``weight`` starts at 1 and ``bias`` at 0
    (``elementwise_affine=False``: neither; ``bias=False``: no bias).

    >>> LayerNorm(32)
    LayerNorm((32,), eps=1e-05, elementwise_affine=True, bias=True)
    """

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        devices.check_device(device)
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(minigrad.ones(self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(minigrad.zeros(self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """weight back to 1, bias to 0."""
        with minigrad.no_grad():
            if self.weight is not None:
                self.weight.fill_(1)
            if self.bias is not None:
                self.bias.zero_()

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")
