"""The red team's submissions, graded as a teacher grades them: each attack that once gained
points, made its submission ungradable, or reached what it must not, and the instructive
ones that never did (they guard the construction).

Each attack rides on the wrong answers (keys.WRONG) and may score no more than they do,
unless its questions are held back for review; honest submissions keep full marks. The
classes closed here, by construction:

* a verdict that fails open: the 200-digit exactness check counted a NaN as agreeing
  (``exact.digits``: only finite real numbers agree at all);
* the grader reading what the upload does not hold, or the same work twice: a symlink to
  the instructor notebook, three copies of one right notebook (``upload.py``);
* a submission that makes itself ungradable (its points empty where a zero was due, its
  flags lost): JSON fields of other types, text the parser refuses, a frame or data on the
  run's pipe in no shape the grader writes (``intake._as_read``, ``scan._tree``,
  ``run.py``, ``data.decode``).
"""

import csv
import json
import os
import re
import shutil
from pathlib import Path

import mpmath
import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from attacks import (AT_200_DIGITS, BEFORE_THE_BUFFER, DANGLING_VIEW, DEEP_EXPRESSION,
                     DEEP_FRAME, FORGED_DATA, HIDDEN_SAID_BACK, MEMORY_VIEW, PLAN_BY_FORMAT,
                     backward_by_differences, differences, gradients_by_differences, poisoned)
from keys import WRONG, build, numbers, published, right
from shared_fixture import check_full_marks_unflagged, shared

from grader import gradescope, prairielearn
from grader import notebook as nbg
from grader.cli import main
from grader.exact import digits
from grader.intake import read_submission
from grader.upload import pack_course

D, K, P, T, B = ("derive_it_by_hand", "implement_a_backward", "backprop_by_hand",
                 "tensors_and_gradients", "broadcasting_and_reductions")
SHORT = {"d": D, "k": K, "p": P, "t": T, "b": B}


def _cells_changed(notebook, change):
    """``notebook`` as JSON text, with ``change(cell)`` applied to each cell's dict."""
    data = json.loads(nbformat.writes(notebook))
    for cell in data["cells"]:
        change(cell)
    return json.dumps(data)


