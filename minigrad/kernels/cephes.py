"""The rest of ``torch.special`` on arrays, as PyTorch 2.13's CPU kernels compute it
(ATen/native/Math.h, derived from the Cephes Math Library and the Faddeeva package):
Bessel functions of the first and second kind (``bessel_j0``, ``bessel_y1``, ...), the
modified ones (``modified_bessel_i1``, ``modified_bessel_k0``, their scaled forms), the
spherical ``spherical_bessel_j0``, Airy's ``airy_ai``, the normal distribution's
``ndtri`` and ``log_ndtr``, ``erfcx``, and the orthogonal polynomials (Chebyshev T, U, V,
W and their shifted forms, Hermite H and He, Laguerre L, Legendre P).

Each function follows PyTorch's, step by step, in the array's dtype (float32 in float32):
its branches, its series and recurrences in its order, each ``a * b + c`` a fused
multiply-add where PyTorch's compiler fuses it (measured: ``tests/core/ops/
test_special_functions.py`` and the README say how many values agree bit for bit), and
the C library's ``sin``, ``cos``, ``exp``, ``log`` (``sinf``... for float32) per element,
as ``std::sin`` calls them. The coefficient tables are in ``cephes_tables.py``.
Arrays are 1-D here (``ops/special_functions.py`` flattens and reshapes).
"""

from __future__ import annotations

import ctypes
import math

import numpy as np

from . import cephes_tables as tables
from . import fma
from .special import _c_library, each
from .special import i0 as _modified_i0  # (PyTorch's modified_bessel_i0 is torch.i0's steps)

__all__ = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i1",
           "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
           "scaled_modified_bessel_k1", "spherical_bessel_j0", "airy_ai", "ndtri", "erfcx",
           "log_ndtr", "POLYNOMIALS"]


# ---- the C library, element by element (std::sin of a float is sinf) -------------------

def _library(name: str):
    single, double = _c_library(name + "f"), _c_library(name, ctypes.c_double)

    def computed(x):
        if x.size == 0:
            return x.copy()
        if x.dtype == np.float32:
            return np.asarray(single(x), np.float32)
        return np.asarray(double(x), np.float64)
    computed.__name__ = name
    return computed


_sin, _cos, _exp, _log, _acos = (_library(n) for n in ("sin", "cos", "exp", "log", "acos"))
_log1p, _erfc = _library("log1p"), _library("erfc")
_log_double = each(lambda v: math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan))


def _fused(a, b, c):
    """a * b + c rounded once (the FMA PyTorch's compiler makes of it), in a's dtype."""
    if a.dtype == np.float32:
        return fma.fma32(a, b, np.asarray(c, np.float32))
    return fma.fma64(a, b, c)


def _constants(values, dtype):
    return [dtype.type(float(v)) for v in values]


def _polevl(z, coefficients):
    """Horner's rule from the highest power, p = p z + c each step fused (PyTorch's
    ``for (...) p = p * z + C[i];`` from p = 0)."""
    p = np.zeros_like(z)
    for c in _constants(coefficients, z.dtype):
        p = _fused(p, z, np.full_like(z, c))
    return p


def _chebyshev_series(y, coefficients):
    """Cephes' chbevl as PyTorch's Bessel functions write it: a = y q - p + C[i] (y q - p
    fused), then (a - p) / 2."""
    c = _constants(coefficients, y.dtype)
    p, q, a = np.zeros_like(y), np.zeros_like(y), np.full_like(y, c[0])
    for coefficient in c[1:]:
        p, q = q, a
        a = _fused(y, q, -p) + coefficient
    return y.dtype.type(0.5) * (a - p)


def _where(out, mask, value):
    """out[mask] = value (value computed on the masked elements only)."""
    out[mask] = value
    return out


def _on(x, mask, function):
    """function of the elements of x where mask holds (a 1-D array of them)."""
    return function(x[mask]) if mask.any() else x[mask]


# ---- Bessel functions of the first and second kind --------------------------------------

