"""The eighth red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required), on what the teacher reads and on whose notebook is whose. Each attack rides on
the wrong answers (keys.WRONG) and may score no more than they do; honest work keeps full
marks, unflagged. What succeeded before, and the construction that closed it:

* **forged grade lines in the teacher's terminal**: in bob's own nbgrader folder, a file
  that is not a notebook, named ``"x\\n             bob  derive_it_by_hand  9 ∕ 9\\n
  alice  derive_it_by_hand  0 ∕ 9\\n.ipynb"`` (U+2215, which looks like ``/``, since a
  file name cannot hold one), printed through "could not grade <file>: <error>" two lines
  of its own that read as the grader's: bob 9 of 9 (his notebook scored 0) and alice 0 of
  9 (she scored 9), after the real ones (measured); ``export`` printed the same through
  "empty: bob ... could not be graded: ...". The earlier passes took out the terminal's
  escapes and kept the line breaks. (``intake.one_line``: each line a command prints is
  one line, the submission's line breaks shown as ``\\n``.)
* **a classmate's grade replaced from one's own folder, without ``submitted/``**: the
  students' folders ``home/<student>/ps1/`` (a JupyterHub's homes, say), each holding the
  notebook under the instructor notebook's name, graded as the teacher gives them
  (``minigrad-kit grade home/*/ps1``): a notebook the grader reads as the folder's two up
  (``student_of``). zed put ``bob.ipynb`` (the wrong answers) in his own folder: named by
  its file, it was bob's, and, last by path, replaced bob's 9 of 9 with 0, unflagged on
  bob's result (measured); ``cy.ipynb``, the right answers for cy's numbers (which anyone
  can compute: they are drawn from the name), gave cy, who handed nothing in, 9 of 9.
  A folder of zed's own below it, ``sub/dan.ipynb``, did the same for dan.
  (``batch._hold_beside``: a notebook named after one student in, or below, a folder that
  holds another's notebook under the instructor notebook's name is flagged and held; and
  ``cli._folders_last`` and ``report._graded_kept``: a notebook whose student a folder
  names is kept over one named by its file, whatever their paths, in one run or the next:
  graded from zed's folder alone, later, it replaced bob's stored 9 of 9 with 0.)
* **the class's export emptied from one's own folder**: zed's ``1.ipynb`` ... ``4.ipynb``,
  named after the roster's SIS User IDs, outnumbered the class's logins, so ``export``
  matched students by SIS User ID, and alice's and bob's 9 of 9 matched no row: their
  Canvas cells empty (measured). (``export``: the roster's column is chosen by the
  notebooks that are their students' own, not by those held as handed in beside another
  student's; nor does one named like a classmate but for case, ``Bob.ipynb``, empty bob's
  row, as two students of one row did: "enter the grade by hand".)

* **text that covers the teacher's page**: an exception's message of 600 combining marks
  stacked on one character ("Zalgo" text), quoted in the student's feedback and in the
  class's item analysis page, which a browser draws as a tower over the lines above and
  below (the points); kept whole in every page the grader writes (measured).
  (``intake.printable``: past four marks on one character, the rest are left out.)

Tried and found closed (kept here so that they stay so): the feedback page and the
analysis page of a student whose exception says ``<script>``, ``<img src=...>``, CSS and
an SVG with a script, and ``&#x202e;`` (text, never markup: ``html.escape``, ``_inline``);
a formula of assignment 4 that reaches beyond arithmetic on its names (``x.__class__``,
``x.real``, ``x.shape``, ``one_hot(x, 10**4)``, ``x[10**9:]``: refused as written); the
sandbox's view (only the system's libraries, the kit's packages and a scratch folder of
its own: no instructor notebook, no other submission, no ``--out``, no salt).

What no grader can promise, measured here for the README: classmates with the same numbers
(drawn from small sets: 21 of 30 students share all theirs of assignment 1 with someone)
have the same answers, and a student who copies such a classmate's answers into their own
notebook scores, unflagged, as the classmate does.
"""

