"""Is a formula the derivative, or an approximation of it? Its value at 200 digits says.

A derivative worked out by hand is exact: evaluated with ``DIGITS`` significant digits it
agrees with the true derivative to all but the last few (``AGREE`` of them, or more). A
numerical approximation written as a formula (a finite difference, a stencil of many
points, an extrapolation of several steps) cannot: with a step h, a stencil of order k is
off by about h^k, and at ``DIGITS`` digits it loses about DIGITS + log10(h) of them to
rounding. Agreeing to ``AGREE`` digits would take a stencil of about twenty evaluations
of the function, far beyond what a formula may hold (``formula.MAX_LENGTH``,
``MAX_NODES``).

The true derivative is computed here the same way, with the grader's own precision
(``REFERENCE`` digits, a step of 10^-100), which no formula can ask for: a central
difference of the teacher's function, along a direction drawn by the grader.

    >>> import mpmath
    >>> from grader.formula import parse
    >>> f = parse("x**3 + sin(x)", ("x",), ("sin",))
    >>> slope = directional(lambda v: f.exact(**v), {"x": [0.5]}, "x", [1.0])
    >>> right = evaluate(parse("3*x**2 + cos(x)", ("x",), ("cos",)), {"x": [0.5]})
    >>> agreement(right, slope) >= AGREE
    True
    >>> stencil = "((x+0.001)**3 + sin(x+0.001) - (x-0.001)**3 - sin(x-0.001)) / 0.002"
    >>> round(agreement(evaluate(parse(stencil, ("x",), ("sin",)), {"x": [0.5]}), slope))
    6
"""

from __future__ import annotations

import contextlib
import math
import operator

import mpmath
import numpy as np

from .formula import FormulaError, _NumPy
from .i18n import _

__all__ = ["DIGITS", "AGREE", "REFERENCE", "MPMATH", "directional", "agreement", "inner",
           "evaluate", "precision"]

DIGITS = 200  # a student's formula is evaluated with this many significant digits
AGREE = 190  # ... and must agree with the true derivative to this many
REFERENCE = 310  # the grader's own reference: a central difference at this precision
STEP = mpmath.mpf(10) ** -100  # its step (error about STEP**2, rounding 10**-210)
LARGEST = 10 ** 6  # exp() of more, or a power above it: "too large" (nothing needs it)
# sin, cos and tan reduce their argument modulo pi, to as many digits as the argument has
# before the point: sin(10**999999) would compute a million digits of pi (hours). A
# derivative evaluated at the grader's points never needs an argument beyond this.
PERIODIC = 10 ** 6
EXACT_CONSTANTS = {"pi": mpmath.pi, "e": mpmath.e}  # (evaluated at the working precision)


def _real(value):
    if isinstance(value, mpmath.mpc):
        if value.imag != 0:
            raise FormulaError(_("the formula's value is not a real number (a log or square "
                                 "root of a negative number?)"))
        return value.real
    return value


def _guarded(function, bound=None):
    def apply(value):
        if bound is not None and abs(value) > bound:
            raise FormulaError(_("the formula's value is too large to check"))
        return _real(function(value))
    return np.vectorize(apply, otypes=[object])


def _power(base, exponent):
    if abs(exponent) > LARGEST and abs(base) not in (0, 1):
        raise FormulaError(_("the formula's value is too large to check"))
    try:
        return _real(base ** exponent)
    except ZeroDivisionError:
        raise FormulaError(_("the formula divides by zero")) from None


