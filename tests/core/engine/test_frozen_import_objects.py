"""The objects of ``import minigrad`` are out of the garbage collector's walks
(minigrad/kernels/memory.py, freeze_imported_objects): a long graph's full collections
walk the graph, not minigrad's 50,000 functions, classes and tables. Each case runs in
a new process: the collector's state is the process's."""

from __future__ import annotations

import os
import subprocess
import sys

PROGRAM = """
import gc, sys, weakref
import minigrad
tracked = len(gc.get_objects())  # (the frozen ones are not listed)
frozen = gc.get_freeze_count()
# Still collected: a cycle made after the import, a graph's among them.
class Cyclic:
    pass
a, b = Cyclic(), Cyclic()
a.other, b.other = b, a
gone = weakref.ref(a)
x = minigrad.ones(3, requires_grad=True)
y = (x * 2).exp()
y.grad_fn.metadata["self"] = y  # (a cycle through a node: the collector's to free)
node = weakref.ref(y.grad_fn)
del a, b, y
gc.collect()
print(tracked, frozen, gone() is None, node() is None)
"""


def _run(**environment) -> list:
    inherited = {k: v for k, v in os.environ.items() if k != "MINIGRAD_GC_FREEZE"}
    run = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                         env={**inherited, **environment}, check=True)
    return run.stdout.split()


def test_the_imported_objects_are_frozen_and_later_cycles_still_collected():
    tracked, frozen, cycle_freed, graph_freed = _run()
    left_alone_tracked, left_alone_frozen, *_ = _run(MINIGRAD_GC_FREEZE="0")
    assert int(left_alone_frozen) == 0 and int(left_alone_tracked) > 30_000
    assert int(frozen) >= int(left_alone_tracked) - 1_000  # (all of them, give or take)
    assert int(tracked) < 1_000  # (what a full collection now walks)
    assert cycle_freed == graph_freed == "True"


def test_a_program_that_disabled_the_collector_keeps_it_as_it_was():
    program = "import gc; gc.disable(); import minigrad; print(gc.get_freeze_count(), gc.isenabled())"
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True)
    assert run.stdout.split() == ["0", "False"]


NUMBA_PROGRAM = """
import gc, weakref
import numpy as np
import minigrad
from minigrad.kernels import compiled
x = minigrad.tensor(np.ones(4, np.float32), requires_grad=True)
x.tanh().sum().backward()  # (float32 tanh: the first compiled kernel imports numba)
import numba  # (imported by then)
tracked = len(gc.get_objects())
class Cyclic:
    pass
a, b = Cyclic(), Cyclic()
a.other, b.other = b, a
gone = weakref.ref(a)
del a, b
gc.collect()
print(compiled.AVAILABLE, tracked, gone() is None)
"""


def test_numbas_objects_are_frozen_when_the_first_kernel_imports_it():
    """numba's and LLVM's objects (some 88,000) are out of the collector's walks once the
    first compiled kernel has imported them, as minigrad's own are (``compiled._compile``);
    a cycle made after that is still collected."""
    def run(**environment):
        inherited = {k: v for k, v in os.environ.items() if k != "MINIGRAD_GC_FREEZE"}
        return subprocess.run([sys.executable, "-c", NUMBA_PROGRAM], capture_output=True,
                              text=True, env={**inherited, **environment},
                              check=True).stdout.split()
    available, tracked, cycle_freed = run()
    if available != "True":
        return  # (numba not installed: nothing imported, nothing to freeze)
    _, left_alone, _ = run(MINIGRAD_GC_FREEZE="0")
    assert int(left_alone) > 50_000  # (numba's objects, walked by every full collection)
    assert int(tracked) < 2_000
    assert cycle_freed == "True"
