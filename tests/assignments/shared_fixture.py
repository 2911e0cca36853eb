"""Compute an expensive fixture once per test session, even across pytest-xdist workers.

The first worker to create the folder computes; the others wait for its JSON
result (the pattern pytest-xdist documents, with mkdir as the lock).
"""

import csv
import json
import os
import time
from pathlib import Path

import nbformat

from grader.cli import main
from grader.report import write_atomic

WAIT_SECONDS = 900


def shared(tmp_path_factory, name: str, compute) -> dict:
    """``compute(folder)`` -> a JSON-able dict, run once; every caller gets that dict."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by all the workers of this session
    folder, done = root / name, root / f"{name}.json"
    try:
        folder.mkdir()
    except FileExistsError:
        deadline = time.monotonic() + WAIT_SECONDS
        while not done.exists():
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {done} after {WAIT_SECONDS} s") from None
            time.sleep(0.2)
        result = json.loads(done.read_text())
        if "error" in result:
            raise RuntimeError(f"the worker that computed {name!r} failed: {result['error']}")
        return result
    try:
        result = compute(folder)
    except BaseException as error:
        write_atomic(done, json.dumps({"error": repr(error)}))
        raise
    write_atomic(done, json.dumps(result))
    return result


def grade_notebooks(folder: Path, notebooks: dict, salt: str) -> dict:
    """``minigrad-kit grade`` (sandbox required, two jobs, 10 s a run) of ``notebooks``
    (student name -> notebook, or its JSON text written as it is) written into
    ``folder/submitted``: a ``shared`` result."""
    submitted, out = folder / "submitted", folder / "grades"
    submitted.mkdir()
    for name, notebook in notebooks.items():
        if isinstance(notebook, str):
            (submitted / f"{name}.ipynb").write_text(notebook, encoding="utf-8")
        else:
            nbformat.write(notebook, submitted / f"{name}.ipynb")
    start = time.monotonic()
    status = main(["grade", str(submitted), "--out", str(out), "--timeout", "10", "--jobs",
                   "2", "--salt", salt, "--sandbox", "required"])
    return {"status": status, "out": str(out), "seconds": time.monotonic() - start}


def read_graded(graded: dict) -> dict:
    """A shared ``grade`` run's dict with what it wrote added: ``results`` (each student's
    result JSON, by student) and ``book`` (gradebook.csv's rows)."""
    out = Path(graded["out"])
    results = {}
    for path in (out / "results").glob("*/*.json"):
        result = json.loads(path.read_text(encoding="utf-8"))
        results[result["student"]] = result
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as file:
        book = list(csv.DictReader(file))
    return {**graded, "results": results, "book": book}


def points_and_review(out: Path) -> dict:
    """gradebook.csv in ``out``: (points, needs_review) by (student, question)."""
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as file:
        return {(row["student"], row["question"]): (row["points"], row["needs_review"])
                for row in csv.DictReader(file)}


def book_rows(graded: dict, student: str) -> dict:
    """``student``'s gradebook rows, by question."""
    return {r["question"]: r for r in graded["book"] if r["student"] == student}


def check_class_graded(graded: dict, students: set) -> None:
    """The grading run ended well: exactly ``students`` graded, none with an error, within a
    minute."""
    assert graded["status"] == 0
    assert set(graded["results"]) == students
    assert all(r["error"] == "" for r in graded["results"].values())
    assert graded["seconds"] < 60


def check_full_marks_unflagged(result: dict) -> None:
    """An honest submission: every question graded by the grader at its full points, no flag
    and no problem (the points and findings said when not)."""
    assert result["questions"] and all(q["points"] == q["max_points"] for q in
                                       result["questions"] if not q["manual"]), \
        [(q["name"], q["points"], q["findings"]) for q in result["questions"]]
    assert result["flags"] == [] and result["problems"] == []
