"""The second red team's submissions, graded as a teacher grades them (``minigrad-kit grade``,
the sandbox required). Each attack rides on the wrong answers (keys.WRONG) and may score no
more than they do; honest work keeps full marks, unflagged. What succeeded before, and the
construction that closed it:

* **a classmate's grade replaced** from one's own nbgrader folder: a notebook in
  ``submitted/zed/<assignment>/bob/<assignment>/`` (or ``.../submitted/bob/...``) was read
  as bob's, and, last by path, replaced bob's 9 of 9 with zed's 0 when the teacher graded
  the students' folders (``batch.owner_of``: the owner is read from the top of the
  layout, where the teacher's folders are, never from below, where the student's are);
* **a submission made ungradable** (its points empty where a zero is due) by JSON that
  every field of it can be read from: ``"nbformat": 5``, no ``nbformat``, a string
  ``nbformat_minor``, a 5,000-digit number in the metadata (``intake``: the notebook is
  built from the JSON by the grader, not by nbformat's validating reader);
* **the whole class's report never written**: one lone surrogate (``"\\ud800"``) in a
  written answer, in an error message the run sent back, or in a file name that is not
  UTF-8, raised UnicodeEncodeError while writing, after every submission was graded
  (``batch.readable``, ``intake.valid_text``: every text of a result is valid Unicode);
* **a grading worker held for minutes, then the submission ungradable**: IPython's
  reading of a cell re-tokenizes it for every escape; a cell of 30,000 ``x?`` lines took
  6 minutes and then raised RuntimeError, and an answer cell of 16,000 ``x = 1`` lines 2
  minutes (``ipython_text.as_python``: escapes rewritten line by line, at most 200 a cell;
  ``answers``: each cell's lines found once; ``grade.MAX_OWN_TEXT``).
"""

import csv
import json
import os
import time
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, right
from shared_fixture import book_rows, check_full_marks_unflagged, read_graded, shared

from grader.batch import owner_of
from grader.cli import main
from grader.ipython_text import as_python

D, T = "derive_it_by_hand", "tensors_and_gradients"
SURROGATE = "\ud800"


def _json(notebook, change) -> str:
    """``notebook`` as JSON text after ``change(data)`` (which may return the text)."""
    data = json.loads(nbformat.writes(notebook))
    text = change(data)
    return text if isinstance(text, str) else json.dumps(data)


def _placed(data: dict, raw: str) -> str:
    """The notebook's JSON with ``raw`` (JSON text) as a value of its metadata."""
    data["metadata"]["extra"] = "PLACE"
    return json.dumps(data).replace('"PLACE"', raw)


def _answer_text(data: dict, gid: str, text: str) -> None:
    for cell in data["cells"]:
        if (cell["metadata"].get("nbgrader") or {}).get("grade_id") == gid:
            cell["source"] = text


