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