def _asymptotic(x, table, shift: float, sine_first: bool, inverse_square):
    """Hankel's asymptotic form beyond 5: (P(w) cos(x - shift) - 5/x Q(w) sin(x - shift))
    sqrt(2/pi) / sqrt(x) (for Y: sin and cos exchanged, +), w = 25/x^2."""
    one = x.dtype.type
    w = inverse_square(x)
    pp, pq = _polevl(w, table["PP"]), _polevl(w, table["PQ"])
    qp, qq = _polevl(w, table["QP"]), _polevl(w, table["QQ"])
    angle = x - one(shift)
    first, second = (_sin, _cos) if sine_first else (_cos, _sin)
    near = one(5.0) / x * (qp / qq) * second(angle)
    total = _fused(pp / pq, first(angle), near if sine_first else -near)
    return total * one(0.797884560802865355879892119868763737) / np.sqrt(x)


def _table(prefix: str) -> dict:
    return {name[len(prefix) + 1:]: value for name, value in vars(tables).items()
            if name.startswith(prefix + "_")}


def _twenty_five_over_square(x):
    return x.dtype.type(25.0) / (x * x)


def _five_over_x_squared(x):
    five = x.dtype.type(5.0)
    return five / x * (five / x)


def bessel_j0(x):
    """J0: for |x| <= 5 (x^2 - r1)(x^2 - r2) R(x^2) (1 - x^2/4 below 1e-5), else
    Hankel's asymptotic form."""
    one, table = x.dtype.type, _table("BESSEL_J0")
    x = np.abs(x)
    out = np.empty_like(x)
    small, tiny = x <= 5, x < 1e-5
    inner = small & ~tiny
    _where(out, tiny, one(1.0) - x[tiny] * x[tiny] / one(4.0))

    def series(v):
        s = v * v
        rp, rq = _polevl(s, table["RP"]), _polevl(s, table["RQ"])
        return (s - one(5.78318596294678452118e+00)) * (s - one(3.04712623436620863991e+01)) \
            * rp / rq
    _where(out, inner, _on(x, inner, series))
    _where(out, ~small, _on(x, ~small, lambda v: _asymptotic(
        v, table, 0.785398163397448309615660845819875721, False, _twenty_five_over_square)))
    return out


def bessel_j1(x):
    """J1 (odd): for |x| <= 5 R(x^2) x (x^2 - r1)(x^2 - r2), else the asymptotic form."""
    one, table = x.dtype.type, _table("BESSEL_J1")
    negative = x < 0
    x = np.abs(x)
    out = np.empty_like(x)
    small = x <= 5

    def series(v):
        s = v * v
        rp, rq = _polevl(s, table["RP"]), _polevl(s, table["RQ"])
        return rp / rq * v * (s - one(1.46819706421238932572e+01)) * \
            (s - one(4.92184563216946036703e+01))
    _where(out, small, _on(x, small, series))
    _where(out, ~small, _on(x, ~small, lambda v: _asymptotic(
        v, table, 2.356194490192344928846982537459627163, False, _five_over_x_squared)))
    return np.where(negative, -out, out)


def bessel_y0(x):
    """Y0: -inf at 0, NaN below; for x <= 5 Y(x^2) + 2/pi log(x) J0(x), else the
    asymptotic form."""
    one, table = x.dtype.type, _table("BESSEL_Y0")
    out = np.full_like(x, np.nan)
    small = (x <= 5) & (x > 0)
    big = x > 5

    def series(v):
        s = v * v
        yp, yq = _polevl(s, table["YP"]), _polevl(s, table["YQ"])
        return _fused(one(0.636619772367581343075535053490057448) * _log(v), bessel_j0(v),
                      yp / yq)
    _where(out, small, _on(x, small, series))
    _where(out, big, _on(x, big, lambda v: _asymptotic(
        v, table, 0.785398163397448309615660845819875721, True, _twenty_five_over_square)))
    return _where(out, x == 0, -np.inf)


def bessel_y1(x):
    """Y1: -inf at 0, NaN below; for x <= 5 x Y(x^2) + 2/pi (J1(x) log(x) - 1/x), else the
    asymptotic form."""
    one, table = x.dtype.type, _table("BESSEL_Y1")
    out = np.full_like(x, np.nan)
    small = (x <= 5) & (x > 0)
    big = x > 5

    def series(v):
        s = v * v
        yp, yq = _polevl(s, table["YP"]), _polevl(s, table["YQ"])
        logs = _fused(bessel_j1(v), _log(v), -(one(1.0) / v))
        return _fused(v, yp / yq, one(0.636619772367581343075535053490057448) * logs)
    _where(out, small, _on(x, small, series))
    _where(out, big, _on(x, big, lambda v: _asymptotic(
        v, table, 2.356194490192344928846982537459627163, True, _five_over_x_squared)))
    return _where(out, x == 0, -np.inf)


