"""PyTorch's CPU random numbers, bit for bit, computed with NumPy.

PyTorch's CPU generator is a Mersenne Twister (mt19937) seeded as Matsumoto and
Nishimura's ``init_genrand`` seeds it. NumPy's ``MT19937`` bit generator draws the
same stream and can be set to any state, so it makes the 32-bit words here, in bulk.
What PyTorch makes of those words is written out below, one function per kernel:

| PyTorch (aten/src/ATen/...)                                  | here               |
|--------------------------------------------------------------|--------------------|
| core/MT19937RNGEngine.h, CPUGeneratorImpl.cpp                | ``CPUGenerator``   |
| core/TransformationHelper.h ``uniform_real``                 | ``uniform``        |
| native/cpu/DistributionTemplates.h ``normal_kernel``         | ``normal``         |
| native/cpu/avx_mathfun.h ``log256_ps``, ``sincos256_ps``     | ``_log8``, ``_sincos8`` |
| DistributionTemplates.h ``random_from_to_kernel``, ...       | ``random_from_to``, ``random_bits`` |
| ``bernoulli_kernel`` (scalar and tensor ``p``)                | ``bernoulli``      |
| ``exponential_kernel``                                       | ``exponential``    |
| ``cauchy_kernel``, ``log_normal_kernel``, ``geometric_kernel`` | ``cauchy``, ``log_normal``, ``geometric`` |
| native/Activation.cpp ``_rrelu_with_noise_train``            | ``rrelu_noise``    |
| native/TensorFactories.cpp ``randperm_cpu``                  | ``randperm``       |
| native/cpu/MultinomialKernel.cpp, Distributions.cpp          | ``multinomial``    |

PyTorch's results depend on the machine in three places, and this file follows
PyTorch on an x86-64 CPU with AVX2 that is not Intel's (AMD, or any CPU where PyTorch
runs without Intel's MKL): float32 normals of 16 values or more use AVX2 polynomials
(on ARM PyTorch calls the C library instead), and on Intel CPUs PyTorch takes
``bernoulli_(p)`` with a number ``p`` (dropout's masks) and ``exponential_`` from MKL's
own generator. The transcendental functions of the double paths are the C library's
(``math``); NumPy's are used where they give the same bits (checked once).
"""

from __future__ import annotations

import math
import os

import numpy as np

from .fma import fma32, fma64
from .sorting import topk_indices

__all__ = ["CPUGenerator", "nondeterministic_seed", "STATE_SIZE", "DEFAULT_SEED",
           "uniform", "normal", "random_from_to", "random_full_range", "random_bits",
           "bernoulli", "exponential", "cauchy", "log_normal", "geometric", "rrelu_noise", "randperm",
           "multinomial"]

_N = 624  # mt19937's state: 624 words of 32 bits
DEFAULT_SEED = 67280421310721  # what a new torch.Generator() starts from

# PyTorch's get_rng_state() layout: CPUGeneratorImplState (CPUGeneratorImpl.cpp), a C
# struct as x86-64 compilers lay it out: the legacy TH state (its 624 words widened
# to 64 bits, three doubles of which only normal_y is used), then the float cache.
_STATE = np.dtype({
    "names": ["the_initial_seed", "left", "seeded", "next", "state", "normal_x", "normal_y",
              "normal_rho", "normal_is_valid", "next_float_normal_sample",
              "is_next_float_normal_sample_valid"],
    "formats": ["<u8", "<i4", "<i4", "<u8", ("<u8", (_N,)), "<f8", "<f8", "<f8", "<i4", "<f4",
                "u1"],
    "offsets": [0, 8, 12, 16, 24, 5016, 5024, 5032, 5040, 5048, 5052],
    "itemsize": 5056,
})
STATE_SIZE = _STATE.itemsize


