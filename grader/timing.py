"""How long each submission took to grade: ``OUT/timing.csv``.

    student,assignment,seconds
    alice,derive_it_by_hand,1.42

Wall-clock seconds of one submission's grading (its kernel, the notebook, judging),
measured in the worker that graded it. The item analysis (``minigrad-kit report``)
shows them. It is the one file of ``OUT`` that differs from one run to the next, so
it lives apart from the results (which are identical, run after run): a later run
replaces the rows of the submissions it graded and keeps the others, and ``merge``
joins the parts' files. A submission that could not be graded has no row.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from .report import FORMULA_START, inert, write_atomic

__all__ = ["TIMING", "read_timing", "write_timing", "merge_timing"]

TIMING = "timing.csv"


def read_timing(out) -> dict:
    """``(assignment, student) -> seconds`` from ``out/timing.csv`` (empty if none, and rows
    that are not a number are skipped: the file is a measurement, never trusted for more)."""
    try:
        text = (Path(out) / TIMING).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    found = {}
    for row in csv.DictReader(io.StringIO(text)):
        try:
            seconds = float(row["seconds"])
        except (KeyError, TypeError, ValueError):
            continue
        if math.isfinite(seconds) and seconds >= 0 and row.get("student") and row.get(
                "assignment"):
            found[_as_written(row["assignment"]), _as_written(row["student"])] = seconds
    return found


def _as_written(field: str) -> str:
    """A field as it was before ``inert`` wrote it (its apostrophe taken off again): read
    as written, a student named ``-x`` had a row ``'-x`` that the next grading did not
    replace, and the item analysis counted both (red team 17)."""
    return field[1:] if field.startswith("'") and field[1:].startswith(FORMULA_START) \
        else field


def _write(out, timing: dict) -> None:
    buffer = io.StringIO()
    rows = csv.writer(buffer, lineterminator="\n")
    rows.writerow(["student", "assignment", "seconds"])
    for (assignment, student), seconds in sorted(timing.items()):
        rows.writerow([inert(student), inert(assignment), f"{seconds:.2f}"])
    write_atomic(Path(out) / TIMING, buffer.getvalue())


def write_timing(out, measured: list[tuple]) -> None:
    """Add ``(result, seconds)`` pairs of this run to ``out/timing.csv``."""
    timing = read_timing(out)
    timing.update({(r.assignment, r.student): seconds for r, seconds in measured
                   if not r.error and seconds is not None})
    _write(out, timing)


def merge_timing(parts: list, out) -> None:
    """``out/timing.csv`` from the parts' files (and what ``out`` already had)."""
    timing = read_timing(out)
    for part in parts:
        timing.update(read_timing(part))
    if timing:
        _write(out, timing)
