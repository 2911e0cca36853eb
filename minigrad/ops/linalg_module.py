"""torch.linalg: inverse, solve, determinants, and the factorizations (svd, qr, eigh,
cholesky), each a node named as PyTorch names it, with the derivative in ``backward``.

The derivatives come from differentiating the defining equation. For B = A^{-1}:
A B = I, so dA B + A dB = 0 and dB = -B dA B; the adjoint gives dL/dA = -B^T G B^T.
For X = A^{-1} B the same step gives dL/dB = A^{-T} G and dL/dA = -(dL/dB) X^T. For
det: d det(A) = det(A) tr(A^{-1} dA), so dL/dA = G det(A) A^{-T} (the cofactor matrix).
A factorization (A = U S Vh, A = Q R, A = V diag(L) V^T, A = L L^T) has several outputs,
made by one node (``output_nr`` 0, 1, ...): its backward takes one gradient per output
(None where an output took no part) and solves the factorization's equation for dA.

The norms are reductions: ``vector_norm`` is ``LinalgVectorNormBackward0``
(ops/reduction.py, shared with ``x.norm()``); ``matrix_norm`` is written with other ops,
as PyTorch writes it (a sum or a max of singular values, or of column norms).
"""

from __future__ import annotations


import numpy as np

from ..autograd import forward_ad, grad_mode, meta, profiler
from ..autograd.formula import Formula
from ..autograd.node import Input, Node, RESULT
from ..autograd.packing import keep
from ..autograd.tensor_base import make
from ..kernels import linalg as kernels
from ..kernels import meta as meta_arrays
from ..kernels.matrix_exp import matrix_exp as matrix_exp_kernel
from ..kernels.float_errors import silenced
from ..rules import linalg as rules
from . import arithmetic, fn, inplace, reduction, sorting
from . import linalg as products
from . import shape as shape_ops
from ..rules.layout import with_reduction_layout
from ..rules.return_types import return_type

__all__ = ["vector_norm", "matrix_norm", "norm", "inv_ex", "inv", "solve", "det", "slogdet",
           "logdet", "svd", "svdvals", "qr", "eigh", "cholesky", "pinv", "lstsq", "matrix_power",
           "matrix_rank", "vecdot", "solve_triangular", "solve_ex", "cholesky_ex",
           "svd_with_v", "multi_dot", "torch_norm", "matrix_exp"]


def _mT(x):
    return fn.transpose(x, -2, -1)


def _column(x, vector):
    """A vector right-hand side as a column, so that formulas read as for matrices."""
    return fn.unsqueeze(x, -1) if vector else x


# ---- inverse, solve, det ------------------------------------------------------------------


class LinalgInvExBackward0(Node):
    formula = Formula("B", "A^{-1}", grad={"A": "-B^T @ G @ B^T"})
    saves = {"result": RESULT}

    def forward(self, A, info):
        return kernels.inverse(A, info)

    def backward(self, saved, grad):  # (in torch's order: G B^T first)
        right = fn.matmul(grad, _mT(saved.result))
        return -fn.matmul(_mT(saved.result), right)


class LinalgSolveExBackward0(Node):
    formula = Formula("X", "A^{-1} @ B (A X = B; left=False: X A = B)",
                      grad={"B": "A^{-T} @ G", "A": "-(A^{-T} @ G) @ X^T"})
    saves = {"A": Input(0), "result": RESULT}

    def forward(self, A, B, left, vector, info):
        self.save(left=left, _vector=vector)
        return kernels.solve(A, B, vector, info) if left else \
            _mT(kernels.solve(_mT(A), _mT(B), False, info))

    def backward(self, saved, grad):
        X, vector = _column(saved.result, saved._vector), saved._vector
        if saved.left:
            grad_B = fn.linalg_solve(_mT(saved.A), _column(grad, vector))
            return -fn.matmul(grad_B, _mT(X)), fn.squeeze(grad_B, -1) if vector else grad_B
        grad_B = _mT(fn.linalg_solve(saved.A, _mT(grad)))  # (X A = B: dL/dB = G A^{-T})
        return -fn.matmul(_mT(X), grad_B), grad_B


