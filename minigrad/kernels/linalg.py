"""Matrix products on arrays, rounded as PyTorch's CPU kernel rounds them."""

from __future__ import annotations

import numpy as np

from . import fma, vec
from .layout import new_layout
from .special import half_in_float32


def matrix_product(a, b, mkl=True):
    """a @ b for two matrices (arrays), as torch's CPU kernel (MKL's gemm) rounds it:
    with an inner size of 1 (and more than one row and column) each element is a single
    product, so -2 * 0 stays -0. (NumPy's kernel adds it to 0: +0.); a small product
    (``small_gemm``) is added up term by term (not ``mkl``: a half's, in float32). An
    empty product is laid out row-major, as torch's (NumPy's has strides of 0)."""
    if a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1 and a.dtype.char in "fd":
        return new_layout(np.multiply(a, b))  # (a half's kernel adds the product to +0)
    if mkl and small_gemm(a, b):
        # (from +0, as MKL: a sum of -0 products is +0)
        return new_layout(_terms(a[:, 1:], b[1:], a[:, 0, None] * b[0] + a.dtype.type(0)))
    return new_layout(np.matmul(a, b))


def small_gemm(a, b) -> bool:
    """Whether MKL's gemm (torch 2.13's CPU kernel for float32 and float64) adds a @ b up
    term by term from +0, k = 0, 1, ..., each product rounded (no fused multiply-add, where
    NumPy's BLAS fuses them: 25 % of a float32 200 x 2 @ 2 x 8 product differs in the
    last bit): an inner size of 2 or 3 with at most 3 rows or at most 11 columns
    (measured, every layout of the operands; at 4 rows and 12 columns or more, float32,
    MKL fuses as NumPy does; its larger blockings are not reproduced here)."""
    rows, inner = a.shape
    return 1 < inner < 4 and (rows < 4 or b.shape[1] < 12) and a.dtype.char in "fd"


def matrix_vector(a, v):
    """a @ v for a matrix and a vector, as torch's CPU mv (MKL's gemv) rounds it: with an
    inner size of 2 to 4 (float32, float64), the products added one after the other,
    k = 0, 1, ... from +0, unfused, whatever a's layout (measured up to 5,000 rows; NumPy's BLAS
    fuses them). (Larger inner sizes: NumPy's; MKL's differ in the last bits.)"""
    if 1 < len(v) < 5 and a.dtype.char in "fd":
        total = a[:, 0] * v[0] + a.dtype.type(0)  # (from +0: -0 products give +0)
        for k in range(1, len(v)):
            total = total + a[:, k] * v[k]
        return new_layout(total)
    return new_layout(np.matmul(a, v))


def _terms(a, b, total):
    """total + a[:, 0] b[0] + a[:, 1] b[1] + ..., added one after the other."""
    for k in range(len(b)):
        total = total + a[:, k, None] * b[k]
    return total


def _mkl_columns_first(a, b) -> bool:
    """Whether torch's addmm hands MKL's gemm a first matrix that is not transposed (MKL
    then adds each product into C, where for a transposed one it adds up the products
    and then scales and adds C): torch computes the row-major result as its transpose,
    b^T a^T, so the first matrix is b, unless the result has one column (then it is a);
    an operand in neither layout is copied to the layout torch picks (addmm_impl_cpu_);
    measured, a 1 x 1 result as a row-major one."""
    size = a.itemsize
    if b.shape[1] == 1 and len(a) > 1:  # (a one-column result is column-major already:
        # C = a @ b; a 1 x 1 result, measured, goes as the others)
        return a.strides[0] == size and a.strides[1] >= max(1, a.shape[0]) * size
    if b.strides[1] == size and b.strides[0] >= max(1, b.shape[1]) * size:
        return True
    return not (b.strides[0] == size and b.strides[1] >= max(1, b.shape[0]) * size)