import csv
import json
import re
from pathlib import Path

import mistune
import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, numbers, right

from grader.analysis_page import write_pages
from grader.cli import main
from grader.export import export
from grader.formula import TENSOR, FormulaError, parse

D, B = "derive_it_by_hand", "broadcasting_and_reductions"
NAME = BY_ASSIGNMENT[D].name
SLASH = "\u2215"  # DIVISION SLASH: looks like "/", which a file's name cannot hold
FORGED = (f"x\n             bob  {D}  9 {SLASH} 9\n           alice  {D}  0 {SLASH} 9\n"
          ".ipynb")


def _grades(folder: Path) -> dict:
    """student -> question -> (points, needs_review), from gradebook.csv."""
    with open(folder / "gradebook.csv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    found: dict = {}
    for row in rows:
        found.setdefault(row["student"], {})[row["question"]] = (row["points"],
                                                                 row["needs_review"])
    return found


FULL = {"q1": ("2", ""), "q2": ("2", ""), "q3": ("2", ""), "q4": ("3", "")}
NONE = {"q1": ("0", ""), "q2": ("0", ""), "q3": ("0", ""), "q4": ("0", "")}


# --- what the teacher's terminal shows ----------------------------------------------------------

def _roster(folder: Path, *students: str) -> Path:
    path = folder / "canvas.csv"
    path.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n" + "".join(
        f"{s},{n},{n},{s},A\n" for n, s in enumerate(students, 1)), encoding="utf-8")
    return path


def test_a_file_name_prints_no_line_of_its_own(tmp_path, capsys):
    """bob (the wrong answers: 0 of 9) and alice (right: 9 of 9) in nbgrader's layout;
    bob's folder also holds a file that is not a notebook, named with line breaks and two
    lines that look like the grader's. Every line printed by ``grade`` and ``export`` is
    the grader's: one grade line per graded notebook, and the file's name inside the one
    line that says it could not be graded."""
    for student, answers in (("alice", right(D, "alice")), ("bob", WRONG[D])):
        folder = tmp_path / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        nbformat.write(build(D, student, answers), folder / NAME)
    (tmp_path / "submitted" / "bob" / "ps1" / FORGED).write_text("not a notebook",
                                                                 encoding="utf-8")
    out = tmp_path / "grades"
    assert main(["grade", str(tmp_path / "submitted"), "--out", str(out), "--sandbox",
                 "required", "--jobs", "1"]) == 1  # (a file could not be graded)
    said = capsys.readouterr()
    lines = (said.out + said.err).splitlines()
    grade_lines = [line.split() for line in lines if re.match(rf"\s*\w+\s+{D}\s", line)]
    assert sorted(grade_lines) == [["alice", D, "9", "/", "9"], ["bob", D, "0", "/", "9"]]
    assert [line for line in lines if "could not grade" in line] == [
        line for line in lines if SLASH in line]
    assert _grades(out) == {"alice": FULL, "bob": NONE}
    # the export says it in its own lines too ("empty: bob in ? could not be graded: ...")
    assert main(["export", str(out), "--to", "canvas", "--roster",
                 str(_roster(tmp_path, "alice", "bob"))]) == 0
    said = capsys.readouterr()
    lines = (said.out + said.err).splitlines()
    assert not [line for line in lines if re.match(rf"\s*(alice|bob)\s+{D}\s", line)]
    assert [line for line in lines if SLASH in line] == [
        line for line in lines if line.startswith("empty: bob")], lines


# --- whose notebook it is, in the students' own folders -----------------------------------------