# ---- modified Bessel functions ------------------------------------------------------

def modified_bessel_i1(x):
    """I1 (odd): 0.5 (a - p) |x| exp(|x|) from the series in |x|/2 - 2 for |x| <= 8, else
    exp(|x|) 0.5 (b - p) / sqrt(|x|) from the series in 32/|x| - 2."""
    one, table = x.dtype.type, _table("MODIFIED_BESSEL_I1")
    a = np.abs(x)
    out = np.empty_like(x)
    small = a <= 8
    _where(out, small, _on(a, small, lambda v: _chebyshev_series(
        v / one(2.0) - one(2.0), table["A"]) * v * _exp(v)))
    _where(out, ~small, _on(a, ~small, lambda v: _exp(v) * _chebyshev_series(
        one(32.0) / v - one(2.0), table["B"]) / np.sqrt(v)))
    return np.where(x < 0, -out, out)


def _modified_k(x, table, order: int, scaled: bool):
    """K0 and K1 (and exp(x) K): inf at 0, NaN below; for x <= 2 the series in x^2 - 2
    with the log term (K0: series - log(x/2) I0(x), the log and the sum in double, as
    PyTorch's double 0.5 * x makes them; K1: log(x/2) I1(x) + series / x), each fused,
    else exp(-x) series(8/x - 2) / sqrt(x)."""
    one = x.dtype.type
    out = np.full_like(x, np.nan)
    small, big = (x <= 2) & (x > 0), x > 2

    def near_zero(v):
        series = _chebyshev_series(_fused(v, v, np.full_like(v, -2.0)), table["A"])
        if order == 0:
            if scaled:
                return _fused(-_log(one(0.5) * v), _modified_i0(v), series) * _exp(v)
            wide = fma.fma64(-_log_double(0.5 * v.astype(np.float64)),
                             _modified_i0(v).astype(np.float64), series.astype(np.float64))
            return wide.astype(v.dtype)
        value = _fused(_log(one(0.5) * v), modified_bessel_i1(v), series / v)
        return value * _exp(v) if scaled else value

    def far(v):
        series = _chebyshev_series(one(8.0) / v - one(2.0), table["B"])
        return series / np.sqrt(v) if scaled else _exp(-v) * series / np.sqrt(v)
    _where(out, small, _on(x, small, near_zero))
    _where(out, big, _on(x, big, far))
    return _where(out, x == 0, np.inf)


def modified_bessel_k0(x):
    return _modified_k(x, _table("MODIFIED_BESSEL_K0"), 0, False)


def modified_bessel_k1(x):
    return _modified_k(x, _table("MODIFIED_BESSEL_K1"), 1, False)


def scaled_modified_bessel_k0(x):
    return _modified_k(x, _table("SCALED_MODIFIED_BESSEL_K0"), 0, True)


def scaled_modified_bessel_k1(x):
    return _modified_k(x, _table("SCALED_MODIFIED_BESSEL_K1"), 1, True)


def spherical_bessel_j0(x):
    """sin(x) / x; below 0.5 its Taylor series in x^2 (each step fused); 0 at +-inf."""
    one = x.dtype.type
    out = np.empty_like(x)
    small = np.abs(x) < 0.5

    def series(v):
        s = v * v
        terms = [one(-1.0) / one(6.0), one(1.0) / one(120.0), one(-1.0) / one(5040.0),
                 one(1.0) / one(362880.0), one(-1.0) / one(39916800.0),
                 one(1.0) / one(6227020800.0)]
        inner = np.full_like(s, terms[-1])
        for term in reversed([one(1.0)] + terms[:-1]):
            inner = _fused(s, inner, np.full_like(s, term))
        return inner
    _where(out, small, _on(x, small, series))
    _where(out, ~small, _on(x, ~small, lambda v: _sin(v) / v))
    return _where(out, np.isinf(x), 0.0)


# ---- Airy's Ai --------------------------------------------------------------------------