def batched_product(a, b):
    """a[i] @ b[i] for each i (arrays of 3 dims), as torch's CPU bmm rounds it: a small
    product (inner size x rows x columns < 400) is summed term after term in the
    dtype, k = 0, 1, ... (torch's baddbmm_cpu_kernel; NumPy's BLAS blocks the sum
    differently); a larger one is one matrix product per batch."""
    if a.shape[2] * a.shape[1] * b.shape[2] >= 400 or a.dtype.char not in "fd":
        return new_layout(np.matmul(a, b))
    total = np.zeros(a.shape[:2] + b.shape[2:], np.result_type(a, b))
    for k in range(a.shape[2]):
        total += a[:, :, k, None] * b[:, None, k, :]
    return new_layout(total)


def addmm(bias, a, b, beta=1, alpha=1):
    """beta * bias + alpha * (a @ b), as torch's CPU addmm computes it: a small product
    (``small_gemm``) handed to MKL untransposed first (``_mkl_columns_first``) starts
    from beta * bias and adds each product in, alpha times the second matrix's element
    (MKL's; torch's a when the result has several columns) times the first's."""
    if small_gemm(a, b) and beta != 0 and _mkl_columns_first(a, b):
        first = np.broadcast_to(bias if beta == 1 else beta * bias, (len(a), b.shape[1]))
        if alpha == 1:
            return new_layout(_terms(a, b, first))
        one_column = b.shape[1] == 1 and len(a) > 1
        return new_layout(_terms(a, alpha * b, first) if one_column
                          else _terms(alpha * a, b, first))
    return new_layout(_scaled_product(bias, a, b, beta, alpha, mkl=a.dtype != np.float16))


@half_in_float32  # (half: the product and the sum in float32, rounded once)
def _scaled_product(bias, a, b, beta, alpha, mkl):
    """beta * bias + alpha * (a @ b), the product first: with beta 0 the bias is ignored,
    even its NaNs; with an inner size of 0 there is no product to add, and BLAS leaves
    beta * bias as it is (-0. stays -0.). (``mkl``: not a half's product.)"""
    product = matrix_product(a, b, mkl)
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
    each component is one fused multiply-add, a[i]*b[j] - round(a[j]*b[i]) rounded once.
    float32: the exact product is a float64, and the difference rounded to float32 gave
    PyTorch's bits on 30,000 random vectors; float64: ``fma.fma64`` (PyTorch's bits on
    30,000 random vectors, where two rounded products agreed on 76 %; a vector crossed
    with a multiple of itself is the products' rounding error, not 0, in both)."""
    a, b = np.broadcast_arrays(a, b)
    first, second = np.moveaxis(a, axis, -1), np.moveaxis(b, axis, -1)
    i, j = [1, 2, 0], [2, 0, 1]
    if a.dtype == np.float32:
        exact = first[..., i].astype(np.float64) * second[..., j]
        result = (exact - (first[..., j] * second[..., i])).astype(np.float32)
    elif a.dtype == np.float64:
        result = fma.fma64(first[..., i], second[..., j], -(first[..., j] * second[..., i]))
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
    for j in range(x2.shape[-2]):
        result += distance_terms(x1 - x2[..., j:j + 1, :], grad[..., :, j:j + 1],
                                 dist[..., :, j:j + 1], p)
    return result


def distance_terms(diff, grad, dist, p: float) -> np.ndarray:
    """The gradient of one distance with respect to its first row, in the distance
    kernels' order of operations (``diff`` = row - other row; see ``cdist_backward``)."""
    kind = diff.dtype.type
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sign = np.sign(diff) + kind(0)  # (+0. for -0., as the kernel's ceil/floor sign)
        if p == 1:
            return grad * sign
        if p == np.inf:
            return grad * sign * (kind(1) - np.minimum(kind(1),
                                                      np.ceil(np.abs(np.abs(diff) - dist))))
        if p < 2:
            term = sign * np.abs(diff) ** kind(p - 1) * grad / dist ** kind(p - 1)
            term = np.where((diff == 0) & (p < 1), kind(0), term)
        elif p == 2:
            term = grad * diff / dist
        else:
            term = diff * np.abs(diff) ** kind(p - 2) * grad / dist ** kind(p - 1)
        return np.where(dist == 0, kind(0), term)