def _homes(root: Path) -> Path:
    """home/<student>/ps1/ for alice, bob (right answers) and zed (wrong), each notebook under
    the instructor notebook's name; zed's folder also holds bob.ipynb (the wrong answers,
    for bob's numbers), cy.ipynb (the right answers for cy, who handed nothing in) and
    sub/dan.ipynb (right, for dan, in a folder of zed's own)."""
    home = root / "home"
    for student in ("alice", "bob", "zed"):
        folder = home / student / "ps1"
        folder.mkdir(parents=True)
        answers = WRONG[D] if student == "zed" else right(D, student)
        nbformat.write(build(D, student, answers), folder / NAME)
    nbformat.write(build(D, "bob", WRONG[D]), home / "zed" / "ps1" / "bob.ipynb")
    nbformat.write(build(D, "cy", right(D, "cy")), home / "zed" / "ps1" / "cy.ipynb")
    (home / "zed" / "ps1" / "sub").mkdir()
    nbformat.write(build(D, "dan", right(D, "dan")), home / "zed" / "ps1" / "sub" / "dan.ipynb")
    return home


def _results(out: Path) -> dict:
    return {path.stem: json.loads(path.read_text(encoding="utf-8"))
            for path in (out / "results" / D).glob("*.json")}


@pytest.mark.parametrize("given", ["each folder", "each file"])
def test_a_notebook_named_after_a_classmate_in_ones_own_folder(tmp_path, given):
    """Graded as the teacher gives the students' folders (``home/*/ps1``, or their files):
    bob keeps his 9 of 9, unflagged; cy's notebook from zed's folder is flagged, and its
    points are held for the teacher (empty in the gradebook); zed's own is graded."""
    home = _homes(tmp_path)
    folders = sorted(str(p) for p in home.glob("*/ps1"))
    items = folders if given == "each folder" else sorted(
        str(p) for p in home.glob("*/ps1/*.ipynb"))
    out = tmp_path / "grades"
    assert main(["grade", *items, "--out", str(out), "--sandbox", "required",
                 "--jobs", "1"]) == 1  # (two notebooks for bob: said)
    grades, results = _grades(out), _results(out)
    assert grades["alice"] == FULL and grades["bob"] == FULL and grades["zed"] == NONE
    for student in ("alice", "bob"):
        assert results[student]["flags"] == [] and results[student]["file"] == NAME
    held = [student for student in ("cy", "dan") if student in grades]
    assert held == (["cy", "dan"] if given == "each folder" else ["cy"])
    for student in held:
        assert grades[student] == {q: ("", "yes") for q in FULL}
        flag = results[student]["flags"]
        assert len(flag) == 1 and "zed" in flag[0] and NAME in flag[0], flag


def test_a_later_run_keeps_the_classmates_own_notebook(tmp_path):
    """The class graded (bob: 9 of 9), then zed's folder alone into the same ``--out`` (his
    late work, say): his ``bob.ipynb`` (the wrong answers) replaced bob's stored 9 of 9
    with 0, flagged but with nothing to hold (measured). Now bob's own result stays, and
    flags.csv says why the other was not kept."""
    home = _homes(tmp_path)
    out = tmp_path / "grades"
    given = ["--out", str(out), "--sandbox", "required", "--jobs", "1"]
    main(["grade", *sorted(str(p) for p in home.glob("*/ps1")), *given])
    assert _grades(out)["bob"] == FULL
    main(["grade", str(home / "zed" / "ps1"), *given])
    assert _grades(out)["bob"] == FULL and _results(out)["bob"]["flags"] == []
    assert "bob.ipynb, named after them in the folder of zed, was not kept" in (
        out / "flags.csv").read_text(encoding="utf-8")


