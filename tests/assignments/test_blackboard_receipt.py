"""Blackboard Learn's receipt beside each downloaded file, read by the real ``minigrad-kit grade``
and ``export --to blackboard``.

"Assignment File Download" names each file ``<Assignment>_<username>_attempt_<date>_<file>``
and writes beside it ``<Assignment>_<username>_attempt_<date>.txt``: ``Name: <full name>
(<username>)``, ``Assignment:``, ``Date Submitted:``, ``Current Grade:``, then ``Submission
Field:`` and ``Comments:`` (the student's own text) and ``Files:`` (each file's ``Original
filename:`` and ``Filename:``), as public tools that read these downloads parse it. Only its
first line is Blackboard's alone: a student's comment can hold a line ``Name: Zed (doe)``.
Before: the first line anywhere in the receipt that looked like a name was taken, so with a
first line in another form (a Blackboard in Spanish, "Nombre: ...") j_doe's comment made
him ``doe``, and his points went to the classmate whose username is doe (measured)."""

import csv
import io
from pathlib import Path

import nbformat
import pytest
from keys import build, right

from grader.batch import platform_id
from grader.cli import main
from grader.questions import find_assignment

pytestmark = pytest.mark.slow

D = "derive_it_by_hand"
HEAD = "Homework 2_j_doe_attempt_2026-11-30-09-15-02"
COLUMN = f"{find_assignment(D).title} [Total Pts: 9 Score] |556677"


def receipt(first: str, comment: str) -> str:
    return (f"{first}\nAssignment: Homework 2\nDate Submitted: Monday, 30 November 2026 "
            "09:15:02 o'clock CET\nCurrent Grade: Needs Grading\n\nSubmission Field:\n"
            f"There is no student submission text data for this assignment.\n\nComments:\n"
            f"{comment}\n\nFiles:\n\tOriginal filename: hw.ipynb\n\tFilename: "
            f"{HEAD}_hw.ipynb\n")


def _graded(tmp_path: Path, first: str, comment: str) -> Path:
    given = tmp_path / "dl"
    given.mkdir()
    nbformat.write(build(D, None, right(D, None)), given / f"{HEAD}_hw.ipynb")
    (given / f"{HEAD}.txt").write_text(receipt(first, comment), encoding="utf-8")
    out = tmp_path / "grades"
    assert main(["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt",
                 "kept", "--jobs", "1", "--variants", "none"]) == 0
    return out


def _exported(out: Path, roster: Path, usernames) -> tuple[int, dict]:
    buffer = io.StringIO()
    csv.writer(buffer).writerows([["Last Name", "First Name", "Username", "Student ID",
                                   COLUMN]] + [["X", "Y", name, "", ""] for name in usernames])
    roster.write_text(buffer.getvalue(), encoding="utf-8")
    status = main(["export", str(out), "--to", "blackboard", "--roster", str(roster)])
    rows = csv.DictReader(io.StringIO((out / "blackboard.csv").read_text(encoding="utf-8")))
    return status, {row["Username"]: row[COLUMN] for row in rows}


def test_the_receipt_names_the_username(tmp_path):
    """A receipt as Blackboard writes it: j_doe (with an underscore) is j_doe, whatever
    his comment says; his 9 points in his row, none in doe's."""
    out = _graded(tmp_path, "Name: John Doe (j_doe)", "Name: Zed (doe)")
    assert platform_id(tmp_path / "dl" / f"{HEAD}_hw.ipynb") == "blackboard:j_doe"
    assert _exported(out, tmp_path / "gc.csv", ["j_doe", "doe"]) == (
        0, {"j_doe": "9", "doe": ""})


def test_a_comment_never_names_the_student(tmp_path, capsys):
    """The receipt's first line in another form ("Nombre: ..."): the comment's ``Name: Zed
    (doe)`` is the student's text and names no one; without the receipt's word, the head
    ``Homework 2_j_doe`` ends with two roster usernames, j_doe and doe: neither is credited
    (said, exit status 1); with j_doe alone in the roster, j_doe is."""
    out = _graded(tmp_path, "Nombre: John Doe (j_doe)", "Name: Zed (doe)")
    assert platform_id(tmp_path / "dl" / f"{HEAD}_hw.ipynb") == \
        "blackboard-head:Homework 2_j_doe"
    assert _exported(out, tmp_path / "gc.csv", ["j_doe", "doe"]) == (
        1, {"j_doe": "", "doe": ""})
    assert "keep the receipts" in capsys.readouterr().out
    assert _exported(out, tmp_path / "gc.csv", ["j_doe", "cy"]) == (
        0, {"j_doe": "9", "cy": ""})