def pdist(x: np.ndarray, p: float) -> np.ndarray:
    """The distance of each pair of rows i < j of x (n, m), in PyTorch's order of pairs
    (i = 0: j = 1, 2, ...; then i = 1, ...), each summed as its kernel sums it: the
    terms |x_i - x_j|^p in vector lanes (``vec.reduce_rows``), then the root."""
    first, second = np.triu_indices(len(x), 1)
    size = np.abs(x[first] - x[second])
    kind = x.dtype.type
    with np.errstate(over="ignore", invalid="ignore"):
        if p == 0:
            return vec.reduce_rows(np.minimum(np.ceil(size), kind(1)))
        if p == np.inf:
            return vec.reduce_rows(size, np.maximum)
        if p == 1:
            return vec.reduce_rows(size)
        if p == 2:
            return np.sqrt(vec.reduce_rows(size * size))
        # (the root: C++'s std::pow(agg, 1.0 / p) takes a double, so float32 is raised in
        # float64 and rounded)
        return (vec.reduce_rows(size ** kind(p)).astype(np.float64) ** (1 / p)).astype(kind)


def pdist_backward(grad: np.ndarray, x: np.ndarray, p: float, dist: np.ndarray):
    """d pdist(x) / d x as PyTorch's ``_pdist_backward`` kernel adds it up: for each row
    i in turn, the term of each later row j (``cdist_backward``'s terms) added to row i
    one after another, and subtracted from row j."""
    n = len(x)
    result = np.zeros_like(x)
    if p == 0 or n < 2:
        return result
    start = 0
    for i in range(n - 1):
        pairs = slice(start, start + n - 1 - i)
        terms = distance_terms(x[i] - x[i + 1:], grad[pairs, None], dist[pairs, None], p)
        result[i] = np.cumsum(np.concatenate([result[i:i + 1], terms]), axis=0)[-1]
        result[i + 1:] -= terms
        start = pairs.stop
    return result


# ---- torch.linalg: NumPy's LAPACK (OpenBLAS) where PyTorch calls MKL's ------------------
# The same LAPACK routines (getrf, gesdd, geqrf, syevd, potrf), so the same algorithms;
# the last bits may differ (README: how close, measured).


def dot(a, b):
    """The dot product of two vectors as BLAS's dot adds it up, from +0 (a sum of -0
    products is +0, where NumPy's is -0)."""
    return np.asarray(np.dot(a, b) + a.dtype.type(0))


def vector_norm(x, ord, axes, keepdim, over_a_dim: bool = False):
    """(sum |x_i|**ord)**(1/ord) over ``axes`` (every axis for None); ord inf and -inf
    are the largest and smallest |x_i|, ord 0 counts the nonzeros; a half's in float32,
    rounded once, as PyTorch accumulates it. ``over_a_dim``: a dim was given (not None,
    not empty), which matters for a 0-dim x only (see below)."""
    if x.dtype == np.float16 and ord == 2:
        return np.sqrt(two_norm_squared(x, axes, keepdim)).astype(np.float16)
    if x.dtype == np.float16:
        return vector_norm(x.astype(np.float32), ord, axes, keepdim,
                           over_a_dim).astype(np.float16)
    magnitude = np.abs(x)
    reduced = x.size if axes is None else int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    if reduced == 1 and ord != 0 and not (over_a_dim and x.ndim == 0):
        # (one element per norm: PyTorch gives |x| itself, so no square overflows and no
        # power rounds; but a 0-dim x reduced over a dim given goes through its kernel,
        # which raises |x| to ord and the sum to 1 / ord)
        result = np.sum(magnitude, axis=axes, keepdims=keepdim)
    elif ord == float("inf"):
        result = np.max(magnitude, axis=axes, keepdims=keepdim, initial=0)
    elif ord == -float("inf"):
        result = np.min(magnitude, axis=axes, keepdims=keepdim)
    elif ord == 0:
        result = np.sum(magnitude != 0, axis=axes, keepdims=keepdim)
    elif ord == 2:
        result = np.sqrt(two_norm_squared(x, axes, keepdim))
    else:
        result = np.sum(magnitude ** ord, axis=axes, keepdims=keepdim) ** (1.0 / ord)
    return np.asarray(result, dtype=x.dtype)


