"""exp as PyTorch's CPU kernels compute it inside sigmoid, to the last bit (float32).

PyTorch's sigmoid kernel computes 1 / (1 + exp(-x)) in the tensor's dtype (float16 in
float32), so exp(-x) overflows to inf below about -88 in float32 and the result is
exactly 0 there (a stable formula would give tiny denormals). Which exp it uses
depends on where an element sits: the kernel walks each contiguous run of elements
in blocks of two SIMD vectors (16 float32, 8 float64, 32 float16 with AVX2), with a
vectorized exp (SLEEF's ``expf_u10``/``exp_u10``, accurate to 1 ulp), and the
elements left over at the end of a run one by one, with the C library's ``exp``
(glibc's, accurate to about half an ulp). A big tensor (32,768 elements or more) is
first cut into one part per thread, each walked so.

``vector_exp_float32`` takes the steps of SLEEF's ``expf_u10`` (with FMA, as on
AVX2), with its published constants, each fused multiply-add computed in float64
and rounded to float32 (its exact value but for a rare double rounding: one element
in about 500,000 ends 1 ulp off); ``scalar_exp_float32`` takes glibc's ``expf``'s
(a table of 2**(i/32) and a cubic, in float64). float64's one-by-one exp is NumPy's,
the C library's own. So float32 and float16 are PyTorch's bits everywhere (but for that), float64
on the elements taken one by one (0-dim tensors, the ends of runs, strided
tensors); on float64's vectorized blocks NumPy's exp stands in for SLEEF's
``exp_u10`` (the last bit differs for about 2.5 % of those elements: reproducing it
takes an exact float64 fused multiply-add, some 200 NumPy calls per exp).
(Call these with NumPy's float errors silenced, as ``sigmoid`` does: exp overflows
on purpose.)
"""

from __future__ import annotations

import numpy as np

__all__ = ["sigmoid"]

_F32 = np.dtype(np.float32)

# SLEEF's expf: 1/ln 2, ln 2 in two parts, the polynomial for exp(s) on |s| <= ln(2)/2.
_R_LN2 = np.float32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U = -0.693145751953125  # (both exact in float32, negated: s = q (-L2U) + d)
_L2L = float(np.float32(-1.428606765330187045e-06))
_POLY = tuple(float(np.float32(c)) for c in (
    0.000198527617612853646278381, 0.00139304355252534151077271,
    0.00833336077630519866943359, 0.0416664853692054748535156,
    0.166666671633720397949219, 0.5))


def _fma32(a, b, c):
    """a * b + c rounded once to float32 (a, b, c float32 values: the product is
    exact in float64, the sum rounded there, then to float32 as the only rounding
    that matters)."""
    return (np.multiply(a, b, dtype=np.float64) + c).astype(np.float32)


def vector_exp_float32(d: np.ndarray) -> np.ndarray:
    """exp of a float32 array as SLEEF's ``expf_u10``: d = q ln 2 + s (q an
    integer, |s| <= ln(2)/2), exp(s) by a polynomial, times 2**q; 0 below -104,
    inf above 104."""
    q = np.rint(d * _R_LN2)
    s = _fma32(q, _L2U, d)
    s = _fma32(q, _L2L, s)
    u = _fma32(s, _POLY[0], _POLY[1])
    for c in _POLY[2:]:
        u = _fma32(u, s, c)
    u = _fma32(s * s, u, s) + np.float32(1)
    # 2**q times u: exact in float64, then the one rounding (SLEEF's two steps round
    # only at the last one too)
    u = (u * np.exp2(np.clip(q, -300, 300), dtype=np.float64)).astype(np.float32)
    if not (np.abs(d) <= 104).all():  # (far out, or NaN: SLEEF's own answers)
        u = np.where(d < -104, np.float32(0), u)
        u = np.where(d > 104, np.float32(np.inf), u)
    return u


# glibc's expf: x / ln 2 = (k + r) / 32, exp(x) = 2**(k/32) 2**(r/32): the first
# factor from a table of 32 doubles, the second by a cubic, in float64, rounded once.
_TABLE = np.array([np.float64(2.0 ** (i / 32)).view(np.uint64) - np.uint64(i << 47)
                   for i in range(32)], dtype=np.uint64)
