"""Judging with a bound on its cost: answers given as data are evaluated by the grader, so
no answer may cost the grader's own process more than ``SECONDS`` and ``MEMORY_MB``.

The formula reader already refuses what it can see is costly (``formula.py``: length,
nodes, elements of every value; ``exact.py``: huge powers, exponentials, sines). A cost
check on the tree cannot be complete, though: what a formula costs depends on its values
(200-digit numbers with exponents that grow with every power), on NumPy and mpmath, and on
the question module's own judging. So each question is judged in a child process forked
from the grader (a copy of it: nothing to start, about a millisecond), with an address
space limit and a limit of ``SECONDS`` of CPU time (``RLIMIT_CPU``), and killed once it
has taken ``SECONDS`` as an idle machine would count them (``clock.Clock``: the seconds
on the wall less those it waited for a CPU, so that a busy machine does not stop honest
judging), or ``clock.BACKSTOP`` times as many on the wall (what the judges import is
imported once, before the first fork: ``_prepare``). Its findings come back through
a pipe as JSON (text and booleans only). A question that runs over gets one failed finding
that says why, never a zero without a reason; the other questions and the other
submissions are judged as before.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import resource
import select
import signal
import time

from .clock import BACKSTOP, Clock
from .i18n import _
from .judging import withholding
from .questions import Finding, judge

__all__ = ["judge_bounded", "SECONDS", "MEMORY_MB"]

SECONDS = 20.0  # a question's judging (the kit's take 0.01-0.5 s), as clock.Clock counts
MEMORY_MB = 1024  # address space a question's judging may add to the grader's
POLL = 0.2  # seconds between two readings of the clock


def judge_bounded(question, parts: dict, withheld: tuple = (), everything: bool = True
                  ) -> dict:
    """part -> findings of ``judge(question, data, inputs, env)`` for each ``parts[part] =
    (data, inputs, env)``, judged in a bounded child process (see the module docstring);
    the parts in ``withheld`` with findings that quote nothing of the data (a formula's:
    ``everything`` False; ``judging.withholding``)."""
    _prepare()

    def judged(part, arguments):
        with withholding(everything) if part in withheld else contextlib.nullcontext():
            return judge(question, *arguments)
    if not hasattr(os, "fork"):  # (Windows: judged here, unbounded)
        return {part: judged(part, arguments) for part, arguments in parts.items()}
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: judge, write, and leave without running anything of the parent
        status = 0
        try:
            os.close(read_end)
            _limit_memory()
            # (SIGXCPU at SECONDS ends the child; SIGKILL a second later, if it caught that)
            cpu = max(1, math.ceil(SECONDS))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            found = {part: [[f.ok, f.text] for f in judged(part, arguments)]
                     for part, arguments in parts.items()}
            with os.fdopen(write_end, "w", encoding="utf-8") as pipe:
                json.dump(found, pipe)
        except BaseException:  # noqa: BLE001 (memory: the parent says so)
            status = 1
        os._exit(status)
    os.close(write_end)
    try:
        text = _read(read_end, Clock(pid), time.monotonic() + BACKSTOP * SECONDS)
    finally:
        os.close(read_end)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    try:
        found = json.loads(text) if text is not None else None
    except ValueError:
        found = None
    if found is None:
        why = _("checking {question} took longer than {seconds} s or more than {memory} MB, "
                "so it was stopped and not graded: simplify your answer (a formula with huge "
                "powers or values?)").format(question=question.name, seconds=f"{SECONDS:g}",
                                             memory=MEMORY_MB)
        return {part: [Finding(False, why)] for part in parts}
    return {part: [Finding(bool(ok), str(text)) for ok, text in found[part]] for part in parts}


@functools.lru_cache(maxsize=1)
def _prepare() -> None:
    """Import here, once, what the judges import when first used (minigrad, for autograd's
    expected values: a second a child would spend again for every question)."""
    import minigrad  # noqa: F401


def _limit_memory() -> None:
    try:
        with open("/proc/self/statm", encoding="ascii") as file:
            used = int(file.read().split()[0]) * resource.getpagesize()
    except OSError:  # (not Linux: the time limit still holds)
        return
    limit = used + MEMORY_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _read(descriptor: int, clock: Clock, until: float) -> str | None:
    """All the child writes before ``clock`` says ``SECONDS`` or the wall ``until``; None
    if it is not done by then."""
    chunks = []
    while True:
        left = until - time.monotonic()
        if left <= 0 or clock.seconds() >= SECONDS:
            return None
        ready, _w, _x = select.select([descriptor], [], [], min(left, POLL))
        if not ready:
            continue
        chunk = os.read(descriptor, 1 << 16)
        if not chunk:
            return b"".join(chunks).decode("utf-8", errors="replace") if chunks else None
        chunks.append(chunk)
