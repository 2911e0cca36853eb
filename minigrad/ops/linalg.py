"""Matrix products: ``@``/``matmul``, ``mm``, ``mv``, ``dot``, ``bmm``.

For C = A @ B the chain rule gives dL/dA = dL/dC @ B^T and dL/dB = A^T @ dL/dC:
each input's gradient is the incoming gradient multiplied by the *other*
input, transposed. ``matmul`` reduces every case to these kernels the way
PyTorch does (so ``grad_fn`` names match): 1-D @ 1-D is ``dot``, 2-D @ 2-D
``mm``, 2-D @ 1-D ``mv``, 1-D @ 2-D an unsqueezed ``mm``, and batched inputs
are flattened into ``mm`` or broadcast into ``bmm``.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes, errors
from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..kernels import linalg as kernels
from ..kernels.linalg import matrix_product, matrix_vector
from . import fn
from ..dtypes import C_TYPE_NAMES
from ..rules.conversion import as_tensor
from ..autograd.broadcast import broadcast_shapes
from ..rules.arguments import normalize_dim, normalize_dim_strict
from ..rules.linalg import check_bool_accumulate, check_bool_product
from . import shape as shape_ops

__all__ = ["matmul", "mm", "mv", "dot", "vdot", "bmm", "addmm", "addmv", "baddbmm", "addbmm",
           "addr", "bilinear", "cross"]


class MmBackward0(Node):
    formula = Formula("C", "self @ mat2", grad={"self": "G @ mat2^T", "mat2": "self^T @ G"})
    saves = {"mat2": Input(1, for_grad_of=0), "self": Input(0, for_grad_of=1)}

    def forward(self, a, b):
        # (each input's strides only for its own gradient; torch shows () otherwise)
        self.save(self_sym_sizes=a.shape,
                  self_sym_strides=_strides(a) if self.input_requires_grad(0) else (),
                  mat2_sym_sizes=b.shape,
                  mat2_sym_strides=_strides(b) if self.input_requires_grad(1) else ())
        return matrix_product(a, b)

    def backward(self, saved, grad):
        # (in torch's order, its inputs by name: mat2's gradient first)
        grad_a = grad_b = None
        if self.needs_input_grad[1]:
            grad_b = _mat2_grad(grad, saved.self, saved.mat2_sym_sizes,
                                saved.mat2_sym_strides)
        if self.needs_input_grad[0]:
            grad_a = _mat1_grad(grad, saved.mat2, saved.self_sym_sizes,
                                saved.self_sym_strides)
        return grad_a, grad_b


# (as torch's mm_mat1_backward / mm_mat2_backward: for an input laid out column by
# column (a transposed matrix) the gradient is computed transposed, so that it comes
# out laid out alike; alpha scales the product afterwards)

def _mat1_grad(grad, mat2, sizes, strides, alpha=1):
    """G @ mat2^T (times alpha), the gradient of mat1 in mat1 @ mat2."""
    if _column_major(sizes, strides):
        product = fn.t(fn.matmul(mat2, fn.t(grad)))
    else:
        product = fn.matmul(grad, fn.t(mat2))
    return product if alpha == 1 else fn.times_number(product, alpha)


def _mat2_grad(grad, mat1, sizes, strides, alpha=1):
    """mat1^T @ G (times alpha), the gradient of mat2 in mat1 @ mat2."""
    if _column_major(sizes, strides):
        product = fn.t(fn.matmul(fn.t(grad), mat1))
    else:
        product = fn.matmul(fn.t(mat1), grad)
    return product if alpha == 1 else fn.times_number(product, alpha)


def _strides(array) -> tuple:
    """An array's strides in elements, as torch counts them."""
    return tuple(step // array.itemsize for step in array.strides)


def _column_major(sizes, strides) -> bool:
    return strides[0] == 1 and strides[1] == sizes[0]


class AddmmBackward0(Node):
    formula = Formula("C",
                      "beta * self + alpha * (mat1 @ mat2)",
                      grad={"self": "beta G (summed over broadcast rows)",
                            "mat1": "alpha G @ mat2^T",
                            "mat2": "alpha mat1^T @ G"},
                      note="A linear layer: bias + x @ W^T.")
    saves = {"mat2": Input(2, for_grad_of=1), "mat1": Input(1, for_grad_of=2)}

    def forward(self, bias, a, b, beta=1, alpha=1):
        self.save(beta=beta, alpha=alpha, mat1_sym_sizes=a.shape,
                  mat1_sym_strides=_strides(a) if self.input_requires_grad(1) else (),
                  mat2_sym_sizes=b.shape,
                  mat2_sym_strides=_strides(b) if self.input_requires_grad(2) else ())
        return kernels.addmm(bias, a, b, beta, alpha)

    def backward(self, saved, grad):
        alpha, beta = saved.alpha, saved.beta
        needs_bias, needs_a, needs_b = self.needs_input_grad
        # (in torch's order, its inputs by name: mat1, mat2, self)
        grad_a = _mat1_grad(grad, saved.mat2, saved.mat1_sym_sizes, saved.mat1_sym_strides,
                            alpha) if needs_a else None
        grad_b = _mat2_grad(grad, saved.mat1, saved.mat2_sym_sizes, saved.mat2_sym_strides,
                            alpha) if needs_b else None
        grad_bias = (grad if beta == 1 else grad * beta) if needs_bias else None
        return grad_bias, grad_a, grad_b


class MvBackward0(Node):
    formula = Formula("y", "self @ vec", grad={"self": "outer(G, vec)", "vec": "self^T @ G"})
    saves = {"vec": Input(1, for_grad_of=0), "self": Input(0, for_grad_of=1)}

    def forward(self, a, v):
        return matrix_vector(a, v)

    def backward(self, saved, grad):
        grad_a = fn.reshape(grad, (-1, 1)) * saved.vec \
            if self.needs_input_grad[0] else None  # (torch's ger: a column times a row)
        grad_v = fn.matmul(fn.t(saved.self), grad) if self.needs_input_grad[1] else None
        return grad_a, grad_v


class DotBackward0(Node):
    formula = Formula("y", "sum(self * tensor)", d={"self": "tensor", "tensor": "self"})
    saves = {"tensor": Input(1, for_grad_of=0), "self": Input(0, for_grad_of=1)}

    def forward(self, a, b):
        return kernels.dot(a, b)

    def backward(self, saved, grad):
        grad_a = grad * saved.tensor if self.needs_input_grad[0] else None
        grad_b = grad * saved.self if self.needs_input_grad[1] else None
        return grad_a, grad_b


class VdotBackward0(Node):
    formula = Formula("y", "sum(conj(self) * other) (real numbers: dot)",
                      d={"self": "other", "other": "self"})
    saves = {"other": Input(1, for_grad_of=0), "self": Input(0, for_grad_of=1)}

    def forward(self, a, b):
        return kernels.dot(a, b)

    def backward(self, saved, grad):
        grad_a = grad * saved.other if self.needs_input_grad[0] else None
        grad_b = grad * saved.self if self.needs_input_grad[1] else None
        return grad_a, grad_b


class AddrBackward0(Node):
    formula = Formula("y[i, j]", "beta * self[i, j] + alpha * vec1[i] * vec2[j]",
                      grad={"self": "beta G", "vec1": "alpha G @ vec2",
                            "vec2": "alpha G^T @ vec1"})
    saves = {"vec1": Input(1, for_grad_of=2), "vec2": Input(2, for_grad_of=1)}

    def forward(self, bias, vec1, vec2, beta=1, alpha=1):
        self.save(beta=beta, alpha=alpha)
        return _scaled(bias, beta) + _scaled(np.multiply.outer(vec1, vec2), alpha)

    def backward(self, saved, grad):
        _, needs_1, needs_2 = self.needs_input_grad
        grad_1 = fn.matmul(grad, saved.vec2) if needs_1 else None
        grad_2 = fn.matmul(fn.t(grad), saved.vec1) if needs_2 else None
        return (_scaled(grad, saved.beta), _scaled(grad_1, saved.alpha),
                _scaled(grad_2, saved.alpha))


class AddbmmBackward0(Node):
    formula = Formula("C", "beta * self + alpha * sum_b batch1[b] @ batch2[b]",
                      grad={"self": "beta G", "batch1": "alpha G @ batch2[b]^T, each b",
                            "batch2": "alpha batch1[b]^T @ G, each b"})
    saves = {"batch1": Input(1, for_grad_of=2), "batch2": Input(2, for_grad_of=1)}

    def forward(self, bias, a, b, beta=1, alpha=1):
        self.save(beta=beta, alpha=alpha, batch1_sym_argsize_0=a.shape[0],
                  batch1_sym_argsize_1=a.shape[1], batch2_sym_argsize_2=b.shape[2])
        return _scaled(bias, beta) + _scaled(np.matmul(a, b).sum(0), alpha)

    def backward(self, saved, grad):
        _, needs_a, needs_b = self.needs_input_grad
        batches = saved.batch1_sym_argsize_0
        grads = fn.expand(fn.unsqueeze(grad, 0), (batches, *grad.shape))
        grad_a = fn.matmul(grads, fn.transpose(saved.batch2, 1, 2)) if needs_a else None
        grad_b = fn.matmul(fn.transpose(saved.batch1, 1, 2), grads) if needs_b else None
        return (_scaled(grad, saved.beta), _scaled(grad_a, saved.alpha),
                _scaled(grad_b, saved.alpha))


class TrilinearBackward0(Node):
    formula = Formula("y[b, o]", "sum_{i, j} i1[b, i] i2[o, i, j] i3[b, j] (F.bilinear)",
                      grad={"i1": "sum_{o, j} G[b, o] i2[o, i, j] i3[b, j]",
                            "i2": "sum_b G[b, o] i1[b, i] i3[b, j]",
                            "i3": "sum_{o, i} G[b, o] i1[b, i] i2[o, i, j]"})
    saves = {"i1": Input(0), "i2": Input(1), "i3": Input(2)}

    def forward(self, x1, x2, x3, expand1, expand2, expand3, sumdim):
        self.save(expand1=expand1, expand2=expand2, expand3=expand3, sumdim=sumdim)
        return kernels.trilinear(x1, x2, x3, expand1, expand2, expand3, sumdim)

    def backward(self, saved, grad):
        # torch's _trilinear_backward: each gradient a _trilinear of G and the other two,
        # G given size-1 dims where the sum was, the input's own dims summed away
        x1, x2, x3, sumdim = saved.i1, saved.i2, saved.i3, saved.sumdim
        e1, e2, e3 = saved.expand1, saved.expand2, saved.expand3
        needs_1, needs_2, needs_3 = self.needs_input_grad
        grad_1 = trilinear(grad, x2, x3, sumdim, e2, e3, e1) if needs_1 else None
        grad_2 = trilinear(x1, grad, x3, e1, sumdim, e3, e2) if needs_2 else None
        grad_3 = trilinear(x1, x2, grad, e1, e2, sumdim, e3) if needs_3 else None
        return grad_1, grad_2, grad_3


def trilinear(x1, x2, x3, expand1, expand2, expand3, sumdim):
    """PyTorch's _trilinear (TrilinearBackward0 on tensors): the inputs given size-1 dims
    at ``expand*``, multiplied, summed over ``sumdim``."""
    if fn.is_tensor(x1) or fn.is_tensor(x2) or fn.is_tensor(x3):
        return TrilinearBackward0.apply(x1, x2, x3, expand1=tuple(expand1),
                                        expand2=tuple(expand2), expand3=tuple(expand3),
                                        sumdim=tuple(sumdim))
    return kernels.trilinear(x1, x2, x3, expand1, expand2, expand3, sumdim)


class BmmBackward0(Node):
    formula = Formula("C[b]",
                      "self[b] @ mat2[b]",
                      grad={"self": "G @ mat2^T", "mat2": "self^T @ G"},
                      note="Per batch b.")
    saves = {"mat2": Input(1, for_grad_of=0), "self": Input(0, for_grad_of=1)}

    def forward(self, a, b):
        return kernels.batched_product(a, b)

    def backward(self, saved, grad):
        # (in torch's order, its inputs by name: mat2's gradient first)
        grad_b = fn.matmul(fn.transpose(saved.self, 1, 2), grad) \
            if self.needs_input_grad[1] else None
        grad_a = fn.matmul(grad, fn.transpose(saved.mat2, 1, 2)) \
            if self.needs_input_grad[0] else None
        return grad_a, grad_b


def _dims(a) -> str:
    return "x".join(map(str, a.shape))


def _dtype(a, b):
    """mm's check: both operands must have the same dtype."""
    if a.dtype is not b.dtype:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{C_TYPE_NAMES[a.dtype]} != {C_TYPE_NAMES[b.dtype]}"
        )
    return a.dtype


