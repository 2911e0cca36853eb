"""Orders on arrays, as PyTorch's CPU kernels order: which index each sorted place reads.

- ``sort_indices``: a stable sort along one axis. NaN is larger than every number
  (last ascending, first descending, as PyTorch), and equal values keep their order in
  both directions: PyTorch's CPU sort is stable whatever ``stable=`` says. Descending
  is the ascending sort of the reversed axis, read backwards, so ties stay in order
  without negating (which NaN, bools and the smallest integer would not survive).
- ``topk_indices``: the first ``k`` places of that sort (PyTorch's CPU topk gives the
  same indices on ties: the lower index first, in both directions).
- ``kth_indices``, ``median_indices``: the index of the k-th smallest value along an
  axis; among equal values the one PyTorch's quickselect picks (its steps, ported).
"""

from __future__ import annotations

import numpy as np

__all__ = ["sort_indices", "topk_indices", "kth_indices", "median_indices", "quick_select",
           "mode_of"]


def sort_indices(x: np.ndarray, axis: int, descending: bool = False) -> np.ndarray:
    """The int64 indices that sort ``x`` along ``axis`` (stable, NaN largest)."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable").astype(np.int64, copy=False)
    n = x.shape[axis]
    backwards = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return np.flip(n - 1 - backwards, axis).astype(np.int64, copy=False)


def topk_indices(x: np.ndarray, k: int, axis: int, largest: bool) -> np.ndarray:
    """The indices of the ``k`` largest (or smallest) values along ``axis``, in order."""
    order = sort_indices(x, axis, descending=largest)
    return np.take(order, np.arange(k), axis=axis) if x.ndim else order


def kth_indices(x: np.ndarray, k: int, axis: int) -> np.ndarray:
    """The index of the ``k``-th smallest value (k from 1) along ``axis`` (NaN largest).
    Where that value occurs more than once, the index is the one PyTorch's quickselect
    ends on (``quick_select``: its steps, run on that row)."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    picks = np.take(sort_indices(rows, 1), k - 1, axis=1)
    for r in range(rows.shape[0]):
        row = rows[r]
        value = row[picks[r]]
        if np.count_nonzero((row == value) | ((row != row) & (value != value))) > 1:
            picks[r] = quick_select(row, k - 1)
    return picks.reshape(moved.shape[:-1])


def median_indices(x: np.ndarray, axis: int) -> np.ndarray:
    """The index of the lower median along ``axis``; of the first NaN in a row that
    has one (PyTorch's median propagates NaN)."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    picks = kth_indices(x, (x.shape[axis] + 1) // 2, axis)
    nan = x != x
    return np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), picks)


def _greater_or_nan(a, b) -> bool:
    return (a != a and b == b) or a > b


def quick_select(row: np.ndarray, k: int) -> int:
    """PyTorch's ``quick_select_template`` (ATen/native/SortingUtils.h), step for step:
    a median-of-three quickselect over (value, index) pairs; the index it leaves at k."""
    values, places = list(row), list(range(row.size))

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        places[i], places[j] = places[j], places[i]

    low, high = 0, row.size - 1
    while high > low:
        if high == low + 1:
            if _greater_or_nan(values[low], values[high]):
                swap(low, high)
            break
        swap(low + (high - low) // 2, low + 1)
        if _greater_or_nan(values[low + 1], values[high]):
            swap(low + 1, high)
        if _greater_or_nan(values[low], values[high]):
            swap(low, high)
        if _greater_or_nan(values[low + 1], values[low]):
            swap(low + 1, low)
        i, j, pivot = low + 1, high, values[low]
        while True:
            i += 1
            while _greater_or_nan(pivot, values[i]):
                i += 1
            j -= 1
            while _greater_or_nan(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    return places[k]


def mode_of(x: np.ndarray, axis: int) -> np.ndarray:
    """The index of the most frequent value along ``axis`` (the smallest such value
    on a tie of counts, at the last place it occurs, as PyTorch's CPU kernel)."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    picks = np.empty(rows.shape[0], np.int64)
    for r, row in enumerate(rows):
        values, counts = np.unique(row, return_counts=True)
        best = values[np.argmax(counts)]
        picks[r] = np.flatnonzero((row == best) | ((row != row) & (best != best)))[-1]
    return picks.reshape(moved.shape[:-1])