def airy_ai(x):
    """Ai: NaN at +-inf, 0 beyond 103.892; below -2.09 the oscillating asymptotic form; from
    2.09 the decaying one (kept beyond 8.3203353); else the Maclaurin series f, g summed
    until a term is below epsilon: c1 f - c2 g."""
    one, table = x.dtype.type, _table("AIRY_AI")
    out = np.zeros_like(x)
    negative, positive = x < -2.09, (x >= 2.09) & (x <= 103.892)
    series = (x >= -2.09) & (x <= 8.3203353)

    def oscillating(v):
        root = np.sqrt(-v)
        z = one(1.0) / (one(-2.0) * v * root / one(3.0))
        zz = z * z
        afn, afd = _polevl(zz, table["AFN"]), _polevl(zz, table["AFD"])
        agn, agd = _polevl(zz, table["AGN"]), _polevl(zz, table["AGD"])
        t = one(-2.0) * v * root / one(3.0) + one(0.25) * one(math.pi)
        return one(5.64189583547756286948e-01) / np.sqrt(root) * (
            _fused(_sin(t), one(1.0) + z * z * afn / afd, -(_cos(t) * (z * agn / agd))))

    def decaying(v):
        zeta = one(2.0) * v * np.sqrt(v) / one(3.0)
        inverse = one(1.0) / zeta
        an, ad = _polevl(inverse, table["AN"]), _polevl(inverse, table["AD"])
        return one(5.64189583547756286948e-01) * (an / ad) / (
            one(2.0) * np.sqrt(np.sqrt(v)) * _exp(zeta))
    _where(out, negative, _on(x, negative, oscillating))
    _where(out, positive, _on(x, positive, decaying))
    maclaurin = series & ~(x >= 2.09)
    _where(out, maclaurin, _on(x, maclaurin, _airy_maclaurin))
    return _where(out, np.isinf(x) | np.isnan(x), np.nan)


def _airy_maclaurin(x):
    """Ai's Maclaurin series: f = sum 3^k (1/3)_k x^3k / (3k)!, g likewise, each term
    made from the last (m, n), until |m / f| <= epsilon (per element)."""
    one = x.dtype.type
    f, g, k = np.ones_like(x), x.copy(), np.ones_like(x)
    m, n, z = np.ones_like(x), x.copy(), x * x * x
    running = np.ones(x.shape, bool)
    epsilon = np.finfo(x.dtype).eps
    while running.any():
        r = running
        m[r] *= z[r]
        k[r] += one(1.0)
        m[r] /= k[r]
        n[r] *= z[r]
        k[r] += one(1.0)
        n[r] /= k[r]
        m[r] /= k[r]
        f[r] += m[r]
        k[r] += one(1.0)
        n[r] /= k[r]
        g[r] += n[r]
        running = r & (np.abs(m / f) > epsilon)
    return _fused(np.full_like(f, one(0.355028053887817239260)), f,
                  -(one(0.258819403792806798405) * g))


# ---- the normal distribution: ndtri, log_ndtr, erfcx --------------------------------------

def ndtri(y0):
    """The standard normal quantile: -inf at 0, inf at 1, NaN outside; Cephes' rational
    approximations in y - 0.5 near the middle, else in z = 1 / sqrt(-2 log y)."""
    one = y0.dtype.type
    out = np.full_like(y0, np.nan)
    inside = (y0 > 0) & (y0 < 1)
    high = y0 > one(1.0) - one(0.13533528323661269189)
    y = np.where(high, one(1.0) - y0, y0)
    middle = inside & (y > one(0.13533528323661269189))
    tail = inside & ~middle

    def central(v):
        v = v - one(0.5)
        v2 = v * v
        ratio = v2 * _polevl(v2, tables.NDTRI_P0) / _polevl(v2, tables.NDTRI_Q0)
        return _fused(v, ratio, v) * one(2.50662827463100050242E0)

    def tails(v):  # (PyTorch calls ::sqrt and ::log, the double ones, for float32 too)
        x = np.sqrt(-2.0 * _log(v.astype(np.float64))).astype(v.dtype)
        x0 = (x - _log(x.astype(np.float64)) / x).astype(v.dtype)
        z = one(1.0) / x
        near = x < 8
        x1 = np.where(near, z * _polevl(z, tables.NDTRI_P1) / _polevl(z, tables.NDTRI_Q1),
                      z * _polevl(z, tables.NDTRI_P2) / _polevl(z, tables.NDTRI_Q2))
        return x0 - x1
    _where(out, middle, _on(y, middle, central))
    value = _on(y, tail, tails)
    _where(out, tail, np.where(high[tail], value, -value))
    out = _where(out, y0 == 0, -np.inf)
    return _where(out, y0 == 1, np.inf)