def mm(a, b):
    """Matrix product of two 2-D tensors."""
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_dims(a)} and {_dims(b)})"
        )
    dtype = _dtype(a, b)
    check_bool_product("addmm_impl_cpu_", dtype, a.shape[0] * b.shape[1], a.shape[1])
    return MmBackward0.apply(a, b, cast_to=dtype)


def _addmm_dtype(bias, a, b):
    """addmm's first checks, before any shape's: self (the bias) and mat2 have one dtype,
    then mat1 and mat2 (so nn.Linear on float64 data says "mat1 and mat2 must have the
    same dtype, but got Double and Float")."""
    for name, operand in (("self", bias), ("mat1", a)):
        if operand.dtype is not b.dtype:
            raise RuntimeError(
                f"{name} and mat2 must have the same dtype, but got "
                f"{dtypes.SCALAR_NAMES[operand.dtype]} and {dtypes.SCALAR_NAMES[b.dtype]}")
    return b.dtype


def addmm(bias, a, b, *, beta=1, alpha=1):
    """beta * bias + alpha * (a @ b), for matrices a and b (``bias`` broadcasts)."""
    dtype = _addmm_dtype(bias, a, b)
    if a.ndim != 2:
        raise RuntimeError("mat1 must be a matrix, got {}-D tensor".format(a.ndim))
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix, got {}-D tensor".format(b.ndim))
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_dims(a)} and {_dims(b)})"
        )
    _check_expandable(bias, (a.shape[0], b.shape[1]))
    check_bool_accumulate("addmm_impl_cpu_", dtype, a.shape[0] * b.shape[1], a.shape[1])
    return AddmmBackward0.apply(bias, a, b, cast_to=dtype, beta=beta, alpha=alpha)


