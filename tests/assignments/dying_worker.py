"""Grading that dies as the system's out-of-memory killer ends a process (SIGKILL), for the
submissions whose file name ends with ``_oom.ipynb`` or whose text holds ``MARK`` (an
upload, which the autograders copy under a name of their own): ``timed`` stands for
``grader.batch._timed`` in the pool's workers, ``answer`` for ``grader.batch._answer`` in the
process a submission is graded again alone in. Both are pickled by name, so each process imports this module;
each calls ``grader.batch``'s own function, as it was when this module was imported (before
a test put these in its place)."""

import os
import signal
from pathlib import Path

from grader import batch

TIMED, ANSWER = batch._timed, batch._answer


MARK = "(the grading of this notebook dies)"  # in a notebook's text: it dies too


def dies(path) -> bool:
    path = Path(path)
    return path.name.endswith("_oom.ipynb") or MARK.encode() in path.read_bytes()


def timed(path, *arguments):
    if dies(path):
        os.kill(os.getpid(), signal.SIGKILL)
    return TIMED(path, *arguments)


def answer(send, path, *arguments):
    if dies(path):
        os.kill(os.getpid(), signal.SIGKILL)
    return ANSWER(send, path, *arguments)
