"""layer_norm and gelu on arrays, computed in the steps of PyTorch's CPU kernels.

layer_norm (layer_norm_kernel.cpp, moments_utils.h): each row's mean and variance in
one pass, Welford's update (m1 += d / k, m2 += d * (x - m1)) on vectors of 8 float32
or 4 float64 lanes (AVX2), in chunks of 16 vectors, the chunks' moments merged
pairwise (a cascade), the elements after the last whole vector one by one, then the
lanes merged one after another; rstd = 1 / sqrt(var + eps); y = fma((x - mean) *
rstd, weight, bias). The compiler fuses some of the multiply-adds into FMA
instructions: the same ones are fused here (``fma.py``). Rows of up to 16 vectors
(128 float32) get PyTorch's bits; in longer rows the mean is still PyTorch's, but
the variance's merge of chunks differs in a way not found yet: 1 % (136 wide) to 13 %
(1,024 wide) of rows get an rstd one ulp off (tests/nn/test_nn_gpt_layers.py). float16
rows: in float32, as PyTorch's mixed-type kernel (16 halves loaded at a time, each half
updated in a vector of its own; y = fma(x, rstd, -rstd * mean) * weight + bias).

gelu: x * (1 + erf(x / sqrt 2)) / 2 ('none') or x * (1 + tanh(sqrt(2 / pi) * (x +
0.044715 x**3))) / 2 ('tanh'), in the dtype, in the steps of PyTorch's scalar kernel,
with erf correctly rounded (NumPy has none: Python's ``math.erf`` per element).
That is what PyTorch gives for one element; from two elements on its vectorised kernel
computes otherwise (not reproduced yet), and about a third of float32 results differ
from PyTorch's in the last bit or two (measured in tests/nn/test_nn_gpt_layers.py).
"""

from __future__ import annotations

import math

import numpy as np

from . import threads, vec
from .fma import fma32, fma64
from .special import each

__all__ = ["layer_norm", "layer_norm_backward", "rowwise_moments", "gelu", "gelu_backward",
           "attention_scores", "flash_attention", "flash_attention_backward", "weight_norm"]

_SQRT1_2 = 0.7071067811865476  # 1 / sqrt(2)
_BETA = 0.7978845608028654  # sqrt(2 / pi)
_KAPPA = 0.044715
_ONE_OVER_SQRT_2PI = 0.3989422804014327  # 1 / sqrt(2 pi)
_erf_each = each(math.erf)
_CHUNK = 16  # vectors per Welford chunk


def _fma(a, b, c):
    """a * b + c rounded once, in the dtype of the arrays."""
    dtype = np.result_type(a, b, c)
    return np.asarray((fma32 if dtype == np.float32 else fma64)(a, b, c), dtype=dtype)