def mv(a, v):
    normalize_dim_strict(0, a.ndim)  # (torch reads mat.size(0) first: a 0-dim mat has none)
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}"
        )
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({_dims(a)}), vec ({v.shape[0]})"
        )
    if a.dtype is not v.dtype:
        names = [dtypes.SCALAR_NAMES[t.dtype] for t in (v, a, v)]
        raise RuntimeError(
            f"addmv input tensors must have the same dtype, but got {names[0]}, {names[1]}, "
            f"and {names[2]}"
        )
    check_bool_product("addmv_impl_cpu", a.dtype, a.shape[0], a.shape[1])
    return MvBackward0.apply(a, v)


def dot(a, b):
    _check_vectors(a, b)
    if a.dtype is dtypes.bool:
        raise NotImplementedError('"dot" not implemented for \'Bool\'')
    return DotBackward0.apply(a, b)


def _check_vectors(a, b) -> None:
    """dot's and vdot's checks, with PyTorch's texts."""
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors"
        )
    if a.dtype is not b.dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{dtypes.SCALAR_NAMES[a.dtype]} and {dtypes.SCALAR_NAMES[b.dtype]}"
        )
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
            f"[{b.shape[0]}] to have the same number of elements, but got {a.shape[0]} "
            f"and {b.shape[0]} elements respectively"
        )