class _MpMath(_NumPy):
    """Arrays of mpmath numbers, at the precision of the surrounding ``precision()``."""

    limit = 10_000  # elements of one value (200 digits each): the answers need < 100
    FUNCTIONS = {"sin": _guarded(mpmath.sin, PERIODIC), "cos": _guarded(mpmath.cos, PERIODIC),
                 "tan": _guarded(mpmath.tan, PERIODIC), "exp": _guarded(mpmath.exp, LARGEST),
                 "log": _guarded(mpmath.log), "sqrt": _guarded(mpmath.sqrt),
                 "tanh": _guarded(mpmath.tanh), "sinh": _guarded(mpmath.sinh, LARGEST),
                 "cosh": _guarded(mpmath.cosh, LARGEST), "abs": _guarded(abs)}
    _POWER = np.frompyfunc(_power, 2, 1)

    def number(self, value):
        return mpmath.mpf(repr(value)) if isinstance(value, float) else mpmath.mpf(value)

    def constant(self, name: str):
        """``pi`` or ``e`` to every digit of the precision (math.e, 16 digits, made an
        honest ``e**(b*x)`` "an approximation" of exp(b*x): 0 points; red team 12)."""
        return +EXACT_CONSTANTS[name]

    def array(self, value):
        if isinstance(value, np.ndarray) and value.dtype == object:
            return value
        floats = np.asarray(value, dtype=np.float64)
        return np.frompyfunc(self.number, 1, 1)(floats.astype(object)) if floats.shape else \
            np.asarray(self.number(float(floats)), dtype=object)

    def scalar(self, value):
        return float(np.asarray(value).reshape(-1)[0]) if np.size(value) == 1 else None

    def binary(self, op, left, right):
        try:
            if op is operator.pow:
                return self._POWER(left, right)
            return op(left, right)
        except ZeroDivisionError:
            raise FormulaError(_("the formula divides by zero")) from None

    def compare(self, op, left, right):
        return np.frompyfunc(lambda holds: mpmath.mpf(int(bool(holds))), 1, 1)(
            np.asarray(op(left, right), dtype=object))


MPMATH = _MpMath()


@contextlib.contextmanager
def precision(digits: int):
    with mpmath.workdps(digits):
        yield


def directional(function, values: dict, name: str, direction) -> np.ndarray:
    """d/dt function(values with ``name`` + t * direction) at t = 0, elementwise, at
    ``REFERENCE`` digits (``function`` takes a dict of arrays and returns an array)."""
    with precision(REFERENCE):
        start = MPMATH.array(values[name])
        step = MPMATH.array(direction) * STEP
        moved = [function({**values, name: start + sign * step}) for sign in (1, -1)]
        return (np.asarray(moved[0], dtype=object) - np.asarray(moved[1], dtype=object)) \
            / (2 * STEP)


def inner(left, right) -> mpmath.mpf:
    """The sum of the elementwise products (broadcast)."""
    with precision(REFERENCE):
        products = np.asarray(left, dtype=object) * np.asarray(right, dtype=object)
        return mpmath.fsum(np.asarray(products, dtype=object).reshape(-1))


def digits(got, expected) -> float:
    """How many digits ``got`` agrees with ``expected`` (the worst element; relative to
    the larger of 1 and the value).

    It fails closed: only finite real numbers agree at all. A value that is not one (NaN,
    an infinity, a complex number, something that is no number), or nothing to compare,
    agrees to no digit (``-inf``). (A NaN compares with nothing: counted as agreeing, a
    formula that is a finite difference in float64 and NaN at 200 digits, e.g. through
    ``0*log(1e-30 + 1 - 1 <= 0)``, passed as exact.)"""
    try:
        got, expected = np.broadcast_arrays(np.asarray(got, dtype=object),
                                            np.asarray(expected, dtype=object))
    except ValueError:
        return -math.inf
    if got.size == 0:
        return -math.inf
    worst = math.inf
    with precision(REFERENCE):
        for a, b in zip(got.reshape(-1), expected.reshape(-1)):
            a, b = _finite_real(a), _finite_real(b)
            if a is None or b is None:
                return -math.inf
            difference = abs(a - b)
            if difference == 0:
                continue
            scale = max(mpmath.mpf(1), abs(mpmath.mpf(b)))
            worst = min(worst, float(-mpmath.log10(difference / scale)))
    return worst


def _finite_real(value):
    """``value`` as a finite real mpmath number, else None."""
    try:
        number = mpmath.mpmathify(value)
    except (TypeError, ValueError):
        return None
    if not isinstance(number, mpmath.mpf) or not mpmath.isfinite(number):
        return None
    return number


def agreement(got, expected) -> float:
    """``digits``, the name the judges read: at least ``AGREE`` for an exact formula."""
    return digits(got, expected)


def evaluate(formula, values: dict) -> np.ndarray:
    """``formula`` at ``values``, with ``DIGITS`` digits (FormulaError if it is not a real
    number there)."""
    with precision(DIGITS):
        return formula.exact(**values)
