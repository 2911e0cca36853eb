"""The time limits of grading, counted as an idle machine would count them.

A run of a student's code, or a question's judging, is stopped when it has taken its limit
in seconds. On a busy machine (other gradings, other users, a CI) honest work waits for a
CPU, and the clock on the wall would stop it for that. ``Clock`` adds up instead the CPU
time the watched processes used (all their threads, as Linux counts it in /proc) and the
seconds during which none of their threads could run (asleep, waiting for input: sampled
at each reading): what the same work takes on an idle machine, where waiting for a CPU
takes nothing. A loop and a sleep are both stopped after their limit, as before; honest
work is no longer stopped by the others' load. (Linux's run delay, schedstat, would say
the time spent waiting for a CPU directly, but only once the wait is over: a reading in
the middle of a long wait counted it as work, and stopped honest work on a loaded
machine.) Where Linux does not say (no /proc), it is the clock on the wall. Every limit
also ends after ``BACKSTOP`` times as many seconds on the wall, whatever the processes do.
"""

from __future__ import annotations

import os
import time

__all__ = ["Clock", "BACKSTOP"]

BACKSTOP = 10  # a limit of n seconds ends after BACKSTOP * n seconds on the wall at the latest
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class Clock:
    """Seconds since it was made, as an idle machine would have taken them, for the process
    ``pid`` and every process under it (bubblewrap, its init, the runner), all their
    threads."""

    def __init__(self, pid: int):
        self.pid = pid
        self.last = time.monotonic()
        self.started, self.idle, self.most = self.last, 0.0, 0.0
        self.linux = os.path.exists(f"/proc/{pid}/stat")

    def seconds(self) -> float:
        now = time.monotonic()
        if not self.linux:
            return now - self.started
        ticks, runnable = 0, False
        for pid in self._processes():
            try:
                with open(f"/proc/{pid}/stat", "rb") as file:
                    fields = file.read().rpartition(b")")[2].split()
                ticks += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
                for thread in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{thread}/stat", "rb") as file:
                        runnable |= file.read().rpartition(b")")[2].split()[0] == b"R"
            except (OSError, ValueError, IndexError):
                continue  # (it ended meanwhile)
        if not runnable:  # (since the last reading, none of them ran or wanted to)
            self.idle += now - self.last
        self.last = now
        # (never less than read before: a process that ended is counted in its parent's
        # CPU time only once the parent has waited for it)
        self.most = max(self.most, ticks / _TICK + self.idle)
        return self.most

    def _processes(self) -> list:
        found, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            if pid in found:
                continue
            found.append(pid)
            try:
                for thread in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{thread}/children", "rb") as file:
                        todo += [int(child) for child in file.read().split()]
            except (OSError, ValueError):
                continue
        return found
