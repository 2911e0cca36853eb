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


# ---- torch.linalg: NumPy's LAPACK (OpenBLAS) where PyTorch calls MKL's ------------------
# The same LAPACK routines (getrf, gesdd, geqrf, syevd, potrf), so the same algorithms;
# the last bits may differ (README: how close, measured).


def vector_norm(x, ord, axes, keepdim):
    """(sum |x_i|**ord)**(1/ord) over ``axes`` (every axis for None); ord inf and -inf
    are the largest and smallest |x_i|, ord 0 counts the nonzeros."""
    magnitude = np.abs(x)
    if ord == float("inf"):
        result = np.max(magnitude, axis=axes, keepdims=keepdim, initial=0)
    elif ord == -float("inf"):
        result = np.min(magnitude, axis=axes, keepdims=keepdim)
    elif ord == 0:
        result = np.sum(magnitude != 0, axis=axes, keepdims=keepdim)
    elif ord == 2:
        result = np.sqrt(np.sum(magnitude * magnitude, axis=axes, keepdims=keepdim))
    else:
        result = np.sum(magnitude ** ord, axis=axes, keepdims=keepdim) ** (1.0 / ord)
    return np.asarray(result, dtype=x.dtype)


def lu_info(a):
    """LAPACK getrf's ``info`` for each matrix of ``a`` (int32, batch shape): 0, or the
    1-based index of the first exactly zero pivot of U (a singular matrix). Singular
    matrices are found by getrf itself (NumPy's slogdet: sign 0); the index by an LU with
    partial pivoting, as getrf pivots."""
    sign = np.asarray(np.linalg.slogdet(a)[0] if a.shape[-1] else np.ones(a.shape[:-2]))
    info = np.zeros(a.shape[:-2], np.int32)
    for index in np.ndindex(*sign.shape):
        if sign[index] != 0:
            continue
        lu = np.array(a[index], np.float64 if a.dtype == np.float64 else np.float32)
        for k in range(lu.shape[0]):
            pivot = k + int(np.argmax(np.abs(lu[k:, k])))
            lu[[k, pivot]] = lu[[pivot, k]]
            if lu[k, k] == 0:
                info[index] = k + 1
                break
            lu[k + 1:, k] /= lu[k, k]
            lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
        else:
            info[index] = lu.shape[0]
    return info


def inverse(a, info):
    """A^{-1} for each matrix; a singular one (``info`` > 0) gives infinities, as getri."""
    if not info.any():
        return np.linalg.inv(a)
    result = np.empty_like(a)
    for index in np.ndindex(*a.shape[:-2]):
        result[index] = np.linalg.inv(a[index]) if info[index] == 0 else np.inf
    return result


def solve(a, b, vector):
    """X with A X = B, batched with broadcasting (``vector``: B is one vector per A)."""
    if vector:
        return np.linalg.solve(a, b[..., None])[..., 0]
    return np.linalg.solve(a, b)


def det(a):
    """The determinant, from getrf's LU (as torch: the product of U's diagonal, signed)."""
    return np.asarray(np.linalg.det(a), a.dtype)


def slogdet(a):
    sign, logabsdet = np.linalg.slogdet(a)
    return np.asarray(sign, a.dtype), np.asarray(logabsdet, a.dtype)


def cofactor(a, det):
    """d det(A) / dA = det(A) A^{-T}, the cofactor matrix; for a singular A (det 0) from
    the SVD, U diag(prod of the other singular values) Vh times det(U) det(Vh)."""
    singular = np.asarray(det) == 0
    if not singular.any():
        return det[..., None, None] * np.swapaxes(np.linalg.inv(a), -1, -2)
    u, s, vh = np.linalg.svd(a)
    others = np.stack([np.prod(np.delete(s, k, axis=-1), axis=-1)
                       for k in range(s.shape[-1])], axis=-1)
    signs = np.linalg.det(u) * np.linalg.det(vh)
    return (signs[..., None, None] * (u * others[..., None, :])) @ vh


def svd(a, full_matrices):
    """U, S, Vh from LAPACK's gesdd (torch's default driver on the CPU)."""
    return np.linalg.svd(a, full_matrices=full_matrices)


def qr(a, mode):
    """Q, R from LAPACK's geqrf and orgqr; mode 'r' gives an empty Q, as torch."""
    if mode == "r":
        return np.zeros(0, a.dtype), np.linalg.qr(a, mode="r")
    return np.linalg.qr(a, mode=mode)


def eigh(a, uplo):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix, from its ``uplo``
    triangle (LAPACK's syevd)."""
    return np.linalg.eigh(a, UPLO=uplo)


def cholesky_info(a):
    """potrf's ``info`` for each matrix: 0, or the order of the first leading minor that
    is not positive-definite."""
    info = np.zeros(a.shape[:-2], np.int32)
    for index in np.ndindex(*a.shape[:-2]):
        for k in range(1, a.shape[-1] + 1):
            if not _positive_definite(a[index][:k, :k]):
                info[index] = k
                break
    return info


def _positive_definite(a) -> bool:
    try:
        np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        return False
    return True


def cholesky(a, upper):
    lower = np.linalg.cholesky(a)
    return np.conj(np.swapaxes(lower, -1, -2)) if upper else lower


def pinv(a, atol, rtol, hermitian):
    """The pseudo-inverse from the SVD, singular values at most max(atol, rtol * the
    largest) dropped (torch's rule: rtol defaults to eps * max(m, n) when atol is not
    given, else to 0)."""
    if rtol is None:
        rtol = np.finfo(a.dtype).eps * max(a.shape[-2:]) if atol is None or atol == 0 else 0.0
    u, s, vh = np.linalg.svd(a, full_matrices=False, hermitian=hermitian)
    largest = np.max(s, axis=-1, keepdims=True, initial=0)
    cutoff = np.maximum(atol or 0.0, rtol * largest)
    kept = np.where(s > cutoff, 1 / np.where(s > cutoff, s, 1), 0).astype(a.dtype)
    return np.swapaxes(vh, -1, -2) @ (kept[..., None] * np.swapaxes(u, -1, -2))


def lstsq(a, b, rcond):
    """The least-squares solution of A X = B (batched) and A's rank (torch's default
    driver, gelsy, on the CPU: a rank-revealing QR; here gelsd's SVD, the same
    solution for a matrix of full rank)."""
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = np.broadcast_to(a, shape + a.shape[-2:]), np.broadcast_to(b, shape + b.shape[-2:])
    solution = np.empty(shape + (a.shape[-1], b.shape[-1]), a.dtype)
    rank = np.empty(shape, np.int64)
    if rcond is None:
        rcond = np.finfo(a.dtype).eps * max(a.shape[-2:])
    for index in np.ndindex(*shape):
        solution[index], _, rank[index], _ = np.linalg.lstsq(a[index], b[index], rcond=rcond)
    return solution, rank
