"""Grades back into the platform a class was collected from, each student matched by the id
the platform gave them (the real ``minigrad-kit grade``, then ``export``).

The files the platforms' downloads make and the files their imports read are laid out as
their sources and guides document them:

* **Moodle** (mod/assign): "Download all submissions" names each student's folder
  ``<Full name>_<participant id>_assignsubmission_file_`` (or, without folders, each file
  with that head); the assignment's grading worksheet (feedback "Offline grading
  worksheet") has the columns ``Identifier`` ("Participant <id>": the same id), ``Full
  name``, ..., ``Grade``, ``Maximum Grade``, ``Grade can be changed``, ``Last modified
  (submission)``, ``Last modified (grade)``, ``Feedback comments``. Its upload
  (``assignfeedback_offline_grade_importer``) needs the columns Identifier, Grade and Last
  modified (grade), takes the id after "Participant ", skips an empty grade and one above
  the assignment's maximum. Moodle's gradebook export has no participant id at all.
* **Canvas**: ``<name>[_late]_<user id>_<submission id>_<file>``; the gradebook import
  (``GradebookImporter``) reads ``Student``, ``ID``, then ``SIS User ID`` and ``SIS Login
  ID`` (or the latter alone), the last identity column ``Section``, a ``Points Possible``
  row, and finds a student by ``ID`` (the user id) before any other column.
* **Blackboard**: ``<Assignment>_<username>_attempt_<date>_<file>`` and the receipt
  ``<Assignment>_<username>_attempt_<date>.txt`` ("Name: <name> (<username>)"); the Grade
  Center's upload finds a student by ``Username`` and a column by the id after ``|``.

In each: an honest class, and a student whose chosen file name is a classmate's
(the name a student typed never credits anyone)."""

import csv
import io
import re
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, right
from shared_fixture import points_and_review

from grader.batch import platform_id
from grader.cli import main
from grader.questions import find_assignment
from grader.stored import read_grades

pytestmark = pytest.mark.slow

D = "derive_it_by_hand"
SALT = "kept by the teacher"
TITLE = find_assignment(D).title  # the instructor notebook's own title
NUMBER = re.compile(r"^\d+(\.\d+)?$")
WORKSHEET_HEADER = ["Identifier", "Full name", "Email address", "Status", "Grade",
                    "Maximum Grade", "Grade can be changed", "Last modified (submission)",
                    "Online text", "Last modified (grade)", "Feedback comments"]
MODIFIED = "Monday, 30 November 2026, 9:15 AM"


def _put(folder: Path, name: str, notebook) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / name)


def _right():
    return build(D, None, right(D, None))


def _wrong():
    return build(D, None, WRONG[D])


def _grade(given: Path, out: Path) -> int:
    return main(["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt",
                 SALT, "--jobs", "1", "--variants", "none"])


def _export(out: Path, *args) -> int:
    return main(["export", str(out), *[str(a) for a in args]])


def _write(path: Path, rows: list) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


# --- Moodle ------------------------------------------------------------------------------

def worksheet(path: Path, students: list, maximum: str = "100.00") -> None:
    """The grading worksheet Moodle downloads: (participant id, full name, grade so far)."""
    rows = [WORKSHEET_HEADER]
    for number, name, grade in students:
        rows.append([f"Participant {number}", name, f"{name.split()[0].lower()}@uni.edu",
                     "Submitted for grading", grade, maximum, "Yes", MODIFIED,
                     "=HYPERLINK(\"http://x\")", MODIFIED if grade else "-", ""])
    _write(path, rows)


