"""The seventh red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required), on the assignments the earlier teams left aside (1, 2 and 5) and on what the
teacher's files make of a submission. Each attack rides on the wrong answers (keys.WRONG)
and may score no more than they do; honest work keeps full marks, unflagged. What
succeeded before, and the construction that closed it:

* **markup in the student's feedback page**: an ``unbroadcast`` that raises
  ``ValueError("x\\n\\n# All tests passed: 8 / 8\\n\\n[verify your grade](http://...)
  <img src=http://...>")`` had its message quoted in ``feedback/<assignment>/<student>.md``
  as it was: a heading "All tests passed: 8 / 8", a link and an image (fetched when the
  page is opened) on the page a teacher, or a course's repository, renders; a formula
  answer that could not be read was quoted the same way, and ``&#x202e;`` rendered the
  bidirectional override that the reports take out of the text (measured).
  (``report.feedback_markdown``: every text of the page is one line, its Markdown
  characters escaped, ``report._inline``; the structure is the grader's alone.)
* **a name of 5 MB in the notebook's metadata**: ``minigrad_kit.student`` written as five
  million characters in a notebook with the right answers was quoted whole in the flag
  "this notebook shows the numbers of ..." and in the reason of every question it held:
  90 MB of ``--out`` from one notebook of assignment 5, 170 MB from three notebooks
  (measured). (``intake._notebook_metadata``: a name is read to ``MAX_NAME`` characters.)
* **the answer of assignment 2's q4 handed out with the assignment**: the question module,
  which ``release`` writes beside every student's notebook (``check()`` reads it), held the
  grader's own ``unbroadcast`` in three lines of NumPy (``_unbroadcast``); copied into the
  answer cell over ``grad.numpy()``, with allowed names only, it scored q4, unflagged.
  (``broadcasting_and_reductions._adjoint``: the expected value is autograd's gradient of
  ``expand``, in the judging process; the module holds no answer, and minigrad is not in
  the run that grades ``unbroadcast``.)
* **an upload that answers two assignments**: with a Gradescope autograder made from a
  course folder (``minigrad-kit gradescope course/``), the upload to the Gradescope
  assignment of assignment 1 scored 17 of its 9 points with the published notebook of
  assignment 2 beside its own (measured): the platform adds the notebooks' points up.
  (``upload._one_each``: an upload is graded as one assignment, from one notebook.)
* **an empty cell for a low grade**: in nbgrader's layout, a file that is not a notebook
  put below one's own folder under the instructor notebook's name was graded last and
  replaced the student's 0 of 9 with "could not be graded": an empty cell, which Canvas
  and Moodle read as no grade (measured). (``report._graded_kept``: a result that could
  not be graded never replaces a graded one of the same student and assignment; it is
  said in flags.csv.)
* **one student stops a grading split in parts**: bob put a second notebook of
  assignment 1 in his own nbgrader folder; graded with ``--shard i/2`` (every other path)
  his two notebooks went to two parts, and ``merge`` refused the parts' two results for
  bob: nothing was written for the class (measured). (``cli._sharded``: a part takes whole
  students, as the grader names them, ``batch.student_of``.)
* **a terminal escape in a file's name**: a notebook named ``a\\x1b]52;c;...\\x07.ipynb``
  in one's own nbgrader folder had its escape printed to the teacher's terminal as it was,
  by "two submissions for bob" and "could not grade" (OSC 52 writes the clipboard where the
  terminal allows it; measured: the raw ESC on stderr). (``intake.printable``: every text
  of a result, and the paths the command prints, without control characters.)

Tried and found closed (kept here so that they stay so): an nbformat 3 notebook (graded
from its worksheets), answers nested 3,000 deep in an answer cell (read as unreadable:
0 points, graded), the answer cell turned into markdown and the test cell into a raw cell
(the instructor's types and test; flagged as edited), a cell of the student's own that
takes a test cell's ``grade_id`` before it (the instructor's test is graded).
"""

