"""``kernels/fma.py``: a * b + c rounded once, as the FMA instruction PyTorch's kernels are
compiled to rounds it, checked against exact rational arithmetic, on random operands and
on operands made to land next to a float32 halfway point (where rounding twice, first to
float64, would go wrong)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from minigrad.kernels.fma import fma32, fma64


def rounded(value: Fraction, dtype) -> float:
    """``value`` rounded once to ``dtype``, to nearest, ties to even."""
    guess = dtype(float(value))  # (within one step of the answer)
    candidates = [np.nextafter(guess, dtype(-np.inf)), guess, np.nextafter(guess, dtype(np.inf))]
    best = min(candidates, key=lambda c: (abs(Fraction(float(c)) - value),
                                          int(np.asarray(c).view(np.uint32 if dtype is np.float32
                                                                 else np.uint64)) & 1))
    return best


def exact32(a, b, c) -> np.ndarray:
    return np.array([_exact(x, y, z) for x, y, z in zip(a, b, c)], dtype=np.float32)


def _exact(x, y, z):
    value = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
    if value == 0:  # (IEEE's signed zero, which a Fraction has not: -0 only for -0 + -0)
        product_negative = np.signbit(x) != np.signbit(y)
        return -0.0 if product_negative and np.signbit(z) and z == 0 and x * y == 0 else 0.0
    return rounded(value, np.float32)


float32s = st.floats(width=32, min_value=-2.0**40, max_value=2.0**40, allow_subnormal=False)


@given(st.lists(st.tuples(float32s, float32s, float32s), min_size=1, max_size=30))
def test_fma32_rounds_once(triples):
    a, b, c = (np.array(column, dtype=np.float32) for column in zip(*triples))
    result = fma32(a, b, c)
    np.testing.assert_array_equal(result.view(np.uint32), exact32(a, b, c).view(np.uint32))


def test_fma32_near_halfway_points():
    """c + a * b with a * b = ±(half an ulp of c)(1 - 2**-30): the exact sum lies just
    inside c's rounding interval, but its float64 rounding lands on the halfway point
    itself, and a second rounding (ties to even, c odd) would leave c."""
    rng = np.random.default_rng(0)
    exponents = rng.integers(-20, 20, 300)
    mantissas = 1 + (2 * rng.integers(0, 2**22, 300) + 1) * 2.0**-23  # odd last bit
    c = (mantissas * 2.0**exponents).astype(np.float32)
    sign = rng.choice([-1.0, 1.0], 300)
    a = (sign * 2.0**(exponents - 24) * (1 + 2.0**-15)).astype(np.float32)
    b = np.full(300, 1 - 2.0**-15, dtype=np.float32)
    result = fma32(a, b, c)
    np.testing.assert_array_equal(result.view(np.uint32), c.view(np.uint32))
    np.testing.assert_array_equal(result.view(np.uint32), exact32(a, b, c).view(np.uint32))
    naive = (a.astype(np.float64) * b + c).astype(np.float32)  # (rounded twice: wrong here)
    assert (naive != c).all()
    # exactly halfway: ties to even
    tie = fma32(np.float32(1), (sign * 2.0**(exponents - 24)).astype(np.float32), c)
    np.testing.assert_array_equal(tie.view(np.uint32), exact32(
        np.ones(300, np.float32), (sign * 2.0**(exponents - 24)).astype(np.float32),
        c).view(np.uint32))


float64s = st.floats(min_value=-1e150, max_value=1e150, allow_subnormal=False)


@given(st.lists(st.tuples(float64s, float64s, float64s), min_size=1, max_size=30))
def test_fma64_rounds_once(triples):
    a, b, c = (np.array(column, dtype=np.float64) for column in zip(*triples))
    expected = [rounded(Fraction(x) * Fraction(y) + Fraction(z), np.float64)
                for x, y, z in zip(a, b, c)]
    np.testing.assert_array_equal(fma64(a, b, c), np.array(expected))
