"""The LU factorization: ``torch.linalg.lu_factor`` / ``lu_factor_ex`` (A = P L U kept in one
matrix, LU, and LAPACK's 1-based row swaps, pivots), ``torch.linalg.lu`` (P, L, U),
``torch.lu_unpack`` (LU and pivots to P, L, U) and ``torch.linalg.lu_solve`` (X with
A X = B from LU), each a node named as PyTorch names it.

The derivative (PyTorch's ``linalg_lu_backward``): for a square A = P L U, differentiating
gives P^T dA = dL U + L dU, so L^{-1} P^T dA U^{-1} = L^{-1} dL + dU U^{-1}: a strictly lower
part (L is unit triangular) plus an upper part. Its adjoint:

    gA = P L^{-T} (tril(L^T gL, -1) + triu(gU U^T)) U^{-T}

For a wide (m < n) or tall A the square block is solved the same way and the rest of U
(or of L) added. P is piecewise constant: no gradient. ``lu_solve``'s gradient with respect
to B is a solve with A^T; with respect to LU, the adjoint of dX = -A^{-1} dA X written in
L and U (PyTorch's ``linalg_lu_solve_LU``).
"""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Input, Node, RESULT
from ..kernels import linalg as kernels
from ..rules import linalg as rules
from . import fn
from .linalg_module import Output, _Factorization, _named, _mT

__all__ = ["lu_factor_ex", "lu_factor", "lu", "lu_unpack", "lu_solve", "lu_with_info",
           "LinalgLuFactorExBackward0", "LinalgLuBackward0", "LuUnpackBackward0",
           "LinalgLuSolveBackward0"]

LuFactorResult = _named("linalg_lu_factor", ["LU", "pivots"])
LuFactorExResult = _named("linalg_lu_factor_ex", ["LU", "pivots", "info"])
LuResult = _named("linalg_lu", ["P", "L", "U"])
LuUnpackResult = _named("lu_unpack", ["P", "L", "U"])
LuWithInfoResult = _named("_lu_with_info", ["LU", "pivots", "info"])


class LinalgLuFactorExBackward0(_Factorization):
    formula = Formula("(LU, pivots, info)", "P A = L U, L (unit diagonal not kept) and U in "
                                            "one matrix", grad={"A": "linalg_lu_backward of "
                                                                     "G's lower and upper parts"})
    saves = {"LU": Output(0), "pivots": Output(1)}

    def forward(self, A, pivot):
        self.save(pivot=pivot)
        return kernels.lu_factor(A)

    def backward(self, saved, *grads):
        grad, k = self.present(grads, 3)[0], min(saved.LU.shape[-2:])
        L, U = _unpacked(saved.LU)
        P = _permutation(saved.pivots, saved.LU)
        return lu_backward(_columns(grad, 0, k), _rows(grad, 0, k), P, L, U)


class LinalgLuBackward0(_Factorization):
    formula = Formula("(P, L, U)", "A = P L U", grad={"A": "P L^{-T} (tril(L^T gL, -1) + "
                                                           "triu(gU U^T)) U^{-T}"})
    saves = {"P": Output(0), "L": Output(1), "U": Output(2)}

    def forward(self, A, pivot):
        self.save(pivot=pivot)
        factors, pivots, _ = kernels.lu_factor(A)
        return (kernels.permutation(pivots, A.shape[-2], A.dtype), *kernels.lu_unpack(factors))

    def backward(self, saved, *grads):
        _, gL, gU = self.present(grads, 3)
        return lu_backward(gL, gU, saved.P, saved.L, saved.U)


class LuUnpackBackward0(_Factorization):
    formula = Formula("(P, L, U)", "P from the pivots, L = tril(LU, -1) + I, U = triu(LU)",
                      grad={"LU_data": "tril(gL, -1) + triu(gU), each in its block"})

    def forward(self, LU, pivots):
        m, n = LU.shape[-2:]
        self.save(LU_data_sym_argsize_minus_1=n, LU_data_sym_argsize_minus_2=m)
        return (kernels.permutation(pivots, LU.shape[-2], LU.dtype), *kernels.lu_unpack(LU))

    def backward(self, saved, *grads):
        _, gL, gU = self.present(grads, 3)
        return _packed(gL, gU, saved.LU_data_sym_argsize_minus_2,
                       saved.LU_data_sym_argsize_minus_1)


