"""``minigrad-kit export GRADES/ --to canvas|moodle|blackboard [--roster ROSTER.csv]``: the
CSV that a Canvas, Moodle or Blackboard gradebook imports, one column per assignment.

The roster is the gradebook the LMS itself exports, so every row it has is a student
the LMS knows, with the columns it matches students by:

* **Canvas** (Grades, Export, "Export Entire Gradebook"): ``Student, ID, SIS User ID,
  SIS Login ID, [Integration ID,] Section``, then the assignments. The file written
  keeps those identity columns in that order, adds one column per assignment (under
  the roster's own header of an assignment of that title, ``Title (12345)``: Canvas
  fills that assignment by its id) and, as the second row, ``Points Possible`` (what
  Canvas reads to make a new assignment). An empty cell changes nothing in Canvas.
* **Moodle** (Grade administration, Export, "Plain text file"): ``First name, Last name,
  ID number, Institution, Department, Email address``, then the grade items. The file
  written keeps the identity columns and adds one column per assignment; on import,
  map "Email address" (or "ID number") to the user and each column to a grade item.
  An empty cell is "no grade", which Moodle's import sets, clearing a grade it had: a
  roster row without any points is left out of the file (``_clearing``).

A student whose notebook a platform's download named (``batch.platform_id``) is matched
by the id that platform gave them, and by nothing else: Canvas's user id to the
gradebook's ``ID``, Moodle's participant id to the assignment's grading worksheet
(below), Blackboard's username to the Grade Center's ``Username``. Any other student is
matched to a roster row by the name the grader gave them (the file name,
``alice.ipynb``; in nbgrader's layout the folder's) against one roster column
(``--match``, else the column that matches the most students): the value itself, or,
for an e-mail address, the part before the ``@``; as the grader writes names (``a b``
is ``a_b``) and ignoring case.

Three more shapes of the files:

* **Moodle's grading worksheet** (the assignment's "Download grading worksheet", which
  needs its feedback type "Offline grading worksheet"): ``Identifier`` ("Participant
  456", the id of the download's folder ``Bob B_456_assignsubmission_file_``), ``Full
  name``, ..., ``Grade``, ``Maximum Grade``, ``Grade can be changed``, ..., ``Last
  modified (grade)``, the feedback columns. The participant id is the assignment's own,
  which Moodle's gradebook export does not hold: given as the roster, the worksheet is
  written back as it came, with the ``Grade`` of each student graded (the points scaled
  to the worksheet's ``Maximum Grade`` where that differs; Moodle skips a grade above
  it; written as ``number`` writes it, which Moodle reads back in any language) for the
  assignment's "Upload grading worksheet", and every other ``Grade`` empty. Its ``Last
  modified (grade)`` stays as downloaded: Moodle keeps a grade changed after the
  download. Moodle writes the worksheet's Grade and Maximum Grade with the grade item's
  decimals (``format_float``, 0 to 5: ``8``, ``8.00``, ``8,00``; mod/assign's
  gradingtable.php) and its upload compares a grade with the assignment's own maximum
  (``process_import_grades``), which is a whole number (``assign.grade`` is an integer
  column, the settings form takes only whole numbers, and the gradebook cannot change an
  activity's maximum): the Maximum Grade shown is that maximum exactly, whatever the
  decimals. A Grade shown is rounded to them, though, and the upload stores any grade
  it reads that differs from the one Moodle has: a row written back with the 55.56 it
  was downloaded with would replace Moodle's 55.55556. An empty Grade is skipped.
* **Canvas without a roster**: when every student was named by Canvas's download, the
  file has one row per user id (``Student`` and the SIS columns empty): Canvas's import
  finds a student by ``ID`` first.
* **Blackboard** (Grade Center, Work Offline, Download: ``Last Name, First Name,
  Username, Student ID, ...``, a column ``Name [Total Pts: 9 Score] |1234`` per item):
  the file keeps those identity columns; an assignment whose column exists (the same
  name before `` [``) is written under that header, with its id, so that it fills that
  column. A column without an id makes Blackboard a new text column of 0 points.

The column header of an assignment is the teacher's text: ``--name``, else its title
as the instructor notebook writes it (never chosen by a student: the language a
student's notebook says it is in chose among the title's translations).

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

from .batch import CANVAS, MOODLE_FILE, safe_name
from .grade import Result
from .report import inert, write_atomic
from .stored import read_grades

__all__ = ["SYSTEMS", "WORKSHEET", "Export", "RosterError", "export", "number",
           "read_roster"]


@dataclass(frozen=True)
class System:
    name: str
    identity: tuple  # the roster's columns that say who a student is, in the LMS's order
    required: tuple  # the ones the import cannot do without
    match: tuple  # columns to try for matching, best first
    points_row: bool  # a "Points Possible" row under the header
    export_hint: str
    platform: str = ""  # the platform whose ids (batch.platform_id) the roster holds
    platform_column: str = ""  # the roster column that holds them


SYSTEMS = {
    "canvas": System(
        "Canvas", ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Section"),
        ("Student", "ID", "SIS Login ID", "Section"),
        ("SIS Login ID", "SIS User ID", "ID", "Student"), True,
        "export it from Canvas: Grades, Export, Export Entire Gradebook", "canvas", "ID"),
    "moodle": System(
        "Moodle", ("First name", "Last name", "ID number", "Institution", "Department",
                   "Email address"),
        ("First name", "Last name", "Email address"),
        ("Email address", "ID number"), False,
        "export it from Moodle: Grades, Export, Plain text file (or give the assignment's "
        "grading worksheet)"),
    "blackboard": System(
        "Blackboard", ("Last Name", "First Name", "Username", "Student ID"), ("Username",),
        ("Username", "Student ID"), False,
        "download it from Blackboard: Grade Center, Work Offline, Download (the full Grade "
        "Center, comma-delimited)", "blackboard", "Username"),
}
POINTS_POSSIBLE = "Points Possible"
# Moodle's grading worksheet (mod/assign, feedback "Offline grading worksheet"): the columns
# its upload reads (in English), and the participant id in "Participant 456"
WORKSHEET = System(
    "Moodle's grading worksheet", ("Identifier",),
    ("Identifier", "Grade", "Last modified (grade)"), ("Email address",), False,
    "download it from the Moodle assignment: View all submissions, Grading action, "
    "Download grading worksheet", "moodle", "Identifier")
PARTICIPANT = re.compile(r"^\D*?(\d+)\s*$")
# Moodle writes the worksheet's headers in the language of the teacher who downloads it,
# and its upload looks for them in the language of the teacher who uploads it (mod/assign's
# gradingtable.php and feedback/offline/importgradeslib.php: get_string of mod_assign's
# recordid, maxgrade, scale, gradecanbechanged, lastmodifiedgrade, and core's grade and
# no, as Moodle's language packs spell them; "Maximum grade" is "Maximum Grade" in some
# versions, so headers are compared ignoring case; a string a language pack lacks is
# written in English, so each is also looked for in English). Per language: Identifier,
# Grade, Maximum grade, Scale, Grade can be changed, Last modified (grade), and the "No" of
# a grade that cannot be changed.
WORKSHEET_LANGUAGES = {
    "English": ("Identifier", "Grade", "Maximum grade", "Scale", "Grade can be changed",
                "Last modified (grade)", "No"),
    "German": ("ID", "Bewertung", "Bestwertung", "Skala", "Bewertung kann geändert werden",
               "Zuletzt geändert (Bewertung)", "Nein"),
    "French": ("Identifiant", "Note", "Note maximale", "Barème", "La note peut être modifiée",
               "Dernière modification (note)", "Non"),
    "Spanish": ("Identificador", "Calificación", "Calificación máxima", "Escala",
                "La calificación puede cambiarse", "Última modificación (calificación)", "No"),
    "Chinese": ("识别码", "成绩", "最高成绩", "量表", "允许更改成绩", "最后修改（教师）", "否"),
    "Korean": ("식별자", "성적", "최대 성적", "척도", "Grade can be changed",
               "마지막 수정됨(성적)", "아니오"),
}
MAXIMUM, SCALE, CAN_CHANGE, MODIFIED = ("Maximum grade", "Scale", "Grade can be changed",
                                       "Last modified (grade)")
WORKSHEET_KEYS = ("Identifier", "Grade", MAXIMUM, SCALE, CAN_CHANGE, MODIFIED)
BLACKBOARD_ITEM = re.compile(r"^(?P<name>.*?) \[[^\]]*\]\s*\|\s*\d+\s*$")  # "HW 2 [Total ...] |12"
CANVAS_ASSIGNMENT = re.compile(r"^(?P<name>.*) \(\d+\)$")  # "Homework 2 (12345)"
CANVAS_IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


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
    kind: str = ""  # "worksheet": Moodle's grading worksheet; "no roster": Canvas's ids
    by_id: int = 0  # results matched to a row by the id a platform's download gave
    by_name: int = 0  # results matched to a row by their name, in ``matched_by``
    notes: list = field(default_factory=list)  # what else the teacher should know, said once


def _key(text: str) -> str:
    """A name as the grader writes it (``grader.batch``: what is not a letter, digit, . or -
    becomes _), ignoring case."""
    return (re.sub(r"[^\w.-]", "_", text.strip()).lstrip(".") or "student").casefold()


def _keys(value: str) -> set:
    keys = {_key(value)} if value.strip() else set()
    if "@" in value:
        keys.add(_key(value.split("@", 1)[0]))
    return keys


def _read_table(path, system: System) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the CSV file ``path`` (comma, ; or tab), every row as long
    as the header; the LMS's own rows kept, empty lines dropped."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise RosterError(f"the roster {path} could not be read ({error}); "
                          f"{system.export_hint}") from None
    first = text.splitlines()[0] if text.strip() else ""
    try:  # a spreadsheet saved in some locales separates with ; or a tab
        delimiter = csv.Sniffer().sniff(first, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    # (the delimiter alone: the rest of what the sniffer guesses from the header, which
    # has no quotes, read a field with doubled quotes, "=A(""x"")", as two fields' worth)
    table = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    header = [name.strip() for name in table[0]] if table else []
    rows = [(row + [""] * len(header))[:len(header)] for row in table[1:]
            if any(cell.strip() for cell in row)]
    return header, rows


def _missing(path, header: list[str], system: System) -> None:
    missing = [name for name in system.required if name not in header]
    if missing:
        raise RosterError(f"the roster {path} is not a {system.name} gradebook: it has no "
                          f"{', '.join(repr(m) for m in missing)} column (its columns: "
                          f"{', '.join(header[:8]) or 'none'}); {system.export_hint}")


def read_roster(path, system: System) -> tuple[list[str], list[dict]]:
    """The roster's identity columns (in the LMS's order) and its student rows."""
    header, table = _read_table(path, system)
    _missing(path, header, system)
    identity = [name for name in system.identity if name in header]
    rows = []
    for cells in table:
        row = dict(zip(header, cells))
        first = (row.get(identity[0]) or "").strip()
        if first == POINTS_POSSIBLE or (first == "" and not any(
                (row.get(c) or "").strip() for c in identity[1:])):
            continue  # Canvas's own "Points Possible" row, or an empty line
        rows.append({name: (row.get(name) or "").strip() for name in identity})
    return identity, rows


@dataclass(frozen=True)
class Worksheet:
    """Where the columns of a Moodle grading worksheet are, in the language it was
    downloaded in: ``at`` maps each of ``WORKSHEET_KEYS`` found to its index."""

    language: str
    at: dict
    no: str  # that language's "No" (a grade that cannot be changed)


def worksheet_columns(header: list[str]) -> Worksheet | None:
    """The columns of Moodle's grading worksheet whose header is ``header``: those of the
    language (``WORKSHEET_LANGUAGES``) whose Identifier, Grade and Last modified (grade),
    the three its upload needs, are all there; None when no language's are."""
    folded: dict = {}
    for index, name in enumerate(header):
        folded.setdefault(name.strip().casefold(), index)
    english = WORKSHEET_LANGUAGES["English"]
    for language, names in WORKSHEET_LANGUAGES.items():
        at = {}
        for key, name, fallback in zip(WORKSHEET_KEYS, names, english):
            found = [folded[n.casefold()] for n in (name, fallback) if n.casefold() in folded]
            if found:
                at[key] = found[0]
        if all(key in at for key in WORKSHEET.required):  # (English first: all of it)
            return Worksheet(language, at, names[-1])
    return None


