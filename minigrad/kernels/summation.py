"""Sums of float arrays added up in PyTorch's order, so that their last bits are
PyTorch's (``x.sum().item()`` and ``x.sum(0)`` print the same digits).

NumPy adds pairwise along a contiguous axis and one row after the other across
rows; PyTorch's CPU kernel (SumKernel.cpp, AVX2: vectors of 256 bits) does
neither. Its TensorIterator first orders the dimensions (the summed ones
innermost, then by stride) and merges the ones that are contiguous together;
then, for the two innermost dimensions, it picks one of four loops:

- a contiguous summed row: vectors of 4 doubles or 8 floats, four vectors side
  by side, each of those accumulators in a cascade of blocks of 16; then the
  leftover vectors, the four accumulators, the leftover elements and the lanes,
  one after the other;
- a summed dimension across contiguous columns: each column summed in the
  cascade (four vectors of columns at a time), the columns left over as above;
- the same two without vectors, for strided data.

Each result is then added into the output, which starts at 0, in the order the
iterator visits them. The results differ from NumPy's in the last bits for
most sums of 5 or more elements. ``sum_over`` follows that order for float32 and
float64 arrays of fewer than 32,768 elements (above that PyTorch splits the work
between threads) and returns ``None`` otherwise. A C-contiguous float32 array's whole
sum, and its sums along the last dim, are ``compiled.cascade_sum``'s at any size (the
same order; a whole sum of 32,768 elements or more in the shares PyTorch's threads
take, ``_float32_sum``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from . import compiled, threads
from .layout import sorted_dims

__all__ = ["cascade_sum", "sum_over", "sum_axes", "mean_axes", "prod_axis", "spread_axes",
           "spread", "spread_and_mean"]

_VECTOR_BYTES = 32  # AVX2
_ILP = 4  # accumulators side by side
_BLOCK = 16  # rows per block of the cascade (1 << level_power, 4 below 2 ** 20 rows)
_LEVELS = 4  # the cascade's accumulators: a block, 16 blocks, 256 blocks, the rest
_SERIAL_LIMIT = 32768  # at::internal::GRAIN_SIZE: above it, torch splits between threads
_ZERO = {"f": np.float32(0), "d": np.float64(0)}
_FIRST = {0}


def _in_order(rows: np.ndarray) -> np.ndarray:
    """0 + rows[0] + rows[1] + ..., one after the other. NumPy's reduce goes row after
    row when another axis is the inner loop (a smaller stride), but pairwise when
    axis 0 is; an accumulation is always in order."""
    if len(rows) < 2:
        return rows[0] + _ZERO[rows.dtype.char] if len(rows) else np.zeros(rows.shape[1:], rows.dtype)
    if rows.ndim > 1 and rows.shape[-1] > 1 and abs(rows.strides[-1]) < abs(rows.strides[0]):
        return np.add.reduce(rows, axis=0, initial=_ZERO[rows.dtype.char])
    return np.add.accumulate(rows, axis=0)[-1] + _ZERO[rows.dtype.char]  # (0 + -0 is 0)


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """torch's multi_row_sum down axis 0 of ``rows``, each of the other elements on its
    own: blocks of 16 rows summed in order, a block's sum added to the level above,
    every 16 of those to the next level; at the end the rows left, then the
    levels, one after the other."""
    if len(rows) < _BLOCK:
        return _in_order(rows)
    rest = len(rows) % _BLOCK
    total = _in_order(rows[len(rows) - rest:]) if rest else None
    sums = rows[:len(rows) - rest]
    for level in range(1, _LEVELS):
        count = len(sums) // _BLOCK
        sums = _in_order(sums[:count * _BLOCK].reshape(count, _BLOCK, *rows.shape[1:])
                         .swapaxes(0, 1))  # (the sums of the full blocks of this level)
        if level == _LEVELS - 1 or len(sums) < _BLOCK:
            break
        left = len(sums) % _BLOCK  # (what the level holds at the end)
        if left:
            held = _in_order(sums[len(sums) - left:])
            total = held if total is None else total + held
            sums = sums[:len(sums) - left]
    held = _in_order(sums)
    return held if total is None else total + held


def _row_sum(rows: np.ndarray) -> np.ndarray:
    """torch's row_sum down axis 0 of ``rows``: four accumulators side by side, the
    rows left over added to the first, then the other three to it."""
    size_ilp = len(rows) // _ILP
    if not size_ilp:
        return _in_order(rows)  # (0 + each row, + the three accumulators' 0s)
    partial = _multi_row_sum(rows[:size_ilp * _ILP].reshape(size_ilp, _ILP, *rows.shape[1:]))
    first = partial[0]
    for row in rows[size_ilp * _ILP:]:
        first = first + row
    for k in range(1, _ILP):
        first = first + partial[k]
    return first


def _inner_sum(rows: np.ndarray, lanes: int) -> np.ndarray:
    """torch's vectorized_inner_sum down axis 0 (contiguous, at least ``lanes`` long):
    the vectors' row_sum, then the elements left over, then the lanes."""
    vectors = len(rows) // lanes
    lane_sums = _row_sum(rows[:vectors * lanes].reshape(vectors, lanes, *rows.shape[1:]))
    total = np.zeros(rows.shape[1:], rows.dtype)
    for row in rows[vectors * lanes:]:
        total = total + row
    for lane in lane_sums:
        total = total + lane
    return total


