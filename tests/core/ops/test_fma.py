"""``kernels/fma.py``: a * b + c rounded once, as the FMA instruction PyTorch's kernels are
compiled to rounds it, checked against exact rational arithmetic, on random operands and
on operands made to land next to a float32 halfway point (where rounding twice, first to
float64, would go wrong)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import torch
from hypothesis import example, given
from hypothesis import strategies as st

from minigrad.kernels import fma
from minigrad.kernels.fma import HALFWAY, LOW_29_BITS, fma32, fma64, one_minus_square64
from minigrad.kernels.pointwise import one_minus_square


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


any_float64 = st.floats(allow_subnormal=True)  # (every float64: huge, tiny, inf, nan)


@given(st.lists(st.tuples(any_float64, any_float64, any_float64), min_size=1, max_size=30))
@example([(0.0, 1.3393857490036326e+300, 1.9198374391803364e-166)])  # (found: c lost in scaling)
@example([(-0.0, 1.5e300, -0.0), (1e300, 0.0, -3e-200)])
def test_fma64_is_torchs_addcmul_over_the_whole_range(triples):
    """Beyond 2**996 a factor's split, and beyond the range the product, overflows inside
    fma64's steps; an FMA's product never does (1e308 * -1 + 1e308 is 0, an infinite
    addend wins over a finite product): checked against torch's fused addcmul."""
    a, b, c = (np.array(column, dtype=np.float64) for column in zip(*triples))
    expected = torch.addcmul(torch.from_numpy(c), torch.from_numpy(a), torch.from_numpy(b)).numpy()
    with np.errstate(all="ignore"):
        result = fma64(a, b, c)
    np.testing.assert_array_equal(result, expected)


# ---- 1 - y*y for tanh's backward: float64 then float32, proven to round once ---------

def _rounded_twice_wrongly(bits: np.ndarray) -> np.ndarray:
    """Of float32 values given by their bits, those where float64(1 - y*y) (y*y is
    exact) is inexact and lands exactly halfway between two float32: the only place
    where rounding it once more to float32 can differ from rounding 1 - y*y once."""
    wide = bits.view(np.float32).astype(np.float64)
    np.multiply(wide, wide, out=wide)
    np.subtract(1.0, wide, out=wide)
    low = wide.view(np.uint64)
    np.bitwise_and(low, LOW_29_BITS, out=low)
    halfway = bits[low == HALFWAY]
    square = halfway.view(np.float32).astype(np.float64) ** 2
    difference = 1.0 - square
    back = difference - 1.0  # (two_sum's error of 1 + (-square): zero when exact)
    error = (1.0 - (difference - back)) + (-square - back)
    return halfway[error != 0]


def test_one_minus_square_is_fused_for_every_float32():
    """Every float32 y >= 0 (and so every one: y*y is even), tried. float64 then float32
    lands exactly halfway, inexact, for none in tanh's range [0, 1], and for 85,648 from
    2**27 up; at each of those the tie goes to the fused result's side (1 - y*y lies
    on the side of -y*y nearer zero, and so does the even neighbour). So float64 then
    float32 is fma(y, -y, 1) for every float32, which ``one_minus_square`` relies on."""
    step, end = 1 << 22, int(np.float32(np.inf).view(np.uint32))
    one = int(np.float32(1).view(np.uint32))
    found = []
    with np.errstate(over="ignore"):
        for start in range(0, end, step):
            bits = np.arange(start, min(start + step, end), dtype=np.uint32)
            found.append(_rounded_twice_wrongly(bits))
        found = np.concatenate(found)
        assert len(found) == 85_648 and found.min() > one
        y = found.view(np.float32)
        twice = (1.0 - y.astype(np.float64) ** 2).astype(np.float32)
        fused = fma32(y, -y, np.float32(1))
    assert np.array_equal(twice.view(np.uint32), fused.view(np.uint32))


