"""``Adam``: gradient descent with per-parameter step sizes (Kingma & Ba, 2015)."""

from __future__ import annotations

import numpy as np

import minigrad

from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, addcmul_, check_adam_arguments

__all__ = ["Adam"]


class Adam(Optimizer):
    """Adam, PyTorch's rule exactly. For each parameter p with gradient g, at step t:

        g = g + weight_decay * p                    (if weight_decay != 0)
        m = beta1 * m + (1 - beta1) * g             running mean of g
        v = beta2 * v + (1 - beta2) * g * g         running mean of g**2
        m_hat = m / (1 - beta1**t)                  bias correction: m, v start at 0
        v_hat = v / (1 - beta2**t)
        p = p - lr * m_hat / (sqrt(v_hat) + eps)

    With ``amsgrad=True``, v_hat uses the largest v seen so far. With
    ``decoupled_weight_decay=True`` (that is ``AdamW``), the first line becomes
    ``p = p - lr * weight_decay * p``. The state of
    each parameter is ``step``, ``exp_avg`` (m) and ``exp_avg_sq`` (v).
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        check_adam_arguments(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        self._check_implementation(foreach, differentiable, fused)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient. ``closure``, if
        given, re-computes and returns the loss (it runs with grad enabled)."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, eps, (beta1, beta2) = group["lr"], group["eps"], group["betas"]
            buffers = ("exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if group["amsgrad"] else ())
            state = self._state(p, *buffers)
            state["step"] += 1
            t = state["step"].item()
            if group["weight_decay"] != 0 and group["decoupled_weight_decay"]:
                p.mul_(1 - lr * group["weight_decay"])  # AdamW: shrink p itself
            elif group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            _lerp_(exp_avg, grad, 1 - beta1)  # = beta1 * m + (1 - beta1) * g
            addcmul_(exp_avg_sq.mul_(beta2), grad, grad, 1 - beta2)
            if group["amsgrad"]:
                state["max_exp_avg_sq"].copy_(minigrad.maximum(state["max_exp_avg_sq"],
                                                               exp_avg_sq))
                exp_avg_sq = state["max_exp_avg_sq"]
            bias_correction1 = 1 - beta1 ** t
            bias_correction2 = 1 - beta2 ** t
            denom = exp_avg_sq.sqrt() / bias_correction2 ** 0.5 + eps
            # (torch's addcdiv_: p + (-step_size * m) / denom, rounded so)
            p.add_(exp_avg * (-lr / bias_correction1) / denom)
        return loss


def _lerp_(start, end, weight) -> None:
    """``start.lerp_(end, weight)`` as torch's kernel rounds it: start + weight * (end -
    start) with a weight below 0.5, else end - (end - start) * (1 - weight), each a fused
    multiply-add (``add_`` with ``alpha``: see kernels.arithmetic.plus_times), 1 - weight
    taken in float32 from the weight in float32."""
    if abs(weight) < 0.5:
        start.add_(end - start, alpha=weight)
    else:
        start.copy_(end.sub(end - start, alpha=float(np.float32(1) - np.float32(weight))))
