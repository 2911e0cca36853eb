"""The activations' forward kernels (silu, elu, softplus) for arrays, as PyTorch's CPU
kernels round them: in x's dtype, with float32's exp, expm1 and log1p taken in float64
and rounded once, as the C library's float functions round them (PyTorch's scalar
path). Its vectorised path (SLEEF) differs in the last bit for a few per cent of
float32 elements."""

from __future__ import annotations

import numpy as np

__all__ = ["silu", "elu", "softplus"]


def _rounded(ufunc, x):
    """ufunc(x) in x's dtype; for float32 computed in float64 and rounded once."""
    if x.dtype == np.float32:
        return ufunc(x.astype(np.float64)).astype(np.float32)
    return ufunc(x)


def silu(x):
    """x / (1 + exp(-x))."""
    one = x.dtype.type(1)
    return x / (one + _rounded(np.exp, -x))


def elu(x, alpha, scale, input_scale):
    """scale * x where x > 0, else (exp(input_scale * x) - 1) * alpha * scale."""
    kind = x.dtype.type
    negative = _rounded(np.expm1, x * kind(input_scale)) * kind(alpha * scale)
    return np.where(x > 0, x * kind(scale), negative)


def softplus(x, beta, threshold):
    """x where beta x > threshold, else log(1 + exp(beta x)) / beta."""
    scaled = x * x.dtype.type(beta)
    soft = _rounded(np.log1p, _rounded(np.exp, scaled)) / x.dtype.type(beta)
    return np.where(scaled > threshold, x, soft)
