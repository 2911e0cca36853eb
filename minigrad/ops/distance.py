"""Pairwise distances: ``cdist(x1, x2, p)``, the p-norm distance between every row of x1
and every row of x2 (batched over leading dims).

For rows a and b, d = (sum_k |a_k - b_k|^p)^(1/p), so dd/da_k = sign(a_k - b_k)
|a_k - b_k|^(p-1) / d^(p-1) (for p = 2: (a_k - b_k) / d), and dd/db_k is its negative;
0 where d = 0. Like PyTorch, for p = 2 with more than 25 rows on either side the
distances come from one matrix product instead, |a|^2 + |b|^2 - 2 a.b, whose node is
``EuclideanDistBackward0``."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..kernels import linalg as kernels
from ..rules.linalg import check_cdist, check_pdist
from . import fn, shape

__all__ = ["cdist", "pdist"]


def _pairs(x1, x2):
    """Every row of x1 minus every row of x2: (..., P, R, M)."""
    return x1[..., :, None, :] - x2[..., None, :, :]


def distance_of(diff: np.ndarray, p: float) -> np.ndarray:
    size = np.abs(diff)
    if p == 0:
        return np.count_nonzero(diff, axis=-1).astype(diff.dtype)
    if p == np.inf:
        return np.max(size, axis=-1, initial=0).astype(diff.dtype)
    if p == 2:
        return np.sqrt(np.sum(diff * diff, axis=-1))
    return np.sum(size ** p, axis=-1) ** (1 / p)


class CdistBackward0(Node):
    formula = Formula("d[i][j]", "||x1[i] - x2[j]||_p",
                      grad={"x1": "sum_j G[i][j] sign(x1[i]-x2[j]) |x1[i]-x2[j]|^(p-1) / d^(p-1)",
                            "x2": "minus the same, summed over i"})
    saves = {"x1": Input(0), "x2": Input(1), "result": RESULT}

    def forward(self, x1, x2, p):
        self.save(p=p)
        return distance_of(_pairs(x1, x2), p)

    def backward(self, saved, grad):
        x1, x2, result = saved.x1, saved.x2, saved.result
        return (cdist_backward(grad, x1, x2, result, saved.p),  # (x2's: from x2's side,
                cdist_backward(fn.transpose(grad, -1, -2), x2, x1,  # as torch computes it)
                               fn.transpose(result, -1, -2), saved.p))


def cdist_backward(grad, x1, x2, dist, p):
    """PyTorch's ``_cdist_backward``: the kernel's bits (its order of operations, rows
    of x2 added one after another); with create_graph=True, G times the constant step
    d dist / d x1, so that the gradient stays differentiable in G."""
    if not fn.is_tensor(grad):
        return kernels.cdist_backward(grad, fn.as_array(x1), fn.as_array(x2),
                                      fn.as_array(dist), p)
    step = cdist_step(_pairs(fn.as_array(x1), fn.as_array(x2)), fn.as_array(dist), p)
    return fn.sum(fn.unsqueeze(grad, -1) * fn.as_constant(step, grad), -2)


def cdist_step(diff: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
    """d dist / d x1 for each pair (0 where the distance is 0, or p is 0)."""
    dist = dist[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:
            step = np.zeros_like(diff)
        elif p == np.inf:
            step = np.sign(diff) * (np.abs(diff) == dist)
        elif p == 1:
            step = np.sign(diff)
        else:
            step = np.sign(diff) * np.abs(diff) ** (p - 1) / dist ** (p - 1)
    return np.where(dist == 0, 0, step).astype(diff.dtype) + diff.dtype.type(0)


class PdistBackward0(Node):
    formula = Formula("d[k]", "||x[i] - x[j]||_p for the k-th pair i < j",
                      grad={"x": "sum over pairs (i, j): +- G[k] sign(x[i]-x[j]) "
                                 "|x[i]-x[j]|^(p-1) / d^(p-1)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, p):
        self.save(p=p)
        return kernels.pdist(x, p)

    def backward(self, saved, grad):
        return pdist_backward(grad, saved.self, saved.p, saved.result)


def pdist_backward(grad, x, p, dist):
    """PyTorch's ``_pdist_backward`` kernel; recorded (create_graph=True), its node,
    whose own derivative PyTorch does not have."""
    if fn.is_tensor(grad):
        return PdistBackwardBackward0.apply(grad, x, dist, p=p)
    return kernels.pdist_backward(grad, x, p, dist)


class PdistBackwardBackward0(Node):
    formula = Formula("g", "the gradient of pdist", note="PyTorch has no derivative for it.")

    def forward(self, grad, x, dist, p):
        return kernels.pdist_backward(grad, x, p, dist)

    def backward(self, saved, grad):
        raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


class EuclideanDistBackward0(Node):
    formula = Formula("d[i][j]", "sqrt(max(|x1[i]|^2 + |x2[j]|^2 - 2 x1[i].x2[j], 1e-30))",
                      grad={"x1": "x1 * sum_j r - r @ x2, r = G / d (0 where d = 0)",
                            "x2": "x2 * sum_i r - r^T @ x1"})
    saves = {"x1": Input(0), "x2": Input(1), "result": RESULT}

    def forward(self, x1, x2):
        x1_norm = np.sum(x1 * x1, axis=-1, keepdims=True)
        x2_norm = np.sum(x2 * x2, axis=-1, keepdims=True)
        left = np.concatenate([x1 * -2, x1_norm, np.ones_like(x1_norm)], axis=-1)
        right = np.concatenate([x2, np.ones_like(x2_norm), x2_norm], axis=-1)
        return np.sqrt(np.maximum(left @ np.swapaxes(right, -1, -2), 1e-30)).astype(x1.dtype)

    def backward(self, saved, grad):
        ratio = fn.where(saved.result == 0, 0, grad / saved.result)
        x1, x2 = saved.x1, saved.x2
        return (x1 * fn.sum(ratio, -1, True) - fn.matmul(ratio, x2),
                x2 * fn.unsqueeze(fn.sum(ratio, -2), -1) - fn.matmul(fn.transpose(ratio, -1, -2), x1))


def pdist(x, p=2.0):
    """The p-norm distance between each pair of rows of ``x`` (n, m), i < j."""
    check_pdist(x, p)
    return PdistBackward0.apply(shape.contiguous(x), p=float(p))


def cdist(x1, x2, p=2.0, compute_mode=None):
    """The p-norm distance between each row of ``x1`` and each row of ``x2``."""
    by_products = compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode in (None, "use_mm_for_euclid_dist_if_necessary")
        and (x1.ndim > 1 and x1.shape[-2] > 25 or x2.ndim > 1 and x2.shape[-2] > 25))
    check_cdist(x1, x2, p, p == 2 and by_products)
    if p == 2 and by_products:
        result = EuclideanDistBackward0.apply(x1, x2)
        return shape.view(result, *result.shape)
    return CdistBackward0.apply(x1, x2, cast_to=x1.dtype, p=float(p))  # (empty: x1's dtype)
