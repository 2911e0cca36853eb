"""``Adafactor``: Adam-like steps with a factored second moment (Shazeer & Stern, 2018)."""

from __future__ import annotations

import minigrad

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor
from .optimizer import Optimizer

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    """Adafactor, PyTorch's rule. For each parameter p with gradient g, at step t:

        beta2_hat = 1 - t ** beta2_decay;    rho = min(lr, 1 / sqrt(t))
        alpha = max(eps2, RMS(p)) * rho      the step is relative to p's size
        p = p - lr * weight_decay * p        (decoupled weight decay)
        for a matrix (or a stack of them), two running means of g*g instead of one:
            R = lerp(R, mean of g*g over the last dim, 1 - beta2_hat)    a column of rows
            C = lerp(C, mean of g*g over the dim before, 1 - beta2_hat)  a row of columns
            V = R @ C / max(mean(R), eps1)
        for a vector: V = lerp(V, g*g, 1 - beta2_hat)
        U = g / sqrt(max(V, eps1**2));    p = p - alpha * U / max(1, RMS(U) / d)

    ``eps1`` None means the parameter dtype's machine epsilon. The state of each
    parameter is ``step`` and ``row_var`` and ``col_var`` (2-D and more) or ``variance``.
    """

    def __init__(self, params, lr: float | Tensor = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0,
                 weight_decay: float = 0.0, *, foreach: bool | None = None,
                 maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d,
                        weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient."""
        loss = self._loss_of(closure)
        for group in self.param_groups:
            eps1 = group["eps"][0]
            if eps1 is None and group["foreach"]:  # (torch: the first parameter's dtype)
                eps1 = _first_epsilon(group)
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.is_complex():
                    raise RuntimeError("Adafactor does not support complex parameters")
                if eps1 is None:  # (torch keeps it for the group's later parameters)
                    eps1 = minigrad.finfo(p.dtype).eps
                self._update(group, p, eps1)
        return loss

    def _update(self, group, p, eps1: float) -> None:
        """One parameter's step (PyTorch's _single_tensor_adafactor, in its order)."""
        lr, d = float(group["lr"]), group["d"]
        grad = -p.grad if group["maximize"] else p.grad
        state = self._factored_state(p)
        state["step"] += 1
        t = state["step"].item()
        one_minus_beta2 = t ** group["beta2_decay"]
        rho = min(lr, 1 / (t ** 0.5))
        alpha = max(group["eps"][1], p.norm(2).item() / (p.numel() ** 0.5)) * rho
        if group["weight_decay"] != 0:
            p.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(minigrad.norm(grad, dim=-1, keepdim=True).square_()
                          .div_(grad.size(-1)), one_minus_beta2)
            col_var.lerp_(minigrad.norm(grad, dim=-2, keepdim=True).square_()
                          .div_(grad.size(-2)), one_minus_beta2)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state["variance"].lerp_(grad * grad, one_minus_beta2)
            var_estimate = state["variance"].clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_().mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        if group["foreach"]:  # (torch's _foreach_mul_ then _foreach_add_: two roundings)
            p.add_(update.mul_(-alpha / denom))
        else:
            p.add_(update, alpha=-alpha / denom)

    def _factored_state(self, p) -> dict:
        """``p``'s state, made on its first step: ``step``, then ``row_var`` (the last dim
        reduced to 1) and ``col_var`` (the one before it) for 2-D and more, else
        ``variance`` shaped like p."""
        state = self.state[p]
        if not state:
            state["step"] = minigrad.tensor(0.0)
            if p.grad.dim() > 1:
                state["row_var"] = p.grad.new_zeros(p.grad.shape[:-1] + (1,))
                state["col_var"] = p.grad.new_zeros(p.grad.shape[:-2] + (1,) + p.grad.shape[-1:])
            else:
                state["variance"] = minigrad.zeros_like(p.grad)
        return state


def _first_epsilon(group) -> float | None:
    """The machine epsilon of the group's first parameter with a gradient (torch's foreach
    path takes it from the first dtype group)."""
    for p in group["params"]:
        if p.grad is not None:
            return minigrad.finfo(p.dtype).eps
    return None