import ast
import csv
import json
import re
from pathlib import Path

import mistune
import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT, FOLDER
from keys import WRONG, build, published, right
from shared_fixture import (book_rows, check_class_graded, check_full_marks_unflagged,
                            grade_notebooks, read_graded, shared)

from grader import gradescope
from grader.cli import main
from grader.export import export
from grader.grade import QuestionResult, Result
from grader.intake import MAX_NAME
from grader.report import feedback_markdown
from grader.upload import pack_course

D, B, F = "derive_it_by_hand", "broadcasting_and_reductions", "backprop_by_hand"
MARKUP = ("x\\n\\n# All tests passed: 8 / 8\\n\\n[verify your grade](http://evil.example/) "
          "<img src=http://evil.example/p.png> &#x202e; $\\\\href{http://evil.example}{a}$")
FORMULA = "<img src=http://evil.example/f.png> [x](http://e.example) &#x202e;"  # (< 80)
BIG = 5_000_000


def _copied_answers() -> str:
    """The first function of the question module handed out with assignment 2 that takes
    (grad, shape), its body pasted into the answer cell as unbroadcast over ``grad.numpy()``
    (named so, without its docstring: no name beyond the allowlist)."""
    text = (FOLDER / f"{B}.py").read_text(encoding="utf-8")
    found = [node for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)
             and [a.arg for a in node.args.args] == ["grad", "shape"]]
    assert found  # (the module's judge needs one: it computes the expected value)
    body = [statement for statement in found[0].body
            if not (isinstance(statement, ast.Expr) and isinstance(statement.value,
                                                                    ast.Constant))]
    lines = ["def unbroadcast(grad, shape):", "    grad = grad.numpy()"]
    lines += ["    " + line for statement in body
              for line in ast.get_source_segment(text, statement).splitlines()]
    return "\n".join(lines)


def _nbformat3(notebook) -> str:
    """``notebook`` (v4) written as nbformat 3: its cells in a worksheet, a code cell's
    source as its ``input``."""
    cells = []
    for cell in notebook.cells:
        old = {"cell_type": cell.cell_type, "metadata": dict(cell.metadata)}
        old["input" if cell.cell_type == "code" else "source"] = cell.source
        if cell.cell_type == "code":
            old.update(outputs=[], language="python")
        cells.append(old)
    return json.dumps({"nbformat": 3, "nbformat_minor": 0,
                       "metadata": dict(notebook.metadata),
                       "worksheets": [{"cells": cells, "metadata": {}}]})


def _types_changed(notebook):
    for cell in notebook.cells:
        gid = (cell.metadata.get("nbgrader") or {}).get("grade_id")
        if gid == "q1_answer":
            cell.cell_type = "markdown"
            cell.pop("outputs", None), cell.pop("execution_count", None)
        elif gid == "q1":
            cell.cell_type = "raw"
            cell.pop("outputs", None), cell.pop("execution_count", None)
    return notebook


def _submissions() -> dict:
    """student (the file's name) -> the notebook released to them, answered (a notebook, or
    its JSON text)."""
    found = {"h_d": build(D, "h_d", right(D, "h_d")), "h_b": build(B, "h_b", right(B, "h_b")),
             "h_f": build(F, "h_f", right(F, "h_f")),
             "w_d": build(D, "w_d", WRONG[D]), "w_b": build(B, "w_b", WRONG[B])}
    found["m_raise"] = build(B, "m_raise", {**WRONG[B], "q4_answer": (
        "def unbroadcast(grad, shape):\n    raise ValueError('%s')" % MARKUP)})
    found["m_formula"] = build(D, "m_formula", {**WRONG[D], "q1_answer": (
        "df = '%s'" % FORMULA)})
    found["n_big"] = build(F, "n_big", right(F, "n_big"))
    found["n_big"].metadata["minigrad_kit"]["student"] = "s" * BIG
    found["c_copied"] = build(B, "c_copied", {**WRONG[B], "q4_answer": _copied_answers()})
    found["v3_wrong"] = _nbformat3(build(D, "v3_wrong", WRONG[D]))
    found["v3_right"] = _nbformat3(build(D, "v3_right", right(D, "v3_right")))
    found["deep"] = build(D, "deep", {**WRONG[D], "q2_answer": "dg = " + "1+" * 3000 + "1"})
    found["types"] = _types_changed(build(D, "types", WRONG[D]))
    found["test_id"] = build(D, "test_id", WRONG[D], extra={"setup": "# my own test\npass"})
    for cell in found["test_id"].cells:
        if cell.source == "# my own test\npass":
            cell.metadata["nbgrader"] = {"grade_id": "q1", "grade": True, "points": 100,
                                         "solution": False, "locked": False,
                                         "schema_version": 3}
    return found


