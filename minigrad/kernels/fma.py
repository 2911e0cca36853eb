"""Fused multiply-add: ``a * b + c`` rounded once, as the FMA instruction PyTorch's
kernels are compiled to computes it. NumPy has none, so it is built from error-free
transformations (each step's rounding error is recovered exactly).

- ``fma64``: float64, exact for every input (PyTorch's range factories, the normal
  and uniform distributions in double).
- ``fma32``: float32, exact for every input: the product of two float32 is exact in
  float64, so only the sum rounds there; that rounding matters only when it lands on
  a float32 halfway point, which is found and nudged (rounding "to odd").
"""

from __future__ import annotations

import numpy as np

__all__ = ["fma32", "fma64", "one_minus_square64", "two_sum"]


def two_sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x + y = sum + error exactly (Knuth)."""
    total = x + y
    y_part = total - x
    return total, (x - (total - y_part)) + (y - y_part)


def _two_product(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x * y = product + error exactly (Dekker; Veltkamp splits each factor
    into two halves of 26 bits, whose products are exact)."""
    product = x * y
    (x_high, x_low), (y_high, y_low) = _split(x), _split(y)
    error = ((x_high * y_high - product) + x_high * y_low + x_low * y_high) + x_low * y_low
    return product, error


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t = 134217729.0 * x  # 2**27 + 1
    high = t - (t - x)
    return high, x - high


def fma64(a, b, c) -> np.ndarray:
    """a * b + c in float64, rounded once.

    a * b + c = s + t + e exactly. Rounding t + e "to odd" (an inexact result
    takes the neighbour whose last bit is 1) keeps the information the final
    rounding of s + (t + e) needs to be the correct one (Boldo & Melquiond)."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    with np.errstate(over="ignore", invalid="ignore"):  # inf and nan pass through
        p, e = _two_product(a, b)
        s, t = two_sum(p, c)
        u, error = two_sum(t, e)
        even = (np.asarray(u).view(np.int64) & 1) == 0
        u = np.where((error != 0) & even, np.nextafter(u, np.copysign(np.inf, error)), u)
        result = s + u
        # (a zero c and a zero result: the product's sign where it underflowed, else
        # IEEE's sign of zero plus zero, p + c; the steps' differences are +0 and would
        # turn -0 + -0 into +0)
        result = np.where((result == 0) & (c == 0), np.where((a != 0) & (b != 0), p, p + c),
                          result)
        unfinished = ~np.isfinite(result)  # (an inf or nan operand, or a step that overflowed)
        if unfinished.any():
            result = np.where(unfinished, _fma64_beyond(a, b, c), result)
        return result


def _fma64_beyond(a, b, c):
    """fma64 where its steps gave inf or nan. An inf or nan operand: IEEE's rules (a
    finite product never overflows inside an FMA, so an infinite addend wins). Finite
    operands whose product, or a factor's split, overflowed: computed scaled."""
    finite_product = np.isfinite(a) & np.isfinite(b)
    special = ~(finite_product & np.isfinite(c))
    if not special.any():
        return _fma64_scaled(a, b, c)
    scaled = _fma64_scaled(*(np.where(special, 0.0, v) for v in (a, b, c)))
    return np.where(special, np.where(finite_product, c, a * b + c), scaled)


def _fma64_scaled(a, b, c):
    """fma64 of finite operands whose product, or a factor's split, overflows: the
    product computed as a_m * b_m * 2**e (frexp's mantissas, e the exponents' sum), and
    the whole scaled down by 2**e where e > 0, the result scaled back (inf where it is
    beyond the range)."""
    (a_m, a_e), (b_m, b_e) = np.frexp(a), np.frexp(b)
    scale = np.maximum(a_e + b_e, 0)
    scaled = np.ldexp(fma64(a_m, np.ldexp(b_m, a_e + b_e - scale), np.ldexp(c, -scale)), scale)
    # (a zero factor times a huge one is a zero product: the sum is c, which the scaling
    # down would have lost below the range; + a * b gives a zero c the FMA's sign)
    return np.where((a == 0) | (b == 0), c + a * b, scaled)


