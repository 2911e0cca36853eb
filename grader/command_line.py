"""A secret given on the command line (``--salt``), hidden from the process list.

Every process of the machine reads every other's command line (``/proc/<pid>/cmdline``,
``ps``): a teacher's ``grade --salt S`` showed S to every user of a shared machine, and to
a code run without the sandbox, which scanned ``/proc`` and raised the grader's command
line in its feedback (red team 16). ``hide(options)``, the first thing the command does,
overwrites the values of those options in the process's own argument memory (which
``/proc/<pid>/cmdline`` reads) with ``*``, the same length, so that nothing started after
it (the student's code above all) finds them; ``sys.argv``, a copy, keeps them. (A
process that reads the list in the instant before is not stopped: ``$MINIGRAD_KIT_SALT``,
which only the teacher's own processes read, never shows.)
"""

from __future__ import annotations

import contextlib
import os

__all__ = ["hide", "SECRET"]

SECRET = ("--salt",)  # options whose value no other process may read


def hide(options=SECRET) -> bool:
    """Overwrite, in this process's command line, the value of each of ``options``
    (``--salt S`` or ``--salt=S``); whether anything was overwritten. Where ``/proc`` is
    not Linux's, nothing changes."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/stat", "rb") as file:
            fields = file.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end (fields 48, 49)
        with open("/proc/self/mem", "r+b", buffering=0) as memory:
            memory.seek(start)
            area = memory.read(end - start)
            hidden = _hidden(area, options)
            if hidden != area:
                memory.seek(start)
                memory.write(hidden)
                return True
    return False


def _hidden(area: bytes, options) -> bytes:
    """``area`` (arguments, each ended by a NUL) with the values of ``options`` starred,
    as argparse reads them: ``--salt S``, ``--salt=S``, and abbreviated (``--sal S``)."""
    arguments = area.split(b"\0")

    def named(argument: bytes) -> bool:
        return len(argument) > 4 and any(option.encode().startswith(argument)
                                         for option in options)
    for index, argument in enumerate(arguments):
        name, equals, value = argument.partition(b"=")
        if equals and named(name):
            arguments[index] = name + equals + b"*" * len(value)
        elif index and named(arguments[index - 1]):
            arguments[index] = b"*" * len(argument)
    return b"\0".join(arguments)
