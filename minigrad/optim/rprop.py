"""``Rprop``: resilient backpropagation (Riedmiller & Braun, 1993): each weight moves by
its own step size, in the direction against its gradient's sign; the size grows while
the sign stays and shrinks when it flips."""

from __future__ import annotations

import minigrad

from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, addcmul_

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop, PyTorch's rule. For each parameter p with gradient g, elementwise:

        s = etaplus  if g * g_prev > 0     (the same sign: grow the step)
            etaminus if g * g_prev < 0     (the sign flipped: shrink it, skip this move)
            1        otherwise
        step_size = clamp(step_size * s, step_size_min, step_size_max)
        g = 0 where the sign flipped
        p = p - sign(g) * step_size;   g_prev = g

    The state of each parameter is ``step``, ``prev`` (g_prev) and ``step_size`` (lr at
    first). Only the gradient's sign is used, so Rprop suits full-batch training.
    """

    def __init__(self, params, lr: float = 1e-2, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        self._check_implementation(foreach, differentiable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            (etaminus, etaplus), (smallest, largest) = group["etas"], group["step_sizes"]
            state = self.state[p]
            if not state:
                state["step"] = minigrad.tensor(0.0)
                state["prev"] = minigrad.zeros_like(p)
                state["step_size"] = minigrad.full_like(grad, group["lr"])
            state["step"] += 1
            prev, step_size = state["prev"], state["step_size"]
            sign = grad.mul(prev).sign()
            sign[sign.gt(0)] = etaplus
            sign[sign.lt(0)] = etaminus
            sign[sign.eq(0)] = 1
            step_size.mul_(sign).clamp_(smallest, largest)
            grad = grad.clone()
            grad[sign.eq(etaminus)] = 0
            addcmul_(p, grad.sign(), step_size, -1)
            prev.copy_(grad)
        return loss