class LinalgSolveTriangularBackward0(Node):
    formula = Formula("X", "A^{-1} @ B for a triangular A (left=False: B @ A^{-1})",
                      grad={"B": "A^{-T} @ G", "A": "-(A^{-T} @ G) @ X^T, on A's triangle"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, A, B, upper, left, unitriangular):
        self.save(upper=upper, left=left, unitriangular=unitriangular)
        return kernels.solve_triangular(A, B, upper, left, unitriangular)

    def backward(self, saved, grad):
        A, X, upper, unit = saved.self, saved.result, saved.upper, saved.unitriangular
        grad_B = fn.solve_triangular(_mT(A), grad, not upper, saved.left, unit)
        grad_A = -fn.matmul(grad_B, _mT(X)) if saved.left else -fn.matmul(_mT(X), grad_B)
        return fn.triu(grad_A, int(unit)) if upper else fn.tril(grad_A, -int(unit)), grad_B


class LinalgDetBackward0(Node):
    formula = Formula("d", "det(A)", d={"A": "det(A) A^{-T} (the cofactor matrix)"})
    saves = {"A": Input(0), "result": RESULT}

    def forward(self, A):
        return kernels.det(A)

    def backward(self, saved, grad):
        return fn.unsqueeze(fn.unsqueeze(grad, -1), -1) * fn.cofactor(saved.A, saved.result)


class LinalgMatrixExpBackward0(Node):
    formula = Formula("E", "exp(A) = I + A + A^2/2! + A^3/3! + ...",
                      grad={"A": "top right block of exp([[A^T, G], [0, A^T]])"})
    saves = {"self": Input(0)}

    def forward(self, A):
        return matrix_exp_kernel(A)

    def backward(self, saved, grad):  # (exp of the block matrix holds the derivative)
        At, rows, columns = _mT(saved.self), saved.self.ndim - 2, saved.self.ndim - 1
        n = At.shape[-1]
        block = fn.cat([fn.cat([At, grad], columns),
                        fn.cat([fn.zeros(At.shape, At), At], columns)], rows)
        return fn.narrow(fn.narrow(fn.linalg_matrix_exp(block), rows, 0, n), columns, n, n)


class Output:
    """A ``saves`` entry of a node with several outputs: its output ``number``."""

    def __init__(self, number: int) -> None:
        self.number = number


class _Factorization(Node):
    """A node with several outputs (``apply`` returns them all, output 0, 1, ...); its
    ``saves`` name inputs (``Input(k)``) and outputs (``Output(k)``)."""

    @classmethod
    def apply(cls, *inputs, **params):
        return several_outputs(cls, inputs, params)

    @staticmethod
    def present(grads, count):
        """One gradient per output: None for those that received none."""
        return list(grads) + [None] * (count - len(grads))


def several_outputs(cls, inputs, params) -> tuple:
    """Run ``cls``'s forward on ``inputs``; its arrays become output 0, 1, ... of one node
    (recorded when an input requires grad), which keeps what ``saves`` names. An input
    may be None (an optional tensor not given: no edge)."""
    given = [x for x in inputs if x is not None]
    record = grad_mode.is_grad_enabled() and any(x.requires_grad for x in given)
    node = object.__new__(cls)
    node._saved, node._forward_args = ({}, inputs) if record else ({}, False)
    for name, position, _ in cls._input_saves if record else ():
        x = inputs[position]
        node._saved[name] = None if x is None else keep(x, x._data)
    with silenced():
        arrays = node.forward(*[None if x is None else x._data for x in inputs], **params)
    outputs = tuple(make(array, grad_fn=node if record else None,
                         output_nr=number if record else 0)
                    for number, array in enumerate(arrays))
    if record:
        for name, kind in cls.saves.items():
            if type(kind) is Output:
                output = outputs[kind.number]
                node._saved[name] = keep(output, output._data, is_output=True)
        node._forward_args = None
        node._link(inputs, None)
    if forward_ad.active:
        forward_ad.run_several(cls, inputs, params, outputs)
    return outputs


def several_outputs_op(cls, inputs, params, profiled: bool = False) -> tuple:
    """``several_outputs`` for an op a learner calls (group_norm), as ``Node.apply`` runs
    one: timed as one event while a profile runs, its outputs meta for meta inputs."""
    if profiler.enabled and not profiled:
        return profiler.run_op(several_outputs_op, cls, inputs, params)
    if meta_arrays.seen:
        return meta.run_op(_on_meta, cls, inputs, None, params)
    return several_outputs(cls, inputs, params)


def _on_meta(cls, inputs, arrays, params, devices_checked):
    return several_outputs(cls, inputs, params)


class LinalgSlogdetBackward0(_Factorization):
    formula = Formula("(sign, logabsdet)", "sign(det A), log |det A|",
                      d={"A": "A^{-T} (of logabsdet; sign is piecewise constant)"})
    saves = {"A": Input(0)}

    def forward(self, A):
        return kernels.slogdet(A)

    def backward(self, saved, *grads):
        _, grad = self.present(grads, 2)
        if grad is None:
            return None
        return fn.unsqueeze(fn.unsqueeze(grad, -1), -1) * _mT(fn.inverse(saved.A))


# ---- factorizations -----------------------------------------------------------------------


def _eye_like(x):
    return fn.as_constant(np.eye(x.shape[-1], dtype=fn.as_array(x).dtype), x)


def _over_gaps(X, values):
    """X_ij / (values_j - values_i) off the diagonal, X_ii on it."""
    gaps = fn.unsqueeze(values, -2) - fn.unsqueeze(values, -1)
    return X / (gaps + _eye_like(gaps))


class LinalgSvdBackward0(_Factorization):
    formula = Formula("(U, S, Vh)", "A = U diag(S) Vh",
                      grad={"A": "U (skew(U^T gU) S + S skew(V^T gV)) / (S_j^2 - S_i^2) + "
                                 "diag(gS)) Vh, plus the parts outside U's and V's span"})

    saves = {"U": Output(0), "S": Output(1), "Vh": Output(2)}

    def forward(self, A, full_matrices):
        self.save(full_matrices=full_matrices)
        return kernels.svd(A, full_matrices)

    def backward(self, saved, *grads):
        gU, gS, gVh = self.present(grads, 3)
        k = saved.S.shape[-1]  # (the reduced factors, as torch narrows them)
        gU = None if gU is None else gU[..., :k]
        gVh = None if gVh is None else gVh[..., :k, :]
        return svd_backward(gU, gS, gVh, saved.U[..., :k], saved.S, saved.Vh[..., :k, :])


class LinalgQrBackward0(_Factorization):
    formula = Formula("(Q, R)", "A = Q R", grad={"A": "(gQ + Q copyltu(M)) R^{-T}, "
                                                       "M = R gR^T - gQ^T Q"})

    saves = {"Q": Output(0), "R": Output(1)}

    def forward(self, A, mode):
        self.save(mode=mode)
        return kernels.qr(A, mode)

    def backward(self, saved, *grads):
        gQ, gR = self.present(grads, 2)
        rules.check_qr_backward(saved.mode, saved.Q, saved.R)
        return qr_backward(gQ, gR, saved.Q, saved.R)


class LinalgEighBackward0(_Factorization):
    formula = Formula("(L, V)", "A = V diag(L) V^T",
                      grad={"A": "V (diag(gL) + skew(V^T gV) / 2 / (L_j - L_i)) V^T"})

    saves = {"eigenvalues": Output(0), "eigenvectors": Output(1)}

    def forward(self, A, uplo):
        return kernels.eigh(A, uplo)

    def backward(self, saved, *grads):
        gL, gV = self.present(grads, 2)
        L, V = saved.eigenvalues, saved.eigenvectors
        inner = fn.diag_embed(gL) if gL is not None else 0
        if gV is not None:
            VtgV = fn.matmul(_mT(V), gV)
            inner = inner + _over_gaps((VtgV - _mT(VtgV)) * 0.5, L)
        return fn.matmul(fn.matmul(V, inner), _mT(V))


class LinalgCholeskyExBackward0(Node):
    formula = Formula("L", "A = L L^T, L lower triangular",
                      grad={"A": "sym(L^{-T} Phi(L^T G) L^{-1}), Phi: the lower triangle, "
                                 "its diagonal halved"})
    saves = {"L": RESULT}

    def forward(self, A, upper, info):
        self.save(upper=upper)
        return kernels.cholesky(A, upper, info)

    def backward(self, saved, grad):
        return cholesky_backward(grad, saved.L, saved.upper)


class CholeskyBackward0(LinalgCholeskyExBackward0):
    formula = Formula("L", "A = L L^T (torch.cholesky, the older name)",
                      grad={"A": "as linalg.cholesky's"})
    saves = {"result": RESULT}

    def backward(self, saved, grad):
        return cholesky_backward(grad, saved.result, saved.upper)


def cholesky_backward(grad, L, upper: bool):
    """sym(L^{-T} Phi(L^T G) L^{-1}), Phi the lower triangle with its diagonal halved."""
    L = _mT(L) if upper else L
    grad = _mT(grad) if upper else grad
    phi = fn.tril(fn.matmul(_mT(L), grad), 0)
    phi = phi - fn.diag_embed(fn.diagonal(phi, 0, -2, -1)) * 0.5
    L_inverse = fn.inverse(L)
    grad_A = fn.matmul(fn.matmul(_mT(L_inverse), phi), L_inverse)
    return (grad_A + _mT(grad_A)) * 0.5


class CholeskySolveBackward0(Node):
    formula = Formula("X", "(L L^T)^{-1} B, L a Cholesky factor (upper: U^T U)",
                      grad={"B": "cholesky_solve(G, L)",
                            "L": "-(C + C^T) L, C = cholesky_solve(G, L) X^T (upper: -U (C + C^T))"})
    saves = {"self": Input(0), "input2": Input(1), "result": RESULT}

    def forward(self, B, L, upper):
        self.save(upper=upper)
        return kernels.cholesky_solve(B, L, upper)

    def backward(self, saved, grad):
        L, upper = saved.input2, saved.upper
        grad_B = fn.cholesky_solve(grad, L, upper)
        common = fn.matmul(grad_B, _mT(saved.result))
        common = common + _mT(common)
        grad_L = -fn.matmul(L, common) if upper else -fn.matmul(common, L)
        return grad_B, grad_L


class CholeskyInverseBackward0(Node):
    formula = Formula("Y", "(L L^T)^{-1}, L a Cholesky factor (upper: (U^T U)^{-1})",
                      grad={"L": "-Y (G + G^T) Y L (upper: -U Y (G + G^T) Y)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, L, upper):
        self.save(upper=upper)
        return kernels.cholesky_inverse(L, upper)

    def backward(self, saved, grad):
        Y = saved.result
        common = fn.matmul(Y, fn.matmul(grad + _mT(grad), Y))
        return -fn.matmul(saved.self, common) if saved.upper else -fn.matmul(common, saved.self)


class LinalgPinvBackward0(Node):
    formula = Formula("P", "pinv(A) (from the SVD)", grad={"A": "torch's pinv_backward"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, A, atol, rtol, hermitian):
        return kernels.pinv(A, atol, rtol, hermitian)

    def backward(self, saved, grad):
        return pinv_backward(grad, saved.result, saved.self)


class LinalgLstsqBackward0(_Factorization):
    formula = Formula("X, r", "X = argmin ||A X - B|| (= pinv(A) B), r = ||A X - B||^2 by column",
                      grad={"B": "pinv(A)^T G_X - 2 (A X - B) G_r",
                            "A": "pinv_backward(G_X B^T) + 2 (A X - B) G_r X^T"})

    saves = {"self": Input(0), "b": Input(1)}

    def forward(self, A, B, rcond, vector, driver):
        solution = kernels.lstsq(A, B[..., None] if vector else B, rcond, driver)[0]
        residuals = lstsq_residuals(A, B[..., None] if vector else B, solution, rcond, driver)
        self.save(_vector=vector, _residuals=residuals.size > 0)
        return solution[..., 0] if vector else solution, residuals

    def backward(self, saved, *grads):
        grad, grad_r = self.present(grads, 2)
        vector, A = saved._vector, saved.self
        B, pinv = _column(saved.b, vector), fn.pinv(saved.self)
        grad_A = grad_B = None
        if grad is not None:
            grad = _column(grad, vector)
            grad_A = pinv_backward(fn.matmul(grad, _mT(B)), pinv, A)
            grad_B = fn.matmul(_mT(pinv), grad)
        if grad_r is not None and saved._residuals:  # (X is optimal: r holds X still)
            X = fn.matmul(pinv, B)
            weighted = (fn.matmul(A, X) - B) * fn.unsqueeze(grad_r, -2) * 2
            grad_A = _added(grad_A, fn.matmul(weighted, _mT(X)))
            grad_B = _added(grad_B, -weighted)
        return grad_A, None if grad_B is None else fn.squeeze(grad_B, -1) if vector else grad_B


def _added(total, more):
    return more if total is None else total + more


def lstsq_residuals(A, B, solution, rcond, driver):
    """||A X - B||^2 by column, where torch's drivers give it: not gelsy, a tall A, and (but
    for gels, which does not ask) every A of full column rank; else empty."""
    m, n = A.shape[-2:]
    rank = kernels.lstsq(A, B, rcond, driver)[1] if driver in ("gelsd", "gelss") else None
    if driver == "gelsy" or m <= n or (rank is not None and (rank != n).any()):
        return np.zeros(0, A.dtype)
    return ((A @ solution - B) ** 2).sum(-2)


# ---- the factorizations' derivatives (as torch's FunctionsManual.cpp writes them) ----------


def svd_backward(gU, gS, gVh, U, S, Vh):
    """dL/dA for A = U diag(S) Vh (the reduced factors): the gradients of U and Vh
    rotate within the singular vectors (their skew parts over S_j^2 - S_i^2), gS sits
    on the diagonal; for a tall (wide) A, gU (gVh) also has a part outside U's (V's) span."""
    if gU is None and gVh is None:
        return fn.matmul(U * fn.unsqueeze(gS, -2), Vh)
    m, n = U.shape[-2], Vh.shape[-1]
    V, gV = _mT(Vh), None if gVh is None else _mT(gVh)
    S_row, S_column = fn.unsqueeze(S, -2), fn.unsqueeze(S, -1)
    inner = 0
    if gU is not None:
        UtgU = fn.matmul(_mT(U), gU)
        inner = _over_gaps((UtgU - _mT(UtgU)) * S_row, S * S)
    if gV is not None:
        VtgV = fn.matmul(_mT(V), gV)
        inner = inner + _over_gaps(S_column * (VtgV - _mT(VtgV)), S * S)
    if gS is not None:
        inner = inner + fn.diag_embed(gS)
    if m > n and gU is not None:  # (I - U U^T) gU S^{-1}: the part of gU outside U's span
        gU_over_S = gU / S_row
        outside = gU_over_S - fn.matmul(U, fn.matmul(_mT(U), gU_over_S))
        return fn.matmul(fn.matmul(U, inner) + outside, Vh)
    if m < n and gV is not None:
        gVt_over_S = _mT(gV) / S_column
        outside = gVt_over_S - fn.matmul(fn.matmul(gVt_over_S, V), Vh)
        return fn.matmul(U, fn.matmul(inner, Vh) + outside)
    return fn.matmul(fn.matmul(U, inner), Vh)


def qr_backward(gQ, gR, Q, R):
    """dL/dA for A = Q R (reduced): (gQ + Q copyltu(M)) R^{-T}, M = R gR^T - gQ^T Q, where
    copyltu copies the lower triangle onto the upper one. A wide A = Q [X | Y] is
    differentiated as its square part X, with gQ + Y gR_Y^T, and gA_Y = Q gR_Y."""
    m, n = Q.shape[-2], R.shape[-1]
    if m < n:
        gR_square = None if gR is None else gR[..., :m]
        gR_rest = None if gR is None else gR[..., m:]
        Y = fn.matmul(Q, R[..., m:])
        if gR_rest is not None:
            gQ = fn.matmul(Y, _mT(gR_rest)) if gQ is None else gQ + fn.matmul(Y, _mT(gR_rest))
        gX = qr_backward(gQ, gR_square, Q, R[..., :m])
        gY = fn.zeros(Y.shape, Y) if gR_rest is None else fn.matmul(Q, gR_rest)
        return fn.cat([gX, gY], -1)
    M = 0
    if gR is not None:
        M = fn.matmul(R, _mT(gR))
    if gQ is not None:
        M = M - fn.matmul(_mT(gQ), Q)
    lower = fn.tril(M, -1)
    copied = lower + _mT(lower) + fn.diag_embed(fn.diagonal(M, 0, -2, -1))
    b = fn.matmul(Q, copied) if gQ is None else gQ + fn.matmul(Q, copied)
    return fn.matmul(b, _mT(fn.inverse(R)))


def pinv_backward(grad, pinvA, A):
    """torch's pinv_backward: the derivative of A^+ (Golub and Pereyra), arranged so that
    the products stay as small as A allows."""
    pinvAt, gradt = _mT(pinvA), _mT(grad)
    if A.shape[-2] <= A.shape[-1]:
        K = fn.matmul(gradt, pinvA)
        KpinvAt = fn.matmul(K, pinvAt)
        return (-_mT(fn.matmul(pinvA, K)) + KpinvAt
                - fn.matmul(fn.matmul(A, pinvA), KpinvAt)
                + fn.matmul(fn.matmul(pinvAt, pinvA), gradt - fn.matmul(K, A)))
    K = fn.matmul(pinvA, gradt)
    pinvAtK = fn.matmul(pinvAt, K)
    return (-_mT(fn.matmul(K, pinvA))
            + fn.matmul(fn.matmul(gradt - fn.matmul(A, K), pinvA), pinvAt)
            + pinvAtK - fn.matmul(fn.matmul(pinvAtK, pinvA), A))


# ---- named results, printed as PyTorch prints them -----------------------------------------


def _named(name, fields):
    return return_type(name, fields)


InvExResult = _named("linalg_inv_ex", ["inverse", "info"])
SolveExResult = _named("linalg_solve_ex", ["result", "info"])
CholeskyExResult = _named("linalg_cholesky_ex", ["L", "info"])
SlogdetResult, TorchSlogdetResult = (_named("linalg_slogdet", ["sign", "logabsdet"]),
                                     _named("slogdet", ["sign", "logabsdet"]))
SvdResult = _named("linalg_svd", ["U", "S", "Vh"])
TorchSvdResult = _named("svd", ["U", "S", "V"])
QrResult = _named("linalg_qr", ["Q", "R"])
EighResult = _named("linalg_eigh", ["eigenvalues", "eigenvectors"])
LstsqResult = _named("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])


# ---- entry functions ----------------------------------------------------------------------


def vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    """(sum |x_i|**ord)**(1/ord) over ``dim`` (every element for None)."""
    dims = None if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    rules.check_vector_norm(x, ord, dims, dtype)
    return with_reduction_layout(reduction.LinalgVectorNormBackward0.apply(  # (empty: NumPy's 0s)
        x, cast_to=dtype, ord=float(ord), dim=reduction.normalize_dims(dims, x.ndim) if dims else
        tuple(range(x.ndim)), keepdim=keepdim, every_dim=dims is None,
        shown=(ord, None if dims is None else reduction.as_shown(dims))))


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, dtype=None):
    """'fro' is the vector 2-norm of the entries; 'nuc', 2, -2 the sum, max, min of the
    singular values; 1, -1 (inf, -inf) the max, min of the column (row) sums of |A|."""
    first, second = rules.check_matrix_norm(A, ord, dim)
    if ord == "fro":
        return vector_norm(A, 2, (first, second), keepdim, dtype=dtype)
    if ord in ("nuc", 2, -2):
        A = A if dtype is None else A.to(dtype)
        order = [d for d in range(A.ndim) if d not in (first, second)] + [first, second]
        values = svdvals(shape_ops.permute(A, *order))
        result = reduction.sum(values, -1, keepdim) if ord == "nuc" else (
            sorting.amax(values, -1, keepdim) if ord == 2 else sorting.amin(values, -1, keepdim))
        if keepdim:
            result = shape_ops.permute(shape_ops.unsqueeze(result, -1),
                                       *[int(d) for d in np.argsort(order)])
        return result
    if abs(ord) == float("inf"):
        first, second = second, first
    if not keepdim and first < second:
        second -= 1
    sums = vector_norm(A, 1, (first,), keepdim, dtype=dtype)
    return sorting.amax(sums, second, keepdim) if ord > 0 else sorting.amin(sums, second, keepdim)


def torch_norm(x, p="fro", dim=None, keepdim=False):
    """torch.norm and x.norm: a nuclear norm (any ``p`` string but 'fro' of up to two dims)
    is matrix_norm's, over every dim when none is given; the rest is a vector norm."""
    if isinstance(p, str) and not (p == "fro" and (dim is None or isinstance(dim, int)
                                                   or len(dim) <= 2)):
        return matrix_norm(x, p, tuple(range(x.ndim)) if dim is None else dim, keepdim)
    return reduction.norm(x, p, dim, keepdim)


def norm(A, ord=None, dim=None, keepdim=False, dtype=None):
    """A matrix norm for two dims (or a 2-D input and an ``ord``), else a vector norm."""
    rules.check_norm_dims(A, ord, dim)
    dims = None if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    if isinstance(ord, str) or (ord is not None and (
            (dims is not None and len(dims) == 2) or (dims is None and A.ndim == 2))):
        return matrix_norm(A, ord, (0, 1) if dims is None else dims, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)


def inv_ex(A, check_errors=False, name="linalg.inv_ex"):
    """(A^{-1}, info): info > 0 says where LU found the matrix singular."""
    rules.check_matrix(name, A)
    info = kernels.lu_info(A._data)
    if check_errors:
        rules.check_info("inverse", name, info)
    return InvExResult(LinalgInvExBackward0.apply(A, info=info), make(info))


def inv(A, name="linalg.inv"):
    result, info = inv_ex(A, name=name)
    rules.check_info("inverse", name, info._data)
    return result


def solve_ex(A, B, left=True, check_errors=False, name="torch.linalg.solve_ex"):
    """(X, info): X with A X = B (``left=False``: X A = B), batched; info > 0 says where
    LU found A singular."""
    vector = rules.check_solve(A, B, left)
    info = kernels.lu_info(A._data)
    if check_errors:
        rules.check_info("solve", name, info)
    result = LinalgSolveExBackward0.apply(A, B, left=left, vector=vector, info=info)
    return SolveExResult(result, make(info))


def solve(A, B, left=True):
    result, info = solve_ex(A, B, left)
    rules.check_info("solve", "torch.linalg.solve", info._data)
    return result


def det(A, name="linalg.det"):
    rules.check_matrix(name, A, half_kernel="lu_cpu")
    return LinalgDetBackward0.apply(A)


def slogdet(A, name="linalg.slogdet", result=SlogdetResult):
    rules.check_matrix(name, A, half_kernel="lu_cpu")
    return result(*LinalgSlogdetBackward0.apply(A))


def logdet(A):
    """log det(A): nan for a negative determinant (torch: where(sign == -1, nan, ...))."""
    sign, logabsdet = slogdet(A, "logdet")
    return fn.where(sign == -1, fn.as_constant(np.array(np.nan, logabsdet._data.dtype),
                                               logabsdet), logabsdet)


def svd(A, full_matrices=True):
    rules.check_matrix("linalg.svd", A, square=False, half_kernel="linalg_svd_cpu")
    return SvdResult(*LinalgSvdBackward0.apply(A, full_matrices=full_matrices))


def svd_with_v(A, some=True, compute_uv=True):
    """torch.svd, the older form: (U, S, V) with V = Vh^T (TransposeBackward0); without
    ``compute_uv`` U and V are zeros, as PyTorch returns them."""
    if not compute_uv:
        shape = A.shape[:-2]
        zeros = [make(np.zeros(shape + (k, k), A._data.dtype)) for k in A.shape[-2:]]
        values = svdvals(A) if not A.requires_grad or forward_ad.active else svd(A, False).S
        return TorchSvdResult(zeros[0], values, zeros[1])
    U, S, Vh = svd(A, full_matrices=not some)
    return TorchSvdResult(U, S, shape_ops.transpose(Vh, -2, -1))


def svdvals(A):
    rules.check_matrix("linalg.svdvals", A, square=False, half_kernel="linalg_svd_cpu")
    if not (A.requires_grad and grad_mode.is_grad_enabled() or forward_ad.active):
        return make(np.linalg.svd(A._data, compute_uv=False))
    return LinalgSvdBackward0.apply(A, full_matrices=False)[1]


def qr(A, mode="reduced"):
    rules.check_qr_mode(mode)
    rules.check_matrix("linalg.qr", A, square=False, half_kernel="linalg_qr_cpu")
    return QrResult(*LinalgQrBackward0.apply(A, mode=mode))


def eigh(A, UPLO="L"):
    rules.check_uplo(UPLO)
    rules.check_matrix("linalg.eigh", A, half_kernel="linalg_eigh_cpu")
    return EighResult(*LinalgEighBackward0.apply(A, uplo=UPLO.upper()))


def cholesky_ex(A, upper=False, check_errors=False, name="linalg.cholesky_ex"):
    """(L, info): info > 0 gives the order of the leading minor that is not
    positive-definite."""
    rules.check_matrix(name, A)
    info = kernels.cholesky_info(A._data)
    if check_errors:
        rules.check_info("cholesky", name, info)
    return CholeskyExResult(LinalgCholeskyExBackward0.apply(A, upper=upper, info=info),
                            make(info))


def cholesky(A, upper=False):
    return cholesky_ex(A, upper, check_errors=True, name="linalg.cholesky").L


def cholesky_old(A, upper=False):
    """torch.cholesky (deprecated): the factor, recorded as CholeskyBackward0."""
    rules.check_matrix("cholesky", A)
    info = kernels.cholesky_info(A._data)
    rules.check_info("cholesky", "cholesky", info)
    return CholeskyBackward0.apply(A, upper=upper, info=info)


def cholesky_solve(B, L, upper=False):
    """X with (L L^T) X = B: two triangular solves (upper: U^T U)."""
    rules.check_cholesky_solve(B, L)
    return CholeskySolveBackward0.apply(B, L, upper=upper)


def cholesky_inverse(L, upper=False):
    """(L L^T)^{-1} (upper: (U^T U)^{-1})."""
    rules.check_cholesky_inverse(L)
    return CholeskyInverseBackward0.apply(L, upper=upper)


def pinv(A, atol=None, rtol=None, hermitian=False):
    rules.check_pinv(A)
    return LinalgPinvBackward0.apply(A, atol=atol, rtol=rtol, hermitian=hermitian)


def lstsq(A, B, rcond=None, driver=None):
    """The least-squares solution of A X = B, as its named tuple (solution, residuals, rank,
    singular_values) from torch's ``driver``: gelsy (the default) gives the rank; gels the
    residuals (for a tall A); gelsd and gelss (SVDs) all of them."""
    driver = rules.check_lstsq(A, B, driver)
    vector = B.ndim == A.ndim - 1
    solution, residuals = LinalgLstsqBackward0.apply(A, B, rcond=rcond, vector=vector,
                                                     driver=driver)
    _, rank, values = kernels.lstsq(A._data, B._data[..., None] if vector else B._data, rcond,
                                    driver)
    empty = np.zeros(0, A._data.dtype)
    return LstsqResult(solution, residuals,
                       make(np.zeros(0, np.int64) if rank is None else np.asarray(rank)),
                       make(empty if values is None else values))


def matrix_power(A, n):
    """A multiplied by itself n times, as torch computes it (so the same nodes): n = 0
    copies the identity into a clone, n < 0 inverts first, 2 and 3 are one or two
    products, larger n repeated squaring."""
    rules.check_matrix("linalg.matrix_power", A, floating=False)
    if n == 0:
        identity = make(np.broadcast_to(np.eye(A.shape[-1], dtype=A._data.dtype), A.shape))
        return inplace.inplace(shape_ops.clone(A), inplace.copy, identity)
    if n < 0:
        A, n = inv(A), -n
    if n == 1:
        return shape_ops.clone(A)
    if n <= 3:
        square = products.matmul(A, A)
        return square if n == 2 else products.matmul(square, A)
    result = power = None
    while n > 0:
        n, bit = divmod(n, 2)
        power = A if power is None else products.matmul(power, power)
        if bit:
            result = power if result is None else products.matmul(result, power)
    return result


def matrix_exp(A):
    """exp(A) of a (batch of) square matrix (kernels/matrix_exp.py)."""
    rules.check_matrix("linalg.matrix_exp", A, floating=False)
    rules.check_float("linalg.matrix_exp", A)
    return LinalgMatrixExpBackward0.apply(A)


def matrix_rank(A, atol=None, rtol=None, hermitian=False):
    """The number of singular values above max(atol, rtol * the largest) (int64, no
    gradient), as torch counts them."""
    rules.check_matrix("linalg.matrix_rank", A, square=hermitian, half_kernel="linalg_svd_cpu")
    data = A._data
    values = np.abs(np.linalg.eigvalsh(data)) if hermitian else \
        np.linalg.svd(data, compute_uv=False)
    if rtol is None:
        rtol = np.finfo(data.dtype).eps * max(data.shape[-2:]) if not atol else 0.0
    largest = np.max(values, axis=-1, keepdims=True, initial=0)
    cutoff = np.maximum(atol or 0.0, rtol * largest)
    return make(np.asarray(np.sum(values > cutoff, axis=-1), np.int64))


def vecdot(x, y, dim=-1):
    """sum(x * y) along ``dim`` (real tensors: no conjugate), as torch writes it."""
    rules.check_vecdot(x, y)
    return reduction.sum(arithmetic.mul(x, y), dim)


def solve_triangular(A, B, upper, left=True, unitriangular=False):
    """X with A X = B (``left=False``: X A = B), A triangular: substitution, no LU."""
    rules.check_solve_triangular(A, B, left)
    return LinalgSolveTriangularBackward0.apply(A, B, cast_to=A.dtype, upper=upper, left=left,
                                                unitriangular=unitriangular)


def multi_dot(tensors):
    """A chain of matrix products in the cheapest order, as torch computes it (the same
    order, so the same ``MmBackward0`` nodes): a 1-D first (last) tensor is a row
    (column), the result viewed back to the shape without it."""
    rules.check_multi_dot(tensors)
    first, last = tensors[0], tensors[-1]
    shape = first.shape[:1] * (first.ndim == 2) + last.shape[1:] * (last.ndim == 2)
    chain = [shape_ops.unsqueeze(first, 0) if first.ndim == 1 else first, *tensors[1:-1],
             shape_ops.unsqueeze(last, -1) if last.ndim == 1 else last]
    sizes = [t.shape[0] for t in chain] + [chain[-1].shape[1]]
    split = _chain_order(sizes)

    def product(i, j):
        if i == j:
            return chain[i]
        return products.mm(product(i, split[i][j]), product(split[i][j] + 1, j))
    return shape_ops.view(product(0, len(chain) - 1), tuple(shape))


def _chain_order(sizes):
    """The matrix-chain order (dynamic programming; torch's tie rule: the first split
    of least cost, and for three matrices A(BC) only when strictly cheaper)."""
    n = len(sizes) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    if n == 3:  # (torch's own rule: A(BC) only when (AB)C costs more)
        a, b, c, d = sizes
        split[0][2] = 0 if a * c * (b + d) > b * d * (a + c) else 1
        split[1][2] = 1
        return split
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split
