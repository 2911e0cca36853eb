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

So the results kept in ``--out`` (those stored, then this run's, which replace theirs)
count the notebooks of each assignment handed in in each folder, and a result of this run
is flagged, and every question that scored is held for review, when

1. it replaces a result of the same student and assignment handed in in another folder
   (stored, or earlier in this run), and its own folder is not where the class hands that
   assignment in (two notebooks of it or more, and no folder with more): bob's assignment
   1 of ``ps1`` replaced by the one in ``ps3``; or
2. another folder holds more notebooks of its assignment than its own folder, which holds
   more of another assignment: the class hands assignment 1 in ``ps1`` and assignment 3
   in ``ps3``, and bob (or bob and two friends) assignment 1 in ``ps3``; or
3. a learning platform's download named it (``batch.platform_id``) and its folder holds
   more notebooks of another assignment: Canvas, Moodle and Blackboard download the
   submissions of one assignment, so the folder is that one's whatever else was graded.
   Graded from a folder of its own, Canvas's download of assignment 3 with bob's notebook
   of assignment 1 in it, answered again after its deadline, had nothing to compare with
   (rules 1 and 2), and the export wrote his 9 over his 0 in assignment 1's column of
   Canvas's gradebook, its id kept (red team 15).

Folders are compared by name (``ps1``, wherever the course is). What these rules leave
alone is the teacher's own order: sections in folders of their own, a folder of the whole
class's notebooks of several assignments, an nbgrader assignment of several notebooks, a
late notebook handed in where the class's are (even one that replaces a result held by
these rules). A late notebook graded from a folder of its own (``late/bob.ipynb``) that
replaces one graded from ``ps1/`` is held, for the teacher to accept. A student graded
where no classmate's result of that assignment is gives nothing to compare: no rule can
tell which assignment the teacher meant to collect there.
"""

from __future__ import annotations

from collections import Counter

from kit_i18n import speaking

from .i18n import _

__all__ = ["hold_collected_elsewhere"]


def hold_collected_elsewhere(current: list, stored: list) -> None:
    """Flag and hold each result of ``current`` (this run's, in order: a later one for the
    same student and assignment replaces an earlier one) that the rules of the module's
    docstring find handed in where its assignment was not; ``stored``: the results kept
    in ``--out`` before this run."""
    before: dict = {}  # (assignment, student) -> folders it was handed in in before
    kept: dict = {}
    replaced: dict = {}  # id(result) -> the other folders of the results it replaces
    for result in [r for r in stored if not r.error and r.collected]:
        before.setdefault((result.assignment, result.student), set()).add(result.collected)
        kept[(result.assignment, result.student)] = result
    for result in [r for r in current if not r.error and r.collected]:
        key = (result.assignment, result.student)
        replaced[id(result)] = before.get(key, set()) - {result.collected}
        before.setdefault(key, set()).add(result.collected)
        kept[key] = result
    count = Counter((r.collected, r.assignment) for r in kept.values())
    for result in kept.values():
        if id(result) not in replaced:
            continue  # stored: not this run's
        here, assignment = result.collected, result.assignment
        own = count[(here, assignment)]
        elsewhere = {folder for (folder, a), n in count.items()
                     if a == assignment and folder != here and n > own}
        crowded = any(n > own for (folder, a), n in count.items()
                      if folder == here and a != assignment)
        the_classes = own >= 2 and not elsewhere  # (where the class hands it in)
        if (replaced[id(result)] and not the_classes) or (elsewhere and crowded):
            _hold(result, sorted(elsewhere | replaced[id(result)]))
        elif result.platform and crowded:  # (3. a platform's download: one assignment's)
            _hold_downloaded(result, sorted(a for (folder, a), n in count.items()
                                            if folder == here and a != assignment and n > own))


def _hold(result, other: list) -> None:
    with speaking(result.lang):
        text = _("this notebook answers {assignment} but was handed in in the folder "
                 "{folder}, while {assignment} was handed in in {other}: a notebook of another "
                 "assignment, handed in late? It was graded as {assignment} and is held for "
                 "review").format(assignment=result.assignment, folder=result.collected,
                                  other=", ".join(other))
    _flag(result, text)


def _hold_downloaded(result, other: list) -> None:
    with speaking(result.lang):
        text = _("this notebook answers {assignment} but was handed in in {folder}, a learning "
                 "platform's download of the submissions of one assignment, {other}: a "
                 "notebook of another assignment, handed in late? It was graded as "
                 "{assignment} and is held for review").format(
            assignment=result.assignment, folder=result.collected, other=" or ".join(other))
    _flag(result, text)


def _flag(result, text: str) -> None:
    if text in result.flags:
        return  # (already held: a part of a sharded run, joined by ``merge``)
    result.flags.append(text)
    for question in result.questions:
        if question.points and not question.manual:
            question.review.append(text)
