"""``SparseAdam``: Adam for sparse gradients (an ``Embedding(sparse=True)``'s), updating
only the rows a batch touched. minigrad has no sparse gradients, so it takes the same
arguments, checks them with PyTorch's texts, and refuses a dense gradient at ``step()`` as
PyTorch does ("please consider Adam instead")."""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor
from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam's rule (m, v and bias corrections) on the rows present in a sparse gradient."""

    def __init__(self, params, lr: float | Tensor = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))

    @no_grad()
    def step(self, closure=None):
        """Refused for the dense gradients minigrad makes, with PyTorch's error."""
        loss = self._loss_of(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    raise RuntimeError("SparseAdam does not support dense gradients, please "
                                       "consider Adam instead")
        return loss
