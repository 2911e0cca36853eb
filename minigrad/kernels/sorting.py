"""Orders on arrays, as PyTorch's CPU kernels order: which index each sorted place reads.

- ``sort_indices``: NaN is larger than every number (last ascending, first descending,
  as PyTorch). With ``stable=True`` equal values keep their order (descending is the
  ascending sort of the reversed axis, read backwards, so no negating, which NaN, bools
  and the smallest integer would not survive). Without it PyTorch runs C++'s
  ``std::sort`` (libstdc++'s introsort) over (value, index) pairs, which reorders equal
  values its own way in rows of more than 16 elements: ``introsort`` is those steps,
  run on the rows that have equal values (on the others every sort agrees).
- ``topk_indices``: the first ``k`` places of the stable sort, and on rows with equal
  values PyTorch's own steps (``std::partial_sort``, or ``std::nth_element`` then
  ``std::sort``: libstdc++'s, ported as ``introsort`` is).
- ``kth_indices``: the index of the k-th smallest value along an axis; among equal
  values the one PyTorch's quickselect picks (its steps, ported). ``median_indices``:
  PyTorch's ``nth_element`` breaks ties by index, so the middle of a stable sort.
- ``search_places``: ``searchsorted``'s binary search as PyTorch steps it (``mid = start +
  (end - start) / 2``, compared with ``!(mid >= value)``), so a NaN or an unsorted
  sequence gives PyTorch's places, which NumPy's search (NaN-aware, reusing its last
  bounds for sorted values) does not.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sort_indices", "introsort", "topk_indices", "kth_indices", "median_indices",
           "nanmedian_indices", "quick_select", "mode_of", "quantile_ranks", "search_places", "unique_slices",
           "unique_values"]


def sort_indices(x: np.ndarray, axis: int, descending: bool = False,
                 stable: bool = True) -> np.ndarray:
    """The int64 indices that sort ``x`` along ``axis`` (NaN largest); ``stable=False``:
    PyTorch's order of equal values (``std::sort``'s)."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    if not descending:
        order = np.argsort(x, axis=axis, kind="stable").astype(np.int64, copy=False)
    else:
        n = x.shape[axis]
        backwards = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
        order = np.flip(n - 1 - backwards, axis).astype(np.int64)
    if stable or x.shape[axis] <= 16 or _radix_sorted(x, descending):
        return order  # (std::sort of 16 or fewer: an insertion sort, stable)
    less = _greater_nan_first if descending else _less_nan_last
    rows, places = np.moveaxis(x, axis, -1), np.moveaxis(order, axis, -1)
    for r in np.ndindex(rows.shape[:-1]):
        picked = rows[r][places[r]]
        same = picked[1:] == picked[:-1]
        if same.any() or np.count_nonzero(picked != picked) > 1:
            places[r] = introsort(rows[r].tolist(), less)
    return order


def _radix_sorted(x: np.ndarray, descending: bool) -> bool:
    """Whether PyTorch sorts ``x`` with fbgemm's radix sort (stable) instead of
    ``std::sort``: 1-D integers (not bools), ascending, at least 32,768 of them
    (``at::internal::GRAIN_SIZE``)."""
    return (x.ndim == 1 and not descending and x.dtype.kind in "iu"
            and x.size >= _RADIX_SORT_FROM)


_RADIX_SORT_FROM = 32768


def _less_nan_last(a, b) -> bool:
    return (a == a and b != b) or a < b


def _greater_nan_first(a, b) -> bool:
    return (a != a and b == b) or a > b


def introsort(keys: list, less) -> list:
    """The indices of ``keys`` in the order libstdc++'s ``std::sort(first, last, less)``
    leaves (value, index) pairs: introsort (median-of-three quicksort down to runs of 16,
    heapsort past 2 log2(n) levels), then an insertion sort."""
    places = list(range(len(keys)))

    def quicksort(first, last, depth):
        while last - first > 16:
            if depth == 0:
                _heap_select(keys, places, first, last, last, less)
                _sort_heap(keys, places, first, last, less)
                return
            depth -= 1
            cut = _partition_pivot(keys, places, first, last, less)
            quicksort(cut, last, depth)
            last = cut

    n = len(keys)
    if n:
        quicksort(0, n, 2 * (n.bit_length() - 1))
        _insertion_sort(keys, places, 0, min(n, 16), less, guarded=True)
        _insertion_sort(keys, places, 16, n, less, guarded=False)
    return places


