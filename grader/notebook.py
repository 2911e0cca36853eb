"""nbgrader's notebook format: cell roles, markers, checksums, the student version.

A cell's ``metadata.nbgrader`` (schema 3), as nbgrader's Create Assignment
toolbar writes it: ``grade``, ``solution``, ``locked``, ``points``,
``grade_id``, ``schema_version``. What that makes a cell here:

    answer   solution only: the student's code; ``### BEGIN SOLUTION`` ...
             ``### END SOLUTION`` is replaced by a stub in the student version
    test     grade only (code): an autograded test; its grade_id names the
             question; ``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS``
             is removed from the student version
    manual   grade and solution: a written answer, graded by the teacher
    locked   locked only: read-only, restored from the source when grading
    free     no nbgrader metadata

The rules and texts follow nbgrader 0.9.6 (``ClearSolutions``,
``ClearHiddenTests``, ``LockCells``, ``ComputeChecksums``), so a course
using real nbgrader can take these notebooks unchanged.
"""

from __future__ import annotations

import copy
import hashlib
import re

import nbformat

__all__ = ["role", "grade_id", "points", "assignment_name", "clear_solutions",
           "clear_hidden_tests", "checksum", "problems", "student_version", "handout",
           "is_student_version", "stub_solutions", "SCHEMA_VERSION"]

SCHEMA_VERSION = 3
BEGIN_SOLUTION, END_SOLUTION = "BEGIN SOLUTION", "END SOLUTION"  # matched inside a line
BEGIN_HIDDEN, END_HIDDEN = "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
TEXT_STUB = "YOUR ANSWER HERE"


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader") or {}


def role(cell) -> str:
    meta = _meta(cell)
    grade, solution = bool(meta.get("grade")), bool(meta.get("solution"))
    if grade and solution:
        return "manual"
    if grade:
        return "test"
    if solution:
        return "answer"
    return "locked" if meta.get("locked") else "free"


def grade_id(cell) -> str | None:
    return _meta(cell).get("grade_id") if role(cell) != "free" else None


def points(cell) -> float:
    return float(_meta(cell).get("points", 0))


def assignment_name(notebook) -> str | None:
    """The assignment a notebook belongs to (notebook metadata ``minigrad_kit``); it names
    the question module ``<assignment>.py`` beside the instructor notebook."""
    return (notebook.metadata.get("minigrad_kit") or {}).get("assignment")


def _replace_region(source: str, begin: str, end: str, stub_lines: list | None):
    """``source`` with each begin..end region replaced by ``stub_lines`` (indented as the
    begin line), or removed when ``stub_lines`` is None. Returns (source, replaced)."""
    lines, inside, replaced = [], False, False
    for line in source.split("\n"):
        if begin in line:
            if inside:
                raise ValueError(f"a second '### {begin}' before '### {end}'")
            inside = replaced = True
            indent = re.match(r"\s*", line).group(0)
            lines += [indent + stub for stub in stub_lines or []]
        elif end in line:
            if not inside:
                raise ValueError(f"'### {end}' without '### {begin}'")
            inside = False
        elif not inside:
            lines.append(line)
    if inside:
        raise ValueError(f"'### {begin}' without '### {end}'")
    return "\n".join(lines), replaced


def clear_solutions(cell) -> str:
    """The student's version of a solution cell's source (nbgrader's ClearSolutions)."""
    stub = CODE_STUB if cell.cell_type == "code" else TEXT_STUB
    source, replaced = _replace_region(cell.source, BEGIN_SOLUTION, END_SOLUTION,
                                       stub.split("\n"))
    return source if replaced else stub


def clear_hidden_tests(source: str) -> str:
    """A test cell's source without its hidden tests (nbgrader's ClearHiddenTests)."""
    return _replace_region(source, BEGIN_HIDDEN, END_HIDDEN, None)[0]


def checksum(cell) -> str:
    """nbgrader's ``compute_checksum``: what the student version of a cell should hash to."""
    meta, kind = _meta(cell), role(cell)
    digest = hashlib.md5()
    for part in (cell.source, cell.cell_type, str(bool(meta.get("grade"))),
                 str(bool(meta.get("solution"))), str(kind in ("test", "locked")),
                 meta["grade_id"]):
        digest.update(part.encode("utf-8"))
    if meta.get("grade"):
        digest.update(str(float(meta["points"])).encode("utf-8"))
    return digest.hexdigest()


def student_version(notebook):
    """Solutions stubbed, hidden tests removed, outputs cleared, cells locked, checksums."""
    released = copy.deepcopy(notebook)
    for cell in released.cells:
        kind = role(cell)
        if kind in ("answer", "manual"):
            cell.source = clear_solutions(cell)
        if kind == "test":
            cell.source = clear_hidden_tests(cell.source)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            for field in ("collapsed", "scrolled"):  # (as nbconvert's ClearOutput)
                cell.metadata.pop(field, None)
        if kind != "free":
            cell.metadata["deletable"] = False
            if kind in ("test", "locked"):
                cell.metadata["editable"] = False
            cell.metadata["nbgrader"]["checksum"] = checksum(cell)
            cell.metadata["nbgrader"]["cell_type"] = cell.cell_type
    return released