def worksheet_upload(text: str) -> dict:
    """Moodle's "Upload grading worksheet", as its importer reads the file: the columns
    Identifier, Grade and Last modified (grade) must be there; a row's participant id is
    what follows "Participant "; an empty grade or one above the maximum is skipped.
    participant id -> the grade Moodle takes."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    ids, grades, modified = (header.index(name) for name in
                             ("Identifier", "Grade", "Last modified (grade)"))
    maximum = header.index("Maximum Grade")
    taken = {}
    for row in rows[1:]:
        assert len(row) == len(header), row
        assert row[ids].startswith("Participant "), row
        grade = row[grades]
        if grade == "" or float(grade) > float(row[maximum]):
            continue
        assert NUMBER.match(grade), row
        taken[int(row[ids][len("Participant "):])] = float(grade)
    return taken


MOODLE_LAYOUTS = {
    # (folder, file): the class as Moodle's download lays it out, with and without folders
    "folders": [("Alice A_7_assignsubmission_file_", "01_derive_it_by_hand.ipynb", "right"),
                ("Bob B_8_assignsubmission_file_", "Alice A_7_assignsubmission_file_x.ipynb",
                 "wrong")],
    "files": [("", "Alice A_7_assignsubmission_file_01_derive_it_by_hand.ipynb", "right"),
              ("", "Bob B_8_assignsubmission_file_Alice A_7_assignsubmission_file_x.ipynb",
               "wrong")],
}


@pytest.mark.parametrize("layout", sorted(MOODLE_LAYOUTS))
def test_moodle_worksheet_filled_by_participant_id(tmp_path, capsys, layout):
    """Alice right, Bob wrong (his file named as Moodle names Alice's), Cy handed nothing in:
    the worksheet comes back with Alice's and Bob's grades (scaled to Moodle's maximum of
    100), Cy's Grade empty (the upload skips it: Moodle keeps his 55); every other cell as
    downloaded; exit status 0."""
    given = tmp_path / "dl"
    for folder, name, kind in MOODLE_LAYOUTS[layout]:
        _put(given / folder, name, _right() if kind == "right" else _wrong())
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    worksheet(tmp_path / "worksheet.csv", [(7, "Alice A", ""), (8, "Bob B", ""),
                                          (9, "Cy C", "55.00")])
    capsys.readouterr()
    assert _export(out, "--to", "moodle", "--roster", tmp_path / "worksheet.csv") == 0
    said = capsys.readouterr().out
    written = (out / "moodle.csv").read_text(encoding="utf-8")
    assert worksheet_upload(written) == {7: 100.0, 8: 0.0}
    before = list(csv.reader(io.StringIO((tmp_path / "worksheet.csv").read_text())))
    after = list(csv.reader(io.StringIO(written)))
    assert after[0] == before[0]
    grade = WORKSHEET_HEADER.index("Grade")
    text = WORKSHEET_HEADER.index("Online text")
    for old, new in zip(before[1:], after[1:]):
        # (only the grade changed; a student's online text is never a formula)
        assert [c for i, c in enumerate(old) if i not in (grade, text)] == \
               [c for i, c in enumerate(new) if i not in (grade, text)]
        assert new[text] == "'" + old[text]
    assert "students matched by the worksheet's participant ids" in said
    assert "scaled to the worksheet's Maximum Grade, 100" in said
    assert "Upload grading worksheet" in said


def test_moodle_worksheet_of_the_assignments_points(tmp_path, capsys):
    """A worksheet whose maximum grade is the assignment's points: the points unscaled."""
    given = tmp_path / "dl"
    _put(given / "Alice A_7_assignsubmission_file_", "a.ipynb", _right())
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    points = f"{read_grades(out).results[0].max_points:.2f}"  # (what the grader gives)
    worksheet(tmp_path / "worksheet.csv", [(7, "Alice A", "")], maximum=points)
    assert _export(out, "--to", "moodle", "--roster", tmp_path / "worksheet.csv") == 0
    assert worksheet_upload((out / "moodle.csv").read_text()) == {7: float(points)}
    assert "scaled" not in capsys.readouterr().out


def test_moodle_gradebook_cannot_match_participant_ids(tmp_path, capsys):
    """Moodle's gradebook export holds no participant id: a class Moodle's download named is
    matched to no row (never by a name), each said, with what to download instead."""
    given = tmp_path / "dl"
    _put(given / "Alice A_7_assignsubmission_file_", "a.ipynb", _right())
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    _write(tmp_path / "gradebook.csv", [
        ["First name", "Last name", "ID number", "Institution", "Department",
         "Email address"],
        ["Alice", "A", "7", "Uni", "CS", "alice_a_7@uni.edu"]])
    capsys.readouterr()
    assert _export(out, "--to", "moodle", "--roster", tmp_path / "gradebook.csv") == 1
    said = capsys.readouterr()
    assert "Alice_A_7 (derive_it_by_hand) matches no roster row" in said.err
    assert "only the assignment's grading worksheet holds" in said.out
    rows = list(csv.DictReader(io.StringIO((out / "moodle.csv").read_text())))
    assert rows == []  # (her row, empty, is left out: Moodle's import would clear her grade)


# --- Canvas ------------------------------------------------------------------------------

def canvas_upload(text: str) -> tuple[dict, dict]:
    """Canvas's gradebook import, as ``GradebookImporter`` reads the file: the header's first
    column holds "Student" and its second "ID", then "SIS User ID" and "SIS Login ID" (or
    the latter alone), the last identity column "Section"; the "Points Possible" row; a
    student found by ``ID`` (a number). user id -> {assignment: grade}, and the points."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert "Student" in header[0] and "ID" in header[1]
    columns = 3
    if re.search(r"SIS\s+Login\s+ID", header[2]):
        columns += 1
    elif re.search(r"SIS\s+User\s+ID", header[2]) and re.search(r"SIS\s+Login\s+ID",
                                                                 header[3]):
        columns += 2 + bool(re.search(r"Integration\s+ID", header[4]))
    assert "Section" in header[columns - 1], header
    assignments = header[columns:]
    assert rows[1][0].strip() == "Points Possible"
    possible = dict(zip(assignments, rows[1][columns:]))
    grades = {}
    for row in rows[2:]:
        assert len(row) == len(header) and row[1].isdigit(), row
        assert all(cell == "" or NUMBER.match(cell) for cell in row[columns:]), row
        grades[int(row[1])] = dict(zip(assignments, row[columns:]))
    return grades, possible


@pytest.fixture(scope="module")
def canvas_class(tmp_path_factory):
    """Alice (user 7) right; bob (user 8, late) wrong, his file named as Canvas names
    Alice's."""
    base = tmp_path_factory.mktemp("canvas")
    given = base / "dl"
    _put(given, "alicea_7_70_01_derive_it_by_hand.ipynb", _right())
    _put(given, "bobb_late_8_80_alicea_7_70_hw.ipynb", _wrong())
    out = base / "grades"
    assert _grade(given, out) == 0
    return out


@pytest.mark.parametrize("match", [None, "SIS User ID"])
def test_canvas_matches_by_user_id_whatever_the_sis_ids(canvas_class, tmp_path, capsys,
                                                       match):
    """The roster's SIS User IDs are numbers too, each the other's user id (a trap for a
    roster column chosen by counting matches): each is still found by ``ID``, also with
    --match naming another column, and said so (before, the export said they were matched
    by the roster's 'SIS Login ID', by which none was). The assignment exists in Canvas:
    its column keeps Canvas's id, "Title (4242)", so that the import fills that
    assignment."""
    roster = tmp_path / "roster.csv"
    column = f"{TITLE} (4242)"
    _write(roster, [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column],
                    ["    Points Possible", "", "", "", "", "9"],
                    ["A, Alice", "7", "8", "alice", "S1", ""],
                    ["B, Bob", "8", "7", "bob", "S1", ""], ["C, Cy", "9", "10", "cy", "S1", ""]])
    capsys.readouterr()
    assert _export(canvas_class, "--to", "canvas", "--roster", roster, "--out",
                   tmp_path / "canvas.csv", *(["--match", match] if match else [])) == 0
    assert "students matched by the ids Canvas's download gave them (the roster's 'ID')\n" \
        in capsys.readouterr().out
    grades, possible = canvas_upload((tmp_path / "canvas.csv").read_text(encoding="utf-8"))
    assert {user: row[column] for user, row in grades.items()} == {7: "9", 8: "0", 9: ""}
    assert possible == {column: "9"}


