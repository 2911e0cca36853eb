"""Threads: ``get_num_threads`` / ``set_num_threads`` (PyTorch's), and the big
kernels that use them.

NumPy computes a ufunc on one core. It lets go of the GIL while it loops, so
the parts of a big array can be computed at the same time by threads:
``call(np.tanh, x)`` cuts ``x`` into a few slices per thread, and each thread
takes the next slice not taken yet and writes it into one result (so a thread
that wakes late, or waits for a core on a busy machine, simply does fewer:
the caller never waits for more than the one slice a helper is working on).
Each element is computed by the same kernel either way, so the result
has exactly the bits of ``np.tanh(x)``.

One mechanism serves every kernel: ``parts`` hands a kernel of several steps
(``1 / (1 + exp(-x))``) the same slice of each of its arrays, and ``rows``
hands it blocks of whole rows, for kernels that reduce along the last axis
(a softmax's sums: each row is added up by one thread, in the order NumPy
adds it up in one call, so a sum has the same bits too), and ``columns``
blocks of whole columns, for kernels that reduce along another axis. A reduction is never
added up in parts: that would round differently. Within its part, a kernel
runs on slices of ``_CACHED`` elements, one after the other, so that the
arrays of one step are still in the core's cache for the next.

Only arrays of at least ``BIG`` elements (2**18) are split: handing slices to
waiting threads and collecting them costs some 10 to 50 µs of Python, and an
elementwise kernel takes between 0.2 ns (a product, bound by memory) and
10 ns (a float64 sine) per element on one core, so for smaller arrays the
hand-over would eat what the other cores save. (PyTorch splits from 32,768
elements: its hand-over is C++.) The threads are daemons, made on first use;
between calls they sleep on a queue (they do not spin).
"""

from __future__ import annotations

import builtins
import contextvars
import itertools
import os
import queue
import threading

import numpy as np

from .. import errors

__all__ = ["get_num_threads", "set_num_threads", "call", "parts", "rows", "columns", "BIG"]

BIG = 1 << 18  # elements


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on Linux)
        return os.cpu_count() or 1


_num_threads = _cores()


def get_num_threads() -> int:
    """The number of threads a big elementwise kernel runs on (one per core by
    default, as in PyTorch; small tensors always use one).

    >>> import minigrad as torch
    >>> torch.get_num_threads() >= 1
    True
    """
    return _num_threads


def set_num_threads(int) -> None:  # noqa: A002  (the parameter's name is PyTorch's)
    """Run big elementwise kernels on ``int`` threads (1: NumPy's own single
    thread). PyTorch's rule and errors: a positive ``int``."""
    global _num_threads
    num = int
    if not isinstance(num, (builtins.int, np.integer)) or isinstance(num, bool):
        raise RuntimeError(errors.NUM_THREADS_NOT_INT.format(type(num).__name__))
    if num <= 0:
        raise RuntimeError(errors.NUM_THREADS_NOT_POSITIVE)
    _num_threads = builtins.int(num)


def call(ufunc, *operands, out=None, **options):
    """``ufunc(*operands, out=out, **options)`` for an elementwise ufunc that
    keeps a float dtype (``np.tanh``, ``np.multiply``, ...), split across
    ``get_num_threads()`` threads when the result is big and simply laid out
    (see ``parts``); else NumPy's own call."""
    if _num_threads > 1:
        kernel = lambda target, *sources: ufunc(*sources, out=target, **options)  # noqa: E731
        result = parts(kernel, out, *operands)
        if result is not None:
            return result
        if out is None and _transposed(operands):
            # (NumPy lays the result out as the operands, column-major: computed on
            # their transposes, which are row-major, and transposed back)
            result = parts(kernel, None, *[operand.T if type(operand) is np.ndarray
                                           else operand for operand in operands])
            if result is not None:
                return result.T
    return ufunc(*operands, **options) if out is None else ufunc(*operands, out=out, **options)


def _transposed(operands) -> bool:
    """Whether every array operand is column-major and not row-major (a transposed
    matrix)."""
    arrays = [operand for operand in operands if type(operand) is np.ndarray and operand.ndim]
    return bool(arrays) and all(array.flags.f_contiguous and not array.flags.c_contiguous
                                for array in arrays)


