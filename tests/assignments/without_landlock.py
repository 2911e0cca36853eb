"""Grading on a kernel without Landlock (before Linux 5.13), made so in the worker that
grades: ``timed`` stands for ``grader.batch._timed`` (pickled by name, so the worker imports
this module, and the change stays in that worker)."""

import grader.run
from grader import batch

TIMED = batch._timed


def no_landlock() -> int:
    return 0


def timed(path, *arguments):
    grader.run.landlock_abi = no_landlock
    return TIMED(path, *arguments)
