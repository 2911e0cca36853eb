"""The sum of a float array added up in PyTorch's order, so that its last bits are
PyTorch's (``x.sum().item()`` prints the same digits).

NumPy adds pairwise; PyTorch's CPU kernel (SumKernel.cpp, AVX2: vectors of 256
bits) adds a contiguous row as vectors of 4 doubles or 8 floats, four vectors
side by side, each of those accumulators in a cascade of blocks of 16 rows;
then the leftover vectors, the four accumulators, the leftover elements and the
lanes, one after the other. The results differ in the last bits for most rows of
5 or more elements. ``cascade_sum`` follows PyTorch's order for a contiguous array
of float32 or float64 of fewer than 32,768 elements (above that PyTorch splits the
work between threads); ``None`` otherwise.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cascade_sum"]

_VECTOR_BYTES = 32  # AVX2
_ILP = 4  # accumulators side by side
_BLOCK = 16  # rows per block of the cascade (1 << level_power, 4 below 2 ** 20 rows)
_SERIAL_LIMIT = 32768  # at::internal::GRAIN_SIZE: above it, torch splits between threads


def _in_order(rows: np.ndarray) -> np.ndarray:
    """rows[0] + rows[1] + ... one after the other, from 0 (NumPy reduces an axis that
    is not the last one row by row, so this is sequential for each element)."""
    return np.add.reduce(rows, axis=0, initial=rows.dtype.type(0))


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """torch's multi_row_sum over ``rows`` (shape (size, 4, ...)): blocks of 16 rows
    summed in order, a block's sum added to level 1, every 16 blocks level 1 added to
    level 2; at the end the rows left, then levels 1 and 2, one after the other."""
    size = len(rows)
    blocks = size // _BLOCK
    block_sums = _in_order(rows[:blocks * _BLOCK].reshape(blocks, _BLOCK, *rows.shape[1:])
                           .swapaxes(0, 1)) if blocks else None
    zero = np.zeros(rows.shape[1:], rows.dtype)
    level1 = level2 = zero
    if blocks:
        groups = blocks // _BLOCK
        if groups:
            group_sums = _in_order(block_sums[:groups * _BLOCK]
                                   .reshape(groups, _BLOCK, *rows.shape[1:]).swapaxes(0, 1))
            level2 = _in_order(group_sums)
        level1 = _in_order(block_sums[groups * _BLOCK:])
    rest = _in_order(rows[blocks * _BLOCK:])
    return (rest + level1) + level2


def _row_sum(rows: np.ndarray) -> np.ndarray:
    """torch's row_sum: ``rows`` (shape (size, ...)) as four accumulators side by side,
    the rows left over added to the first, then the other three to it."""
    size_ilp = len(rows) // _ILP
    if size_ilp:
        partial = _multi_row_sum(rows[:size_ilp * _ILP].reshape(size_ilp, _ILP, *rows.shape[1:]))
    else:
        partial = np.zeros((_ILP, *rows.shape[1:]), rows.dtype)
    first = partial[0]
    for row in rows[size_ilp * _ILP:]:
        first = first + row
    for k in range(1, _ILP):
        first = first + partial[k]
    return first


def cascade_sum(array: np.ndarray):
    """The sum of every element of ``array`` in PyTorch's order (a NumPy scalar of its
    dtype), or None where that order is not followed here."""
    dtype = array.dtype
    if dtype not in (np.float32, np.float64) or array.size >= _SERIAL_LIMIT \
            or not array.flags.c_contiguous:
        return None
    flat = array.reshape(-1)
    lanes = _VECTOR_BYTES // dtype.itemsize
    zero = dtype.type(0)
    if flat.size < lanes:  # (torch's scalar_inner_sum)
        return zero + _row_sum(flat)
    vectors = flat.size // lanes
    lanes_sum = _row_sum(flat[:vectors * lanes].reshape(vectors, lanes))
    total = zero
    for value in flat[vectors * lanes:]:
        total = total + value
    for value in lanes_sum:
        total = total + value
    return zero + total
