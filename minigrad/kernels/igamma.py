"""The regularized incomplete gamma functions P(a, x) (``torch.special.gammainc``,
``torch.igamma``) and Q(a, x) = 1 - P (``gammaincc``, ``igammac``), as PyTorch 2.13's
``calc_igamma`` and ``calc_igammac`` (SciPy's, from Cephes and Boost): by the region of
(a, x), Temme's uniform asymptotic expansion for large a near x, the power series, the
series for Q that avoids cancellation, or the continued fraction, with their boundary
values. Element by element, in double (Python floats are C doubles; ``math`` is the C
library's, through ctypes where Python's own differs: lgamma, erfc), rounded to the dtype: float64 as PyTorch's, float32 computed in double where
PyTorch's float kernel steps in float (README: how often the last bit differs)."""

from __future__ import annotations

import ctypes
import math

import numpy as np

from . import cephes_tables as tables
from . import vec
from .special import libm

__all__ = ["igamma", "igammac"]

def _c_double(name: str, arguments: int = 1):
    """The C library's double function ``name`` (Python's math.lgamma is CPython's own)."""
    function = getattr(libm(), name)
    function.restype, function.argtypes = ctypes.c_double, [ctypes.c_double] * arguments
    return function


_lgamma, _erfc = _c_double("lgamma"), _c_double("erfc")
_MACHEP = 1.11022302462515654042E-16
_MAXLOG = 7.09782712893383996843E2
_LANCZOS_G = 6.024680040776729583740234375
_SMALL, _LARGE, _SMALL_RATIO, _LARGE_RATIO = 20.0, 200.0, 0.3, 4.5
# Where PyTorch's compiler fused a * b + c into one rounding: its kernels are built once per
# CPU capability (vec.CAPABILITY), and the builds differ (measured bit for bit against torch):
# calc_igammac fuses on AVX-512 and AVX2, not in the default build; the copy of it that
# calc_igamma inlines (for 1 - Q) fuses in none; calc_igamma's own power series fuses on
# AVX-512 only.
_FUSED_UPPER = vec.CAPABILITY != "default"
_FUSED_LOWER_SERIES = vec.CAPABILITY == "avx512"


def _split(v: float):
    t = 134217729.0 * v  # (2**27 + 1: Veltkamp's split into two halves of 26 bits)
    high = t - (t - v)
    return high, v - high


def _two_sum(x: float, y: float):
    total = x + y
    part = total - x
    return total, (x - (total - part)) + (y - part)


def _fma(a: float, b: float, c: float) -> float:
    """a * b + c rounded once, as the fused multiply-add PyTorch's compiler makes of it
    (the exact product's error by Dekker's split, the sum's by Knuth's two-sum, the two
    joined rounding to odd; inf and NaN as IEEE's)."""
    p = a * b
    if not (math.isfinite(p) and math.isfinite(c)) or abs(p) > 1e300 or p == 0:
        return p + c
    (ah, al), (bh, bl) = _split(a), _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s, t = _two_sum(p, c)
    u, error = _two_sum(t, e)
    if error != 0 and math.frexp(u)[0] and (int.from_bytes(
            np.float64(u).tobytes(), "little") & 1) == 0:
        u = math.nextafter(u, math.copysign(math.inf, error))
    return s + u


def _plain(a: float, b: float, c: float) -> float:
    return a * b + c


def _ratevl(x: float, num, denom, fused: bool = True) -> float:
    """num(x) / denom(x), in 1/x beyond |x| > 1 (Boost's evaluation of a rational function)."""
    mad = _fma if fused else _plain
    big = abs(x) > 1
    y = 1 / x if big else x
    n_coefficients = list(reversed(num)) if big else list(num)
    d_coefficients = list(reversed(denom)) if big else list(denom)
    num_ans = n_coefficients[0]
    for c in n_coefficients[1:]:
        num_ans = mad(num_ans, y, c)
    denom_ans = d_coefficients[0]
    for c in d_coefficients[1:]:
        denom_ans = mad(denom_ans, y, c)
    if big:
        return x ** (len(denom) - len(num)) * num_ans / denom_ans
    return num_ans / denom_ans


def _fac(a: float, x: float, fused: bool = True) -> float:
    """x**a exp(-x) / Gamma(a), by the Lanczos form when a is near x."""
    mad = _fma if fused else _plain
    if abs(a - x) > 0.4 * abs(a):
        ax = mad(a, math.log(x), -x) - _lgamma(a)
        return 0.0 if ax < -_MAXLOG else math.exp(ax)
    fac = a + _LANCZOS_G - 0.5
    res = math.sqrt(fac / 2.718281828459045) / _ratevl(
        a, tables.LANCZOS_SUM_EXPG_SCALED_NUM, tables.LANCZOS_SUM_EXPG_SCALED_DENOM, fused)
    if a < 200 and x < 200:
        return res * (math.exp(a - x) * (x / fac) ** a)
    numfac = (x - a - _LANCZOS_G + 0.5) / fac
    return res * math.exp(mad(a, math.log1p(numfac) - numfac, x * (0.5 - _LANCZOS_G) / fac))


def _series(a: float, x: float, fused: bool = True) -> float:
    """P(a, x) by its power series (DLMF 8.11.4)."""
    ax = _fac(a, x, fused)
    if ax == 0.0:
        return 0.0
    r, c, ans = a, 1.0, 1.0
    for _ in range(2000):
        r += 1.0
        c *= x / r
        ans += c
        if c <= _MACHEP * ans:
            break
    return ans * ax / a


