"""``RAdam``: Adam with its early steps' variance rectified (Liu et al., 2019)."""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from .adam import _lerp_
from .optimizer import Optimizer, addcmul_, check_adam_arguments

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam, PyTorch's rule. For each parameter p with gradient g, at step t (m, v as
    in Adam):

        rho_inf = 2 / (1 - beta2) - 1;   rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)
        if rho_t > 5:  p = p - lr * m_hat * sqrt(1 - beta2**t) / (sqrt(v) + eps) * r_t,
                       r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
        else:          p = p - lr * m_hat           (plain momentum while v is unreliable)

    with m_hat = m / (1 - beta1**t). The state is ``step``, ``exp_avg``, ``exp_avg_sq``.
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, decoupled_weight_decay: bool = False,
                 *, foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay, differentiable=differentiable)
        self._check_implementation(foreach, differentiable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, eps, (beta1, beta2) = group["lr"], group["eps"], group["betas"]
            state = self._state(p, "exp_avg", "exp_avg_sq")
            state["step"] += 1
            t = state["step"].item()
            if group["weight_decay"] != 0 and group["decoupled_weight_decay"]:
                p.mul_(1 - lr * group["weight_decay"])
            elif group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            _lerp_(exp_avg, grad, 1 - beta1)
            addcmul_(exp_avg_sq.mul_(beta2), grad, grad, 1 - beta2)
            bias_correction2 = 1 - beta2 ** t
            corrected = exp_avg / (1 - beta1 ** t)
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * t * (beta2 ** t) / bias_correction2
            if rho_t > 5.0:
                rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                        / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                adaptive = (bias_correction2 ** 0.5) / exp_avg_sq.sqrt().add_(eps)
                p.add_(corrected * lr * adaptive * rect, alpha=-1.0)
            else:
                p.add_(corrected * lr, alpha=-1.0)
        return loss
