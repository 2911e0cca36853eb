"""The standard Gamma distribution as PyTorch's CPU kernels compute it: ``_standard_gamma``
draws each value by Marsaglia and Tsang's acceptance-rejection method (2000) from the
generator's double uniforms and double normals, one element after another in memory order
(so the same seed gives PyTorch's numbers), and ``_standard_gamma_grad`` gives the
reparameterised gradient d sample / d alpha = -(d cdf / d alpha) / pdf by the same three
approximations (a Taylor series for small x, Rice's saddle point for large alpha, a
rational fit elsewhere), in double."""

from __future__ import annotations

import math

import numpy as np

from .random import CPUGenerator, _normal_scalar, _unit_floats

__all__ = ["standard_gamma", "standard_gamma_grad"]

_THIRD_F = float(np.float32(1.0) / np.float32(3.0))  # (1.0f / 3.0f: a float)
_C_F = float(np.float32(0.0331))  # (0.0331f)


def _uniform(gen: CPUGenerator) -> float:
    return float(_unit_floats(gen, 1, np.float64)[0])


def _normal(gen: CPUGenerator) -> float:
    return float(_normal_scalar(gen, 1, 0.0, 1.0)[0])


def _sample_one(gen: CPUGenerator, alpha, single: bool) -> float:
    """One draw of Gamma(alpha, 1). ``alpha`` keeps the tensor's precision (float32 when
    ``single``) where PyTorch's does: the boost for alpha < 1 and d = alpha - 1/3."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0:
            return 0.0
        inverse = np.float32(1.0) / alpha if single else 1.0 / alpha
        scale *= math.pow(1 - _uniform(gen), float(inverse))
        alpha = alpha + (np.float32(1.0) if single else 1.0)
    d = float(alpha - np.float32(_THIRD_F)) if single else alpha - _THIRD_F
    c = 1.0 / math.sqrt(9.0 * d) if d > 0 else math.nan
    while True:
        while True:
            x = _normal(gen)
            y = 1.0 + c * x
            if not y <= 0:
                break
        v = y * y * y
        u = 1 - _uniform(gen)
        xx = x * x
        if u < 1.0 - _C_F * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + (math.log(v) if v > 0 else math.nan)):
            return scale * d * v


def standard_gamma(gen: CPUGenerator, alphas: np.ndarray) -> np.ndarray:
    """A Gamma(alpha, 1) draw for each of ``alphas`` (flat, in memory order), in their
    dtype, at least its smallest normal number."""
    dtype = alphas.dtype
    single = dtype != np.float64
    work = alphas.astype(np.float32) if single else alphas
    values = np.array([_sample_one(gen, a if single else float(a), single) for a in work],
                      dtype=np.float64).astype(dtype)
    tiny = np.finfo(dtype).tiny
    return np.where(values > tiny, values, tiny).astype(dtype)  # (std::max(tiny, x))


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma_one(x: float) -> float:
    """Cephes' digamma for x > 0, as PyTorch's sampler code has it."""
    if x == 0:
        return math.inf
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + _PSI_10
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        poly = _DIGAMMA_A[0]
        for a in _DIGAMMA_A[1:]:
            poly = poly * z + a
        y = z * poly
    return result + math.log(x) - (0.5 / x) - y


_COEF_UV = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343,
             1, 0.32668115, 0.10406089, 0.0014179084),
            (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
             0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
            (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
             0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07))


def _grad_one(alpha: float, x: float) -> float:
    if x < 0.8:  # a Taylor series for small x
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = x ** alpha
        gamma_pdf = x ** (alpha - 1) * math.exp(-x)
        gamma_cdf = pow_x_alpha * series1
        log_x = math.log(x) if x > 0 else -math.inf
        gamma_cdf_alpha = (log_x - _digamma_one(alpha)) * gamma_cdf - pow_x_alpha * series2
        with np.errstate(all="ignore"):
            result = float(np.float64(-gamma_cdf_alpha) / np.float64(gamma_pdf))
        return 0.0 if math.isnan(result) else result
    if alpha > 8.0:  # Rice's saddle point expansion for large alpha
        if float(np.float32(0.9)) * alpha <= x <= float(np.float32(1.1)) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x)
                       - 65 * x * x / alpha + alpha * (107 + 3600 * x))
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = (x - alpha - alpha * math.log(x / alpha)) ** -1.5
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = (math.log(x / alpha) * term23
                 - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x)))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    u, v = math.log(x / alpha), math.log(alpha)  # a bivariate rational approximation
    coef_v = [_COEF_UV[0][i] + u * (_COEF_UV[1][i] + u * _COEF_UV[2][i]) for i in range(8)]
    p = coef_v[0] + v * (coef_v[1] + v * (coef_v[2] + v * coef_v[3]))
    q = coef_v[4] + v * (coef_v[5] + v * (coef_v[6] + v * coef_v[7]))
    return math.exp(p / q)


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d x / d alpha for Gamma(alpha, 1) draws ``x``, elementwise (broadcast), in double,
    rounded to the dtype."""
    alpha, x = np.broadcast_arrays(alpha, x)
    values = [_grad_one(float(a), float(b)) for a, b in zip(alpha.ravel(), x.ravel())]
    return np.array(values, dtype=np.float64).reshape(alpha.shape).astype(alpha.dtype)
