"""`minigrad-kit prairielearn`: the questions it writes, and its external grader run as
PrairieLearn runs it.

The question's tests/ folder is copied to a temporary /grade/tests, the student's upload to
/grade/student, data.json to /grade/data, and the entry point the question names
(/grade/tests/run) is run with the image's python3 being the kit's (here: the test
environment's). results.json is checked against PrairieLearn's documented format (a JSON
schema; score in [0, 1]; at most 1 MB) and for what it says."""

import json
import os
import shutil
import sys
from pathlib import Path

import dying_worker
import jsonschema
import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, right
from keys import published as keys_published
from platform_tree import PRAIRIELEARN, PRAIRIELEARN_LIMIT, environment, run
from samples import PATCH_NUMPY, Sample, build

from grader import batch
from grader import notebook as nbg
from grader import prairielearn as prairielearn_module
from grader.cli import main
from grader.languages import translated
from grader.variants import render
from grader.questions import find_assignment

pytestmark = pytest.mark.slow
A1, A2 = BY_ASSIGNMENT["tensors_and_gradients"], BY_ASSIGNMENT["derive_it_by_hand"]
QUESTIONS = Path("questions") / "minigrad-kit"


# the course's numbers, which the handout shows and the grader grades on (not the instructor
# notebook's, which its published solution answers: test_red_team9)
NUMBERS = "fall-2026"  # (--numbers-of, as the fixture writes the course)
D, T = "derive_it_by_hand", "tensors_and_gradients"
CORRECT = Sample(right(D, NUMBERS))
PARTIAL = Sample({**right(D, NUMBERS), "q2_answer": WRONG[D]["q2_answer"],
                  "q4_answer": WRONG[D]["q4_answer"]})
CODE_RIGHT = right(T, NUMBERS)
TAMPERED = {**CODE_RIGHT, "q1_answer": PATCH_NUMPY + "\n" + CODE_RIGHT["q1_answer"]}


def _released(path, lang="en"):
    notebook = nbformat.read(path, as_version=4)
    rendered = render(notebook, find_assignment(nbg.assignment_name(notebook)), NUMBERS)
    return nbg.student_version(translated(rendered, path, lang))


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    out = tmp_path_factory.mktemp("pl")
    assert main(["prairielearn", str(A1), str(A2), "--out", str(out), "--image",
                 "example/minigrad-kit-grader:0.1.0", "--salt", "a private salt",
                 "--timeout", "20", "--lang", "en", "--numbers-of", NUMBERS]) == 0
    return out


@pytest.fixture(scope="module")
def python3(tmp_path_factory):
    """A PATH on which python3 is the kit's Python, as in the grading image."""
    folder = tmp_path_factory.mktemp("image-bin")
    (folder / "python3").write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    (folder / "python3").chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ['PATH']}"


def _grade(base, course, assignment, files, python3, seed=7) -> tuple[dict, str]:
    grade = base / "grade"
    shutil.rmtree(grade, ignore_errors=True)
    shutil.copytree(course / QUESTIONS / assignment / "tests", grade / "tests")
    (grade / "student").mkdir()
    for name, content in files.items():
        (grade / "student" / name).write_text(content if isinstance(content, str)
                                              else json.dumps(content))
    (grade / "data").mkdir()
    (grade / "data" / "data.json").write_text(json.dumps({
        "params": {}, "correct_answers": {}, "submitted_answers": {}, "format_errors": {},
        "partial_scores": {}, "score": 0, "feedback": {}, "variant_seed": seed,
        "options": {}, "raw_submitted_answers": {}, "gradable": True}))
    entry = json.loads((course / QUESTIONS / assignment / "info.json").read_text())[
        "externalGradingOptions"]["entrypoint"]
    done = run(["sh", grade / entry.removeprefix("/grade/")], cwd=grade,
               env=environment(PATH=python3))
    assert done.returncode == 0, done.stdout + done.stderr
    text = (grade / "results" / "results.json").read_bytes()
    assert len(text) <= PRAIRIELEARN_LIMIT
    results = json.loads(text)
    jsonschema.validate(results, PRAIRIELEARN)
    return results, done.stdout