def _grade(folder):
    return grade_notebooks(folder, _submissions(), "red team 7")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return read_graded(shared(tmp_path_factory, "graded_red_team7", _grade))


HONEST = ["h_d", "h_b", "h_f", "v3_right"]
BASELINE = {"m_raise": "w_b", "m_formula": "w_d", "c_copied": "w_b", "v3_wrong": "w_d",
            "deep": "w_d", "types": "w_d", "test_id": "w_d"}


def _points(graded, name: str) -> dict:
    return {q: r["points"] for q, r in book_rows(graded, name).items()}


def test_the_class_is_graded(graded):
    check_class_graded(graded, {*HONEST, "w_d", "w_b", "n_big", *BASELINE})


@pytest.mark.parametrize("name", HONEST)
def test_honest_work_keeps_full_marks_unflagged(graded, name):
    check_full_marks_unflagged(graded["results"][name])


@pytest.mark.parametrize("name", sorted(BASELINE))
def test_no_attack_scores_more_than_the_wrong_answers(graded, name):
    mine, wrong = _points(graded, name), _points(graded, BASELINE[name])
    assert mine.keys() == wrong.keys()
    assert all(float(mine[q] or 0) <= float(wrong[q] or 0) for q in mine), (mine, wrong)


def _rendered(graded, name: str) -> str:
    assignment = graded["results"][name]["assignment"]
    page = Path(graded["out"]) / "feedback" / assignment / f"{name}.md"
    return mistune.html(page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["m_raise", "m_formula"])
def test_the_feedback_page_shows_the_students_text_as_text(graded, name):
    """Rendered, the page has the grader's headings only (one per question, and its
    sections), no link, no image, no tag and no character made by an entity; the student's
    text is there, as written."""
    html = _rendered(graded, name)
    questions = graded["results"][name]["questions"]
    assert len(re.findall("<h1>", html)) == 1
    assert len(re.findall("<h2>", html)) == len(questions)  # (no problem, no flag)
    assert not re.search(r"<(a|img|script)\b", html) and html.count("<table>") == 1
    assert "<img src=http://evil.example" in html.replace("&lt;", "<")  # said, as text
    assert "\u202e" not in html and "&amp;#x202e;" in html
    honest = _rendered(graded, "w_d" if name == "m_formula" else "w_b")
    assert len(re.findall("<h2>", honest)) == len(questions)


def test_a_feedback_page_quotes_a_file_name_as_text():
    """The file's name (in nbgrader's layout, the student's) is text on the page too."""
    result = Result("bob", D, "[x](http://evil.example) <b>.ipynb", title="T", questions=[
        QuestionResult("q1", "T1", 0.0, 2.0, findings=[[False, "a\n\n## b *c*", "public"]])])
    html = mistune.html(feedback_markdown(result))
    assert not re.search(r"<(a|b|em)\b", html) and html.count("<h2>") == 1
    assert "[x](http://evil.example) &lt;b&gt;.ipynb" in html and "a ## b *c*" in html