def _columns_sum(rows: np.ndarray, group: int) -> np.ndarray:
    """torch's outer sums down axis 0, for the columns along axis 1: the first whole
    groups of ``group`` columns in multi_row_sum, the columns left in row_sum."""
    whole = rows.shape[1] // group * group
    if whole in (0, rows.shape[1]):
        return _multi_row_sum(rows) if whole else _row_sum(rows)
    return np.concatenate([_multi_row_sum(rows[:, :whole]), _row_sum(rows[:, whole:])])


def _kernel(rows: np.ndarray, strides: tuple[int, int], lanes: int) -> np.ndarray:
    """One call of torch's cascade_sum loop: ``rows`` (size0, size1, ...) summed down
    axis 0, by the loop torch picks from the two byte strides."""
    itemsize = rows.dtype.itemsize
    if strides[0] == itemsize and len(rows) >= lanes:
        return _inner_sum(rows, lanes)
    if strides[1] == itemsize and rows.shape[1] >= lanes:
        return _columns_sum(rows, _ILP * lanes)
    if strides[0] < strides[1]:
        return _row_sum(rows)
    return _columns_sum(rows, _ILP)


def _iterator_dims(array: np.ndarray, summed: set[int]) -> list[list]:
    """The dimensions of torch's TensorIterator for summing ``array`` over ``summed``,
    innermost first: [size, input byte stride, output byte stride, axes of ``array``]
    each, the output being the contiguous result, with stride 0 along the summed
    dimensions."""
    out_strides, step = [0] * array.ndim, array.dtype.itemsize
    for axis in reversed(range(array.ndim)):
        if axis not in summed:
            out_strides[axis] = step
            step *= array.shape[axis]
    dims = [[array.shape[axis], array.strides[axis], out_strides[axis], [axis]]
            for axis in range(array.ndim)]

    def should_swap(axis0: int, axis1: int) -> int:  # (TensorIterator::reorder_dimensions)
        first, second = dims[axis0], dims[axis1]
        if (first[2] == 0) != (second[2] == 0):
            return 1 if second[2] == 0 else -1  # the summed dimensions first
        for stride0, stride1 in ((first[2], second[2]), (first[1], second[1])):
            if stride0 == 0 or stride1 == 0:
                continue
            if stride0 != stride1:
                return -1 if stride0 < stride1 else 1
            if first[0] > second[0]:
                return 1
        return 0

    dims = [dims[axis] for axis in sorted_dims(array.ndim, should_swap) if dims[axis][0] != 1]
    merged = dims[:1]
    for size, stride, out, axes in dims[1:]:  # (coalesce_dimensions, the size-1 ones gone)
        last = merged[-1]
        if last[0] * last[1] == stride and last[0] * last[2] == out:
            merged[-1] = [last[0] * size, last[1], last[2], last[3] + axes]
        else:
            merged.append([size, stride, out, axes])
    return merged


