"""`minigrad-kit gradescope`: the autograder zip, run as Gradescope runs it.

The zip is made by the command, extracted into a temporary /autograder laid out as Gradescope
lays it out (platform_tree.py), and set up by its own setup.sh (the base image's apt-get
stubbed; pip not allowed an index, so the kit can only come from the wheel in the zip). Each
submission is then graded by running the generated run_autograder, and results.json is
checked against Gradescope's documented format (a JSON schema) and for what it says."""

import json
import os
import sys
from pathlib import Path

import dying_worker
import jsonschema
import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, numbers, right
from keys import published as keys_published
from platform_tree import (GRADESCOPE, environment, failing_bwrap, gradescope_tree, run, submit,
                           with_test_packages)
from samples import HARD_CODED, PATCH_NUMPY, Sample, build

from grader import batch
from grader import gradescope as gradescope_module
from grader import notebook as nbg
from grader.cli import main
from grader.languages import translated
from grader.questions import find_assignment
from grader.sandbox import runs_as_own_user
from grader.variants import render

pytestmark = pytest.mark.slow
A1, A2 = BY_ASSIGNMENT["tensors_and_gradients"], BY_ASSIGNMENT["derive_it_by_hand"]
SECRETS = ("BEGIN HIDDEN", "default_rng", "assert ", "### BEGIN SOLUTION")


# the course's numbers (--variants none): what the handout beside the zip shows and the
# autograder grades on, not the instructor notebook's (whose solution is public: red team 9)
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


def _autograder(folder: Path, source: Path) -> Path:
    """The autograder of ``source`` (one assignment: one Gradescope assignment's)."""
    assert main(["gradescope", str(source), "--out", str(folder / "autograder.zip"),
                 "--salt", "a private salt", "--timeout", "20", "--lang", "en",
                 "--numbers-of", NUMBERS]) == 0
    return folder / "autograder.zip"


def _sandboxed(folder: Path, zipped: Path) -> Path:
    """/autograder with the kit's environment where bubblewrap runs (the test environment:
    the kernels inside the sandbox find everything they import)."""
    root = gradescope_tree(folder, zipped)
    (root / "minigrad-kit").symlink_to(Path(sys.prefix))
    return root


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return _autograder(tmp_path_factory.mktemp("zip"), A2)


@pytest.fixture(scope="module")
def sandboxed(tmp_path_factory, archive):
    return _sandboxed(tmp_path_factory.mktemp("gs"), archive)


@pytest.fixture(scope="module")
def sandboxed_code(tmp_path_factory):
    """The autograder of assignment 3 (code answers), set up as ``sandboxed``."""
    return _sandboxed(tmp_path_factory.mktemp("gs3"),
                      _autograder(tmp_path_factory.mktemp("zip3"), A1))


def _grade(root, files, env=None, metadata=None) -> dict:
    submit(root, files, metadata)
    done = run([root / "run_autograder"], cwd=root, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, GRADESCOPE)
    return {**results, "stdout": done.stdout}


def _tests(results, visibility=None):
    return {t["name"].split(" · ")[0]: t for t in results["tests"]
            if visibility is None or t.get("visibility") == visibility}


def test_the_zip_holds_what_gradescope_asks_for(archive, tmp_path):
    root = gradescope_tree(tmp_path, archive)
    source = root / "source"
    assert os.access(source / "setup.sh", os.X_OK) and os.access(root / "run_autograder",
                                                                   os.X_OK)
    assert [p.name for p in source.glob("minigrad_kit-*.whl")] == [
        "minigrad_kit-0.1.0-py3-none-any.whl"]
    course = sorted(p.relative_to(source).as_posix() for p in (source / "course").rglob("*")
                    if p.is_file())
    assert "course/01_derive_it_by_hand.ipynb" in course and "course/derive_it_by_hand.py" \
        in course and "course/locale/zh/LC_MESSAGES/01_derive_it_by_hand.po" in course
    config = json.loads((source / "course" / "minigrad-kit.json").read_text())
    assert config["salt"] == "a private salt" and config["timeout"] == 20
    assert config["numbers"] == NUMBERS
    handout = archive.with_name("autograder-handout")
    assert sorted(p.name for p in handout.iterdir()) == sorted([A2.name, "derive_it_by_hand.py"])
    assert nbformat.read(handout / A2.name, as_version=4) == _released(A2)


def test_the_published_solution_answers_no_handout(sandboxed):
    """The kit's wheel holds the instructor notebooks, whose solutions answer their own
    numbers; the handout shows the course's, and the autograder grades on them: the
    published solution pasted into it scored 9 of 9 (red team 9), now less."""
    published = build(_released(A2), Sample(keys_published(D)))
    assert _grade(sandboxed, {"hw2.ipynb": published})["score"] < 9


