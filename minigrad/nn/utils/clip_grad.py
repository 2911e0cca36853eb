"""Gradient clipping, as in ``torch.nn.utils``: called between ``loss.backward()`` and
``optimizer.step()`` (in RNN and transformer training loops) so that one bad batch cannot
take a huge step."""

from __future__ import annotations

import math
import types
import warnings

import minigrad

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm"]


def _as_list(tensors) -> list:
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


@no_grad()
def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach: bool | None = None) -> Tensor:
    """The norm of all the tensors together: the norm of their norms."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return minigrad.tensor(0.0)
    total = minigrad.stack([t.norm(norm_type) for t in tensors]).norm(norm_type)
    if error_if_nonfinite and (math.isnan(total.item()) or math.isinf(total.item())):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the "
            "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


@no_grad()
def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Scale every gradient by min(1, max_norm / (total_norm + 1e-6)), in place, so that
    the gradients' total norm is at most ``max_norm``; returns the total norm before."""
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if is_generator and not parameters:
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                      stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


@no_grad()
def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor,
                          foreach: bool | None = None) -> None:
    """Scale every gradient by min(1, max_norm / (total_norm + 1e-6)), in place, for a
    ``total_norm`` computed beforehand (``get_total_norm``): clip_grad_norm_'s second half."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if grads:
        coefficient = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
        for grad in grads:
            grad.mul_(coefficient)


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """The old name of ``clip_grad_norm_`` (with PyTorch's FutureWarning)."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters, clip_value: float, foreach: bool | None = None) -> None:
    """Clamp every gradient element to [-clip_value, clip_value], in place."""
    clip_value = float(clip_value)
    for p in _as_list(parameters):
        if p.grad is not None:
            p.grad.clamp_(min=-clip_value, max=clip_value)
