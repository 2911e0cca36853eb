"""``Dropout``: randomly silence units while training (a regulariser); ``Dropout1d`` and
``Dropout2d`` silence whole channels."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
           "FeatureAlphaDropout"]


class Dropout(Module):
    """In training mode, each element is zeroed with probability ``p`` and the
    survivors are multiplied by 1 / (1 - p), so the expected output equals the
    input. In evaluation mode (``model.eval()``) it returns the input as is."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(Dropout):
    """Zero whole channels of (N, C, L) input (each with probability ``p``) in training."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    """Zero whole feature maps of (N, C, H, W) input (each with probability ``p``) in
    training; the others are scaled by 1 / (1 - p)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    """Zero whole volumes of (N, C, D, H, W) input (each with probability ``p``) in
    training; the others are scaled by 1 / (1 - p)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(Dropout):
    """Dropout for SELU networks: dropped elements take SELU's saturation value, and the
    output is moved and scaled back to the input's mean and variance (training only).
    (``inplace`` is kept for the printed form; PyTorch's forward ignores it, as here.)"""

    def forward(self, input: Tensor) -> Tensor:
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    """AlphaDropout of whole channels of (N, C, ...) input."""

    def forward(self, input: Tensor) -> Tensor:
        return F.feature_alpha_dropout(input, self.p, self.training)
