"""``ASGD``: averaged stochastic gradient descent (Polyak & Juditsky, 1992): SGD whose
step size decays, and a running average ``ax`` of the parameters, taken from step
``t0`` on."""

from __future__ import annotations

import minigrad

from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD, PyTorch's rule. For each parameter p with gradient g, at step t:

        g = g + weight_decay * p                        (if weight_decay != 0)
        p = p * (1 - lambd * eta) - eta * g             (decay, then an SGD step)
        ax = ax + mu * (p - ax)                         (ax = p while mu is 1)
        eta = lr / (1 + lambd * lr * t) ** alpha        the next step's size
        mu = 1 / max(1, t - t0)                         the next average's weight

    The state of each parameter is ``step``, ``eta``, ``mu`` (float32 numbers, as
    PyTorch keeps them) and ``ax``, the average a model is evaluated with.
    """

    def __init__(self, params, lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach: bool | None = None,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        self._check_implementation(foreach, differentiable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            state = self.state[p]
            if not state:
                state["step"] = minigrad.tensor(0.0)
                state["eta"] = minigrad.tensor(float(lr))
                state["mu"] = minigrad.tensor(1.0)
                state["ax"] = minigrad.zeros_like(p)
            state["step"] += 1
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            eta, mu, ax = state["eta"].item(), state["mu"], state["ax"]
            p.mul_(1 - lambd * eta)
            p.add_(grad, alpha=-eta)
            if mu.item() != 1:
                ax.add_(p.sub(ax).mul_(mu))
            else:
                ax.copy_(p)
            step = state["step"].item()
            state["eta"].copy_(minigrad.tensor(lr / ((1 + lambd * lr * step) ** alpha)))
            state["mu"].copy_(minigrad.tensor(1 / max(1, step - t0)))
        return loss