def _submissions() -> dict:
    """file name (bytes: not always UTF-8) -> the file's text."""
    found = {}

    def add(name, notebook):
        found[name.encode() + b".ipynb"] = \
            notebook if isinstance(notebook, str) else nbformat.writes(notebook)

    for short, assignment in (("d", D), ("t", T)):
        add(f"{short}_wrong", build(assignment, f"{short}_wrong", WRONG[assignment]))
    # honest work, with what honest notebooks hold: a magic line above an answer, a
    # notebook saved by a newer Jupyter
    answers = right(D, "d_right")
    answers["q1_answer"] = "%matplotlib inline\n" + answers["q1_answer"]
    add("d_right", build(D, "d_right", answers))
    add("d_right_newer", _json(build(D, "d_right_newer", right(D, "d_right_newer")),
                               lambda data: data.update(nbformat=5, nbformat_minor=0)))
    add("t_right", build(T, "t_right", right(T, "t_right")))
    # JSON that made the submission ungradable
    for name, change in {
            "d_nbformat5": lambda data: data.update(nbformat=5),
            "d_no_nbformat": lambda data: data.pop("nbformat"),
            "d_minor_text": lambda data: data.update(nbformat_minor="five"),
            "d_long_number": lambda data: _placed(data, "9" * 5000),
            "d_nan_metadata": lambda data: _placed(data, "NaN")}.items():
        add(name, _json(build(D, name, WRONG[D]), change))
    # lone surrogates: in a written answer, in an error the run sends back, in a file name
    add("t_surrogate_answer", _json(build(T, "t_surrogate_answer", WRONG[T]),
                                    lambda data: _answer_text(data, "q4", f"x{SURROGATE}")))
    add("t_surrogate_error", build(T, "t_surrogate_error", {
        **WRONG[T], "q2_answer": WRONG[T]["q2_answer"] + "\nraise ValueError('\\ud800')"}))
    found[b"d_bad\xff.ipynb"] = nbformat.writes(build(D, "d_bad_", WRONG[D]))
    # q2's y made with a wrong factor, its values then written where autograd does not see
    # (held by --strict as `y.data = ...` was); q3's gradient written over a wrong one
    wrong_y = WRONG[T]["q2_answer"]

    def q1_right(name: str, **answers) -> dict:
        return {**WRONG[T], "q1_answer": right(T, name)["q1_answer"], **answers}

    add("t_q1_right", build(T, "t_q1_right", q1_right("t_q1_right")))  # their baseline
    for name, code in {
            "t_data_copy": wrong_y + "\ny.data.copy_(x.data * factor)\nz = y.sum()",
            "t_no_grad_copy": wrong_y + "\nwith torch.no_grad():\n    y.copy_(x * factor)\n"
                              "z = y.sum()"}.items():
        add(name, build(T, name, q1_right(name, q2_answer=code)))
    add("t_grad_fill", build(T, "t_grad_fill", q1_right(
        "t_grad_fill", q3_answer="y.retain_grad()\nz.retain_grad()\nz.backward()\n"
                                 "x.grad.fill_(factor)")))
    # IPython's reading, made slow: a cell of help lines of one's own, an answer cell of
    # 16,000 assignments
    help_lines = build(D, "d_help_lines", WRONG[D])
    help_lines.cells.append(nbformat.v4.new_code_cell("x?\n" * 30_000))
    add("d_help_lines", help_lines)
    answers = dict(WRONG[D])
    answers["q1_answer"] = "x = 1\n" * 16_000 + answers["q1_answer"]
    add("d_long_answer", build(D, "d_long_answer", answers))
    return found


ATTACKS = ["d_nbformat5", "d_no_nbformat", "d_minor_text", "d_long_number", "d_nan_metadata",
           "t_surrogate_answer", "t_surrogate_error", "d_bad_", "d_help_lines",
           "d_long_answer", "t_data_copy", "t_no_grad_copy", "t_grad_fill"]
HELD = ["t_data_copy", "t_no_grad_copy", "t_grad_fill"]  # held for review: the rest is graded


def _grade(folder: Path) -> dict:
    submitted, out = folder / "submitted", folder / "grades"
    submitted.mkdir()
    for name, text in _submissions().items():
        with open(os.fsencode(str(submitted)) + b"/" + name, "w", encoding="utf-8") as file:
            file.write(text)
    start = time.monotonic()
    status = main(["grade", str(submitted), "--out", str(out), "--timeout", "10", "--jobs",
                   "2", "--salt", "red team 2", "--sandbox", "required"])
    return {"status": status, "out": str(out), "seconds": time.monotonic() - start}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return read_graded(shared(tmp_path_factory, "graded_red_team2", _grade))


def test_the_class_is_graded_and_its_report_written(graded):
    """Every submission graded (none "could not be graded"), the report written, and the
    command content: a surrogate anywhere stopped the writing of every file."""
    assert graded["status"] == 0
    names = {"d_wrong", "t_wrong", "t_q1_right", "d_right", "d_right_newer", "t_right",
             *ATTACKS}
    assert set(graded["results"]) == names
    assert all(r["error"] == "" for r in graded["results"].values())
    assert {r["student"] for r in graded["book"]} == names


@pytest.mark.parametrize("name", ["d_right", "d_right_newer", "t_right"])
def test_honest_work_keeps_full_marks_unflagged(graded, name):
    result = graded["results"][name]
    check_full_marks_unflagged(result)


@pytest.mark.parametrize("name", ATTACKS)
def test_no_attack_scores_more_than_the_wrong_answers(graded, name):
    baseline = "t_q1_right" if name in HELD else name[0] + "_wrong"
    wrong, rows = book_rows(graded, baseline), book_rows(graded, name)
    assert rows.keys() == wrong.keys()
    for question, row in rows.items():
        if row["points"] == "" and row["needs_review"] == "":
            continue  # a written answer: the teacher's to grade
        if row["needs_review"] == "yes":
            assert name in HELD and row["points"] == "", (name, row)
            continue
        assert row["needs_review"] == "" and row["points"] != "", (name, row)
        assert float(row["points"]) <= float(wrong[question]["points"] or 0), (name, row)