def two_norm_squared(x, axes, keepdim):
    """The sum of the squares of x over ``axes`` (every axis for None), added as
    PyTorch's CPU norm kernel adds them (its bits):

    - float32 and float64 reduced over a run of contiguous elements (every axis, or the
      last ones): 32-byte vectors of squares added lane by lane (8 floats, 4 doubles; a
      product then a sum, not fused), the lanes added one after the other, then the
      elements left over: in fours, each square rounded and added, the last ones (fewer
      than four) added with a fused multiply-add each (as the compiler built that loop);
    - otherwise (other axes, float16 in float32): each square rounded and added, one
      element after the other."""
    every = tuple(range(x.ndim)) if axes is None else tuple(a % x.ndim for a in axes)
    fast = x.dtype.char in "fd" and _runs_in_memory(x, every)
    rows, shape = _reduced_rows(x.astype(np.float32) if x.dtype == np.float16 else x, every)
    if rows.shape[-1] == 0:
        total = np.zeros(len(rows), rows.dtype)
    elif fast:
        total = _lane_squares(rows)
    else:
        total = np.cumsum(rows * rows, axis=-1)[..., -1]
    if keepdim:
        shape = tuple(1 if a in every else n for a, n in enumerate(x.shape))
    return total.reshape(shape)


def _reduced_rows(x, every):
    """x as rows, each row the elements reduced into one output in the order PyTorch's
    iterator walks them (memory order: the smallest stride last), and the outputs' shape."""
    kept = [a for a in range(x.ndim) if a not in every]
    moved = np.transpose(x, kept + _in_memory_order(x, every))
    shape = tuple(x.shape[a] for a in kept)
    reduced = int(np.prod([x.shape[a] for a in every], dtype=np.int64))
    return moved.reshape(int(np.prod(shape, dtype=np.int64)), reduced), shape


def _in_memory_order(x, axes) -> list:
    return sorted(axes, key=lambda a: -abs(x.strides[a]))


def _runs_in_memory(x, every) -> bool:
    """Whether PyTorch's iterator sees one run of contiguous elements per output (the
    reduced axes, in memory order, laid out one after the other)."""
    step = x.itemsize
    for axis in reversed(_in_memory_order(x, every)):
        if x.shape[axis] != 1 and x.strides[axis] != step:
            return False
        step *= x.shape[axis]
    return True


def _lane_squares(rows):
    """The sums of squares of each row in vector lanes, as norm's fast kernel adds them."""
    lanes = vec.VECTOR_BYTES // rows.itemsize
    size = rows.shape[-1]
    whole = size - size % lanes
    squares = rows[:, :whole] * rows[:, :whole]
    if whole:
        acc = np.cumsum(squares.reshape(len(rows), -1, lanes), axis=1)[:, -1]
    else:
        acc = np.zeros((len(rows), lanes), rows.dtype)
    total = acc[:, 0]
    for j in range(1, lanes):
        total = total + acc[:, j]
    fours = whole + (size - whole) // 4 * 4
    for d in range(whole, fours):
        total = total + rows[:, d] * rows[:, d]
    multiply_add = fma.fma32 if rows.dtype == np.float32 else fma.fma64
    for d in range(fours, size):
        total = multiply_add(rows[:, d], rows[:, d], total)
    return total


def renorm(x, p, dim: int, maxnorm: float):
    """x with each slice along ``dim`` whose p-norm exceeds ``maxnorm`` scaled by
    maxnorm / (norm + 1e-7) (as PyTorch's renorm_scale_factor, in the norm's dtype: a
    half's norm and factor in float32, the factor rounded once to half)."""
    axes = tuple(d for d in range(x.ndim) if d != dim)
    norm = renorm_norm(x, p, axes)
    dtype = norm.dtype.type
    factor = np.where(norm > dtype(maxnorm), dtype(maxnorm) / (norm + dtype(1e-7)), dtype(1))
    return x * factor.astype(x.dtype)