def _submissions() -> dict:
    """name -> the notebook (NotebookNode, or JSON text written as it is)."""
    found = {f"{s}_wrong": build(a, f"{s}_wrong", WRONG[a]) for s, a in SHORT.items()}
    found.update({f"{s}_right": build(a, f"{s}_right", right(a, f"{s}_right"))
                  for s, a in (("d", D), ("t", T))})
    # a finite difference, then NaN at 200 digits: it passed as exact
    found["d_nan"] = build(D, "d_nan", poisoned(differences(numbers(D, "d_nan"))))
    found["k_nan"] = build(K, "k_nan", {**WRONG[K], **poisoned(
        backward_by_differences(numbers(K, "k_nan")))})
    dhpre = gradients_by_differences(numbers(P, "p_nan"))["q5_answer"]
    found["p_nan"] = build(P, "p_nan", {**WRONG[P], **poisoned({"q5_answer": dhpre})})
    # a formula that is a difference in float64 and 0 at 200 digits (never passed)
    found["d_switch"] = build(D, "d_switch", poisoned(
        differences(numbers(D, "d_switch")), f"{AT_200_DIGITS}*0"))
    # JSON the grader reads, in other types: these stopped the grading of the submission
    wrong = build(D, "d_json", WRONG[D])

    def odd(cell):
        gid = (cell.get("metadata", {}).get("nbgrader") or {}).get("grade_id")
        if gid == "q1_answer":
            cell["source"] = {"df": "3*x**2"}
        elif gid == "q2_answer":
            cell["metadata"]["nbgrader"]["grade_id"] = ["q2_answer"]
        elif gid == "q3_answer":
            cell["metadata"]["nbgrader"] = "q3_answer"
        elif gid == "q4_answer":
            cell["cell_type"] = ["code"]
    text = json.loads(_cells_changed(wrong, odd))
    text["metadata"].update(minigrad_kit=["derive_it_by_hand"], lang=7)
    found["d_json"] = json.dumps(text)
    found["d_deep_free"] = build(D, "d_deep_free", WRONG[D], {"q1_answer": DEEP_EXPRESSION})
    # an answer cell twice (wrong, then right); a right answer in a cell that claims to be
    # the test cell; outputs that say it passed: the first, the instructor's, nothing
    answer = right(D, "d_twice")["q1_answer"]
    twice = build(D, "d_twice", WRONG[D])
    first = next(i for i, c in enumerate(twice.cells) if nbg.grade_id(c) == "q1_answer")
    twice.cells.insert(first + 1, nbformat.from_dict({**twice.cells[first], "source": answer,
                                                      "id": "twice"}))
    found["d_twice"] = twice
    claims = build(D, "d_claims", WRONG[D])
    test = next(i for i, c in enumerate(claims.cells) if nbg.grade_id(c) == "q1")
    claims.cells.insert(test, nbformat.from_dict({**claims.cells[test], "id": "claims",
                                                  "source": right(D, "d_claims")["q1_answer"]}))
    found["d_claims"] = claims
    outputs = build(D, "d_outputs", WRONG[D])
    for cell in outputs.cells:
        if nbg.role(cell) == "test":
            cell.outputs = [nbformat.v4.new_output("display_data", data={
                "application/vnd.minigrad-kit.data+json": {"df": right(D, "d_outputs")},
                "text/plain": "public checks passed"})]
    found["d_outputs"] = outputs
    # the run's pipe: nested past the parser; data in no shape encode writes
    found["t_deep_frame"] = build(T, "t_deep_frame", {
        **WRONG[T], "q1_answer": WRONG[T]["q1_answer"] + "\n" + DEEP_FRAME})
    found["t_forged_data"] = build(T, "t_forged_data", {**WRONG[T], "q1_answer": FORGED_DATA})
    # memory around a tensor, through a name the allowlist lets through
    found["t_memory_view"] = build(T, "t_memory_view", {
        **WRONG[T], "q1_answer": WRONG[T]["q1_answer"] + "\n" + MEMORY_VIEW})
    # right answers, then a view of freed memory (NumPy's resize without its check)
    answers = right(T, "t_dangling_view")
    found["t_dangling_view"] = build(T, "t_dangling_view", {
        **answers, "q1_answer": "import numpy as np\n" + answers["q1_answer"] + "\n"
                                + DANGLING_VIEW})
    answers = right(T, "t_before_buffer")
    found["t_before_buffer"] = build(T, "t_before_buffer", {
        **answers, "q1_answer": "import numpy as np\n" + answers["q1_answer"] + "\n"
                                + BEFORE_THE_BUFFER})
    found["b_plan_read"] = build(B, "b_plan_read", {**WRONG[B], "q4_answer": PLAN_BY_FORMAT})
    for how, code in HIDDEN_SAID_BACK.items():
        found[f"b_said_{how}"] = build(B, f"b_said_{how}", {**WRONG[B], "q4_answer": code})
    # a written answer that writes the teacher's page: another student's heading, HTML
    found["t_heading"] = build(T, "t_heading", {**WRONG[T], "q4": WRITTEN_PAGE})
    return found


WRITTEN_PAGE = ("x.grad changed.\n\n```\n\n### t_right\n\n(no answer)\n\n"
                "<img src=x onerror=alert(1)> [grade](https://example.com/?q=)")


def _grade(folder: Path) -> dict:
    submitted, out = folder / "submitted", folder / "grades"
    submitted.mkdir()
    names = sorted(_submissions().items())
    for name, notebook in names:
        text = notebook if isinstance(notebook, str) else nbformat.writes(notebook)
        (submitted / f"{name}.ipynb").write_text(text, encoding="utf-8")
    status = main(["grade", str(submitted), "--out", str(out), "--timeout", "10", "--jobs",
                   "2", "--salt", "red team", "--sandbox", "required"])
    return {"status": status, "out": str(out), "names": [name for name, _n in names]}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    graded = shared(tmp_path_factory, "graded_red_team", _grade)
    out = Path(graded["out"])
    results = {}
    for name in graded["names"]:
        path = out / "results" / SHORT[name[0]] / f"{name}.json"
        results[name] = json.loads(path.read_text()) if path.is_file() else None
    with open(out / "gradebook.csv", newline="") as file:
        book = list(csv.DictReader(file))
    return {**graded, "results": results, "book": book}