@pytest.mark.parametrize("name", HELD)
def test_values_written_outside_autograd_are_held(graded, name):
    """Without the hold each of these scored the question it forges (q2's y and z, q3's
    x.grad) over the wrong answers; --strict holds it for review, and the judges now give
    it nothing to hold."""
    held = {q["name"] for q in graded["results"][name]["questions"] if q["review"]}
    # (red team 3: q3 is judged on q2's y, here wrong: 0, nothing to hold; red team 4: q2 is
    # judged on y's slope too, which values written over a wrong y do not change (factor +
    # 1): 0 as well. What wrote them is still flagged beyond --strict)
    forged = {"t_grad_fill": ("q3", ".fill_"), "t_data_copy": ("q2", ".data"),
              "t_no_grad_copy": ("q2", ".no_grad")}
    question, word = forged[name]
    graded_question = next(q for q in graded["results"][name]["questions"]
                           if q["name"] == question)
    assert held == set() and graded_question["points"] == 0
    assert any(word in flag for flag in graded["results"][name]["flags"])


def test_text_that_is_not_unicode_is_replaced_not_lost(graded):
    out = Path(graded["out"])
    answers = (out / "answers" / f"{T}.md").read_text(encoding="utf-8")
    assert "x\ufffd" in answers
    problems = " ".join(graded["results"]["t_surrogate_error"]["problems"])
    assert "ValueError: \ufffd" in problems
    assert graded["results"]["d_bad_"]["file"] == "d_bad\ufffd.ipynb"


def test_ipythons_reading_costs_one_pass(graded):
    """The two slow cells cost minutes before; the whole class now takes seconds."""
    assert graded["seconds"] < 60
    assert as_python("%time x\n" * 12_000).startswith("%time x")  # past 200: as written
    assert as_python("%matplotlib inline\ndf = '1'\n") == \
        "get_ipython().run_line_magic('matplotlib', 'inline')\ndf = '1'\n"


# --- whose submission it is -------------------------------------------------------------------

@pytest.mark.parametrize("given", ["folders"])  # (graded from submitted/: the unit test below)
def test_a_folder_in_ones_own_folder_does_not_make_a_notebook_a_classmates(tmp_path, given):
    """zed makes, in zed's own nbgrader folder, ``bob/<assignment>/`` and
    ``submitted/bob/<assignment>/`` with wrong answers in them. Graded from the students'
    folders (``submitted/*/<assignment>``), the first was read as bob's and, last by path,
    replaced bob's 9 of 9 with 0. Both are zed's, however the grader is given them."""
    submitted = tmp_path / "submitted"
    for who, folder, answers in (("bob", submitted / "bob" / D, right(D, "bob")),
                                 ("bob", submitted / "zed" / D / "bob" / D, WRONG[D]),
                                 ("bob", submitted / "zed" / D / "submitted" / "bob" / D,
                                  WRONG[D])):
        folder.mkdir(parents=True)
        nbformat.write(build(D, who, answers), folder / "01_derive_it_by_hand.ipynb")
    items = {"submitted": [submitted], "folders": sorted(submitted.glob(f"*/{D}"))}[given]
    main(["grade", *map(str, items), "--out", str(tmp_path / "out"), "--jobs", "2",
          "--sandbox", "required"])
    with open(tmp_path / "out" / "gradebook.csv", newline="") as file:
        points, held = {}, set()
        for row in csv.DictReader(file):  # held back: no points until the teacher's review
            points[row["student"]] = points.get(row["student"], 0) + float(row["points"] or 0)
            if row["needs_review"] == "yes":
                held.add(row["student"])
    # zed's notebooks show bob's numbers: zed's, flagged and held (with 0 as judged)
    assert points == {"bob": 9, "zed": 0} and held == {"zed"}