def parts(kernel, out, *operands, split=True):
    """Run ``kernel(out, *operands)``, an elementwise computation writing into
    ``out``, in parts: each part gets the same slice of ``out`` and of every
    operand. ``split=True``: the parts on ``get_num_threads()`` threads (with
    one thread: one after the other on this one); ``split=False``: on this
    thread only, for a kernel of several steps that is bound by memory
    (``1 - y * y``, two products of one gradient): a part's arrays are still in
    the core's cache for the next step. (A second core adds little to what one
    core reads and writes per second here, and calling it costs more than the
    cache saves: see ``BIG``.) Returns ``out`` (made here when None), or None
    when the arrays are not split (fewer than ``BIG`` elements, or a layout
    this does not handle): then the caller computes it its own way.

    Split only when NumPy's single call would lay the result out C-contiguous
    and walk every operand in the same order: every array operand has the
    result's shape and is C-contiguous or all stride 0 (an expanded number), or
    is 0-dim; numbers are Python floats or ints; one float dtype throughout.
    ``out``, when given, must be such an array, and may be an operand only as
    the very same array (an in-place sum), never a shifted view of one. (A
    kernel may also write a second result into one of its operands: each part
    sees only its own slice of it, e.g. MulBackward0's two products.) The
    parts' bounds are multiples of 4096 elements, so a SIMD kernel meets the
    same alignment in every part as in the whole."""
    found = _views(operands, _flat)
    if found is None:
        return None
    shape, dtype, size, flat = found
    out = _output(out, shape, dtype, flat)
    if out is None:
        return None
    target = out.reshape(-1)

    def part(start, stop):
        kernel(target[start:stop], *[operand[start:stop] if sliced else operand
                                     for operand, sliced in flat])
    _in_parts(part, size, 1, split)
    return out