# a Markdown link to a file outside the notebook's folder: [Lesson 10](../10_backprop.ipynb)
LINK_OUT = re.compile(r"\[([^\]\n]+)\]\((?:\.\./|/)[^)\s]*\)")


def handout(notebook):
    """The student version as handed out on its own (a release folder, a Gradescope or
    PrairieLearn handout): the folder holds the notebook and its question module only, so
    a link out of it (the footer's lesson) would lead nowhere and is kept as its text.
    (``make lab`` copies the assignments beside the lessons, links and all.)"""
    released = student_version(notebook)
    for cell in released.cells:
        if cell.cell_type == "markdown":
            cell.source = LINK_OUT.sub(r"\1", cell.source)
    return released


def is_student_version(notebook) -> bool:
    """Released to students (by ``minigrad-kit release`` or nbgrader): its cells carry
    nbgrader checksums, or every code answer cell is the bare stub."""
    cells = [c for c in notebook.cells if role(c) != "free"]
    if any("checksum" in _meta(c) for c in cells):
        return True
    answers = [c for c in cells if role(c) == "answer" and c.cell_type == "code"]
    return bool(answers) and all(c.source.strip() == CODE_STUB for c in answers)


def stub_solutions(notebook):
    """The source with every solution stubbed but hidden tests kept (what a blank
    submission looks like to nbgrader's autograder)."""
    stubbed = copy.deepcopy(notebook)
    for cell in stubbed.cells:
        if role(cell) in ("answer", "manual"):
            cell.source = clear_solutions(cell)
    return stubbed


def problems(notebook, path: str) -> list[str]:
    """What stops this notebook from being released, each with where and how to fix it."""
    found, seen = [], {}
    for index, cell in enumerate(notebook.cells):
        meta, kind = _meta(cell), role(cell)
        here = f"{path}: cell {index + 1}"
        if kind == "free":
            found += _stray_markers(cell, here, "answer or test")
            continue
        ident = meta.get("grade_id")
        here += f" ({ident!r})" if ident else ""
        if meta.get("schema_version") != SCHEMA_VERSION:
            found.append(f"{here}: nbgrader schema_version is {meta.get('schema_version')!r}, "
                         "expected 3; open the notebook with nbgrader's Create Assignment "
                         "toolbar (it upgrades the metadata) or set schema_version to 3")
        if not ident:
            found.append(f"{here}: nbgrader cell without a grade_id; give it a unique "
                         "grade_id (e.g. 'q1')")
        elif ident in seen:
            found.append(f"{here}: grade_id {ident!r} is also used by cell {seen[ident]}; "
                         "grade_ids must be unique")
        else:
            seen[ident] = index + 1
        if meta.get("grade") and not isinstance(meta.get("points"), (int, float)):
            found.append(f"{here}: a graded cell needs points (a number), e.g. 'points': 2")
        if cell.cell_type == "markdown" and kind in ("test", "answer"):
            found.append(f"{here}: a markdown {kind} cell must be both graded and a "
                         "solution (a 'Manually graded answer' in nbgrader's toolbar)")
        found += _marker_problems(cell, kind, here)
    return found


def _marker_problems(cell, kind: str, here: str) -> list[str]:
    found = []
    for begin, end, allowed, what in ((BEGIN_SOLUTION, END_SOLUTION, ("answer", "manual"),
                                       "solution cell"),
                                      (BEGIN_HIDDEN, END_HIDDEN, ("test",), "test cell")):
        try:
            _, has_region = _replace_region(cell.source, begin, end, None)
        except ValueError as error:
            found.append(f"{here}: {error}; close each region on its own line")
            continue
        if has_region and kind not in allowed:
            found.append(f"{here}: has '### {begin}' but is not a {what}; mark it as one in "
                         "nbgrader's toolbar, or remove the markers")
    return found


def _stray_markers(cell, here: str, what: str) -> list[str]:
    if any(m in cell.source for m in (BEGIN_SOLUTION, BEGIN_HIDDEN)):
        return [f"{here}: has nbgrader markers but no nbgrader metadata; mark it as an "
                f"{what} cell in nbgrader's toolbar"]
    return []


def read(path) -> "nbformat.NotebookNode":
    """Read a notebook; the error names the file and what to do."""
    try:
        return nbformat.read(str(path), as_version=4)
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file; check the path") from None
    except Exception as error:  # noqa: BLE001 (nbformat raises several kinds)
        # (the kind only: nbformat's message quotes the file, which may be anything a link
        # or a student led to, and this text reaches the student's feedback)
        raise ValueError(f"{path} is not a readable notebook ({type(error).__name__}); "
                         "re-download it or ask for the .ipynb file again") from None
