"""``AdamW``: Adam with decoupled weight decay (Loshchilov & Hutter, 2019)."""

from __future__ import annotations

from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """Adam whose weight decay shrinks the parameter directly instead of
    being added to the gradient (so it is not rescaled by Adam's step size):

        p = p - lr * weight_decay * p               before Adam's update
        (then Adam's rule with weight_decay = 0)

    PyTorch's defaults: the same as Adam's, but ``weight_decay=1e-2``.
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize,
                         foreach=foreach, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True)