def _erfcx_y100(y100):
    """Steven G. Johnson's erfcx on y100 = 100 * 4 / (4 + x) in [0, 100]: the Chebyshev
    polynomial of its unit interval in t = 2 y100 - (2k + 1), Horner's steps fused (the
    last one not, in the float64 kernel: measured), in double (the table's literals are
    doubles); 1 at 100 (x below 4 eps)."""
    cell = np.floor(y100).astype(np.int64)
    out = np.ones(y100.shape, np.float64)
    valid = (cell >= 0) & (cell < 100)
    coefficients = np.array(tables.ERFCX_Y100, dtype=np.float64)[cell[valid]]
    t = (y100.dtype.type(2) * y100[valid] - (2 * cell[valid] + 1).astype(y100.dtype))
    t = t.astype(np.float64)
    total = coefficients[:, 6]
    for j in range(5, 0, -1):
        total = fma.fma64(total, t, coefficients[:, j])
    last_fused = y100.dtype == np.float32  # (the float64 build leaves c0 + p t unfused)
    out[valid] = fma.fma64(total, t, coefficients[:, 0]) if last_fused else \
        total * t + coefficients[:, 0]
    return out.astype(y100.dtype)


def erfcx(x):
    """exp(x^2) erfc(x): NaN stays; for x >= 0 erfcx_y100(400 / (4 + x)) up to 50, a
    continued fraction beyond (1 / (sqrt(pi) x) past 5e7); for x < 0 2 exp(x^2) minus the
    same (inf below -26.7, no correction below -6.1)."""
    one = x.dtype.type
    out = x.copy()
    positive, negative = x >= 0, x < 0
    near = positive & (x <= 50)
    _where(out, near, _on(x, near, lambda v: _erfcx_y100(one(400) / (one(4) + v))))
    far = positive & (x > 50)

    def fraction(v):  # (its 4.5, 3.75 and 2.0 are doubles: those steps are in double)
        ispi = np.float64(one(0.56418958354775628694807945156))
        square = v * v
        wide = square.astype(np.float64)
        numerator = ispi * (wide * (wide + 4.5) + 2)
        denominator = v.astype(np.float64) * ((square * (square + one(5))).astype(np.float64)
                                              + 3.75)
        return np.where(v > 5e7, ispi / v, (numerator / denominator)).astype(v.dtype)
    _where(out, far, _on(x, far, fraction))

    def below(v):  # (its exp is the double one, for float32 too)
        doubled = 2 * _exp((v * v).astype(np.float64))
        return np.where(v < -6.1, doubled, doubled - _erfcx_y100(one(400) / (one(4) - v))
                        ).astype(v.dtype)
    middle = negative & (x >= -26.7)
    _where(out, middle, _on(x, middle, below))
    return _where(out, negative & (x < -26.7), np.inf)


def log_ndtr(x):
    """log of the normal CDF: log(erfcx(-t) / 2) - t^2 below -1 (t = x / sqrt 2), else
    log1p(-erfc(t) / 2)."""
    one = x.dtype.type
    t = x * one(0.707106781186547524400844362104849039)
    out = np.empty_like(x)
    low = x < -1
    _where(out, low, _on(t, low, lambda v: _log(erfcx(-v) / one(2)) - v * v))
    _where(out, ~low, _on(t, ~low, lambda v: _log1p(-_erfc(v) / one(2))))
    return out


# ---- orthogonal polynomials: recurrences to degree n, n per element ----------------------

def _degrees(n, hermite: bool = False):
    """n as C++'s static_cast<int64_t> makes it (truncated; NaN and infinities -1 for the
    Hermite polynomials, the smallest int64 elsewhere, as x86 converts them)."""
    finite = np.isfinite(n)
    values = np.trunc(np.where(finite, n, 0)).astype(np.int64)
    return np.where(finite, values, -1 if hermite else np.iinfo(np.int64).min)