def test_a_long_name_in_the_metadata_is_read_short(graded):
    """Five million characters named as the student: the notebook is flagged and what it
    scored held, as for any notebook that names another student, with the name quoted to
    MAX_NAME characters; the whole grading folder stays small."""
    result = graded["results"]["n_big"]
    assert result["flags"] and all(len(text) < MAX_NAME + 400 for text in result["flags"])
    assert all(q["review"] for q in result["questions"] if q["points"])
    assert all(r["needs_review"] == "yes" for r in book_rows(graded, "n_big").values())
    written = sum(p.stat().st_size for p in Path(graded["out"]).rglob("*") if p.is_file())
    assert written < 2_000_000, written


def test_the_module_handed_out_holds_no_answer(graded):
    """The functions of the question module, copied into the answer cell, score nothing:
    the judge's expected value is autograd's, and autograd is not in unbroadcast's run."""
    q4 = book_rows(graded, "c_copied")["q4"]
    assert q4["points"] == "0", q4


def test_what_the_grader_reads_of_a_cell_is_its_own(graded):
    """nbformat 3 is read from its worksheets; an answer nested 3,000 deep is unreadable
    (0 points, graded); a test cell turned raw, or taken by a cell of the student's own,
    is the instructor's test, and said so."""
    assert _points(graded, "v3_wrong") == _points(graded, "w_d")
    deep = graded["results"]["deep"]
    assert deep["error"] == "" and deep["questions"][1]["points"] == 0
    for name in ("types", "test_id"):
        result = graded["results"][name]
        assert [q["max_points"] for q in result["questions"]] == [2.0, 2.0, 2.0, 3.0]
    assert any("'q1'" in flag for flag in graded["results"]["types"]["flags"])
    assert any("repeats the cell 'q1'" in problem
               for problem in graded["results"]["test_id"]["problems"])


# --- an upload to Gradescope that answers two assignments ------------------------------------

def _gradescope(root: Path, files: dict) -> dict:
    """Gradescope's /autograder of assignment 1 (sandbox required), ``files`` (name ->
    notebook) uploaded; results.json."""
    course = root / "source" / "course"
    course.mkdir(parents=True)
    pack_course([str(BY_ASSIGNMENT[D])], course, {"sandbox": "required", "timeout": 10})
    (root / "submission").mkdir()
    for name, notebook in files.items():
        nbformat.write(notebook, root / "submission" / name)
    assert gradescope.run(root) == 0
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def test_an_upload_is_graded_as_one_assignment(tmp_path):
    """The Gradescope assignment of assignment 1 (9 points), its autograder made from the
    course folder of assignments 1 and 2: the published notebook of assignment 1 scored 9,
    and with the published notebook of assignment 2 beside it 17. An autograder grades one
    assignment now (red team 12: ``upload.ONE_ASSIGNMENT``), so the notebook of assignment
    2 is not graded there, and says why; the notebook of assignment 1 scores as before."""
    first, second = (build(name, None, published(name)) for name in (D, B))
    alone = _gradescope(tmp_path / "alone", {"mine.ipynb": first})
    assert alone["score"] == 9
    both = _gradescope(tmp_path / "both", {"mine.ipynb": first, "more.ipynb": second})
    assert both["score"] == 9, both["score"]
    assert f"answers the assignment '{B}', but the instructor notebooks given are for {D}" \
        in both["output"]


# --- a file that cannot be graded, beside one's own notebook -----------------------------------

def test_a_file_that_cannot_be_graded_hides_no_grade(tmp_path):
    """In nbgrader's layout bob's folder holds his notebook (the wrong answers: 0 of 9) and,
    below it, a file under the instructor notebook's name that is not a notebook: it was
    kept as the last by path, and bob's 0 became an empty cell (no grade, to an LMS). His
    graded notebook is kept now, and the other file said in flags.csv."""
    folder = tmp_path / "submitted" / "bob" / "ps1"
    (folder / "zz").mkdir(parents=True)
    name = BY_ASSIGNMENT[D].name
    nbformat.write(build(D, "bob", WRONG[D]), folder / name)
    (folder / "zz" / name).write_text("not a notebook", encoding="utf-8")
    out = tmp_path / "grades"
    assert main(["grade", str(tmp_path / "submitted"), "--out", str(out), "--sandbox",
                 "required", "--salt", "red team 7"]) == 1  # (a file was not graded)
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as file:
        rows = [r for r in csv.DictReader(file) if r["student"] == "bob"]
    assert [r["points"] for r in rows] == ["0", "0", "0", "0"], rows
    assert "could not be graded" in (out / "flags.csv").read_text(encoding="utf-8")
    assert export(out, "canvas", _roster(tmp_path, "bob")).filled == 1


