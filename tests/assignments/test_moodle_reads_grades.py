"""Every grade ``minigrad-kit export --to moodle`` writes is read back by Moodle as the same
number, in the language of whoever uploads it (``moodle_reading.py``: Moodle's
``unformat_float`` and PHP's reading of a number, ported), through the real ``grade`` and
``export``.

Before: a grade in a worksheet downloaded from a German Moodle was written with its comma
(``5,56``), which an uploader whose decimal sign is the point (English, Chinese, Korean)
gets as 5 (PHP reads up to the comma), and to two decimals, where Moodle keeps five: Bob's
5 of 9 scaled to 10 became 5.56, not 5.55556; the gradebook's file wrote ``:g``, six
digits."""

import csv
import io
import itertools
import re
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT, with_module
from keys import WRONG, build, right
from moodle_reading import DECIMAL_SIGNS, Assignment, unformat_float

from grader.cli import main

pytestmark = pytest.mark.slow

D = "derive_it_by_hand"
MODIFIED = "2026-11-30 09:15"
PARTIAL = {**right(D, None), "q2_answer": WRONG[D]["q2_answer"],
           "q4_answer": WRONG[D]["q4_answer"]}
WRITTEN = re.compile(r"\d+(\.\d{1,5})?")  # digits and a point: no sign, group or exponent
# Identifier, Full name, Email address, Status, Grade, Maximum grade, Grade can be changed,
# Last modified (submission), Last modified (grade), Feedback comments; the participant
HEADERS = {
    "English": (["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
                 "Grade can be changed", "Last modified (submission)",
                 "Last modified (grade)", "Feedback comments"], "Participant ", "Yes"),
    "German": (["ID", "Vollständiger Name", "E-Mail-Adresse", "Status", "Bewertung",
                "Bestwertung", "Bewertung kann geändert werden", "Zuletzt geändert (Abgabe)",
                "Zuletzt geändert (Bewertung)", "Feedback als Kommentar"], "Teilnehmer/in",
               "Ja"),
}
GRADE = 4


def _grade(given: Path, out: Path) -> None:
    assert main(["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt",
                 "kept", "--variants", "none"]) == 0