def _rows(graded, student) -> dict:
    return {r["question"]: r for r in graded["book"] if r["student"] == student}


def test_every_submission_was_graded(graded):
    """None of them stops its own grading: no "could not be graded" (an empty cell where a
    zero is due), and the command says all went well."""
    assert graded["status"] == 0
    assert {r["student"] for r in graded["book"]} == set(graded["names"])
    assert all(graded["results"][n]["error"] == "" for n in graded["names"])


@pytest.mark.parametrize("name", ["d_right", "t_right"])
def test_honest_work_keeps_full_marks_unflagged(graded, name):
    result = graded["results"][name]
    check_full_marks_unflagged(result)


ATTACKS = ["d_nan", "k_nan", "p_nan", "d_switch", "d_json", "d_deep_free", "d_twice",
           "d_claims", "d_outputs", "t_deep_frame", "t_forged_data", "t_heading",
           "t_memory_view", "t_dangling_view", "t_before_buffer", "b_said_raised",
           "b_said_returned", "b_plan_read"]


@pytest.mark.parametrize("name", ATTACKS)
def test_no_attack_scores_more_than_the_wrong_answers(graded, name):
    wrong = _rows(graded, name[0] + "_wrong")
    rows = _rows(graded, name)
    assert rows.keys() == wrong.keys()
    for question, row in rows.items():
        if row["points"] == "" and row["needs_review"] == "":
            continue  # a written answer: the teacher's to grade
        if row["needs_review"] == "yes":
            assert row["points"] == ""
        else:
            assert float(row["points"]) <= float(wrong[question]["points"] or 0), (name, row)


@pytest.mark.parametrize("name", ["d_nan", "k_nan", "p_nan", "d_switch"])
def test_a_difference_is_not_made_exact_by_a_nan(graded, name):
    """Each poisoned formula is right in float64 and said to be an approximation, not held:
    closed by construction (``exact.digits`` fails closed), not by review."""
    result = graded["results"][name]
    failures = " ".join(f[1] for q in result["questions"] for f in q["findings"] if not f[0])
    assert "approximation (a finite difference?), not the derivative" in failures
    assert not any(q["review"] for q in result["questions"])
    assert result["flags"] == []


def test_the_json_is_read_as_what_it_holds(graded):
    """Fields of other types are absent: the answer cells they were are unanswered (the
    grader says so), the rest is graded, and the submission's own language is English."""
    result = graded["results"]["d_json"]
    assert result["lang"] == "en"
    assert [q["points"] for q in result["questions"]] == [0, 0, 0, 0]
    said = " ".join(result["problems"])
    for gid in ("q2_answer", "q3_answer"):
        assert f"the cell '{gid}' was missing from the submission" in said


def test_a_cell_the_parser_refuses_is_not_a_reason_to_stop(graded):
    assert [q["points"] for q in graded["results"]["d_deep_free"]["questions"]] == [0] * 4


def test_only_the_first_answer_cell_and_the_instructors_test_cell_count(graded):
    twice, claims = graded["results"]["d_twice"], graded["results"]["d_claims"]
    assert "repeats the cell 'q1_answer'; only the first one was graded" in " ".join(
        twice["problems"])
    assert any("('q1') was edited; the instructor's version was used" in flag
               for flag in claims["flags"])
    assert twice["questions"][0]["points"] == claims["questions"][0]["points"] == 0


@pytest.mark.parametrize("name", ["t_deep_frame", "t_forged_data"])
def test_the_pipe_takes_only_the_runs_own_signed_frames(graded, name):
    """A frame nested past JSON's parser made the submission ungradable (its flags lost);
    frames forged in order, for this step and the extract step after it, were taken as the
    run's own: now every frame must carry the HMAC of the run's key, and anything else on
    the pipe is tampering, flagged and holding."""
    result = graded["results"][name]
    assert any("received data it did not ask for (a frame not signed with the run's key)"
               in flag for flag in result["flags"]), result["flags"]
    assert any("beyond what a code answer needs (--strict)" in f for f in result["flags"])


