"""``Adamax``: Adam with the infinity norm in place of the RMS (Kingma & Ba, 2015)."""

from __future__ import annotations

import minigrad

from ..autograd.grad_mode import no_grad
from .adam import _lerp_
from .optimizer import Optimizer, check_adam_arguments

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax, PyTorch's rule. For each parameter p with gradient g, at step t:

        g = g + weight_decay * p                    (if weight_decay != 0)
        m = beta1 * m + (1 - beta1) * g
        u = max(beta2 * u, |g| + eps)               a decaying running maximum of |g|
        p = p - lr / (1 - beta1**t) * m / u

    The state of each parameter is ``step``, ``exp_avg`` (m) and ``exp_inf`` (u).
    """

    def __init__(self, params, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        self._check_implementation(foreach, differentiable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, eps, (beta1, beta2) = group["lr"], group["eps"], group["betas"]
            state = self._state(p, "exp_avg", "exp_inf")
            state["step"] += 1
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
            _lerp_(exp_avg, grad, 1 - beta1)
            minigrad.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
            clr = lr / (1 - beta1 ** state["step"].item())
            p.add_(exp_avg * -clr / exp_inf)  # (torch's addcdiv_: p + (value * m) / u)
        return loss