def _insertion_sort(keys, places, low, high, less, guarded):
    """libstdc++'s __insertion_sort on [low, high) (guarded: an element smaller than the
    first goes to the front at once) or __unguarded_insertion_sort."""
    for i in range(low + guarded, high):
        key, place = keys[i], places[i]
        if guarded and less(key, keys[low]):
            keys[low + 1:i + 1], places[low + 1:i + 1] = keys[low:i], places[low:i]
            keys[low], places[low] = key, place
            continue
        j = i
        while less(key, keys[j - 1]):
            keys[j], places[j] = keys[j - 1], places[j - 1]
            j -= 1
        keys[j], places[j] = key, place


def _partition_pivot(keys, places, first, last, less) -> int:
    """libstdc++'s __unguarded_partition_pivot: the median of three moved to ``first``,
    then the range split around it; returns where the right part starts."""
    def swap(a, b):
        keys[a], keys[b], places[a], places[b] = keys[b], keys[a], places[b], places[a]

    a, b, c = first + 1, first + (last - first) // 2, last - 1
    if less(keys[a], keys[b]):
        median = b if less(keys[b], keys[c]) else c if less(keys[a], keys[c]) else a
    else:
        median = a if less(keys[a], keys[c]) else c if less(keys[b], keys[c]) else b
    swap(first, median)
    low, high = first + 1, last
    while True:
        while less(keys[low], keys[first]):
            low += 1
        high -= 1
        while less(keys[first], keys[high]):
            high -= 1
        if not low < high:
            return low
        swap(low, high)
        low += 1