def is_worksheet(path) -> bool:
    """Whether the roster at ``path`` is a Moodle assignment's grading worksheet."""
    try:
        header = _read_table(path, WORKSHEET)[0]
    except RosterError:
        return False
    return worksheet_columns(header) is not None


def _unknown_worksheet(path) -> None:
    """Refuse, saying why, a roster whose first column holds Moodle's participant ids
    ("Teilnehmer/in 7") but whose headers are in a language ``WORKSHEET_LANGUAGES`` lacks:
    a grading worksheet whose Grade column cannot be told."""
    try:
        header, rows = _read_table(path, WORKSHEET)
    except RosterError:
        return
    firsts = [PARTICIPANT.match(row[0].strip()) for row in rows if header and row[0].strip()]
    prefixes = {match.string[:match.start(1)].strip() for match in firsts if match}
    if not firsts or not all(firsts) or len(prefixes) != 1:
        return
    raise RosterError(
        f"the roster {path} looks like a Moodle grading worksheet (its first column, "
        f"{header[0]!r}, holds participant ids such as {firsts[0].string.strip()!r}), but its "
        f"headers are in a language the kit does not know ({', '.join(header[:6])}, ...): "
        "its Identifier, Grade and Last modified (grade) columns could not be found, so "
        "nothing was written. Download the worksheet with Moodle in "
        f"{', '.join(WORKSHEET_LANGUAGES)} (your profile's Preferred language, or the "
        "language menu) and upload it in the same language")


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
    """The assignment's title as its instructor notebook writes it (the teacher's text);
    for results stored before the grader kept it, the English title, else the
    assignment's name. Never a translation a student's ``lang`` chose."""
    headings = [r.heading for r in results if r.heading]
    english = [r.title for r in results if r.title and r.lang == "en"]
    return (headings or english or [assignment])[0]


