"""torch.linalg's argument checks, with PyTorch's texts (its ``squareCheckInputs``,
``checkFloatingOrComplex``, ``_linalg_matrix_norm_checks``, ...), in PyTorch's order: the
number of dimensions, then the shape, then the dtype."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes, errors
from ..autograd.broadcast import broadcast_shapes
from .arguments import normalize_dim

__all__ = ["check_matrix", "check_vector_norm", "check_matrix_norm", "check_norm_dims",
           "is_vector_rhs", "check_solve", "check_lstsq", "check_qr_mode", "check_uplo",
           "check_qr_backward", "check_float", "check_pinv", "check_solve_triangular",
           "check_info", "check_multi_dot", "check_vecdot", "check_bool_product",
           "check_bool_accumulate", "check_lu", "check_lu_info", "check_lu_unpack",
           "check_lu_solve"]

_FLOAT_TYPES = "float, double, cfloat or cdouble"


def check_matrix(name: str, A, square: bool = True, half_kernel: str | None = None,
                 floating: bool = True) -> None:
    """``A`` is a (batch of) matrix of floats: at least 2 dims, square if asked; a float16
    ``A`` has no kernel (``half_kernel``: the name in PyTorch's NotImplementedError)."""
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if not floating:
        return
    check_float(name, A)
    if A.dtype is dtypes.float16:
        if half_kernel is not None:
            raise NotImplementedError(f'"{half_kernel}" not implemented for \'Half\'')
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")


def check_bool_product(kernel: str, dtype, result_numel: int, inner: int) -> None:
    """PyTorch's matrix-product kernels (mm, mv, bmm) have no bool version; a product
    with no term to add (an empty result or inner dimension) runs none."""
    if dtype is dtypes.bool and result_numel and inner:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def check_bool_accumulate(kernel: str, dtype, result_numel: int, inner: int) -> None:
    """addmm, addbmm and baddbmm of bools: no kernel either; with an empty inner
    dimension only ``beta * self`` is left, and torch's integer beta does not cast back
    to bool."""
    if dtype is dtypes.bool and result_numel:
        if not inner:
            raise RuntimeError("result type Long can't be cast to the desired output type Bool")
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def check_float(name: str, A) -> None:
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {dtypes.SCALAR_NAMES[A.dtype]}")


def check_pinv(A) -> None:
    if A.ndim < 2 or not A.dtype.is_floating_point or A.dtype is dtypes.float16:
        shape = ", ".join(map(str, A.shape))
        raise RuntimeError(f"linalg.pinv({dtypes.SCALAR_NAMES[A.dtype]}{{[{shape}]}}): "
                           f"expected a tensor with 2 or more dimensions of {_FLOAT_TYPES} types")


def check_vector_norm(x, ord, dim, dtype) -> None:
    """vector_norm's checks: a float input (or dtype), not narrowed by ``dtype``; no inf
    norm of an empty tensor (a max has no identity)."""
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not str")
    if dtype is not None:
        if not dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, "
                               f"but got {dtypes.SCALAR_NAMES[dtype]}")
        if x.dtype.is_floating_point and dtypes.promote_types(x.dtype, dtype) is not dtype:
            raise RuntimeError(
                f"linalg.vector_norm: the dtype of the input ({dtypes.SCALAR_NAMES[x.dtype]}) "
                "should be convertible without narrowing to the specified dtype "
                f"({dtypes.SCALAR_NAMES[dtype]})")
    check_float("linalg.vector_norm", x if dtype is None else _Typed(dtype))
    check_norm_identity(x, ord, dim)


def check_norm_identity(x, ord, dim) -> None:
    """A norm without an identity (inf, or a negative order: a min or a max) of nothing:
    PyTorch's errors (``torch.norm`` and ``linalg.vector_norm`` alike)."""
    if ord < 0 or ord == float("inf"):
        if x.numel() == 0 and dim is None:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {_order(ord)} norm on an "
                               "empty tensor because the operation does not have an identity")
        for d in () if dim is None else dim:
            if x.ndim and x.shape[normalize_dim(d, x.ndim)] == 0:  # (0-dim: one element)
                raise RuntimeError(
                    f"linalg.vector_norm cannot compute the {_order(ord)} norm on the dimension "
                    f"{d}because this dimension is empty and the operation does not have an "
                    "identity")