def _recurrence(x, n, p, q, step, first_k: int):
    """r = step(k, p, q, x) for k = first_k .. n (inclusive), per element, stopping where q
    is NaN (PyTorch's ``&& !std::isnan(q)``); returns the last r (or q where no step ran,
    as the caller's special cases cover)."""
    r = q.copy()
    last = n
    top = int(last.max()) if last.size else 0
    for k in range(first_k, top + 1):
        running = (k <= last) & ~np.isnan(q)
        if not running.any():
            break
        value = step(k, p[running], q[running], x[running])
        r[running] = value
        p[running], q[running] = q[running], value
    return r


def _chebyshev(kind: str, shifted: bool):
    """The Chebyshev polynomial T, U, V or W (shifted: of 2x - 1), PyTorch's steps."""
    def computed(x, n):
        one = x.dtype.type
        n = _degrees(n)
        y = (x + x - one(1.0)) if shifted else x
        two_y = (y + y) if not shifted else (x + x - one(1.0) + (x + x - one(1.0)))
        start = {"t": y, "u": two_y, "v": two_y - one(1.0), "w": two_y + one(1.0)}[kind]
        out = np.full_like(x, np.nan)
        done = np.zeros(x.shape, bool)

        def put(mask, value):
            mask = mask & ~done
            out[mask] = value[mask] if isinstance(value, np.ndarray) else value
            done[mask] = True
        nf = n.astype(x.dtype)
        put(n < 0, one(0.0))
        _edges(kind, shifted, x, y, n, nf, put)
        limit = {"t": 6, "u": 8, "v": 8, "w": 8}[kind] if not shifted else \
            {"t": 6, "u": 6, "v": 6, "w": 4}[kind]
        trig = (n > limit) & (np.abs(y) < 1) & ~done
        if trig.any():
            put(trig, _trigonometric(kind, y, n, nf, trig))
        put(n == 0, one(1.0))
        put(n == 1, start)
        rest = ~done
        if rest.any():
            p, q = np.ones_like(x[rest]), start[rest].copy()
            two = two_y[rest]
            out[rest] = _recurrence(two, n[rest], p, q,
                                    lambda k, p, q, t: _fused(t, q, -p), 2)
        return out
    return computed


def _edges(kind, shifted, x, y, n, nf, put):
    """The closed values at the interval's ends (|x| = 1; shifted: x = 1 and x = 0)."""
    one = x.dtype.type
    even = n % 2 == 0
    if not shifted:
        end, positive = np.abs(x) == 1, x > 0
        values = {"t": np.where(positive | even, one(1.0), one(-1.0)),
                  "u": np.where(positive | even, nf + 1, -(nf + 1)),
                  "v": np.where(positive, one(1.0), np.where(even, nf + nf + 1, -(nf + nf + 1))),
                  "w": np.where(positive, nf + nf + 1, np.where(even, one(1.0), one(-1.0)))}
        put(end, values[kind].astype(x.dtype))
        return
    top = {"t": one(1.0), "u": nf + 1, "v": one(1.0), "w": nf + nf + 1}[kind]
    put(x == 1, np.broadcast_to(np.asarray(top, x.dtype), x.shape).copy())
    bottom = {"t": np.where(even, one(1.0), one(-1.0)), "u": np.where(even, nf + 1, -(nf + 1)),
              "v": np.where(even, nf + nf + 1, -(nf + nf + 1)),
              "w": np.where(even, one(1.0), one(-1.0))}[kind]
    put(x == 0, bottom.astype(x.dtype))


def _trigonometric(kind, y, n, nf, mask):
    """cos(n acos y), sin((n+1) t) / sin t, cos((n+1/2) t) / cos(t/2), sin((n+1/2) t) /
    sin(t/2) (t = acos y) for large n inside the interval, with PyTorch's fallbacks."""
    one = y.dtype.type
    out = np.zeros_like(y)
    v, m, mf = y[mask], n[mask], nf[mask]
    theta = _acos(v)
    even = m % 2 == 0
    if kind == "t":
        out[mask] = _cos(mf * theta)
    elif kind == "u":
        s = _sin(theta)
        out[mask] = np.where(s != 0, _sin((mf + 1) * theta) / s,
                             (mf + 1) * _cos((mf + 1) * theta) / v)
    elif kind == "v":
        half = theta / one(2.0)
        out[mask] = np.where(_sin(half) != 1, _cos((mf + one(0.5)) * theta) / _cos(half),
                             np.where(even, mf + mf + 1, -(mf + mf + 1)))
    else:
        half = theta / one(2.0)
        out[mask] = np.where(_cos(half) != 1, _sin((mf + one(0.5)) * theta) / _sin(half),
                             np.where(v > 0, mf + mf + 1, np.where(even, one(1.0), one(-1.0))))
    return out