def _merge(count_add: int, m1_add, m2_add, count: int, m1, m2, fused_mean: bool):
    """Welford's merge of (count_add, m1_add, m2_add) into (count, m1, m2)."""
    dtype = m1.dtype.type
    total = count + count_add
    c = dtype(0) if total == 0 else dtype(count_add) / dtype(total)
    delta = m1_add - m1
    m1 = _fma(c, delta, m1) if fused_mean else m1 + c * delta
    m2 = m2 + _fma(delta * delta * c, dtype(count), m2_add)
    return total, m1, m2


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def rowwise_moments(rows: np.ndarray, halves: int = 1):
    """(mean, biased variance) of each row of a 2-D float array, as torch's RowwiseMoments.
    ``halves``: 2 for float16 rows (given here in float32): PyTorch loads 16 of them at a
    time and updates each half in a float32 vector of its own, merged in turn."""
    dtype = rows.dtype.type
    count, size = rows.shape
    lanes = vec.VECTOR_BYTES // rows.itemsize
    loaded = lanes * halves
    vectors = size // loaded
    chunks = -(-vectors // _CHUNK)
    depth = _ceil_log2(chunks)
    zeros = np.zeros((count, lanes), rows.dtype)
    stack = [(0, zeros, zeros)] * depth
    for i in range(chunks):
        parts = [(zeros, zeros)] * halves
        for j in range(min(_CHUNK, vectors - i * _CHUNK)):
            for h, (m1, m2) in enumerate(parts):
                start = (i * _CHUNK + j) * loaded + h * lanes
                x = rows[:, start:start + lanes]
                delta = x - m1
                m1 = _fma(delta, dtype(1) / dtype(j + 1), m1)
                parts[h] = (m1, _fma(delta, x - m1, m2))
        for m1, m2 in parts:
            stack[0] = _merge(j + 1, m1, m2, *stack[0], fused_mean=False)
        mask, level = i + 1, 1
        while level < depth and mask & 1 == 0:  # (a cascade: merge equal-sized parts)
            stack[level] = _merge(*stack[level - 1], *stack[level], fused_mean=False)
            stack[level - 1] = (0, zeros, zeros)
            mask, level = mask >> 1, level + 1
    for level in range(1, depth):
        stack[0] = _merge(*stack[level], *stack[0], fused_mean=False)
    seen, m1, m2 = 0, np.zeros(count, rows.dtype), np.zeros(count, rows.dtype)
    for k in range(vectors * loaded, size):  # (the elements after the last vector)
        x = rows[:, k]
        delta = x - m1
        seen += 1
        m1 = m1 + delta / dtype(seen)
        m2 = m2 + delta * (x - m1)
    for lane in range(lanes):  # (here the compiler fuses the mean's update too)
        seen, m1, m2 = _merge(vectors * halves, stack[0][1][:, lane], stack[0][2][:, lane],
                              seen, m1, m2, fused_mean=True)
    return m1, m2 / dtype(size)


def _in_float32(function, x: np.ndarray, *others):
    """``function`` of float16 arrays computed in float32, the results rounded back to
    float16 (PyTorch's opmath for half: its bits are not sought here)."""
    wide = [None if a is None else a.astype(np.float32) for a in (x, *others)]
    results = function(*wide)
    if isinstance(results, tuple):
        return tuple(None if r is None else r.astype(np.float16) for r in results)
    return results.astype(np.float16)


def layer_norm(x: np.ndarray, weight, bias, kept: int, eps: float):
    """(y, mean, rstd): mean and rstd with x's leading dims and 1s for the last ``kept``."""
    if x.dtype == np.float16:
        return _half_layer_norm(x, weight, bias, kept, eps)
    size = int(np.prod(x.shape[x.ndim - kept:], dtype=np.int64))
    count = int(np.prod(x.shape[:x.ndim - kept], dtype=np.int64))  # (not -1: a size of 0)
    rows = np.ascontiguousarray(x).reshape(count, size)
    mean, var = rowwise_moments(rows) if rows.size else (np.zeros(len(rows), x.dtype),) * 2
    dtype = x.dtype.type
    rstd = dtype(1) / np.sqrt(var + dtype(eps))
    normalised = (rows + -mean[:, None]) * rstd[:, None]
    if weight is None or bias is None:  # (torch's loop for this case: the same formula)
        weight = np.ones(size, x.dtype) if weight is None else weight.reshape(-1)
        bias = np.zeros(size, x.dtype) if bias is None else bias.reshape(-1)
    y = _fma(normalised, weight.reshape(-1), bias.reshape(-1))
    stats_shape = x.shape[:x.ndim - kept] + (1,) * kept
    return y.reshape(x.shape), mean.reshape(stats_shape), rstd.reshape(stats_shape)


def _half_layer_norm(x: np.ndarray, weight, bias, kept: int, eps: float):
    """``layer_norm`` of float16 ``x``, as PyTorch's mixed-type kernel computes it in
    float32: the moments of 16 halves at a time (``rowwise_moments``), then
    y = fma(x, rstd, -rstd * mean) * weight + bias (so a constant row need not give 0)."""
    size = int(np.prod(x.shape[x.ndim - kept:], dtype=np.int64))
    count = int(np.prod(x.shape[:x.ndim - kept], dtype=np.int64))
    rows = np.ascontiguousarray(x).reshape(count, size).astype(np.float32)
    mean, var = rowwise_moments(rows, halves=2) if rows.size else \
        (np.zeros(len(rows), np.float32),) * 2
    rstd = np.float32(1) / np.sqrt(var + np.float32(eps))
    y = _fma(rows, rstd[:, None], (-rstd * mean)[:, None])
    if weight is not None:
        y = y * weight.reshape(-1).astype(np.float32)
    # (a bias of 0 where none is given, as PyTorch's kernel adds it: -0. becomes 0.)
    y = y + (np.float32(0) if bias is None else bias.reshape(-1).astype(np.float32))
    stats_shape = x.shape[:x.ndim - kept] + (1,) * kept
    return (y.astype(np.float16).reshape(x.shape), mean.astype(np.float16).reshape(stats_shape),
            rstd.astype(np.float16).reshape(stats_shape))


def _row_sums(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sum_j a[:, j] * b[:, j] per row, as torch's vec::map*_reduce_all adds it up: the
    first vector's products, then each whole vector's products added lane by lane, the
    last part-vector's products fused into the lanes it covers, then the lanes."""
    size = a.shape[1]
    lanes = vec.VECTOR_BYTES // a.itemsize
    if size < lanes:
        return vec.lanes_total(a * b)
    acc = a[:, :lanes] * b[:, :lanes]
    whole = size - size % lanes
    for d in range(lanes, whole, lanes):
        acc = acc + a[:, d:d + lanes] * b[:, d:d + lanes]
    if whole < size:
        acc = acc.copy()
        acc[:, :size - whole] = _fma(a[:, whole:], b[:, whole:], acc[:, :size - whole])
    return vec.lanes_total(acc)


def _thread_sums(terms: np.ndarray, factors: np.ndarray | None = None) -> np.ndarray:
    """Column sums of ``terms`` (times ``factors``, each product fused into the sum), as
    torch adds up dweight and dbias: the rows split into one run per thread, each run
    summed row after row in a buffer, then the buffers added in thread order."""
    count = len(terms)
    tasks = min(threads.get_num_threads(), count) or 1
    run = -(-count // tasks)
    total = np.zeros(terms.shape[1], terms.dtype)
    buffers = np.zeros((tasks, terms.shape[1]), terms.dtype)
    starts = np.arange(tasks) * run
    for k in range(run):
        rows = starts + k
        live = rows < count
        rows = rows[live]
        if factors is None:
            buffers[live] = buffers[live] + terms[rows]
        else:
            buffers[live] = _fma(terms[rows], factors[rows], buffers[live])
    for buffer in buffers:
        total = total + buffer
    return total


def layer_norm_backward(grad, x, mean, rstd, weight, kept: int, needs: tuple):
    """(dx, dweight, dbias) of layer_norm, as torch's layer_norm_backward_frame computes
    them (None where not needed): per row ds = sum(G * w * x), db = sum(G * w), then
    dx = rstd * G * w + b * x + c with b = (db * mean - ds) * rstd**3 / N and
    c = -b * mean - db * rstd / N."""
    if x.dtype == np.float16:
        return _in_float32(lambda *a: layer_norm_backward(*a, kept, needs), grad, x, mean,
                           rstd, weight)
    size = int(np.prod(x.shape[x.ndim - kept:], dtype=np.int64))
    dtype = x.dtype.type
    count = int(np.prod(x.shape[:x.ndim - kept], dtype=np.int64))
    g, rows = grad.reshape(count, size), np.ascontiguousarray(x).reshape(count, size)
    a, mean = rstd.reshape(-1), mean.reshape(-1)
    w = None if weight is None else np.broadcast_to(weight.reshape(-1), g.shape)
    dx = dw = db = None
    if needs[0]:
        scaled = a[:, None] * g if w is None else a[:, None] * g * w
        ds = _row_sums(g, rows) if w is None else _row_sums(g * rows, w)
        dsum = _row_sums(g, np.ones_like(g)) if w is None else _row_sums(g, w)
        scale = dtype(1) / dtype(size)
        b = _fma(dsum, mean, -ds) * a * a * a * scale
        c = _fma(-b, mean, -(dsum * a * scale))
        dx = (_fma(b[:, None], rows, scaled) + c[:, None]).reshape(x.shape)
    if len(needs) > 1 and needs[1]:
        dw = _thread_sums(g, _fma(a[:, None], rows, (-a * mean)[:, None]))
    if len(needs) > 2 and needs[2]:
        db = _thread_sums(g)
    shape = x.shape[x.ndim - kept:]
    return dx, None if dw is None else dw.reshape(shape), None if db is None else db.reshape(shape)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf of each element, correctly rounded to x's dtype (``math.erf`` in float64)."""
    return _erf_each(x.astype(np.float64)).astype(x.dtype)


def gelu(x: np.ndarray, approximate: str) -> np.ndarray:
    """x * Phi(x) in x's dtype, in the steps of torch's scalar kernel."""
    if x.dtype == np.float16:
        return _in_float32(lambda a: gelu(a, approximate), x)
    dtype = x.dtype.type
    if approximate == "tanh":
        inner = dtype(_BETA) * (x + dtype(_KAPPA) * (x * x * x))
        return np.asarray(dtype(0.5) * x * (dtype(1) + np.tanh(inner)))
    return np.asarray(x * dtype(0.5) * (dtype(1) + _erf(x * dtype(_SQRT1_2))))


def gelu_backward(grad: np.ndarray, x: np.ndarray, approximate: str) -> np.ndarray:
    """G * d gelu(x) / dx in x's dtype, in the steps of torch's scalar kernel."""
    if x.dtype == np.float16:
        return _in_float32(lambda g, a: gelu_backward(g, a, approximate), grad, x)
    dtype = x.dtype.type
    if approximate == "tanh":
        x_sq = x * x
        tanh_inner = np.tanh(dtype(_BETA) * (x + dtype(_KAPPA) * (x_sq * x)))
        left_derivative = dtype(0.5) * (dtype(1) + tanh_inner)
        inner_derivative = dtype(_BETA) * (dtype(1) + dtype(3) * dtype(_KAPPA) * x_sq)
        right_derivative = dtype(0.5) * x * (dtype(1) - tanh_inner * tanh_inner) * inner_derivative
        return np.asarray(grad * (left_derivative + right_derivative))
    cdf = dtype(0.5) * (dtype(1) + _erf(x * dtype(_SQRT1_2)))
    pdf = dtype(_ONE_OVER_SQRT_2PI) * np.exp(x * x * dtype(-0.5))
    return np.asarray(grad * (cdf + x * pdf))


# ---- scaled dot-product attention: PyTorch's CPU "flash" kernel, unblocked ------------

def attention_scores(q, k, mask, scale):
    """q k^T * scale (+ the additive mask: 0 or -inf, or any float) over the last two dims."""
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * np.asarray(scale, q.dtype)
    return s if mask is None else s + mask


def flash_attention(q, k, v, mask, scale):
    """(out, logsumexp): out = softmax(S) v with S = q k^T * scale + mask, computed as the
    flash kernel does, exp(S - max) summed to l, then (exp(S - max) v) * (1 / l); a row
    masked everywhere gives 0 (and logsumexp -inf). PyTorch's kernel walks the keys in
    blocks with a running max, so its last bits differ (see the README)."""
    s = attention_scores(q, k, mask, scale)
    top = np.max(s, axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), np.zeros((), s.dtype), top)
    p = np.exp(s - top)
    total = np.sum(p, axis=-1, keepdims=True)
    with np.errstate(divide="ignore"):
        inverse = np.where(total == 0, np.zeros((), s.dtype), 1 / total)
        lse = (top + np.log(total))[..., 0]
    out = np.matmul(p, v) * inverse
    if q.strides[-1] == q.itemsize:  # (PyTorch's output is laid out in memory as the query)
        out = _laid_out_as(q, out)
    return out, lse


def _laid_out_as(like: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` in an array whose dims lie in memory in the order of ``like``'s."""
    result = np.empty_like(like, dtype=values.dtype)  # (order 'K': like's layout)
    result[...] = values
    return result


def flash_attention_backward(grad, q, k, v, out, lse, mask, scale):
    """The three gradients of out = softmax(S) v, from P = exp(S - logsumexp):
    dv = P^T G, dS = P * (G v^T - sum(G * out)), dq = dS k * scale, dk = dS^T q * scale."""
    s = attention_scores(q, k, mask, scale)
    p = np.exp(s - np.where(np.isneginf(lse), np.zeros((), lse.dtype), lse)[..., None])
    dv = np.matmul(np.swapaxes(p, -1, -2), grad)
    delta = np.sum(grad * out, axis=-1, keepdims=True)
    ds = p * (np.matmul(grad, np.swapaxes(v, -1, -2)) - delta) * np.asarray(scale, q.dtype)
    return np.matmul(ds, k), np.matmul(np.swapaxes(ds, -1, -2), q), dv


def weight_norm(v, g, dim: int):
    """(w, norms): w = v * (g / norms), norms the 2-norms of v over every dim but ``dim``
    (kept as size-1 dims), as torch's _weight_norm_interface."""
    others = tuple(d for d in range(v.ndim) if d != dim)
    norms = np.sqrt(np.sum(v * v, axis=others, keepdims=True))
    return v * (g / norms), norms
