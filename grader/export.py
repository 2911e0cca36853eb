"""``minigrad-kit export GRADES/ --to canvas|moodle --roster ROSTER.csv``: the CSV that a
Canvas or Moodle gradebook imports, one column per assignment.

The roster is the gradebook the LMS itself exports, so every row it has is a student
the LMS knows, with the columns it matches students by:

* **Canvas** (Grades, Export, "Export Entire Gradebook"): ``Student, ID, SIS User ID,
  SIS Login ID, [Integration ID,] Section``, then the assignments. The file written
  keeps those identity columns in that order, adds one column per assignment and, as
  the second row, ``Points Possible`` (what Canvas reads to make a new assignment). An
  empty cell changes nothing in Canvas.
* **Moodle** (Grade administration, Export, "Plain text file"): ``First name, Last name,
  ID number, Institution, Department, Email address``, then the grade items. The file
  written keeps the identity columns and adds one column per assignment; on import,
  map "Email address" (or "ID number") to the user and each column to a grade item.
  An empty cell is "no grade".

A student is matched to a roster row by the name the grader gave them (the file name,
``alice.ipynb``; in nbgrader's layout the folder's) against one roster column
(``--match``, else the column that matches the most students): the value itself, or,
for an e-mail address, the part before the ``@``; as the grader writes names (``a b``
is ``a_b``) and ignoring case.

The cell of an assignment is the student's points (review decisions applied, written
answers counted once the teacher has graded them, see below) and stays **empty** for a
roster student with no submission (not a zero), a submission that could not be graded,
or points held back for review. Each of those is listed, and so is every graded
submission that matches no roster row (the exit status is then 1).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from .grade import Result
from .report import inert, write_atomic
from .stored import read_grades

__all__ = ["SYSTEMS", "Export", "RosterError", "export", "read_roster"]


@dataclass(frozen=True)
class System:
    name: str
    identity: tuple  # the roster's columns that say who a student is, in the LMS's order
    required: tuple  # the ones the import cannot do without
    match: tuple  # columns to try for matching, best first
    points_row: bool  # a "Points Possible" row under the header
    export_hint: str


SYSTEMS = {
    "canvas": System(
        "Canvas", ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Section"),
        ("Student", "ID", "SIS Login ID", "Section"),
        ("SIS Login ID", "SIS User ID", "ID", "Student"), True,
        "export it from Canvas: Grades, Export, Export Entire Gradebook"),
    "moodle": System(
        "Moodle", ("First name", "Last name", "ID number", "Institution", "Department",
                   "Email address"),
        ("First name", "Last name", "Email address"),
        ("Email address", "ID number"), False,
        "export it from Moodle: Grades, Export, Plain text file"),
}
POINTS_POSSIBLE = "Points Possible"


class RosterError(ValueError):
    """The roster is not what the LMS exports (the message says what to do)."""


@dataclass
class Export:
    """What was written, and what the teacher should know."""

    path: Path
    columns: dict  # assignment -> column header
    maxima: dict  # assignment -> points possible
    matched_by: str
    filled: int = 0  # cells with points
    no_submission: list = field(default_factory=list)  # (matched roster value, assignment)
    not_graded: list = field(default_factory=list)  # (student, assignment, why)
    held: list = field(default_factory=list)  # (student, assignment, questions)
    written_pending: dict = field(default_factory=dict)  # assignment -> (students, points)
    not_in_roster: list = field(default_factory=list)  # (student, assignment, rows matched)
    # (student, assignment, file, folder's student): notebooks named after a student in
    # another's own folder, whose row a notebook of its own student fills
    set_aside: list = field(default_factory=list)


def _key(text: str) -> str:
    """A name as the grader writes it (``grader.batch``: what is not a letter, digit, . or -
    becomes _), ignoring case."""
    return (re.sub(r"[^\w.-]", "_", text.strip()).lstrip(".") or "student").casefold()


def _keys(value: str) -> set:
    keys = {_key(value)} if value.strip() else set()
    if "@" in value:
        keys.add(_key(value.split("@", 1)[0]))
    return keys


def read_roster(path, system: System) -> tuple[list[str], list[dict]]:
    """The roster's identity columns (in the LMS's order) and its student rows."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise RosterError(f"the roster {path} could not be read ({error}); "
                          f"{system.export_hint}") from None
    first = text.splitlines()[0] if text.strip() else ""
    try:  # a spreadsheet saved in some locales separates with ; or a tab
        dialect = csv.Sniffer().sniff(first, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    header = [name.strip() for name in reader.fieldnames or []]
    reader.fieldnames = header
    missing = [name for name in system.required if name not in header]
    if missing:
        raise RosterError(f"the roster {path} is not a {system.name} gradebook: it has no "
                          f"{', '.join(repr(m) for m in missing)} column (its columns: "
                          f"{', '.join(header[:8]) or 'none'}); {system.export_hint}")
    identity = [name for name in system.identity if name in header]
    rows = []
    for row in reader:
        first = (row.get(identity[0]) or "").strip()
        if first == POINTS_POSSIBLE or (first == "" and not any(
                (row.get(c) or "").strip() for c in identity[1:])):
            continue  # Canvas's own "Points Possible" row, or an empty line
        rows.append({name: (row.get(name) or "").strip() for name in identity})
    return identity, rows


def _matching_column(rows: list[dict], students: set, system: System, chosen: str | None
                     ) -> str:
    if chosen:
        if rows and chosen not in rows[0]:
            raise RosterError(f"--match {chosen!r} is not a column of the roster (its "
                              f"columns: {', '.join(rows[0])})")
        return chosen
    wanted = {_key(s) for s in students}
    counts = [(sum(bool(_keys(r[c]) & wanted) for r in rows), c) for c in system.match
              if rows and c in rows[0]]
    best = max(counts, key=lambda pair: pair[0], default=(0, system.match[0]))
    return best[1]


def _points(result: Result) -> tuple[float | None, list[str], float]:
    """(points for the gradebook or None, held questions, written-answer points pending)."""
    held = [q.name for q in result.questions if q.held]
    pending = sum(q.max_points for q in result.questions if q.manual and q.points is None)
    if held or result.error:
        return None, held, pending
    return sum(q.points for q in result.questions if q.points is not None), held, pending


def _column_name(results: list[Result], assignment: str) -> str:
    """The assignment's title as graded (English where there is an English submission)."""
    titles = [r.title for r in results if r.title and r.lang == "en"] + [
        r.title for r in results if r.title]
    return titles[0] if titles else assignment


def export(out, to: str, roster, target=None, *, match: str | None = None,
           names: dict | None = None) -> Export:
    """Write the import file for ``to`` ("canvas" or "moodle"); see the module docstring."""
    system = SYSTEMS[to]
    grades = read_grades(out)
    identity, rows = read_roster(roster, system)
    graded = [r for r in grades.results if r.assignment]
    assignments = sorted({r.assignment for r in graded})
    # (the column is chosen by the students whose own notebooks these are: in students' own
    # folders, zed's 1.ipynb, 2.ipynb, ... named after the roster's SIS User IDs, held as
    # notebooks beside another's, outnumbered the class's logins, and every student of the
    # class matched no row: nothing exported but zed's files)
    column = _matching_column(rows, {r.student for r in grades.results if not r.beside},
                              system, match)
    columns = {a: (names or {}).get(a) or _column_name(grades.of(a), a) for a in assignments}
    maxima = {a: max((sum(q.max_points for q in r.questions) for r in grades.of(a)
                      if not r.error), default=0) for a in assignments}
    report = Export(Path(target) if target else Path(out) / f"{to}.csv", columns, maxima,
                    column)
    by_key: dict = {}
    for index, row in enumerate(rows):
        for key in _keys(row[column]):
            by_key.setdefault(key, []).append(index)
    cells: dict = {}
    # one cell, one submission: two students of the grader that match one roster row (the
    # names ``Bob`` and ``bob``, ``bob`` and ``bob@uni.edu``) would write one cell twice, the
    # last silently replacing the first; both are left empty and said instead
    whose: dict = {}
    # (and a notebook named after a student in another's own folder, held as such, never
    # takes a row from a notebook that is its student's own: zed's ``Bob.ipynb`` and bob's
    # own notebook matched bob's row, and bob's 9 of 9 was left for the teacher to enter)
    own = {(places[0], r.assignment) for r in grades.results if not r.beside
           for places in [by_key.get(_key(r.student), [])] if len(places) == 1}
    for result in grades.results:
        places = by_key.get(_key(result.student), [])
        if len(places) == 1 and result.assignment and not (
                result.beside and (places[0], result.assignment) in own):
            whose.setdefault((places[0], result.assignment), set()).add(result.student)
    for result in grades.results:
        places = by_key.get(_key(result.student), [])
        points, held, pending = _points(result)
        if len(places) != 1:
            report.not_in_roster.append((result.student, result.assignment or "?",
                                         len(places)))
            continue
        if result.beside and (places[0], result.assignment) in own:
            report.set_aside.append((result.student, result.assignment, result.file,
                                     result.beside))
            continue
        shared = sorted(whose.get((places[0], result.assignment), ()))
        if len(shared) > 1:
            report.not_graded.append((result.student, result.assignment,
                                      f"{' and '.join(shared)} match the same roster row; "
                                      "enter the grade by hand"))
            cells[places[0], result.assignment] = None
            continue
        if result.error:
            report.not_graded.append((result.student, result.assignment or "?", result.error))
            if result.assignment:
                cells[places[0], result.assignment] = None
            continue
        if held:
            report.held.append((result.student, result.assignment, held))
        if pending:
            students, total = report.written_pending.get(result.assignment, (0, pending))
            report.written_pending[result.assignment] = (students + 1, total)
        cells[places[0], result.assignment] = points
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([inert(value) for value in identity + [columns[a] for a in assignments]])
    if system.points_row:
        writer.writerow([POINTS_POSSIBLE] + [""] * (len(identity) - 1)
                        + [f"{maxima[a]:g}" for a in assignments])
    for index, row in enumerate(rows):
        line = [row[name] for name in identity]
        for assignment in assignments:
            if (index, assignment) not in cells:
                report.no_submission.append((row[column] or row[identity[0]], assignment))
                line.append("")
                continue
            points = cells[index, assignment]
            report.filled += points is not None
            line.append("" if points is None else f"{points:g}")
        writer.writerow([inert(value) for value in line])
    write_atomic(report.path, buffer.getvalue())
    return report
