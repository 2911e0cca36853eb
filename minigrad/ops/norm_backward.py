"""The derivatives of the normalisations' derivatives: what a backward through
layer_norm's, batch_norm's or group_norm's recorded first derivative computes
(create_graph=True, then backward again), op for op as PyTorch's FunctionsManual.cpp
writes them, so the nodes they record are PyTorch's, in its order.

With xhat = (x - mean) * rstd and the first derivative
dx = rstd / N * (N g - sum(g) - xhat * sum(g * xhat)), g = G * weight (sums over a
row), these are its derivatives with respect to G, x and the weight, the row's mean and
rstd moving with x.

A decision, layer_norm's and batch_norm's: their saved mean and rstd enter these
formulas as constants. PyTorch's formulas differentiate them analytically once, but
what they record holds mean and rstd fixed, so a backward through them (a third
derivative) misses the terms where they move, and fails PyTorch's own gradgradcheck.
minigrad records the same ops and so computes PyTorch's third derivative, not the true
one: the kit is checked against PyTorch, and a learner comparing the two libraries
must see the same numbers (tests/core/engine/test_formula_node_order.py compares them;
test_recorded_derivative_nodes.py shows both fail the finite-difference check).
group_norm's formula is PyTorch's differentiable one instead: mean and rstd are the
forward node's outputs 1 and 2, so its third derivative is the true one.

C++ evaluates the right operand of ``a * b`` before the left one, so where both
operands are expressions the right one is written first here.
"""

from __future__ import annotations

import numpy as np

from . import fn
from . import shape as shape_ops

__all__ = ["layer_norm_double_backward", "batch_norm_double_backward", "group_norm_backward"]


def _row_sum(x):
    return fn.sum(x, 1, True)


def _moving_statistics_terms(ggI, g, g_sum, g_mu_sum, x_mu, x_mu_rstd3, rstd2, rstd3, reduce,
                             n, g_first: bool = False):
    """The part of d(grad_input)/dx applied to ggI that comes from the mean and rstd moving
    with x, shared by layer_norm's and batch_norm's double backward (PyTorch's two C++
    functions write it alike): ``reduce`` sums over each statistic's ``n`` elements; ``g``
    is the incoming gradient times the weight for layer_norm, without it for batch_norm,
    whose C++ also writes the product ``gO * ggI`` (``g_first``) where layer_norm's has
    ``ggI * gxhat``."""
    ggI_sum, ggI_mu_sum = reduce(ggI), reduce(ggI * x_mu)
    all_sub = (ggI_sum * g_sum) / n - reduce(g * ggI if g_first else ggI * g)
    all_sub = all_sub + (rstd2 * g_mu_sum * ggI_mu_sum) * (3.0 / n)
    gI_0t = (x_mu_rstd3 * all_sub) / n
    right = g_sum / n - g
    gI_1t = (ggI_mu_sum * rstd3) / n * right
    right = ggI_sum / n - ggI
    gI_2t = (g_mu_sum * rstd3) / n * right
    return gI_0t + gI_1t + gI_2t


def _first_grad_input(gO, gamma, x_mu, rstd, rstd2, reduce, n):
    """The first backward's grad_input, (gamma rstd / n) (n gO - sum(gO) - x_mu rstd^2
    sum(gO x_mu)), as both double backwards recompute it (``reduce``, ``n``: as above)."""
    h0 = (gamma * rstd) / n
    h1 = n * gO - reduce(gO)
    right = reduce(gO * x_mu)
    return h0 * (h1 - x_mu * rstd2 * right)


