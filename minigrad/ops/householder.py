"""Householder reflectors: ``torch.geqrf`` (LAPACK's QR in its compact form: R on and above
the diagonal, the reflectors' vectors below it, and their scalars tau) and
``torch.linalg.householder_product`` (``torch.orgqr``: the first n columns of
H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^T), which ``nn.utils.parametrizations.orthogonal``
uses."""

from __future__ import annotations


import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..kernels import linalg as kernels
from . import fn
from .linalg_module import _Factorization
from ..rules.return_types import return_type

__all__ = ["geqrf", "householder_product", "GeqrfResult"]

GeqrfResult = return_type("geqrf", ["a", "tau"])


class GeqrfBackward0(_Factorization):
    formula = Formula("(a, tau)", "A = H_1 ... H_k R, compactly", d={"A": "not implemented"})

    def forward(self, A):
        return kernels.geqrf(A)

    def backward(self, saved, *grads):
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


class LinalgHouseholderProductBackward0(Node):
    formula = Formula("Q", "the first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T",
                      grad={"A": "-tau_i (G_i + G_i^T) v_i below the diagonal",
                            "tau": "-v_i^T G_i v_i"},
                      note="G_i = (H_1 ... H_i-1)^T dL/dM_i, M_i = H_1 ... H_i, from the "
                           "last reflector back")
    saves = {"input": Input(0), "tau": Input(1)}

    def forward(self, A, tau):
        return kernels.householder_product(A, tau)

    def backward(self, saved, grad):
        return householder_product_backward(grad, saved.input, saved.tau)


def _column(x, i):
    return x[..., :, i:i + 1]


def householder_product_backward(grad, A, tau):
    """The gradients of Q = (H_1 ... H_k)[:, :n] by the chain rule through the products
    M_i = M_{i-1} H_i, last reflector first: dL/dH_i = M_{i-1}^T G_i, G_{i-1} = G_i H_i."""
    m, n, k = A.shape[-2], A.shape[-1], tau.shape[-1]
    array = fn.as_array(A)
    eye = fn.as_constant(np.eye(m, dtype=array.dtype), A)
    vectors = fn.tril(A, -1) + eye[:, :n]  # (v_i: 1 on the diagonal, A's entries below)
    taus = [fn.unsqueeze(fn.unsqueeze(tau[..., i], -1), -1) for i in range(k)]
    products = [eye]
    for i in range(k):
        v = _column(vectors, i)
        products.append(products[-1] - fn.matmul(fn.matmul(products[-1], v) * taus[i],
                                                 fn.transpose(v, -2, -1)))
    G = grad if m == n else fn.cat([grad, fn.zeros(grad.shape[:-1] + (m - n,), grad)], -1)
    grad_v, grad_tau = [None] * k, [None] * k
    for i in reversed(range(k)):
        v = _column(vectors, i)
        GH = fn.matmul(fn.transpose(products[i], -2, -1), G)
        grad_tau[i] = -fn.matmul(fn.matmul(fn.transpose(v, -2, -1), GH), v)[..., 0, 0]
        grad_v[i] = -taus[i] * fn.matmul(GH + fn.transpose(GH, -2, -1), v)
        G = G - fn.matmul(fn.matmul(G, v) * taus[i], fn.transpose(v, -2, -1))
    columns = grad_v + [fn.zeros(grad_v[0].shape, grad_v[0])] * (n - k)
    return fn.tril(fn.cat(columns, -1), -1), fn.stack(grad_tau, -1)


def _check_floating(kernel: str, dtype) -> None:
    if dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[dtype]}'")


def geqrf(A):
    """LAPACK's geqrf: (a, tau), R and the Householder vectors packed in a."""
    if A.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _check_floating("geqrf_cpu", A.dtype)
    return GeqrfResult(*GeqrfBackward0.apply(A))


def householder_product(A, tau):
    """The first n columns of the product of the Householder reflectors (v_i in A's
    columns below the diagonal, tau_i), LAPACK's orgqr."""
    name = "torch.linalg.householder_product"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if tau.ndim != A.ndim - 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.ndim} and input.ndim is equal to {A.ndim}")
    if tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if tau.dtype is not A.dtype:
        raise RuntimeError(f"{name}: tau dtype {dtypes.SCALAR_NAMES[tau.dtype]} does not match "
                           f"input dtype {dtypes.SCALAR_NAMES[A.dtype]}")
    _check_floating("orgqr_cpu", A.dtype)
    return LinalgHouseholderProductBackward0.apply(A, tau)