def renorm_norm(x, p, axes, on_cpu: bool = False):
    """The norms renorm and its gradient scale by, in PyTorch's accumulate type (not
    rounded back): renorm asks for CUDA's (a half's in float32), its gradient for the
    CPU's (a half's in float32, a float32's in float64)."""
    wide = (_CPU_ACCUMULATE if on_cpu else _CUDA_ACCUMULATE).get(x.dtype, x.dtype)
    return vector_norm(x.astype(wide, copy=False), p, axes, True)


_CUDA_ACCUMULATE = {np.dtype(np.float16): np.dtype(np.float32)}
_CPU_ACCUMULATE = {np.dtype(np.float16): np.dtype(np.float32),
                   np.dtype(np.float32): np.dtype(np.float64)}


def lu(a):
    """LAPACK getrf's factorization P A = L U with partial pivoting, every matrix of the
    batch at once, one column after the other: (LU in one array, the sign of P, getrf's
    info: 0, or the 1-based index of the first exactly zero pivot). For det and slogdet,
    which torch computes from getrf's U (NumPy's det goes through exp(log|det|) and rounds
    5 to 4.999999999999999); these are getrf's unblocked steps, and MKL's blocked kernels
    may round the last bits otherwise (39 % of random 6 x 6 determinants bit-equal)."""
    factors, _, sign, info = _getrf(a)
    return factors, sign, info


def _getrf(a):
    """getrf's unblocked steps on (a batch of) m x n matrices: (LU, the 0-based pivot row of
    each of the min(m, n) steps, the sign of the permutation, info)."""
    lu = np.array(a, dtype=a.dtype)
    m, n = a.shape[-2:]
    sign = np.ones(a.shape[:-2], a.dtype)
    info = np.zeros(a.shape[:-2], np.int32)
    pivots = np.zeros(a.shape[:-2] + (min(m, n),), np.int64)
    for k in range(min(m, n)):
        pivot = k + np.argmax(np.abs(lu[..., k:, k]), axis=-1)
        pivots[..., k] = pivot
        order = np.broadcast_to(np.arange(m), a.shape[:-2] + (m,)).copy()
        np.put_along_axis(order, np.stack([np.full_like(pivot, k), pivot], -1),
                          np.stack([pivot, np.full_like(pivot, k)], -1), axis=-1)
        lu = np.take_along_axis(lu, order[..., None], axis=-2)
        sign = np.where(pivot != k, -sign, sign)
        diagonal = lu[..., k, k]
        info = np.where((info == 0) & (diagonal == 0), k + 1, info).astype(np.int32)
        # (times the reciprocal, as getrf2 scales the column)
        factor = lu[..., k + 1:, k] * (1 / np.where(diagonal == 0, 1, diagonal))[..., None]
        lu[..., k + 1:, k] = factor
        lu[..., k + 1:, k + 1:] -= factor[..., :, None] * lu[..., k, None, k + 1:]
    return lu, pivots, sign, info


def lu_factor(a):
    """(LU, pivots, info) as LAPACK's getrf gives them: L below the diagonal (its ones not
    kept), U on and above it; pivots 1-based int32 (row k was swapped with row
    pivots[k] - 1, in order); info as ``lu``'s."""
    factors, pivots, _, info = _getrf(a)
    return factors, (pivots + 1).astype(np.int32), info


def permutation(pivots, m: int, dtype):
    """P (batch, m, m) with A = P L U, from getrf's 1-based ``pivots`` (torch.lu_unpack's)."""
    batch = pivots.shape[:-1]
    order = np.broadcast_to(np.arange(m), batch + (m,)).copy()
    for k in range(pivots.shape[-1]):
        other = pivots[..., k, None].astype(np.int64) - 1
        here, there = order[..., k].copy(), np.take_along_axis(order, other, -1)[..., 0]
        order[..., k] = there
        np.put_along_axis(order, other, here[..., None], -1)
    # (row i of P A is row order[i] of A: P^T has a one at (i, order[i]))
    return np.swapaxes((order[..., :, None] == np.arange(m)).astype(dtype), -1, -2)