def layer_norm_double_backward(x_in, gamma, ggI, ggG, ggB, gO_in, mean, rstd,
                               normalized_shape) -> tuple:
    """(gI, gG, ggO): the gradients of layer_norm's first derivative (its three
    outputs received ggI, ggG, ggB) with respect to x, the weight and G."""
    axis = x_in.ndim - len(normalized_shape)
    M = int(np.prod(x_in.shape[:axis], dtype=np.int64))
    N = int(np.prod(x_in.shape[axis:], dtype=np.int64))
    x, gO = fn.reshape(x_in, (M, N)), fn.reshape(gO_in, (M, N))
    mean, rstd = fn.reshape(mean, (M, 1)), fn.reshape(rstd, (M, 1))
    if gamma is not None:
        gamma_e = fn.reshape(gamma, (1, N))
        ggG = None if ggG is None else fn.reshape(ggG, (1, N))
        ggB = None if ggB is None else fn.reshape(ggB, (1, N))
    else:
        gamma_e = fn.ones((1,), x)
    ggI = None if ggI is None else fn.reshape(ggI, (M, N))
    x_mu = x - mean
    rstd2, rstd3 = fn.pow(rstd, 2), fn.pow(rstd, 3)
    x_mu_rstd3 = x_mu * rstd3
    gI = None
    if ggI is not None:
        gxhat = gO * gamma_e
        gxhat_mu_sum, gxhat_sum = _row_sum(gxhat * x_mu), _row_sum(gxhat)
        gI = _moving_statistics_terms(ggI, gxhat, gxhat_sum, gxhat_mu_sum, x_mu, x_mu_rstd3,
                                      rstd2, rstd3, _row_sum, N)
    if gamma is not None and ggG is not None:
        t0 = gO * ggG * rstd
        t1 = (rstd * _row_sum(gO * ggG)) / -N
        t2 = (x_mu_rstd3 * _row_sum(gO * ggG * x_mu)) / -N
        term = t0 + t1 + t2
        gI = term if gI is None else gI + term
    if gI is not None:
        gI = fn.reshape(gI, x_in.shape)

    def first_grad_input(gO_local, gamma_local):
        return _first_grad_input(gO_local, gamma_local, x_mu, rstd, rstd2, _row_sum, N)

    gG = None
    if gamma is not None and ggI is not None:
        gG = first_grad_input(ggI, fn.ones((), rstd))
        gG = fn.reshape(fn.sum(gO * gG, 0), gamma.shape)
    ggO = None if ggI is None else first_grad_input(ggI, gamma_e)
    if ggG is not None:
        term = ggG * x_mu * rstd
        ggO = term if ggO is None else ggO + term
    ggO = _plus_bias_term(ggO, ggB, gamma)
    if ggO is not None:
        ggO = fn.reshape(fn.expand(ggO, (M, N)), x_in.shape)
    return gI, gG, ggO


def _plus_bias_term(ggO, ggB, gamma):
    """ggO + ggB. Without a weight PyTorch's formula reshapes no ggB (it stays undefined),
    and adding it to a ggO raises, as here (layer_norm(x, shape, None, bias))."""
    if ggB is None or (gamma is None and ggO is None):
        return ggO
    if gamma is None:
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in "
                           "C++) for argument #1 'other'")
    return ggB if ggO is None else ggO + ggB


def _sum_but_channels(x, keepdim: bool = True):
    """A sum over every dim but dim 1, one dim at a time (torch's sum_exclude_dim1)."""
    r = fn.sum(x, 0, keepdim)
    for dim in range(r.ndim - 1, 1 if keepdim else 0, -1):
        r = fn.sum(r, dim, keepdim)
    return r


def _as_channels(values, x):
    """A (C,) vector shaped (1, C, 1, ...) against x (torch's unsqueeze_dim1)."""
    while values.ndim < x.ndim - 1:
        values = fn.unsqueeze(values, 1)
    return fn.unsqueeze(values, 0) if values.ndim == x.ndim - 1 else values


def _expanded_channels(values, x):
    """A (C,) vector expanded along dim 1 of x (torch's expand_as_dim1)."""
    while values.ndim < x.ndim - 1:
        values = fn.unsqueeze(values, 1)
    return fn.expand(values, x.shape)


def batch_norm_double_backward(x, gamma, ggI, ggG, ggB, gO, running_mean, running_var,
                               training: bool, eps: float, save_mean, save_invstd) -> tuple:
    """(gI, gG, ggO): the gradients of batch_norm's first derivative (its three outputs
    received ggI, ggG, ggB) with respect to x, the weight and G; in eval mode the
    running statistics are the constants."""
    if gamma is not None:
        gamma_e = _expanded_channels(gamma, x)
        ggG = None if ggG is None else _expanded_channels(ggG, x)
        ggB = None if ggB is None else _expanded_channels(ggB, x)
    else:
        gamma_e = fn.ones((), x)
    M = int(np.prod(x.shape, dtype=np.int64)) // x.shape[1]
    if not training:  # (the running statistics, as constants of x's kind)
        save_mean = fn.as_constant(fn.as_array(running_mean), x)
        save_invstd = fn.pow(fn.as_constant(fn.as_array(running_var), x) + eps, -0.5)
    x_mu = x - _as_channels(save_mean, x)
    rstd = _as_channels(save_invstd, x)
    rstd2, rstd3 = fn.pow(rstd, 2), fn.pow(rstd, 3)
    x_mu_rstd3 = x_mu * rstd3
    gO_mu_sum, gO_sum = _sum_but_channels(gO * x_mu), _sum_but_channels(gO)
    gI = None
    if ggI is not None and training:
        gI = gamma_e * _moving_statistics_terms(ggI, gO, gO_sum, gO_mu_sum, x_mu, x_mu_rstd3,
                                                rstd2, rstd3, _sum_but_channels, M,
                                                g_first=True)
    if gamma is not None and ggG is not None:
        if training:
            t0 = gO * rstd
            t1 = (rstd * gO_sum) / -M
            t2 = (x_mu_rstd3 * _sum_but_channels(gO * x_mu)) / -M
            term = ggG * (t0 + t1 + t2)
        else:
            term = ggG * rstd * gO
        gI = term if gI is None else gI + term

    def first_grad_input(gO_local, gamma_local):
        return _first_grad_input(gO_local, gamma_local, x_mu, rstd, rstd2, _sum_but_channels, M)

    gG = None
    if gamma is not None and ggI is not None:
        if training:
            gG = _sum_but_channels(ggI * first_grad_input(gO, fn.ones((), rstd)), False)
        else:
            gG = _sum_but_channels(ggI * gO * rstd, False)
    ggO = None
    if ggI is not None:
        ggO = first_grad_input(ggI, gamma_e) if training else ggI * rstd * gamma_e
    if ggG is not None:
        term = ggG * x_mu * rstd
        ggO = term if ggO is None else ggO + term
    return gI, gG, _plus_bias_term(ggO, ggB, gamma)