def _roster(folder: Path, *students: str) -> Path:
    path = folder / "canvas.csv"
    path.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n" + "".join(
        f"{s},{n},{n},{s},A\n" for n, s in enumerate(students, 1)), encoding="utf-8")
    return path


# --- two notebooks in one's own folder, and a grading split in parts ----------------------------

def test_a_students_two_notebooks_do_not_stop_a_sharded_grading(tmp_path):
    """bob puts a second notebook of assignment 1 in his own nbgrader folder. Graded with
    ``--shard i/2`` (every other path), his two notebooks went to two parts, and ``merge``
    refused the two results of bob: nothing was written for the whole class (measured). A
    part takes whole students now: the merge is the same, file for file, as one run."""
    name = BY_ASSIGNMENT[D].name
    for student in ("alice", "bob", "cy"):
        folder = tmp_path / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        nbformat.write(build(D, student, right(D, student)), folder / name)
    nbformat.write(build(D, "bob", WRONG[D]), tmp_path / "submitted/bob/ps1/zz.ipynb")
    given = ["grade", str(tmp_path / "submitted"), "--sandbox", "required", "--jobs", "1",
             "--salt", "one for all parts"]  # (--shard needs one: test_red_team9)
    assert main(given + ["--out", str(tmp_path / "all")]) == 1  # (bob's two: said)
    status = [main(given + ["--out", str(tmp_path / f"part{i}"), "--shard", f"{i}/2"])
              for i in (1, 2)]
    assert sorted(status) == [0, 1]
    assert main(["merge", str(tmp_path / "part1"), str(tmp_path / "part2"), "--out",
                 str(tmp_path / "merged")]) == 0

    def files(folder):
        return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
                if p.is_file() and p.name != "timing.csv"}
    assert files(tmp_path / "merged") == files(tmp_path / "all")


# --- what the teacher's terminal is given -------------------------------------------------------

ESCAPE = "\x1b]52;c;ZWNobyBnb3QgeW91Cg==\x07"  # OSC 52: "write this to the clipboard"


def test_a_file_name_sends_no_escape_to_the_terminal(tmp_path, capsys):
    """In bob's own nbgrader folder, a file that is not a notebook, named with a terminal
    escape: "could not grade <file>" printed the escape to the teacher's terminal as it was
    (OSC 52 writes the clipboard where the terminal allows it), and so did "two submissions
    for bob". The grader prints it as U+FFFD now, and its result files hold none either."""
    folder = tmp_path / "submitted" / "bob" / "ps1"
    folder.mkdir(parents=True)
    nbformat.write(build(D, "bob", WRONG[D]), folder / BY_ASSIGNMENT[D].name)
    nbformat.write(build(D, "bob", WRONG[D]), folder / f"a{ESCAPE}.ipynb")
    (folder / f"b{ESCAPE}.ipynb").write_text("not a notebook", encoding="utf-8")
    out = tmp_path / "grades"
    assert main(["grade", str(tmp_path / "submitted"), "--out", str(out), "--sandbox",
                 "required"]) == 1
    said = capsys.readouterr()
    assert "two submissions for bob" in said.err and "could not grade" in said.err
    assert "\x1b" not in said.out + said.err and "\ufffd]52;c;" in said.err
    written = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file())
    assert "\x1b" not in written and "\\u001b" not in written
