"""``SGD``: stochastic gradient descent, with optional momentum and weight decay."""

from __future__ import annotations

import numpy as np

from ..autograd.broadcast import has_internal_overlap
from ..autograd.grad_mode import no_grad
from ..kernels.arithmetic import plus_times
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Gradient descent, PyTorch's rule exactly. For each parameter p with gradient g:

        g = g + weight_decay * p                       (if weight_decay != 0)
        b = g                                          (first step, momentum != 0)
        b = momentum * b + (1 - dampening) * g         (later steps)
        g = g + momentum * b   if nesterov   else   g = b
        p = p - lr * g

    (``maximize=True`` uses -g, to climb instead of descend.)

    >>> import minigrad, minigrad.nn as nn
    >>> model = nn.Linear(3, 1)
    >>> opt = SGD(model.parameters(), lr=0.1, momentum=0.9)
    >>> loss = model(minigrad.ones(2, 3)).pow(2).mean()
    >>> opt.zero_grad(); loss.backward(); opt.step()
    """

    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        self._check_implementation(foreach, differentiable, fused)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient. ``closure``, if
        given, re-computes and returns the loss (it runs with grad enabled)."""
        loss = self._loss_of(closure)
        for group, p, grad in self._gradients():
            lr, momentum = group["lr"], group["momentum"]
            if group["weight_decay"] != 0:
                grad = grad.add(p, alpha=group["weight_decay"])
            if momentum != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = grad.clone()
                else:
                    buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
                grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
            _descend(p, grad, -lr)
        return loss


def _descend(p, grad, alpha) -> None:
    """``p.add_(grad, alpha=alpha)`` (under no_grad). For a parameter that is not a
    view, with a gradient of its shape and dtype in other memory, the sum is written
    straight into ``p``'s array: the numbers of the general in-place path
    (``alpha * grad``, then added to ``p``), without its temporary sum copied over
    ``p`` and without the in-place op's checks and node."""
    data, values = p._data, grad._data
    if (p._view_version is not None or type(alpha) not in (float, int)
            or data.shape != values.shape or data.dtype != values.dtype
            or data.dtype.kind != "f" or not data.flags.writeable
            or has_internal_overlap(data) or np.may_share_memory(data, values)):
        p.add_(grad, alpha=alpha)
        return
    plus_times(data, values, alpha, out=data)  # (rounded as torch's add_: see there)
    p._bump_version()