def _complement_series(a: float, x: float, fused: bool = True) -> float:
    """Q(a, x) by DLMF 8.7.3 (small x: no cancellation)."""
    mad = _fma if fused else _plain
    fac, total = 1.0, 0.0
    for n in range(1, 2000):
        fac *= -x / n
        term = fac / (a + n)
        total += term
        if abs(term) <= _MACHEP * abs(total):
            break
    logx = math.log(x)
    term = -math.expm1(mad(a, logx, -_lgamma(1 + a)))
    return mad(-math.exp(mad(a, logx, -_lgamma(a))), total, term)


def _asymptotic(a: float, x: float, lower: bool) -> float:
    """P or Q for large a near x: Temme's expansion (DLMF 8.12.3, 8.12.4)."""
    lam, sigma = x / a, (x - a) / a
    sgn = -1 if lower else 1
    if lam > 1:
        eta = math.sqrt(-2 * (math.log1p(sigma) - sigma))
    elif lam < 1:
        eta = -math.sqrt(-2 * (math.log1p(sigma) - sigma))
    else:
        eta = 0.0
    res = 0.5 * _erfc(sgn * eta * math.sqrt(a / 2))
    etapow, total, afac, absoldterm = [1.0], 0.0, 1.0, math.inf
    for row in tables.IGAM_D:
        ck = row[0]
        for n in range(1, 25):
            if n >= len(etapow):
                etapow.append(eta * etapow[n - 1])
            ckterm = row[n] * etapow[n]
            ck += ckterm
            if abs(ckterm) < _MACHEP * abs(ck):
                break
        term = ck * afac
        if abs(term) > absoldterm:
            break
        total += term
        if abs(term) < _MACHEP * abs(total):
            break
        absoldterm = abs(term)
        afac /= a
    # (PyTorch's pi here is c10::pi<float>, rounded to float)
    return res + sgn * math.exp(-0.5 * a * eta * eta) * total / math.sqrt(
        2 * float(np.float32(math.pi)) * a)


def _continued_fraction(a: float, x: float, fused: bool = True) -> float:
    """Q(a, x) by its continued fraction (DLMF 8.9.2), rescaled when it grows."""
    mad = _fma if fused else _plain
    ax = _fac(a, x, fused)
    if ax == 0.0:
        return 0.0
    y, c = 1.0 - a, 0.0
    z = x + y + 1.0
    pkm2, qkm2, pkm1 = 1.0, x, x + 1.0
    qkm1 = z * x
    ans = pkm1 / qkm1
    for _ in range(2000):
        c += 1.0
        y += 1.0
        z += 2.0
        yc = y * c
        pk, qk = mad(pkm1, z, -(pkm2 * yc)), mad(qkm1, z, -(qkm2 * yc))
        if qk != 0:
            r = pk / qk
            t = abs((ans - r) / r)
            ans = r
        else:
            t = 1.0
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        if abs(pk) > 4.503599627370496e15:
            pkm2, pkm1 = pkm2 * 2.22044604925031308085e-16, pkm1 * 2.22044604925031308085e-16
            qkm2, qkm1 = qkm2 * 2.22044604925031308085e-16, qkm1 * 2.22044604925031308085e-16
        if t <= _MACHEP:
            break
    return ans * ax


def _near(a: float, x: float) -> bool:
    """Whether (a, x) is in the region of Temme's expansion (a large, x near a)."""
    ratio = abs(x - a) / a
    return (_SMALL < a < _LARGE and ratio < _SMALL_RATIO) or (
        a > _LARGE and ratio < _LARGE_RATIO / math.sqrt(a))


def _boundary(a: float, x: float, lower: bool):
    """The value at the edges of the domain (NaN outside it), or None inside."""
    if x < 0 or a < 0 or math.isnan(a) or math.isnan(x):
        return math.nan
    if a == 0:
        return (1.0 if lower else 0.0) if x > 0 else math.nan
    if x == 0:
        return 0.0 if lower else 1.0
    if math.isinf(a):
        return math.nan if math.isinf(x) else (0.0 if lower else 1.0)
    if math.isinf(x):
        return 1.0 if lower else 0.0
    return None


def _upper(a: float, x: float, fused: bool = _FUSED_UPPER) -> float:
    """Q(a, x); ``fused=False`` as PyTorch's calc_igamma computes it for 1 - Q (its copy of
    calc_igammac has no fused multiply-adds: measured)."""
    edge = _boundary(a, x, lower=False)
    if edge is not None:
        return edge
    if _near(a, x):
        return _asymptotic(a, x, lower=False)
    if x > 1.1:
        return 1.0 - _series(a, x, fused) if x < a else _continued_fraction(a, x, fused)
    if x <= 0.5:
        return 1.0 - _series(a, x, fused) if -0.4 / math.log(x) < a else \
            _complement_series(a, x, fused)
    return 1.0 - _series(a, x, fused) if x * 1.1 < a else _complement_series(a, x, fused)


def _lower(a: float, x: float) -> float:
    edge = _boundary(a, x, lower=True)
    if edge is not None:
        return edge
    if _near(a, x):
        return _asymptotic(a, x, lower=True)
    if x > 1.0 and x > a:
        return 1.0 - _upper(a, x, fused=False)
    return _series(a, x, _FUSED_LOWER_SERIES)


_lower_elements, _upper_elements = np.frompyfunc(_lower, 2, 1), np.frompyfunc(_upper, 2, 1)


def igamma(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x) elementwise (a and x broadcast, of one float dtype)."""
    values = _lower_elements(a.astype(np.float64), x.astype(np.float64))
    return np.asarray(values, np.float64).astype(np.result_type(a, x))


def igammac(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Q(a, x) = 1 - P(a, x) elementwise."""
    values = _upper_elements(a.astype(np.float64), x.astype(np.float64))
    return np.asarray(values, np.float64).astype(np.result_type(a, x))
