"""The first lines a sandbox runs, before any student code: a user of its own, and a
bounded number of processes and threads (``confine``). Standard library only: a notebook
kernel loads this file alone (``sandbox.kernel_command``), a code run imports it.
"""

from __future__ import annotations

import os
import resource

__all__ = ["confine"]


def confine(user: int | None, tasks: int | None) -> None:
    """Become ``user`` (a root grader's sandbox: ``sandbox.sandbox_user``), then allow at
    most ``tasks`` processes and threads of that user, counted in this sandbox only (None:
    as many as there are now, so that none can start).

    ``RLIMIT_NPROC`` counts a user's tasks, and never limits root's. A user of its own has
    no other tasks; without one (an ordinary user's grader), the count is the sandbox's
    own only in a user namespace of its own (bwrap's); elsewhere (``--sandbox off``)
    nothing is limited."""
    if user is not None:
        os.setgroups([])
        os.setgid(user)
        os.setuid(user)  # (every capability goes with root)
    elif not _own_user_namespace():
        return
    if tasks is None:
        mine = os.getuid()
        tasks = sum(_tasks(pid, mine) for pid in os.listdir("/proc") if pid.isdigit())
    resource.setrlimit(resource.RLIMIT_NPROC, (tasks, tasks))


def _tasks(pid: str, user: int) -> int:
    """The threads of process ``pid`` if ``user`` runs it, else 0 (and 0 for a process that
    ended while it was counted: without the sandbox's PID namespace, ``/proc`` lists the
    machine's, which come and go)."""
    try:
        return len(os.listdir(f"/proc/{pid}/task")) if os.stat(f"/proc/{pid}").st_uid == user \
            else 0
    except OSError:
        return 0


def _own_user_namespace() -> bool:
    try:
        with open("/proc/self/uid_map", encoding="ascii") as file:
            return file.read().split() != ["0", "0", "4294967295"]
    except OSError:
        return False
