"""Threads: ``get_num_threads`` / ``set_num_threads`` (PyTorch's), and the big
elementwise kernels that use them.

NumPy computes a ufunc on one core. It lets go of the GIL while it loops, so
the parts of a big array can be computed at the same time by threads:
``call(np.tanh, x)`` cuts ``x`` into a few slices per thread, and each thread
takes the next slice not taken yet and writes it into one result (so a thread
that wakes late, or waits for a core on a busy machine, simply does fewer:
the caller never waits for more than the one slice a helper is working on).
Each element is computed by the same kernel either way, so the result
has exactly the bits of ``np.tanh(x)``. Only work done element by element is
split (``call``, ``parts``), never a reduction (a sum added up in parts would
round differently).

Only arrays of at least ``BIG`` elements (2**18) are split: handing slices to
waiting threads and collecting them costs some 10 to 50 µs of Python, and an
elementwise kernel takes between 0.2 ns (a product, bound by memory) and 3 ns
(tanh) per element on one core, so for smaller arrays the hand-over would eat
what the other cores save. (PyTorch splits from 32,768 elements: its hand-over
is C++.) The threads are daemons, made on first use; between calls they sleep
on a queue (they do not spin).
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

__all__ = ["get_num_threads", "set_num_threads", "call", "parts", "BIG"]

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
        result = parts(lambda target, *sources: ufunc(*sources, out=target, **options),
                       out, *operands)
        if result is not None:
            return result
    return ufunc(*operands, **options) if out is None else ufunc(*operands, out=out, **options)


def parts(kernel, out, *operands, split=True):
    """Run ``kernel(out, *operands)``, an elementwise computation writing into
    ``out``, in parts on ``get_num_threads()`` threads: each part gets the same
    slice of ``out`` and of every operand. Returns ``out`` (made here when
    None), or None when the arrays are not split (too small, one thread, or a
    layout this does not handle): then the caller computes it its own way.

    ``split=False``: the parts one after the other on this thread only (also
    with one thread), for a kernel of several steps that is bound by memory
    (``1 - y * y``, two products of one gradient): a part's arrays are still in
    the core's cache for the next step. (A second core adds little to what one
    core reads and writes per second here, and calling it costs more than the
    cache saves: see ``BIG``.)

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
    threads = _num_threads
    shape = dtype = None
    for operand in operands:
        if type(operand) is np.ndarray and operand.ndim:
            shape, dtype = operand.shape, operand.dtype
            break
    if (threads < 2 and split) or shape is None or dtype.kind != "f":
        return None
    size = 1
    for length in shape:
        size *= length
    if size < BIG:
        return None
    flat = []
    for operand in operands:
        if type(operand) is np.ndarray:
            if operand.dtype != dtype:
                return None
            if operand.ndim:
                if operand.shape != shape or not (operand.flags.c_contiguous
                                                  or not any(operand.strides)):
                    return None
                operand = operand.reshape(-1)  # (a view: stride 0 stays stride 0)
                flat.append((operand, True))
                continue
        elif type(operand) not in (float, int):
            return None
        flat.append((operand, False))
    if out is None:
        out = np.empty(shape, dtype)
    elif (type(out) is not np.ndarray or out.shape != shape or out.dtype != dtype
          or not out.flags.c_contiguous or not out.flags.writeable):
        return None
    else:
        address = out.__array_interface__["data"][0]
        for operand, sliced in flat:
            if sliced and np.may_share_memory(operand, out) and (
                    operand.__array_interface__["data"][0] != address or not operand.strides[0]):
                return None
    target = out.reshape(-1)

    def part(start, stop):
        kernel(target[start:stop], *[operand[start:stop] if sliced else operand
                                     for operand, sliced in flat])
    if split:
        _run(part, _bounds(size, threads))
    else:
        for start in range(0, size, _CACHED):
            part(start, start + _CACHED)
    return out


def _bounds(size: int, threads: int) -> list:
    """The parts of ``size`` elements for ``threads`` threads, [(start, stop), ...].

    The parts are taken by whichever thread is free, so that a thread that starts
    late (a sleeping thread wakes some 10 to 200 µs after it is called) or is held
    up by other work does fewer. None is bigger than 1 / (_PER_THREAD * threads) of
    the whole (a thread that shares its core with another program holds the others
    up by at most one part), and the last ones get smaller (each a quarter of what
    is left for two threads, as in OpenMP's guided schedule), so that the threads
    finish close together (the caller waits for the last one). Each is at least
    _CHUNK elements (a part costs some µs of Python), and a multiple of _ALIGN but
    for the last."""
    largest = -(-size // (_PER_THREAD * threads * _ALIGN)) * _ALIGN
    bounds, start = [], 0
    while start < size:
        left = -(-(size - start) // (_GUIDED * threads * _ALIGN)) * _ALIGN
        step = max(_CHUNK, min(largest, left))
        bounds.append((start, min(size, start + step)))
        start += step
    return bounds


_ALIGN = 4096  # elements
_CACHED = 32 * _ALIGN  # (elements in a part on one thread: an array's part fits in L2)
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
