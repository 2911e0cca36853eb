"""Grading as before the tenth red team: a code question's hidden inputs drawn from the
student's name alone (the digest of the answer cells made empty). ``timed`` stands for
``grader.batch._timed`` in the worker that grades (pickled by name, so the worker imports
this module, and the change stays in that worker)."""

from grader import batch, grade

TIMED = batch._timed


def by_name_alone(cells) -> str:
    return ""


def timed(path, *arguments):
    grade.answered_digest = by_name_alone
    return TIMED(path, *arguments)
