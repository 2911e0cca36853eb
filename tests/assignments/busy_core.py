"""A busy machine, made on purpose: this process pinned to one core (what it starts is
pinned there too) and ``hogs`` processes that spin on that core meanwhile, so that the
work under test waits for the CPU most of the time, as on a loaded grading machine."""

import contextlib
import os
import subprocess
import sys


@contextlib.contextmanager
def busy_core(hogs: int = 3):
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(hogs)]
    try:
        yield
    finally:
        for hog in spinning:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, before)