def bmm(a, b):
    _check_bmm(a, b, bool_kernel="bmm")
    return BmmBackward0.apply(a, b, cast_to=b.dtype)  # (an empty product: b's dtype, as torch)


def _check_bmm(a, b, bool_kernel=None) -> None:
    """bmm's checks in torch's order: dims, sizes, then (``bool_kernel``) a bool first
    operand's missing kernel before the two dtypes are compared."""
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    if bool_kernel is not None:
        check_bool_product(bool_kernel, a.dtype, a.shape[0] * a.shape[1] * b.shape[2], a.shape[2])
    # (bmm's kernel compares the dtypes only where it has products to sum)
    if a.dtype is not b.dtype and (bool_kernel is None or a.numel() * b.shape[2]):
        raise RuntimeError(
            f"expected scalar type {dtypes.SCALAR_NAMES[a.dtype]} but found "
            f"{dtypes.SCALAR_NAMES[b.dtype]}"
        )


def matmul(a, b):
    """The matrix product with NumPy's rules for 1-D and batched inputs, reduced
    to dot/mv/mm/bmm exactly as PyTorch's ``matmul`` does, so the graph shows the
    same nodes (a batch folded into the rows of one ``mm`` when that needs no copy
    or saves a large gradient; otherwise expanded batches through ``bmm``)."""
    a, b = as_tensor(a), as_tensor(b)
    dim_a, dim_b = a.ndim, b.ndim
    if dim_a == 0 or dim_b == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {dim_a}D "
            f"and {dim_b}D"
        )
    if dim_a == 1 and dim_b == 1:
        return dot(a, b)
    if dim_a == 2 and dim_b == 1:
        return mv(a, b)
    if dim_a == 1 and dim_b == 2:
        return _squeeze_inplace(mm(a.unsqueeze(0), b), 0)
    if dim_a == 2 and dim_b == 2:
        return mm(a, b)
    if _should_fold(a, b):
        # (B..., n, m) @ (m, p): fold the batch into the rows of one mm. For a
        # 1-D/2-D tensor times a batch, transpose everything and fold the other way.
        transpose = dim_b > dim_a
        t1 = b.mT if transpose else a
        t2 = (a.t() if dim_a == 2 else a) if transpose else b
        output_shape = tuple(t1.shape[:-1])
        folded = t1.reshape(int(np.prod(output_shape, dtype=np.int64)), t1.shape[-1])
        if t2.ndim == 2:
            output = _unsafe_view(folded.mm(t2), output_shape + (t2.shape[1],))
            return output.mT.contiguous() if transpose else output
        return _unsafe_view(folded.mv(t2), output_shape)
    # Broadcast the batch dims and use bmm.
    n = a.shape[-2] if dim_a > 1 else 1
    m1 = a.shape[-1]
    batch_a = tuple(a.shape[:max(dim_a - 2, 0)])
    m2 = b.shape[-2] if dim_b > 1 else b.shape[0]
    p = b.shape[-1] if dim_b > 1 else 1
    batch_b = tuple(b.shape[:max(dim_b - 2, 0)])
    if dim_a == 3 and dim_b == 3 and batch_a[0] != batch_b[0]:
        # A batch of one that requires grad is squeezed (so its gradient is one mm).
        if batch_a[0] == 1 and a.requires_grad:
            return matmul(a.squeeze(0), b)
        if batch_b[0] == 1 and b.requires_grad:
            return matmul(a, b.squeeze(0))
    batch = broadcast_shapes(batch_a, batch_b)
    size = int(np.prod(batch, dtype=np.int64))
    a3 = a.expand(batch + (n, m1)).reshape(size, n, m1)
    output_shape = batch + ((n,) if dim_a > 1 else ()) + ((p,) if dim_b > 1 else ())
    if dim_b == 1:
        b3 = b.expand(batch + (m2,)).reshape(size, m2).unsqueeze(2)
        return _unsafe_view(a3.bmm(b3).squeeze(-1), output_shape)
    b3 = b.expand(batch + (m2, p)).reshape(size, m2, p)
    return _unsafe_view(a3.bmm(b3), output_shape)