class _Places:
    """The roster rows a result is matched to: by the platform's id (``platform_id``) in
    the platform's column, for a student a platform's download named; else by the name
    the grader gave them in ``column``."""

    def __init__(self, rows: list[dict], column: str, system: System, ids: list[str]):
        self.system, self.by_key, self.by_id, self.hinted = system, {}, {}, set()
        for index, row in enumerate(rows):
            for key in _keys(row.get(column, "")):
                self.by_key.setdefault(key, []).append(index)
        for index, value in enumerate(ids):
            if value:
                self.by_id.setdefault(value, []).append(index)

    def __call__(self, result: Result) -> list[int]:
        if not result.platform:
            return self.by_key.get(_key(result.student), [])
        platform, _colon, value = result.platform.partition(":")
        if platform == self.system.platform:
            return self.by_id.get(value, [])
        if platform == "blackboard-head" and self.system.platform == "blackboard":
            # (no receipt: ``<Assignment>_<username>``, either may hold "_": the one
            # username the head ends with; two, "j_doe" and "doe", match nothing)
            return sorted(index for name, rows in self.by_id.items()
                          if value.endswith("_" + name) for index in rows)
        self.hinted.add(platform.partition("-")[0])
        return []


def export(out, to: str, roster=None, target=None, *, match: str | None = None,
           names: dict | None = None, assignment: str | None = None) -> Export:
    """Write the import file for ``to`` ("canvas", "moodle" or "blackboard"); see the
    module docstring. ``roster`` None: Canvas's ids alone (Canvas only); a Moodle grading
    worksheet: that worksheet, for ``assignment`` (needed when several were graded)."""
    grades = read_grades(out)
    if to == "moodle" and roster is not None and is_worksheet(roster):
        return _worksheet(grades, out, roster, target, match, names or {}, assignment)
    older = _older(grades)
    system = SYSTEMS[to]
    if roster is None:
        if to != "canvas":
            raise RosterError(f"--roster is needed for {system.name}: {system.export_hint}")
        identity, rows, ids = _canvas_ids(grades)
    else:
        if to == "moodle":
            _unknown_worksheet(roster)
        identity, rows = read_roster(roster, system)
        ids = [row.get(system.platform_column, "") for row in rows]
    graded = [r for r in grades.results if r.assignment]
    assignments = sorted({r.assignment for r in graded})
    # (the column is chosen by the students whose own notebooks these are: in students' own
    # folders, zed's 1.ipynb, 2.ipynb, ... named after the roster's SIS User IDs, held as
    # notebooks beside another's, outnumbered the class's logins, and every student of the
    # class matched no row: nothing exported but zed's files; and by the students no
    # platform named, whose rows the platform's ids find)
    column = _matching_column(rows, {r.student for r in grades.results
                                     if not r.beside and not r.platform}, system, match)
    columns = {a: (names or {}).get(a) or _column_name(grades.of(a), a) for a in assignments}
    maxima = {a: max((sum(q.max_points for q in r.questions) for r in grades.of(a)
                      if not r.error), default=0) for a in assignments}
    report = Export(Path(target) if target else Path(out) / f"{to}.csv", columns, maxima,
                    column, kind="" if roster is not None else "no roster")
    report.notes += older
    places = _Places(rows, column, system, ids)
    cells = _cells(grades, places, report)
    _hints(places, system, report)
    heads = {r.student for r in grades.results if r.platform.startswith("blackboard-head:")}
    if to == "blackboard" and heads & {student for student, *_ in report.not_in_roster}:
        report.notes.append("a Blackboard file's head, <Assignment>_<username>, ends with no "
                            "roster username, or with two (j_doe, doe): its receipt, "
                            "<head>_attempt_<date>.txt, names the username; keep the receipts "
                            "beside the files as Blackboard's download made them")
    headers = [columns[a] for a in assignments]
    if to in ("blackboard", "canvas") and roster is not None:
        headers = _existing_headers(roster, headers, to, report)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([inert(value) for value in identity + headers])
    if system.points_row:
        writer.writerow([POINTS_POSSIBLE] + [""] * (len(identity) - 1)
                        + [number(maxima[a]) for a in assignments])
    left_out, cleared = [], []
    for index, row in enumerate(rows):
        line = [row[name] for name in identity]
        who = row[column] or ids[index] or row[identity[0]]
        for assignment in assignments:
            if (index, assignment) not in cells:
                report.no_submission.append((who, assignment))
                line.append("")
                continue
            points = cells[index, assignment]
            report.filled += points is not None
            line.append("" if points is None else number(points))
        written = line[len(identity):]
        if to == "moodle" and not any(written):
            left_out.append(who)  # (an empty cell clears the grade Moodle has: below)
            continue
        if to == "moodle" and not all(written):
            cleared += [f"{who} ({columns[a]})" for a, cell in zip(assignments, written)
                        if not cell]
        writer.writerow([inert(value) for value in line])
    _clearing(left_out, cleared, report)
    write_atomic(report.path, buffer.getvalue())
    return report