class _Typed:
    """Something with a dtype (for the check of vector_norm's ``dtype=``)."""

    def __init__(self, dtype):
        self.dtype = dtype


def _order(ord) -> str:
    return {float("inf"): "inf", -float("inf"): "-inf"}.get(ord, f"{ord:g}")


def check_matrix_norm(A, ord, dim) -> tuple:
    """matrix_norm's checks (the order first, then A, then dim); its two dims wrapped."""
    if isinstance(ord, str) and ord not in ("fro", "nuc") or \
            not isinstance(ord, str) and abs(ord) not in (1, 2, float("inf")):
        shown = ord if isinstance(ord, str) else f"{ord:g}"
        raise RuntimeError(f"linalg.matrix_norm: Order {shown} not supported.")
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    check_float("linalg.matrix_norm", A)
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(map(str, dim))}")
    wrapped = tuple(normalize_dim(d, A.ndim) for d in dim)
    if wrapped[0] == wrapped[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({wrapped[0]}, "
                           f"{wrapped[1]})")
    return wrapped


def check_norm_dims(x, ord, dim) -> None:
    """linalg.norm: one or two dims; without dim but with ord, a 1-D or 2-D input."""
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got [{', '.join(map(str, dims))}]")
    elif ord is not None and x.ndim not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {x.ndim}D.")


def is_vector_rhs(A, B) -> bool:
    """torch's linalg_solve_is_vector_rhs: B is one vector per matrix of A."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def check_solve(A, B, left: bool) -> bool:
    """linalg.solve's checks; whether B is a vector (or a batch of them)."""
    check_matrix("linalg.solve", A)
    if A.dtype is not B.dtype:
        raise RuntimeError("linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {dtypes.SCALAR_NAMES[A.dtype]} and B of type "
                           f"{dtypes.SCALAR_NAMES[B.dtype]} instead")
    vector = is_vector_rhs(A, B)
    rows, columns = (B.shape[-1], 1) if vector else B.shape[-2:]
    if (rows if left else columns) != A.shape[-1]:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{equation} ({A.shape[-2]}x{A.shape[-1]} and {rows}x{columns})")
    return vector


def check_lstsq(A, B, driver=None) -> str:
    """lstsq's checks with torch's texts; the driver (gelsy when None)."""
    if driver is not None and not isinstance(driver, str):
        raise TypeError(f"linalg_lstsq(): argument 'driver' must be str, not "
                        f"{type(driver).__name__}")
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if A.dtype is not B.dtype:
        raise RuntimeError("torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {dtypes.SCALAR_NAMES[A.dtype]} and "
                           f"other's dtype {dtypes.SCALAR_NAMES[B.dtype]}")
    check_float("torch.linalg.lstsq", A)
    rows = B.shape[-1] if B.ndim == A.ndim - 1 else B.shape[-2]
    if rows != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    if driver not in (None, "gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, "
                           "gelsy, gelsd, gelss)")
    return driver or "gelsy"


def check_qr_mode(mode: str) -> None:
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")


def check_uplo(uplo: str) -> None:
    if uplo.upper() not in ("L", "U") or len(uplo) != 1:
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {uplo}")


def check_qr_backward(mode: str, Q, R) -> None:
    """Where linalg.qr has no derivative (checked in backward, as torch does)."""
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going "
                           "to differentiate through linalg.qr.")
    if mode == "complete" and Q.shape[-2] > R.shape[-1]:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")