def _unsqueezed(x, dim: int):
    """``x.unsqueeze_(dim)`` (recorded as UnsqueezeBackward1, as C++'s in-place call)."""
    return shape_ops.unsqueeze_(x, dim) if fn.is_tensor(x) else np.expand_dims(x, dim)


def group_norm_backward(dY, dmean, drstd, X, mean, rstd, gamma, groups: int, needs) -> tuple:
    """group_norm's (dX, dgamma, dbeta) from the gradients of its three outputs (y, mean,
    rstd), as PyTorch's infinitely_differentiable_native_group_norm_backward: mean and
    rstd are the forward's outputs, so what is recorded sends their gradients back into
    the forward node, and a further derivative sees them move."""
    N, C = X.shape[:2]
    HxW = int(np.prod(X.shape[2:], dtype=np.int64))
    G, D = groups, C // groups
    s = 1.0 / (D * HxW)
    X_t = fn.reshape(X, (N, G, D, HxW))
    mean_t, rstd_t = fn.reshape(mean, (N, G, 1, 1)), fn.reshape(rstd, (N, G, 1, 1))
    dX = dgamma = dbeta = None
    if dY is not None:
        dY_t = fn.reshape(dY, (N, G, D, HxW))
        ds, db = _unsqueezed(fn.sum(dY_t * X_t, 3), -1), _unsqueezed(fn.sum(dY_t, 3), -1)
    if needs[0]:
        gamma_t = None if gamma is None else fn.reshape(gamma, (1, G, D, 1))
        rstd_cube = rstd_t * rstd_t * rstd_t
        dvar = None
        if drstd is not None:
            right = fn.reshape(drstd, (N, G, 1, 1))
            dvar = -0.5 * rstd_cube * right
        moments = dmean is not None and drstd is not None
        if dY is not None:
            a = rstd_t if gamma is None else rstd_t * gamma_t
            b = _unsqueezed(fn.sum(ds if gamma is None else ds * gamma_t, 2), -2)
            c = _unsqueezed(fn.sum(db if gamma is None else db * gamma_t, 2), -2)
            b = (c * mean_t - b) * rstd_cube * s
            right = c * rstd_t * s
            c = -b * mean_t - right
            right = b * X_t
            dX = a * dY_t + right + c
            if moments:
                dX = dX + _var_mean_backward(dvar, fn.reshape(dmean, (N, G, 1, 1)), X_t)
            dX = fn.reshape(dX, X.shape)
        elif moments:
            dX = fn.reshape(_var_mean_backward(dvar, fn.reshape(dmean, (N, G, 1, 1)), X_t),
                            X.shape)
    gamma_shape = (0,) if gamma is None else gamma.shape  # (torch reshapes to no weight's)
    if needs[1] and dY is not None:
        dgamma = fn.reshape(fn.sum((ds - db * mean_t) * rstd_t, 0), gamma_shape)
    if needs[2] and dY is not None:
        dbeta = fn.reshape(fn.sum(db, 0), gamma_shape)
    return dX, dgamma, dbeta


def _var_mean_backward(gvar, gmean, x):
    """The gradient of (var, mean) of x over dims 2 and 3 (kept, no correction)."""
    n = x.shape[2] * x.shape[3]
    right = x - fn.mean(x, (2, 3), True)
    gself = (2.0 / n) * gvar * right
    return gself + fn.expand(gmean, x.shape) / n
