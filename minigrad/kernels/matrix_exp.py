"""The exponential of a (batch of) square matrix, as PyTorch computes it.

exp(A) = I + A + A^2/2! + A^3/3! + ... is cut to a Taylor polynomial of degree 1, 2, 4,
8, 12 or 18, the lowest whose error bound holds for A's 1-norm (the largest column sum
of |A|), and each polynomial is evaluated with as few matrix products as Bader, Blanes
and Casas found ("Computing the matrix exponential with an optimized Taylor polynomial
approximation", Mathematics 7 (2019) 1174): degree 18 takes five. A matrix too large
for degree 18 is divided by 2^s first and the result squared s times
(exp(A) = exp(A / 2^s)^(2^s)). The bounds, coefficients and order of steps are
PyTorch's; its products are MKL's, these NumPy's, so the last bits can differ.
"""

from __future__ import annotations

import math

import numpy as np

from . import pointwise

__all__ = ["matrix_exp"]

# The largest 1-norm each degree (1, 2, 4, 8, 12, 18) is used for.
_BOUNDS = {
    np.dtype(np.float32): (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                           5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    np.dtype(np.float64): (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                           4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00),
}

# Degree 12: four combinations of {I, A, A^2, A^3}; degree 18: five of {I, A, A^2, A^3, A^6}.
_DEGREE_12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052,
               -0.04623946134063071740),
              (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
               0.01108844528519167989),
              (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
               0.00610700528898058230),
              (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
               -0.00675951846863086359))
_DEGREE_18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
               -8.92138498045729985177e-04, 0.),
              (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00,
               4.98289622525382669416e-01, -6.37898194594723280150e-04),
              (-1.09676396052962061844e+01, 1.68015813878906206114e+00,
               5.71779846478865511061e-02, -6.98210122488052056106e-03,
               3.34975017086070470649e-05),
              (-9.04316832390810593223e-02, -6.76404519071381882256e-02,
               6.75961301770459654925e-02, 2.95552570429315521194e-02,
               -1.39180257516060693404e-05),
              (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
               -1.40086798182036094347e-05))


def matrix_exp(a: np.ndarray) -> np.ndarray:
    """exp(a) for an array of shape (..., n, n)."""
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    if n == 1:
        return pointwise.exp(a)
    flat = a.reshape(-1, n, n)
    bounds = _BOUNDS.get(a.dtype, _BOUNDS[np.dtype(np.float64)])
    norms = np.abs(flat).sum(axis=-2).max(axis=-1)
    result = np.full_like(flat, np.nan)  # (a NaN norm is in no range)
    lower = -1.0
    for polynomial, upper in zip((_degree_1, _degree_2, _degree_4, _degree_8, _degree_12),
                                 bounds):
        chosen = (lower < norms) & (norms <= upper)
        if chosen.any():
            result[chosen] = polynomial(flat[chosen])
        lower = upper
    large = norms >= bounds[4]
    if large.any():
        result[large] = _scaled_and_squared(flat[large], norms[large], bounds[5])
    return result.reshape(a.shape)


def _powers(a, count: int) -> list:
    """The first ``count`` of I, A, A^2, A^3, A^6."""
    powers = [np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape), a]
    if count > 2:
        powers.append(a @ a)
    if count > 3:
        powers.append(a @ powers[2])
    if count > 4:
        powers.append(powers[3] @ powers[3])
    return powers


def _combination(matrices, coefficients):
    """sum_j coefficients[j] * matrices[j], added in order (the coefficients in the
    matrices' dtype)."""
    total = np.zeros_like(matrices[1])
    for matrix, coefficient in zip(matrices, coefficients):
        total += matrix.dtype.type(coefficient) * matrix
    return total


def _degree_1(a):
    identity, a = _powers(a, 2)
    return identity + a


def _degree_2(a):
    identity, a, a2 = _powers(a, 3)
    return identity + a + a2 / a.dtype.type(2)


def _degree_4(a):
    powers = _powers(a, 3)
    tail = powers[2] @ _combination(powers, (1 / 2.0, 1 / 6.0, 1 / 24.0))
    return _combination(powers + [tail], (1.0, 1.0, 0.0, 1.0))


def _degree_8(a):
    kind = a.dtype.type
    root = float(kind(0.1330413469565007072504e+2))  # sqrt(177), in the dtype
    x3 = float(kind(2. / 3.))
    x1, x2 = x3 * ((1. + root) / 88.), x3 * ((1. + root) / 352.)
    x4, x5 = (-271. + 29. * root) / (315. * x3), (-11. + 11. * root) / (1260. * x3)
    x6, x7 = (-99. + 11. * root) / (5040. * x3), (89. - root) / (5040. * x3 * x3)
    y2 = (857. - 58. * root) / 630.
    powers = _powers(a, 3)
    a4 = powers[2] @ _combination(powers[1:], (x1, x2))
    a8 = _combination(powers[2:] + [a4], (x3, 1.0)) @ _combination(powers + [a4],
                                                                    (x4, x5, x6, x7))
    return _combination(powers + [a4, a8], (1.0, 1.0, y2, 0.0, 1.0))


def _degree_12(a):
    powers = _powers(a, 4)
    b = [_combination(powers, row) for row in _DEGREE_12]
    b[2] += b[3] @ b[3]
    return b[0] + (b[1] + b[2]) @ b[2]


def _degree_18(a):
    powers = _powers(a, 5)
    b = [_combination(powers, row) for row in _DEGREE_18]
    b[3] += b[0] @ b[4]
    return b[1] + (b[2] + b[3]) @ b[3]


def _scaled_and_squared(a, norms, bound: float):
    """exp(a / 2^s) squared s times, s the least that brings each matrix within degree
    18's bound."""
    result = np.empty_like(a)
    for i, (matrix, norm) in enumerate(zip(a, norms)):
        s = max(0, math.ceil(math.log2(norm / bound))) if np.isfinite(norm) else 0
        value = _degree_18((matrix / matrix.dtype.type(2.0 ** s))[None])[0]
        for _ in range(s):
            value = value @ value
        result[i] = value
    return result