def one_minus_square64(y: np.ndarray, out=None) -> np.ndarray:
    """fma64(y, -y, 1) = 1 - y*y rounded once, for a float64 array, in about half
    fma64's steps and four buffers (tanh's backward on big arrays; ``out``: the
    result's).

    y*y = square + error exactly (Dekker), and 1 - square = s + tail exactly (s is
    its rounding; tail = 0 when square >= 0.5). So 1 - y*y = s + (tail - error),
    and rounding s + (tail - error) once more gives the once-rounded result: tail
    and error are multiples of ulps of y*y, so tail - error can round onto the
    halfway point of s only when tail already lies on it (+-2**-54, s in [0.5, 1])
    and error is too small to move it off. Those elements, and squares above 2
    (where 1 - square rounds; inf and nan too), are left to fma64."""
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 0:  # (arithmetic on a 0-dim array gives scalars: nothing to write into)
        return one_minus_square64(y.reshape(1)).reshape(())
    with np.errstate(over="ignore", invalid="ignore"):
        square = y * y
        high = y * 134217729.0  # (Veltkamp's split, as _split)
        low = np.subtract(high, y)
        high -= low
        np.subtract(y, high, out=low)
        error = high * high  # (y*y - square, exactly:)
        error -= square
        high += high
        high *= low
        error += high  # (+ 2 high low)
        low *= low
        error += low
        result = np.subtract(1.0, square, out=out)  # s
        tail = np.subtract(1.0, result, out=high)
        tail -= square
        tail -= error
        result += tail
        unusual = np.abs(tail, out=low) == 2.0 ** -54
        unusual |= ~(square <= 2.0)
        if unusual.any():
            result[unusual] = fma64(y[unusual], -y[unusual], 1.0)
        return result


# A float64 whose low 29 mantissa bits are 1 followed by 28 zeros lies halfway between
# two float32 (for results in float32's normal range).
LOW_29_BITS = np.uint64((1 << 29) - 1)
HALFWAY = np.uint64(1 << 28)


def fma32(a, b, c) -> np.ndarray:
    """a * b + c for float32 operands (arrays or numbers), rounded once to float32."""
    if not any(np.ndim(v) for v in (a, b, c)):  # (0-dim: as one element, indexable below)
        return fma32(np.reshape(a, 1), np.reshape(b, 1), np.reshape(c, 1)).reshape(())
    product = np.multiply(a, b, dtype=np.float64)  # exact: 24 + 24 bits < 53
    total = np.add(product, c, dtype=np.float64)
    result = total.astype(np.float32)
    halfway = np.bitwise_and(total.view(np.uint64), LOW_29_BITS) == HALFWAY
    if halfway.any():  # (a float64 sum on a float32 halfway point: rare for random inputs)
        # where the sum was inexact, the exact value lies beyond the halfway point, on
        # the side of the error: a few float64 ulps that way (|total| * 2**-50, far
        # from the next float32) round to float32 as it does
        _, error = two_sum(product, np.asarray(c, np.float64))
        halfway &= error != 0
        nudged = total + np.copysign(np.abs(total) * 2.0 ** -50, error)
        np.copyto(result, nudged, where=halfway, casting="same_kind")
    return result


def linspace_values(start, end, steps: int) -> np.ndarray:
    """``torch.linspace``'s numbers, from ``start`` and ``end`` of the result's type (NumPy
    scalars, or Python ints for an integer result), as PyTorch's kernel computes them:
    the first half counts up from start, the second down from end, so both ends are
    exact; a float16 rounds every step, others compute the step in their type and each
    number with one fused multiply-add."""
    if steps == 1:
        return np.full(1, start)
    if isinstance(start, np.float16):
        step = (end - start) / np.float16(steps - 1)
        index = np.arange(steps).astype(np.float16)
        return np.where(np.arange(steps) < steps // 2, start + step * index,
                        end - step * (np.float16(steps - 1) - index))
    step = (end - start) / (steps - 1)  # (in float32 for a float32 result)
    index = np.arange(steps, dtype=np.float64)
    return np.where(index < steps // 2, fma64(step, index, start),
                    fma64(-step, steps - 1 - index, end))