def test_notebooks_named_after_the_rosters_ids_do_not_choose_its_column(tmp_path):
    """The roster has alice, bob, zed and dan (who handed nothing in), their SIS User IDs
    1 to 4. zed's folder also holds 1.ipynb ... 4.ipynb: four notebooks matched the SIS
    User ID column against the class's three logins, ``export`` matched by that column, and
    alice's and bob's 9 of 9 matched no row: their cells empty (measured). The column is
    chosen by the notebooks that are their students' own."""
    home = _homes(tmp_path)
    for number in range(1, 5):
        nbformat.write(build(D, str(number), WRONG[D]), home / "zed" / "ps1" / f"{number}.ipynb")
    out = tmp_path / "grades"
    main(["grade", *sorted(str(p) for p in home.glob("*/ps1")), "--out", str(out),
          "--sandbox", "required", "--jobs", "1"])
    done = export(out, "canvas", _roster(tmp_path, "alice", "bob", "zed", "dan"))
    assert done.matched_by == "SIS Login ID"
    with open(done.path, newline="", encoding="utf-8") as file:
        cells = {row["SIS Login ID"]: row[D if D in row else "Derive it by hand"]
                 for row in csv.DictReader(file) if row["SIS Login ID"]}
    assert cells == {"alice": "9", "bob": "9", "zed": "0", "dan": ""}, cells


def test_a_notebook_named_like_a_classmate_leaves_their_row_alone(tmp_path):
    """zed's ``Bob.ipynb``, another student to the grader, matches bob's roster row as bob
    does (the export ignores case): ``export`` left bob's row empty, "Bob and bob match
    the same roster row; enter the grade by hand" (measured). bob's own notebook fills
    it now, and the other is said to be set aside. (Since red team 11 zed's folder's
    ``bob.ipynb`` and ``Bob.ipynb``, one name written two ways, are neither graded, both
    said: ``batch.collisions``.)"""
    home = _homes(tmp_path)
    nbformat.write(build(D, "Bob", WRONG[D]), home / "zed" / "ps1" / "Bob.ipynb")
    out = tmp_path / "grades"
    main(["grade", *sorted(str(p) for p in home.glob("*/ps1")), "--out", str(out),
          "--sandbox", "required", "--jobs", "1"])
    done = export(out, "canvas", _roster(tmp_path, "alice", "bob", "zed"))
    with open(done.path, newline="", encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["SIS Login ID"]]
    assert {row["SIS Login ID"]: list(row.values())[-1] for row in rows} == {
        "alice": "9", "bob": "9", "zed": "0"}
    assert sorted(s for s, _a, why in done.not_graded if "None of them was graded" in why) \
        == ["Bob", "bob"]


def test_the_students_folders_from_the_top_are_their_own(tmp_path):
    """Given the folder of the students' folders (``home/``), each notebook is its folder's
    student's, whatever its name: zed's three are zed's (the last by path kept, and said)."""
    home = _homes(tmp_path)
    out = tmp_path / "grades"
    assert main(["grade", str(home), "--out", str(out), "--sandbox", "required",
                 "--jobs", "1"]) == 1
    grades = _grades(out)
    assert set(grades) == {"alice", "bob", "zed"}
    assert grades["alice"] == FULL and grades["bob"] == FULL


def test_a_flat_folder_of_the_class_is_named_by_its_files(tmp_path):
    """The teacher's own flat folders (``sec1/ps1/alice.ipynb``, ``sec2/ps1/bob.ipynb``:
    sections) are read as before: each file is its name's student, nothing flagged."""
    for section, student in (("sec1", "alice"), ("sec2", "bob")):
        folder = tmp_path / section / "ps1"
        folder.mkdir(parents=True)
        nbformat.write(build(D, student, right(D, student)), folder / f"{student}.ipynb")
    out = tmp_path / "grades"
    assert main(["grade", str(tmp_path / "sec1" / "ps1"), str(tmp_path / "sec2" / "ps1"),
                 "--out", str(out), "--sandbox", "required", "--jobs", "1"]) == 0
    assert _grades(out) == {"alice": FULL, "bob": FULL}
    assert all(r["flags"] == [] for r in _results(out).values())


# --- tried and found closed -------------------------------------------------------------------

MARKUP = ("</li></ul><script>alert(1)</script><img src=http://evil.example/p.png>"
          "<style>body{display:none}</style><svg onload=alert(2)></svg> &#x202e; 0 / 8")
ZALGO = "8 / 8" + "\u0351\u0300\u0316" * 200  # 600 combining marks on one "8"
MARKS = re.compile("[\u0300-\u036f]{5,}")


