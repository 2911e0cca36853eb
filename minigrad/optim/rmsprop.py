"""``RMSprop``: divide each step by a running root-mean-square of the gradient (Hinton, 2012)."""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from .adam import _lerp_
from .optimizer import Optimizer, addcmul_

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop, PyTorch's rule exactly. For each parameter p with gradient g:

        g = g + weight_decay * p                         (if weight_decay != 0)
        v = alpha * v + (1 - alpha) * g * g              running mean of g**2
        a = alpha * a + (1 - alpha) * g                  (centered only: running mean of g)
        s = sqrt(v - a * a) + eps   if centered   else   s = sqrt(v) + eps
        b = momentum * b + g / s;  p = p - lr * b        (if momentum > 0)
        p = p - lr * g / s                               (otherwise)

    The state of each parameter is ``step``, ``square_avg`` (v), and
    ``momentum_buffer`` (b) and ``grad_avg`` (a) when those options are on.
    """

    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        self._check_implementation(foreach, differentiable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient. ``closure``, if
        given, re-computes and returns the loss (it runs with grad enabled)."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, alpha, momentum = group["lr"], group["alpha"], group["momentum"]
            buffers = (("square_avg",) + (("momentum_buffer",) if momentum > 0 else ())
                       + (("grad_avg",) if group["centered"] else ()))
            state = self._state(p, *buffers)
            state["step"] += 1
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            square_avg = state["square_avg"]
            addcmul_(square_avg.mul_(alpha), grad, grad, 1 - alpha)
            if group["centered"]:
                grad_avg = state["grad_avg"]
                _lerp_(grad_avg, grad, 1 - alpha)
                avg = square_avg.clone()  # (torch's addcmul(grad_avg, grad_avg, value=-1): fused)
                addcmul_(avg, grad_avg, grad_avg, -1)
                avg = avg.sqrt()
            else:
                avg = square_avg.sqrt()
            avg = avg.add_(group["eps"])
            if momentum > 0:
                buf = state["momentum_buffer"]
                buf.mul_(momentum).add_(grad / avg)
                p.add_(buf, alpha=-lr)
            else:  # (torch's addcdiv_: p + (-lr * grad) / avg, rounded so)
                p.add_(grad * -lr / avg)
        return loss
