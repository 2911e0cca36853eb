"""Kernels compiled to machine code with numba, when it is installed: PyTorch's
vectorised float32 CPU loops for softmax and log_softmax along the last dim and
their gradients (one row at a time: its largest value, the sum of its exps in
float lanes, then the row written once), for sigmoid, tanh with its gradient, and
a float32 sum (its cascade of 32 lanes: ``cascade_sum``), written as the plain loops
they are, with the float32 exp of SLEEF, the vector
math library PyTorch's kernels call (``sleef_expf``). (The lanes are PyTorch's
vector's on this machine, ``vec.CAPABILITY``: 16 floats with AVX-512, 8 with AVX2;
the sums round otherwise on the two, in PyTorch as here.)

Why compiled: NumPy makes such a row in six whole-array steps, each a pass over
memory and a call from Python (some µs for a small tensor), and it has no exp
with SLEEF's roundings (its own float32 exp is another; the float64 exp, rounded,
is the correctly rounded value, which SLEEF's is in about 90 % of cases). Compiled,
one call makes every row in one pass, with PyTorch's bits: of random rows 16-1000
wide, 99.9 % of log_softmax's float32 values (98-99 % with NumPy's steps; the rest
from the log of each row's sum, computed in float64 and rounded here).

``AVAILABLE`` says whether they can be used: numba is installed, and
``MINIGRAD_NUMBA=0`` is not set in the environment. Callers keep their NumPy
steps for when it is not (``kernels/softmax.py``).

Each kernel is compiled the first time one of them is called, for the array types
it is called with (one to three seconds, once; numba keeps the machine code on disk
where it may write, and later processes load it), or all at once by ``warm``, which
``minigrad-kit lab`` runs in the background; a program that never calls one never
imports numba. A kernel lets go of the GIL while it runs, so ``threads.rows``
can run blocks of rows of a big array on several cores, with the bits of one call.
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading

import numpy as np

from . import memory, vec

__all__ = ["AVAILABLE", "log_softmax_rows", "softmax_rows", "log_softmax_backward_rows",
           "softmax_backward_rows", "tanh_rounded", "tanh_backward_rounded",
           "sigmoid_vectorised", "cascade_sum", "cascade_sum_rows", "warm"]

AVAILABLE = (os.environ.get("MINIGRAD_NUMBA", "1") != "0"
             and importlib.util.find_spec("numba") is not None)

_F32, _F64 = np.float32, np.float64
_LANES = vec.NATIVE_VECTOR_BYTES // 4  # float32 lanes of PyTorch's vectors here: 16 or 8


# ---- SLEEF's float32 exp (xexpf, 1-ulp), as PyTorch's Vectorized<float>::exp -------
# ``fma`` and ``rint`` are LLVM's fused multiply-add and round-to-nearest-even once
# compiled (``_compile``); as written here they only name what is computed.

def fma(a, b, c):
    return a * b + c


def rint(a):
    return np.rint(a)


_R_LN2F = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2UF = _F32(0.693145751953125)  # ln 2 in two parts: the upper one's product with
_L2LF = _F32(1.428606765330187045e-06)  # any q < 2**12 is exact


def sleef_expf(d):
    """e ** d for a float32 d: d = q ln 2 + s, |s| <= ln 2 / 2; e ** s by a polynomial;
    times 2 ** q in two factors (so that 2 ** q itself never overflows)."""
    qf = rint(d * _R_LN2F)
    q = np.int32(qf)
    s = fma(qf, -_L2UF, d)
    s = fma(qf, -_L2LF, s)
    u = _F32(0.000198527617612853646278381)
    u = fma(u, s, _F32(0.00139304355252534151077271))
    u = fma(u, s, _F32(0.00833336077630519866943359))
    u = fma(u, s, _F32(0.0416664853692054748535156))
    u = fma(u, s, _F32(0.166666671633720397949219))
    u = fma(u, s, _F32(0.5))
    u = _F32(1) + fma(s * s, u, s)
    half = q >> 1
    u = u * _pow2f(half) * _pow2f(q - half)
    if d < _F32(-104):
        u = _F32(0)
    if _F32(100) < d:
        u = _F32(np.inf)
    return u


_NAN = np.uint32(0xFFFFFFFF).view(np.float32)


def _pow2f(q):
    """2 ** q as a float32, from its bits (-126 <= q <= 127)."""
    return np.int32((q + 127) << 23).view(np.float32)


# ---- lane sums: PyTorch's vec::reduce_all on float32 -----------------------------------
# A row is added up in ``_LANES`` lanes (16 with AVX-512, 8 with AVX2: whole vectors lane
# by lane, the leftover elements into the first lanes), then the lanes as the vector
# shuffles add them (with 16: i + 8, i + 4, i + 2, i + 1); a row shorter than a vector one
# element after the other. ``add_lanes`` and ``max_lanes`` are, once compiled, one vector
# of floats added (or compared) per vector of elements (``_compile``: LLVM would not make
# vectors of the plain loop's 16 lanes: as 16 variables it took 0.16 ms per million
# floats, as vectors 0.04).

def add_lanes(row, full, lanes):
    """Lane i: row[i] + row[i + 16] + ... below ``full`` (a multiple of 16), in order
    (16: ``_LANES``, as everywhere below)."""
    for i in range(_LANES):
        lanes[i] = row[i]
    for start in range(_LANES, full, _LANES):
        for i in range(_LANES):
            lanes[i] = lanes[i] + row[start + i]


def add_product_lanes(row, other, full, lanes):
    """``add_lanes`` of the products row[i] * other[i] (each rounded), without writing
    them out."""
    for i in range(_LANES):
        lanes[i] = row[i] * other[i]
    for start in range(_LANES, full, _LANES):
        for i in range(_LANES):
            lanes[i] = lanes[i] + row[start + i] * other[start + i]


def max_lanes(row, full, lanes):
    """Lane i: the largest of row[i], row[i + 16], ... below ``full``, as the machine's
    max takes it (``_larger``: a NaN after the first is passed over)."""
    for i in range(_LANES):
        lanes[i] = row[i]
    for start in range(_LANES, full, _LANES):
        for i in range(_LANES):
            lanes[i] = _larger(lanes[i], row[start + i])


def _row_total(row, lanes):
    """A row's sum as PyTorch's vec::reduce_all adds it up."""
    width = row.shape[0]
    if width < _LANES:
        total = row[0]
        for i in range(1, width):
            total = total + row[i]
        return total
    full = width - width % _LANES
    add_lanes(row, full, lanes)
    for i in range(width - full):
        lanes[i] = lanes[i] + row[full + i]
    return _halves(lanes)


def _halves(lanes):
    """The lanes added as the vector shuffles add them: i + 8, then i + 4, i + 2, i + 1
    (AVX2's 8 lanes from i + 4)."""
    width = _LANES
    while width > 1:
        width //= 2
        for i in range(width):
            lanes[i] = lanes[i] + lanes[i + width]
    return lanes[0]


def _row_dot(row, other, lanes):
    """``_row_total`` of the products row[i] * other[i] (PyTorch's vec::map2_reduce_all)."""
    width = row.shape[0]
    if width < _LANES:
        total = row[0] * other[0]
        for i in range(1, width):
            total = total + row[i] * other[i]
        return total
    full = width - width % _LANES
    add_product_lanes(row, other, full, lanes)
    for i in range(width - full):
        lanes[i] = lanes[i] + row[full + i] * other[full + i]
    return _halves(lanes)


def _row_max(row, lanes):
    """A row's largest value (any of them where the row holds a NaN: the NaN then makes
    every exp, the sum and so every result NaN, as in PyTorch)."""
    width = row.shape[0]
    full = width - width % _LANES
    peak = row[0]
    if full:
        max_lanes(row, full, lanes)
        for i in range(_LANES):
            peak = _larger(peak, lanes[i])
    for i in range(full, width):
        peak = _larger(peak, row[i])
    return peak


def _exps_and_total(row, exps, lanes):
    """A row's largest value, and the sum of exp(row - largest), written into ``exps``."""
    peak = _row_max(row, lanes)
    for i in range(row.shape[0]):
        exps[i] = sleef_expf(row[i] - peak)
    return peak, _row_total(exps, lanes)


def _holds_nan(row):
    for value in row:
        if value != value:
            return True
    return False


def _larger(a, b):
    return b if b > a else a  # (the machine's max: a NaN b is passed over, see _row_max)


# ---- the kernels: every array 2-dim float32 (rows, last dim), written into ``out`` ----

def log_softmax_rows(out, x):
    """out = x - max - log(sum(exp(x - max))) along each row (PyTorch's order)."""
    lanes, exps = np.empty(_LANES, np.float32), np.empty(x.shape[1], np.float32)
    for r in range(x.shape[0]):
        row = x[r]
        peak, total = _exps_and_total(row, exps, lanes)
        if total != total and _holds_nan(row):
            peak = _NAN  # (vec::maximum's NaN, every bit set)
        log_total = _F32(math.log(np.float64(total)))
        for i in range(row.shape[0]):
            out[r, i] = row[i] - peak - log_total


def softmax_rows(out, x):
    """out = exp(x - max) * (1 / sum(exp(x - max))) along each row."""
    lanes = np.empty(_LANES, np.float32)
    for r in range(x.shape[0]):
        row, exps = x[r], out[r]
        total = _exps_and_total(row, exps, lanes)[1]
        if total != total:  # (every value the NaN of the sum, as PyTorch's product gives)
            exps[:] = _NAN if _holds_nan(row) else total  # (vec::maximum's NaN: all bits)
            continue
        scale = _F32(1) / total
        for i in range(row.shape[0]):
            exps[i] = exps[i] * scale


def log_softmax_backward_rows(out, grad, y):
    """out = grad - exp(y) * sum(grad) along each row, the product and the difference
    fused into one multiply-add (as PyTorch's compiler contracts them)."""
    lanes = np.empty(_LANES, np.float32)
    for r in range(y.shape[0]):
        total = _row_total(grad[r], lanes)
        for i in range(y.shape[1]):
            out[r, i] = fma(-sleef_expf(y[r, i]), total, grad[r, i])


def softmax_backward_rows(out, grad, y):
    """out = (grad - sum(grad * y)) * y along each row (each product rounded, then
    added up in lanes)."""
    lanes = np.empty(_LANES, np.float32)
    for r in range(y.shape[0]):
        total = _row_dot(grad[r], y[r], lanes)
        for i in range(y.shape[1]):
            out[r, i] = (grad[r, i] - total) * y[r, i]


# ---- a float32 sum as PyTorch's SumKernel.cpp adds up a contiguous run ----------------
# (vectorized_inner_sum: vectors of 8 floats, its sum kernel being built for AVX2; four
# vectors side by side, so 32 lanes, each added up in a cascade of four levels: blocks of
# ``step`` rows, every ``step`` blocks into the level above, ...; then the leftovers.)

_ROW = 32  # floats: four vectors of 8, side by side


def add_rows(x, first, count, into):
    """into[k] = 0 + x[32 first + k] + x[32 (first + 1) + k] + ..., ``count`` rows of 32
    in order (compiled: one vector of 32 floats added per row)."""
    for k in range(_ROW):
        into[k] = _F32(0)
    for row in range(first, first + count):
        for k in range(_ROW):
            into[k] = into[k] + x[row * _ROW + k]


def cascade_sum(x):
    """The sum of the 1-dim contiguous float32 ``x`` (at least 8 elements) in the order of
    PyTorch's multi_row_sum, row_sum and vectorized_inner_sum: its last bits."""
    return _cascade(x, np.empty((4, _ROW), np.float32), np.empty(_ROW, np.float32))


def cascade_sum_rows(out, x):
    """out[r] = cascade_sum(x[r]) for each row of the 2-dim float32 ``x`` (rows of 8 or
    more): a sum along the last dim, each row added up as one run (as PyTorch's threads
    take whole rows)."""
    levels, block = np.empty((4, _ROW), np.float32), np.empty(_ROW, np.float32)
    for r in range(x.shape[0]):
        out[r] = _cascade(x[r], levels, block)


def _cascade(x, levels, block):
    """``cascade_sum``, with room for its levels and a block given."""
    vectors = x.size // 8
    rows = vectors // 4
    bits = 1  # (c10's CeilLog2 of rows: 1 up to 2)
    if rows > 2:
        bits, left = 0, rows - 1
        while left:
            left >>= 1
            bits += 1
    power = max(4, bits // 4)
    step, mask = 1 << power, (1 << power) - 1
    levels[:] = _F32(0)
    i = 0
    while i + step <= rows:
        add_rows(x, i, step, block)  # (level 0, from 0 each block)
        i += step
        for k in range(_ROW):
            levels[1, k] = levels[1, k] + block[k]
        for level in range(2, 4):  # (up one level every ``step`` blocks of the one below)
            if i & (mask << ((level - 1) * power)):
                break
            for k in range(_ROW):
                levels[level, k] = levels[level, k] + levels[level - 1, k]
                levels[level - 1, k] = _F32(0)
    add_rows(x, i, rows - i, block)  # (the rows left, into level 0)
    for level in range(1, 4):
        for k in range(_ROW):
            block[k] = block[k] + levels[level, k]
    for vector in range(rows * 4, vectors):  # (row_sum: the vectors left into the first,
        for k in range(8):  # then the other three added to it)
            block[k] = block[k] + x[vector * 8 + k]
    for part in range(1, 4):
        for k in range(8):
            block[k] = block[k] + block[part * 8 + k]
    total = _F32(0)
    for j in range(vectors * 8, x.size):  # (the elements left, then the lanes)
        total = total + x[j]
    for k in range(8):
        total = total + block[k]
    return total


# ---- tanh and its derivative in float32: one value each, compiled into NumPy ufuncs ----

def tanh_rounded(x):
    """tanh of a float32 value computed in float64 and rounded once: PyTorch's float32
    tanh is that value in 99.9 % of cases (it is not SLEEF's tanhf, which gives 1 from
    |x| > 8.664 on, where PyTorch gives 0.99999994). Compiled, a NumPy ufunc of float32
    arrays (``_UFUNCS``), called as ``np.tanh`` is: a small tensor's tanh runs once per
    RNN step. tanh(a) = (e - 1) / (e + 1) with e = e ** 2a, and its series near 0,
    where e - 1 would cancel; float64's 53 bits leave 29 to spare, so the float32
    rounding is the C library's ``tanh``'s (0 of 76 million values differed, every
    float32 near the two switches among them), at a sixth of its time (its ``tanh``
    is a call per value; this loop has no call and no branch)."""
    bits = _F32(x).view(np.int32) & _ABS  # |x|, NaN and inf above 20, from the bits: a NaN in
    a = _F64(np.int32(min(bits, _TWENTY)).view(np.float32))  # a float comparison
    # would set NumPy's "invalid" flag (tanh(20) rounds to 1; a NaN is returned as it is)
    s = a * a
    p = _F64(-929569.0 / 638512875.0)  # tanh's series: a - a**3 / 3 + 2 a**5 / 15 ...
    for c in _TANH_SERIES:
        p = fma(p, s, c)
    near_zero = fma(p * s, a, a)
    e = _exp_wide(a + a)
    t = near_zero if a < 0.0625 else (e - 1.0) / (e + 1.0)
    return x if bits > _INFINITY else _F32(math.copysign(t, x))


_ABS, _TWENTY, _INFINITY = np.int32(0x7FFFFFFF), np.int32(0x41A00000), np.int32(0x7F800000)
_TANH_SERIES = (21844.0 / 6081075.0, -1382.0 / 155925.0, 62.0 / 2835.0, -17.0 / 315.0,
                2.0 / 15.0, -1.0 / 3.0)
_LOG2E = 1.4426950408889634
_LN2_HI = 0.6931471803691238  # ln 2 in two parts: k * the upper one is exact for k < 2**11
_LN2_LO = 1.9082149292705877e-10
_EXP_SERIES = tuple(1.0 / math.factorial(n) for n in range(12, -1, -1))


def _exp_wide(y):
    """e ** y in float64 for 0 <= y <= 40, within an ulp or two: y = k ln 2 + r,
    |r| <= ln 2 / 2, e ** r by its series to r ** 13, times 2 ** k from its bits."""
    k = rint(y * _LOG2E)
    r = fma(k, -_LN2_LO, fma(k, -_LN2_HI, y))
    p = 1.0 / 6227020800.0  # (1 / 13!)
    for c in _EXP_SERIES:
        p = fma(p, r, c)
    return p * np.int64((np.int64(k) + 1023) << 52).view(np.float64)


def tanh_backward_rounded(y, grad):
    """grad * (1 - y * y) with 1 - y * y rounded once, as PyTorch's fused multiply-add:
    y * y is exact in float64, so one float64 subtraction rounded to float32 is it. (A
    ufunc too; y first, so that NumPy lays the result out as ``(1 - y*y) * grad``.)"""
    wide = np.float64(y)
    return _F32(1.0 - wide * wide) * grad


# ---- sigmoid in float32: ``x`` C-contiguous, ``out`` new, same shape --------------------

def sigmoid_vectorised(out, x):
    """1 / (1 + exp(0 - x)) as PyTorch's loop computes it: whole runs of two vectors (32
    floats with AVX-512, 16 with AVX2) with its vector code (SLEEF's exp, an exact
    division), the last few with its scalar code, the C library's expf (float64's exp,
    rounded: the same in all but a few in a million)."""
    values, results = x.ravel(), out.ravel()
    whole = values.size - values.size % (2 * _LANES)
    for i in range(whole):
        results[i] = _F32(1) / (_F32(1) + sleef_expf(_F32(0) - values[i]))
    for i in range(whole, values.size):
        results[i] = _F32(1) / (_F32(1) + _F32(math.exp(-np.float64(values[i]))))


# ---- compiling, on first use -------------------------------------------------------

_HELPERS = ("sleef_expf", "_pow2f", "_exp_wide", "_row_total", "_row_dot", "_halves",
            "_row_max", "_larger", "_exps_and_total", "_holds_nan", "_cascade")
_KERNELS = ("log_softmax_rows", "softmax_rows", "log_softmax_backward_rows",
            "softmax_backward_rows", "sigmoid_vectorised", "cascade_sum", "cascade_sum_rows")
_UFUNCS = {"tanh_rounded": ["float32(float32)"],
           "tanh_backward_rounded": ["float32(float32, float32)"]}
_lock = threading.Lock()


def _compile() -> None:
    """Replace this module's helpers and kernels by numba's compiled functions (the
    kernels are compiled for a dtype when first called with it)."""
    import numba  # noqa: PLC0415  (numba only once a kernel is used: see above)
    from numba.core import cgutils  # noqa: PLC0415
    from numba.extending import intrinsic  # noqa: PLC0415
    from llvmlite import ir  # noqa: PLC0415

    def _call(name, builder, values):
        kind = values[0].type
        function = builder.module.declare_intrinsic(
            name, [kind], ir.FunctionType(kind, [kind] * len(values)))
        return builder.call(function, values)

    @intrinsic
    def llvm_fma(typingctx, a, b, c):  # a * b + c, rounded once
        return a(a, a, a), lambda context, builder, signature, values: _call(
            "llvm.fma", builder, values)

    @intrinsic
    def llvm_rint(typingctx, a):  # to the nearest integer, ties to even
        return a(a), lambda context, builder, signature, values: _call(
            "llvm.rint", builder, values)

    def _vector_loop(combine):
        def codegen(context, builder, signature, values):  # the plain loop, 16 lanes a step
            vector = ir.VectorType(ir.FloatType(), _LANES)
            *rows, full, lanes = values  # (one row, or two whose products are combined)
            data = [context.make_array(kind)(context, builder, row).data
                    for kind, row in zip(signature.args, rows)]

            def at(start):  # (the 16 floats from ``start``: of the row, or products)
                loaded = [builder.load(builder.bitcast(builder.gep(pointer, [start]),
                                                       vector.as_pointer()), align=4)
                          for pointer in data]
                return loaded[0] if len(loaded) == 1 else builder.fmul(*loaded)
            step = ir.Constant(full.type, _LANES)
            held = cgutils.alloca_once(builder, vector)  # (a register, once optimised)
            builder.store(at(ir.Constant(full.type, 0)), held)
            with cgutils.for_range_slice(builder, step, full, step) as (start, _):
                builder.store(combine(builder, builder.load(held), at(start)), held)
            into = context.make_array(signature.args[-1])(context, builder, lanes).data
            builder.store(builder.load(held), builder.bitcast(into, vector.as_pointer()), align=4)
            return context.get_dummy_value()
        return codegen

    def _contiguous_float32(*arrays):
        return all(isinstance(array, numba.types.Array) and array.layout == "C"
                   and array.dtype == numba.types.float32 and array.ndim == 1
                   for array in arrays)

    @intrinsic
    def vector_add_lanes(typingctx, row, full, lanes):
        if _contiguous_float32(row, lanes):
            return numba.types.void(row, full, lanes), _vector_loop(
                lambda builder, a, b: builder.fadd(a, b))

    @intrinsic
    def vector_add_product_lanes(typingctx, row, other, full, lanes):
        if _contiguous_float32(row, other, lanes):
            return numba.types.void(row, other, full, lanes), _vector_loop(
                lambda builder, a, b: builder.fadd(a, b))

    @intrinsic
    def vector_max_lanes(typingctx, row, full, lanes):  # (``_larger``: b if b > a else a)
        if _contiguous_float32(row, lanes):
            return numba.types.void(row, full, lanes), _vector_loop(
                lambda builder, a, b: builder.select(builder.fcmp_ordered(">", b, a), b, a))

    def _rows_loop(context, builder, signature, values):  # one 32-float vector per row
        vector = ir.VectorType(ir.FloatType(), _ROW)
        x, first, count, into = values
        data = context.make_array(signature.args[0])(context, builder, x).data
        held = cgutils.alloca_once_value(builder, ir.Constant(vector, None))  # (zeros)
        width = ir.Constant(first.type, _ROW)
        with cgutils.for_range(builder, count) as loop:
            start = builder.mul(builder.add(first, loop.index), width)
            next_ = builder.load(builder.bitcast(builder.gep(data, [start]), vector.as_pointer()),
                                 align=4)
            builder.store(builder.fadd(builder.load(held), next_), held)
        target = context.make_array(signature.args[3])(context, builder, into).data
        builder.store(builder.load(held), builder.bitcast(target, vector.as_pointer()), align=4)
        return context.get_dummy_value()

    @intrinsic
    def vector_add_rows(typingctx, x, first, count, into):
        if _contiguous_float32(x, into) and first == count:  # (two ints of one type)
            return numba.types.void(x, first, count, into), _rows_loop

    names = globals()
    names["fma"], names["rint"] = llvm_fma, llvm_rint
    names["add_lanes"], names["max_lanes"] = vector_add_lanes, vector_max_lanes
    names["add_product_lanes"] = vector_add_product_lanes
    names["add_rows"] = vector_add_rows
    for name in _HELPERS:
        names[name] = numba.njit(names[name], inline="always", error_model="numpy")
    for name in _KERNELS:
        names[name] = _kernel(numba, _PYTHON[name])
    for name, signatures in _UFUNCS.items():
        names[name] = _ufunc(numba, _PYTHON[name], signatures)
    # numba and LLVM's bindings are some 88,000 objects the garbage collector would walk in
    # every full collection from now on (a 20,000-op chain spent 60 ms more in them): out
    # of its walks, as minigrad's own are at its import (``memory``)
    memory.freeze_imported_objects()


def _kernel(numba, function):
    try:
        return numba.njit(function, nogil=True, error_model="numpy", cache=True)
    except RuntimeError:  # (no folder numba may write its cache to: compiled per process)
        return numba.njit(function, nogil=True, error_model="numpy")


def _ufunc(numba, function, signatures):
    """``function`` of one value, compiled into a NumPy ufunc (numba's DUFunc wraps it in
    Python; its ``ufunc`` is NumPy's own, as quick to call as ``np.tanh``)."""
    try:
        return numba.vectorize(signatures, nopython=True, cache=True)(function).ufunc
    except RuntimeError:  # (no folder numba may write its cache to, as _kernel)
        return numba.vectorize(signatures, nopython=True)(function).ufunc


def _first_call(name):
    python = globals()[name]

    def call(*args):
        with _lock:
            if globals()[name] is call:
                _compile()
        return globals()[name](*args)
    call.__doc__, call.__name__, call.__wrapped__ = python.__doc__, name, python
    return call


_PYTHON = {name: globals()[name] for name in (*_KERNELS, *_UFUNCS)}
for _name in _PYTHON:
    globals()[_name] = _first_call(_name)
del _name


def warm() -> None:
    """Compile every kernel for the arrays minigrad hands it (float32: rows as 2-dim
    arrays, elementwise ones of 0 to 4 dims; the input or the gradient writable or
    read-only: numba compiles each apart), so that numba keeps them on disk and no
    lesson waits for a compilation (about 20 s in all, once per machine; later
    processes load them in a second). ``minigrad-kit lab`` runs it in the background
    while JupyterLab starts."""
    if not AVAILABLE:
        return
    for shape in ((), (16,), (2, 8), (2, 2, 4), (2, 2, 2, 2)):
        for given in _writable_and_not(np.linspace(-2, 2, 16, dtype=_F32)[:math.prod(shape)]
                                       .reshape(shape)):
            plain = given.copy()
            sigmoid_vectorised(np.empty_like(given), given)
            tanh_rounded(given)  # (compiled once for every array: a ufunc)
            tanh_backward_rounded(given, plain)
            if given.ndim == 1:
                cascade_sum(given)
            if given.ndim == 2:
                cascade_sum_rows(np.empty(given.shape[0], _F32), given)
                softmax_rows(np.empty_like(given), given)
                log_softmax_rows(np.empty_like(given), given)
                softmax_backward_rows(np.empty_like(given), given, plain)
                log_softmax_backward_rows(np.empty_like(given), given, plain)


def _writable_and_not(array):
    read_only = array.copy()
    read_only.flags.writeable = False
    return array.copy(), read_only