def test_canvas_without_a_roster_writes_the_user_ids(canvas_class, tmp_path, capsys):
    """No roster: one row per user id Canvas's download named; Canvas's import finds each by
    ``ID``."""
    capsys.readouterr()
    assert _export(canvas_class, "--to", "canvas", "--out", tmp_path / "canvas.csv") == 0
    text = (tmp_path / "canvas.csv").read_text(encoding="utf-8")
    grades, _ = canvas_upload(text)
    assert grades == {7: {TITLE: "9"}, 8: {TITLE: "0"}}
    assert text.splitlines()[0].split(",")[:5] == ["Student", "ID", "SIS User ID",
                                                   "SIS Login ID", "Section"]
    assert "students matched by the user ids Canvas's download named" in \
        capsys.readouterr().out


def test_without_a_roster_a_class_no_platform_named_is_refused(tmp_path, capsys):
    """Only Canvas can do without a roster, and only for students its download named:
    a flat folder's ``alice.ipynb`` is said, exit status 1."""
    given = tmp_path / "dl"
    _put(given, "alice.ipynb", _right())
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    assert _export(out, "--to", "moodle") == 1
    assert "--roster is needed for Moodle" in capsys.readouterr().err
    assert _export(out, "--to", "canvas") == 1
    said = capsys.readouterr()
    assert "alice (derive_it_by_hand) matches no roster row" in said.err
    assert "without --roster only students named by Canvas's download" in said.out