def _clearing(left_out: list, cleared: list, report: Export) -> None:
    """Moodle's CSV import reads an empty cell (or ``-``) as "no grade" and sets it
    (grade/import/csv/classes/load_data.php, ``update_grade_item``; lib.php,
    ``grade_import_commit``): it clears the grade a student already has there, one the
    teacher entered by hand among them. A row without any points is left out of the file
    (the import leaves a student it does not name as they are); a row with points in one
    column and an empty cell in another is said."""
    if left_out:
        report.notes.append(
            f"left out of the file, so that Moodle keeps the grades it has for them (its "
            f"import clears the grade of an empty cell): {', '.join(left_out)}")
    if cleared:
        report.notes.append(
            f"Moodle's import clears the grade of an empty cell: {', '.join(cleared)} will "
            "have no grade in Moodle after the import (map that column to nothing, or enter "
            "their grades again after it)")


def _older(grades) -> list[str]:
    """Results stored by a grader that did not yet record the platforms' ids (before
    ``heading`` and ``platform`` were kept: its graded results have no ``heading``). Where
    that grader named the student by the head a platform's download wrote in the file's
    name (Canvas's user id, ``bobsmith_456_9001_hw.ipynb``: student 456; Moodle's
    ``Full Name_<id>_assignsubmission_file_`` head: student Full_Name_<id>), the id is read
    again from that head, as a grading now would; every other such result is matched by
    its name, as before. Both are said, naming each student, with the re-grade that
    records the ids (a Blackboard download or Moodle's folders cannot be read again from a
    file name). The notes for the teacher."""
    again, by_name, notes = [], [], []
    for result in grades.results:
        if result.platform or result.heading or result.error or not result.assignment:
            continue
        canvas, moodle = CANVAS.match(result.file), MOODLE_FILE.match(result.file)
        if canvas and canvas["student"] == result.student:
            result.platform = f"canvas:{canvas['student']}"
        elif moodle and safe_name(moodle["student"]) == result.student:
            result.platform = "moodle:" + re.search(r"(\d+)$", moodle["student"])[1]
        else:
            by_name.append(result.student)
            continue
        again.append(result.student)
    hint = ("grade the submissions again into the same folder (minigrad-kit grade ... --out "
            "GRADES, with the same --salt) to record the ids the platforms gave")
    if again:
        notes.append(
            f"graded by an older minigrad-kit, which did not record the platforms' ids: "
            f"{', '.join(sorted(set(again)))} matched by the id the platform's head in "
            f"their file name gives; {hint}")
    if by_name:
        notes.append(
            f"graded by an older minigrad-kit, which did not record the platforms' ids: "
            f"{', '.join(sorted(set(by_name)))} matched by the name the grader gave them, "
            "never by an id a platform gave (a student in a folder Moodle's download made, "
            "Full Name_456_assignsubmission_file_, or named by Blackboard's download is "
            f"then matched by no row); {hint}")
    return notes


