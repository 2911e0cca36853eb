"""``NAdam``: Adam with Nesterov momentum (Dozat, 2016)."""

from __future__ import annotations

import minigrad

from ..autograd.grad_mode import no_grad
from .adam import _lerp_
from .optimizer import Optimizer, addcmul_, check_adam_arguments

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam, PyTorch's rule. For each parameter p with gradient g, at step t:

        mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))   the momentum schedule
        m = beta1 * m + (1 - beta1) * g;   v = beta2 * v + (1 - beta2) * g * g
        denom = sqrt(v / (1 - beta2**t)) + eps
        p = p - lr (1 - mu_t) / (1 - prod mu_1..t) * g / denom
              - lr mu_{t+1} / (1 - prod mu_1..t+1) * m / denom

    The state of each parameter is ``step``, ``mu_product``, ``exp_avg`` and ``exp_avg_sq``.
    """

    def __init__(self, params, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        self._check_implementation(foreach, differentiable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, eps, (beta1, beta2) = group["lr"], group["eps"], group["betas"]
            state = self.state[p]
            if not state:  # (PyTorch's order: step, mu_product, then the averages)
                state.update(step=minigrad.tensor(0.0), mu_product=minigrad.tensor(1.0),
                             exp_avg=minigrad.zeros_like(p), exp_avg_sq=minigrad.zeros_like(p))
            state["step"] += 1
            t = state["step"].item()
            if group["weight_decay"] != 0 and group["decoupled_weight_decay"]:
                p.mul_(1 - lr * group["weight_decay"])
            elif group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (t * group["momentum_decay"])))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((t + 1) * group["momentum_decay"])))
            state["mu_product"] *= mu  # (a float32 tensor, as PyTorch keeps it)
            mu_product = state["mu_product"].item()
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            _lerp_(exp_avg, grad, 1 - beta1)
            addcmul_(exp_avg_sq.mul_(beta2), grad, grad, 1 - beta2)
            denom = exp_avg_sq.div(1 - beta2 ** t).sqrt().add_(eps)
            p.add_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)) / denom)
            p.add_(exp_avg * ((-lr * mu_next) / (1.0 - mu_product * mu_next)) / denom)
        return loss
