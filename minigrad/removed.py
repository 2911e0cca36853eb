"""Functions PyTorch 1.x had and PyTorch 2 removed (``torch.solve``, ``torch.eig``,
``torch.symeig``, ``torch.lstsq``, ``torch.matrix_rank`` and the methods of the first four).
Older tutorials still call them: each raises PyTorch's RuntimeError, which names the
``torch.linalg`` function that replaces it."""

from __future__ import annotations

__all__ = ["solve", "eig", "symeig", "lstsq", "matrix_rank"]

_REMOVED = "This function was deprecated since version 1.9 and is now removed. "
_SOLVE = (_REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. "
          "`torch.linalg.solve` has its arguments reversed and does not return the LU "
          "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be used with "
          "`torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be "
          "replaced with:\nX = torch.linalg.solve(A, B)")
_EIG = (_REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)")
_SYMEIG = (_REMOVED + "The default behavior has changed from using the upper triangular portion "
           "of the matrix by default to using the lower triangular portion.\n\nL, _ = "
           "torch.symeig(A, upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, "
           "UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) "
           "should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")
_LSTSQ = (_REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
          "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
          "in the returned tuple (although it returns other information about the problem).\n\n"
          "To get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned "
          "solution in `torch.lstsq` stored the residuals of the solution in the last m - n "
          "columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals "
          "are in the field 'residuals' of the returned named tuple.\n\nThe unpacking of the "
          "solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced "
          "with:\nX = torch.linalg.lstsq(A, B).solution")
_MATRIX_RANK = (_REMOVED.rstrip() + "\nPlease use the `torch.linalg.matrix_rank` function instead. The "
                "parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input, A, *, out=None):
    raise RuntimeError(_SOLVE)


def eig(self, eigenvectors: bool = False, *, e=None, v=None):
    raise RuntimeError(_EIG)


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    raise RuntimeError(_SYMEIG)


def lstsq(input, A, *, out=None):
    raise RuntimeError(_LSTSQ)


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    raise RuntimeError(_MATRIX_RANK)