def test_setup_installs_the_kit_from_its_wheel_and_grades_without_a_sandbox(archive, tmp_path):
    """setup.sh as Gradescope runs it, with nothing to download; then a container where
    bubblewrap cannot make its namespaces (as Docker's default seccomp profile refuses)."""
    root = gradescope_tree(tmp_path, archive)
    stubs = tmp_path / "stubs"
    path = failing_bwrap(stubs)
    apt = stubs / "apt-get"
    apt.write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'apt.log'}\n")
    apt.chmod(0o755)
    # the kit's dependencies (numpy, ipykernel, ...) are not to be downloaded here: the
    # environment setup.sh makes (python3 -m venv keeps what is there) sees the test's
    assert run(["python3", "-m", "venv",
                root / "minigrad-kit"], cwd=tmp_path).returncode == 0
    with_test_packages(root / "minigrad-kit")
    done = run(["bash", root / "source" / "setup.sh"], cwd=root / "source",
               env=environment(PATH=path, PIP_NO_INDEX="1", PIP_NO_DEPS="1"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the minigrad kit is installed" in done.stdout
    assert (tmp_path / "apt.log").read_text().splitlines() == [
        "update", "install -y --no-install-recommends python3 python3-venv bubblewrap"]
    where = run([root / "minigrad-kit" / "bin" / "python", "-c", "import grader; "
                 "print(grader.__file__)"], cwd=root).stdout.strip()
    assert Path(where).is_relative_to(root / "minigrad-kit")  # the wheel's kit, not ours

    released = _released(A2)
    results = _grade(root, {"hw2.ipynb": build(released, CORRECT)},
                     env=environment(PATH=path))
    assert results["score"] == 9
    note = _tests(results, "hidden")["For the teacher"]
    assert note["name"] == "For the teacher · no sandbox"
    assert ("The student's code ran WITHOUT the sandbox (OFF: bubblewrap could not be used "
            "(a trial run failed: bwrap: No permissions to creating new namespace") in (
        note["output"])
    # (root here, as in Gradescope's container: the code ran as a user of its own, to whom
    # the course folder was closed; red team 15)
    assert ("not the course folder" if runs_as_own_user() else
            "could read /autograder/source") in note["output"]
    assert "ran WITHOUT the sandbox" in results["stdout"]  # Gradescope's instructor output


def test_a_partial_submission(sandboxed):
    results = _grade(sandboxed, {"my work/hw2.ipynb": build(_released(A2), PARTIAL)})
    assert results["score"] == 4
    tests = _tests(results)
    assert {name: (t["score"], t["max_score"], t["status"]) for name, t in tests.items()} == {
        "q1": (2, 2, "passed"), "q2": (0, 2, "failed"), "q3": (2, 2, "passed"),
        "q4": (0, 3, "failed")}
    assert [t["number"] for t in results["tests"]] == ["1", "2", "3", "4"]
    assert all(t["visibility"] == "visible" for t in results["tests"])  # no teacher notes
    assert "✗ hidden: dg is wrong at" in tests["q2"]["output"]
    assert "✓ public: df is right" in tests["q1"]["output"]
    assert results["output"].startswith("4 / 9 points graded automatically.")
    everything = json.dumps(results)
    for secret in SECRETS + ("a private salt",):
        assert secret not in everything, secret
    assert results["extra_data"]["minigrad_kit"][0]["student"] == "ada_example.edu"
    assert results["extra_data"]["minigrad_kit"][0]["sandbox"].startswith("bubblewrap")


def test_the_same_student_gets_the_same_hidden_inputs_another_one_others(sandboxed):
    hard_coded = build(_released(A2), Sample({**right(D, NUMBERS), "q1_answer": HARD_CODED}))
    first = _grade(sandboxed, {"hw2.ipynb": hard_coded})
    again = _grade(sandboxed, {"hw2.ipynb": hard_coded})
    other = _grade(sandboxed, {"hw2.ipynb": hard_coded}, metadata={
        "users": [{"email": "bob@example.edu", "id": 99, "name": "Bob"}]})
    assert _tests(first)["q1"]["output"] == _tests(again)["q1"]["output"]
    assert _tests(first)["q1"]["output"] != _tests(other)["q1"]["output"]
    assert first["score"] == other["score"] == 7  # right only where check() looks


def test_held_back_points_and_flags_are_the_teachers_to_see(sandboxed_code):
    tampered = build(_released(A1), Sample(TAMPERED))
    results = _grade(sandboxed_code, {"hw1.ipynb": tampered})
    visible, hidden = _tests(results, "visible"), results["tests"]
    assert results["score"] == 0  # held back: no points until the teacher adjusts them
    for name in ("q1", "q2", "q3"):
        assert visible[name]["score"] == 0 and "status" not in visible[name]
        assert visible[name]["output"].endswith("Held back for your teacher's review: the "
                                                "points count once your teacher has looked "
                                                "at your code.")
    assert "score" not in visible["q4"] and "max_score" not in visible["q4"]  # written answer
    notes = {t["name"]: t["output"] for t in hidden if t["visibility"] == "hidden"}
    assert set(notes) == {"For the teacher · q1 held back for review",
                          "For the teacher · q2 held back for review",
                          "For the teacher · q3 held back for review",
                          "For the teacher · flagged code"}
    assert "replaces numpy.allclose" in notes["For the teacher · q1 held back for review"]
    assert "The grader judged it 1 of 1 points" in notes[
        "For the teacher · q1 held back for review"]
    shown = results["output"] + "".join(t["output"] for t in visible.values())
    assert "numpy" not in shown and "allclose" not in shown  # what was found: teacher only


def test_a_chinese_submission_gets_chinese_feedback(sandboxed):
    results = _grade(sandboxed, {"hw2.ipynb": build(_released(A2, "zh"), PARTIAL)})
    assert results["score"] == 4
    assert _tests(results)["q2"]["output"].startswith("✗ 公开: ")  # (public, in Chinese)
    assert "✗ 隐藏: " in _tests(results)["q2"]["output"]
    assert results["output"].startswith("自动评分得 4 / 9 分")


def test_nothing_to_grade(sandboxed):
    empty = _grade(sandboxed, {"notes.txt": "I forgot the notebook"})
    assert empty == {**empty, "score": 0, "tests": []}
    assert empty["output"] == ("No notebook (.ipynb) was found in your submission: upload the "
                               "notebook you worked in.")
    broken = _grade(sandboxed, {"hw2.ipynb": "{ not a notebook"})
    assert broken["score"] == 0 and broken["tests"] == []
    assert broken["output"].startswith("Your notebook hw2.ipynb could not be graded: "
                                       "ValueError: hw2.ipynb is not a readable notebook")


def test_per_student_variants_grade_each_student_on_the_numbers_released_to_them(
        tmp_path, archive):
    """`gradescope --variants per-student`: the teacher released with --students and the
    e-mail addresses Gradescope knows the students by; the autograder grades each
    submission on the numbers of the student submission_metadata.json names."""
    zipped = tmp_path / "autograder.zip"
    assert main(["gradescope", str(A2), "--out", str(zipped), "--salt", "a private salt",
                 "--timeout", "20", "--lang", "en", "--variants", "per-student"]) == 0
    root = gradescope_tree(tmp_path / "gs", zipped)
    (root / "minigrad-kit").symlink_to(Path(sys.prefix))
    assert main(["release", str(A2), "--out", str(tmp_path / "release"), "--students",
                 "ada@example.edu", "--no-verify"]) == 0
    mine = nbformat.read(tmp_path / "release" / "ada_example.edu" / A2.name, as_version=4)
    answers = right("derive_it_by_hand", "ada_example.edu")
    for cell in mine.cells:
        cell.source = answers.get(nbg.grade_id(cell), cell.source)
    assert numbers("derive_it_by_hand", "ada_example.edu") != numbers("derive_it_by_hand", None)
    ada = _grade(root, {"hw2.ipynb": mine})  # the default submitter: ada@example.edu
    assert ada["score"] == 9
    assert ada["extra_data"]["minigrad_kit"][0]["student"] == "ada_example.edu"
    bob = _grade(root, {"hw2.ipynb": mine}, metadata={
        "users": [{"email": "bob@example.edu", "id": 99, "name": "Bob"}]})
    assert bob["score"] < 9  # ada's numbers are not bob's
    plain = gradescope_tree(tmp_path / "plain", archive)  # made without --variants
    (plain / "minigrad-kit").symlink_to(Path(sys.prefix))
    assert _grade(plain, {"hw2.ipynb": mine})["score"] < 9  # the course's numbers


def test_a_submission_whose_grading_dies_is_not_scored(sandboxed, monkeypatch, capsys):
    """The process grading the upload killed (SIGKILL, as the out-of-memory killer ends it;
    ``dying_worker.py``: the notebook's text holds its mark), in the pool and again alone:
    results.json is written, the
    student is told the autograder failed and the score is not final (not the teacher's
    ``grade --missing`` hint), the teacher reads why. (Before, ``--jobs 1`` graded in the
    autograder's own process, which the death ended: no results.json at all.)"""
    monkeypatch.setattr(batch, "_timed", dying_worker.timed)
    monkeypatch.setattr(batch, "_answer", dying_worker.answer)
    notebook = build(_released(A2), CORRECT)
    notebook.cells.append(nbformat.v4.new_markdown_cell(dying_worker.MARK))
    submit(sandboxed, {"hw2.ipynb": notebook})
    assert gradescope_module.run(sandboxed) == 0
    results = json.loads((sandboxed / "results" / "results.json").read_text())
    jsonschema.validate(results, GRADESCOPE)
    assert results["score"] == 0 and results["output"] == (
        "The autograder failed on this submission; your teacher can see why. Your score is "
        "not final.")
    note = _tests(results, "hidden")["For the teacher"]
    assert note["output"].startswith("not graded: its grading process was killed (SIGKILL)")
    assert note["output"] in capsys.readouterr().out  # (Gradescope's instructor output)