def test_the_column_header_is_the_teachers_title(tmp_path, capsys):
    """Every student's notebook says it is in Chinese (``lang``, which a student writes): the
    column is still the instructor notebook's title, not its translation."""
    given = tmp_path / "dl"
    notebook = _right()
    notebook.metadata["lang"] = "zh"
    _put(given, "alicea_7_70_hw.ipynb", notebook)
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    _write(tmp_path / "roster.csv", [["Student", "ID", "SIS User ID", "SIS Login ID",
                                      "Section"], ["A, Alice", "7", "", "alice", "S1"]])
    assert _export(out, "--to", "canvas", "--roster", tmp_path / "roster.csv", "--out",
                   tmp_path / "canvas.csv") == 0
    header = (tmp_path / "canvas.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.split(",")[5:] == [TITLE]


# --- Blackboard --------------------------------------------------------------------------

def grade_center_upload(text: str) -> dict:
    """Blackboard's Grade Center upload: a row is found by ``Username`` (its upload fails
    without it), a column by the id after ``|`` (none: a new column). username ->
    {header: grade}."""
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and all(row["Username"] for row in rows)
    return {row["Username"]: {k: v for k, v in row.items() if "|" in k} for row in rows}


def test_blackboard_names_by_username_and_fills_the_grade_center(tmp_path, capsys):
    """Alice (username ``alice_x``, with an underscore: her receipt names it) right; bob
    wrong, his file named as Blackboard names alice's: alice_x 9, bob 0, in the Grade
    Center's own column (its id kept), exit status 0."""
    given = tmp_path / "dl"
    head = "Homework 2_alice_x_attempt_2026-11-30-09-15-02"
    _put(given, f"{head}_01_derive_it_by_hand.ipynb", _right())
    (given / f"{head}.txt").write_text("Name: Alice X (alice_x)\nAssignment: Homework 2\n",
                                       encoding="utf-8")
    _put(given, "Homework 2_bob_attempt_2026-11-30-10-00-00_Homework 2_alice_x_attempt_"
                "2026-11-30-09-15-02_x.ipynb", _wrong())
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    assert set(student for student, _ in points_and_review(out)) == {"alice_x", "bob"}
    column = f"{TITLE} [Total Pts: 9 Score] |556677"
    _write(tmp_path / "gc.csv", [
        ["Last Name", "First Name", "Username", "Student ID", "Last Access", "Availability",
         column],
        ["X", "Alice", "alice_x", "1001", "2026-11-30", "Yes", ""],
        ["B", "Bob", "bob", "1002", "2026-11-30", "Yes", ""],
        ["C", "Cy", "cy", "1003", "2026-11-30", "Yes", ""]])
    capsys.readouterr()
    assert _export(out, "--to", "blackboard", "--roster", tmp_path / "gc.csv") == 0
    taken = grade_center_upload((out / "blackboard.csv").read_text(encoding="utf-8"))
    assert taken == {"alice_x": {column: "9"}, "bob": {column: "0"}, "cy": {column: ""}}


# --- every layout ------------------------------------------------------------------------

HONEST = {
    # layout: (the download's files: (folder, name), the LMS exported to)
    "moodle folders": ([("Alice A_7_assignsubmission_file_", "01_derive_it_by_hand.ipynb"),
                        ("Bob B_8_assignsubmission_file_", "bob.ipynb")], "moodle"),
    "moodle files": ([("", "Alice A_7_assignsubmission_file_01_derive_it_by_hand.ipynb"),
                      ("", "Bob B_8_assignsubmission_file_bob.ipynb")], "moodle"),
    "canvas": ([("", "alicea_7_70_01_derive_it_by_hand.ipynb"), ("", "bobb_8_80_hw.ipynb")],
               "canvas"),
    "blackboard": ([("", "Homework 2_alice_attempt_2026-11-30-09-15-02_hw.ipynb"),
                    ("", "Homework 2_bob_attempt_2026-11-30-10-00-00_mine.ipynb")],
                   "blackboard"),
    "flat, to canvas": ([("", "alice.ipynb"), ("", "bob.ipynb")], "canvas"),
    "nbgrader, to moodle": ([("submitted/alice/ps1", "01_derive_it_by_hand.ipynb"),
                             ("submitted/bob/ps1", "mine.ipynb")], "moodle"),
}


def _roster(path: Path, to: str, platform: bool) -> str:
    """The roster of alice (7) and bob (8), and the column that says who a row is."""
    if to == "canvas":
        _write(path, [["Student", "ID", "SIS User ID", "SIS Login ID", "Section"],
                      ["A, Alice", "7", "S7", "alice", "S1"], ["B, Bob", "8", "S8", "bob", "S1"]])
        return "SIS Login ID"
    if to == "blackboard":
        _write(path, [["Last Name", "First Name", "Username", "Student ID", "Last Access",
                       "Availability", f"{TITLE} [Total Pts: 9 Score] |77"],
                      ["A", "Alice", "alice", "7", "", "Yes", ""],
                      ["B", "Bob", "bob", "8", "", "Yes", ""]])
        return "Username"
    if platform:
        worksheet(path, [(7, "Alice A", ""), (8, "Bob B", "")], maximum="9.00")
        return "Identifier"
    _write(path, [["First name", "Last name", "ID number", "Institution", "Department",
                   "Email address"], ["Alice", "A", "", "", "", "alice@uni.edu"],
                  ["Bob", "B", "", "", "", "bob@uni.edu"]])
    return "Email address"


@pytest.mark.parametrize("layout", sorted(HONEST))
def test_an_honest_class_in_each_layout_exports(tmp_path, capsys, layout):
    """Alice and bob, each their own notebook, right: graded 9 of 9 each, exported into
    each one's own row, exit status 0 both times."""
    files, to = HONEST[layout]
    given = tmp_path / "given"
    for folder, name in files:
        _put(given / folder, name, _right())
    out = tmp_path / "grades"
    assert _grade(given / "submitted" if layout.startswith("nbgrader") else given, out) == 0
    column = _roster(tmp_path / "roster.csv", to, not layout.startswith(("flat", "nbgrader")))
    assert _export(out, "--to", to, "--roster", tmp_path / "roster.csv") == 0
    rows = list(csv.DictReader(io.StringIO((out / f"{to}.csv").read_text(encoding="utf-8"))))
    grade = {"Identifier": "Grade", "Username": f"{TITLE} [Total Pts: 9 Score] |77"}.get(
        column, TITLE)
    found = {row[column]: row[grade] for row in rows if "Points Possible" not in row.values()}
    assert found == {name: "9" for name in {
        "Identifier": ("Participant 7", "Participant 8"), "Username": ("alice", "bob"),
        "SIS Login ID": ("alice", "bob"), "Email address": ("alice@uni.edu", "bob@uni.edu")
    }[column]}


def test_the_first_platform_head_from_the_left_is_the_platforms():
    """A student can write another platform's head into the name they give their file: the
    head that ends first from the left is the platform's."""
    date = "2026-11-30-09-15-02"
    assert platform_id("bobb_8_80_Alice A_7_assignsubmission_file_x.ipynb") == "canvas:8"
    assert platform_id(f"bobb_8_80_HW_alice_attempt_{date}_x.ipynb") == "canvas:8"
    assert platform_id("Bob B_8_assignsubmission_file_alicea_7_70_x.ipynb") == "moodle:8"
    assert platform_id(f"Bob B_8_assignsubmission_file_HW_alice_attempt_{date}_x.ipynb") == \
        "moodle:8"
    # (Blackboard without its receipt: the head, <Assignment>_<username>; see below)
    assert platform_id(f"HW_bob_attempt_{date}_alicea_7_70_x.ipynb") == "blackboard-head:HW_bob"
    assert platform_id(f"HW_bob_attempt_{date}_Alice A_7_assignsubmission_file_x.ipynb") == \
        "blackboard-head:HW_bob"
    assert platform_id(f"HW_12_attempt_{date}_x.ipynb") == "blackboard-head:HW_12"
    assert platform_id("bob.ipynb") == "" and platform_id("bob_smith_7.ipynb") == ""


def test_a_worksheet_graded_on_a_scale_is_refused(tmp_path, capsys):
    """A Moodle assignment graded on a scale: its worksheet has a Scale column, no maximum;
    points cannot go there: said, nothing written."""
    given = tmp_path / "dl"
    _put(given / "Alice A_7_assignsubmission_file_", "a.ipynb", _right())
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    header = [("Scale" if name == "Maximum Grade" else name) for name in WORKSHEET_HEADER]
    _write(tmp_path / "worksheet.csv", [header, ["Participant 7", "Alice A", "a@uni.edu",
                                                 "", "", "Pass, Fail", "Yes", "", "", "-",
                                                 ""]])
    assert _export(out, "--to", "moodle", "--roster", tmp_path / "worksheet.csv") == 1
    assert "graded on a scale" in capsys.readouterr().err
    assert not (out / "moodle.csv").exists()


@pytest.mark.parametrize("usernames, exported", [
    (("j_doe", "cy"), {"j_doe": "9", "cy": ""}),
    # (two usernames the head ends with: which is it? only the receipt could say)
    (("j_doe", "doe"), {"j_doe": "", "doe": ""}),
])
def test_blackboard_without_its_receipt(tmp_path, capsys, usernames, exported):
    """No receipt beside ``Homework 2_j_doe_attempt_..._hw.ipynb``: the assignment's name and
    the username can both hold ``_``; the row is the one roster username the head ends
    with, none when two do (said, exit status 1), never a guess."""
    given = tmp_path / "dl"
    _put(given, "Homework 2_j_doe_attempt_2026-11-30-09-15-02_hw.ipynb", _right())
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    column = f"{TITLE} [Total Pts: 9 Score] |556677"
    _write(tmp_path / "gc.csv", [["Last Name", "First Name", "Username", "Student ID",
                                  column]] + [["X", "Y", name, "", ""] for name in usernames])
    capsys.readouterr()
    status = _export(out, "--to", "blackboard", "--roster", tmp_path / "gc.csv")
    said = capsys.readouterr()
    taken = grade_center_upload((out / "blackboard.csv").read_text(encoding="utf-8"))
    assert {name: row[column] for name, row in taken.items()} == exported
    assert status == (0 if exported["j_doe"] else 1)
    assert ("keep the receipts" in said.out) == (not exported["j_doe"])
