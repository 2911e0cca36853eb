"""An answer cell is parsed once in the grader's process, whoever reads it.

Python 3.11's parser takes time quadratic in the fields of one f-string: a cell of 100,000
characters of ``{x}`` costs about a second a parse on an idle core (several under load),
and a grading parsed every answer cell four times (IPython's reading, the answers given as
data, the scan, the check that a code run compiles it). The parse is now shared
(``ipython_text.python_tree``); the scan, which rewrites ``getattr(t, "name")`` in its
tree, parses a tree of its own for a cell that calls getattr. Counted through the real
``minigrad-kit grade``, in the worker process that grades the submission
(``parse_counter.py``)."""

import csv
import json

import nbformat
import parse_counter
import pytest
from keys import build, right

from grader import batch
from grader.cli import main

A = "tensors_and_gradients"  # code answers: the scan and the code run read them too
FIELDS = 30_000  # "{n}" fields of one f-string: an answer may have 100,000 characters


def _graded_with_parses(tmp_path, monkeypatch, extra: str) -> tuple[list, dict]:
    answers = right(A, None)
    answers["q1_answer"] += "\n" + extra
    big = answers["q1_answer"]
    assert len(big) > parse_counter.LONG
    given = tmp_path / "dl"
    given.mkdir()
    nbformat.write(build(A, None, answers), given / "alice.ipynb")
    monkeypatch.setattr(batch, "_timed", parse_counter.timed)
    assert main(["grade", str(given), "--out", str(tmp_path / "grades"), "--jobs", "1",
                 "--variants", "none", "--salt", "s"]) == 0
    lengths = json.loads((given / "alice.ipynb.parses").read_text())
    parses = [length for length in lengths if length >= len(big) - 10]
    with open(tmp_path / "grades" / "gradebook.csv", newline="", encoding="utf-8") as file:
        return parses, list(csv.DictReader(file))


FULL = {"q1": ("1", ""), "q2": ("1", ""), "q3": ("2", ""), "q4": ("0", "")}
HELD = {"q1": ("", "yes"), "q2": ("", "yes"), "q3": ("", "yes"), "q4": ("0", "")}


@pytest.mark.parametrize("extra, parses, graded", [
    ('n = 1\nlabel = f"' + "{n}" * FIELDS + '"', 1, FULL),
    # (getattr: the scan spells it out in a tree of its own; the code is held, as before)
    ('n = 1\nlabel = f"' + "{n}" * FIELDS + '"\nw = getattr(total, "item")', 2, HELD),
])
def test_a_big_f_string_cell_is_parsed_once(tmp_path, monkeypatch, extra, parses, graded):
    """Full marks for the code (q4 is the written answer, left to the teacher), and one
    parse of the cell in the process that grades it (main: three)."""
    found, book = _graded_with_parses(tmp_path, monkeypatch, extra)
    assert len(found) == parses, found
    assert {row["question"]: (row["points"], row["needs_review"]) for row in book} == graded
