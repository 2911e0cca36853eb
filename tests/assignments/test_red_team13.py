"""The thirteenth red team: whose notebook it is, read from the folders and names the
learning platforms make (the real ``minigrad-kit grade`` and ``export``, the sandbox
required). What succeeded before, and the construction that closed it:

* **Moodle's download, a classmate's grade by a file's name**: Moodle's "Download all
  submissions" makes one folder per student, ``Bob B_456_assignsubmission_file_/``, holding
  the files as the student named them. Given the download folder ``dl/``, bob's
  ``01_derive_it_by_hand.ipynb`` (the instructor notebook's name, as handed out) was graded
  as the student ``dl`` (the rule "a notebook named like the instructor's is the folder's
  two up's", meant for ``<student>/<assignment>/``, named the folder the teacher gave), and
  mallory's ``bob.ipynb``, in her own folder, as ``bob``: 0 of 9, no flag, exit status 0.
  Both named ``bob.ipynb``, hers replaced bob's 9 of 9 with 0 with one line on the terminal
  (measured). A file's name is the student's choice; Moodle's folder is the platform's:
  ``batch.MOODLE``, the first such folder from the top of the path is the student
  (``Bob B_456``: the name and Moodle's id, two students of one name apart), whatever the
  file is called and whatever folders a student made inside.
* **Canvas's download**: ``bobsmith_456_9001_<the student's file name>.ipynb``: the file's
  head is Canvas's (``batch.CANVAS``), its tail the student's; the student is the Canvas
  user id, 456, the roster's column ``ID``, so ``export --to canvas`` fills the row.
  Moodle's download without folders, ``Bob B_456_assignsubmission_file_<their name>``, is
  read the same way (``batch.MOODLE_FILE``).
* **a folder of the class's per-student folders that no platform named** (``dl/x/01_...``):
  whose the notebook is only the folder could say, and whether ``x`` is a student or a
  section the grader cannot tell: graded for no one (never as the given folder ``dl``),
  said, exit status 1 (``cli._unowned``).
* **two notebooks for one student and assignment** (a flat folder's ``bob.ipynb`` and
  ``zz/bob.ipynb``): the last was kept and replaced the other, with only a line on the
  terminal; now it is flagged and every question held for review, so no grade of it is
  exported until the teacher decides (``cli._hold_duplicate``).
"""

import csv
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, right
from shared_fixture import points_and_review

from grader.batch import owner_of
from grader.cli import main

D = "derive_it_by_hand"
SALT = "kept by the teacher"
BOB, MALLORY = "Bob B_456_assignsubmission_file_", "Mallory M_123_assignsubmission_file_"


def _put(folder: Path, name: str, notebook) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / name)


def _grade(given: Path, out: Path) -> int:
    return main(["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt",
                 SALT, "--jobs", "1", "--variants", "none"])


def _totals(out: Path) -> dict:
    """student -> (points, held questions) from gradebook.csv."""
    totals: dict = {}
    for (student, _question), (points, review) in points_and_review(out).items():
        got, held = totals.get(student, (0.0, 0))
        totals[student] = (got + float(points or 0), held + bool(review))
    return totals


@pytest.mark.parametrize("mallorys", ["bob.ipynb", "01_derive_it_by_hand.ipynb"])
@pytest.mark.parametrize("bobs", ["01_derive_it_by_hand.ipynb", "bob.ipynb"])
def test_moodle_folders_name_the_student_whatever_the_file(tmp_path, capsys, bobs, mallorys):
    """Moodle's download: bob's right answers and mallory's wrong ones, each in their own
    folder, under any names (the instructor notebook's, ``bob.ipynb``): bob 9, mallory 0,
    each under their own folder's name, no student ``dl`` nor ``bob``, exit status 0."""
    dl = tmp_path / "dl"
    _put(dl / BOB, bobs, build(D, None, right(D, None)))
    _put(dl / MALLORY, mallorys, build(D, None, WRONG[D]))
    out = tmp_path / "grades"
    assert _grade(dl, out) == 0
    assert _totals(out) == {"Bob_B_456": (9.0, 0), "Mallory_M_123": (0.0, 0)}
    assert "two submissions" not in capsys.readouterr().err


def test_a_moodle_folder_made_inside_ones_own_is_still_ones_own(tmp_path):
    """Folders a student makes in their own (``Bob B_456_assignsubmission_file_/`` inside
    mallory's) do not make a notebook bob's: the owner is read from the top."""
    planted = tmp_path / "dl" / MALLORY / BOB / "bob.ipynb"
    assert owner_of(planted, tmp_path / "dl") == "Mallory M_123"
    assert owner_of(planted, tmp_path / "dl" / MALLORY) == "Mallory M_123"
    assert owner_of(tmp_path / "dl" / BOB / "x.ipynb", tmp_path / "dl") == "Bob B_456"


def test_canvas_names_the_student_by_its_user_id_and_exports(tmp_path, capsys):
    """Canvas's download, one flat folder: bob's ``bobsmith_456_9001_<his name>`` and
    mallory's ``mallory_123_9002_bob.ipynb`` (late: ``_late_``) are users 456 and 123, and
    the Canvas export fills each one's own row (roster column ``ID``)."""
    folder = tmp_path / "canvas"
    _put(folder, "bobsmith_456_9001_01_derive_it_by_hand.ipynb", build(D, None, right(D, None)))
    _put(folder, "mallory_late_123_9002_bob.ipynb", build(D, None, WRONG[D]))
    out = tmp_path / "grades"
    assert _grade(folder, out) == 0
    assert _totals(out) == {"456": (9.0, 0), "123": (0.0, 0)}
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      "\"Smith, Bob\",456,1002,bob,S1\n\"M, Mallory\",123,1001,mallory,S1\n",
                      encoding="utf-8")
    assert main(["export", str(out), "--to", "canvas", "--roster", str(roster), "--out",
                 str(tmp_path / "canvas.csv")]) == 0
    with open(tmp_path / "canvas.csv", newline="", encoding="utf-8") as file:
        rows = {row["SIS Login ID"]: row for row in csv.DictReader(file)}
    assert rows["bob"]["Derive it by hand"] == "9" and rows["mallory"]["Derive it by hand"] == "0"


