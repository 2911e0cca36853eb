"""`minigrad-kit export GRADES/ --to canvas|moodle --roster ROSTER.csv` on a real grading run.

The rosters are laid out as Canvas and Moodle export their gradebooks; the files written are
checked against what their imports read (``canvas_import`` and ``moodle_import`` below follow
the documented rules: Canvas's "How do I import grades in the Gradebook?", Moodle's
grade/import/csv: a user column mapped to a user field, numeric or empty grades, every row a
known user), and then value by value."""

import csv
import io
import re

import pytest
from course_grades import A1, A2, ROSTER, course_grades

from grader.cli import main

pytestmark = pytest.mark.slow

NUMBER = re.compile(r"^\d+(\.\d+)?$")
CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return course_grades(tmp_path_factory)


def canvas_roster(path):
    """Canvas's "Export Entire Gradebook": identity columns, an assignment that exists already,
    read-only totals, the "Points Possible" row and the test student."""
    rows = [CANVAS_IDENTITY + ["Quiz 1 (1001)", "Current Score", "Final Score"],
            ["    Points Possible", "", "", "", "", "10", "(read only)", "(read only)"]]
    for number, name in enumerate(ROSTER, 1):
        rows.append([f"{name.title()}, Student", str(100 + number), f"S{number:04}", name,
                     "Section A", "7", "70", "70"])
    rows.append(["Student, Test", "199", "", "test_student_1", "Section A", "", "", ""])
    _write(path, rows)


def moodle_roster(path):
    """Moodle's "Plain text file" grade export."""
    rows = [["First name", "Last name", "ID number", "Institution", "Department",
             "Email address", "Assignment: Essay (Real)", "Last downloaded from this course"]]
    for number, name in enumerate(ROSTER, 1):
        rows.append([name.title(), "Student", f"{number:06}", "Uni", "CS",
                     f"{name}@example.edu", "55.00", "1767225600"])
    _write(path, rows)


def _write(path, rows):
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def canvas_import(text: str) -> tuple[dict, dict]:
    """Read the file as Canvas's gradebook import does: the identity columns first and in
    Canvas's order, a student by ID / SIS User ID / SIS Login ID, the "Points Possible" row
    under the header giving each new assignment's points, a grade a number or empty."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert header[:5] == CANVAS_IDENTITY, header
    assignments = header[5:]
    assert assignments and all(a.strip() for a in assignments)
    assert rows[1][0] == "Points Possible" and rows[1][1:5] == ["", "", "", ""]
    possible = dict(zip(assignments, rows[1][5:]))
    assert all(NUMBER.match(p) for p in possible.values()), possible
    grades = {}
    for row in rows[2:]:
        assert len(row) == len(header), row
        assert row[1] or row[2] or row[3], f"a row Canvas cannot match: {row}"
        assert all(cell == "" or NUMBER.match(cell) for cell in row[5:]), row
        grades[row[3]] = dict(zip(assignments, row[5:]))
    return grades, possible


def moodle_import(text: str, users: set) -> dict:
    """Read the file as Moodle's CSV grade import does: a header of column names, each row
    a user found by the mapped identifier (here Email address: a row whose user is unknown
    aborts the whole import), each grade a number, '-' or empty (no grade)."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert "Email address" in header and "Last downloaded from this course" not in header
    column = header.index("Email address")
    items = [h for h in header if h not in ("First name", "Last name", "ID number",
                                            "Institution", "Department", "Email address")]
    grades = {}
    for row in rows[1:]:
        assert len(row) == len(header) and row[column] in users, row
        values = dict(zip(header, row))
        assert all(values[i] in ("", "-") or NUMBER.match(values[i]) for i in items), row
        grades[row[column]] = {i: values[i] for i in items}
    return grades


def test_canvas_file_imports_with_points_and_empty_cells(graded, tmp_path, capsys):
    canvas_roster(tmp_path / "roster.csv")
    status = main(["export", str(graded["out"]), "--to", "canvas", "--roster",
                   str(tmp_path / "roster.csv"), "--out", str(tmp_path / "canvas.csv")])
    said = capsys.readouterr()
    assert status == 1  # zed has no roster row: said, and the exit status says so
    grades, possible = canvas_import((tmp_path / "canvas.csv").read_text(encoding="utf-8"))
    assert possible == {"Derive it by hand": "9", "Tensors and gradients": "6"}
    a1, a2 = "Tensors and gradients", "Derive it by hand"
    assert {name: row[a2] for name, row in grades.items()} == {
        "ada": "9", "bob": "4", "cy": "0", "dee": "0", "eve": "7", "fay": "9", "gus": "",
        "test_student_1": ""}
    # ada: 4 automatic points (her written answer is the teacher's to grade); bob: held back;
    # cy: could not be graded; gus: wrong; the others: no submission (empty, not zero)
    assert {name: row[a1] for name, row in grades.items()} == {
        "ada": "4", "bob": "", "cy": "", "dee": "", "eve": "", "fay": "", "gus": "0",
        "test_student_1": ""}
    assert "students matched by the roster's 'SIS Login ID'" in said.out
    assert ("minigrad-kit: error: zed (derive_it_by_hand) matches no roster row: its points "
            "are not in") in said.err
    assert f"empty until reviewed: bob in {A1} (q1 q2 q3 held back" in said.out
    assert f"empty: cy in {A1} could not be graded: " in said.out
    assert f"{A1}: written answers (2 points; 1 student) are graded by hand" in said.out
    empty = said.out.split("empty (no submission; empty, not zero): ")[1].splitlines()[0]
    assert empty.split("; ") == [f"{s}: {A1}" for s in ("dee", "eve", "fay")] + [
        f"gus: {A2}", f"test_student_1: {A2}", f"test_student_1: {A1}"]  # (cy's: not graded)
    # the roster's own assignment, totals and test student's blank cells are not carried over
    header = (tmp_path / "canvas.csv").read_text().splitlines()[0]
    assert "Quiz 1" not in header and "Current Score" not in header


