"""``embedding_bag``: the rows of a table summed (averaged, or maxed) over "bags" of
indices, as PyTorch's CPU kernels compute it (``EmbeddingBag.cpp``), with its four
results: the output, ``offset2bag`` (the bag of each index), ``bag_size`` and
``max_indices`` (what ``_saved_result1..3`` show).

PyTorch takes one of two paths, and they differ in more than speed:

- the fast path (fbgemm; float32 and float16 tables, no ``padding_idx``): each bag sums
  its rows in order in float32 (a per-sample weight fused: one rounding), float16 is
  rounded once at the end. A sum skips ``offset2bag`` (saved empty); with
  ``include_last_offset`` the last bag ends at the last offset.
- the slow path (float64, or a ``padding_idx``): each index adds its row to its bag's
  row in order; a per-sample weight is multiplied, then added (two roundings); the last
  bag runs to the end of the indices. Padding rows are left out of the sum and of
  ``bag_size``.

``max`` keeps, for each feature, the first largest value (a NaN only when first); an
empty bag is zeros. ``mean`` divides the sum by the bag's size in the table's dtype.

The backward adds each index's gradient row into the table's gradient in the order
PyTorch's unstable sort of the indices leaves equal indices (``sorting.sort_indices``),
each scaled (a per-sample weight, 1 / bag size) with one rounding, as BLAS's ``axpy``.
``embedding_backward_by_frequency`` is ``embedding``'s table gradient with
``scale_grad_by_freq``, which scales and adds the same way.
"""

from __future__ import annotations

import numpy as np

from .fma import fma32, fma64
from .sorting import sort_indices

__all__ = ["embedding_bag", "embedding_bag_backward", "per_sample_weights_backward",
           "offsets_to_bags", "uses_fast_path", "embedding_backward_by_frequency"]

SUM, MEAN, MAX = 0, 1, 2


def uses_fast_path(weight: np.ndarray, padding_idx: int) -> bool:
    """Whether PyTorch computes a sum or a mean with fbgemm's kernel."""
    return weight.dtype in (np.float32, np.float16) and padding_idx < 0


def offsets_to_bags(offsets: np.ndarray, n: int) -> np.ndarray:
    """The bag of each of ``n`` indices (PyTorch's make_offset2bag: a 1 at each offset
    but the first, then a running sum; so equal offsets make empty bags)."""
    marks = np.zeros(n + 1, offsets.dtype)
    np.add.at(marks, offsets, 1)
    marks[0] -= 1  # (no offsets: every index in bag -1, which no bag reads)
    return np.cumsum(marks, dtype=offsets.dtype)[:n]


def embedding_bag(weight, indices, offsets, mode: int, per_sample_weights,
                  include_last_offset: bool, padding_idx: int):
    """(output, offset2bag, bag_size, max_indices), as PyTorch's ``_embedding_bag``."""
    kind = np.result_type(indices, offsets)  # (both made of their common type)
    indices, offsets = indices.astype(kind, copy=False), offsets.astype(kind, copy=False)
    n = len(indices)
    bags = len(offsets) - include_last_offset
    starts = offsets[:bags]
    bag_of = offsets_to_bags(starts, n)
    sizes = np.diff(starts, append=n).astype(kind) if bags else np.zeros(0, kind)
    kept = (indices != padding_idx) & (bag_of >= 0)
    if padding_idx >= 0:
        padded = bag_of[(indices == padding_idx) & (bag_of >= 0)]
        sizes = sizes - np.bincount(padded, minlength=bags).astype(kind)
    fast = mode != MAX and uses_fast_path(weight, padding_idx)
    if mode == MAX:
        output, max_indices = _max(weight, indices, bag_of, kept, bags)
        return output, bag_of, sizes, max_indices
    if fast and include_last_offset and bags:
        kept = kept & (np.arange(n) < offsets[-1])  # (fbgemm reads the last offset)
    output = _sum(weight, indices, bag_of, kept, bags, per_sample_weights, fast)
    if mode == MEAN:
        output /= np.maximum(sizes, 1).astype(output.dtype)[:, None]
        return output, bag_of, sizes, sizes.copy()
    zeros = np.zeros(bags, kind)
    return output, (bag_of[:0] if fast else bag_of), zeros, zeros.copy()


def _sum(weight, indices, bag_of, kept, bags, per_sample_weights, fast):
    """Each bag's rows added in order (weighted: fused on the fast path)."""
    wide = np.float32 if weight.dtype == np.float16 else weight.dtype
    total = np.zeros((bags, weight.shape[1]), wide)
    rows = weight[indices[kept]].astype(wide, copy=False)
    if per_sample_weights is None:
        np.add.at(total, bag_of[kept], rows)
        return total.astype(weight.dtype, copy=False)
    scale = per_sample_weights[kept].astype(wide)[:, None]
    into = bag_of[kept]
    for members in _ranks(into):  # (the first of each bag, then the second, ...)
        at = into[members]
        if fast:
            total[at] = fma32(rows[members], scale[members], total[at])
        else:
            total[at] = total[at] + rows[members] * scale[members]
    return total.astype(weight.dtype, copy=False)


def _ranks(groups: np.ndarray):
    """Positions of ``groups`` (sorted or not) by their rank within their group: first
    the first member of every group, then the second, ... (each step a distinct set of
    groups, so that one vectorised step can update them all)."""
    if not len(groups):
        return
    order = np.argsort(groups, kind="stable")
    sorted_groups = groups[order]
    starts = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1]])
    rank = np.arange(len(groups)) - np.repeat(starts, np.diff(np.r_[starts, len(groups)]))
    for r in range(int(rank.max()) + 1):
        yield order[rank == r]


