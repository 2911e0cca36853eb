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

from .. import dtypes
from ..autograd.broadcast import broadcast_shapes
from ..autograd.node import Node
from ._common import as_tensor

__all__ = ["matmul", "mm", "mv", "dot", "bmm"]


class MmBackward0(Node):
    """C = self @ mat2 (matrices).   dC/dself: G @ mat2^T,  dC/dmat2: self^T @ G"""

    def forward(self, a, b):
        self.save(self=a, mat2=b)
        return np.matmul(a, b)

    def backward(self, grad):
        grad_a = grad.mm(self._saved_mat2.t()) if self.needs_input_grad[0] else None
        grad_b = self._saved_self.t().mm(grad) if self.needs_input_grad[1] else None
        return grad_a, grad_b


class MvBackward0(Node):
    """y = self @ vec (matrix times vector).   dy/dself: outer(G, vec),  dy/dvec: self^T @ G"""

    def forward(self, a, v):
        self.save(self=a, vec=v)
        return np.matmul(a, v)

    def backward(self, grad):
        grad_a = grad.unsqueeze(1) * self._saved_vec.unsqueeze(0) \
            if self.needs_input_grad[0] else None
        grad_v = self._saved_self.t().mv(grad) if self.needs_input_grad[1] else None
        return grad_a, grad_v


class DotBackward0(Node):
    """y = sum(self * tensor) (two vectors).   dy/dself = tensor,  dy/dtensor = self"""

    def forward(self, a, b):
        self.save(self=a, tensor=b)
        return np.asarray(np.dot(a, b))

    def backward(self, grad):
        grad_a = grad * self._saved_tensor if self.needs_input_grad[0] else None
        grad_b = grad * self._saved_self if self.needs_input_grad[1] else None
        return grad_a, grad_b


class BmmBackward0(Node):
    """C[b] = self[b] @ mat2[b].   dC/dself: G @ mat2^T,  dC/dmat2: self^T @ G (per batch)"""

    def forward(self, a, b):
        self.save(self=a, mat2=b)
        return np.matmul(a, b)

    def backward(self, grad):
        grad_a = grad.bmm(self._saved_mat2.transpose(1, 2)) \
            if self.needs_input_grad[0] else None
        grad_b = self._saved_self.transpose(1, 2).bmm(grad) \
            if self.needs_input_grad[1] else None
        return grad_a, grad_b


def _dims(a) -> str:
    return "x".join(map(str, a.shape))


def _dtype(a, b):
    if a.dtype is not b.dtype:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{a.dtype.name.replace('float32', 'float').replace('float64', 'double')} != "
            f"{b.dtype.name.replace('float32', 'float').replace('float64', 'double')}"
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
    return MmBackward0.apply(a, b, cast_to=_dtype(a, b))


def mv(a, v):
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}"
        )
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({_dims(a)}), vec ({v.shape[0]})"
        )
    return MvBackward0.apply(a, v, cast_to=_dtype(a, v))


def dot(a, b):
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors"
        )
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
            f"[{b.shape[0]}] to have the same number of elements, but got {a.shape[0]} "
            f"and {b.shape[0]} elements respectively"
        )
    return DotBackward0.apply(a, b, cast_to=_dtype(a, b))


def bmm(a, b):
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    return BmmBackward0.apply(a, b, cast_to=_dtype(a, b))


def matmul(a, b):
    """The matrix product with NumPy's rules for 1-D and batched inputs."""
    a, b = as_tensor(a), as_tensor(b)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D "
            f"and {b.ndim}D"
        )
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return mv(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return mm(a.unsqueeze(0), b).squeeze(0)
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    if a.ndim >= 3 and b.ndim <= 2:
        # Fold the batch into the rows: (B..., n, m) @ (m, p) is one mm.
        batch, (n, m) = a.shape[:-2], a.shape[-2:]
        if b.ndim == 1:
            return _unsafe_view(mv(a.reshape(-1, m), b), batch + (n,))
        p = b.shape[1]
        if m != b.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({int(np.prod(batch)) * n}x{m} "
                f"and {_dims(b)})"
            )
        return _unsafe_view(mm(a.reshape(-1, m), b), batch + (n, p))
    # General case: broadcast the batch dims and use bmm.
    a_mat = a.unsqueeze(0) if a.ndim == 1 else a
    b_mat = b.unsqueeze(-1) if b.ndim == 1 else b
    n, m = a_mat.shape[-2:]
    m2, p = b_mat.shape[-2:]
    if m != m2:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{int(np.prod(b_mat.shape[:-2]))}, {m}] but got: "
            f"[{int(np.prod(b_mat.shape[:-2]))}, {m2}]."
        )
    batch = broadcast_shapes(a_mat.shape[:-2], b_mat.shape[:-2])
    size = int(np.prod(batch, dtype=np.int64))
    a3 = a_mat.expand(batch + (n, m)).reshape(size, n, m)
    b3 = b_mat.expand(batch + (m, p)).reshape(size, m, p)
    out_shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return _unsafe_view(bmm(a3, b3), out_shape)


def _unsafe_view(x, shape):
    from .shape import UnsafeViewBackward0

    return UnsafeViewBackward0.apply(x, shape=tuple(shape))


_ = dtypes