def _points(out: Path) -> dict:
    """student -> (points, points possible), from the gradebook."""
    rows = csv.DictReader(io.StringIO((out / "gradebook.csv").read_text(encoding="utf-8")))
    totals: dict = {}
    for row in rows:
        points, possible = totals.get(row["student"], (0.0, 0.0))
        totals[row["student"]] = (points + float(row["points"]), possible + float(row["max"]))
    return totals


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Alice right, Bob with two of four answers wrong, graded twice: as Moodle's download
    names them (the worksheet's participants 7 and 8) and as alice.ipynb, bob.ipynb (the
    gradebook's rows, by e-mail)."""
    base = tmp_path_factory.mktemp("moodle_reads")
    moodle, flat = base / "dl", base / "flat"
    for folder, name, answers in (("Alice A_7_assignsubmission_file_", "alice", right(D, None)),
                                  ("Bob B_8_assignsubmission_file_", "bob", PARTIAL)):
        (moodle / folder).mkdir(parents=True)
        flat.mkdir(exist_ok=True)
        nbformat.write(build(D, None, answers), moodle / folder / "hw.ipynb")
        nbformat.write(build(D, None, answers), flat / f"{name}.ipynb")
    _grade(moodle, base / "worksheet-grades")
    _grade(flat, base / "gradebook-grades")
    return base


def _write(path: Path, rows: list) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


@pytest.mark.parametrize("language, maximum", [("English", "10.00"), ("German", "10,00"),
                                               ("German", "7,5")])
def test_the_worksheets_grades_are_read_back_as_the_same_number(graded, tmp_path, language,
                                                                maximum):
    """Each Grade written is read by the upload, whatever the uploader's decimal sign, as
    the points scaled to the worksheet's maximum, to Moodle's five decimals; Bob's is not
    a whole number."""
    header, hidden, yes = HEADERS[language]
    _write(tmp_path / "worksheet.csv", [header] + [
        [f"{hidden}{number}", name, f"{name[0].lower()}@uni.edu", "submitted", "", maximum, yes,
         MODIFIED, "-", ""] for number, name in ((7, "Alice A"), (8, "Bob B"))])
    out = graded / "worksheet-grades"
    assert main(["export", str(out), "--to", "moodle", "--roster",
                 str(tmp_path / "worksheet.csv")]) == 0
    rows = list(csv.reader(io.StringIO((out / "moodle.csv").read_text(encoding="utf-8"))))
    top = float(maximum.replace(",", "."))
    points = _points(out)
    wanted = {f"{hidden}7": points["Alice_A_7"], f"{hidden}8": points["Bob_B_8"]}
    assert wanted[f"{hidden}8"][0] not in (0, wanted[f"{hidden}8"][1])  # (a partial grade)
    for row in rows[1:]:
        got, possible = wanted[row[0]]
        assert WRITTEN.fullmatch(row[GRADE]), row
        for sign in DECIMAL_SIGNS:
            assert unformat_float(row[GRADE], sign) == round(got * top / possible, 5), (sign, row)


def test_the_gradebooks_grades_are_read_back_as_the_same_number(graded, tmp_path, capsys):
    """The file for Moodle's gradebook import (Import, CSV file), whose grades Moodle reads
    with unformat_float's strict check: each is a number for every decimal sign, the
    student's points. Cy, who handed nothing in, is not in the file: Moodle's import reads
    an empty cell as "no grade" and sets it, clearing the grade Moodle has for him (one the
    teacher entered, say); he is named. (Before, his row came with an empty cell.)"""
    _write(tmp_path / "roster.csv", [
        ["First name", "Last name", "ID number", "Institution", "Department", "Email address"],
        ["Alice", "A", "", "", "", "alice@uni.edu"], ["Bob", "B", "", "", "", "bob@uni.edu"],
        ["Cy", "C", "", "", "", "cy@uni.edu"]])
    out = graded / "gradebook-grades"
    capsys.readouterr()
    assert main(["export", str(out), "--to", "moodle", "--roster",
                 str(tmp_path / "roster.csv")]) == 0
    said = capsys.readouterr().out
    rows = list(csv.reader(io.StringIO((out / "moodle.csv").read_text(encoding="utf-8"))))
    points = _points(out)
    assert [row[-2] for row in rows[1:]] == ["alice@uni.edu", "bob@uni.edu"]
    assert all(WRITTEN.fullmatch(row[-1]) for row in rows[1:])
    for row in rows[1:]:
        for sign in DECIMAL_SIGNS:
            assert unformat_float(row[-1], sign, strict=True) == \
                points[row[-2].split("@")[0]][0], (sign, row)
    assert ("left out of the file, so that Moodle keeps the grades it has for them (its "
            "import clears the grade of an empty cell): cy@uni.edu") in said


@pytest.fixture(scope="module")
def eight_and_a_half(tmp_path_factory):
    """The kit's assignment out of 8.5 (a course that made q4 worth 2.5): Alice right (8.5),
    Bob with q2 and q4 wrong (4), as Moodle's download names them (participants 7, 8)."""
    base = tmp_path_factory.mktemp("moodle_half")
    course, given = base / "course", base / "dl"
    course.mkdir()
    source = nbformat.read(BY_ASSIGNMENT[D], as_version=4)
    for cell in source.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "q4":
            cell.metadata.nbgrader.points = 2.5
    nbformat.write(source, course / BY_ASSIGNMENT[D].name)
    with_module(D, course)
    for folder, answers in (("Alice A_7_assignsubmission_file_", right(D, None)),
                            ("Bob B_8_assignsubmission_file_", PARTIAL)):
        (given / folder).mkdir(parents=True)
        nbformat.write(build(D, None, answers), given / folder / "hw.ipynb")
    out = base / "grades"
    assert main(["grade", str(given), "--source", str(course), "--out", str(out),
                 "--sandbox", "required", "--salt", "kept", "--variants", "none"]) == 0
    assert _points(out) == {"Alice_A_7": (8.5, 8.5), "Bob_B_8": (4.0, 8.5)}
    return out


@pytest.mark.parametrize("maximum, decimals, sign", [
    (m, d, s) for m, (d, s) in itertools.product((1, 8, 9, 10, 100), ((0, "."), (2, ","),
                                                                     (5, ".")))])
def test_points_of_a_fractional_total_land_in_moodle(eight_and_a_half, tmp_path, maximum,
                                                     decimals, sign):
    """8.5 points possible, a Moodle assignment out of a whole number (Moodle's maxima are
    whole numbers, shown with the grade item's 0 to 5 decimals: "8", "8,00",
    "8.00000"): through Moodle's upload (ported, ``moodle_reading.Assignment``: a grade
    above the assignment's maximum is skipped), Alice's full marks are the maximum
    itself, never skipped, and Bob's 4 of 8.5 is 4/8.5 of it, to Moodle's five
    decimals."""
    header, hidden, yes = HEADERS["English" if sign == "." else "German"]
    moodle = Assignment(maximum=maximum, decimals=decimals, decsep=sign)
    rows = moodle.worksheet([7, 8], header, hidden, yes, "-", MODIFIED)
    _write(tmp_path / "worksheet.csv", rows)
    assert main(["export", str(eight_and_a_half), "--to", "moodle", "--roster",
                 str(tmp_path / "worksheet.csv"), "--out", str(tmp_path / "moodle.csv")]) == 0
    written = list(csv.reader(io.StringIO((tmp_path / "moodle.csv").read_text(
        encoding="utf-8"))))
    moodle.upload(written, hidden)
    assert moodle.grades == {7: maximum, 8: round(4 * maximum / 8.5, 5)}
