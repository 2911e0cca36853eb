"""``PairwiseDistance``: ||x1 - x2 + eps||_p along the last dim, as a module
(``TripletMarginWithDistanceLoss``'s default distance)."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["PairwiseDistance"]


class PairwiseDistance(Module):
    """||x1 - x2 + eps||_p for each row (the last dim)."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