def sum_over(array: np.ndarray, axes) -> np.ndarray | None:
    """``array`` summed over ``axes`` (keeping them, with size 1) in PyTorch's order,
    or None where that order is not followed here."""
    dtype = array.dtype
    if dtype.char not in "fd" or not 0 < array.size < _SERIAL_LIMIT \
            or any(stride <= 0 for stride, size in zip(array.strides, array.shape) if size > 1):
        return None
    summed = {axis % array.ndim for axis in axes} if array.ndim else set()
    lanes = _VECTOR_BYTES // dtype.itemsize
    if summed == _FIRST and array.ndim == 2 and array.flags.c_contiguous \
            and array.shape[0] > 1 and array.shape[1] >= lanes:
        # (the usual case, a bias's gradient: the rows of a matrix summed; the
        # iterator's two dimensions are the matrix's, and its loop the columns')
        return _columns_sum(array, _ILP * lanes).reshape(1, -1)
    shape = tuple(1 if axis in summed else size for axis, size in enumerate(array.shape))
    dims = _iterator_dims(array, summed)
    if not dims or dims[0][2] != 0:  # nothing summed: torch adds each element to 0
        return np.add(array, dtype.type(0)).reshape(shape)
    if len(dims) == 1:
        dims.append([1, 0, 0, []])
    # A view with the iterator's dimensions as axes 0, 1, 2, ... (innermost first).
    order = [axis for dim in reversed(dims) for axis in reversed(dim[3])]
    if len(order) < array.ndim or order != sorted(order):
        order += [axis for axis in range(array.ndim) if axis not in order]  # (size-1 ones)
        array = array.transpose(order)
    rows = array.reshape([dim[0] for dim in reversed(dims)]).T
    results = _kernel(rows, (dims[0][1], dims[1][1]), lanes)
    # results[j, k2, k3, ...] are added into the output as the iterator visits them:
    # the summed dimensions among 1, 2, ... with dimension 1 fastest. The kept
    # dimensions are the output's, innermost first (it is contiguous).
    outer = sum(1 for dim in dims[1:] if dim[2] == 0)
    if outer > 1:
        results = results.transpose([*range(outer - 1, -1, -1), *range(outer, results.ndim)])
    if outer:
        results = _in_order(results.reshape(-1, *results.shape[outer:]))
    return results.T.reshape(shape)  # (0 + each result: the same, none is -0)


def cascade_sum(array: np.ndarray):
    """The sum of every element of ``array`` in PyTorch's order (a NumPy scalar of its
    dtype), or None where that order is not followed here."""
    if _compiled_run(array):
        return _float32_sum(array.reshape(-1))
    if array.flags.c_contiguous and array.dtype.char in "fd" and 1 < array.size < _SERIAL_LIMIT:
        flat = array.reshape(-1)  # (the usual case, one contiguous row: the loop directly)
        lanes = _VECTOR_BYTES // array.itemsize
        return _inner_sum(flat, lanes) if flat.size >= lanes else _row_sum(flat)
    total = sum_over(array, range(array.ndim))
    return None if total is None else total.reshape(())[()]


def _compiled_run(array: np.ndarray) -> bool:
    """A C-contiguous float32 array of at least one vector of 8, where the compiled loop
    is there (``compiled.cascade_sum``: PyTorch's loop, at any size)."""
    return (compiled.AVAILABLE and array.dtype.char == "f" and array.size >= 8
            and array.flags.c_contiguous)