def _canvas_ids(grades) -> tuple[list[str], list[dict], list[str]]:
    """Without a roster: one Canvas row per user id that Canvas's download named
    (``Student`` and the SIS columns empty; Canvas's import finds a student by ``ID``)."""
    ids = sorted({r.platform.partition(":")[2] for r in grades.results
                  if r.platform.startswith("canvas:")}, key=lambda i: (len(i), i))
    rows = [{"Student": "", "ID": i, "SIS User ID": "", "SIS Login ID": "", "Section": ""}
            for i in ids]
    return list(CANVAS_IDENTITY), rows, ids


def _hints(places: _Places, system: System, report: Export) -> None:
    if "moodle" in places.hinted:
        report.notes.append(
            "students named by Moodle's download are matched by their participant id, which "
            "only the assignment's grading worksheet holds (Moodle's gradebook export does "
            "not): download it from the assignment (View all submissions, Grading action, "
            "Download grading worksheet; feedback type \"Offline grading worksheet\") and "
            "give it as --roster")
    for platform in sorted(places.hinted - {"moodle"}):
        report.notes.append(
            f"students named by {platform.title()}'s download are matched by the id "
            f"{platform.title()} gave them, which a {system.name} roster does not hold: "
            f"export to {platform} (--to {platform})")
    if report.kind == "no roster" and report.not_in_roster:
        report.notes.append("without --roster only students named by Canvas's download (by "
                            "their user id) are exported: give the gradebook as --roster")