def test_no_allowed_name_reaches_memory_outside_a_tensor(graded):
    """``as_strided`` past its storage passed --strict (a public Tensor method) and read and
    wrote the run's memory: it now refuses as torch does, and the cell says so."""
    result = graded["results"]["t_memory_view"]
    assert "setStorage: sizes [65536], strides [1], storage offset 0, and itemsize 8 " \
           "requiring a storage size of 524288 are out of bounds for storage of size 32" \
           in " ".join(result["problems"])
    assert not any("--strict" in flag for flag in result["flags"])


@pytest.mark.parametrize("name, names", [("t_dangling_view", [".resize"]),
                                         ("t_before_buffer", [".ndarray", ".recarray"])])
def test_what_gives_up_numpys_memory_safety_is_beyond_the_allowlist(graded, name, names):
    """``a.resize(n, refcheck=False)`` (memory freed under a view) and ``np.ndarray`` or
    ``np.recarray`` over a buffer at a negative offset (memory before it) passed --strict,
    with right answers around them: full marks, unflagged. They hold now. (Writing into
    memory that is not the array's may also kill the run, as heap corruption does or not
    with the addresses of that run: then nothing scored, and there is nothing to hold. A
    fresh-clone CI once saw that outcome. Either way no point is given unreviewed.)"""
    rows = _rows(graded, name)
    for question in ("q1", "q2", "q3"):
        row = rows[question]
        assert row["needs_review"] == "yes" or float(row["points"] or 0) == 0, (question, row)
    flags = " ".join(graded["results"][name]["flags"])
    assert all(n in flags for n in names) and "(--strict)" in flags


@pytest.mark.parametrize("how", HIDDEN_SAID_BACK)
def test_the_hidden_inputs_are_not_said_back_in_the_feedback(graded, how):
    """unbroadcast is called with the hidden inputs: what it raised or returned was quoted
    in the feedback (the inputs, to hard-code next time). For the hidden tests only its
    kind is shown now; the public ones still quote it (their inputs are in the notebook)."""
    result = graded["results"][f"b_said_{how}"]
    q4 = next(q for q in result["questions"] if q["name"] == "q4")
    hidden = [text for ok, text, part in q4["findings"] if part == "hidden"]
    public = [text for ok, text, part in q4["findings"] if part == "public"]
    said = "LEAK ["  # (the code's own line, "'LEAK ' + str(...)", may be quoted: it is static)
    assert hidden and not any(said in text for text in hidden), hidden
    assert all("…" in text for text in hidden)
    assert any("LEAK [[0.0, 1.0, 2.0, 3.0]" in text for text in public)
    feedback = (Path(graded["out"]) / "feedback" / B / f"b_said_{how}.md").read_text()
    assert feedback.count(said) == len([t for t in public if said in t])


def test_the_hidden_inputs_are_sealed_until_their_extract_step(graded):
    """A format string (no name --strict holds) walks from an exception to the runner's
    frame and reads its plan: the hidden inputs were there, in the clear, quoted in the
    feedback by the cell's error. They travel sealed with the run's key now."""
    from grader.questions import find_assignment
    from grader.source import inputs, load_source
    from assignment_files import BY_ASSIGNMENT

    result = graded["results"]["b_plan_read"]
    said = " ".join(result["problems"])
    message = said.partition("raised RuntimeError: ")[2].partition(" (line")[0]
    assert len(message) == 400 and set(message) <= set("0123456789abcdef"), said  # sealed
    source = load_source(str(BY_ASSIGNMENT[B]), "red team")
    hidden = inputs(source, find_assignment(B).question("q4"), "b_plan_read",
                    find_assignment(B).variant_for("b_plan_read"))["hidden"]
    assert str(hidden[0][0])[:20] not in said


def test_a_written_answer_is_shown_as_written_on_the_teachers_page(graded):
    """answers/<assignment>.md lists every student's written answer under their name: an
    answer's own "### t_right" made a heading there, its HTML and links rendered. Each
    answer is a code block now, fenced longer than any run of backticks in it."""
    page = (Path(graded["out"]) / "answers" / f"{T}.md").read_text()
    outside = re.sub(r"(?ms)^(`{3,})text\n.*?\n\1$", "", page)  # (CommonMark's fences)
    headings = [line for line in outside.splitlines() if line.startswith("#")]
    students = sorted(n for n in graded["names"] if n.startswith("t_"))
    assert headings[2:] == [f"### {name}" for name in students], headings
    assert "````text\n" + WRITTEN_PAGE + "\n````" in page


