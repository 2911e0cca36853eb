"""``Adagrad``: step sizes that shrink with the sum of past squared gradients (Duchi et al., 2011)."""

from __future__ import annotations

import minigrad

from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, addcmul_

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad, PyTorch's rule exactly. For each parameter p with gradient g, at step t:

        g = g + weight_decay * p                    (if weight_decay != 0)
        lr_t = lr / (1 + (t - 1) * lr_decay)
        s = s + g * g                               sum of squared gradients
        p = p - lr_t * g / (sqrt(s) + eps)

    ``s`` starts at ``initial_accumulator_value``. As in PyTorch, every
    parameter's state (``step``, ``sum``) is made when the optimiser is.
    """

    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10,
                 foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        self._check_implementation(foreach, differentiable, fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["step"] = minigrad.tensor(0.0)
                self.state[p]["sum"] = minigrad.full_like(p, initial_accumulator_value)

    def share_memory(self) -> None:
        """``share_memory_()`` of each parameter's running sum, as PyTorch's (for worker
        processes; minigrad's tensors live in one process)."""
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient. ``closure``, if
        given, re-computes and returns the loss (it runs with grad enabled)."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            state = self.state[p]
            if not state:  # (a parameter of a group added later: torch's defaults)
                state["step"] = minigrad.tensor(0.0)
                state["sum"] = minigrad.full_like(p, self.defaults["initial_accumulator_value"])
            state["step"] += 1
            t = state["step"].item()
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            lr = group["lr"] / (1 + (t - 1) * group["lr_decay"])
            addcmul_(state["sum"], grad, grad, 1)
            std = state["sum"].sqrt().add_(group["eps"])
            p.add_(grad * -lr / std)  # (torch's addcdiv_: p + (-lr * grad) / std, rounded so)
        return loss