def test_the_owner_is_read_from_the_top_of_the_layout(tmp_path):
    root = tmp_path / "course" / "submitted"
    planted = root / "zed" / "ps1" / "submitted" / "bob" / "ps1" / "x.ipynb"
    assert owner_of(planted, root) == "zed"
    assert owner_of(planted, root / "zed" / "ps1") == "zed"
    assert owner_of(planted, root / "zed") == "zed"
    assert owner_of(planted, tmp_path / "course") == "zed"
    assert owner_of(root / "alice" / "ps1" / "a.ipynb", tmp_path / "course") == "alice"
    assert owner_of(tmp_path / "flat" / "alice.ipynb", tmp_path / "flat") is None


# --- uploads ------------------------------------------------------------------------------------

def test_an_upload_named_in_bytes_that_are_not_utf8_is_graded(tmp_path):
    """PrairieLearn: a notebook uploaded as ``mine\\xff.ipynb`` (the upload's names are the
    student's) carries a lone surrogate in its file name into the results, which are
    measured as UTF-8 for PrairieLearn's 1 MB (a guard: it did not reach a text measured
    before either)."""
    from assignment_files import BY_ASSIGNMENT
    from keys import published

    from grader import prairielearn
    from grader.upload import pack_course

    root = tmp_path / "grade"
    (root / "tests").mkdir(parents=True)
    pack_course([str(BY_ASSIGNMENT[D])], root / "tests", {"sandbox": "required"})
    (root / "student").mkdir()
    with open(os.fsencode(str(root / "student")) + b"/mine\xff.ipynb", "w",
              encoding="utf-8") as file:
        file.write(nbformat.writes(build(D, None, published(D))))
    assert prairielearn.run(root) == 0
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["gradable"] is True and results["score"] == 1.0


# --- review -------------------------------------------------------------------------------------

def test_an_accepted_question_is_held_again_when_its_code_changes(tmp_path):
    """The teacher accepts alice's q3, held for a name beyond the allowlist. alice hands in
    a late notebook whose code uses the same names (the same reasons, word for word) but
    does something else: the acceptance, tied to the reasons alone, counted it unreviewed.
    It is tied to the answers as graded too, so the new code is held again."""
    submitted, out = tmp_path / "in", tmp_path / "grades"
    submitted.mkdir()
    answers = right(T, "alice")

    def grade(extra: str) -> dict:
        code = dict(answers, q3_answer=answers["q3_answer"] + "\n" + extra)
        nbformat.write(build(T, "alice", code), submitted / "alice.ipynb")
        assert main(["grade", str(submitted), "--out", str(out), "--timeout", "10",
                     "--jobs", "1", "--sandbox", "required"]) == 0
        with open(out / "gradebook.csv", newline="") as file:
            return {r["question"]: (r["points"], r["needs_review"])
                    for r in csv.DictReader(file)}

    assert grade("import os\nwhere = os.sep")["q3"] == ("", "yes")
    assert main(["review", str(out), "--accept", f"alice/{T}/q3"]) == 0
    assert grade("import os\nwhere = os.sep")["q3"] == ("2", "")  # the same code: decided
    assert grade("import os\nwhere = os.sep * 2")["q3"] == ("", "yes")


# --- the LMS's file -----------------------------------------------------------------------------

def test_two_submissions_for_one_roster_row_fill_no_cell(tmp_path):
    """``Bob.ipynb`` (wrong) and ``bob.ipynb`` (right) both match the roster's ``bob``: the
    Canvas file held whichever came last, silently. Both are now said, the cell empty.
    (Since red team 11 neither is graded: names that differ in case only are one student
    for the roster and for a file system that ignores case, ``batch.collisions``.)"""
    from grader.export import export

    submitted = tmp_path / "in"
    submitted.mkdir()
    nbformat.write(build(D, "bob", right(D, "bob")), submitted / "bob.ipynb")
    nbformat.write(build(D, "Bob", WRONG[D]), submitted / "Bob.ipynb")
    assert main(["grade", str(submitted), "--out", str(tmp_path / "out"), "--jobs", "1",
                 "--sandbox", "required"]) == 1
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      "Bob B,1,s1,bob,A\nAlice A,2,s2,alice,A\n")
    done = export(tmp_path / "out", "canvas", roster)
    rows = list(csv.reader(done.path.read_text().splitlines()))
    assert rows[2] == ["Bob B", "1", "s1", "bob", "A"] and done.filled == 0
    assert sorted(s for s, _a, why in done.not_graded if "None of them was graded" in why) \
        == ["Bob", "bob"]
