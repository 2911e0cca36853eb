"""Which assignment a notebook answers is the student's word; where it was handed in is the
teacher's: a notebook that answers another assignment than those beside it is held.

A submission is matched to its instructor notebook by its metadata
(``minigrad_kit.assignment``), which the student's editor writes and the student can
change. The folder it was collected in is the teacher's (``batch.collection_of``: nbgrader's
``submitted/<student>/<assignment>/``, or the folder of a flat layout). Trusting the
metadata alone let a student hand in, in the folder of assignment 3, their notebook of
assignment 1 answered again after its deadline (with the feedback, or the solutions,
published since): it was graded as assignment 1 and replaced their grade there, 0 of 9 to
9 of 9, unflagged, when the teacher graded assignment 3 into the same ``--out`` (or the
whole ``submitted/`` folder, where the last notebook by path wins).

So the results kept in ``--out`` (those stored, with this run's replacing theirs) say where
each assignment was collected and what each folder holds. A result of this run whose
folder holds more of the class's notebooks of another assignment than of its own, or
whose assignment was collected more often in another folder than in its own, is flagged
and every question that scored is held for review. The majority decides, so an honest
class is never held: a late notebook handed in where the class's are is not held; one
graded from a folder of its own (``late/bob.ipynb``) is, for the teacher to accept. A
student graded alone, with no classmate's result in ``--out``, gives nothing to compare.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from kit_i18n import speaking

from .i18n import _

__all__ = ["hold_collected_elsewhere"]


def hold_collected_elsewhere(current: list, stored: list) -> None:
    """Flag and hold each result of ``current`` (this run's, in order: a later one for the
    same student and assignment replaces an earlier one) collected where the results kept
    (``stored``, then ``current``) say its assignment is not."""
    kept = {(r.assignment, r.student): r for r in list(stored) + list(current)
            if not r.error and r.collected}
    held = Counter((r.collected, r.assignment) for r in kept.values())
    for result in current:
        if kept.get((result.assignment, result.student)) is not result:
            continue  # not graded, collected nowhere, or replaced later in this run
        own = held[(result.collected, result.assignment)]
        other = sorted({assignment for (folder, assignment), count in held.items()
                        if folder == result.collected and assignment != result.assignment
                        and count > own} |
                       {folder for (folder, assignment), count in held.items()
                        if assignment == result.assignment and folder != result.collected
                        and count > own})
        if other:
            _hold(result, other)


def _hold(result, other: list) -> None:
    with speaking(result.lang):
        text = _("this notebook answers {assignment} but was handed in in the folder {folder}, "
                 "where the class did not hand in {assignment} (the class's notebooks: "
                 "{other}): a notebook of another assignment, handed in late? It was graded as "
                 "{assignment} and is held for review").format(
            assignment=result.assignment, folder=Path(result.collected).name,
            other=", ".join(Path(o).name if "/" in o else o for o in other))
    result.flags.append(text)
    for question in result.questions:
        if question.points and not question.manual:
            question.review.append(text)
