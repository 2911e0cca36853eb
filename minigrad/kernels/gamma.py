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
from .summation import sum_axes

__all__ = ["standard_gamma", "standard_gamma_grad", "sample_dirichlet", "dirichlet_grad",
           "poisson", "binomial"]

_THIRD_F = float(np.float32(1.0) / np.float32(3.0))  # (1.0f / 3.0f: a float)
_C_F = float(np.float32(0.0331))  # (0.0331f)


def _log(x: float) -> float:
    """C's log: -inf at 0, nan below (Python's math.log raises there)."""
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _exp(x: float) -> float:
    """C's exp: inf on overflow."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _pow(x: float, y: float) -> float:
    """C's pow: inf for 0 to a negative power, nan for a negative base to a fraction, inf
    on overflow (where Python's math.pow raises)."""
    try:
        return math.pow(x, y)
    except ZeroDivisionError:
        return math.inf
    except ValueError:
        return math.inf if x == 0 else math.nan
    except OverflowError:
        return math.inf


def _sqrt(x: float) -> float:
    return math.sqrt(x) if x >= 0 else math.nan


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
        scale *= _pow(1 - _uniform(gen), float(inverse))
        alpha = alpha + (np.float32(1.0) if single else 1.0)
    d = float(alpha - np.float32(_THIRD_F)) if single else alpha - _THIRD_F
    root = _sqrt(9.0 * d)
    c = 1.0 / root if root != 0 else math.inf
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
        if _log(u) < 0.5 * xx + d * (1.0 - v + _log(v)):
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
    return result + _log(x) - (0.5 / x) - y


_COEF_UV = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343,
             1, 0.32668115, 0.10406089, 0.0014179084),
            (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
             0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
            (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
             0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07))


def _grad_one(alpha: float, x: float) -> float:
    alpha, x = np.float64(alpha), np.float64(x)  # (IEEE division: inf, not an exception)
    if x < 0.8:  # a Taylor series for small x
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = _pow(x, alpha)
        gamma_pdf = _pow(x, alpha - 1) * _exp(-x)
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = (_log(x) - _digamma_one(alpha)) * gamma_cdf - pow_x_alpha * series2
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
        denom = _sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = _pow(x - alpha - alpha * _log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = (_log(x / alpha) * term23
                 - _sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x)))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    u, v = _log(x / alpha), _log(alpha)  # a bivariate rational approximation
    coef_v = [_COEF_UV[0][i] + u * (_COEF_UV[1][i] + u * _COEF_UV[2][i]) for i in range(8)]
    p = coef_v[0] + v * (coef_v[1] + v * (coef_v[2] + v * coef_v[3]))
    q = coef_v[4] + v * (coef_v[5] + v * (coef_v[6] + v * coef_v[7]))
    return _exp(p / q)


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d x / d alpha for Gamma(alpha, 1) draws ``x``, elementwise (broadcast), in double,
    rounded to the dtype."""
    alpha, x = np.broadcast_arrays(alpha, x)
    with np.errstate(all="ignore"):
        values = [_grad_one(float(a), float(b)) for a, b in zip(alpha.ravel(), x.ravel())]
    return np.array(values, dtype=np.float64).reshape(alpha.shape).astype(alpha.dtype)


# ---- Dirichlet ----------------------------------------------------------------------------


def sample_dirichlet(gen: CPUGenerator, alphas: np.ndarray) -> np.ndarray:
    """``torch._sample_dirichlet``: a Gamma(alpha, 1) draw per element in double (alphas
    in memory order), each row divided by its sum, rounded to the dtype and kept within
    [tiny, the float just below 1]."""
    flat = np.ascontiguousarray(alphas)
    gammas = np.array([_sample_one(gen, float(a), False) for a in flat.ravel()], dtype=np.float64)
    gammas = np.maximum(gammas, np.finfo(np.float64).tiny).reshape(flat.shape)
    total = sum_axes(gammas, -1, keepdims=True)
    dtype = alphas.dtype
    values = (gammas / total).astype(dtype)
    return np.minimum(np.nextafter(dtype.type(1), dtype.type(0)),
                      np.maximum(np.finfo(dtype).tiny, values))


def _digamma_typed(x, T):
    """Cephes' digamma with x kept in the type T (float32 or float), the sum in double."""
    x = T(x)
    if x == 0:
        return T(math.inf)
    result = 0.0
    while x < 10:
        result -= float(T(1) / x)
        x = x + T(1)
    if x == 10:
        return T(result + _PSI_10)
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / float(x * x)
        poly = _DIGAMMA_A[0]
        for a in _DIGAMMA_A[1:]:
            poly = poly * z + a
        y = z * poly
    return T(result + float(np.log(x) if T is np.float32 else _log(float(x)))
             - float(T(0.5) / x) - y)


