"""Memory: what one op frees, the next one reuses (big arrays); and Python's garbage
collector walking only the objects made after the import.

A new big array is not free when its memory is new to the process: the kernel hands
it over page by page as it is first written, and zeroes each page first. On this
kit's machine a 1000x1000 float32 product written into new memory took 2 to 3 ms
(1,000 page faults), the same product into memory the process already had 0.26 ms.
glibc's malloc gives memory of 128 KiB and more back to the kernel when it is freed,
above a threshold it moves as it goes; so whether a program's temporaries (a graph's
forward and backward make and free dozens of 4 MB arrays) land in fresh pages
depends on the order they are freed in: of the benchmark's big workloads one
spent half its time in page faults (4,018 faults per run) and the others none.

``keep_freed_memory`` fixes both thresholds once, at import: arrays up to 32 MiB
come from malloc's heap, and up to 256 MiB of freed memory stays in the process for
the next arrays. (PyTorch's GPU allocator keeps freed blocks the same way.) It does
nothing off glibc, nor where the program set either threshold itself
(``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_``), nor with
``MINIGRAD_KEEP_MEMORY=0``.

Python's own objects: a graph of minigrad ops is made of Python objects (a node, its
saved values, tuples: five per op that the cyclic garbage collector tracks; PyTorch's
are C++, out of its reach), so building a long graph sets off Python's full
collections, and each walks every tracked object of the process, minigrad's own
included: the functions, classes and tables of its 290 modules, some 52,000 objects
(21 ms per full collection here, against 6 ms when minigrad had 60 modules). A
20,000-op chain spent a quarter of its forward there. ``freeze_imported_objects``,
called once at the end of the import, moves every object alive then out of the
collector's reach (``gc.freeze``): they are still freed by their reference counts as
ever; only a reference cycle among objects made before ``import minigrad`` would stay
uncollected (``gc.unfreeze()`` hands them back). Nothing with ``MINIGRAD_GC_FREEZE=0``.
It runs once more when the first compiled kernel imports numba (``compiled._compile``),
whose 88,000 objects cost a 20,000-op chain 60 ms of collections: what the program made
before that moment is frozen with them, freed by reference counts as ever (a minigrad
graph has no cycle: it never needs the collector); only a cycle of the program's own
made before its first kernel would stay uncollected.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys

__all__ = ["keep_freed_memory", "freeze_imported_objects"]

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # (mallopt's parameters, malloc.h)
_MMAP_THRESHOLD = 32 << 20  # bytes (glibc's largest on 64-bit machines)
_TRIM_THRESHOLD = 256 << 20  # bytes


def keep_freed_memory() -> bool:
    """Set glibc malloc's thresholds (above); whether they were set."""
    if sys.platform != "linux" or os.environ.get("MINIGRAD_KEEP_MEMORY") == "0" or any(
            name in os.environ for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):  # (not glibc: musl has no mallopt)
        return False
    mallopt.restype, mallopt.argtypes = ctypes.c_int, [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))


def freeze_imported_objects() -> bool:
    """``gc.freeze()`` after a collection (above); whether it froze them."""
    if os.environ.get("MINIGRAD_GC_FREEZE") == "0" or not gc.isenabled():
        return False
    gc.collect()  # (what is garbage already is freed, not kept forever)
    gc.freeze()
    return True