def check_solve_triangular(A, B, left: bool) -> None:
    for name, X in (("A", A), ("B", B)):
        if X.ndim < 2:
            raise RuntimeError(f"linalg.solve_triangular: The input tensor {name} must have at "
                               "least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.solve_triangular: A must be batches of square matrices, but "
                           f"they are {A.shape[-2]} by {A.shape[-1]} matrices")
    if not A.dtype.is_floating_point or A.dtype is dtypes.float16:
        raise NotImplementedError(f'"triangular_solve_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[A.dtype]}'")
    if (B.shape[-2] if left else B.shape[-1]) != A.shape[-1]:
        raise RuntimeError("linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {'AX = B' if left else 'XA = B'} ({A.shape[-2]}x"
                           f"{A.shape[-1]} and {B.shape[-2]}x{B.shape[-1]})")


def check_cholesky_inverse(L) -> None:
    """cholesky_inverse's: 2 or more dims, square, a float dtype with a kernel."""
    check_matrix("cholesky_inverse", L, floating=False)
    if not L.dtype.is_floating_point or L.dtype is dtypes.float16:
        raise NotImplementedError(f'"cholesky_inverse_out_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[L.dtype]}'")


def check_cholesky_solve(B, A) -> None:
    """cholesky_solve's checks in PyTorch's order: B and A of 2 or more dims, A square,
    the same dtype, a float dtype with a kernel, matching rows."""
    if B.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {B.ndim} dimensions "
                           "instead")
    if A.ndim < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {A.ndim} dimensions "
                           "instead")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {A.shape[-2]} "
                           f"by {A.shape[-1]} matrices")
    if B.dtype is not A.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{dtypes.SCALAR_NAMES[B.dtype]} and A of type "
                           f"{dtypes.SCALAR_NAMES[A.dtype]} instead.")
    if not A.dtype.is_floating_point or A.dtype is dtypes.float16:
        raise NotImplementedError(f'"cholesky_solve_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[A.dtype]}'")
    if A.shape[-1] != B.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{A.shape[-2]} by {A.shape[-1]} but each b matrix is "
                           f"{B.shape[-2]} by {B.shape[-1]}")
    broadcast_shapes(B.shape[:-2], A.shape[:-2])


_FAILURES = {  # what LAPACK's info > 0 means, in PyTorch's words
    "inverse": "The diagonal element {} is zero, the inversion could not be completed because "
               "the input matrix is singular.",
    "solve": "The solver failed because the input matrix is singular.",
    "cholesky": "The factorization could not be completed because the input is not "
                "positive-definite (the leading minor of order {} is not positive-definite).",
}


def check_info(kind: str, name: str, info) -> None:
    """torch.linalg.LinAlgError for the first matrix whose LAPACK ``info`` is not 0 (the
    batch element named when there is a batch)."""
    if info.any():
        index = np.flatnonzero(info)[0]
        batch = f"(Batch element {index}): " if info.ndim else ""
        raise errors._LinAlgError(f"{name}: {batch}" +
                                  _FAILURES[kind].format(info.reshape(-1)[index]))


def check_tensorinv(shape: tuple, ind: int) -> tuple:
    """(rows, columns): A's shape split at ``ind``, whose products must agree (PyTorch's
    texts)."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    if ind > len(shape):  # (C++'s slice of the shape, out of range)
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {len(shape)}")
    rows, columns = tuple(shape[:ind]), tuple(shape[ind:])
    if math.prod(rows) != math.prod(columns):
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {math.prod(columns)} != "
                           f"{math.prod(rows)}")
    return rows, columns


def check_tensorsolve(shape: tuple, other_ndim: int, other_numel: int) -> tuple:
    """The solution's shape, A's dims after B's (their product must be B's size)."""
    result_shape = tuple(shape[other_ndim:])
    if math.prod(result_shape) != other_numel:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) "
                           f"== prod(self.shape[:other.ndim]), but got {math.prod(result_shape)} "
                           f"!= {other_numel}")
    return result_shape


def check_multi_dot(tensors) -> None:
    """multi_dot's checks: 2 or more tensors, the first and last 1-D or 2-D, the others
    2-D, one dtype, sizes that chain."""
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    for index, (where, tensor) in enumerate((("first", tensors[0]), ("last", tensors[-1]))):
        if tensor.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {where} tensor must be 1D or 2D but got "
                               f"{tensor.ndim}D")
    for index, tensor in enumerate(tensors[1:-1], start=1):
        if tensor.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {index} must be 2D but got {tensor.ndim}D")
    for index, tensor in enumerate(tensors[1:], start=1):
        if tensor.dtype is not tensors[0].dtype:
            raise RuntimeError(
                "multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{dtypes.C_TYPE_NAMES[tensors[0].dtype]} and tensor {index} "
                f"{dtypes.C_TYPE_NAMES[tensor.dtype]}")
    for index in range(1, len(tensors)):
        left, right = tensors[index - 1], tensors[index]
        if left.shape[-1] != right.shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {index - 1} and {index} with shapes "
                f"[{', '.join(map(str, left.shape))}] and [{', '.join(map(str, right.shape))}] "
                "cannot be multiplied")


def check_vecdot(x, y) -> None:
    check_float("linalg.vecdot", x)
    if x.dtype is not y.dtype:
        raise RuntimeError("linalg.vecdot: Expected x and y to have the same dtype, but found x "
                           f"of type {dtypes.SCALAR_NAMES[x.dtype]} and y of type "
                           f"{dtypes.SCALAR_NAMES[y.dtype]} instead")


def check_pdist(x, p) -> None:
    """torch.pdist's checks, in its order."""
    if x.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {x.ndim}D")
    if not x.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if x.dtype is dtypes.float16 and len(x) > 1:
        raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format("pdist", "Half"))