def test_digits_agree_only_between_finite_real_numbers():
    with mpmath.workdps(50):
        one, nan, inf = mpmath.mpf(1), mpmath.mpf("nan"), mpmath.mpf("inf")
        assert digits([one, one], [one, one]) == float("inf")  # exactly equal
        assert digits([one + mpmath.mpf("1e-40")], [one]) == pytest.approx(40, abs=0.1)
        for bad in (nan, inf, -inf, mpmath.mpc(1, 1), "one", None):
            assert digits([one, bad], [one, one]) == -float("inf"), bad
        assert digits([], []) == -float("inf")  # nothing to compare agrees with nothing
        assert digits([one, one], [one, one, one]) == -float("inf")  # shapes that differ


def test_intake_gives_each_field_its_type(tmp_path):
    notebook = build(D, None, WRONG[D])
    data = json.loads(nbformat.writes(notebook))
    data["cells"] += [7, {"cell_type": "code", "source": ["a = 1\n", 2], "metadata": "m",
                          "outputs": "x", "execution_count": "1", "id": 5}]
    data["metadata"]["minigrad_kit"] = {"assignment": D, "student": ["alice"]}
    path = tmp_path / "odd.ipynb"
    path.write_text(json.dumps(data))
    read = read_submission(path)
    assert [c.cell_type for c in read.cells[-2:]] == ["raw", "code"]
    assert read.cells[-1].source == "" and read.cells[-1].metadata == {}
    assert read.cells[-1].outputs == [] and read.cells[-1].id != 5
    assert read.metadata.minigrad_kit == {"assignment": D}
    assert [c.source for c in read.cells[:-2]] == [c.source for c in notebook.cells]


# --- uploads to Gradescope and PrairieLearn --------------------------------------------------

def _gradescope(tmp_path, files: dict) -> dict:
    """Gradescope's /autograder for assignment 1 (sandbox required), ``files`` (name ->
    notebook, or a path to link to) in its submission folder, graded by what
    run_autograder runs; results.json."""
    root = tmp_path / "autograder"
    course = root / "source" / "course"
    course.mkdir(parents=True)
    pack_course([str(BY_ASSIGNMENT[D])], course, {"sandbox": "required", "timeout": 10})
    (root / "submission").mkdir()
    for name, what in files.items():
        target = root / "submission" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(what, Path):
            target.symlink_to(what if what.is_absolute() else course / what)
        else:
            nbformat.write(what, target)
    assert gradescope.run(root) == 0
    return json.loads((root / "results" / "results.json").read_text())


def _published():
    return build(D, None, published(D))  # the instructor's numbers: what Gradescope grades


def test_gradescope_counts_one_notebook_once(tmp_path):
    assert _gradescope(tmp_path / "one", {"mine.ipynb": _published()})["score"] == 9


def test_gradescope_does_not_add_up_copies(tmp_path):
    """Three copies of one right notebook scored 27 of 9: now none counts, and the student
    is told to upload one."""
    results = _gradescope(tmp_path, {f"copy{n}.ipynb": _published() for n in range(3)}
                          | {"sub/copy3.ipynb": _published()})
    assert results["score"] == 0
    assert "4 notebooks of this upload answer Derive it by hand" in results["output"]
    assert "upload only the one to grade" in results["output"]


def test_gradescope_follows_no_link(tmp_path):
    """A link to the instructor notebook beside the autograder was graded as the student's:
    full marks for the published solution. A link is read as nothing, and so is a folder
    that is a link."""
    results = _gradescope(tmp_path / "file", {"mine.ipynb": Path("01_derive_it_by_hand.ipynb")})
    assert results["score"] == 0
    assert "mine.ipynb is a symbolic link or cannot be read" in results["output"]
    folder = tmp_path / "folder"
    results = _gradescope(folder, {"course": Path(folder / "autograder/source/course")})
    assert results["score"] == 0 and "No notebook (.ipynb) was found" in results["output"]


def test_prairielearn_follows_no_link(tmp_path):
    root = tmp_path / "grade"
    (root / "tests").mkdir(parents=True)
    pack_course([str(BY_ASSIGNMENT[D])], root / "tests", {"sandbox": "required"})
    (root / "student").mkdir()
    os.symlink(root / "tests" / "01_derive_it_by_hand.ipynb",
               root / "student" / "01_derive_it_by_hand.ipynb")
    assert prairielearn.run(root) == 0
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["gradable"] is False
    assert "is a symbolic link or cannot be read" in " ".join(results["format_errors"])
    shutil.rmtree(root / "results")