def test_one_minus_square_matches_fma32():
    rng = np.random.default_rng(5)
    y = np.concatenate([np.tanh(rng.standard_normal(5000) * 3), rng.uniform(-1, 1, 5000),
                        [0.0, -0.0, 1.0, -1.0, 2.0**-12.5, 2.0**-13, 1 - 2.0**-24]])
    y = y.astype(np.float32)
    expected = fma32(y, -y, np.float32(1))
    assert np.array_equal(one_minus_square(y).view(np.uint32), expected.view(np.uint32))
    for shape in [(), (4, 4), (2, 3, 5)]:  # (any shape, and a NaN keeps its sign)
        part = y[:int(np.prod(shape))].reshape(shape)
        assert np.array_equal(one_minus_square(part), fma32(part, -part, np.float32(1)))
    nan = np.array([np.nan, -np.nan], np.float32)
    assert list(np.signbit(one_minus_square(nan))) == [False, True]


# ---- 1 - y*y in float64: its own steps, checked against the exact value -------------

@given(st.lists(st.floats(min_value=-1.5, max_value=1.5) | float64s, min_size=1, max_size=30))
def test_one_minus_square64_rounds_once(values):
    y = np.array(values, dtype=np.float64)
    expected = [rounded(1 - Fraction(v) * Fraction(v), np.float64) for v in y]
    np.testing.assert_array_equal(one_minus_square64(y), np.array(expected))


def _hard_float64s() -> np.ndarray:
    """Where 1 - y*y's steps could go wrong: squares at and near 0.5 and 2 (where
    1 - y*y stops being exact), y with few significant bits (exact squares, so tail
    lands on the halfway point with no error to move it off) and their neighbours,
    tiny and huge y, zeros, infinities and NaNs of both signs."""
    rng = np.random.default_rng(11)
    few_bits = np.concatenate([np.arange(1, 4096) * 2.0 ** -k for k in range(2, 40)])
    few_bits = few_bits[few_bits < 1.5]
    near = np.sqrt(np.array([0.25, 0.5, 1.0, 2.0]))
    return np.concatenate([
        few_bits, np.nextafter(few_bits, 0), np.nextafter(few_bits, 2),
        np.tanh(rng.standard_normal(100_000) * 3), rng.uniform(-1, 1, 100_000),
        np.sqrt(rng.uniform(0.2, 0.6, 100_000)),
        near, np.nextafter(near, 0), np.nextafter(near, 2),
        [2.0 ** -27, 2.0 ** -27 * (1 + 2.0 ** -52), 5e-324, 1e-300, 1e300, 1.8e308],
        [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan]])


def test_one_minus_square64_is_fma64(monkeypatch):
    """Bit for bit fma64(y, -y, 1), NaN signs too; most elements by its own steps,
    some (halfway points, squares above 2) handed to fma64."""
    y = _hard_float64s()
    y = np.concatenate([y, -y])
    expected = fma64(y, -y, 1.0)
    handed = []
    monkeypatch.setattr(fma, "fma64", lambda a, b, c: handed.append(a.size) or fma64(a, b, c))
    assert np.array_equal(one_minus_square64(y).view(np.uint64), expected.view(np.uint64))
    assert handed and 1000 < handed[0] < y.size // 10


def test_fma64_gives_ieees_signed_zero_as_torchs_addcmul():
    """A zero product plus a zero: -0 only for -0 + -0 (fma64's steps once made every
    zero +0, so float64 ``addcmul(a, a, b)`` of a -0. printed 0.; random program 538312)."""
    zeros, others = [0.0, -0.0], [0.0, -0.0, 2.5, -2.5, 1e-300, -1e300]
    triples = [(x, y, z) for x in zeros + others for y in others for z in zeros] + \
        [(2.0, 3.0, -6.0), (-2.0, 3.0, 6.0), (1e-200, 1e-200, -0.0), (-1e-200, 1e-200, 0.0)]
    a, b, c = (np.array(column, dtype=np.float64) for column in zip(*triples))
    expected = torch.addcmul(torch.from_numpy(c), torch.from_numpy(a), torch.from_numpy(b)).numpy()
    with np.errstate(all="ignore"):
        result = fma64(a, b, c)
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(np.signbit(result), np.signbit(expected))