def _adjust_heap(keys, places, first, hole, length, key, place, less):
    """libstdc++'s __adjust_heap then __push_heap: ``(key, place)`` sunk into the heap
    at ``first`` from ``hole``."""
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(keys[first + child], keys[first + child - 1]):
            child -= 1
        keys[first + hole], places[first + hole] = keys[first + child], places[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        keys[first + hole], places[first + hole] = keys[first + child - 1], places[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(keys[first + parent], key):
        keys[first + hole], places[first + hole] = keys[first + parent], places[first + parent]
        hole, parent = parent, (parent - 1) // 2
    keys[first + hole], places[first + hole] = key, place


def _pop_heap(keys, places, first, last, result, less):
    key, place = keys[result], places[result]
    keys[result], places[result] = keys[first], places[first]
    _adjust_heap(keys, places, first, 0, last - first, key, place, less)


def _heap_select(keys, places, first, middle, last, less):
    """libstdc++'s __heap_select: a heap of [first, middle), then each later element
    smaller than its top swapped in."""
    length = middle - first
    for parent in range((length - 2) // 2, -1, -1) if length > 1 else ():
        _adjust_heap(keys, places, first, parent, length, keys[first + parent],
                     places[first + parent], less)
    for i in range(middle, last):
        if less(keys[i], keys[first]):
            _pop_heap(keys, places, first, middle, i, less)


def _sort_heap(keys, places, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(keys, places, first, last, last, less)


def topk_indices(x: np.ndarray, k: int, axis: int, largest: bool) -> np.ndarray:
    """The indices of the ``k`` largest (or smallest) values along ``axis``, in order;
    on rows with equal values, PyTorch's: its kernel runs ``std::partial_sort`` when
    ``k * 64 <= n``, else ``std::nth_element`` and ``std::sort`` of the first k - 1."""
    order = sort_indices(x, axis, descending=largest)
    if x.ndim == 0:
        return order
    picked = np.take(order, np.arange(k), axis=axis)
    less = _greater_nan_first if largest else _less_nan_last
    rows, places = np.moveaxis(x, axis, -1), np.moveaxis(picked, axis, -1)
    orders = np.moveaxis(order, axis, -1)
    for r in np.ndindex(rows.shape[:-1]):
        values = rows[r][orders[r]]
        if (values[1:] == values[:-1]).any() or np.count_nonzero(values != values) > 1:
            places[r] = _std_topk(rows[r].tolist(), k, less)
    return picked


def _std_topk(keys: list, k: int, less) -> list:
    places = list(range(len(keys)))
    if k * 64 <= len(keys):
        _heap_select(keys, places, 0, k, len(keys), less)
        _sort_heap(keys, places, 0, k, less)
    elif k:
        _introselect(keys, places, k - 1, less)
        sorted_part = introsort(keys[:k - 1], less)
        places[:k - 1] = [places[i] for i in sorted_part]
    return places[:k]


def _introselect(keys, places, nth, less):
    """libstdc++'s std::nth_element: quickselect on median-of-three pivots (heap select
    past 2 log2(n) levels), an insertion sort on the last 3 or fewer."""
    first, last = 0, len(keys)
    depth = 2 * (last.bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(keys, places, first, nth + 1, last, less)
            keys[first], keys[nth] = keys[nth], keys[first]
            places[first], places[nth] = places[nth], places[first]
            return
        depth -= 1
        cut = _partition_pivot(keys, places, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(keys, places, first, last, less, guarded=True)


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


def _nan(dtype) -> np.ndarray:
    """NaN as torch writes it into a tensor of ``dtype`` (an integer one: its cast of NaN,
    -2**63 for int64 on x86)."""
    with np.errstate(invalid="ignore"):
        return np.asarray(np.nan).astype(dtype)


def median_of_all(x: np.ndarray) -> np.ndarray:
    """The lower median of all of ``x`` (0-dim): NaN when it holds a NaN (PyTorch's median
    propagates NaN) or nothing at all."""
    flat = np.sort(x.reshape(-1))  # (NaN last)
    if flat.size == 0 or flat[-1] != flat[-1]:
        return _nan(x.dtype)
    return _zero_as_selected(x, flat[(flat.size - 1) // 2], (flat.size - 1) // 2,
                             lambda a, b: a < b)


def nanmedian_of_all(x: np.ndarray) -> np.ndarray:
    """The lower median of the values of ``x`` that are not NaN (0-dim): NaN when all
    are NaN, or there are none."""
    flat = np.sort(x.reshape(-1))  # (NaN last)
    counted = int(np.sum(flat == flat))
    if counted == 0:
        return _nan(x.dtype)
    return _zero_as_selected(x, flat[(counted - 1) // 2], (counted - 1) // 2, _less_nan_last)


def _zero_as_selected(x: np.ndarray, value, nth: int, less) -> np.ndarray:
    """``value`` (the nth of the sorted values) as PyTorch's median() picks it: a clone of
    x (in its memory's order, as clone's preserve_format), then ``std::nth_element`` with
    ``less``. Only which zero differs (-0. == 0.): where both are in x and the median is a
    zero, libstdc++'s steps (``_introselect``) tell which one it leaves at the nth place."""
    if value != 0 or x.dtype.kind != "f":
        return np.asarray(value)
    zeros = x[x == 0]
    signs = np.signbit(zeros)
    if signs.all() or not signs.any():
        return np.asarray(value)
    flat = x.ravel(order="K")
    keys, places = flat.tolist(), list(range(flat.size))
    _introselect(keys, places, nth, less)
    return np.asarray(flat[places[nth]])


def median_indices(x: np.ndarray, axis: int) -> np.ndarray:
    """The index of the lower median along ``axis``: PyTorch's ``std::nth_element`` orders
    equal values by index, so it is the middle place of a stable sort; the index of the
    first NaN in a row that has one (PyTorch's median propagates NaN)."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    order = sort_indices(x, axis)
    picks = np.take(order, (x.shape[axis] - 1) // 2, axis=axis)
    nan = x != x
    return np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), picks)


def nanmedian_indices(x: np.ndarray, axis: int) -> np.ndarray:
    """The index of the lower median of the values that are not NaN along ``axis``.
    PyTorch's ``std::nth_element`` orders numbers by value, then index, so it is the place
    (count - 1) / 2 of the stable sort; in a row of NaN only, all equal to its comparator,
    the place 0 is wherever libstdc++'s steps leave it (``_introselect``, run once)."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    order = sort_indices(x, axis)
    counted = np.sum(x == x, axis=axis, keepdims=True)
    picks = np.take_along_axis(order, np.maximum(counted - 1, 0) // 2, axis=axis)
    size = x.shape[axis]
    if size and not counted.all():
        places = list(range(size))
        _introselect([0] * size, places, 0, lambda a, b: False)
        picks = np.where(counted == 0, places[0], picks)
    return picks.squeeze(axis)


def quantile_ranks(q: np.ndarray, sorted_rows: np.ndarray, interpolation: str,
                   ignore_nan: bool):
    """ATen's quantile_compute up to its gathers: the places each quantile reads in each
    sorted row (``below``, ``above``, int64) and the weight of ``above`` (in q's dtype),
    shaped ``(..., len(q))``. The ranks are q (n - 1) in q's dtype; a row with NaN reads
    its last place (quantile), or only its values that are not NaN (nanquantile)."""
    last = sorted_rows.shape[-1] - 1
    nan = sorted_rows != sorted_rows
    with np.errstate(invalid="ignore"):
        if ignore_nan:
            counted = np.sum(~nan, axis=-1, keepdims=True) - 1
            ranks = q * counted.astype(q.dtype)
            ranks = np.where(ranks < 0, q.dtype.type(0), ranks)
        else:
            ranks = np.where(nan.any(axis=-1, keepdims=True), q.dtype.type(last),
                             q * q.dtype.type(last))
        rounded = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}.get(interpolation)
        if rounded is not None:
            ranks = rounded(ranks)
        below = ranks.astype(np.int64)
        if interpolation == "midpoint":
            weights = np.full_like(ranks, 0.5)
        else:
            weights = ranks - below.astype(ranks.dtype)
        return below, np.ceil(ranks).astype(np.int64), weights


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
    """The index of the most frequent value along ``axis``, as PyTorch's CPU kernel finds
    it: (value, index) pairs put in order by ``std::sort`` with a plain ``<``, then the
    longest run of equal values, the first such run on a tie of lengths, at its last pair."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    picks = np.empty(rows.shape[0], np.int64)
    for r, row in enumerate(rows):
        ordered = np.sort(row)
        if not (ordered[1:] == ordered[:-1]).any() and not np.isnan(ordered[-1:]).any():
            picks[r] = np.argmin(row)  # (all distinct: every run is 1 long, the first wins)
            continue
        keys = row.tolist()
        order = introsort(list(keys), lambda a, b: a < b)
        best, run = -1, 0
        for i, place in enumerate(order):
            run += 1
            if i == len(order) - 1 or keys[place] != keys[order[i + 1]]:
                if run > best:
                    best, picks[r] = run, place
                run = 0
    return picks.reshape(moved.shape[:-1])


def search_places(rows: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """For each row of ``rows`` (2-D: rows by length) the places of that row of
    ``values`` (2-D, one row per row of ``rows``, or one row for all): PyTorch's lower
    bound (``right``: upper bound), all values searched in lockstep."""
    n = rows.shape[-1]
    start = np.zeros(np.broadcast_shapes(values.shape, rows.shape[:-1] + (1,)), np.int64)
    end = np.full(start.shape, n, np.int64)
    values = np.broadcast_to(values, start.shape)
    rows = np.broadcast_to(rows, start.shape[:-1] + (n,))
    if n == 0:
        return start
    active = start < end
    while active.any():
        mid = start + ((end - start) >> 1)
        found = np.take_along_axis(rows, np.minimum(mid, n - 1), axis=-1)
        with np.errstate(invalid="ignore"):
            after = ~(found > values) if right else ~(found >= values)
        start = np.where(active & after, mid + 1, start)
        end = np.where(active & ~after, mid, end)
        active = start < end
    return start


def unique_values(data: np.ndarray) -> tuple:
    """``np.unique(data, return_inverse=True, return_counts=True)`` as PyTorch's CPU
    unique computes it, which matters where ``data`` holds NaNs (each one a value of its
    own: which goes where) or both 0. and -0. (one value: which is kept): the flattened
    ``data`` sorted by ``std::sort`` (unstable past 16 elements), then each run of equal
    values kept once, as its first element."""
    flat = data.reshape(-1)
    if flat.dtype.kind != "f" or not _has_unequal_ties(flat):
        return np.unique(flat, return_inverse=True, return_counts=True, equal_nan=False)
    order = sort_indices(flat, 0, stable=False)
    in_order = flat[order]
    starts = np.empty(len(flat), bool)
    starts[:1] = True
    starts[1:] = in_order[1:] != in_order[:-1]
    inverse = np.empty(len(flat), np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return in_order[starts], inverse, np.diff(np.append(np.flatnonzero(starts), len(flat)))


def _has_unequal_ties(flat: np.ndarray) -> bool:
    """Whether ``flat`` holds two NaNs, or both 0. and -0."""
    if np.count_nonzero(flat != flat) > 1:
        return True
    signs = np.signbit(flat[flat == 0])
    return bool(signs.any() and not signs.all())


def unique_slices(x: np.ndarray, axis: int) -> tuple:
    """``np.unique(x, axis=axis, return_inverse=True, return_counts=True)`` as PyTorch's
    unique_dim computes it, which matters where a slice holds a NaN: libstdc++'s
    ``std::sort`` of the slices, compared element by element with ``<`` and ``>``
    (``introsort``), then each run of equal slices kept once (a slice with a NaN equals
    none, not even itself)."""
    moved = np.moveaxis(x, axis, 0)
    rows = moved.reshape(len(moved), -1)

    def less(a, b) -> bool:
        for left, right in zip(a, b):
            if left < right:
                return True
            if left > right:
                return False
        return False

    order = np.array(introsort([tuple(row) for row in rows.tolist()], less), np.int64)
    ordered = rows[order]
    starts = np.ones(len(rows), bool)
    starts[1:] = [not np.array_equal(ordered[i], ordered[i - 1]) for i in range(1, len(rows))]
    inverse = np.empty(len(rows), np.int64)
    inverse[order] = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.flatnonzero(starts), len(rows)))
    return np.moveaxis(moved[order][starts], 0, axis), inverse, counts