_INV_LN2_32 = float.fromhex("0x1.71547652b82fep0") * 32
_SHIFT = float.fromhex("0x1.8p+52")  # (adding it rounds to an integer, kept in the bits)
_C0, _C1, _C2 = (float.fromhex("0x1.c6af84b912394p-5") / 32 ** 3,
                 float.fromhex("0x1.ebfce50fac4f3p-3") / 32 ** 2,
                 float.fromhex("0x1.62e42ff0c52d6p-1") / 32)
_31, _47 = np.uint64(31), np.uint64(47)


def scalar_exp_float32(x: np.ndarray) -> np.ndarray:
    """exp of a float32 array as glibc's ``expf``: inf above 88.72..., 0 below
    -103.97..., NaN for NaN."""
    far = not (np.abs(x) < 87).all()
    z = np.multiply(np.where(np.abs(x) < 128, x, 0) if far else x, _INV_LN2_32,
                    dtype=np.float64)
    shifted = z + _SHIFT
    k = shifted.view(np.uint64)
    r = z - (shifted - _SHIFT)
    scale = (_TABLE[k & _31] + (k << _47)).view(np.float64)
    y = ((_C0 * r + _C1) * (r * r) + (_C2 * r + 1)) * scale
    y = y.astype(np.float32)
    if far:
        y = np.where(x > float.fromhex("0x1.62e42ep6"), np.float32(np.inf), y)
        y = np.where(x < float.fromhex("-0x1.9fe368p6"), np.float32(0), y)
        y = np.where(np.isnan(x), x, y)
    return y


# Elements per step of PyTorch's vectorized loop (two AVX2 vectors), by the dtype the
# kernel reads; the grain below which a kernel runs on one thread.
_BLOCK = {_F32: 16, np.dtype(np.float16): 32}
_GRAIN = 32768


def _vectorized(x: np.ndarray):
    """Which elements of ``x`` PyTorch's vectorized loop reaches: None (none), an int
    n (the first n of a C-contiguous x), or a boolean array of x's shape. The loop
    walks the elements in memory order, in runs as long as the innermost dimensions
    are contiguous; in each run (or part of a big run given to a thread) whole
    blocks, then the rest one by one."""
    block = _BLOCK[x.dtype]
    size = x.size
    if size < block:
        return None
    if x.flags.c_contiguous and size < _GRAIN:
        return size // block * block
    order = sorted(range(x.ndim), key=lambda axis: -abs(x.strides[axis]))
    walked = x.transpose(order)
    run, step = 1, x.itemsize
    for axis in reversed(range(walked.ndim)):  # (the innermost dims that are contiguous)
        if walked.shape[axis] != 1 and walked.strides[axis] != step:
            break
        run *= walked.shape[axis]
        step *= walked.shape[axis]
    if run < block:
        return None
    position = np.arange(size).reshape(walked.shape)
    if run == size and size >= _GRAIN:  # (one run, cut into a part per thread)
        from ..threads import get_num_threads

        part = -(-size // min(get_num_threads(), -(-size // _GRAIN)))
        start = position - position % part
        mask = position < start + (np.minimum(start + part, size) - start) // block * block
    else:
        mask = position % run < run // block * block
    return mask.transpose(np.argsort(order))


def sigmoid(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) as PyTorch's CPU kernel computes it, in x's dtype (float16
    in float32)."""
    compute = _F32 if x.dtype == np.float16 else x.dtype
    one = np.ones((), compute)
    with np.errstate(all="ignore"):
        minus = np.negative(x, dtype=compute)
        vectorized = _vectorized(x) if compute == _F32 else None
        if vectorized is None:
            exp = scalar_exp_float32(minus) if compute == _F32 else np.exp(minus)
        elif type(vectorized) is int:
            exp = np.empty_like(minus)
            flat, into = minus.reshape(-1), exp.reshape(-1)
            into[:vectorized] = vector_exp_float32(flat[:vectorized])
            if vectorized < flat.size:
                into[vectorized:] = scalar_exp_float32(flat[vectorized:])
        else:
            exp = scalar_exp_float32(minus)
            exp[vectorized] = vector_exp_float32(minus[vectorized])
        result = one / (one + exp)
    return np.asarray(result.astype(x.dtype, copy=False))