def lu_unpack(factors):
    """(L, U) of getrf's LU: unit lower triangular m x k, upper triangular k x n."""
    m, n = factors.shape[-2:]
    k = min(m, n)
    L = np.tril(factors[..., :, :k], -1) + np.eye(m, k, dtype=factors.dtype)
    return L, np.triu(factors[..., :k, :])


def lu_solve(factors, pivots, b, left: bool, adjoint: bool):
    """X with A X = B from A's getrf factors (getrs: the row swaps, then L, then U;
    ``adjoint``: A^H X = B; not ``left``: X A = B, or X A^H = B)."""
    if not left:
        return np.swapaxes(lu_solve(factors, pivots, np.swapaxes(b, -1, -2), True,
                                    not adjoint), -1, -2)
    P = permutation(pivots, factors.shape[-1], factors.dtype)
    if adjoint:  # (U^T L^T P^T X = B)
        y = solve_triangular(np.swapaxes(factors, -1, -2), b, False, True, False)
        y = solve_triangular(np.swapaxes(factors, -1, -2), y, True, True, True)
        return P @ y
    y = solve_triangular(factors, np.swapaxes(P, -1, -2) @ b, False, True, True)
    return solve_triangular(factors, y, True, True, False)


def lu_info(a):
    """getrf's ``info`` for each matrix of ``a`` (int32, batch shape): 0, or the 1-based
    index of the first exactly zero pivot of U (a singular matrix). LAPACK's getrf finds
    the singular ones (NumPy's slogdet: sign 0); the LU here, the index."""
    sign = np.asarray(np.linalg.slogdet(a)[0]) if a.shape[-1] else np.ones(a.shape[:-2])
    info = np.zeros(a.shape[:-2], np.int32)
    for index in np.ndindex(*info.shape):
        if sign[index] == 0:
            info[index] = lu(a[index])[2] or a.shape[-1]
    return info


_SMALL = 256  # (larger matrices: NumPy's LAPACK, without torch's exact rounding of det)


def inverse(a, info):
    """A^{-1} for each matrix; a singular one (``info`` > 0) gives infinities, as getri."""
    if not info.any():
        return np.linalg.inv(a)
    result = np.empty_like(a)
    for index in np.ndindex(*a.shape[:-2]):
        result[index] = np.linalg.inv(a[index]) if info[index] == 0 else np.inf
    return result


def solve(a, b, vector, info=None):
    """X with A X = B, batched with broadcasting (``vector``: B is one vector per A); a
    singular A (``info`` > 0) gives infinities."""
    singular = np.zeros(a.shape[:-2], bool) if info is None else info > 0
    if singular.any():
        a = np.where(singular[..., None, None], np.eye(a.shape[-1], dtype=a.dtype), a)
    result = np.linalg.solve(a, b[..., None])[..., 0] if vector else np.linalg.solve(a, b)
    mask = singular[..., None] if vector else singular[..., None, None]
    return np.where(mask, np.inf, result) if singular.any() else result


def det(a):
    """The determinant: the product of U's diagonal, signed by the pivoting (as torch)."""
    if a.shape[-1] > _SMALL:
        return np.asarray(np.linalg.det(a), a.dtype)
    factors, sign, _ = lu(a)
    return np.asarray(sign * np.prod(np.diagonal(factors, 0, -2, -1), axis=-1), a.dtype)


def slogdet(a):
    """(sign, log |det|) from the LU: the pivoting's sign times the signs of U's diagonal,
    and the sum of the logarithms of its magnitudes."""
    if a.shape[-1] > _SMALL:
        sign, logabsdet = np.linalg.slogdet(a)
        return np.asarray(sign, a.dtype), np.asarray(logabsdet, a.dtype)
    factors, sign, _ = lu(a)
    diagonal = np.diagonal(factors, 0, -2, -1)
    with np.errstate(divide="ignore"):
        logabsdet = np.sum(np.log(np.abs(diagonal)), axis=-1)
    return np.asarray(sign * np.prod(np.sign(diagonal), axis=-1), a.dtype), \
        np.asarray(logabsdet, a.dtype)