def check_cdist(x1, x2, p, by_products: bool) -> None:
    """torch.cdist's checks, in its order: at least 2 dims, the same number of columns,
    floating dtypes, a non-negative p, then one dtype (the matrix-product form's text, or
    the kernel's)."""
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{dtypes.SCALAR_NAMES[t.dtype]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    broadcast_shapes(x1.shape[:-2], x2.shape[:-2])  # (the batch dims: torch's text)
    if x1.dtype is dtypes.float16 and not by_products and x1.numel() and x2.numel():
        raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format("cdist", "Half"))
    if x1.dtype is not x2.dtype and x1.numel() and x2.numel():
        if by_products:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                               f"{_C_NAMES[x1.dtype]} != {_C_NAMES[x2.dtype]}")
        raise RuntimeError(f"expected scalar type {dtypes.SCALAR_NAMES[x1.dtype]} but found "
                           f"{dtypes.SCALAR_NAMES[x2.dtype]}")


_C_NAMES = {dtypes.float16: "c10::Half", dtypes.float32: "float", dtypes.float64: "double"}


# ---- the LU factorization (ops/linalg_lu.py) ------------------------------------------------

_SINGULAR_LU = ("U[{0},{0}] is zero and using it on lu_solve would result in a division by "
                "zero. If you still want to perform the factorization, consider calling "
                "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


def _at_least_2d(name: str, A) -> None:
    if A.ndim < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.shape)} instead")


def check_lu(name: str, A, pivot: bool) -> None:
    """lu_factor's and lu's checks, in PyTorch's order: the dims, pivoting, the dtype."""
    _at_least_2d(name, A)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    if not A.dtype.is_floating_point or A.dtype is dtypes.float16:
        raise NotImplementedError(f'"lu_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[A.dtype]}'")


def check_lu_info(name: str, info: np.ndarray) -> None:
    """getrf's info > 0 (a zero on U's diagonal) as PyTorch's error, naming the batch
    element when A is a batch."""
    bad = np.flatnonzero(info.reshape(-1) > 0)
    if len(bad):
        where = f"(Batch element {bad[0]}): " if info.ndim else ""
        raise RuntimeError(f"{name}: {where}" + _SINGULAR_LU.format(info.reshape(-1)[bad[0]]))


def check_lu_unpack(LU, pivots) -> None:
    _at_least_2d("torch.lu_unpack", LU)
    if pivots.dtype is not dtypes.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           "torch.int32 dtype.\nNote: this function is intended to be used "
                           "with the output produced by torch.linalg.lu_factor")


def check_lu_solve(LU, pivots, B, left: bool) -> None:
    check_float("torch.linalg.lu_solve", LU)
    if LU.ndim < 2:
        raise RuntimeError("torch.linalg.lu_solve: The input tensor A must have at least 2 "
                           "dimensions.")
    if LU.shape[-1] != LU.shape[-2]:
        raise RuntimeError(f"torch.linalg.lu_solve: A must be batches of square matrices, but "
                           f"they are {LU.shape[-2]} by {LU.shape[-1]} matrices")
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n, rows = LU.shape[-1], B.shape[-2] if left else B.shape[-1]
    if rows != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{equation} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    if LU.dtype is not B.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but "
                           f"found LU of type {dtypes.SCALAR_NAMES[LU.dtype]} and B of type "
                           f"{dtypes.SCALAR_NAMES[B.dtype]} instead")
    if pivots.dtype is not dtypes.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                           "torch.int32")
    if pivots.shape[-1] != n:
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the "
                           "dimension of the matrix")