def _cells(grades, places, report: Export, only: str | None = None) -> dict:
    """(roster row, assignment) -> points (None: empty, said why), for the results of
    ``grades`` (of ``only``, if given), each matched by ``places``."""
    results = [r for r in grades.results if only is None or r.assignment in ("", only)]
    cells: dict = {}
    # one cell, one submission: two students of the grader that match one roster row (the
    # names ``Bob`` and ``bob``, ``bob`` and ``bob@uni.edu``) would write one cell twice, the
    # last silently replacing the first; both are left empty and said instead
    whose: dict = {}
    # (and a notebook named after a student in another's own folder, held as such, never
    # takes a row from a notebook that is its student's own: zed's ``Bob.ipynb`` and bob's
    # own notebook matched bob's row, and bob's 9 of 9 was left for the teacher to enter)
    own = {(found[0], r.assignment) for r in results if not r.beside
           for found in [places(r)] if len(found) == 1}
    for result in results:
        found = places(result)
        if len(found) == 1 and result.assignment and not (
                result.beside and (found[0], result.assignment) in own):
            whose.setdefault((found[0], result.assignment), set()).add(result.student)
    for result in results:
        found = places(result)
        points, held, pending = _points(result)
        if len(found) != 1:
            if only is not None and not result.assignment and not found:
                continue  # (a file of no known assignment: perhaps another worksheet's)
            report.not_in_roster.append((result.student, result.assignment or "?",
                                         len(found)))
            continue
        if result.platform:
            report.by_id += 1
        else:
            report.by_name += 1
        if result.beside and (found[0], result.assignment) in own:
            report.set_aside.append((result.student, result.assignment, result.file,
                                     result.beside))
            continue
        shared = sorted(whose.get((found[0], result.assignment), ()))
        if len(shared) > 1:
            report.not_graded.append((result.student, result.assignment,
                                      f"{' and '.join(shared)} match the same roster row; "
                                      "enter the grade by hand"))
            cells[found[0], result.assignment] = None
            continue
        if result.error:
            report.not_graded.append((result.student, result.assignment or "?", result.error))
            if result.assignment:
                cells[found[0], result.assignment] = None
            continue
        if held:
            report.held.append((result.student, result.assignment, held))
        if pending:
            students, total = report.written_pending.get(result.assignment, (0, pending))
            report.written_pending[result.assignment] = (students + 1, total)
        cells[found[0], result.assignment] = points
    return cells


