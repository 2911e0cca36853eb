"""Threads: ``get_num_threads`` / ``set_num_threads`` (PyTorch's), and the big
elementwise kernels that use them.

NumPy computes a ufunc on one core. It lets go of the GIL while it loops, so
the parts of a big array can be computed at the same time by threads:
``elementwise(np.tanh, x)`` gives each thread a slice of ``x`` to write into
one result. Each element is computed by the same kernel either way, so the
result has exactly the bits of ``np.tanh(x)``. Only ufuncs that work element
by element are split, never reductions (a sum added up in parts would round
differently).

Only arrays of at least ``BIG`` elements (2**18) are split: handing slices to
waiting threads and collecting them costs some 10 to 50 µs of Python, and
tanh takes about 3 ns per element on one core, so for smaller arrays the
hand-over would eat what the other cores save. (PyTorch splits from 32,768
elements: its hand-over is C++.) The threads are daemons, made on first use;
between calls they sleep on a queue (they do not spin).
"""

from __future__ import annotations

import builtins
import contextvars
import os
import queue
import threading
from concurrent.futures import Future

import numpy as np

from . import errors

__all__ = ["get_num_threads", "set_num_threads", "elementwise", "BIG"]

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


def elementwise(ufunc, x: np.ndarray) -> np.ndarray:
    """``ufunc(x)`` for a unary ufunc that keeps a float dtype (``np.tanh``), with
    a big contiguous ``x`` split across ``get_num_threads()`` threads."""
    threads = _num_threads
    if threads < 2 or x.size < BIG or x.dtype.kind != "f" or not x.flags.c_contiguous:
        return ufunc(x)
    out = np.empty_like(x)
    source, target = x.reshape(-1), out.reshape(-1)
    step = -(-x.size // threads)
    # (each thread runs in a copy of the caller's context: NumPy's error state,
    # which minigrad sets so that inf and nan come silently, lives there)
    try:
        parts = [_submit(contextvars.copy_context(), ufunc, source[start:start + step],
                         target[start:start + step])
                 for start in range(step, x.size, step)]
    except RuntimeError:  # (no thread may start here: a sandbox's limit, or at exit)
        return ufunc(x)
    ufunc(source[:step], out=target[:step])
    for part in parts:
        part.result()
    return out


_pool = {"pid": None, "tasks": None, "threads": 0}


def _submit(context, ufunc, source, target) -> Future:
    """Hand one slice to a waiting thread (made the first time, and again in a
    forked child, whose parent's threads did not come along)."""
    if _pool["pid"] != os.getpid():
        _pool.update(pid=os.getpid(), tasks=queue.SimpleQueue(), threads=0)
    if _pool["threads"] < _num_threads - 1:
        threading.Thread(target=_work, args=(_pool["tasks"],), daemon=True,
                         name=f"minigrad-kernel-{_pool['threads']}").start()
        _pool["threads"] += 1
    future: Future = Future()
    _pool["tasks"].put((future, context, ufunc, source, target))
    return future


def _work(tasks: queue.SimpleQueue) -> None:
    while True:
        future, context, ufunc, source, target = tasks.get()
        try:
            future.set_result(context.run(ufunc, source, out=target))
        except BaseException as error:  # (handed to the caller, raised there)
            future.set_exception(error)
