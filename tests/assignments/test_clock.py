"""grader/clock.py: the time limits count what the work takes on an idle machine: the
seconds on the wall less those spent waiting for a CPU."""

import subprocess
import sys
import time

from busy_core import busy_core

from grader.clock import Clock

COMPUTE = ("import time\nstart = time.process_time()\n"
           "while time.process_time() - start < {seconds}: pass")


def _timed(code: str) -> tuple:
    """(the clock's seconds, the wall's) for a process that runs ``code``."""
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-c", code])
    clock, seconds = Clock(process.pid), 0.0
    while process.poll() is None:
        seconds = clock.seconds()
        time.sleep(0.05)
    return seconds, time.monotonic() - started


def test_work_that_waits_for_a_cpu_is_counted_as_on_an_idle_machine():
    with busy_core(hogs=3):
        clock, wall = _timed(COMPUTE.format(seconds=0.6))
    # (four processes on one core: the work took about four times its CPU time)
    assert wall > 1.5 and 0.6 <= clock < 0.5 * wall, (clock, wall)


def test_a_sleep_counts_as_the_seconds_it_sleeps():
    clock, wall = _timed("import time\ntime.sleep(1.5)")
    assert 1.2 < clock <= wall, (clock, wall)


def test_it_never_goes_back():
    process = subprocess.Popen([sys.executable, "-c", COMPUTE.format(seconds=0.5)])
    clock = Clock(process.pid)
    readings = []
    while process.poll() is None:
        readings.append(clock.seconds())
    readings.append(clock.seconds())
    assert readings == sorted(readings)
