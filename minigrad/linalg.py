"""``torch.linalg``: norms, inverse, solve, determinants and the factorizations, under
PyTorch's names and signatures. The math and the derivatives are in
``ops/linalg_module.py`` (and ``ops/reduction.py`` for ``vector_norm``); the values come
from NumPy's LAPACK (README: how close they are to PyTorch's, measured)."""

from __future__ import annotations

from . import ops
from .errors import _LinAlgError as LinAlgError
from .ops import householder as _householder
from .ops import linalg_lu as _lu
from .ops import linalg_module as _linalg
from .ops import linalg_tensor as _tensor
from .ops import linalg as _products
from .ops import shape as _shape
from .rules import linalg as _rules
from .rules.out import write as _out

__all__ = ["LinAlgError", "matrix_exp", "vector_norm", "matrix_norm", "norm", "inv", "inv_ex", "solve",
           "solve_ex", "solve_triangular", "det", "slogdet", "svd", "svdvals", "qr", "eigh",
           "eigvalsh", "cholesky", "cholesky_ex", "pinv", "lstsq", "matrix_power", "matrix_rank",
           "multi_dot", "cross", "matmul", "vecdot", "diagonal", "lu_factor", "lu_factor_ex",
           "lu", "lu_solve", "householder_product", "cond", "tensorinv", "tensorsolve"]


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The vector ord-norm of ``x`` over ``dim`` (every element for None).

    >>> torch.linalg.vector_norm(torch.tensor([3., 4.]))
    tensor(5.)
    """
    return _out("linalg_vector_norm", _linalg.vector_norm(x, ord, dim, keepdim, dtype), out, x)


def matrix_norm(input, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """'fro', 'nuc', 2, -2, 1, -1, inf or -inf norm of the matrices in the dims ``dim``."""
    return _out("linalg_matrix_norm", _linalg.matrix_norm(input, ord, dim, keepdim, dtype), out,
                input)


def norm(input, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    """A vector norm, or a matrix norm when ``dim`` names two dims (or ``input`` is 2-D
    and ``ord`` is given); without ord, the 2-norm of all the elements."""
    return _out("linalg_norm", _linalg.norm(input, ord, dim, keepdim, dtype), out, input)


def inv(A, *, out=None):
    """A^{-1}; a singular matrix raises LinAlgError."""
    return _out("linalg_inv", _linalg.inv(A), out, A)


def inv_ex(A, *, check_errors=False, out=None):
    """(inverse, info) without the error: info > 0 for a singular matrix."""
    return _out("linalg_inv_ex", _linalg.inv_ex(A, check_errors), out, A)


def solve(A, B, *, left=True, out=None):
    """X with A X = B (``left=False``: X A = B)."""
    return _out("linalg_solve", _linalg.solve(A, B, left), out, A, B)


def tensorinv(A, ind=2, *, out=None):
    """The inverse of A seen as a matrix, its first ``ind`` dims the rows: shaped
    ``A.shape[ind:] + A.shape[:ind]``, so that ``tensordot(tensorinv(A, ind), A, ind)`` is
    an identity.

    >>> torch.linalg.tensorinv(torch.eye(6).reshape(2, 3, 6), ind=2).shape
    torch.Size([6, 2, 3])
    """
    return _out("linalg_tensorinv", _tensor.tensorinv(A, ind), out, A)


def tensorsolve(A, B, dims=None, *, out=None):
    """X with ``tensordot(A, X, X.ndim) == B``; ``dims``: A's dims moved to its end first."""
    return _out("linalg_tensorsolve", _tensor.tensorsolve(A, B, dims), out, A, B)


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """(result, info) without the error: info > 0 for a singular matrix."""
    return _out("linalg_solve_ex", _linalg.solve_ex(A, B, left, check_errors), out, A, B)


def solve_triangular(A, B, *, upper=None, left=True, unitriangular=False, out=None):
    """X with A X = B (``left=False``: X A = B) for a triangular A, by substitution."""
    if upper is None:  # (required, as in PyTorch; its parser's text)
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: '
                        '"upper"')
    return _out("linalg_solve_triangular",
                _linalg.solve_triangular(A, B, upper, left, unitriangular), out, A, B)


def det(A, *, out=None):
    return _out("linalg_det", _linalg.det(A), out, A)


def slogdet(A, *, out=None):
    """(sign, logabsdet): det(A) = sign * exp(logabsdet), without overflow."""
    return _out("linalg_slogdet", _linalg.slogdet(A), out, A)


def svd(A, full_matrices=True, *, driver=None, out=None):
    """(U, S, Vh) with A = U diag(S) Vh, S descending."""
    return _out("linalg_svd", _linalg.svd(A, full_matrices), out, A)


def svdvals(A, *, driver=None, out=None):
    return _out("linalg_svdvals", _linalg.svdvals(A), out, A)