def cofactor(a, det):
    """d det(A) / dA = det(A) A^{-T} (the cofactor matrix), as torch 2.13 computes it: from
    the inverse, and so 0 for an exactly singular A (where the cofactor matrix, the
    true derivative, need not be 0)."""
    singular = np.asarray(det) == 0
    safe = np.where(singular[..., None, None], np.eye(a.shape[-1], dtype=a.dtype), a)
    inverse_t = np.swapaxes(np.linalg.inv(safe), -1, -2)
    return np.where(singular[..., None, None], 0, det[..., None, None] * inverse_t)


def svd(a, full_matrices):
    """U, S, Vh from LAPACK's gesdd (torch's default driver on the CPU)."""
    return np.linalg.svd(a, full_matrices=full_matrices)


def qr(a, mode):
    """Q, R from LAPACK's geqrf and orgqr; mode 'r' gives an empty Q, as torch."""
    if mode == "r":
        return np.zeros(0, a.dtype), np.linalg.qr(a, mode="r")
    return np.linalg.qr(a, mode=mode)


def geqrf(a):
    """LAPACK's geqrf (NumPy's QR in its raw mode): R on and above the diagonal, the
    Householder vectors below it, and their scalars tau."""
    h, tau = np.linalg.qr(a, mode="raw")
    return np.ascontiguousarray(np.swapaxes(h, -1, -2)), tau


def householder_product(a, tau):
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T (v_i: 1 at i, a's
    column i below), applied to the identity's columns from the last reflector back, as
    LAPACK's orgqr (unblocked; its blocked form may round the last bits otherwise)."""
    m, n = a.shape[-2:]
    q = np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape).copy()
    for i in reversed(range(tau.shape[-1])):
        v = np.zeros(a.shape[:-2] + (m, 1), a.dtype)
        v[..., i, 0] = 1
        v[..., i + 1:, 0] = a[..., i + 1:, i]
        q -= (tau[..., i, None, None] * v) @ (np.swapaxes(v, -1, -2) @ q)
    return q


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


def cholesky(a, upper, info):
    """L with A = L L^T from A's lower triangle (``upper``: L^T). Where A is not
    positive-definite (``info`` > 0) potrf stops at that column, as here: the columns
    before it factored, its diagonal element what was left (not positive), the rest A's."""
    failed = info > 0
    safe = np.where(failed[..., None, None], np.eye(a.shape[-1], dtype=a.dtype), a)
    lower = np.linalg.cholesky(safe)
    for index in zip(*np.nonzero(failed)) if failed.ndim else [()] if failed else []:
        lower[index] = _partial_cholesky(a[index], info[index])
    return np.swapaxes(lower, -1, -2) if upper else lower


def cholesky_solve(b, l, upper):
    """X with (L L^T) X = B (``upper``: (U^T U) X = B): L Y = B, then L^T X = Y, as
    LAPACK's potrs (batches broadcast)."""
    lower = np.swapaxes(l, -1, -2) if upper else l
    y = solve_triangular(lower, b, False, True, False)
    return solve_triangular(np.swapaxes(lower, -1, -2), y, True, True, False)


def cholesky_inverse(l, upper):
    """(L L^T)^{-1} (``upper``: (U^T U)^{-1}), as LAPACK's potri: symmetric."""
    eye = np.broadcast_to(np.eye(l.shape[-1], dtype=l.dtype), l.shape)
    inverse = cholesky_solve(eye, l, upper)
    return (inverse + np.swapaxes(inverse, -1, -2)) / 2


def _partial_cholesky(a, stop):
    """potrf's unblocked steps on one matrix, up to column ``stop`` (1-based) that fails."""
    lower = np.tril(a)
    for j in range(stop):
        rest = lower[j, j] - lower[j, :j] @ lower[j, :j]
        if j == stop - 1:
            lower[j, j] = rest
            break
        lower[j, j] = np.sqrt(rest)
        lower[j + 1:, j] = (lower[j + 1:, j] - lower[j + 1:, :j] @ lower[j, :j]) / lower[j, j]
    return lower


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


