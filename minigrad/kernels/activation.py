"""The activations' forward kernels (silu, elu, softplus) for arrays, as PyTorch's CPU
kernels round them: in x's dtype, with float32's exp, expm1 and log1p taken in float64
and rounded once, as the C library's float functions round them (PyTorch's scalar
path). Its vectorised path (SLEEF) differs in the last bit for a few per cent of
float32 elements. The backward kernels likewise (and fuse the multiply-add PyTorch's
compiler fuses in ``silu``'s).""" 

from __future__ import annotations

import numpy as np

from .fma import fma32, fma64
from .pointwise import clamp, sigmoid
from .special import half_in_float32

__all__ = ["glu", "glu_backward", "leaky_relu", "hardtanh", "silu", "elu", "softplus", "mish", "hardswish",
           "hardsigmoid", "threshold", "silu_backward", "elu_backward", "softplus_backward",
           "leaky_relu_backward", "hardswish_backward", "hardsigmoid_backward", "hardshrink",
           "softshrink", "shrink_backward"]


def _rounded(ufunc, x):
    """ufunc(x) in x's dtype; for float32 computed in float64 and rounded once."""
    if x.dtype == np.float32:
        return ufunc(x.astype(np.float64)).astype(np.float32)
    return ufunc(x)


def _opmath(x):
    """x as PyTorch's kernels compute it: float16 in float32 (rounded once at the end,
    by the caller), other dtypes as they are."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


def leaky_relu(x, negative_slope):
    """x where x > 0, else x * negative_slope (the slope in x's dtype; float16's product
    in float32, rounded once)."""
    wide = _opmath(x)
    return np.where(x > 0, x, (wide * wide.dtype.type(negative_slope)).astype(x.dtype))


def leaky_relu_backward(grad, x, negative_slope):
    """grad where x > 0, else grad * negative_slope (float16's in float32)."""
    wide = _opmath(grad)
    return np.where(x > 0, grad, (wide * wide.dtype.type(negative_slope)).astype(grad.dtype))


def hardtanh(x, min_val, max_val):
    """x clamped to [min_val, max_val] (the bounds in x's dtype): torch's clamp, so on a
    tie x stays (relu6(-0.) is -0.; NumPy's maximum would give +0) and a NaN bound
    gives NaN."""
    return clamp(x, x.dtype.type(min_val), x.dtype.type(max_val))


def hardtanh_backward(grad, x, min_val, max_val):
    """grad where min_val < x < max_val (a NaN x too), else 0: hardtanh's derivative."""
    return np.where((x <= min_val) | (x >= max_val), grad.dtype.type(0), grad)


@half_in_float32  # (a half's in float32, rounded once, as PyTorch's kernel)
def silu(x):
    """x / (1 + exp(-x))."""
    one = x.dtype.type(1)
    return x / (one + _rounded(np.exp, -x))


@half_in_float32  # (a half's in float32, rounded once, as PyTorch's kernel)
def elu(x, alpha, scale, input_scale):
    """scale * x where x > 0, else (exp(input_scale * x) - 1) * alpha * scale."""
    kind = x.dtype.type
    negative = _rounded(np.expm1, x * kind(input_scale)) * kind(alpha * scale)
    return np.where(x > 0, x * kind(scale), negative)


@half_in_float32
def softplus(x, beta, threshold):
    """x where beta x > threshold, else log(1 + exp(beta x)) / beta."""
    scaled = x * x.dtype.type(beta)
    soft = _rounded(np.log1p, _rounded(np.exp, scaled)) / x.dtype.type(beta)
    return np.where(scaled > threshold, x, soft)


@half_in_float32  # (a half's in float32, rounded once, as PyTorch's kernel)
def silu_backward(grad, x):
    """grad * s * (1 + x (1 - s)), s = sigmoid(x); the 1 + x (1 - s) fused (as PyTorch's
    compiled kernel)."""
    one = x.dtype.type(1)
    sigmoid = one / (one + _rounded(np.exp, -x))
    inner = _fused(x, one - sigmoid, np.ones_like(x))
    return grad * sigmoid * inner


@half_in_float32  # (a half's in float32, rounded once, as PyTorch's kernel)
def elu_backward(grad, x, alpha, scale, input_scale):
    """grad * input_scale * alpha * scale * exp(input_scale * x) where x <= 0, else
    grad * scale (each factor in x's dtype, multiplied left to right)."""
    kind = x.dtype.type
    negative = grad * kind(input_scale) * kind(alpha * scale) * _rounded(np.exp, x * kind(input_scale))
    return np.where(x <= 0, negative, grad * kind(scale))


def elu_backward_of_result(grad, y, alpha, scale, input_scale):
    """elu_'s derivative read from its result y: grad * input_scale * (y + alpha * scale)
    where y <= 0 (a NaN takes the linear piece, as torch's test), else grad * scale."""
    return np.where(y <= 0, grad * input_scale * (y + alpha * scale), grad * scale)


@half_in_float32
def softplus_backward(grad, x, beta, threshold):
    """grad * z / (z + 1), z = exp(beta x); grad itself where beta x > threshold."""
    scaled = x * x.dtype.type(beta)
    z = _rounded(np.exp, scaled)
    return np.where(scaled > threshold, grad, grad * z / (z + x.dtype.type(1)))


def _fused(a, b, c):
    return fma32(a, b, c) if a.dtype == np.float32 else fma64(a, b, c)


def mish(x):
    """x * tanh(log(1 + exp(x))) (float16's in float32, rounded once)."""
    wide = _opmath(x)
    return (wide * _rounded(np.tanh, _rounded(np.log1p, _rounded(np.exp, wide)))).astype(
        x.dtype, copy=False)


def mish_backward(grad, x):
    """grad * (t + x * s * (1 - t * t)), t = tanh(softplus(x)), s = sigmoid(x) (float16's
    in float32, rounded once)."""
    wide, dy = _opmath(x), _opmath(grad)
    one = wide.dtype.type(1)
    t = _rounded(np.tanh, _rounded(np.log1p, _rounded(np.exp, wide)))
    s = one / (one + _rounded(np.exp, -wide))
    return (dy * (t + wide * s * (one - t * t))).astype(x.dtype, copy=False)


def hardswish(x):
    """x * min(max(x + 3, 0), 6) / 6 (float16's in float32, rounded once)."""
    wide = _opmath(x)
    kind = wide.dtype.type
    return (wide * np.minimum(np.maximum(wide + kind(3), kind(0)), kind(6)) / kind(6)).astype(
        x.dtype, copy=False)


def hardswish_backward(grad, x):
    """0 where x <= -3, grad * (x / 3 + 1/2) where x < 3, else grad (float16's in
    float32, rounded once: PyTorch's hardswish_backward)."""
    g, wide = _opmath(grad), _opmath(x)
    kind = wide.dtype.type
    inner = (g * (wide / kind(3) + kind(0.5))).astype(grad.dtype)
    return np.where(x <= -3, grad.dtype.type(0), np.where(x < 3, inner, grad))


# PyTorch's hardsigmoid_backward multiplies by the float literal 1.0f / 6.0f, in every
# dtype: in float64 too, the slope is float32's 1/6 (0.1666666716337204).
ONE_SIXTH = float(np.float32(1 / 6))


def hardsigmoid(x):
    """min(max(x + 3, 0), 6) / 6 (float16's in float32, rounded once)."""
    wide = _opmath(x)
    kind = wide.dtype.type
    return (np.minimum(np.maximum(wide + kind(3), kind(0)), kind(6)) / kind(6)).astype(
        x.dtype, copy=False)


def hardsigmoid_backward(grad, x):
    """grad * 1/6 (float32's 1/6, in every dtype) where -3 < x < 3, else 0 (float16's
    product in float32, rounded once)."""
    g = _opmath(grad)
    inner = (g * g.dtype.type(ONE_SIXTH)).astype(grad.dtype)
    return np.where((x > -3) & (x < 3), inner, grad.dtype.type(0))


def threshold(x, threshold, value):
    """x where x > threshold, else value."""
    return np.where(x <= threshold, x.dtype.type(value), x)


def hardshrink(x, lambd):
    """x outside [-lambd, lambd], else 0 (+0.; a NaN stays)."""
    kind = x.dtype.type
    inside = (x >= kind(-lambd)) & (x <= kind(lambd))
    return np.where(inside, kind(0), x)


def softshrink(x, lambd):
    """x - lambd above lambd, x + lambd below -lambd, else x * 0 (a signed zero; a NaN
    stays), as PyTorch's kernel writes it."""
    kind = x.dtype.type
    bound = kind(lambd)
    return np.where(x > bound, x - bound, np.where(x < -bound, x + bound, x * kind(0)))


def shrink_backward(grad, x, lambd):
    """grad outside [-lambd, lambd] (a NaN x too), else 0: both shrinks' derivative."""
    kind = x.dtype.type
    inside = (x >= kind(-lambd)) & (x <= kind(lambd))
    return np.where(inside, kind(0), grad)


@half_in_float32
def glu(x: np.ndarray, dim: int) -> np.ndarray:
    """a * sigmoid(b), a and b the halves of x along ``dim`` (PyTorch's a * (1 / (1 +
    exp(-b))))."""
    a, b = np.split(x, 2, axis=dim)
    return a * sigmoid(b)


def glu_backward(grad: np.ndarray, x: np.ndarray, dim: int) -> np.ndarray:
    """The two halves' gradients side by side: G sigmoid(b) for a, G a sigmoid(b) (1 -
    sigmoid(b)) for b."""
    a, b = np.split(x, 2, axis=dim)
    s = sigmoid(b)
    one = x.dtype.type(1)
    return np.concatenate([s * grad, (one - s) * s * a * grad], axis=dim)