def cond(A, p=None, *, out=None):
    """The condition number in the norm ``p``, composed as PyTorch's linalg_cond: for None,
    2 and -2 the ratio of the largest and smallest singular values (its inverse for -2);
    'nuc' the sum of the singular values times that of their reciprocals; else
    ||A||_p ||A^-1||_p, a singular A's inverse filled with inf and 0 * inf read as inf."""
    if p is None or p in (2, -2):
        s = svdvals(A)
        s_max, s_min = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        result = (s_min / s_max if p == -2 else s_max / s_min).squeeze(-1)
    elif p == "nuc":
        s = svdvals(A)
        result = s.sum(-1) * s.reciprocal().sum(-1)
    else:
        inverse, info = inv_ex(A)
        inverse.masked_fill_(info.unsqueeze(-1).unsqueeze(-1) > 0, float("inf"))
        result = matrix_norm(A, p) * matrix_norm(inverse, p)
        result.nan_to_num_(float("inf"), float("inf"), float("-inf"))
    return _out("linalg_cond", result, out, A)


def qr(A, mode="reduced", *, out=None):
    """(Q, R) with A = Q R, Q orthonormal columns, R upper triangular."""
    return _out("linalg_qr", _linalg.qr(A, mode), out, A)


def householder_product(A, tau, *, out=None):
    """The first n columns of the product of Householder reflectors H_i = I - tau_i v_i v_i^T
    (v_i in A's column i below the diagonal, 1 on it): geqrf's Q."""
    return _out("linalg_householder_product", _householder.householder_product(A, tau),
                out, A, tau)


def eigh(input, UPLO="L", *, out=None):
    """(eigenvalues ascending, eigenvectors) of a symmetric matrix (its UPLO triangle)."""
    return _out("linalg_eigh", _linalg.eigh(input, UPLO), out, input)


def eigvalsh(input, UPLO="L", *, out=None):
    return _out("linalg_eigvalsh", _linalg.eigh(input, UPLO).eigenvalues, out, input)


def cholesky(input, *, upper=False, out=None):
    """L with A = L L^T (lower triangular; ``upper=True``: L^T)."""
    return _out("linalg_cholesky", _linalg.cholesky(input, upper), out, input)


def cholesky_ex(input, *, upper=False, check_errors=False, out=None):
    """(L, info) without the error: info > 0 where the matrix is not positive-definite."""
    return _out("linalg_cholesky_ex", _linalg.cholesky_ex(input, upper, check_errors), out,
                input)


def pinv(input, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The Moore-Penrose pseudo-inverse (``rcond``, the older name of ``rtol``)."""
    rtol = rcond if rcond is not None else rtol
    return _out("linalg_pinv", _linalg.pinv(input, atol, rtol, hermitian), out, input)


def lstsq(input, b, rcond=None, *, driver=None):
    """The least-squares solution of A X = B: (solution, residuals, rank, singular_values)."""
    return _linalg.lstsq(input, b, rcond, driver)


def matrix_exp(input):
    """exp(A) = I + A + A^2/2! + ..., by PyTorch's Taylor polynomials (scaling and squaring
    for a large A; PyTorch names the argument ``input`` here)."""
    return _linalg.matrix_exp(input)


def matrix_power(input, n, *, out=None):
    """A @ A @ ... (n times), by repeated squaring as PyTorch; n < 0 inverts first."""
    return _out("linalg_matrix_power", _linalg.matrix_power(input, n), out, input)


def matrix_rank(input, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """How many singular values are above the tolerance (int64; ``tol``, the older name
    of ``atol``)."""
    atol = tol if tol is not None else atol
    return _out("linalg_matrix_rank", _linalg.matrix_rank(input, atol, rtol, hermitian), out,
                input)


def multi_dot(tensors, *, out=None):
    """tensors[0] @ tensors[1] @ ..., multiplied in the cheapest order."""
    return _out("linalg_multi_dot", _linalg.multi_dot(list(tensors)), out, *tensors)


def vecdot(x, y, *, dim=-1, out=None):
    return _out("linalg_vecdot", _linalg.vecdot(x, y, dim), out, x, y)


def cross(input, other, *, dim=-1, out=None):
    return _out("linalg_cross", _products.cross(input, other, dim), out, input, other)


def matmul(input, other, *, out=None):
    return _out("linalg_matmul", ops.matmul(input, other), out, input, other, exact_dtype=True)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return ops.diagonal(A, offset, dim1, dim2)


def lu_factor(A, *, pivot=True, out=None):
    """(LU, pivots): P A = L U with partial pivoting, L (its unit diagonal left out) and U in
    one matrix, pivots LAPACK's 1-based row swaps (int32). A singular A raises."""
    return _out("linalg_lu_factor", _lu.lu_factor(A, pivot), out, A)


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """(LU, pivots, info) without the error: info > 0 when U has a zero on its diagonal."""
    return _out("linalg_lu_factor_ex", _lu.lu_factor_ex(A, pivot, check_errors), out, A)


def lu(A, *, pivot=True, out=None):
    """(P, L, U) with A = P L U: P a permutation, L unit lower and U upper triangular."""
    return _out("linalg_lu", _lu.lu(A, pivot), out, A)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with A X = B from lu_factor's (LU, pivots) (``adjoint``: A^H X = B; ``left=False``:
    X A = B)."""
    return _out("linalg_lu_solve", _lu.lu_solve(LU, pivots, B, left, adjoint), out, LU, B)
