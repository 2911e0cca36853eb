"""``PairwiseDistance``: ||x1 - x2 + eps||_p along the last dim, as a module
(``TripletMarginWithDistanceLoss``'s default distance); ``CosineSimilarity``: the cosine
of the angle between x1 and x2 along ``dim``."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["PairwiseDistance", "CosineSimilarity"]


class PairwiseDistance(Module):
    """||x1 - x2 + eps||_p for each row (the last dim)."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """x1 . x2 / max(||x1|| ||x2||, eps) along ``dim``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
