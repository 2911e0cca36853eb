"""Arithmetic on arrays as PyTorch's CPU kernels compute it: the same bits.

- ``multiply``, ``divide``: float16 times (or divided by) a scalar is computed in
  float32 with the scalar's own value and rounded once to half, as PyTorch does.
- ``plus_times``: float32 and float64 ``a + b * c`` rounded once (PyTorch's fused
  multiply-add).
- ``power``: ``x ** 2``, ``x ** 3``, ... by multiplication, and PyTorch's integer rule.
- ``two_products``: a big gradient times two arrays in one pass over it.
"""

from __future__ import annotations

import numpy as np

from . import fma, pointwise, threads


def power(base, exponent):
    """base ** exponent computed as torch's kernels do. For a float tensor and a
    number: 2, 3 and -2 by multiplication (``x * x * x``: as fast as two
    multiplications, and torch's exact values), 0.5 and -0.5 by ``sqrt``, -1 by
    ``reciprocal``; 0 and 1 without computing. Integers follow torch's rule for
    negative exponents (1 ** -n = 1, (-1) ** -n = +-1, anything else ** -n = 0)."""
    if isinstance(exponent, (int, float)) and isinstance(base, np.ndarray) \
            and base.dtype.kind == "f" and not isinstance(exponent, bool):
        if exponent == 0:
            return np.ones_like(base)
        if exponent == 1:
            return base.copy(order="K")  # (laid out as base, as torch's iterator: not row-major)
        if base.dtype != np.float16:  # (torch computes half powers with pow itself)
            if exponent == 2:
                return np.multiply(base, base)
            if exponent == 3:
                cube = np.multiply(base, base)
                return np.multiply(cube, base, out=_own(cube))
            if exponent == -2:
                square = np.multiply(base, base)
                return np.divide(1, square, out=_own(square))
            if exponent == 0.5:
                return pointwise.sqrt(base)
            if exponent == -0.5:
                root = pointwise.sqrt(base)
                return np.divide(1, root, out=_own(root))
            if exponent == -1:
                return np.divide(1, base)
        if base.dtype == np.float32 and base.size < threads.BIG:  # (any other power: in
            # float64, rounded once, as for a tensor exponent below; PyTorch's SLEEF pow
            # gives that value but in about 2 % of elements, where NumPy's float32 loop
            # differed in 11-20 %. A big array keeps NumPy's float32 loop on threads, as
            # exp does: an ulp apart, twice as fast)
            return _float32_power(base, exponent)
        # (a few ns per element, so a big array on threads)
        return np.power(base, exponent) if base.size < threads.BIG \
            else threads.call(np.power, base, exponent)
    base_array, exponent_array = np.asarray(base), np.asarray(exponent)
    if base_array.dtype == np.bool_ and exponent_array.dtype == np.bool_:
        return np.logical_or(base_array, np.logical_not(exponent_array))  # x**0 = 1, x**1 = x
    if base_array.dtype == np.float32 and exponent_array.dtype == np.float32:
        # (in float64, rounded once more: the correctly rounded power nearly always, on
        # every machine; NumPy's float32 loop is vectorised on AVX-512 and rounds otherwise)
        return np.power(base_array, exponent_array, dtype=np.float64).astype(np.float32)
    return _integer_power(base, exponent, base_array, exponent_array)


def _float32_power(base, exponent):
    """float32 ``base ** exponent`` computed in float64 and rounded once."""
    return np.power(base, exponent, dtype=np.float64).astype(np.float32)


def _own(array):
    """``array`` as an ``out=`` buffer; None for the NumPy scalar a 0-dim operand gives."""
    return array if isinstance(array, np.ndarray) else None


def _integer_power(base, exponent, base_array, exponent_array):
    if not (base_array.dtype.kind in "biu" and exponent_array.dtype.kind in "iu"
            and (exponent_array < 0).any()):  # (a bool base, True ** -n, is an integer's)
        return np.power(base, exponent)
    result_dtype = np.result_type(base, exponent)
    # (the negative places take the rule below; 0 there, not abs: -2**63 has none)
    safe = np.power(base_array, np.maximum(exponent_array, 0)).astype(result_dtype)
    negative_rule = np.where(base_array == 1, 1,
                             np.where(base_array == -1, np.where(exponent_array % 2, -1, 1), 0))
    return np.where(exponent_array < 0, negative_rule, safe).astype(result_dtype)


FUSED_LIMIT = 1 << 16  # (elements: see plus_times)