def _should_fold(a, b) -> bool:
    """PyTorch's rule for folding a batch into one mm: the larger tensor has >= 3
    dims and the other <= 2, and either the smaller one requires grad (a bmm
    would make its gradient batch-sized), or the larger one is the left operand
    and its batch dims can be merged without a copy."""
    a_larger = a.ndim >= b.ndim
    t1 = a if a_larger else b.mT
    small = b if a_larger else a
    if not (t1.ndim >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a.ndim == 2:
        return False
    if t1.numel() == 0:
        return True
    shape = t1.shape
    strides = [stride // t1._data.itemsize for stride in t1._data.strides]
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(t1.ndim - 2))


def _squeeze_inplace(x, dim):
    return shape_ops.squeeze_(x, dim)


def _unsafe_view(x, shape):
    return shape_ops.UnsafeViewBackward0.apply(x, shape=tuple(shape))



class LinalgCrossBackward0(Node):
    formula = Formula("z", "x × y along dim: z_i = x_j y_k - x_k y_j (i, j, k in turn)",
                      grad={"x": "y × G", "y": "G × x"})
    saves = {"self": Input(0, for_grad_of=1), "other": Input(1, for_grad_of=0)}

    def forward(self, a, b, dim):
        self.save(dim=dim)
        return kernels.cross(a, b, dim)

    def backward(self, saved, grad):
        needs_self, needs_other = self.needs_input_grad
        # (in torch's order, its inputs by name: other's gradient first)
        grad_other = fn.cross(grad, saved.self, saved.dim) if needs_other else None
        grad_self = fn.cross(saved.other, grad, saved.dim) if needs_self else None
        return grad_self, grad_other


CROSS_WARNING = (
    "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change "
    "to agree with that of linalg.cross in a future release. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)")


def cross(a, b, dim=None):
    """The cross product of 3-vectors along ``dim`` (``None``: the first dim of size 3,
    with PyTorch's deprecation warning, once a process as PyTorch gives it)."""
    if dim is None:
        errors.warn_once(CROSS_WARNING, stacklevel=4)  # (TORCH_WARN_ONCE)
        sizes = [n for n in a.shape]
        if 3 not in sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes.index(3)
    if a.ndim != b.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    wrapped = normalize_dim_strict(dim, a.ndim)  # (0-dim inputs have no dim -1)
    length = [t.shape[wrapped - (max(a.ndim, b.ndim) - t.ndim)] for t in (a, b)]
    if length != [3, 3]:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. "
                           f"Got {length[0]} and {length[1]}")
    broadcast_shapes(a.shape, b.shape)
    if a.dtype is dtypes.bool:  # (the kernel's dispatch on a's dtype, before b's is read)
        raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format("cross", "Bool"))
    if a.dtype is not b.dtype:  # (torch's kernel takes one dtype)
        raise RuntimeError(f"expected scalar type {dtypes.SCALAR_NAMES[a.dtype]} but found "
                           f"{dtypes.SCALAR_NAMES[b.dtype]}")
    return LinalgCrossBackward0.apply(a, b, cast_to=a.dtype, dim=wrapped)