def test_the_questions_it_writes(course):
    question = course / QUESTIONS / "derive_it_by_hand"
    info = json.loads((question / "info.json").read_text())
    assert info["gradingMethod"] == "External" and info["type"] == "v3"
    assert info["externalGradingOptions"] == {
        "enabled": True, "image": "example/minigrad-kit-grader:0.1.0",
        "entrypoint": "/grade/tests/run", "timeout": 300}
    assert not info["singleVariant"]  # (every variant: the course's numbers)
    html = (question / "question.html").read_text()
    assert '<pl-file-upload file-names="01_derive_it_by_hand.ipynb">' in html
    assert '<pl-file-download file-name="derive_it_by_hand.py">' in html
    # (the kit, for the students, as the grading image has it: the question said "pip install
    # minigrad-kit", whatever PyPI holds under that name)
    wheel = "minigrad_kit-0.1.0-py3-none-any.whl"
    assert f'<pl-file-download file-name="{wheel}">' in html
    assert f"<code>pip install {wheel}</code>" in html and "minigrad-kit</code>" not in html
    assert (question / "clientFilesQuestion" / wheel).read_bytes() == (
        course / "minigrad-kit-grader" / wheel).read_bytes()
    assert "<pl-external-grader-results></pl-external-grader-results>" in html
    handed_out = nbformat.read(question / "clientFilesQuestion" / A2.name, as_version=4)
    assert nbg.is_student_version(handed_out)
    assert handed_out == _released(A2) != _published_numbers(A2)
    assert "BEGIN HIDDEN" not in json.dumps(handed_out) and "BEGIN SOLUTION" not in \
        json.dumps(handed_out)
    assert (question / "tests" / "run").stat().st_mode & 0o111
    dockerfile = (course / "minigrad-kit-grader" / "Dockerfile").read_text()
    assert "apt-get install -y --no-install-recommends bubblewrap" in dockerfile
    assert "pip install --no-cache-dir /tmp/minigrad_kit-0.1.0-py3-none-any.whl" in dockerfile
    assert (course / "minigrad-kit-grader" / "minigrad_kit-0.1.0-py3-none-any.whl").is_file()
    other = json.loads((course / QUESTIONS / "tensors_and_gradients" / "info.json").read_text())
    assert other["uuid"] != info["uuid"]


def test_a_partial_submission(tmp_path, course, python3):
    results, said = _grade(tmp_path, course, "derive_it_by_hand",
                           {A2.name: build(_released(A2), PARTIAL)}, python3)
    assert results["gradable"] and results["score"] == pytest.approx(4 / 9)
    assert [(t["name"].split(" · ")[0], t["points"], t["max_points"]) for t in
            results["tests"]] == [("q1", 2, 2), ("q2", 0, 2), ("q3", 2, 2), ("q4", 0, 3)]
    assert "✗ hidden: dg is wrong at" in results["tests"][1]["message"]
    assert results["message"].startswith("4 / 9 points graded automatically.")
    for secret in ("BEGIN HIDDEN", "default_rng", "assert ", "a private salt"):
        assert secret not in json.dumps(results)
    # the job's output (course staff): the grader's own lines, and no note to read
    assert "variant-7  derive_it_by_hand  4 / 9" in said and "code ran in a sandbox: bubblewrap" in said
    assert "held back" not in said and "flagged" not in said


def _published_numbers(path):
    return nbg.student_version(nbformat.read(path, as_version=4))


def test_the_published_solution_answers_no_handout(tmp_path, course, python3):
    """The kit's wheel holds the instructor notebooks: their solutions answer the instructor
    notebook's own numbers. The handout shows the course's (``course_numbers``), and the
    grader grades on them: the published solution, pasted into the handout, scored 9 of 9
    (red team 9); now what the wrong answers score, while the work done on the handout's
    numbers scores 9."""
    published = build(_released(A2), Sample(keys_published(D)))
    results, _ = _grade(tmp_path, course, D, {A2.name: published}, python3)
    assert results["score"] < 1
    results, _ = _grade(tmp_path, course, D, {A2.name: build(_released(A2), CORRECT)}, python3)
    assert results["score"] == 1


def test_nothing_gradable_uses_no_attempt(tmp_path, course, python3):
    results, _ = _grade(tmp_path, course, "derive_it_by_hand", {"notes.txt": "hi"}, python3)
    assert results == {"gradable": False, "format_errors": [
        "No notebook (.ipynb) was found in your submission: upload the notebook you worked "
        "in."]}
    results, _ = _grade(tmp_path, course, "derive_it_by_hand", {A2.name: "{ broken"}, python3)
    assert not results["gradable"] and results["format_errors"][0].startswith(
        f"Your notebook {A2.name} could not be graded: ValueError: {A2.name} is not a readable "
        "notebook")
    other = _released(A1)
    results, _ = _grade(tmp_path, course, "derive_it_by_hand", {A2.name: other}, python3)
    assert not results["gradable"] and "answers the assignment 'tensors_and_gradients'" in \
        results["format_errors"][0]


def test_held_back_points_count_zero_and_the_teacher_reads_why(tmp_path, course, python3):
    tampered = build(_released(A1), Sample(TAMPERED))
    results, said = _grade(tmp_path, course, "tensors_and_gradients", {A1.name: tampered},
                           python3)
    assert results["gradable"] and results["score"] == 0
    tests = {t["name"].split(" · ")[0]: t for t in results["tests"]}
    assert tests["q1"]["points"] == 0 and tests["q1"]["max_points"] == 1
    assert tests["q1"]["message"].endswith("the points count once your teacher has looked at "
                                           "your code.")
    assert "points" not in tests["q4"]  # the written answer: the teacher's to grade
    assert "numpy" not in json.dumps(results)  # what was found: in the job's output only
    assert "variant-7 q1: held back for review (cell 6 (your answer 'q1_answer') uses .allclose =" in said
    assert "judged 1 of 1 points: give them with a manual score" in said


