"""layer_norm and gelu on arrays, computed in the steps of PyTorch's CPU kernels.

layer_norm: PyTorch takes each row's mean and variance in one pass (Welford, in the
row's dtype), then y = (x * rstd + (-rstd * mean)) * weight + bias. Here the moments
are taken in float64 and rounded, the rest in the row's dtype in PyTorch's order, so
the results agree to an ulp or so (tests/nn/test_nn_layers_gpt.py measures how often
the bits agree).

gelu: x * (1 + erf(x / sqrt 2)) / 2 ('none') or x * (1 + tanh(sqrt(2 / pi) * (x +
0.044715 x**3))) / 2 ('tanh'), in float64 and rounded (NumPy has no erf: Python's
``math.erf`` per element).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["layer_norm", "gelu", "gelu_backward"]

_SQRT1_2 = 0.7071067811865476  # 1 / sqrt(2)
_BETA = 0.7978845608028654  # sqrt(2 / pi)
_KAPPA = 0.044715
_ONE_OVER_SQRT_2PI = 0.3989422804014327  # 1 / sqrt(2 pi)
_erf = np.frompyfunc(math.erf, 1, 1)


def layer_norm(x: np.ndarray, weight, bias, kept: int, eps: float):
    """(y, mean, rstd): mean and rstd with x's leading dims and 1s for the last ``kept``."""
    rows = tuple(range(x.ndim - kept, x.ndim))
    wide = x.astype(np.float64)
    mean = wide.mean(axis=rows, keepdims=True)
    var = np.square(wide - mean).mean(axis=rows, keepdims=True)
    mean, var = mean.astype(x.dtype), var.astype(x.dtype)
    rstd = (1 / np.sqrt(var + x.dtype.type(eps))).astype(x.dtype)
    y = x * rstd + (-rstd * mean)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return np.ascontiguousarray(y, dtype=x.dtype), mean, rstd


def _cdf(x: np.ndarray, approximate: str) -> np.ndarray:
    """Phi(x), the standard normal CDF, in float64 (or its tanh approximation)."""
    if approximate == "tanh":
        return 0.5 * (1 + np.tanh(_BETA * (x + _KAPPA * x * x * x)))
    return 0.5 * (1 + _erf(x * _SQRT1_2).astype(np.float64))


def gelu(x: np.ndarray, approximate: str) -> np.ndarray:
    wide = x.astype(np.float64)
    return np.asarray(wide * _cdf(wide, approximate), dtype=x.dtype)


def gelu_backward(grad: np.ndarray, x: np.ndarray, approximate: str) -> np.ndarray:
    """G * d gelu(x) / dx."""
    wide = x.astype(np.float64)
    if approximate == "tanh":
        inner = np.tanh(_BETA * (wide + _KAPPA * wide ** 3))
        slope = 0.5 * (1 + inner) + 0.5 * wide * (1 - inner * inner) * _BETA * (
            1 + 3 * _KAPPA * wide * wide)
    else:
        slope = _cdf(wide, "none") + wide * np.exp(-0.5 * wide * wide) * _ONE_OVER_SQRT_2PI
    return np.asarray(grad * slope, dtype=np.result_type(grad, x))