def _init_genrand(seed32: int) -> np.ndarray:
    """mt19937's state for a 32-bit seed (Matsumoto and Nishimura's init_genrand)."""
    key = [seed32]
    for j in range(1, _N):
        previous = key[-1]
        key.append((1812433253 * (previous ^ (previous >> 30)) + j) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


def nondeterministic_seed() -> int:
    """A seed from the operating system, as PyTorch's default generator gets one."""
    return int.from_bytes(os.urandom(8), "little")


refusal: str | None = None  # an error text every draw raises (see CPUGenerator.random)


class CPUGenerator:
    """One PyTorch CPU generator: the mt19937 state, the seed it started from, and the
    second normal of the last Box-Muller pair, which PyTorch keeps for the next call."""

    __slots__ = ("_bits", "_seed", "_fresh", "next_double_normal", "next_float_normal")

    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        self._bits = np.random.MT19937()
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> None:
        """Start again from ``seed`` (0 <= seed < 2**64; mt19937 reads its low 32 bits)."""
        self._seed = seed
        self._set_words(_init_genrand(seed & 0xFFFFFFFF), _N)
        self._fresh = True  # (PyTorch's state then says next = 0, not 624)
        self.next_double_normal = self.next_float_normal = None

    def initial_seed(self) -> int:
        return self._seed

    def _set_words(self, key: np.ndarray, position: int) -> None:
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": key, "pos": position}}

    # ---- the raw words ---------------------------------------------------------------

    def random(self, count: int) -> np.ndarray:
        """``count`` 32-bit words (PyTorch's ``random()``), as uint64. While ``refusal``
        is set (``torch.func.vmap(randomness="error")``), every draw raises it."""
        if refusal is not None:
            raise RuntimeError(refusal)
        if count:
            self._fresh = False
        return self._bits.random_raw(count)

    def random64(self, count: int) -> np.ndarray:
        """``count`` 64-bit words, each made of two 32-bit ones, the first one high
        (PyTorch's ``random64()``)."""
        words = self.random(2 * count).reshape(count, 2)
        return (words[:, 0] << np.uint64(32)) | words[:, 1]

    # ---- get_rng_state / set_rng_state ---------------------------------------------------

    def state_bytes(self) -> np.ndarray:
        """The state as PyTorch's 5,056 bytes (``torch.get_rng_state()``), uint8."""
        words = self._bits.state["state"]
        record = np.zeros((), dtype=_STATE)
        record["the_initial_seed"] = self._seed
        record["seeded"] = 1
        position = int(words["pos"])
        if position == _N:  # the next draw makes a new block of 624 words
            record["left"], record["next"] = 1, 0 if self._fresh else _N
        else:
            record["left"], record["next"] = _N + 1 - position, position
        record["state"] = words["key"]
        if self.next_double_normal is not None:
            record["normal_is_valid"], record["normal_y"] = 1, self.next_double_normal
        if self.next_float_normal is not None:
            record["is_next_float_normal_sample_valid"] = 1
            record["next_float_normal_sample"] = self.next_float_normal
        return np.frombuffer(record.tobytes(), dtype=np.uint8).copy()

    def load_state_bytes(self, data: np.ndarray) -> None:
        """Take a state made by ``state_bytes`` (or PyTorch's ``get_rng_state``). Raises
        ValueError for one that mt19937 cannot be in (PyTorch: "Invalid mt19937 state")."""
        record = np.frombuffer(np.ascontiguousarray(data, dtype=np.uint8).tobytes(),
                               dtype=_STATE)[0]
        left, position = int(record["left"]), int(record["next"])
        if not (record["seeded"] and 0 < left <= _N and position <= _N):
            raise ValueError("Invalid mt19937 state")
        if left != 1 and left + position != _N + 1:
            # (PyTorch never makes one; NumPy's MT19937 keeps one position, not two)
            raise ValueError("Invalid mt19937 state: 'left' and 'next' disagree")
        self._seed = int(record["the_initial_seed"])
        self._set_words(record["state"].astype(np.uint32), _N if left == 1 else position)
        self._fresh = left == 1 and position == 0
        self.next_double_normal = float(record["normal_y"]) if record["normal_is_valid"] else None
        self.next_float_normal = (float(record["next_float_normal_sample"])
                                  if record["is_next_float_normal_sample_valid"] else None)



# ---- the C library's double functions, or NumPy's where they agree ---------------------------


def _libm(numpy_function, math_function, domain: np.ndarray):
    """``numpy_function`` if it gives the C library's bits on this machine (NumPy may use
    SIMD code of its own), else ``math_function`` element by element (slow but exact).
    Checked once, on 4,097 points of ``domain``'s interval, at the first call."""
    chosen = []

    def function(x: np.ndarray) -> np.ndarray:
        if not chosen:
            probe = np.linspace(domain[0], domain[1], 4097)
            agrees = np.array_equal(numpy_function(probe), [math_function(v) for v in probe])
            chosen.append(numpy_function if agrees else np.frompyfunc(math_function, 1, 1))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(chosen[0](x), dtype=np.float64)
    return function


_log = _libm(np.log, math.log, (2.0**-53, 1.0))
_log1p = _libm(np.log1p, math.log1p, (-1 + 2.0**-53, 0.0))
_cos = _libm(np.cos, math.cos, (0.0, 2 * math.pi))
_tan = _libm(np.tan, math.tan, (-math.pi / 2, math.pi / 2))
_exp = _libm(np.exp, math.exp, (-30.0, 30.0))
_sin = _libm(np.sin, math.sin, (0.0, 2 * math.pi))


# ---- uniform ------------------------------------------------------------------------------


def _unit_floats(gen: CPUGenerator, count: int, dtype) -> np.ndarray:
    """PyTorch's uniform_real on [0, 1): a float32 from the low 24 bits of a 32-bit word,
    a float64 from the low 53 bits of a 64-bit one (float16 takes float32's)."""
    if dtype == np.float64:
        return (gen.random64(count) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0**-53
    return (gen.random(count) & np.uint64((1 << 24) - 1)).astype(np.float32) * np.float32(2**-24)


def uniform(gen: CPUGenerator, count: int, dtype, low: float, high: float) -> np.ndarray:
    """``uniform_(low, high)``: x * (high - low) + low, one fused multiply-add; a value
    that rounds up to ``high`` becomes ``low`` (the range is [low, high))."""
    dtype = np.dtype(dtype)
    x = _unit_floats(gen, count, dtype)
    if dtype == np.float64:
        low, high = np.float64(low), np.float64(high)
        values = x if (low, high) == (0, 1) else fma64(x, high - low, low)
    else:  # (float16 is computed in float32, then rounded)
        low, high = np.float32(low), np.float32(high)
        values = x if (low, high) == (0, 1) else fma32(x, high - low, low)
        values = values.astype(dtype)
    values[values == high.astype(dtype)] = low
    return values


# ---- normal -------------------------------------------------------------------------------


def normal(gen: CPUGenerator, count: int, dtype, mean: float, std: float,
           contiguous: bool = True) -> np.ndarray:
    """``normal_(mean, std)``. PyTorch takes one of four paths:

    - float32, 16 values or more, contiguous: uniforms for all of them first, then
      Box-Muller 16 at a time in AVX2 (the first 8 uniforms give the radii, the next 8
      the angles); a last partial block is made of 16 fresh uniforms, which overwrite
      the last 16 values;
    - float16, 16 values or more, contiguous: the same AVX2 blocks in float32, but each
      block draws its own 16 uniforms; rounded to half at the end;
    - float64, 16 values or more, contiguous: as float32, in double, with the C
      library's log, cos and sin;
    - fewer than 16 values, or not contiguous: one double Box-Muller pair per two
      values, the pair's second value kept in the generator for the next value, even
      in a later call."""
    dtype = np.dtype(dtype)
    if count < 16 or not contiguous:
        return _normal_scalar(gen, count, mean, std).astype(dtype)
    if dtype == np.float64:
        return _normal_fill(gen, count, mean, std)
    if dtype == np.float32:
        return _normal_fill_avx2(gen, count, mean, std)
    return _normal_fill_blockwise(gen, count, mean, std).astype(dtype)


def _normal_scalar(gen: CPUGenerator, count: int, mean: float, std: float) -> np.ndarray:
    """normal_distribution<double>: u1, u2 uniform; r = sqrt(-2 log(1 - u2)), theta =
    2 pi u1; r cos(theta) now, r sin(theta) cached; each value fma(z, std, mean)."""
    values = np.empty(count)
    start = 0
    if count and gen.next_double_normal is not None:
        values[0], gen.next_double_normal, start = gen.next_double_normal, None, 1
    pairs = (count - start + 1) // 2
    u = _unit_floats(gen, 2 * pairs, np.float64).reshape(pairs, 2)
    radius = np.sqrt(-2.0 * _log1p(-u[:, 1]))
    theta = (2.0 * math.pi) * u[:, 0]
    z = np.stack([radius * _cos(theta), radius * _sin(theta)], axis=1).ravel()
    values[start:] = z[:count - start]
    if (count - start) % 2:
        gen.next_double_normal = float(z[-1])
    return _scaled(values, np.float64(std), np.float64(mean))


def _scaled(z: np.ndarray, std, mean) -> np.ndarray:
    """fma(z, std, mean): with std 1 or mean 0 one rounding of the plain arithmetic."""
    if std == 1:
        return z + mean
    if mean == 0:
        return z * std + mean  # (+ 0: -0 becomes +0, as the fma gives)
    return (fma64 if z.dtype == np.float64 else fma32)(z, std, mean)


def _with_last_block(full: np.ndarray, last: np.ndarray | None, count: int) -> np.ndarray:
    """The values of the full blocks, the last block (if any) over the last 16."""
    values = np.empty(count, dtype=full.dtype)
    values[:full.size] = full.ravel()
    if last is not None:
        values[count - 16:] = last.ravel()
    return values


def _normal_fill(gen: CPUGenerator, count: int, mean: float, std: float) -> np.ndarray:
    """normal_fill<double>: Box-Muller in double, 16 at a time."""
    u = _unit_floats(gen, count + (16 if count % 16 else 0), np.float64)
    mean, std = np.float64(mean), np.float64(std)

    def box_muller(block: np.ndarray) -> np.ndarray:
        radius = np.sqrt(-2.0 * _log(1.0 - block[:, :8]))
        theta = (2.0 * math.pi) * block[:, 8:]
        return np.concatenate([_scaled(radius * _cos(theta), std, mean),
                               _scaled(radius * _sin(theta), std, mean)], axis=1)

    full = box_muller(u[:count - count % 16].reshape(-1, 16))
    return _with_last_block(full, box_muller(u[count:].reshape(1, 16)) if count % 16 else None,
                            count)


def _normal_fill_avx2(gen: CPUGenerator, count: int, mean: float, std: float) -> np.ndarray:
    """normal_fill_AVX2: float32 Box-Muller 16 at a time with avx_mathfun's log and
    sincos (Cephes polynomials), the compiler's fused multiply-adds included."""
    u = _unit_floats(gen, count + (16 if count % 16 else 0), np.float32)
    mean, std = np.float32(mean), np.float32(std)
    full = u[:count - count % 16].reshape(-1, 16)
    chunk = 1 << 13  # blocks at a time (8,192: measured quickest, the arrays stay in cache)
    for start in range(0, len(full), chunk):
        full[start:start + chunk] = _box_muller_avx2(full[start:start + chunk], mean, std)
    last = _box_muller_avx2(u[count:].reshape(1, 16), mean, std) if count % 16 else None
    return _with_last_block(full, last, count)


def _normal_fill_blockwise(gen: CPUGenerator, count: int, mean: float,
                           std: float) -> np.ndarray:
    """float16's normals: the AVX2 blocks in float32, each drawing its 16 uniforms just
    before it is computed (so a last partial block takes 16 words, not count + 16)."""
    mean, std = np.float32(mean), np.float32(std)
    full = _unit_floats(gen, count - count % 16, np.float32).reshape(-1, 16)
    full = _box_muller_avx2(full, mean, std)
    last = None
    if count % 16:
        last = _box_muller_avx2(_unit_floats(gen, 16, np.float32).reshape(1, 16), mean, std)
    return _with_last_block(full, last, count)


def _box_muller_avx2(block: np.ndarray, mean, std) -> np.ndarray:
    """Rows of 16 uniforms -> rows of 16 normals (each row one AVX2 call)."""
    radius = np.sqrt(np.float32(-2) * _log8((np.float32(1) - block[:, :8]).ravel()))
    sin, cos = _sincos8((np.float32(2.0 * math.pi) * block[:, 8:]).ravel())
    normals = np.empty_like(block)
    normals[:, :8] = _scaled(radius * cos, std, mean).reshape(-1, 8)
    normals[:, 8:] = _scaled(radius * sin, std, mean).reshape(-1, 8)
    return normals


_f = np.float32
_LOG_P = [_f(c) for c in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                          1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                          3.3333331174E-1)]
_LOG_Q1, _LOG_Q2 = _f(-2.12194440e-4), _f(0.693359375)
_SQRT_HALF = _f(0.707106781186547524)
_MIN_NORMAL = np.array(0x00800000, dtype=np.int32).view(np.float32)


def _log8(x: np.ndarray) -> np.ndarray:
    """log256_ps for x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), then
    log(x) = e log 2 + a polynomial in m - 1 (the constants are Cephes' logf)."""
    x = np.maximum(x, _MIN_NORMAL)
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + _f(1)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)  # the mantissa, in [0.5, 1)
    small = m < _SQRT_HALF
    e = e - small.astype(np.float32)
    m = (m - _f(1)) + np.where(small, m, _f(0))
    z = m * m
    m_wide = m.astype(np.float64)  # (each fused multiply-add widens its operands: once here)
    y = fma32(_LOG_P[0], m_wide, _LOG_P[1])
    for p in _LOG_P[2:]:
        y = fma32(y, m_wide, p)
    y = y * m
    y = fma32(y, z, e * _LOG_Q1)  # y z + e q1
    y = fma32(-z, _f(0.5), y)  # - z / 2
    return (m + y) + e * _LOG_Q2  # + e q2 (an exact product: a fused add is a plain one)