def _worksheet(grades, out, roster, target, match, names: dict, chosen: str | None) -> Export:
    """Moodle's grading worksheet ``roster`` written back with the ``Grade`` of each student
    graded in one assignment (see the module docstring), in the language it came in."""
    older = _older(grades)
    header, table = _read_table(roster, WORKSHEET)
    sheet = worksheet_columns(header)
    at = sheet.at
    if MAXIMUM not in at:  # (its "Scale" column: grades are the scale's words)
        scale = f" ({header[at[SCALE]]!r})" if SCALE in at else ""
        raise RosterError(f"the grading worksheet {roster} is of an assignment graded on a "
                          f"scale{scale}: points cannot be written there; set the "
                          "assignment's grade type to Point, and download it again")
    identifier, grade, modified = at["Identifier"], at["Grade"], at[MODIFIED]
    ids = [(PARTICIPANT.match(row[identifier].strip()) or [None, ""])[1] for row in table]
    assignment = _worksheet_assignment(grades, set(ids) - {""}, chosen, roster)
    rows = [dict(zip(header, (cell.strip() for cell in row))) for row in table]
    column = _matching_column(rows, {r.student for r in grades.of(assignment)
                                     if not r.beside and not r.platform},
                              WORKSHEET, match) if "Email address" in header or match \
        else "Identifier"
    report = Export(Path(target) if target else Path(out) / "moodle.csv",
                    {assignment: names.get(assignment) or header[grade]},
                    {assignment: max((sum(q.max_points for q in r.questions)
                                      for r in grades.of(assignment) if not r.error),
                                     default=0)}, "Identifier", kind="worksheet")
    report.notes += older
    places = _Places(rows if column != "Identifier" else [{} for _ in rows], column,
                     WORKSHEET, ids)
    cells = _cells(grades, places, report, assignment)
    possible = report.maxima[assignment]
    scaled, locked = set(), []
    lines = []
    for index, row in enumerate(table):
        # (a Grade the kit does not fill is left empty, which the upload skips: as
        # downloaded it is rounded to the grade item's decimals, 55.56 for the 55.55556
        # Moodle has, and the upload would store that)
        line = list(row[:grade]) + [""] + list(row[grade + 1:])
        if (index, assignment) not in cells:
            report.no_submission.append((row[identifier], assignment))
        elif cells[index, assignment] is not None:
            points = cells[index, assignment]
            maximum = _number(row[at[MAXIMUM]])
            if maximum is not None and possible and maximum != possible:
                points = points * maximum / possible
                scaled.add(f"{maximum:g}")
            if CAN_CHANGE in at and row[at[CAN_CHANGE]].strip().casefold() == \
                    sheet.no.casefold():
                locked.append(row[identifier])
            line[grade] = number(points)  # (not the sign the maximum has: "100,00")
            report.filled += 1
        lines.append(line)
    if scaled:
        report.notes.append(f"the points (of {possible:g}) are written scaled to the "
                            f"worksheet's {header[at[MAXIMUM]]}, "
                            f"{' and '.join(sorted(scaled))}, as Moodle grades the assignment")
    if locked:
        report.notes.append(f"Moodle will not change the locked grades of {', '.join(locked)} "
                            f"({header[at[CAN_CHANGE]]!r}: {sheet.no})")
    if sheet.language != "English":
        report.notes.append(f"the worksheet's headers are in {sheet.language}, as Moodle "
                            "wrote them: upload it with Moodle in that language (its upload "
                            "looks for the columns in the language of whoever uploads)")
    imported = {identifier, grade, modified}
    feedback = set(range(modified + 1, len(header)))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    for line in lines:
        # (what Moodle's upload reads is written as Moodle wrote it; the rest, a student's
        # online text among it, can never run as a spreadsheet formula)
        writer.writerow([cell if i in imported or i in feedback else inert(cell)
                         for i, cell in enumerate(line)])
    write_atomic(report.path, buffer.getvalue())
    return report