def test_a_folder_no_layout_names_grades_for_no_one(tmp_path, capsys):
    """``dl/x/01_derive_it_by_hand.ipynb`` (no platform's folder name, no nbgrader layout):
    not graded as ``dl`` (the folder given), nor as anyone; said; exit status 1. Alice's
    own ``dl/alice.ipynb`` beside it is graded."""
    dl = tmp_path / "dl"
    _put(dl / "x", "01_derive_it_by_hand.ipynb", build(D, None, right(D, None)))
    _put(dl, "alice.ipynb", build(D, None, right(D, None)))
    out = tmp_path / "grades"
    assert _grade(dl, out) == 1
    said = capsys.readouterr().err
    assert "could not grade 01_derive_it_by_hand.ipynb: its name and the different name of " \
           "the folder given" in said
    totals = _totals(out)
    assert totals["alice"] == (9.0, 0)
    assert not {student for student in totals if student != "alice" and totals[student][0]}


def test_two_notebooks_for_one_student_are_held_not_credited(tmp_path, capsys):
    """A flat folder's ``bob.ipynb`` (right) and ``zz/bob.ipynb`` (wrong): the one kept is
    flagged and every question held (its 0s too), exit status 1; the Canvas export leaves
    bob's cell empty, saying why."""
    dl = tmp_path / "dl"
    _put(dl, "bob.ipynb", build(D, None, right(D, None)))
    _put(dl / "zz", "bob.ipynb", build(D, None, WRONG[D]))
    out = tmp_path / "grades"
    assert _grade(dl, out) == 1
    assert "only the last was kept, and held for review" in capsys.readouterr().err
    assert _totals(out)["bob"][1] == 4  # (all four questions held)
    assert "another notebook of this student and assignment" in \
        (out / "flags.csv").read_text("utf-8")
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n\"Smith, Bob\",2,1002,bob,"
                      "S1\n", encoding="utf-8")
    main(["export", str(out), "--to", "canvas", "--roster", str(roster), "--out",
          str(tmp_path / "canvas.csv")])
    with open(tmp_path / "canvas.csv", newline="", encoding="utf-8") as file:
        rows = {row["SIS Login ID"]: row for row in csv.DictReader(file)}
    assert rows["bob"]["Derive it by hand"] == ""


@pytest.mark.parametrize("layout", ["flat", "nbgrader", "moodle", "moodle files", "canvas"])
def test_an_honest_class_in_each_layout(tmp_path, capsys, layout):
    """Alice and bob, each their own notebook (right), in each layout the kit reads: both
    9 of 9, nothing flagged nor held, exit status 0."""
    given = tmp_path / "given"
    files = {
        "flat": [("", "alice.ipynb"), ("", "bob.ipynb")],
        "nbgrader": [("submitted/alice/ps1", "01_derive_it_by_hand.ipynb"),
                     ("submitted/bob/ps1", "mine.ipynb")],
        "moodle": [("Alice A_7_assignsubmission_file_", "01_derive_it_by_hand.ipynb"),
                   ("Bob B_8_assignsubmission_file_", "bob.ipynb")],
        "moodle files": [("", "Alice A_7_assignsubmission_file_01_derive_it_by_hand.ipynb"),
                         ("", "Bob B_8_assignsubmission_file_bob.ipynb")],
        "canvas": [("", "alice_7_70_01_derive_it_by_hand.ipynb"), ("", "bob_8_80_hw.ipynb")],
    }[layout]
    for folder, name in files:
        _put(given / folder, name, build(D, None, right(D, None)))
    out = tmp_path / "grades"
    assert _grade(given / "submitted" if layout == "nbgrader" else given, out) == 0
    names = {"flat": ("alice", "bob"), "nbgrader": ("alice", "bob"),
             "moodle": ("Alice_A_7", "Bob_B_8"), "moodle files": ("Alice_A_7", "Bob_B_8"),
             "canvas": ("7", "8")}[layout]
    assert _totals(out) == {names[0]: (9.0, 0), names[1]: (9.0, 0)}
    assert (out / "flags.csv").read_text("utf-8").count("\n") == 1  # (its header only)


def test_a_platforms_name_is_read_from_its_head():
    """A student can upload a file named as the platform names another's: the platform puts
    its own head before it, and that head, the first from the left, is read."""
    from grader.batch import platform_owner

    assert platform_owner("mallory_123_9002_bobsmith_456_9001_x.ipynb") == "123"
    assert platform_owner("Mallory M_123_assignsubmission_file_Bob B_456_assignsubmission_file_"
                        "x.ipynb") == "Mallory M_123"
    assert platform_owner("bob.ipynb") is None and platform_owner("bob_smith.ipynb") is None


def test_a_students_own_nbgrader_folder_given_is_theirs(tmp_path):
    """Given one student's nbgrader folder (``submitted/bob``), a notebook under the
    instructor notebook's name two folders down is bob's, not "for no one"."""
    given = tmp_path / "submitted" / "bob"
    _put(given / "ps1", "01_derive_it_by_hand.ipynb", build(D, None, right(D, None)))
    out = tmp_path / "grades"
    assert _grade(given, out) == 0
    assert _totals(out) == {"bob": (9.0, 0)}