def plus_times(a, b, c, out=None):
    """``a + b * c`` (arrays; ``c`` a number or an array) as torch's CPU kernels compute it
    for float32: a fused multiply-add, rounded once (``p.add_(g, alpha=-lr)``, an SGD step;
    ``addcmul_``, ``lerp_``: after a cancellation the second rounding of ``a + (b * c)``
    shows in 4 digits). NumPy has no fused multiply-add, so the sum is made in float64,
    where b * c (a number taken as a float32) is exact, and rounded to float32: torch's
    bits, except where the float64 sum rounds onto a float32 halfway point (none in
    400,000 random elements). That costs about four times the plain sum, so float32
    arrays of ``FUSED_LIMIT`` elements or more are rounded twice. float64 arrays below
    ``FUSED_LIMIT`` are fused exactly by kernels.fma.fma64 (torch's bits in float64 SGD,
    Adafactor, ...), bigger ones rounded twice."""
    if type(c) in (float, int, bool):
        factor = np.float32(c)
    elif type(c) is np.ndarray and c.dtype == np.float32 and c.size < FUSED_LIMIT:
        factor = c
    else:
        factor = None
    if (factor is not None and a.dtype == np.float32 and b.dtype == np.float32
            and a.size < FUSED_LIMIT and b.size < FUSED_LIMIT):
        total = b.astype(np.float64)  # (cast, then in place: NumPy's quickest way)
        total *= factor
        if total.shape == a.shape:
            total += a
        else:  # (broadcast)
            total = total + a
        if out is None:
            return total.astype(np.float32)
        np.copyto(out, total, casting="same_kind")
        return out
    if (a.dtype == np.float64 and b.dtype == np.float64 and a.size < FUSED_LIMIT
            and b.size < FUSED_LIMIT and (type(c) in (float, int) or (
                type(c) is np.ndarray and c.dtype == np.float64 and c.size < FUSED_LIMIT))):
        total = fma.fma64(b, c, a)
        if out is None:
            return total
        np.copyto(out, total)
        return out
    return np.add(a, b * c, out=out)


def times(x, number):
    """``x * number`` (a Python number) for an array or a Tensor, float16 as above."""
    if type(x) is np.ndarray and x.dtype == np.float16:
        return np.multiply(x, np.float32(number)).astype(np.float16)
    return x * number


def divided(x, number):
    """``x / number`` (a Python number) for an array or a Tensor, float16 as above."""
    if type(x) is np.ndarray and x.dtype == np.float16:
        return np.true_divide(x, np.float32(number)).astype(np.float16)
    return x / number


def two_products(grad, other, self_, into_grad):
    """(grad * other, grad * self_) of big arrays in one pass, part after part
    (threads.parts, split=False): each part of grad is read for both products
    while it is in the cache, then (``into_grad``: grad is a new array nobody
    else holds) overwritten by the first. (In a layout threads.parts does not
    handle: one product after the other, new arrays.)"""
    grad_a = grad if into_grad else np.empty(grad.shape, grad.dtype)
    grad_b = threads.parts(_two_products_part, None, grad, self_, other, grad_a, split=False)
    if grad_b is not None:
        return grad_a, grad_b
    grad_b = grad * self_
    return grad * other, grad_b


def _two_products_part(grad_b, grad, self_, other, grad_a):
    np.multiply(grad, self_, out=grad_b)
    np.multiply(grad, other, out=grad_a)


def multiply(a, b):
    """a * b. A float16 ``a`` times a float32 scalar ``b`` (how the promotion rules hand
    PyTorch's float16-times-a-number to this kernel): the product in float32, rounded
    once to half."""
    if a.dtype is not b.dtype and a.dtype == np.float16:
        return np.multiply(a, b).astype(np.float16)
    return np.multiply(a, b)


def divide(a, b):
    """a / b, float16 as ``multiply``."""
    if a.dtype is not b.dtype and a.dtype == np.float16:
        return np.true_divide(a, b).astype(np.float16)
    return np.true_divide(a, b)


def mul_backward(saved, grad, needs: tuple, grad_is_free: bool):
    """``MulBackward0``'s two gradients, ``grad * other`` and ``grad * self``, of a big
    ``grad`` in one pass over it (``two_products``), when both are needed; None where
    this does not apply (the formula itself then runs). ``grad_is_free``: ``grad`` is a
    new array only the walk holds, overwritten by the first product."""
    if not (needs[0] and needs[1]) or type(grad) is not np.ndarray or grad.size < threads.BIG:
        return None
    return two_products(grad, saved.other, saved.self, grad_is_free)