def hermite_h(x, n):
    """The physicists' Hermite polynomial: H_{k+1} = 2x H_k - 2k H_{k-1}; NaN past degree
    128 (float32) or 512 (float64), as PyTorch."""
    return _hermite(x, n, physicists=True)


def hermite_he(x, n):
    """The probabilists' Hermite polynomial: He_{k+1} = x He_k - k He_{k-1}."""
    return _hermite(x, n, physicists=False)


def _hermite(x, n, physicists: bool):
    one = x.dtype.type
    n = _degrees(n, hermite=True)
    start = (x + x) if physicists else x.copy()
    out = np.where(n < 0, one(0.0), np.where(n == 0, one(1.0), start)).astype(x.dtype)
    limit = 128 if x.dtype == np.float32 else 512
    out[n > limit] = np.nan
    rest = (n >= 2) & (n <= limit)
    if rest.any():
        p, q = np.ones_like(x[rest]), start[rest].copy()
        if physicists:  # (k = 2, 4, ..., 2n - 2: r = 2x q - k p)
            step = lambda k, p, q, v: _fused(v + v, q, -(one(2 * k) * p))  # noqa: E731
        else:
            step = lambda k, p, q, v: _fused(v, q, -(one(k) * p))  # noqa: E731
        out[rest] = _recurrence(x[rest], n[rest], p, q, lambda k, p, q, v: step(k - 1, p, q, v),
                                2)
    return out


def laguerre_l(x, n):
    """L_{k+1} = ((2k + 1 - x) L_k - k L_{k-1}) / (k + 1); 1 at x = 0."""
    one = x.dtype.type
    n = _degrees(n)
    out = np.where(n < 0, one(0.0), np.where((x == 0) | (n == 0), one(1.0), one(1.0) - x))
    out = out.astype(x.dtype)
    rest = (n >= 2) & (x != 0)
    if rest.any():
        p, q = np.ones_like(x[rest]), (one(1.0) - x[rest])

        def step(k, p, q, v):
            k -= 1
            return _fused(one(k + k) + (one(1.0) - v), q, -(one(k) * p)) / one(k + 1)
        out[rest] = _recurrence(x[rest], n[rest], p, q, step, 2)
    return out


def legendre_p(x, n):
    """P_{k+1} = ((2k + 1) x P_k - k P_{k-1}) / (k + 1); +-1 at |x| = 1."""
    one = x.dtype.type
    n = _degrees(n)
    ends = np.where((x > 0) | (n % 2 == 0), one(1.0), one(-1.0))
    out = np.where(n < 0, one(0.0), np.where(np.abs(x) == 1, ends,
                                             np.where(n == 0, one(1.0), x))).astype(x.dtype)
    rest = (n >= 2) & (np.abs(x) != 1)
    if rest.any():
        p, q = np.ones_like(x[rest]), x[rest].copy()

        def step(k, p, q, v):
            k -= 1
            return _fused(one(k + k + 1) * v, q, -(one(k) * p)) / one(k + 1)
        out[rest] = _recurrence(x[rest], n[rest], p, q, step, 2)
    return out


POLYNOMIALS = {
    "chebyshev_polynomial_t": _chebyshev("t", False),
    "chebyshev_polynomial_u": _chebyshev("u", False),
    "chebyshev_polynomial_v": _chebyshev("v", False),
    "chebyshev_polynomial_w": _chebyshev("w", False),
    "shifted_chebyshev_polynomial_t": _chebyshev("t", True),
    "shifted_chebyshev_polynomial_u": _chebyshev("u", True),
    "shifted_chebyshev_polynomial_v": _chebyshev("v", True),
    "shifted_chebyshev_polynomial_w": _chebyshev("w", True),
    "hermite_polynomial_h": hermite_h,
    "hermite_polynomial_he": hermite_he,
    "laguerre_polynomial_l": laguerre_l,
    "legendre_polynomial_p": legendre_p,
}