class LinalgLuSolveBackward0(Node):
    formula = Formula("X", "A^{-1} B from A's LU (adjoint: A^{-T} B; left=False: B A^{-1})",
                      grad={"B": "lu_solve(LU, pivots, G, adjoint=not adjoint)",
                            "LU": "linalg_lu_solve_LU: the adjoint of dX = -A^{-1} dA X in L, U"})
    saves = {"LU": Input(0), "result": RESULT}

    def forward(self, LU, B, pivots, left, adjoint):
        self.save(pivots=pivots, left=left, adjoint=adjoint)
        return kernels.lu_solve(LU, pivots, B, left, adjoint)

    def backward(self, saved, grad):
        LU, pivots, left, adjoint = saved.LU, saved.pivots, saved.left, saved.adjoint
        grad_B = fn.lu_solve(LU, pivots, grad, left, not adjoint) if self.needs_input_grad[1] \
            else None
        grad_LU = lu_solve_LU(grad, LU, pivots, saved.result, left, adjoint) \
            if self.needs_input_grad[0] else None
        return grad_LU, grad_B


# ---- the derivatives (as torch's FunctionsManual.cpp writes them) ---------------------------


def _columns(x, start: int, length: int):
    return fn.narrow(x, x.ndim - 1, start, length)


def _rows(x, start: int, length: int):
    return fn.narrow(x, x.ndim - 2, start, length)


def _unpacked(LU):
    """(L, U) of the LU matrix, with differentiable ops."""
    m, n = LU.shape[-2:]
    k = min(m, n)
    eye = fn.as_constant(np.eye(m, k, dtype=fn.as_array(LU).dtype), LU)
    return fn.tril(_columns(LU, 0, k), -1) + eye, fn.triu(_rows(LU, 0, k), 0)


def _permutation(pivots, LU):
    array = kernels.permutation(fn.as_array(pivots), LU.shape[-2], fn.as_array(LU).dtype)
    return fn.as_constant(array, LU)


def _packed(gL, gU, m: int, n: int):
    """LU's gradient from L's and U's: their strict lower and upper parts in one matrix."""
    k = min(m, n)
    parts = []
    if gL is not None:
        lower = fn.tril(gL, -1)
        parts.append(lower if n == k else fn.cat([lower, fn.zeros(lower.shape[:-1] + (n - k,),
                                                                  lower)], -1))
    if gU is not None:
        upper = fn.triu(gU, 0)
        parts.append(upper if m == k else fn.cat([upper, fn.zeros(
            upper.shape[:-2] + (m - k, n), upper)], -2))
    return None if not parts else parts[0] if len(parts) == 1 else parts[0] + parts[1]


def lu_backward(gL, gU, P, L, U):
    """dL/dA of A = P L U (PyTorch's linalg_lu_backward, pivot=True)."""
    if gL is None and gU is None:
        return None
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        grad = fn.tril(fn.matmul(_mT(L), gL), -1) if gL is not None else None
        if gU is not None:
            upper = fn.triu(fn.matmul(gU, _mT(U)), 0)
            grad = upper if grad is None else grad + upper
        grad = fn.solve_triangular(_mT(U), grad, False, False, False)
        grad = fn.solve_triangular(_mT(L), grad, True, True, True)
        return fn.matmul(P, grad)
    if m < n:  # (wide: U = [U1 U2], U1 square)
        U1 = _columns(U, 0, k)
        grad = fn.matmul(_mT(L), gL) if gL is not None else None
        if gU is not None:
            part = fn.matmul(fn.triu(gU, 0), _mT(U))
            grad = -part if grad is None else grad - part
        grad = fn.solve_triangular(_mT(U1), fn.tril(grad, -1), False, False, False)
        if gU is not None:
            grad = fn.cat([grad + fn.triu(_columns(gU, 0, k), 0),
                           _columns(gU, k, n - k)], -1)
        grad = fn.solve_triangular(_mT(L), grad, True, True, True)
        if gU is None:
            grad = fn.cat([grad, fn.zeros(grad.shape[:-1] + (n - k,), grad)], -1)
        return fn.matmul(P, grad)
    L1 = _rows(L, 0, k)  # (tall: L = [L1; L2], L1 square)
    grad = fn.matmul(gU, _mT(U)) if gU is not None else None
    if gL is not None:
        part = fn.matmul(_mT(L), fn.tril(gL, -1))
        grad = -part if grad is None else grad - part
    grad = fn.solve_triangular(_mT(L1), fn.triu(grad, 0), True, True, True)
    if gL is not None:
        grad = fn.cat([grad + fn.tril(_rows(gL, 0, k), -1),
                       _rows(gL, k, m - k)], -2)
    grad = fn.solve_triangular(_mT(U), grad, False, False, False)
    if gL is None:
        grad = fn.cat([grad, fn.zeros(grad.shape[:-2] + (m - k, k), grad)], -2)
    return fn.matmul(P, grad)