def test_a_korean_submission_gets_korean_feedback(tmp_path, course, python3):
    results, _ = _grade(tmp_path, course, "derive_it_by_hand",
                        {A2.name: build(_released(A2, "ko"), CORRECT)}, python3)
    assert results["score"] == 1
    assert results["message"].startswith("자동 채점")


# A teacher's own copy of assignment 01 whose judge adds a long worked reminder to every
# failed check: the feedback of one wrong submission is megabytes, as a real course can make
# it (hint texts with a derivation, many questions); the grading run itself writes it.
LONG_HINT = '''
import dataclasses

from grader.questions import Finding

judged = ASSIGNMENT.questions


def _with_reminder(judge):
    def judge_with_reminder(data, points, env):
        return [f if f.ok else Finding(False, f"{f.text} Reminder {index}: " + REMINDER)
                for index, f in enumerate(judge(data, points, env))]
    return judge_with_reminder


REMINDER = "the chain rule, d f(g(x))/dx = f'(g(x)) * g'(x), applied to each factor; " * 6000
ASSIGNMENT = dataclasses.replace(ASSIGNMENT, questions=tuple(
    dataclasses.replace(q, judge=_with_reminder(q.judge)) for q in judged))
'''


def test_the_results_stay_under_one_megabyte(tmp_path, course, python3):
    """A real grading run whose feedback is megabytes (a long hint on each failed check):
    results.json is cut, longest texts first, to PrairieLearn's 1 MB; the points stay."""
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    shutil.copy(A2, teacher / A2.name)
    module = (A2.parent / "derive_it_by_hand.py").read_text()
    (teacher / "derive_it_by_hand.py").write_text(module + LONG_HINT)
    long_course = tmp_path / "pl"
    assert main(["prairielearn", str(teacher / A2.name), "--out", str(long_course), "--image",
                 "example/minigrad-kit-grader:0.1.0", "--salt", "a private salt",
                 "--timeout", "20", "--lang", "en", "--numbers-of", NUMBERS]) == 0
    partial = build(_released(A2), PARTIAL)
    results, _ = _grade(tmp_path, long_course, "derive_it_by_hand", {A2.name: partial}, python3)
    assert results["score"] == pytest.approx(4 / 9)  # the cut changes no point
    tests = {t["name"].split(" · ")[0]: t for t in results["tests"]}
    for name in ("q2", "q4"):  # each failed check: its sentence, its reminder's start, a cut
        assert tests[name]["points"] == 0
        failed = [line for line in tests[name]["message"].split("\n") if line.startswith("✗")]
        assert failed and all(" Reminder " in line and line.endswith(
            " … (cut to fit PrairieLearn's 1 MB limit)") for line in failed)
        assert " is wrong at " in failed[0]
        # every check still says whether it passed, the hidden ones too
        assert [line[:8] for line in tests[name]["message"].split("\n")].count("✗ hidden") >= 1
    for name in ("q1", "q3"):  # short: kept whole
        assert tests[name]["points"] == 2 and "cut to fit" not in tests[name]["message"]
    kept = sum(len(t["message"]) for t in results["tests"])
    assert kept > 100_000  # cut to fit, not emptied


def test_a_submission_whose_grading_dies_is_not_scored(tmp_path, course, monkeypatch, capsys):
    """The process grading the upload killed (SIGKILL, as the out-of-memory killer ends it;
    ``dying_worker.py``: the notebook's text holds its mark), in the pool and again alone:
    results.json says not gradable (no attempt used), that the autograder failed and the
    teacher can see why; the job's output, which course staff read, says why. (Before,
    ``--jobs 1`` graded in the grader's own process, which the death ended: no
    results.json.)"""
    monkeypatch.setattr(batch, "_timed", dying_worker.timed)
    monkeypatch.setattr(batch, "_answer", dying_worker.answer)
    grade = tmp_path / "grade"
    shutil.copytree(course / QUESTIONS / "derive_it_by_hand" / "tests", grade / "tests")
    notebook = build(_released(A2), CORRECT)
    notebook.cells.append(nbformat.v4.new_markdown_cell(dying_worker.MARK))
    (grade / "student").mkdir()
    nbformat.write(notebook, grade / "student" / A2.name)
    assert prairielearn_module.run(grade) == 0
    results = json.loads((grade / "results" / "results.json").read_text())
    jsonschema.validate(results, PRAIRIELEARN)
    assert results == {"gradable": False, "format_errors": [
        "The autograder failed on this submission; your teacher can see why. Your score is "
        "not final."]}
    assert f"{A2.name}: not graded: its grading process was killed (SIGKILL)" in (
        capsys.readouterr().out)