def _worksheet_assignment(grades, ids: set, chosen: str | None, roster) -> str:
    """The assignment a grading worksheet is of: ``chosen``, else the one whose students
    Moodle named by the worksheet's participant ids (an id is one assignment's), else the
    only one graded."""
    graded = grades.assignments()
    if chosen:
        if chosen not in graded:
            raise RosterError(f"--assignment {chosen!r} was not graded in this folder "
                              f"(graded: {', '.join(graded) or 'none'})")
        return chosen
    named = {r.assignment for r in grades.results if r.assignment
             and r.platform.startswith("moodle:") and r.platform[7:] in ids}
    if len(named) == 1:
        return named.pop()
    if len(graded) == 1 and not named:
        return graded[0]
    raise RosterError(f"the grading worksheet {roster} is one assignment's; which of "
                      f"{', '.join(sorted(named) or graded) or 'none'} is it? Give "
                      "--assignment NAME")


def number(value: float) -> str:
    """``value`` as a learning platform's import reads it back as the same number, in any
    language: digits and a point, no exponent, no thousands separator, at most five
    decimals (what Moodle keeps of a grade). Moodle reads a grade with ``unformat_float``
    (lib/moodlelib.php): spaces dropped, the decimal sign of whoever uploads replaced by a
    point, then PHP's own reading of a number, which stops at the first character that is
    not one; so ``7,5`` is 7 where the uploader's sign is the point (English) and
    7.5 where it is the comma, while ``7.5`` is 7.5 for both. (Written as ``:g``,
    a grade had six digits: ``1.23457e+06``.)"""
    text = f"{value:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _number(text: str) -> float | None:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return None


def _existing_headers(roster, headers: list[str], to: str, report: Export) -> list[str]:
    """Each assignment's header as the roster names the LMS's own column of that name, with
    its id (Canvas: ``Homework 2 (12345)``; Blackboard: ``HW 2 [Total Pts: 9 Score]
    |1234``), so that the import fills that column; else the name alone (Canvas fills the
    assignment of that title or makes one; Blackboard makes a text column of 0 points)."""
    pattern = CANVAS_ASSIGNMENT if to == "canvas" else BLACKBOARD_ITEM
    existing: dict = {}
    for name in _read_table(roster, SYSTEMS[to])[0]:
        match = pattern.match(name)
        if match:
            existing.setdefault(match["name"].strip(), []).append(name)
    written = []
    for name in headers:
        found = existing.get(name, [])
        written.append(found[0] if len(found) == 1 else name)
        if len(found) > 1:
            report.notes.append(f"{SYSTEMS[to].name} has {len(found)} columns named {name!r} "
                                f"({', '.join(found)}): --name the one to fill")
        elif not found and to == "blackboard":
            report.notes.append(f"Blackboard has no column {name!r} yet: the upload makes it a "
                                "text column of 0 points; create the column first (points "
                                "possible as printed), download the Grade Center again and "
                                "export with it, or --name the column as Blackboard names it")
    return written
