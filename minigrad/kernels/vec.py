"""How PyTorch's CPU kernels add up a row in vector lanes (``vec::map2_reduce_all``
and ``vec_reduce_all``), on 256-bit vectors (AVX2, as its distance kernels run even on
AVX-512 machines: measured), so that a sum has its bits:

- a row shorter than a vector: its elements one after another;
- else the first vector, then each whole vector added lane by lane, then the last part
  of a vector added into the lanes it covers;
- then the lanes: for 8 float32 lanes a tree (lane i plus lane i + 4, + 2, + 1, as its
  shuffles), for others one lane after another.

Most of PyTorch's kernels run on the widest vectors the machine has (``CAPABILITY``:
AVX-512's 64 bytes or AVX2's 32, ``NATIVE_VECTOR_BYTES``), so their sums round
differently on the two kinds of machine; the softmaxes and sigmoid here follow it.
"""

from __future__ import annotations

import os

import numpy as np

try:
    from numpy._core._multiarray_umath import __cpu_features__ as _CPU_FEATURES
except ImportError:  # (NumPy 1)
    from numpy.core._multiarray_umath import __cpu_features__ as _CPU_FEATURES

__all__ = ["reduce_rows", "lanes_total", "max_all", "min_all", "min_and_max", "CAPABILITY",
           "NATIVE_VECTOR_BYTES"]

VECTOR_BYTES = 32  # AVX2
GRAIN_SIZE = 32768  # (at::internal::GRAIN_SIZE: a longer reduction is split among threads)


def _capability() -> str:
    """The vector code PyTorch's CPU kernels run on this machine, chosen as ATen's
    DispatchStub.cpp chooses it: ``ATEN_CPU_CAPABILITY`` if set ("avx512", "avx2",
    "default"), else AVX-512 where the CPU has its F, VL, BW and DQ parts, else AVX2
    where it has AVX2 and FMA (the CPU's features as NumPy detected them)."""
    chosen = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    if chosen in ("avx512", "avx2", "default"):
        return chosen
    if all(_CPU_FEATURES.get(part) for part in ("AVX512F", "AVX512VL", "AVX512BW", "AVX512DQ",
                                                "FMA3")):
        return "avx512"
    return "avx2" if _CPU_FEATURES.get("AVX2") and _CPU_FEATURES.get("FMA3") else "default"


CAPABILITY = _capability()
# (the default build's vectors are 32 bytes too; machines other than x86 are not measured)
NATIVE_VECTOR_BYTES = 64 if CAPABILITY == "avx512" else 32


def reduce_rows(rows: np.ndarray, add=np.add, lanes: int | None = None) -> np.ndarray:
    """Each row (the last axis) reduced with ``add`` (``np.add``, ``np.maximum``) in
    the order described above (``lanes``: a vector's, if not the dtype's); rows of no
    elements give 0."""
    size = rows.shape[-1]
    lanes = lanes or VECTOR_BYTES // rows.itemsize
    if size == 0:
        return np.zeros(rows.shape[:-1], rows.dtype)
    if size < lanes:
        return _one_after_another(rows, add)
    acc = rows[..., :lanes].copy()
    whole = size - size % lanes
    for start in range(lanes, whole, lanes):
        acc = add(acc, rows[..., start:start + lanes])
    if whole < size:
        acc[..., :size - whole] = add(acc[..., :size - whole], rows[..., whole:])
    return lanes_total(acc, add)


def lanes_total(lanes: np.ndarray, add=np.add) -> np.ndarray:
    """Each row's vector lanes (the last axis) reduced as ``vec_reduce_all`` does: 8
    float32 lanes as a tree (lane i plus lane i + 4, + 2, + 1: its shuffles), other
    lanes one after another; no lanes give 0."""
    if lanes.shape[-1] == 8 and lanes.dtype == np.float32:
        for width in (4, 2, 1):
            lanes = add(lanes[..., :width], lanes[..., width:2 * width])
        return lanes[..., 0]
    if not lanes.shape[-1]:
        return np.zeros(lanes.shape[:-1], lanes.dtype)
    return _one_after_another(lanes, add)


def _one_after_another(rows: np.ndarray, add) -> np.ndarray:
    total = rows[..., 0]
    for k in range(1, rows.shape[-1]):
        total = add(total, rows[..., k])
    return total


# ---- max() and min() of a whole tensor: which of equal values (-0. and 0.) comes out ----

def _later_if_not_smaller(a, b):
    """``_mm256_max_ps(a, b)`` on values without NaN: ``b`` where they are equal."""
    return np.where(a > b, a, b)


def _later_if_not_larger(a, b):
    return np.where(a < b, a, b)


def max_all(x: np.ndarray) -> np.ndarray:
    """``x.max()`` as PyTorch's ``max_all`` kernel computes it, up to which of equal values
    it returns, which shows only as a zero's sign: its vector lanes (``reduce_rows``) keep
    the later of two equal values; float16 goes through float32 lanes, two vectors of them.
    A reduction longer than ``GRAIN_SIZE`` is split among threads: NumPy's there."""
    return _extreme_all(x, np.max(x), _later_if_not_smaller)


def min_all(x: np.ndarray) -> np.ndarray:
    """``x.min()`` as ``max_all`` for the maximum."""
    return _extreme_all(x, np.min(x), _later_if_not_larger)


def min_and_max(x: np.ndarray, axes: tuple, keepdims: bool, whole: bool) -> list:
    """``aminmax``'s (min, max) over ``axes``; of the ``whole`` tensor (no dim given) as
    ``min_all`` and ``max_all`` pick among -0. and 0. (PyTorch's ``_aminmax_all``
    reduces its vector lanes alike)."""
    if not whole:
        return [np.asarray(np.amin(x, axis=axes, keepdims=keepdims)),
                np.asarray(np.amax(x, axis=axes, keepdims=keepdims))]
    shape = (1,) * x.ndim if keepdims else ()
    return [min_all(x).reshape(shape), max_all(x).reshape(shape)]


def _extreme_all(x, result, pick):
    if result != 0 or x.dtype.kind != "f" or x.size > GRAIN_SIZE:
        return np.asarray(result)
    flat = np.ravel(x)
    if flat.dtype == np.float16:
        return np.asarray(_half_lanes(flat.astype(np.float32), pick), np.float16)
    return np.asarray(reduce_rows(flat, pick))


def _half_lanes(flat: np.ndarray, pick):
    """A float16 vector (16 lanes) as two float32 vectors of 8: PyTorch's ``reduce_all``
    for reduced floating types."""
    size = flat.size
    if size > 16:
        acc = flat[:16].copy()
        whole = size - size % 16
        for start in range(16, whole, 16):
            acc = pick(acc, flat[start:start + 16])
        if whole < size:
            acc[:size - whole] = pick(acc[:size - whole], flat[whole:])
        return lanes_total(pick(acc[:8], acc[8:]), pick)
    if size == 16:
        return lanes_total(pick(flat[:8], flat[8:]), pick)
    if size > 8:  # (the second vector's elements into the first's lanes, then lane by lane)
        first = flat[:8].copy()
        first[:size - 8] = pick(first[:size - 8], flat[8:])
        return _one_after_another(first, pick)
    return _one_after_another(flat, pick)