# --- whose submission it is -------------------------------------------------------------------

@pytest.mark.parametrize("given", ["submitted", "folders", "files"])
def test_a_notebook_named_after_a_classmate_is_its_folders_students(tmp_path, given):
    """zed puts bob.ipynb (wrong answers) in zed's own nbgrader folder. Graded from
    ``submitted/`` it was zed's; handed over as the students' folders (``submitted/*/ps1``)
    or files, it was bob's, and being last, it replaced bob's 9 of 9 with 0 of 9. Now the
    path says whose it is, however the grader is given it."""
    submitted = tmp_path / "submitted"
    for who, name, answers in (("bob", "01_derive_it_by_hand", right(D, "bob")),
                               ("zed", "bob", WRONG[D])):
        (submitted / who / D).mkdir(parents=True)
        nbformat.write(build(D, who, answers), submitted / who / D / f"{name}.ipynb")
    items = {"submitted": [submitted], "folders": sorted(submitted.glob(f"*/{D}")),
             "files": sorted(submitted.glob(f"*/{D}/*.ipynb"))}[given]
    assert main(["grade", *map(str, items), "--out", str(tmp_path / "out"),
                 "--jobs", "1"]) == 0
    with open(tmp_path / "out" / "gradebook.csv", newline="") as file:
        points = {}
        for row in csv.DictReader(file):
            points[row["student"]] = points.get(row["student"], 0) + float(row["points"])
    assert points == {"bob": 9, "zed": 0}


# --- a verdict needs something checked ----------------------------------------------------------

def test_a_part_that_checks_nothing_fails_the_question():
    """Full points need every part the grader drew (public, hidden) judged with findings
    that all pass: data that came for the public part only, or an empty list of results,
    once left the hidden tests out of the verdict."""
    from grader.grade import QuestionResult, _score
    from grader.questions import Finding

    graded = QuestionResult("q4", "unbroadcast", 0.0, 3.0)
    _score(graded, {"public": [Finding(True, "right")], "hidden": []})
    assert graded.points == 0
    assert "the hidden tests of q4 checked nothing" in graded.findings[-1][1]
    graded = QuestionResult("q4", "unbroadcast", 0.0, 3.0)
    _score(graded, {"public": [Finding(True, "right")], "hidden": [Finding(True, "right")]})
    assert graded.points == 3


def test_unbroadcast_is_judged_once_per_call_whatever_arrives():
    from grader.data import roundtrip
    from grader.questions import find_assignment

    judge = find_assignment("broadcasting_and_reductions").question("q4").judge
    inputs = [[[[1.0, 2.0], [3.0, 4.0]], [2]], [[[1.0, 2.0], [3.0, 4.0]], [1, 2]]]
    right = roundtrip({"results": [[4.0, 6.0], [[4.0, 6.0]]]})
    assert [f.ok for f in judge(right, inputs, {})] == [True, True]
    for short in ({"results": right["results"][:1]}, {"results": []}, {}, None, [1]):
        found = judge(short, inputs, {})
        assert len(found) == 2 and not all(f.ok for f in found), short


def test_a_cell_after_hidden_inputs_were_given_says_only_what_it_raised():
    """A cell that runs after the student's code was called with hidden inputs (a course's
    own assignment with two code questions in one run) could raise them in its message:
    the feedback keeps the kind of error only."""
    from grader.grade import Result, _Cell, _report_step
    from grader.run import StepRun

    cell = _Cell("answer", "q2_answer", "raise ValueError(saved)", "cell 9", "code")
    step = StepRun("error", "ValueError: [[1.5, -2.0]] (line 1: raise ValueError(saved))")
    for quote, said in ((True, "cell 9 raised ValueError: [[1.5, -2.0]] (line 1"),
                        (False, "cell 9 raised ValueError: …")):
        result = Result("s", "a", "f")
        _report_step(cell, step, None, result, quote=quote)
        assert result.problems[0].startswith(said) and (quote or "1.5" not in
                                                        result.problems[0])