def rows(kernel, out, *operands, split=True):
    """Run ``kernel(out, *operands)``, a computation along the last axis (each
    row of ``out`` made from the same row of each operand, a softmax's say),
    in blocks of whole rows: each block gets the same rows of ``out`` and of
    every operand, as 2-dim arrays (rows, last axis). ``split`` as in
    ``parts``. Returns ``out`` (made here, C-contiguous, when None; when given,
    it may also have a last axis of 1: one number per row, a reduction's), or
    None when the arrays are not split (fewer than ``BIG`` elements, or a
    layout this does not handle).

    Every array operand has the first one's shape and float dtype (or is 0-dim,
    of that dtype; numbers are Python floats or ints) and is seen as (rows, last
    axis) without a copy: C-contiguous, or expanded (stride 0) along some axes,
    the last axis contiguous or stride 0. NumPy then walks
    each row of a block as it walks that row in one call over the whole array,
    so a sum along a row adds up the same numbers in the same order. ``out``,
    when given, is C-contiguous and no operand's memory."""
    found = _views(operands, _as_rows)
    if found is None:
        return None
    shape, dtype, size, blocks = found
    width = shape[-1]
    out = _output(out, shape if out is None or out.shape[-1] != 1 else (*shape[:-1], 1),
                  dtype, blocks)
    if out is None:
        return None
    target = out.reshape(-1, out.shape[-1])

    def part(start, stop):
        kernel(target[start:stop], *[operand[start:stop] if sliced else operand
                                     for operand, sliced in blocks])
    _in_parts(part, size // width, width, split)
    return out


def columns(kernel, out, *operands, dim: int, split=True):
    """Run ``kernel(out, *operands)``, a computation along axis ``dim``, not the last
    (a softmax along dim 0 of (N, C)), in blocks of whole columns: each array seen
    as (outer, n, inner) with n along ``dim``, each block gets the same
    ``[o, :, a:b]`` of ``out`` and of every operand, a 2-dim (n, b - a) array to
    reduce along its first axis. NumPy adds such a block up one row after the
    other, as it adds up the whole array along ``dim``, so a sum has the same bits.
    Returns ``out`` (made here, C-contiguous; ``out`` must be None), or None when
    the arrays are not split: fewer than ``BIG`` elements, fewer than
    ``_COLUMNS`` columns (narrower blocks would be walked along ``dim`` instead),
    or an operand that is not C-contiguous, of the first one's shape and float
    dtype."""
    first = operands[0]
    if out is not None or first.size < BIG or first.dtype.kind != "f" or any(
            type(array) is not np.ndarray or array.shape != first.shape
            or array.dtype != first.dtype or not array.flags.c_contiguous
            for array in operands):
        return None
    shape, dim = first.shape, dim % first.ndim
    outer, length, inner = 1, shape[dim], first.size // max(1, shape[dim])
    for size in shape[:dim]:
        outer *= size
    inner //= outer
    if inner < _COLUMNS:
        return None
    out = np.empty(shape, first.dtype)
    views = [array.reshape(outer, length, inner) for array in (out, *operands)]
    width = max(_COLUMNS, -(-_CACHED // length) // _COLUMNS * _COLUMNS)
    starts = range(0, inner, width)
    blocks = [(o, start, min(inner, start + width)) for o in range(outer) for start in starts]

    def part(first_block, stop):
        for o, start, end in blocks[first_block:stop]:
            kernel(*[view[o, :, start:end] for view in views])
    _in_parts(part, len(blocks), length * width, split)
    return out


_COLUMNS = 64  # (columns in a block, at least)


def _views(operands, view):
    """What ``parts`` and ``rows`` split: (shape, dtype, size, [(operand, sliced)])
    where the first array operand that is not 0-dim has a float dtype and at least
    ``BIG`` elements, and every other array operand has its dtype and (unless
    0-dim) its shape, seen through ``view(array, size)`` (sliced: True; a number or
    a 0-dim array: False, handed to every part as it is). None where not: a
    number that is not a Python float or int, or an array ``view`` cannot take."""
    shape = dtype = None
    for operand in operands:
        if type(operand) is np.ndarray and operand.ndim:
            shape, dtype = operand.shape, operand.dtype
            break
    if shape is None or dtype.kind != "f":
        return None
    size = 1
    for length in shape:
        size *= length
    if size < BIG:
        return None
    views = []
    for operand in operands:
        if type(operand) is np.ndarray:
            if operand.dtype != dtype:
                return None
            if operand.ndim:
                if operand.shape != shape:
                    return None
                operand = view(operand, size)
                if operand is None:
                    return None
                views.append((operand, True))
                continue
        elif type(operand) not in (float, int):
            return None
        views.append((operand, False))
    return shape, dtype, size, views


def _flat(array, size):
    """``array`` as a 1-dim view, where it is C-contiguous or all stride 0 (an
    expanded number: stride 0 stays stride 0); else None."""
    if array.flags.c_contiguous or not any(array.strides):
        return array.reshape(-1)
    return None


def _as_rows(array, size):
    """``array`` as a (rows, last axis) view, or None where that needs a copy or
    the last axis is neither contiguous nor stride 0."""
    if array.strides[-1] not in (0, array.itemsize):
        return None
    try:
        return np.reshape(array, (size // array.shape[-1], array.shape[-1]), copy=False)
    except ValueError:  # (no view has that shape)
        return None


def _output(out, shape, dtype, operands):
    """``out``, or a new C-contiguous array of ``shape`` when None; None when
    ``out`` cannot take the parts (not such an array, or the memory of an
    operand other than that very array)."""
    if out is None:
        return np.empty(shape, dtype)
    if (type(out) is not np.ndarray or out.shape != shape or out.dtype != dtype
            or not out.flags.c_contiguous or not out.flags.writeable):
        return None
    address = out.__array_interface__["data"][0]
    for operand, sliced in operands:
        if sliced and np.may_share_memory(operand, out) and (
                operand.__array_interface__["data"][0] != address or not operand.strides[0]):
            return None
    return out


def _in_parts(part, count, width, split) -> None:
    """``part(start, stop)`` over ``count`` items of ``width`` elements each: in
    parts on the threads (``split``, more than one thread), else one after the
    other on this thread. Either way a part is done in slices of about
    ``_CACHED`` elements, whole items each."""
    step = max(1, _CACHED // width)

    def cached(start, stop):
        for first in range(start, stop, step):
            part(first, min(stop, first + step))
    if split and _num_threads > 1:
        if width == 1:
            bounds = _bounds(count, _num_threads)
        else:
            bounds = _bounds(count, _num_threads, align=1, least=-(-_CHUNK // width))
        _run(cached, bounds)
    else:
        cached(0, count)


def _bounds(size: int, threads: int, align: int = 0, least: int = 0) -> list:
    """The parts of ``size`` items for ``threads`` threads, [(start, stop), ...].

    The parts are taken by whichever thread is free, so that a thread that starts
    late (a sleeping thread wakes some 10 to 200 µs after it is called) or is held
    up by other work does fewer. None is bigger than 1 / (_PER_THREAD * threads) of
    the whole (a thread that shares its core with another program holds the others
    up by at most one part), and the last ones get smaller (each a quarter of what
    is left for two threads, as in OpenMP's guided schedule), so that the threads
    finish close together (the caller waits for the last one). Each is at least
    ``least`` items (_CHUNK elements: a part costs some µs of Python), and a
    multiple of ``align`` (_ALIGN elements) but for the last."""
    align, least = align or _ALIGN, least or _CHUNK
    largest = -(-size // (_PER_THREAD * threads * align)) * align
    bounds, start = [], 0
    while start < size:
        left = -(-(size - start) // (_GUIDED * threads * align)) * align
        step = max(least, min(largest, left))
        bounds.append((start, min(size, start + step)))
        start += step
    return bounds


_ALIGN = 4096  # elements
_CACHED = 32 * _ALIGN  # (elements in a slice of a part: an array's slice fits in L2)
_PER_THREAD = 4  # (no part bigger than 1 / (_PER_THREAD * threads) of the whole)
_GUIDED = 2  # (nor than 1 / (_GUIDED * threads) of what is left)
_CHUNK = 16 * _ALIGN


def _run(part, bounds) -> None:
    """``part(start, stop)`` for each of ``bounds``, on this thread and the pool's
    threads: each takes the next part not taken yet, until none is left; back when
    all are done. A pool thread runs them in a copy of the caller's context
    (NumPy's error state, which minigrad sets so that inf and nan come silently,
    lives there). Without threads (a sandbox's limit, or at exit) this thread does
    them all."""
    job = _Job(part, bounds)
    for _ in range(min(_num_threads, len(bounds)) - 1):
        try:
            _submit(contextvars.copy_context(), job)
        except RuntimeError:  # (no thread may start here)
            break
    job.work()
    job.wait()


class _Job:
    """Parts of one kernel, taken one at a time by the threads that work on it.
    (``next`` on an ``itertools.count`` is one step under the GIL, so no two
    threads take the same part, and exactly one thread finishes the last.)"""

    __slots__ = ("part", "bounds", "taken", "finished", "done", "errors")

    def __init__(self, part, bounds) -> None:
        self.part, self.bounds = part, bounds
        self.taken, self.finished = itertools.count(), itertools.count(1)
        self.done = threading.Lock()
        self.done.acquire()  # (released when the last part is finished)
        self.errors: list = []

    def work(self) -> None:
        bounds, count = self.bounds, len(self.bounds)
        for index in self.taken:
            if index >= count:
                return
            try:
                self.part(*bounds[index])
            except BaseException as error:  # (raised on the caller's thread)
                self.errors.append(error)
            if next(self.finished) == count:
                self.done.release()

    def wait(self) -> None:
        self.done.acquire()  # (at once when every part is finished)
        # The kernel's arrays are let go now, on this thread, in the order the
        # caller lets go of its own (not whenever a helper lets go of the job).
        self.part = None
        if self.errors:
            raise self.errors[0]


_pool = {"pid": None, "tasks": None, "threads": 0}


def _submit(context, job) -> None:
    """Call one waiting thread to work on ``job`` (made the first time, and again
    in a forked child, whose parent's threads did not come along)."""
    if _pool["pid"] != os.getpid():
        _pool.update(pid=os.getpid(), tasks=queue.SimpleQueue(), threads=0)
    if _pool["threads"] < _num_threads - 1:
        threading.Thread(target=_work, args=(_pool["tasks"],), daemon=True,
                         name=f"minigrad-kernel-{_pool['threads']}").start()
        _pool["threads"] += 1
    _pool["tasks"].put((context, job))


def _work(tasks: queue.SimpleQueue) -> None:
    while True:
        context, job = tasks.get()
        context.run(job.work)
        del context, job  # (a waiting thread keeps no array of the last job alive)