def _beta_grad_alpha_small(x, alpha, beta, T):
    factor = _digamma_typed(alpha, T) - _digamma_typed(alpha + beta, T) - T(np.log(x))
    numer = T(1)
    series = numer / alpha * (factor + T(1) / alpha)
    for i in range(1, 11):
        casted_i = T(i)
        numer *= (casted_i - beta) * x / casted_i
        denom = alpha + casted_i
        series += numer / denom * (factor + T(1) / denom)
    with np.errstate(all="ignore"):
        result = x * T(np.power(T(1) - x, -beta)) * series
    return T(0) if np.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta, T):
    factor = _digamma_typed(alpha + beta, T) - _digamma_typed(beta, T)
    numer, betas, dbetas, series = T(1), T(1), T(0), factor / alpha
    for i in range(1, 9):
        casted_i = T(i)
        numer *= -x / casted_i
        dbetas = dbetas * (beta - casted_i) + betas
        betas = betas * (beta - casted_i)
        series += numer / (alpha + casted_i) * (dbetas + factor * betas)
    with np.errstate(all="ignore"):
        result = -T(np.power(T(1) - x, T(1) - beta)) * series
    return T(0) if np.isnan(result) else result


def _beta_grad_alpha_mid(x: float, alpha: float, beta: float) -> float:
    total = alpha + beta
    mean = alpha / total
    std = _sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # (the singularity at x = mean)
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / _sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = _sqrt(2 * alpha / beta) * _pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * _log(alpha / (total * x))
    term3 = _sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = (beta * _log(beta / (total * (1 - x)))
                  + alpha * _log(alpha / (total * x)))
    term4 = _pow(term4_base, -1.5)
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


_DIRICHLET_C = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]]]).tolist()


def _dirichlet_grad_one(x, alpha, total, T):
    x_, alpha_, total_ = np.float64(x), np.float64(alpha), np.float64(total)
    beta, beta_ = total - alpha, total_ - alpha_
    boundary = total * x * (T(1) - x)
    if x <= 0.5 and boundary < 2.5:  # x close to 0
        return _beta_grad_alpha_small(x, alpha, beta, T)
    if x >= 0.5 and boundary < 0.75:  # x close to 1
        return -_beta_grad_beta_small(T(1) - x, beta, alpha, T)
    if alpha > 6 and beta > 6:  # alpha and beta both large
        return T(_beta_grad_alpha_mid(x_, alpha_, beta_))
    u = _log(x_)  # a rational correction to an analytic approximation
    a = _log(alpha_) - u
    b = _log(total_) - a
    pow_u, pow_a = (1, u, u * u), (1, a, a * a)
    p = q = 0.0
    c = _DIRICHLET_C
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            p += ua * (c[0][i][j][0] + b * (c[0][i][j][1] + b * (c[0][i][j][2] + b * c[0][i][j][3])))
            q += ua * (c[1][i][j][0] + b * (c[1][i][j][1] + b * (c[1][i][j][2] + b * c[1][i][j][3])))
    approx = x_ * (float(_digamma_typed(total_, T)) - float(_digamma_typed(alpha_, T))) / beta_
    return T(p / q * approx)