class AddmvBackward0(Node):
    formula = Formula("y", "beta * self + alpha * (mat @ vec)",
                      grad={"self": "beta G", "mat": "alpha outer(G, vec)",
                            "vec": "alpha mat^T @ G"})
    saves = {"mat": Input(1, for_grad_of=2), "vec": Input(2, for_grad_of=1)}

    def forward(self, bias, mat, vec, beta=1, alpha=1):
        self.save(beta=beta, alpha=alpha)
        return _scaled(bias, beta) + _scaled(np.matmul(mat, vec), alpha)

    def backward(self, saved, grad):
        alpha, beta = saved.alpha, saved.beta
        _, needs_mat, needs_vec = self.needs_input_grad
        # (in torch's order, its inputs by name: mat, self, vec)
        grad_mat = fn.reshape(grad, (grad.shape[0], 1)) * saved.vec if needs_mat else None
        grad_mat = _scaled(grad_mat, alpha)
        grad_self = _scaled(grad, beta)
        grad_vec = fn.matmul(fn.t(saved.mat), grad) if needs_vec else None
        return grad_self, grad_mat, _scaled(grad_vec, alpha)


def _scaled(value, factor):
    """value * factor, left alone where factor is 1 (as torch skips it) or value None."""
    return value if value is None or factor == 1 else value * factor


class BaddbmmBackward0(Node):
    formula = Formula("C[b]", "beta * self[b] + alpha * (batch1[b] @ batch2[b])",
                      grad={"self": "beta G", "batch1": "alpha G @ batch2^T",
                            "batch2": "alpha batch1^T @ G"})
    saves = {"batch1": Input(1, for_grad_of=2), "batch2": Input(2, for_grad_of=1)}

    def forward(self, bias, a, b, beta=1, alpha=1):
        self.save(beta=beta, alpha=alpha)
        return _scaled(bias, beta) + _scaled(np.matmul(a, b), alpha)

    def backward(self, saved, grad):
        alpha, beta = saved.alpha, saved.beta
        _, needs_a, needs_b = self.needs_input_grad
        grad_a = fn.matmul(grad, fn.transpose(saved.batch2, 1, 2)) if needs_a else None
        grad_b = fn.matmul(fn.transpose(saved.batch1, 1, 2), grad) if needs_b else None
        return _scaled(grad, beta), _scaled(grad_a, alpha), _scaled(grad_b, alpha)


def addmv(bias, mat, vec, *, beta=1, alpha=1):
    """beta * bias + alpha * (mat @ vec)."""
    if mat.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {bias.ndim}, {mat.ndim}, "
                           f"{vec.ndim}")
    if mat.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({bias.shape[0] if bias.ndim else 1}), "
                           f"mat ({_dims(mat)}), vec ({vec.shape[0]})")
    if not bias.dtype is mat.dtype is vec.dtype:
        names = ", ".join(dtypes.SCALAR_NAMES[t.dtype] for t in (bias, mat))
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {names}, "
                           f"and {dtypes.SCALAR_NAMES[vec.dtype]}")
    broadcast_shapes(bias.shape, (mat.shape[0],))
    check_bool_product("addmv_impl_cpu", mat.dtype, mat.shape[0], mat.shape[1])
    return AddmvBackward0.apply(bias, mat, vec, cast_to=mat.dtype, beta=beta, alpha=alpha)