def _max(weight, indices, bag_of, kept, bags):
    """Each feature's first largest value in its bag (zeros and index 0 when empty)."""
    output = np.zeros((bags, weight.shape[1]), weight.dtype)
    chosen = np.zeros((bags, weight.shape[1]), bag_of.dtype)
    seen = np.zeros(bags, bool)
    positions = np.flatnonzero(kept)
    for members in _ranks(bag_of[positions]):
        at = positions[members]
        bag, rows = bag_of[at], weight[indices[at]]
        take = ~seen[bag][:, None] | (rows > output[bag])
        output[bag] = np.where(take, rows, output[bag])
        chosen[bag] = np.where(take, indices[at][:, None], chosen[bag])
        seen[bag] = True
    return output, chosen


def _bags_of(offset2bag, offsets, n: int):
    """The bag of each of ``n`` indices: the saved offset2bag, or, where the forward saved
    it empty (fbgemm's sum), made again from all the offsets, as PyTorch's backward does."""
    return offset2bag if len(offset2bag) or not n else offsets_to_bags(offsets, n)


def embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, max_indices,
                           num_weights: int, mode: int, per_sample_weights, padding_idx: int,
                           by_frequency: bool = False):
    """The table's gradient (PyTorch's ``_embedding_bag_dense_backward``). With
    ``by_frequency`` (scale_grad_by_freq) each index's rows are divided by a count, which
    PyTorch 2.13 reads at the wrong place: for the k-th distinct index, the count of the
    k-th index in sorted order (so not always its own count), reproduced here."""
    table = np.zeros((num_weights, grad.shape[1]), grad.dtype)
    if mode == MAX:
        full = bag_size != 0
        columns = np.broadcast_to(np.arange(grad.shape[1]), max_indices[full].shape)
        np.add.at(table, (max_indices[full], columns), grad[full])
        return table
    bag_of = _bags_of(offset2bag, offsets, len(indices))
    order = sort_indices(indices, 0, stable=False)  # (PyTorch's order of equal indices)
    kept = (indices[order] != padding_idx) & (bag_of[order] < grad.shape[0])
    divisor = _counts_as_read(indices[order])[kept] if by_frequency else 1
    order = order[kept]
    target, source = indices[order], bag_of[order]
    if per_sample_weights is None and mode == SUM and not by_frequency:
        np.add.at(table, target, grad[source])  # (each a * x + y with a = 1: exact)
        return table
    scale = np.ones(len(order)) if per_sample_weights is None else \
        per_sample_weights[order].astype(np.float64)
    scale = scale / divisor
    if mode == MEAN:
        sizes = bag_size[source]
        scale = np.where(sizes != 0, scale / np.where(sizes != 0, sizes, 1), scale)
    scale = scale.astype(grad.dtype)[:, None]
    for members in _ranks(target):
        rows = target[members]
        table[rows] = _axpy(scale[members], grad[source[members]], table[rows])
    return table


def _counts_as_read(in_order):
    """For each of the indices sorted (``in_order``): the count PyTorch divides its
    gradient by, ``counts[in_order[k]]`` for the k-th distinct index."""
    counts = np.bincount(in_order) if len(in_order) else np.zeros(0, np.int64)
    distinct = np.cumsum(np.r_[0, in_order[1:] != in_order[:-1]]) if len(in_order) else in_order
    return counts[in_order[distinct]]


def _axpy(a, x, y):
    """a * x + y as PyTorch's ``cpublas::axpy``: BLAS's, one rounding (float32 and
    float64); float16's generic loop rounds the product, then the sum."""
    if a.dtype == np.float16:
        return a * x + y
    return fma64(a, x, y) if a.dtype == np.float64 else fma32(a, x, y)


def per_sample_weights_backward(grad, weight, indices, offsets, offset2bag,
                                padding_idx: int):
    """Each index's weight's gradient: its bag's gradient row dot its table row (0 for
    a padding index)."""
    bag_of = _bags_of(offset2bag, offsets, len(indices))
    inside = bag_of < grad.shape[0]  # (past a last offset short of the end: no bag, 0;
    bag_of = np.where(inside, bag_of, 0)  # PyTorch reads past its gradient there)
    rows = grad[bag_of] * weight[indices]
    dots = np.add.reduce(rows, axis=1, dtype=rows.dtype)
    return np.where((indices != padding_idx) & inside, dots, np.zeros((), grad.dtype))


def embedding_backward_by_frequency(grad, indices, rows: int, padding_idx: int):
    """``embedding``'s table gradient with ``scale_grad_by_freq``: each index's gradient
    row times 1 / (how often the index occurs), added into its row in order, the multiply
    and the add fused (PyTorch's embedding_dense_backward). The padding row gets nothing."""
    flat = indices.reshape(-1)
    grads = grad.reshape(len(flat), -1)
    table = np.zeros((rows, grads.shape[1]), grad.dtype)
    kept = flat != padding_idx
    counts = np.bincount(flat, minlength=rows)
    flat, grads = flat[kept], grads[kept]
    scale = (1.0 / counts[flat]).astype(grad.dtype)[:, None]
    for members in _ranks(flat):
        at = flat[members]
        table[at] = _axpy(scale[members], grads[members], table[at])
    return table