def lstsq(a, b, rcond, driver="gelsy"):
    """(solution, rank, singular values) of the least-squares problem A X = B (batched), as
    torch's CPU drivers give them. gelsy (its default) and gels are QR factorizations: for
    A of full column rank, B is carried through A's Householder reflections (the QR of
    [A | B]) and R X = Q^T B solved by back substitution (gelsy pivots the columns);
    otherwise, and for gelsd and gelss (an SVD), NumPy's gelsd: the minimum-norm solution.
    The rank (not for gels) and A's singular values (gelsd, gelss) have A's own batch
    shape; None where the driver gives none."""
    m, n = a.shape[-2:]
    if rcond is None:
        rcond = np.finfo(a.dtype).eps * max(m, n)
    rank = np.empty(a.shape[:-2], np.int64)
    for index in np.ndindex(*rank.shape):
        rank[index] = np.linalg.matrix_rank(a[index], rtol=rcond) if a[index].size else 0
    values = np.linalg.svd(a, compute_uv=False) if driver in ("gelsd", "gelss") else None
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    full = np.broadcast_to(rank, shape) == n
    a, b = np.broadcast_to(a, shape + a.shape[-2:]), np.broadcast_to(b, shape + b.shape[-2:])
    solution = np.empty(shape + (n, b.shape[-1]), a.dtype)
    for index in np.ndindex(*shape):
        if driver in ("gelsy", "gels") and m >= n and full[index]:
            order = _column_pivots(a[index]) if driver == "gelsy" else list(range(n))
            r = np.linalg.qr(np.concatenate([a[index][:, order], b[index]], -1), mode="r")
            solution[index][order] = np.linalg.solve(r[:n, :n], r[:n, n:])
        else:
            solution[index] = np.linalg.lstsq(a[index], b[index], rcond=rcond)[0]
    return solution, (None if driver == "gels" else rank), values


def _column_pivots(a):
    """The column order of a QR with column pivoting (geqp3): at each step the column
    with the largest norm outside the span of the columns already taken."""
    order, rest = [], list(range(a.shape[-1]))
    for _ in range(a.shape[-1]):
        left = a[:, rest]
        if order:
            q = np.linalg.qr(a[:, order])[0]
            left = left - q @ (q.T @ left)
        order.append(rest.pop(int(np.argmax(np.linalg.norm(left, axis=0)))))
    return order


def solve_triangular(a, b, upper, left, unitriangular):
    """X with A X = B (``left=False``: X A = B) for a triangular A (only its ``upper`` or
    lower triangle is read; ``unitriangular``: its diagonal taken as ones), by
    substitution, one row of X after the other as BLAS's trsm; a zero on the diagonal
    gives infinities and NaNs, as there."""
    if not left:
        return np.swapaxes(solve_triangular(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2),
                                            not upper, True, unitriangular), -1, -2)
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, shape + a.shape[-2:])
    x = np.array(np.broadcast_to(b, shape + b.shape[-2:]), dtype=np.result_type(a, b))
    n = a.shape[-1]
    for k in (range(n - 1, -1, -1) if upper else range(n)):
        if not unitriangular:
            x[..., k, :] /= a[..., k, k, None]
        rest = slice(0, k) if upper else slice(k + 1, n)
        x[..., rest, :] -= a[..., rest, k, None] * x[..., k, None, :]
    return x


def trilinear(x1, x2, x3, expand1, expand2, expand3, sumdim):
    """PyTorch's _trilinear: each input given size-1 dims at its ``expand`` positions, the
    three multiplied (broadcast) and summed over ``sumdim`` (one einsum; a fresh
    row-major result)."""
    letters = "abcdefghijklmnopqrstuvwxyz"[:x1.ndim + len(expand1)]

    def kept(dropped):
        return "".join(letter for d, letter in enumerate(letters) if d not in dropped)
    equation = f"{kept(expand1)},{kept(expand2)},{kept(expand3)}->{kept(sumdim)}"
    return np.einsum(equation, x1, x2, x3, order="C")
