"""``nn.utils.parametrizations``: ``weight_norm`` (a weight as a length g times a direction
v, Salimans and Kingma 2016), ``spectral_norm`` (a weight divided by its largest singular
value, estimated by power iteration; Miyato et al. 2018) and ``orthogonal`` (a weight kept
orthogonal: the matrix exponential or the Cayley map of a skew-symmetric matrix, or a
product of Householder reflectors), as parametrizations (``nn.utils.parametrize``),
PyTorch's modules step for step."""

from __future__ import annotations

from enum import Enum, auto

import minigrad

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor
from .. import functional as F
from ..conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..module import Module
from . import parametrize

__all__ = ["weight_norm", "spectral_norm", "orthogonal"]


class _WeightNorm(Module):
    """weight = g * v / ||v|| (the norm over every dim but ``dim``): torch._weight_norm."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return minigrad._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor):
        return minigrad.norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """``module.<name>`` as g * v / ||v||: ``parametrizations.<name>.original0`` is g (one
    length per slice along ``dim``), ``original1`` is v.

    >>> m = weight_norm(minigrad.nn.Linear(3, 4))
    >>> [name for name, _ in m.named_parameters()]
    ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    """weight / sigma, sigma = u . (W v) with u, v (buffers ``_u``, ``_v``) refined by
    ``n_power_iterations`` of the power method at every reading in training."""

    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @no_grad()
    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        for _ in range(n_power_iterations):
            self._u = F.normalize(minigrad.mv(weight_mat, self._v), dim=0, eps=self.eps,
                                  out=self._u)
            self._v = F.normalize(minigrad.mv(weight_mat.H, self._u), dim=0, eps=self.eps,
                                  out=self._v)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone(memory_format=minigrad.contiguous_format)
        v = self._v.clone(memory_format=minigrad.contiguous_format)
        sigma = minigrad.vdot(u, minigrad.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """``module.<name>`` divided by its spectral norm (dim 1 for transposed convolutions)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations,
                                                                     dim, eps))
    return module


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """X -> an orthogonal Q: exp(A) or (I - A/2)^-1 (I + A/2) for the skew-symmetric
    A = tril(X) - tril(X)^T, or the Householder product of X's lower triangle; with
    ``use_trivialization`` times a fixed orthogonal ``base`` (the last value assigned)."""

    def __init__(self, weight, orthogonal_map: _OrthMaps, *, use_trivialization=True) -> None:
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:  # (square it: zeros on the right)
                X = minigrad.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)],
                                 dim=-1)
            A = X - X.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = minigrad.matrix_exp(A)
            else:
                Id = minigrad.eye(n, dtype=A.dtype)
                Q = minigrad.linalg.solve(minigrad.add(Id, A, alpha=-0.5),
                                          minigrad.add(Id, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = minigrad.linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @no_grad()
    def right_inverse(self, Q):
        """An X whose forward is Q (assigning ``module.weight = Q``)."""
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential "
                    "or the Cayley parametrizations when use_trivialization=False.")
            A, tau = minigrad.geqrf(Q)
            A.diagonal(dim1=-2, dim2=-1).sign_()
            A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
            return A.mT if transpose else A
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:  # (completed to a square matrix by random columns, as PyTorch)
            N = minigrad.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype)
            Q = _make_orthogonal(minigrad.cat([Q, N], dim=-1))
        self.base = Q
        neg_Id = minigrad.zeros_like(Q_init)
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def _is_orthogonal(Q, eps=None):
    n, k = Q.size(-2), Q.size(-1)
    Id = minigrad.eye(k, dtype=Q.dtype)
    eps = 10.0 * n * minigrad.finfo(Q.dtype).eps
    return minigrad.allclose(Q.mH @ Q, Id, atol=eps)


def _make_orthogonal(A):
    """The Q of A's QR with R's diagonal made positive."""
    X, tau = minigrad.geqrf(A)
    Q = minigrad.linalg.householder_product(X, tau)
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Keep ``module.<name>`` orthogonal (or with orthonormal rows or columns), through
    ``orthogonal_map`` ('matrix_exp' for square weights by default, 'householder'
    otherwise, or 'cayley')."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.size(-2) == weight.size(-1) else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