def vdot(a, b):
    """sum(conj(a) * b) for vectors (real numbers: a dot product)."""
    _check_vectors(a, b)
    return VdotBackward0.apply(a, b)


def addr(bias, vec1, vec2, *, beta=1, alpha=1):
    """beta * bias + alpha * outer(vec1, vec2)."""
    for name, vec in (("vec1", vec1), ("vec2", vec2)):
        if vec.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {vec.ndim}-D")
    _check_expandable(bias, (vec1.shape[0], vec2.shape[0]))
    return AddrBackward0.apply(bias, vec1, vec2, beta=beta, alpha=alpha)


def _check_expandable(bias, shape) -> None:
    """``bias`` must expand to the matrix ``shape`` (PyTorch's expand text)."""
    sizes = ", ".join(map(str, bias.shape))
    if bias.ndim > 2:
        raise RuntimeError(f"expand({shape_ops.tensor_type_name(bias)}{{[{sizes}]}}, size=[{shape[0]}, "
                           f"{shape[1]}]): the number of sizes provided ({len(shape)}) must be "
                           f"greater or equal to the number of dimensions in the tensor "
                           f"({bias.ndim})")
    for k in range(1, bias.ndim + 1):
        if bias.shape[-k] not in (1, shape[-k]):
            raise RuntimeError(
                f"The expanded size of the tensor ({shape[-k]}) must match the existing size "
                f"({bias.shape[-k]}) at non-singleton dimension {2 - k}.  Target sizes: "
                f"[{shape[0]}, {shape[1]}].  Tensor sizes: [{sizes}]")


def bilinear(x1, x2, weight):
    """y[b, o] = x1[b] . weight[o] . x2[b] for rows x1 (B, in1), x2 (B, in2): PyTorch's
    _trilinear (TrilinearBackward0)."""
    return trilinear(x1, weight, x2, (1, 3), (0,), (1, 2), (2, 3))


def addbmm(bias, a, b, *, beta=1, alpha=1):
    """beta * bias + alpha * (the sum over the batch of a[i] @ b[i])."""
    # (torch's order: bias expanded to (a.size(1), b.size(2)), then dims, batches, sizes)
    _check_expandable(bias, (a.shape[normalize_dim_strict(1, a.ndim)],
                             b.shape[normalize_dim_strict(2, b.ndim)]))
    for name, operand in (("batch1", a), ("batch2", b)):
        if operand.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{a.shape[0]} and {b.shape[0]}")
    if a.shape[2] != b.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({a.shape[1]}x{a.shape[2]} and "
                           f"{b.shape[1]}x{b.shape[2]})")
    if a.shape[0]:  # (torch's addmm_ of each batch checks the dtypes; no batch: bias's dtype)
        _addmm_dtype(bias, a, b)
    check_bool_accumulate("addmm_impl_cpu_", a.dtype, a.shape[1] * b.shape[2], a.shape[0] * a.shape[2])
    return AddbmmBackward0.apply(bias, a, b, cast_to=bias.dtype, beta=beta, alpha=alpha)


def baddbmm(bias, a, b, *, beta=1, alpha=1):
    """beta * bias + alpha * bmm(a, b), batch by batch."""
    if bias.dtype is not a.dtype:  # (checked first, as torch: then bmm's checks)
        names = [C_TYPE_NAMES[t.dtype] for t in (bias, a, b)]
        raise RuntimeError("Input dtypes must be the same, got: input {}, batch1: {}, "
                           "batch2: {}".format(*names))
    # (torch reads the result's sizes first, then expands bias to them, then checks dims)
    sizes = (a.shape[normalize_dim_strict(0, a.ndim)], a.shape[normalize_dim_strict(1, a.ndim)],
             b.shape[normalize_dim_strict(2, b.ndim)])
    if tuple(bias.shape) != sizes:
        shape_ops.expand(bias, *sizes)  # (for its check and text only)
    _check_bmm(a, b)
    check_bool_accumulate("baddbmm", a.dtype, a.shape[0] * a.shape[1] * b.shape[2], a.shape[2])
    return BaddbmmBackward0.apply(bias, a, b, cast_to=a.dtype, beta=beta, alpha=alpha)