def test_moodle_file_imports_by_email(graded, tmp_path, capsys):
    moodle_roster(tmp_path / "roster.csv")
    status = main(["export", str(graded["out"]), "--to", "moodle", "--roster",
                   str(tmp_path / "roster.csv"), "--name", f"{A2}=Assignment 2"])
    said = capsys.readouterr()
    assert status == 1
    written = graded["out"] / "moodle.csv"
    users = {f"{name}@example.edu" for name in ROSTER}
    grades = moodle_import(written.read_text(encoding="utf-8"), users)
    assert set(grades) == users
    assert {email.split("@")[0]: row["Assignment 2"] for email, row in grades.items()} == {
        "ada": "9", "bob": "4", "cy": "0", "dee": "0", "eve": "7", "fay": "9", "gus": ""}
    assert grades["ada@example.edu"]["Tensors and gradients"] == "4"
    assert grades["bob@example.edu"]["Tensors and gradients"] == ""
    header = written.read_text().splitlines()[0].split(",")
    assert header[:4] == ["First name", "Last name", "ID number", "Institution"]
    assert "Assignment: Essay (Real)" not in header
    assert "students matched by the roster's 'Email address'" in said.out
    assert "Identify user by: Email address to Email address" in said.out
    assert "column 'Assignment 2': derive_it_by_hand, 9 points possible" in said.out
    # (Moodle's import sets an empty cell's "no grade", clearing the grade Moodle has: said
    # for each empty cell beside points: test_moodle_reads_grades)
    clears = said.out.split("Moodle's import clears the grade of an empty cell: ")[1]
    assert "gus@example.edu (Assignment 2)" in clears.splitlines()[0]
    assert "bob@example.edu (Tensors and gradients)" in clears.splitlines()[0]


def test_match_column_and_unmatched_rows(graded, tmp_path, capsys):
    canvas_roster(tmp_path / "roster.csv")
    status = main(["export", str(graded["out"]), "--to", "canvas", "--roster",
                   str(tmp_path / "roster.csv"), "--match", "SIS User ID",
                   "--out", str(tmp_path / "by-id.csv")])
    said = capsys.readouterr()
    assert status == 1  # nobody's submission is named S0001 ...: every one is reported
    grades, _ = canvas_import((tmp_path / "by-id.csv").read_text())
    assert all(cell == "" for row in grades.values() for cell in row.values())
    assert said.err.count("matches no roster row") == 11


@pytest.mark.parametrize("to, header, missing", [
    ("canvas", "First name,Last name,Email address\n", "'Student', 'ID', 'SIS Login ID', "
                                                      "'Section'"),
    ("moodle", "Student,ID,SIS Login ID,Section\n", "'First name', 'Last name', "
                                                    "'Email address'"),
])
def test_a_roster_from_elsewhere_is_refused(graded, tmp_path, capsys, to, header, missing):
    (tmp_path / "roster.csv").write_text(header + "a,b,c,d\n")
    assert main(["export", str(graded["out"]), "--to", to, "--roster",
                 str(tmp_path / "roster.csv"), "--out", str(tmp_path / "x.csv")]) == 1
    err = capsys.readouterr().err
    assert f"has no {missing} column" in err and "export it from" in err
    assert not (tmp_path / "x.csv").exists()


def test_a_folder_that_is_not_grades_is_refused(tmp_path, capsys):
    canvas_roster(tmp_path / "roster.csv")
    assert main(["export", str(tmp_path), "--to", "canvas", "--roster",
                 str(tmp_path / "roster.csv")]) == 1
    assert "has no manifest.json: give the folder that `minigrad-kit grade --out` wrote" in (
        capsys.readouterr().err)


def test_a_roster_saved_with_semicolons_reads_the_same(graded, tmp_path, capsys):
    """A spreadsheet saved in some locales separates its columns with ; (the file written
    stays comma-separated, as the imports read by default)."""
    moodle_roster(tmp_path / "commas.csv")
    rows = list(csv.reader(io.StringIO((tmp_path / "commas.csv").read_text())))
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";").writerows(rows)
    (tmp_path / "semicolons.csv").write_text(buffer.getvalue())
    for name in ("commas", "semicolons"):
        main(["export", str(graded["out"]), "--to", "moodle", "--roster",
              str(tmp_path / f"{name}.csv"), "--out", str(tmp_path / f"{name}-out.csv")])
    assert (tmp_path / "commas-out.csv").read_text() == (tmp_path / "semicolons-out.csv"
                                                         ).read_text()
    assert "ada@example.edu" in (tmp_path / "semicolons-out.csv").read_text()
