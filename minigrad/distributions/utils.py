"""Helpers the distributions share: turning numbers into tensors and broadcasting them,
logits <-> probabilities, and a property computed once (``lazy_property``)."""

from __future__ import annotations

import numbers

import minigrad

__all__ = ["broadcast_all", "logits_to_probs", "probs_to_logits", "clamp_probs",
           "lazy_property", "euler_constant", "vec_to_tril_matrix", "tril_matrix_to_vec"]

euler_constant = 0.57721566490153286060  # Euler Mascheroni Constant


def _standard_normal(shape, dtype):
    return minigrad.empty(shape, dtype=dtype).normal_()


def _sum_rightmost(value, dim: int):
    """``value`` summed over its ``dim`` rightmost dimensions."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def broadcast_all(*values):
    """The values broadcast to one shape; numbers become tensors of the first tensor's
    dtype (the default dtype if there is none)."""
    if not all(isinstance(v, (minigrad.Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    dtype = next((v.dtype for v in values if isinstance(v, minigrad.Tensor)),
                 minigrad.get_default_dtype())
    tensors = [v if isinstance(v, minigrad.Tensor) else minigrad.tensor(v, dtype=dtype)
               for v in values]
    return minigrad.broadcast_tensors(*tensors)


def logits_to_probs(logits, is_binary: bool = False):
    return minigrad.sigmoid(logits) if is_binary else minigrad.nn.functional.softmax(logits, -1)


def clamp_probs(probs):
    eps = minigrad.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary: bool = False):
    clamped = clamp_probs(probs)
    if is_binary:
        return minigrad.log(clamped) - minigrad.log1p(-clamped)
    return minigrad.log(clamped)


class lazy_property:  # noqa: N801 (PyTorch's name)
    """Computed on first use, then kept in the instance's ``__dict__`` (so that printing a
    distribution shows the parameters it has: given, or computed since)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with minigrad.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def vec_to_tril_matrix(vec, diag: int = 0):
    """A (batch of) vector(s) as the lower triangle (below ``diag``) of D x D matrices,
    filled row by row."""
    # (the positive root of D**2 + (1 + 2 diag) D - |diag| (diag + 1) - 2 len = 0)
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1]
                            + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > minigrad.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         "expressed as the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + minigrad.Size((n, n)))
    arange = minigrad.arange(n)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat


def tril_matrix_to_vec(mat, diag: int = 0):
    """The lower triangle (below ``diag``) of (a batch of) D x D matrices, row by row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = minigrad.arange(n)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    return mat[..., tril_mask]
