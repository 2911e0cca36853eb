"""``Adadelta``: steps scaled by running RMS of past steps and gradients (Zeiler, 2012)."""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, addcmul_
from .sgd import _descend

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta, PyTorch's rule exactly. For each parameter p with gradient g:

        g = g + weight_decay * p                        (if weight_decay != 0)
        v = rho * v + (1 - rho) * g * g                 running mean of g**2
        delta = sqrt(u + eps) / sqrt(v + eps) * g       the step, in p's units
        u = rho * u + (1 - rho) * delta * delta         running mean of delta**2
        p = p - lr * delta

    The state of each parameter is ``step``, ``square_avg`` (v) and ``acc_delta`` (u).
    (PyTorch's MNIST example trains with ``Adadelta(lr=1.0)`` and a ``StepLR``.)
    """

    def __init__(self, params, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        self._check_implementation(foreach, differentiable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient. ``closure``, if
        given, re-computes and returns the loss (it runs with grad enabled)."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, rho, eps = group["lr"], group["rho"], group["eps"]
            state = self._state(p, "square_avg", "acc_delta")
            state["step"] += 1
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            square_avg, acc_delta = state["square_avg"], state["acc_delta"]
            addcmul_(square_avg.mul_(rho), grad, grad, 1 - rho)
            std = square_avg.add(eps).sqrt_()
            delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
            addcmul_(acc_delta.mul_(rho), delta, delta, 1 - rho)
            _descend(p, delta, -lr)  # (p.add_(delta, alpha=-lr), rounded as torch rounds it)
        return loss
