"""Big arrays reuse the memory that earlier ones freed (minigrad/kernels/memory.py):
a graph's temporaries, a dozen 4 MB arrays made and freed at each step, are not
written into new pages (a page fault each, 2 to 3 ms per array on this machine).
Each case runs in a new process: malloc's state is the process's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROGRAM = """
import resource, sys
import numpy as np
if sys.argv[1] == "minigrad":
    import minigrad
a = np.ones((1000, 1000), np.float32)
def step():  # (eight 4 MB results alive at once, then all freed: a graph's temporaries)
    kept = [a * 2 for _ in range(8)]
    del kept
for _ in range(3):
    step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(5):
    step()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""

glibc = pytest.mark.skipif(
    sys.platform != "linux" or os.confstr("CS_GNU_LIBC_VERSION") is None,
    reason="mallopt's thresholds are glibc's; other C libraries keep their own")


def _faults(*argv, **environment) -> int:
    run = subprocess.run([sys.executable, "-c", PROGRAM, *argv], capture_output=True,
                         text=True, env={**os.environ, **environment}, check=True)
    return int(run.stdout.split()[-1])


@glibc
def test_a_graphs_big_temporaries_reuse_freed_memory():
    without = _faults("numpy")  # (NumPy alone: malloc gives the 32 MB back, then faults)
    assert without > 1000, f"the case no longer frees memory to the kernel ({without} faults)"
    assert _faults("minigrad") < 50  # (a few for Python's own small objects)


@glibc
def test_the_program_may_keep_its_own_settings():
    assert _faults("minigrad", MINIGRAD_KEEP_MEMORY="0") > 1000
    assert _faults("minigrad", MALLOC_TRIM_THRESHOLD_="131072") > 1000