_DP1, _DP2, _DP3 = _f(-0.78515625), _f(-2.4187564849853515625e-4), _f(-3.77489497744594108e-8)
_SIN_P = (_f(-1.9515295891E-4), _f(8.3321608736E-3), _f(-1.6666654611E-1))
_COS_P = (_f(2.443315711809948E-005), _f(-1.388731625493765E-003), _f(4.166664568298827E-002))
_FOUR_OVER_PI = _f(1.27323954473516)


def _sincos8(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps for x >= 0: j = the octant rounded up to even, x - j pi/4 in three
    parts (Cody-Waite), then Cephes' sin and cos polynomials, swapped and signed by j."""
    j = (x * _FOUR_OVER_PI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    x = x + y * _DP1  # (y is 0, 2, ..., 8: these products are exact, so their
    x = x + y * _DP2  # fused multiply-adds are plain ones)
    x = fma32(y, _DP3, x)
    z = x * x
    z_wide = z.astype(np.float64)
    cos = fma32(fma32(_COS_P[0], z_wide, _COS_P[1]), z_wide, _COS_P[2]) * z
    cos = fma32(cos, z_wide, -(z * _f(0.5))) + _f(1)
    sin = fma32(fma32(fma32(_SIN_P[0], z_wide, _SIN_P[1]), z_wide, _SIN_P[2]) * z, x, x)
    swap = (j & 2) != 0
    sin_value, cos_value = np.where(swap, cos, sin), np.where(swap, sin, cos)
    sin_value.view(np.int32)[...] ^= (j & 4) << 29  # the sign bits, flipped as AVX2 does
    cos_value.view(np.int32)[...] ^= (~(j - 2) & 4) << 29
    return sin_value, cos_value


# ---- integers -----------------------------------------------------------------------------


def random_from_to(gen: CPUGenerator, count: int, dtype, span: int, low: int) -> np.ndarray:
    """``random_(low, low + span)``, ``randint``: word % span + low, from a 64-bit word
    when the span is 2**28 or more (so that the remainder is close to uniform), else from
    a 32-bit one."""
    dtype = np.dtype(dtype)
    words = gen.random64(count) if span >= 1 << 28 else gen.random(count)
    return ((words % np.uint64(span)) + np.uint64(low % (1 << 64))).view(np.int64).astype(dtype)


def random_full_range(gen: CPUGenerator, count: int, dtype) -> np.ndarray:
    """``random_(-2**63, None)``: every int64."""
    return gen.random64(count).view(np.int64).astype(dtype)


def random_bits(gen: CPUGenerator, count: int, dtype) -> np.ndarray:
    """``random_()``: [0, the dtype's largest integer] for integer types, [0, 2**digits]
    for floats (every integer the float holds exactly), 0 or 1 for bool."""
    dtype = np.dtype(dtype)
    words = gen.random64(count) if dtype in (np.int64, np.float64) else gen.random(count)
    if dtype == np.bool_:
        return (words & np.uint64(1)).astype(np.bool_)
    if dtype.kind == "f":
        span = (1 << {2: 11, 4: 24, 8: 53}[dtype.itemsize]) + 1
    else:
        span = int(np.iinfo(dtype).max) + 1
    return (words % np.uint64(span)).astype(dtype)


def randperm(gen: CPUGenerator, n: int) -> np.ndarray:
    """randperm_cpu: a Fisher-Yates shuffle of 0 .. n-1 that swaps element i with element
    j_i = i + (word % (n - i)), for i = 0, 1, ..., n - 2.

    The swaps run one after another, but where each value ends up can be worked out for
    all of them at once. Step i fixes element i for good: it takes the value at j_i,
    which is the value that position k held when step k started, for the last step
    k < i that also swapped with j_i, or j_i itself if none did. And the value position
    k held when step k started is, the same way, that of the last step before k that
    swapped with k, or k itself. These "last step before" links only point back, so
    their chains are followed to the end by pointer doubling."""
    if n >= 0xFFFFFFFF // 20:
        raise ValueError("randperm of 214748364 values or more (PyTorch then shuffles "
                         "another way) is not supported")
    m = max(n - 1, 0)
    steps = np.arange(m, dtype=np.uint32)
    target = (steps + gen.random(m).astype(np.uint32) % (np.uint32(n) - steps)).astype(np.int32)
    # the steps grouped by target, in order: "the last step before" is the one before
    order = _stable_order(target, n)
    by_target = target[order]
    same = by_target[1:] == by_target[:-1]
    previous = np.full(m, -1, dtype=np.int32)  # the last step before i with i's target
    previous[order[1:][same]] = order[:-1][same]
    group_end = np.append(~same, True)[:m]
    last = np.full(n, -1, dtype=np.int32)  # the last step before step p that targeted p
    last[by_target[group_end]] = order[group_end]
    selfs = np.nonzero(last[:m] == steps.astype(np.int32))[0]  # (step p: not before itself)
    last[selfs] = previous[selfs]
    held = np.where(last >= 0, last, np.arange(n, dtype=np.int32))
    while True:  # follow each chain back to a position that no earlier step wrote
        jumped = held[held]
        if np.array_equal(jumped, held):
            break
        held = jumped
    result = np.empty(n, dtype=np.int64)
    result[:m] = np.where(previous >= 0, held[previous], target)
    if n:
        result[n - 1] = held[n - 1]
    return result


def _stable_order(keys: np.ndarray, n: int) -> np.ndarray:
    """np.argsort(keys, kind="stable") for 0 <= keys < n < 2**32, as NumPy's radix sort
    (used for 16-bit keys) on one or two 16-bit halves."""
    if n <= 1 << 16:
        return np.argsort(keys.astype(np.uint16), kind="stable").astype(np.int32)
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    return order[np.argsort((keys[order] >> 16).astype(np.uint16), kind="stable")].astype(np.int32)


# ---- Bernoulli, exponential, multinomial -----------------------------------------------------


def bernoulli(gen: CPUGenerator, p, count: int) -> np.ndarray:
    """Bernoulli draws as booleans: u < p, with u a double for a number p (or a float64
    tensor of them), a float32 for a float32 or float16 tensor p (one value per draw)."""
    if isinstance(p, np.ndarray) and p.dtype != np.float64:
        return _unit_floats(gen, count, np.float32) < p.astype(np.float32)
    return _unit_floats(gen, count, np.float64) < p


def exponential(gen: CPUGenerator, count: int, dtype, rate: float) -> np.ndarray:
    """exponential_distribution<double>: -1/rate * log(1 - u) (as log1p(-u)), in double."""
    u = _unit_floats(gen, count, np.float64)
    return ((-1.0 / rate) * _log1p(-u)).astype(dtype)


def _from_double(values: np.ndarray, dtype) -> np.ndarray:
    """static_cast<scalar_t>(double): a half through float, as c10::Half converts."""
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        return values.astype(np.float32).astype(dtype)
    return values.astype(dtype)


def cauchy(gen: CPUGenerator, count: int, dtype, median: float, sigma: float) -> np.ndarray:
    """cauchy_distribution<double>: median + sigma tan(pi (u - 1/2)), in double."""
    u = _unit_floats(gen, count, np.float64)
    return _from_double(median + sigma * _tan(math.pi * (u - 0.5)), dtype)


def log_normal(gen: CPUGenerator, count: int, dtype, mean: float, std: float) -> np.ndarray:
    """lognormal_distribution<double>: exp of normal_distribution<double>'s values (the
    pairs of ``_normal_scalar``, sharing its cached second value)."""
    return _from_double(_exp(_normal_scalar(gen, count, mean, std)), dtype)


def geometric(gen: CPUGenerator, count: int, dtype, p: float) -> np.ndarray:
    """geometric_distribution<double>: ceil(log(u) / log(1 - p)), in double."""
    u = _unit_floats(gen, count, np.float64)
    with np.errstate(divide="ignore"):
        return _from_double(np.ceil(_log(u) / math.log1p(-p)), dtype)


def rrelu_noise(gen: CPUGenerator, x: np.ndarray, lower: float, upper: float) -> np.ndarray:
    """rrelu's slopes in training: for each element <= 0, in x's logical order, one
    uniform_real_distribution<double>(lower, upper) draw (the bounds first rounded to x's
    dtype, as its opmath type), rounded to x's dtype; 1 for the others (and NaN)."""
    dtype = np.dtype(x.dtype)
    low, high = float(dtype.type(lower)), float(dtype.type(upper))
    drawn = np.ascontiguousarray(x).ravel() <= 0
    u = _unit_floats(gen, int(np.count_nonzero(drawn)), np.float64)
    noise = np.ones(x.size, dtype)
    noise[drawn] = (u * (high - low) + low).astype(dtype)
    return noise.reshape(x.shape)


def multinomial(gen: CPUGenerator, probabilities: np.ndarray, samples: int,
                replacement: bool) -> np.ndarray:
    """Indices drawn from each row of ``probabilities`` (2-D, rows of weights).

    With replacement: the row's running sums divided by the total (the last set to 1),
    then for each draw a double u and the first category whose sum reaches u.
    Without (or for one draw): q ~ Exp(1) for every weight, and the categories of the
    largest w / q (the Gumbel trick), largest first: one draw is their argmax, more are
    their ``topk`` (whose order of equal keys, as zero weights give, is PyTorch's)."""
    if not replacement or samples == 1:
        q = exponential(gen, probabilities.size, probabilities.dtype, 1.0)
        keys = probabilities / q.reshape(probabilities.shape)
        if samples == 1:
            return np.argmax(keys, axis=1)[:, None]
        return topk_indices(keys, samples, 1, largest=True)
    result = np.empty((len(probabilities), samples), dtype=np.int64)
    for row, weights in enumerate(probabilities):
        if weights.dtype == np.float16:  # (its sums are kept in float32)
            weights = weights.astype(np.float32)
        cumulative = np.cumsum(weights)  # (in the row's dtype, left to right)
        cumulative /= cumulative[-1]
        cumulative[-1] = 1
        u = _unit_floats(gen, samples, np.float64)
        result[row] = np.searchsorted(cumulative.astype(np.float64), u, side="left")
    return result