def dirichlet_grad(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``torch._dirichlet_grad``: d x / d alpha for a Beta(alpha, total - alpha) draw x,
    over (1 - x), elementwise; float32 inputs computed in float32 where PyTorch's are."""
    T = np.float32 if x.dtype == np.float32 else np.float64
    x, alpha, total = np.broadcast_arrays(x, alpha, total)
    with np.errstate(all="ignore"):
        values = [_dirichlet_grad_one(T(a), T(b), T(c), T)
                  for a, b, c in zip(x.ravel(), alpha.ravel(), total.ravel())]
    return np.array(values, dtype=x.dtype).reshape(x.shape)


# ---- Poisson ------------------------------------------------------------------------------


def _poisson_one(gen: CPUGenerator, lam: float) -> int:
    """One Poisson(lam) count: Hoermann's transformed rejection (1993) from lam = 10 up,
    else Knuth's product of uniforms."""
    if not lam >= 0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10:
        slam, loglam = math.sqrt(lam), _log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            U = _uniform(gen) - 0.5
            V = _uniform(gen)
            us = 0.5 - abs(U)
            k = math.floor((2 * a / us + b) * U + lam + 0.43)
            if us >= 0.07 and V <= vr:
                return k
            if k < 0 or (us < 0.013 and V > us):
                continue
            if (_log(V) + _log(invalpha) - _log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1.0)):
                return k
    if lam == 0:
        return 0
    enlam, count, prod = _exp(-lam), 0, 1.0
    while True:
        prod *= _uniform(gen)
        if prod > enlam:
            count += 1
        else:
            return count


def poisson(gen: CPUGenerator, rates: np.ndarray) -> np.ndarray:
    """``torch.poisson``: a count per rate (flat, in memory order), in the rates' dtype."""
    return np.array([_poisson_one(gen, float(r)) for r in rates],
                    dtype=np.float64).astype(rates.dtype)


# ---- binomial -----------------------------------------------------------------------------

_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count, prob, T, gen: CPUGenerator):
    """Hoermann's BTRS (transformed rejection with squeeze), as PyTorch writes it (from
    TensorFlow's), count and prob in the tensor's type T where PyTorch keeps them."""
    stddev = float(np.sqrt(count * prob * (T(1) - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (T(1) - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(np.floor((count + T(1)) * prob))
    while True:
        U = _uniform(gen) - 0.5
        V = _uniform(gen)
        us = 0.5 - abs(U)
        k = T(math.floor((2 * a / us + b) * U + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and V <= v_r:
            return k
        V = _log(V * alpha / (a / (us * us) + b))
        upperbound = ((m + 0.5) * _log((m + 1) / (r * (float(count) - m + 1)))
                      + float(count + T(1)) * _log((float(count) - m + 1)
                                                   / float(count - k + T(1)))
                      + float(k + T(0.5)) * _log(r * float(count - k + T(1))
                                                 / float(k + T(1)))
                      + _stirling_tail(m) + _stirling_tail(float(count) - m)
                      - _stirling_tail(float(k)) - _stirling_tail(float(count - k)))
        if V <= upperbound:
            return k


def _inversion(count, prob, T, gen: CPUGenerator):
    geom_sum, num_geom = 0.0, T(0)
    logprob = float(np.log1p(-prob))
    while True:
        ratio = _log(_uniform(gen)) / logprob
        geom = math.ceil(ratio) if math.isfinite(ratio) else ratio
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom = num_geom + T(1)


def _binomial_one(gen: CPUGenerator, count, prob, T):
    if count <= 0.0 or prob <= 0.0:
        return T(0)
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if count * prob >= 10.0:
            return _btrs(count, prob, T, gen)
        return _inversion(count, prob, T, gen)
    if prob > 0.5:
        qprob = T(1.0) - prob
        if count * qprob >= 10.0:
            return count - _btrs(count, qprob, T, gen)
        return count - _inversion(count, qprob, T, gen)
    return T(math.nan)


def binomial(gen: CPUGenerator, counts: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """``torch.binomial``: a count of successes per (count, prob), broadcast, in C order."""
    T = np.float32 if counts.dtype == np.float32 else float
    counts, probs = np.broadcast_arrays(counts, probs)
    values = [_binomial_one(gen, T(n), T(p), T) for n, p in zip(counts.ravel(), probs.ravel())]
    return np.array(values, dtype=np.float64).astype(counts.dtype).reshape(counts.shape)
