"""How PyTorch's CPU kernels add up a row in vector lanes (``vec::map2_reduce_all``
and ``vec_reduce_all``), on 256-bit vectors (AVX2, as its distance kernels run even on
AVX-512 machines: measured), so that a sum has its bits:

- a row shorter than a vector: its elements one after another;
- else the first vector, then each whole vector added lane by lane, then the last part
  of a vector added into the lanes it covers;
- then the lanes: for 8 float32 lanes a tree (lane i plus lane i + 4, + 2, + 1, as its
  shuffles), for others one lane after another.
"""

from __future__ import annotations

import numpy as np

__all__ = ["reduce_rows", "lanes_total"]

VECTOR_BYTES = 32  # AVX2


def reduce_rows(rows: np.ndarray, add=np.add) -> np.ndarray:
    """Each row (the last axis) reduced with ``add`` (``np.add``, ``np.maximum``) in
    the order described above; rows of no elements give 0."""
    size = rows.shape[-1]
    lanes = VECTOR_BYTES // rows.itemsize
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