def lu_solve_LU(gX, LU, pivots, X, left: bool, adjoint: bool):  # noqa: N802 (PyTorch's name)
    """The gradient of lu_solve with respect to LU (PyTorch's linalg_lu_solve_LU)."""
    L, U = _unpacked(LU)
    P = _permutation(pivots, LU)
    if left != adjoint:  # gR = U^{-H} op(-gX) op(X)^H; gL = (L^{-H} gR U^H).tril(-1)
        gR = fn.solve_triangular(_mT(U), fn.matmul(-(gX if left else _mT(gX)),
                                                   _mT(X) if left else X), False, True, False)
        gL = fn.solve_triangular(_mT(L), fn.matmul(gR, _mT(U)), True, True, True)
        return fn.tril(gL, -1) + fn.triu(gR, 0)
    gR = -fn.matmul(fn.matmul(fn.matmul(_mT(P), X if left else _mT(X)),
                              _mT(gX) if left else gX), P)
    gR = fn.solve_triangular(_mT(L), gR, True, False, True)
    gU = fn.solve_triangular(_mT(U), fn.matmul(_mT(L), gR), False, False, False)
    return fn.tril(gR, -1) + fn.triu(gU, 0)


# ---- entry functions ------------------------------------------------------------------------


def lu_factor_ex(A, pivot=True, check_errors=False, name="torch.linalg.lu_factor_ex"):
    rules.check_lu("torch.lu_factor", A, pivot)
    LU, pivots, info = LinalgLuFactorExBackward0.apply(A, pivot=pivot)
    if check_errors:
        rules.check_lu_info(name, info._data)
    return LuFactorExResult(LU, pivots.detach(), info.detach())


def lu_factor(A, pivot=True):
    LU, pivots, info = lu_factor_ex(A, pivot)
    rules.check_lu_info("torch.linalg.lu_factor", info._data)
    return LuFactorResult(LU, pivots)


def lu_with_info(A, pivot=True):
    """The deprecated torch.lu's (LU, pivots, info): lu_factor_ex's, no error for a singular A."""
    return LuWithInfoResult(*lu_factor_ex(A, pivot))


def lu(A, pivot=True):
    rules.check_lu("linalg.lu", A, pivot)
    P, L, U = LinalgLuBackward0.apply(A, pivot=pivot)
    return LuResult(P.detach(), L, U)


def lu_unpack(LU, pivots, unpack_data=True, unpack_pivots=True):
    rules.check_lu_unpack(LU, pivots)
    P, L, U = LuUnpackBackward0.apply(LU, pivots=pivots._data)
    empty = fn.as_constant(LU._data.reshape(-1)[:0], LU)
    return LuUnpackResult(P.detach() if unpack_pivots else empty,
                          L if unpack_data else empty, U if unpack_data else empty)


def lu_solve(LU, pivots, B, left=True, adjoint=False):
    rules.check_lu_solve(LU, pivots, B, left)
    return LinalgLuSolveBackward0.apply(LU, B, pivots=pivots._data, left=left, adjoint=adjoint)
