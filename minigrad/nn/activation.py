"""Activation layers: ``ReLU``, ``Tanh``, ``Sigmoid``, ``Softmax``, ``LogSoftmax``, ``GELU``.

Each one applies its function elementwise (``Softmax`` along ``dim``) and has
no parameters; the math is in ``minigrad.nn.functional``.
"""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["ReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "GELU"]


class ReLU(Module):
    """y = max(x, 0). With ``inplace=True`` the input itself is overwritten."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """y = tanh(x), in (-1, 1)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.tanh(input)


class Sigmoid(Module):
    """y = 1 / (1 + exp(-x)), in (0, 1)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.sigmoid(input)


class Softmax(Module):
    """y_i = exp(x_i) / sum_j exp(x_j) along ``dim``: each slice sums to 1."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """y_i = x_i - log(sum_j exp(x_j)) along ``dim`` (pairs with ``NLLLoss``)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GELU(Module):
    """y = x * Phi(x), Phi the standard normal CDF (``approximate='tanh'``: its tanh
    approximation), the activation of GPT's feed-forward layers."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"
