"""Matrix products on arrays, rounded as PyTorch's CPU kernel rounds them."""

from __future__ import annotations

import numpy as np


def matrix_product(a, b):
    """a @ b for two matrices (arrays), as torch's CPU kernel rounds it: with an inner
    size of 1 (and more than one row and column) each element is a single product, so
    -2 * 0 stays -0. (NumPy's kernel adds it to 0: +0.)."""
    if a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1:
        return np.multiply(a, b)
    return np.matmul(a, b)


def batched_product(a, b):
    """a[i] @ b[i] for each i (arrays of 3 dims), as torch's CPU bmm rounds it: a small
    product (inner size x rows x columns < 400) is summed term after term in the
    dtype, k = 0, 1, ... (torch's baddbmm_cpu_kernel; NumPy's BLAS blocks the sum
    differently); a larger one is one matrix product per batch."""
    if a.shape[2] * a.shape[1] * b.shape[2] >= 400 or a.dtype.char not in "fd":
        return np.matmul(a, b)
    total = np.zeros(a.shape[:2] + b.shape[2:], np.result_type(a, b))
    for k in range(a.shape[2]):
        total += a[:, :, k, None] * b[:, None, k, :]
    return total


def addmm(bias, a, b, beta=1, alpha=1):
    """beta * bias + alpha * (a @ b), as torch's CPU addmm computes it: with beta 0 the
    bias is ignored, even its NaNs; with an inner size of 0 there is no product to add,
    and BLAS leaves beta * bias as it is (-0. stays -0.)."""
    product = matrix_product(a, b)
    if alpha != 1:
        product = alpha * product
    if beta == 0:
        return product
    if a.shape[1] == 0:
        return np.array(np.broadcast_to(bias if beta == 1 else beta * bias, product.shape),
                        product.dtype, order="C")
    return product + (bias if beta == 1 else beta * bias)


def cross(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
    """The cross product along ``axis`` (of length 3), as PyTorch's CPU kernel rounds it:
    in float32 each component is one fused multiply-add, a[i]*b[j] - round(a[j]*b[i])
    rounded once (the exact float32 product is a float64; the difference rounded to
    float32 gave PyTorch's bits on 30,000 random vectors); in float64 two products."""
    a, b = np.broadcast_arrays(a, b)
    first, second = np.moveaxis(a, axis, -1), np.moveaxis(b, axis, -1)
    i, j = [1, 2, 0], [2, 0, 1]
    if a.dtype == np.float32:
        exact = first[..., i].astype(np.float64) * second[..., j]
        result = (exact - (first[..., j] * second[..., i])).astype(np.float32)
    else:
        result = first[..., i] * second[..., j] - first[..., j] * second[..., i]
    return np.ascontiguousarray(np.moveaxis(result, -1, axis))


def cdist_backward(grad, x1, x2, dist, p):
    """d cdist(x1, x2) / d x1 as PyTorch's ``_cdist_backward`` kernel computes it: for
    each row i of x1, the terms of the rows j of x2 added one after another (j = 0, 1,
    ...), each term in the kernel's order of operations: p = 1: grad * sign(diff); p < 2:
    sign(diff) * |diff|**(p-1) * grad / dist**(p-1) (0 where diff = 0 if p < 1); p = 2:
    grad * diff / dist; inf: grad * sign(diff) where |diff| = dist; else diff *
    |diff|**(p-2) * grad / dist**(p-1); 0 where dist = 0, and everywhere for p = 0.
    sign(+-0.) is +0. (x2's gradient is this with x1, x2 swapped, grad and dist
    transposed, as PyTorch's derivatives.yaml writes it.) Shapes: x1 (..., P, M),
    x2 (..., R, M), grad and dist (..., P, R)."""
    batch = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2], grad.shape[:-2])
    result = np.zeros(batch + x1.shape[-2:], dtype=x1.dtype)
    if p == 0:
        return result
    kind = x1.dtype.type
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for j in range(x2.shape[-2]):
            diff = x1 - x2[..., j:j + 1, :]
            g, d = grad[..., :, j:j + 1], dist[..., :, j:j + 1]
            sign = np.sign(diff) + kind(0)  # (+0. for -0., as the kernel's ceil/floor sign)
            if p == 1:
                term = g * sign
            elif p == np.inf:
                term = g * sign * (kind(1) - np.minimum(kind(1), np.ceil(np.abs(np.abs(diff) - d))))
            elif p < 2:
                term = sign * np.abs(diff) ** kind(p - 1) * g / d ** kind(p - 1)
                term = np.where((diff == 0) & (p < 1), kind(0), term)
            elif p == 2:
                term = g * diff / d
            else:
                term = diff * np.abs(diff) ** kind(p - 2) * g / d ** kind(p - 1)
            if p != 1 and p != np.inf:
                term = np.where(d == 0, kind(0), term)
            result += term
    return result
