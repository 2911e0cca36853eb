"""A small class, graded once by `minigrad-kit grade` (real code runs, everyone on the instructor
notebooks' numbers: ``--variants none``): what the exports and the item analysis read in their
tests.

Two assignments, submitted in nbgrader's layout ``submitted/<student>/<assignment>/``:

    derive_it_by_hand (formulas)    ada right, bob partial, cy wrong, dee left it as released,
                                    eve hard-coded (a polynomial through check()'s points),
                                    fay right in Chinese, zed right (zed is in no roster)
    tensors_and_gradients (code)    ada right with a written answer, bob right but with a
                                    patched numpy in an answer (held back for review), gus
                                    wrong (no requires_grad), and cy's file is not a notebook
                                    (cannot be graded)

Roster students ada ... gus (and Canvas's test student); cy has no assignment-1 notebook
that can be graded, dee, eve and fay none at all for it.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from assignment_files import BY_ASSIGNMENT, FOLDER
from samples import CODE_RIGHT, PATCH_NUMPY, RIGHT, SAMPLES, Sample, build
from shared_fixture import shared

from grader import notebook as nbg
from grader.cli import main
from grader.languages import translated

A1, A2 = "tensors_and_gradients", "derive_it_by_hand"
WRITTEN = "The gradients were None before backward(); afterwards x.grad is 2 everywhere."
ROSTER = ("ada", "bob", "cy", "dee", "eve", "fay", "gus")
# assignment 3 without requires_grad: x has no gradient, and backward() has nothing to do
CODE_WRONG = {"q1_answer": "x = torch.ones(5, 5)\ntotal = x.sum()",
              "q2_answer": "y = x * 2\nz = y.sum()",
              "q3_answer": "z.backward()"}
# assignment 3 right, with numpy patched in an answer cell: its questions are held for review
TAMPERED = {**CODE_RIGHT, "q1_answer": PATCH_NUMPY + "\n" + CODE_RIGHT["q1_answer"]}


def _released(assignment: str, lang: str = "en"):
    path = BY_ASSIGNMENT[assignment]
    return nbg.student_version(translated(nbformat.read(path, as_version=4), path, lang))


def _submissions() -> dict:
    """(student, assignment) -> notebook (or, for a file that is not one, its text)."""
    a1, a2 = _released(A1), _released(A2)
    written = build(a1, Sample(CODE_RIGHT))
    for cell in written.cells:
        if nbg.grade_id(cell) == "q4":
            cell.source = WRITTEN
    return {
        ("ada", A2): build(a2, SAMPLES["correct"]),
        ("bob", A2): build(a2, SAMPLES["partial"]),
        ("cy", A2): build(a2, SAMPLES["wrong"]),
        ("dee", A2): a2,
        ("eve", A2): build(a2, SAMPLES["hard_coded"]),
        ("fay", A2): build(_released(A2, "zh"), SAMPLES["correct"]),
        ("zed", A2): build(a2, SAMPLES["correct"]),
        ("ada", A1): written,
        ("bob", A1): build(a1, Sample(TAMPERED)),
        ("gus", A1): build(a1, Sample(CODE_WRONG)),
        ("cy", A1): "{ this is not a notebook",
    }


def _grade(folder: Path) -> dict:
    submitted = folder / "submitted"
    for (student, assignment), notebook in _submissions().items():
        target = submitted / student / assignment / BY_ASSIGNMENT[assignment].name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(notebook, str):
            target.write_text(notebook)
        else:
            nbformat.write(notebook, target)
    out = folder / "grades"
    status = main(["grade", str(submitted), "--source", str(BY_ASSIGNMENT[A1]),
                   "--source", str(BY_ASSIGNMENT[A2]), "--out", str(out), "--timeout", "20",
                   "--jobs", "2", "--variants", "none"])
    return {"status": status, "out": str(out), "submitted": str(submitted)}


def course_grades(tmp_path_factory) -> dict:
    """Grade the class once per test session (shared by the pytest-xdist workers)."""
    graded = shared(tmp_path_factory, "course_grades", _grade)
    return {**graded, "out": Path(graded["out"]), "submitted": Path(graded["submitted"])}


__all__ = ["course_grades", "A1", "A2", "ROSTER", "WRITTEN", "RIGHT", "FOLDER", "TAMPERED",
           "CODE_WRONG"]