def _float32_sum(flat: np.ndarray):
    """PyTorch's float32 sum of a contiguous run. On ``get_num_threads()`` threads, from
    ``_SERIAL_LIMIT`` elements on, PyTorch gives each thread an equal share (at least that
    many elements each) to sum into a slot of its own, then sums the slots
    (two_pass_reduction): the same shares here, so the bits PyTorch gives on as many
    threads, summed one after the other (0.06 ms per million elements)."""
    count = threads.get_num_threads()
    if flat.size < _SERIAL_LIMIT or count == 1:
        return np.float32(compiled.cascade_sum(flat))  # (numba hands back a Python float)
    used = min(count, -(-flat.size // _SERIAL_LIMIT))
    share = -(-flat.size // used)
    slots = np.zeros(count, np.float32)
    for slot in range(used):
        slots[slot] = compiled.cascade_sum(flat[slot * share:(slot + 1) * share])
    return cascade_sum(slots)


def _float32_rows(array: np.ndarray, axes):
    """The sums along the last axes (``axes``: one or several, all the last ones) of a
    C-contiguous float32 array whose rows hold 8 or more elements, kept as axes of 1,
    each row added up by the compiled loop (PyTorch's threads take whole rows: the same
    bits on any number), or the whole sum where there is one row; None elsewhere."""
    if not (_compiled_run(array) and array.ndim):
        return None
    summed = {axis % array.ndim for axis in axes}
    kept = array.ndim - len(summed)
    # (the last dims summed together: PyTorch's iterator merges them into one contiguous
    # row; a mean over (1, 2, 3) of 100,352 elements took NumPy's sum: 23 % of PyTorch's
    # bits, found by op_bisect in course22p2's initializing notebook)
    if summed != set(range(kept, array.ndim)) or math.prod(array.shape[kept:]) < 8:
        return None
    rows = array.reshape(-1, math.prod(array.shape[kept:]))
    shape = (*array.shape[:kept], *(1,) * len(summed))
    if len(rows) == 1:
        return np.full(shape, _float32_sum(rows[0]), np.float32)
    out = np.empty(len(rows), np.float32)
    compiled.cascade_sum_rows(out, rows)
    return out.reshape(shape)


def sum_all(x: np.ndarray):
    """The sum of every element of the array ``x``, in its dtype (``x.sum()``'s forward).

    For a big float array, NumPy's own sum (pairwise, one element after the
    other) runs about 5 times slower than memory allows. So the elements are
    laid out as at most 256 rows, the rows added together (vectorised), and
    the one row left summed pairwise: as accurate for any size (each column adds
    at most 256 numbers), and bound by memory, as PyTorch's sum is."""
    if x.dtype == np.float16:  # (PyTorch adds halves up in float32, rounds once)
        return sum_all(x.astype(np.float32)).astype(np.float16)
    if (x.size < _NUMPY_SUM_BELOW or x.dtype.kind != "f" or not x.flags.c_contiguous
            or _compiled_run(x)):
        exact = cascade_sum(x)  # (torch's order, so torch's last bits, where it applies)
        return np.sum(x, dtype=x.dtype) if exact is None else exact
    flat = x.reshape(-1)
    width = max(4096, -(-x.size // 256))
    rows = x.size // width
    head = np.add.reduce(flat[:rows * width].reshape(rows, width), axis=0)
    return np.sum(head, dtype=x.dtype) + np.sum(flat[rows * width:], dtype=x.dtype)


_NUMPY_SUM_BELOW = 1 << 16  # (below this, NumPy's own sum is as fast)


def sum_axes(array: np.ndarray, axes, keepdims: bool = False) -> np.ndarray:
    """``np.sum(array, axes, keepdims=keepdims)`` in ``array``'s dtype, added up in
    PyTorch's order where ``sum_over`` follows it (``axes``: an int or a tuple)."""
    axes = (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)
    if array.dtype == np.float16:  # (PyTorch adds halves up in float32, rounds once)
        return sum_axes(array.astype(np.float32), axes, keepdims).astype(np.float16)
    exact = _float32_rows(array, axes)
    if exact is None:
        exact = sum_over(array, axes)
    if exact is None:
        return np.asarray(np.sum(array, axis=axes, keepdims=keepdims, dtype=array.dtype))
    if keepdims:
        return exact
    gone = {axis % array.ndim for axis in axes}
    return exact.reshape([size for axis, size in enumerate(array.shape) if axis not in gone])


def mean_all(array: np.ndarray) -> np.ndarray:
    """The mean of every element as PyTorch's CPU mean computes it: its sum (in its order,
    where ``cascade_sum`` follows it), divided by n; a half's in float32, rounded once."""
    if array.size == 0:
        return np.array(np.nan, array.dtype)  # the mean of nothing (NumPy would warn)
    if array.dtype == np.float16:
        return np.asarray(mean_all(array.astype(np.float32)).astype(np.float16))
    total = cascade_sum(array)
    if total is not None:
        return np.asarray(np.divide(total, array.size, dtype=array.dtype))
    return np.asarray(np.mean(array, dtype=array.dtype))


def mean_axes(array: np.ndarray, axes, keepdims: bool = False) -> np.ndarray:
    """The mean over ``axes`` (an int or a tuple) as PyTorch's CPU mean computes it:
    ``sum_axes``, then divided by the number of elements summed, in ``array``'s dtype."""
    axes = (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)
    count = math.prod(array.shape[axis] for axis in axes)
    if array.dtype == np.float16:  # (the float32 sum divided, then rounded once)
        wide = sum_axes(array.astype(np.float32), axes, keepdims)
        return np.asarray(np.divide(wide, count, dtype=np.float32).astype(np.float16))
    return np.asarray(np.divide(sum_axes(array, axes, keepdims), count, dtype=array.dtype))


# ---- products (ReduceOpsKernel.cpp's prod: binary_kernel_reduce_vec) -----------------

def _row_products(rows: np.ndarray) -> np.ndarray:
    """Each row's product (rows: (R, n), its own dim contiguous) as PyTorch's
    vectorized_inner_reduction multiplies it: four vectors side by side take the
    blocks of 4 * lanes elements, one block after the other; then the four vectors
    (0 * 1) * (2 * 3), their lanes one after the other, and the leftover elements."""
    lanes = _VECTOR_BYTES // rows.itemsize
    width = _ILP * lanes
    count = rows.shape[1] // width
    out = np.ones(rows.shape[0], rows.dtype)
    if count:
        blocks = rows[:, :count * width].reshape(rows.shape[0], count, _ILP, lanes)
        acc = blocks[:, 0].copy()
        for i in range(1, count):
            acc = acc * blocks[:, i]
        acc = (acc[:, 0] * acc[:, 1]) * (acc[:, 2] * acc[:, 3])
        for j in range(lanes):
            out = out * acc[:, j]
    for k in range(count * width, rows.shape[1]):
        out = out * rows[:, k]
    return out


def _dense(array: np.ndarray) -> bool:
    """Whether ``array``'s elements fill its memory, in some order of its dims (the
    iterator then merges them all into one run)."""
    expected = array.itemsize
    for stride, size in sorted((st, n) for st, n in zip(array.strides, array.shape) if n > 1):
        if stride != expected:
            return False
        expected *= size
    return True


def prod_axis(array: np.ndarray, axis=None, keepdims: bool = False) -> np.ndarray:
    """``np.prod(array, axis)`` in ``array``'s dtype, multiplied in PyTorch's order for
    float16/32/64 arrays of fewer than 32,768 elements: a contiguous run (every element
    of a dense array, or a dim of stride 1) as ``_row_products``; other dims one element
    after the other (NumPy multiplies 8 at a time side by side: other last bits)."""
    if array.dtype.char not in "efd" or not 1 < array.size < _SERIAL_LIMIT \
            or any(stride <= 0 for stride, size in zip(array.strides, array.shape) if size > 1):
        return np.asarray(np.prod(array, axis=axis, keepdims=keepdims, dtype=array.dtype))
    if axis is None:
        flat = array.ravel(order="K")
        total = _row_products(flat[None])[0] if _dense(array) else np.multiply.accumulate(flat)[-1]
        return np.asarray(total).reshape((1,) * array.ndim if keepdims else ())
    run = np.moveaxis(array, axis, -1)
    if array.strides[axis] == array.itemsize:
        result = _row_products(run.reshape(-1, run.shape[-1])).reshape(run.shape[:-1])
    else:
        result = np.multiply.accumulate(run, axis=-1)[..., -1] if run.shape[-1] else \
            np.ones(run.shape[:-1], array.dtype)
    return np.expand_dims(result, axis) if keepdims else result


# ---- var and std (ReduceOps.cpp: std_var_all_cpu; WelfordOps) -------------------------

def _welford(rows: np.ndarray, correction: float):
    """Each row's (var, mean) as PyTorch's WelfordOps: in float64, one element after the
    other (mean += delta / n; m2 += delta * (x - mean)), var = m2 / (n - correction)."""
    mean = np.zeros(rows.shape[0])
    m2 = np.zeros(rows.shape[0])
    for i in range(rows.shape[1]):
        x = rows[:, i].astype(np.float64)
        delta = x - mean
        mean = mean + delta / np.float64(i + 1)
        m2 = m2 + delta * (x - mean)
    n = rows.shape[1]
    return m2 / np.float64(n - correction if n > correction else 0), mean


def spread_axes(array: np.ndarray, axes, correction: float, keepdims: bool, root: bool,
                with_mean: bool):
    """var (``root``: std) over ``axes`` (None: all) as PyTorch's CPU kernels compute it,
    and (``with_mean``) the mean, both in ``array``'s dtype; None where their order is not
    followed here (an empty reduction, 32,768 elements or more, negative strides).

    A float32/float64 var or std with one output element takes two passes: the mean
    (torch's own, in the array's dtype), then the squared deviations from it summed in
    float64 one after the other. Every other one (more outputs, float16, var_mean and
    std_mean) is Welford's update in float64, element after element in memory order."""
    axes = tuple(range(array.ndim)) if axes is None else \
        tuple(sorted({axis % array.ndim for axis in ((axes,) if np.ndim(axes) == 0 else axes)}))
    n = math.prod(array.shape[axis] for axis in axes)
    if not 0 < n < _SERIAL_LIMIT or array.dtype.char not in "efd" or \
            any(stride <= 0 for stride, size in zip(array.strides, array.shape) if size > 1):
        return None
    kept = [axis for axis in range(array.ndim) if axis not in axes]
    shape = [1 if axis in axes else size for axis, size in enumerate(array.shape)]
    if not with_mean and array.dtype.char in "fd" and math.prod(array.shape[a] for a in kept) == 1:
        mean = np.float64(mean_all(array))
        squares = (array.ravel(order="K").astype(np.float64) - mean) ** 2
        divisor = max(0.0, array.size - correction)
        with np.errstate(divide="ignore", invalid="ignore"):
            spread = np.add.accumulate(squares)[-1] / np.float64(divisor)
        spread = np.full(shape, spread)
    else:
        inner = sorted(axes, key=lambda axis: -array.strides[axis])  # (memory order)
        rows = array.transpose(kept + inner).reshape(-1, n)
        with np.errstate(divide="ignore", invalid="ignore"):
            spread, mean = _welford(rows, correction)
        spread, mean = spread.reshape(shape), mean.reshape(shape)
    if root:
        spread = np.sqrt(spread)
    results = [spread, mean] if with_mean else [spread]
    if not keepdims:
        results = [r.reshape([array.shape[axis] for axis in kept]) for r in results]
    if array.dtype == np.float16:  # (torch computes a half's in float, rounds twice)
        results = [r.astype(np.float32) for r in results]
    with np.errstate(over="ignore"):  # (past a half's range: inf, as torch's cast, silently)
        return [np.asarray(r.astype(array.dtype)) for r in results]


def spread(array: np.ndarray, axes, correction: float, keepdims: bool, root: bool) -> np.ndarray:
    """var (``root``: std) of ``array`` over ``axes`` (None: all) in PyTorch's order
    (``spread_axes``), or where that is not followed here, NumPy's in float64, rounded
    once."""
    ordered = spread_axes(array, axes, correction, keepdims, root, with_mean=False)
    if ordered is not None:
        return ordered[0]
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (NumPy's own degrees-of-freedom one)
        value = (np.std if root else np.var)(_accumulated(array), axis=axes, ddof=correction,
                                             keepdims=keepdims)
    return np.asarray(value, dtype=array.dtype)


def spread_and_mean(array: np.ndarray, axes, correction: float, keepdims: bool,
                    root: bool) -> list:
    """var (``root``: std) and mean of ``array`` over ``axes``, both accumulated in float64
    (for float16 and float32) and rounded once, as PyTorch's CPU kernel computes them
    (``spread_axes``; else NumPy's in float64)."""
    ordered = spread_axes(array, axes, correction, keepdims, root, with_mean=True)
    if ordered is not None:
        return ordered
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        wide = _accumulated(array)
        value = np.var(wide, axis=axes, ddof=correction, keepdims=keepdims)
        return [np.asarray(np.sqrt(value) if root else value, array.dtype),
                np.asarray(np.mean(wide, axis=axes, keepdims=keepdims), array.dtype)]


def _accumulated(array: np.ndarray) -> np.ndarray:
    """``array`` in the type PyTorch's var and std accumulate in on the CPU: float64 for
    float16 and float32."""
    return array.astype(np.float64) if array.dtype.itemsize < 8 else array