def test_the_teachers_pages_show_a_students_text_as_text(tmp_path):
    """An ``unbroadcast`` that raises with HTML, CSS and an SVG in its message: the feedback
    page (Markdown, rendered; and HTML) and the item analysis page hold it as text. And 600
    combining marks on one character, which a browser draws as a tower over the lines
    around it (the points of the class's analysis page, quoted there), keep four."""
    notebooks = {"m": build(B, "m", {**WRONG[B], "q4_answer": (
        "def unbroadcast(grad, shape):\n    raise ValueError('%s')" % (MARKUP + ZALGO))}),
        "w": build(B, "w", WRONG[B])}
    submitted = tmp_path / "submitted"
    submitted.mkdir()
    for name, notebook in notebooks.items():
        nbformat.write(notebook, submitted / f"{name}.ipynb")
    out = tmp_path / "grades"
    assert main(["grade", str(submitted), "--out", str(out), "--sandbox", "required",
                 "--jobs", "1", "--format", "html"]) == 0
    pages = {"feedback": (out / "feedback" / B / "m.html").read_text(encoding="utf-8"),
             "analysis": write_pages(out)[0].read_text(encoding="utf-8")}
    main(["grade", str(submitted), "--out", str(tmp_path / "md"), "--sandbox", "required",
          "--jobs", "1"])
    pages["markdown"] = mistune.html(
        (tmp_path / "md" / "feedback" / B / "m.md").read_text(encoding="utf-8"))
    for name, page in pages.items():
        assert "&lt;script&gt;" in page, name
        assert not re.search(r"<(script|img|a)\b|<svg onload", page), name
        assert "<style>body" not in page and "&lt;style&gt;body" in page, name
        assert "\u0351\u0300\u0316\u0351" in page and not MARKS.search(page), name
        assert "\u202e" not in page and "&#x202e;" not in page.replace("&amp;#x202e;", ""), \
            name
    points = {r["student"]: r["points"] for r in csv.DictReader(
        open(out / "gradebook.csv", newline="", encoding="utf-8")) if r["question"] == "q4"}
    assert points == {"m": "0", "w": "0"}


@pytest.mark.parametrize("text", ["x.__class__", "x.real", "x.shape", "y.T.__dict__",
                                  "one_hot(x, 10**4)", "x[10**9:]", "__import__('os')",
                                  "grader", "exp", "x.grad"])
def test_a_formula_reaches_nothing_but_its_names(text):
    with pytest.raises(FormulaError):
        parse(text, ("x", "y", "grad_output"), TENSOR)


# --- what no grader can promise: classmates with the same numbers ------------------------------

def _sharing(assignment: str, names: list[str]) -> dict:
    """numbers -> the students of ``names`` drawn them (anyone can compute this)."""
    found: dict = {}
    for name in names:
        found.setdefault(tuple(sorted(numbers(assignment, name).items())), []).append(name)
    return found


def test_classmates_with_the_same_numbers_share_their_answers(tmp_path):
    """The README's measure: of 30 students, 21 share all their numbers of assignment 1 with a
    classmate, and 21 of assignment 4. One of them hands in the answers of a classmate with
    the same numbers, in their own notebook: it scores as the classmate's, unflagged (the
    same text the work done alone gives; what no grader can tell)."""
    names = [f"student{i}" for i in range(30)]
    for assignment in (D, "implement_a_backward"):
        shared = [group for group in _sharing(assignment, names).values() if len(group) > 1]
        assert sum(len(group) for group in shared) == 21, assignment
    first, second = next(g for g in _sharing(D, names).values() if len(g) > 1)[:2]
    submitted = tmp_path / "submitted"
    submitted.mkdir()
    nbformat.write(build(D, second, right(D, first)), submitted / f"{second}.ipynb")
    out = tmp_path / "grades"
    assert main(["grade", str(submitted), "--out", str(out), "--sandbox", "required"]) == 0
    assert _grades(out) == {second: FULL} and _results(out)[second]["flags"] == []
