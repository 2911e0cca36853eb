"""The big kernels (minigrad/kernels/): each gives, for arrays of every layout and
on any number of threads, exactly the bits of the NumPy formula it replaces, written
here as the whole-array expression minigrad computed before the kernels were split
(so a kernel cut into parts, on threads or on one, rounds nothing differently).

Sizes on both sides of ``threads.BIG``; layouts: contiguous, transposed, sliced,
shifted, and gradients broadcast from a sum (stride 0) along some or all axes.
Values: ordinary ones with NaN, +-inf, -0 and a denormal among them.
PyTorch's values are held by the op suites (test_ops_vs_torch.py,
test_sigmoid_values.py, tests/nn); the figures are in ``make bench``."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import minigrad as mg
from minigrad.kernels import arithmetic, compiled, loss, pointwise, softmax, threads, vec
from minigrad.kernels.fma import fma32, fma64
from minigrad.kernels.summation import sum_axes

from thread_count import Threads

RNG = np.random.default_rng(34)
SHAPES = [(511, 513), (613, 701), (3, 100_003)]  # (262,143 elements: below BIG; the others above)
COUNTS = [1, 2, 3]  # threads (3: more than this machine's cores; the bits stay the same)


def _values(shape, dtype, scale=5.0):
    array = (RNG.standard_normal(shape) * scale).astype(dtype)
    array.reshape(-1)[:6] = [np.nan, np.inf, -np.inf, -0.0, 1e-40, 0.0]
    return array


def _layouts(array):
    """The array as it is, transposed, every other column, and one row on."""
    return {"contiguous": array, "transposed": array.T, "sliced": array[:, ::2],
            "shifted": array[1:]}


def _same_bits(ours, expected, what, nan_bits=True):
    """The same bytes (NaNs and signed zeros too); ``nan_bits=False``: a NaN where the
    other has one, of any sign and payload (the compiled kernels' NaNs are the machine
    instructions', as PyTorch's: test_compiled_kernels.py holds them to PyTorch's)."""
    ours, expected = np.asarray(ours), np.asarray(expected)
    assert ours.dtype == expected.dtype and ours.shape == expected.shape, what
    assert ours.strides == expected.strides, what
    if not nan_bits:
        nan = np.isnan(expected)
        assert np.array_equal(np.isnan(ours), nan), what
        ours, expected = np.where(nan, 0, ours), np.where(nan, 0, expected)
    assert ours.tobytes() == expected.tobytes(), what


@pytest.fixture(autouse=True)
def _quiet():
    with np.errstate(all="ignore"):  # (as minigrad computes: inf and nan come silently)
        yield


# ---- elementwise functions: the ufunc in one call -----------------------------------

def _sigmoid_formula(x):
    """float32 below BIG elements with its exp in float64, rounded once; a big array in
    its own dtype (NumPy's float32 exp, as ``_exp_formula``). A C-contiguous float32
    array with the compiled kernels: PyTorch's loop, whole runs of two vectors (32 floats
    with AVX-512, 16 with AVX2) with SLEEF's exp,
    the rest with float64's rounded."""
    if _compiled_flat(x):
        flat = x.reshape(-1)
        whole = flat.size - flat.size % (2 * vec.NATIVE_VECTOR_BYTES // 4)
        head = np.float32(1) / (np.float32(1) + _sleef_expf(np.float32(0) - flat[:whole]))
        tail = np.exp(np.negative(flat[whole:], dtype=np.float64)).astype(np.float32)
        tail = np.float32(1) / (np.float32(1) + tail)
        return np.concatenate([head, tail]).reshape(x.shape)
    if x.dtype.char == "e" or (x.dtype.char == "f" and x.size < threads.BIG):
        exp = np.exp(np.negative(x, dtype=np.float64)).astype(np.float32)
        return np.asarray((np.float32(1) / (np.float32(1) + exp)).astype(x.dtype, copy=False))
    one = x.dtype.type(1)
    return np.asarray(one / (one + np.exp(np.negative(x))))


def _exp_formula(x):
    """float32 below BIG elements computed in float64 and rounded once (PyTorch's SLEEF
    exp is nearly always the correctly rounded value); a big array NumPy's own loop."""
    if x.dtype == np.float32 and x.size < threads.BIG:
        return np.asarray(np.exp(x.astype(np.float64)).astype(np.float32))
    return np.asarray(np.exp(x))


def _from_float64(ufunc):
    """float32 below BIG elements computed in float64 and rounded once (as exp: tanh); a
    big array NumPy's own loop."""
    def formula(x):
        if x.dtype == np.float32 and x.size < threads.BIG:
            return np.asarray(ufunc(x.astype(np.float64)).astype(np.float32))
        return np.asarray(ufunc(x))
    return formula


def _power_formula(exponent):
    """float32 below BIG elements computed in float64 and rounded once (as exp); a big
    array NumPy's own float32 loop."""
    def formula(x):
        if x.dtype == np.float32 and x.size < threads.BIG:
            return np.power(x, exponent, dtype=np.float64).astype(np.float32)
        return np.power(x, exponent)
    return formula


UNARY = {  # kernel, formula
    "exp": (pointwise.exp, _exp_formula),
    "log": (pointwise.log, np.log),
    "sin": (pointwise.sin, np.sin),
    "cos": (pointwise.cos, np.cos),
    "tanh": (pointwise.tanh, _from_float64(np.tanh)),
    "sigmoid": (pointwise.sigmoid, _sigmoid_formula),
    "** 2.5": (lambda x: arithmetic.power(x, 2.5), _power_formula(2.5)),
    "** -1.5": (lambda x: arithmetic.power(x, -1.5), _power_formula(-1.5)),
    "** 7": (lambda x: arithmetic.power(x, 7), _power_formula(7)),
    "sqrt": (pointwise.sqrt, lambda x: np.asarray(np.sqrt(x))),
    "** 0.5": (lambda x: arithmetic.power(x, 0.5),  # (a square root, but in float16)
               lambda x: np.power(x, 0.5) if x.dtype == np.float16 else np.sqrt(x)),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("shape", SHAPES[:2])
@pytest.mark.parametrize("name", list(UNARY))
def test_an_elementwise_kernel_has_the_bits_of_its_ufunc(name, shape, dtype):
    kernel, formula = UNARY[name]
    array = _values(shape, dtype)
    before = array.copy()
    for layout, x in _layouts(array).items():
        expected = formula(x)
        for count in COUNTS:
            with Threads(count):
                _same_bits(kernel(x), expected, f"{name} {layout} on {count} threads",
                           nan_bits=not (name == "sigmoid" and _compiled_flat(x)))
    _same_bits(array, before, "the input, read only")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_sigmoid_backward_has_the_bits_of_its_formula(dtype):
    y = _sigmoid_formula(_values((613, 701), dtype))
    grads = {"contiguous": _values(y.shape, dtype, 1.0),
             "a sum's": np.broadcast_to(np.asarray(1, dtype), y.shape),
             "a row sum's": np.broadcast_to(_values((613, 1), dtype), y.shape),
             "transposed": _values(y.shape[::-1], dtype).T}
    before = y.copy(), {what: grad.copy() for what, grad in grads.items()}
    for what, grad in grads.items():
        expected = grad * (pointwise.one_of(dtype) - y) * y
        for count in COUNTS:
            with Threads(count):
                _same_bits(pointwise.sigmoid_backward(grad, y), expected, f"{what} on {count}")
        _same_bits(grad.copy(), before[1][what], f"{what}: the gradient, read only")
    _same_bits(y, before[0], "the result, read only")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_log_sigmoid_and_its_gradient_have_the_bits_of_their_formulas(shape, dtype):
    for layout, x in _layouts(_values(shape, dtype, 20.0)).items():
        buffer = np.exp(-np.abs(x))
        expected = np.minimum(x, 0) - np.log1p(buffer)
        one = np.ones((), dtype)
        ratio = buffer / (one + buffer)
        for what, grad in {"contiguous": _values(x.shape, dtype, 1.0),
                           "a sum's": np.broadcast_to(np.asarray(-1.5, dtype), x.shape)}.items():
            expected_grad = np.where(x < 0, one - ratio, ratio) * grad
            for count in COUNTS:
                with Threads(count):
                    result, ours = pointwise.log_sigmoid(x)
                    _same_bits(result, expected, f"log_sigmoid {layout} on {count}")
                    _same_bits(ours, buffer, f"its buffer, {layout} on {count}")
                    _same_bits(pointwise.log_sigmoid_backward(grad, x, ours), expected_grad,
                               f"its gradient, {layout}, {what} grad, on {count}")


# ---- softmax, log_softmax, logsumexp: NumPy's sum of each row ----------------------

def _lane_sums(rows):
    """Each row's sum as PyTorch's reduce_all adds it on this machine's vectors: AVX-512's
    16 float32 lanes or 8 float64 ones (AVX2's 8 or 4), the leftover elements into the
    first lanes, then float32's lanes i + 8, i + 4, i + 2, i + 1 (its SIMD shuffles),
    float64's one after the other (ATen's generic reduce); a short row in order. Written
    out element by element here (slow, so only the first rows)."""
    kind = np.float32 if rows.dtype == np.float32 else np.float64
    width = vec.NATIVE_VECTOR_BYTES // rows.itemsize
    sums = []
    for row in rows:
        if len(row) < width:
            total = row[0]
            for value in row[1:]:
                total = kind(total + value)
            sums.append(total)
            continue
        lanes = list(row[:width])
        full = len(row) - len(row) % width
        for start in range(width, len(row)):
            lane = (start % width) if start < full else start - full
            lanes[lane] = kind(lanes[lane] + row[start])
        if kind is np.float64:
            lanes = [sum(lanes[1:], lanes[0])]  # (left to right)
        while len(lanes) > 1:
            half = len(lanes) // 2
            lanes = [kind(lanes[i] + lanes[i + half]) for i in range(half)]
        sums.append(lanes[0])
    return np.array(sums, kind)


def _sleef_expf(d):
    """SLEEF's float32 exp (xexpf), which PyTorch's vectorised kernels call, written here
    with NumPy and kernels/fma.py's exact fused multiply-add (the compiled kernels'
    own version is kernels/compiled.py's, with the machine's)."""
    one = np.float32
    with np.errstate(invalid="ignore", over="ignore"):
        qf = np.rint(d * one(1.4426950408889634))
        q = np.where(np.isfinite(qf) & (np.abs(qf) < 1000), qf, 0).astype(np.int32)
        s = fma32(qf, one(-0.693145751953125), d)
        s = fma32(qf, one(-1.428606765330187045e-06), s)
        u = np.full(d.shape, one(0.000198527617612853646278381))
        for c in (0.00139304355252534151077271, 0.00833336077630519866943359,
                  0.0416664853692054748535156, 0.166666671633720397949219, 0.5):
            u = fma32(u, s, one(c))
        u = one(1) + fma32(s * s, u, s)
        half = q >> 1
        pow2 = lambda k: ((k + 127) << 23).astype(np.int32).view(np.float32)  # noqa: E731
        u = u * pow2(half) * pow2(q - half)
    u = np.where(d < -104, one(0), u)
    return np.where(d > 100, one(np.inf), u).astype(np.float32)


def _compiled_flat(x) -> bool:
    """An elementwise compiled kernel takes it (sigmoid): float32, C-contiguous."""
    return compiled.AVAILABLE and x.dtype == np.float32 and x.flags.c_contiguous


def _compiled_float32(x, dim) -> bool:
    """softmax and log_softmax of float32 along the last dim at every size: the compiled
    kernels, PyTorch's loop with SLEEF's exp (kernels/compiled.py)."""
    return compiled.AVAILABLE and x.dtype == np.float32 and dim == x.ndim - 1


def _float_last_dim(x, dim, log: bool):
    """PyTorch's float32 and float64 kernels along the last dim (kernels/softmax.py): exp
    and log in float64 (float32's rounded once; with the compiled kernels float32's exp is
    SLEEF's), sums in vector lanes; softmax multiplies by 1 / sum."""
    rows = x.reshape(-1, x.shape[-1])
    if _compiled_float32(x, dim):  # (vec::maximum's NaN has every bit set)
        peak = np.where(np.isnan(rows).any(1, keepdims=True),
                        np.uint32(0xFFFFFFFF).view(np.float32), rows.max(1, keepdims=True))
        shifted = rows - peak
        exps = _sleef_expf(shifted)
    else:
        shifted = rows - rows.max(1, keepdims=True)
        exps = np.exp(shifted.astype(np.float64)).astype(x.dtype)
    head = min(len(rows), 40)  # (the lanes, checked element by element on some rows)
    sums = _lane_sums_fast(exps)
    assert np.array_equal(sums[:head], _lane_sums(exps[:head]), equal_nan=True)
    if log:
        out = shifted - np.log(sums.astype(np.float64)).astype(x.dtype)[:, None]
    else:
        out = exps * (x.dtype.type(1) / sums)[:, None]
    return np.asarray(out.reshape(x.shape), order="C")


def _lane_sums_fast(rows):
    width = rows.shape[1]
    lanes = vec.NATIVE_VECTOR_BYTES // rows.itemsize  # (as _lane_sums)
    if width < lanes:
        total = rows[:, 0].copy()
        for i in range(1, width):
            total += rows[:, i]
        return total
    full = width - width % lanes
    acc = rows[:, :lanes].copy()
    for start in range(lanes, full, lanes):
        acc += rows[:, start:start + lanes]
    acc[:, :width - full] += rows[:, full:]
    if rows.dtype == np.float64:
        total = acc[:, 0].copy()
        for i in range(1, lanes):
            total += acc[:, i]
        return total
    while acc.shape[1] > 1:
        acc = acc[:, :acc.shape[1] // 2] + acc[:, acc.shape[1] // 2:]
    return acc[:, 0]


def _exps_along(x, dim):
    """Along another dim below BIG (PyTorch's kernel): x - max, and the exps (in float64,
    rounded to x's dtype) added slice after slice."""
    shifted = x - x.max(axis=dim, keepdims=True)
    exps = np.exp(shifted.astype(np.float64)).astype(x.dtype)
    total = np.zeros_like(np.take(x, [0], axis=dim))
    for i in range(x.shape[dim]):
        total = total + np.take(exps, [i], axis=dim)
    return shifted, total


def _softmax_formula(x, dim):
    # (PyTorch's order below threads.BIG elements; a big array NumPy's exp and sums;
    # a half in float32, as PyTorch's kernel)
    if x.dtype == np.float16:
        return _softmax_formula(x.astype(np.float32), dim).astype(np.float16)
    if _compiled_float32(x, dim) or (
            x.dtype in (np.float32, np.float64) and dim == x.ndim - 1 and x.size < threads.BIG):
        return _float_last_dim(x, dim, log=False)
    if x.dtype in (np.float32, np.float64) and x.size < threads.BIG:
        shifted, total = _exps_along(x, dim)
        return np.ascontiguousarray(np.exp(shifted.astype(np.float64)).astype(x.dtype) / total)
    shifted = np.exp(x - np.maximum.reduce(x, axis=dim, keepdims=True, initial=-np.inf))
    return np.asarray(shifted / np.add.reduce(shifted, axis=dim, keepdims=True), order="C")


def _log_softmax_formula(x, dim):
    if x.dtype == np.float16 and dim == x.ndim - 1:  # (the sum and its log kept as halves)
        wide = x.astype(np.float32)
        shifted = wide - wide.max(axis=dim, keepdims=True)
        total = np.exp(shifted).sum(axis=dim, keepdims=True, dtype=np.float32)
        log_total = np.log(total.astype(np.float16).astype(np.float32)).astype(np.float16)
        return np.ascontiguousarray((shifted - log_total.astype(np.float32)).astype(np.float16))
    if _compiled_float32(x, dim) or (
            x.dtype in (np.float32, np.float64) and dim == x.ndim - 1 and x.size < threads.BIG):
        return _float_last_dim(x, dim, log=True)
    if x.dtype in (np.float32, np.float64) and x.size < threads.BIG:
        shifted, total = _exps_along(x, dim)
        return np.ascontiguousarray(shifted - np.log(total.astype(np.float64)).astype(x.dtype))
    shifted = x - np.maximum.reduce(x, axis=dim, keepdims=True, initial=-np.inf)
    return np.asarray(shifted - np.log(np.add.reduce(np.exp(shifted), axis=dim, keepdims=True)),
                      order="C")


def _logsumexp_formula(x, dims, keepdim):
    peak = np.max(x, axis=dims, keepdims=True, initial=-np.inf)
    peak = np.where(np.isfinite(peak), peak, 0)
    result = np.log(sum_axes(np.exp(x - peak), dims, keepdims=True)) + peak
    if not keepdim:
        result = result.squeeze(dims)
    return np.asarray(result, dtype=x.dtype)


def _grads(y, dim):
    """Gradients a softmax meets: its own layout, a sum's (stride 0), a sum's along
    ``dim`` (stride 0 there), a mean of rows' (stride 0 across them), another layout."""
    return {"contiguous": _values(y.shape, y.dtype, 1.0),
            "a sum's": np.broadcast_to(np.asarray(0.25, y.dtype), y.shape),
            "along dim": np.broadcast_to(_values(y.shape, y.dtype).sum(dim, keepdims=True),
                                         y.shape),
            "across rows": np.broadcast_to(_values(y.shape[-1:], y.dtype), y.shape),
            "transposed": np.ascontiguousarray(_values(y.shape, y.dtype).T).T}


# (float16, whose NumPy kernels are slow: one shape just above BIG, two layouts)
HALF = (513, 512)
ROWS = [(shape, dtype) for dtype in (np.float32, np.float64)
        for shape in [*SHAPES, (2, 5, 30_000), (70_000, 4)]] + [(HALF, np.float16)]


def _some_layouts(array):
    layouts = _layouts(array)
    if array.dtype == np.float16:
        return {name: layouts[name] for name in ("contiguous", "transposed")}
    return layouts


@pytest.mark.parametrize("shape, dtype", ROWS)
def test_softmax_and_log_softmax_have_the_bits_of_their_formulas(shape, dtype):
    for layout, x in _some_layouts(_values(shape, dtype)).items():
        for dim in range(x.ndim) if dtype != np.float16 else [x.ndim - 1]:
            expected = _softmax_formula(x, dim), _log_softmax_formula(x, dim)
            for count in COUNTS:
                with Threads(count):
                    what = f"{layout}, dim {dim}, {count} threads"
                    nan_bits = not _compiled_float32(x.astype(np.float32), dim)  # (half: too)
                    _same_bits(softmax.softmax(x, dim), expected[0], f"softmax {what}", nan_bits)
                    _same_bits(softmax.log_softmax(x, dim), expected[1], f"log_softmax {what}",
                               nan_bits)


def _gradients_in_lanes(grad, y, log_y):
    """PyTorch's kernels along the last dim below BIG: softmax's (grad - sum(grad * y)) * y,
    the products rounded and summed in lanes; log_softmax's grad - exp(log_y) * sum(grad),
    the exp float64's (float32's rounded once), the product and difference one fused
    multiply-add."""
    rows = lambda a: np.ascontiguousarray(np.broadcast_to(a, y.shape)).reshape(-1, y.shape[-1])
    g, out, log_out = rows(grad), rows(y), rows(log_y)
    soft = (g - _lane_sums_fast(g * out)[:, None]) * out
    if _compiled_float32(y, y.ndim - 1):
        exps = _sleef_expf(log_out)
    else:
        exps = np.exp(log_out.astype(np.float64)).astype(y.dtype)
    fused = fma32 if y.dtype == np.float32 else fma64
    log = fused(-exps, np.broadcast_to(_lane_sums_fast(g)[:, None], exps.shape), g)
    return soft.reshape(y.shape), log.reshape(y.shape)


def _gradients_along(grad, y, log_y, dim):
    """Along another dim below BIG: softmax's sum of grad * y slice after slice, each
    product fused into the running sum; log_softmax's plain sum, then one fused
    multiply-add."""
    grad = np.broadcast_to(grad, y.shape)
    fused = fma32 if y.dtype == np.float32 else fma64
    soft_total = np.zeros_like(np.take(y, [0], axis=dim))
    log_total = np.zeros_like(soft_total)
    for i in range(y.shape[dim]):
        soft_total = fused(np.take(grad, [i], axis=dim), np.take(y, [i], axis=dim), soft_total)
        log_total = log_total + np.take(grad, [i], axis=dim)
    exps = np.exp(log_y.astype(np.float64)).astype(y.dtype)
    return (np.ascontiguousarray((grad - soft_total) * y),
            np.ascontiguousarray(fused(-exps, np.broadcast_to(log_total, y.shape), grad)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(613, 701), (511, 513), (2, 5, 30_000)])
def test_the_gradients_of_softmax_and_log_softmax_have_the_bits_of_their_formulas(shape, dtype):
    x = _values(shape, dtype)
    for dim in (x.ndim - 1, 0):
        y, log_y = _softmax_formula(x, dim), _log_softmax_formula(x, dim)
        for what, grad in _grads(y, dim).items():
            if dim == x.ndim - 1 and (x.size < threads.BIG or _compiled_float32(x, dim)):
                expected = _gradients_in_lanes(grad, y, log_y)  # (PyTorch's lanes)
            elif x.size < threads.BIG:
                expected = _gradients_along(grad, y, log_y, dim)
            else:
                expected = (y * (grad - np.sum(grad * y, axis=dim, keepdims=True)),
                            grad - np.exp(log_y) * np.add.reduce(grad, axis=dim, keepdims=True))
            for count in COUNTS:
                with Threads(count):
                    where = f"{what} grad, dim {dim}, {count} threads"
                    nan_bits = not _compiled_float32(x, dim)
                    _same_bits(softmax.softmax_backward_data(grad, y, dim), expected[0],
                               f"softmax {where}", nan_bits)
                    _same_bits(softmax.log_softmax_backward_data(grad, log_y, dim), expected[1],
                               f"log_softmax {where}", nan_bits)


@pytest.mark.parametrize("shape, dtype", [
    *[(shape, dtype) for dtype in (np.float32, np.float64)
      for shape in [(613, 701), (511, 513), (2, 5, 30_000), (9, 40_000)]],
    (HALF, np.float16)])
def test_logsumexp_has_the_bits_of_its_formula(shape, dtype):
    x = _values(shape, dtype)
    x[-1] = -np.inf  # (a row of -inf: its peak is taken as 0)
    for layout, array in _some_layouts(x).items():
        for dims in [(array.ndim - 1,), (0,), tuple(range(array.ndim))][:1 if x.dtype == np.float16
                                                                         else 3]:
            for keepdim in (False, True):
                expected = _logsumexp_formula(array, dims, keepdim)
                for count in COUNTS:
                    with Threads(count):
                        _same_bits(softmax.logsumexp(array, dims, keepdim), expected,
                                   f"{layout} {dims} keepdim={keepdim}, {count} threads")


# ---- binary cross-entropy with logits ----------------------------------------------

def _bce_formula(x, target, weight, pos_weight):
    log_sig = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
    if pos_weight is not None:
        log_sig = np.asarray(log_sig * ((pos_weight - 1) * target + 1), dtype=x.dtype)
    losses = (1 - target) * x - log_sig
    if weight is not None:
        losses = losses * weight
    return np.asarray(losses, dtype=x.dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(613, 701), (511, 513), (300_001,)])
def test_binary_cross_entropy_with_logits_has_the_bits_of_its_formula(shape, dtype):
    x = _values(shape, dtype, 20.0)
    target = RNG.uniform(0, 1, shape).astype(dtype)
    other = np.float64 if dtype == np.float32 else np.float32
    weights = {"none": None, "per class": RNG.uniform(0, 2, shape[-1:]).astype(dtype),
               "per element": RNG.uniform(0, 2, shape).astype(dtype),
               "per row": RNG.uniform(0, 2, (*shape[:-1], 1)).astype(dtype),
               "another dtype": RNG.uniform(0, 2, shape[-1:]).astype(other)}
    for weight_name, pos_name in [("none", "none"), ("per class", "none"), ("none", "per class"),
                                  ("per element", "per row"), ("per row", "per element"),
                                  ("another dtype", "per class"), ("none", "another dtype")]:
        weight, pos_weight = weights[weight_name], weights[pos_name]
        expected = _bce_formula(x, target, weight, pos_weight)
        for count in COUNTS:
            with Threads(count):
                _same_bits(loss.binary_cross_entropy_with_logits(x, target, weight, pos_weight),
                           expected, f"weight {weight_name}, pos_weight {pos_name}, {count}")


# ---- through minigrad: forward and backward on 1, 2, 3 threads ---------------------

PROGRAMS = {
    "exp": lambda lib, x, w: (x.exp() * w).sum(),
    "log": lambda lib, x, w: ((x * x + 1).log() * w).sum(),
    "sin, cos": lambda lib, x, w: (x.sin() * x.cos() * w).sum(),
    "pow": lambda lib, x, w: ((x * x + 1) ** 1.5 * w).sum(),
    "sigmoid": lambda lib, x, w: (lib.sigmoid(x * w)).sum(),
    "softmax": lambda lib, x, w: (lib.softmax(x, 1) * w).sum(),
    "log_softmax": lambda lib, x, w: lib.log_softmax(x, dim=1).mean(),
    "logsumexp": lambda lib, x, w: (lib.logsumexp(x, 1) * w[:, 0]).sum(),
    "cross_entropy": lambda lib, x, w: lib.nn.functional.cross_entropy(
        x, lib.tensor(np.arange(x.shape[0]) % x.shape[1])),
    "BCE with logits": lambda lib, x, w: lib.nn.functional.binary_cross_entropy_with_logits(
        x, (w > 0).to(x.dtype), pos_weight=lib.ones(x.shape[1], dtype=x.dtype) * 2),
    "logsigmoid, sqrt": lambda lib, x, w: (
        lib.nn.functional.logsigmoid(x * 3) * (w * w + 1).sqrt()).sum(),
    "softmax, log_softmax along dim 0": lambda lib, x, w: (
        (lib.softmax(x, 0) * w).sum() + lib.log_softmax(x * w, dim=0).mean()),
    "transposed exp, log_softmax": lambda lib, x, w: (
        lib.log_softmax(x.t().exp(), 0) * w.t()).sum(),
}


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
@pytest.mark.parametrize("program", list(PROGRAMS))
def test_a_program_has_the_same_bits_on_any_number_of_threads(program, dtype):
    data, weights = _values((613, 701), np.float64, 1.0), _values((613, 701), np.float64, 1.0)
    data[np.isnan(data) | np.isinf(data)] = 0.5
    weights[np.isnan(weights) | np.isinf(weights)] = -0.5
    results = {}
    for count in COUNTS:
        with Threads(count):
            x = mg.tensor(data, dtype=dtype, requires_grad=True)
            w = mg.tensor(weights, dtype=dtype, requires_grad=True)
            out = PROGRAMS[program](mg, x, w)
            out.backward()
            results[count] = [t.detach().numpy() for t in (out, x.grad, w.grad)
                              if t is not None]
    for count in COUNTS[1:]:
        loss, *grads = results[count]
        for ours, expected in zip(grads, results[1][1:]):
            _same_bits(ours, expected, f"{program} on {count} threads")
        if dtype == mg.float32:  # (a float32 sum of 32,768 elements or more adds each
            # thread's share apart, as PyTorch's: its bits are PyTorch's on as many
            # threads, test_a_big_float32_sum_is_torchs_on_as_many_threads)
            # (430,000 terms: a float32 rounding of each share, 1e-4 at most here)
            np.testing.assert_allclose(loss, results[1][0], rtol=1e-5, atol=1e-3,
                                       err_msg=program)
        else:
            _same_bits(loss, results[1][0], f"{program} on {count} threads")


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("size", [8, 100, 32767, 32768, 32769, 65537, 98304, 100003, 10 ** 6,
                                  3 * 10 ** 6 + 5])
def test_a_big_float32_sum_is_torchs_on_as_many_threads(size, count):
    import torch

    values = RNG.standard_normal(size).astype(np.float32)
    values[::7] = -0.0
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        with Threads(count):
            for reduce in ("sum", "mean"):
                ours = getattr(mg.tensor(values), reduce)().numpy()
                theirs = getattr(torch.from_numpy(values), reduce)().numpy()
                _same_bits(ours, theirs, f"{reduce} of {size} on {count} threads")
    finally:
        torch.set_num_threads(before)


# ---- the mechanism: threads.rows, and what small tensors pay ------------------------

@pytest.mark.parametrize("shape", [(1001, 997), (5, 70_000), (70_001, 4), (1, 300_000)])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_rows_hands_each_row_to_one_part_once(shape, count):
    x = RNG.standard_normal(shape).astype(np.float32)
    seen = np.zeros(shape[0], np.int64)
    lock = threading.Lock()

    def kernel(out, rows):
        assert out.shape == rows.shape and out.ndim == 2 and rows.shape[1] == shape[1]
        first = (rows.__array_interface__["data"][0] - x.__array_interface__["data"][0]) \
            // x.strides[0]
        with lock:
            seen[first:first + len(rows)] += 1
        np.negative(rows, out=out)
    with Threads(count):
        _same_bits(threads.rows(kernel, None, x), -x, f"{shape} on {count} threads")
    assert (seen == 1).all()


def test_rows_writes_a_reduction_into_an_out_of_one_column():
    x = _values((700, 500), np.float32)
    out = np.empty((700, 1), np.float32)
    with Threads(2):
        assert threads.rows(lambda o, r: np.add.reduce(r, axis=1, keepdims=True, out=o),
                            out, x) is out
    _same_bits(out, np.add.reduce(x, axis=1, keepdims=True), "row sums")


@pytest.mark.parametrize("case", ["transposed", "small", "integers", "mixed dtypes",
                                  "a copy to make rows", "another shape"])
def test_what_rows_does_not_split_is_left_to_the_caller(case):
    x, y = _values((700, 500), np.float32), _values((700, 500), np.float32)
    if case == "transposed":
        x = x.T.copy().T
    elif case == "small":
        x, y = x[:10], y[:10]
    elif case == "integers":
        x, y = (x * 0 + 3).astype(np.int64), (y * 0 + 2).astype(np.int64)
    elif case == "mixed dtypes":
        y = y.astype(np.float64)
    elif case == "a copy to make rows":
        x = np.ascontiguousarray(_values((1000, 700), np.float32)[:700, :500])
        y = _values((700, 1000), np.float32)[:, ::2]
    elif case == "another shape":
        y = y[:, :1]
    assert threads.rows(lambda out, a, b: np.add(a, b, out=out), None, x, y) is None


def test_a_helper_threads_error_in_rows_is_raised_to_the_caller():
    caller, came = threading.current_thread(), threading.Event()

    def kernel(out, rows):
        if threading.current_thread() is caller:
            came.wait(10)
            np.negative(rows, out=out)
        else:
            came.set()
            raise FloatingPointError("in a helper")
    with Threads(2), pytest.raises(FloatingPointError, match="in a helper"):
        threads.rows(kernel, None, _values((1000, 1000), np.float32))


SMALL = {
    "exp": lambda x: x.exp(), "log": lambda x: x.abs().log(), "sin": lambda x: x.sin(),
    "cos": lambda x: x.cos(), "tanh": lambda x: x.tanh(), "sigmoid": lambda x: x.sigmoid(),
    "pow": lambda x: x.abs() ** 2.5, "softmax": lambda x: mg.softmax(x, 1),
    "log_softmax": lambda x: mg.log_softmax(x, 1), "logsumexp": lambda x: mg.logsumexp(x, 1),
    "softmax dim 0": lambda x: mg.softmax(x, 0), "log_softmax dim 0": lambda x: mg.log_softmax(x, 0),
    "BCE": lambda x: mg.nn.functional.binary_cross_entropy_with_logits(x, x.sigmoid().detach()),
    "logsigmoid": lambda x: mg.nn.functional.logsigmoid(x),
    "sqrt": lambda x: x.double().abs().sqrt(),
}


@pytest.mark.parametrize("name", list(SMALL))
def test_small_tensors_never_reach_the_threads(name, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a small tensor was handed to the threads")
    for hand_over in ("parts", "rows", "columns", "_run", "_submit"):
        monkeypatch.setattr(threads, hand_over, refuse)
    with Threads(2):
        x = mg.tensor(_values((511, 513), np.float32, 1.0), requires_grad=True)
        y = SMALL[name](x)
        y.sum().backward()
    assert x.grad.shape == x.shape


@pytest.mark.parametrize("name", ["exp", "log", "sin", "cos", "sigmoid", "pow", "softmax",
                                  "log_softmax", "logsumexp", "BCE", "logsigmoid", "sqrt",
                                  "softmax dim 0", "log_softmax dim 0"])
def test_set_num_threads_decides_how_many_threads_a_big_op_uses(name, monkeypatch):
    called = []
    submit = threads._submit
    monkeypatch.setattr(threads, "_submit", lambda context, job: (called.append(job),
                                                                  submit(context, job)))
    x = mg.tensor(_values((613, 701), np.float32, 1.0))
    with Threads(1):
        SMALL[name](x)
    assert called == []  # (one thread: the caller's only)
    with Threads(3):
        SMALL[name](x)
    assert called and len(called) % 2 == 0  # (two helpers called per split kernel)


@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("shape", [(3, 8), (5, 9), (1000, 1000), (2, 3, 40), (1, 70_000),
                                   (4, 70_000), (70_000, 8), (10, 7)])
def test_a_float32_sum_along_the_last_dim_is_torchs(shape, count):
    # (each row added up as PyTorch's vectorized_inner_sum adds it: one thread a row, so
    # the same bits on any number of threads; a single row as the whole sum, above)
    import torch

    values = RNG.standard_normal(shape).astype(np.float32)
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        with Threads(count):
            for reduce in ("sum", "mean"):
                for keepdim in (False, True):
                    ours = getattr(mg.tensor(values), reduce)(-1, keepdim=keepdim).numpy()
                    theirs = getattr(torch.from_numpy(values), reduce)(-1, keepdim=keepdim)
                    _same_bits(ours, theirs.numpy(), f"{reduce} of {shape}")
    finally:
        torch.set_num_threads(before)
