"""Tampering, graded as a teacher grades: no attack scores more than the wrong answer it rides
on, unless its question is held back for review; a right answer gets full marks, unflagged.

All submissions are graded by one `minigrad-kit grade` run (sandbox required, the default
--strict), from a working folder of the test's own, into an OUT folder planted beforehand
with forged, phantom and broken results. Each student has their own numbers (the
assignments' variants), so the right answers are written for them (keys.right).
"""

import csv
import json
import os
import shutil
import sys
import time
from pathlib import Path

import nbformat
import pytest
import torch
from assignment_files import BY_ASSIGNMENT
from attacks import (BACKWARD_BY_AUTOGRAD, BARRY, BARRY_FLAG, DISPLAY_UPDATE, GLOBALS_REBOUND,
                     GRADIENTS_BY_AUTOGRAD, GRADIENTS_OUTSIDE, HELPER_ELSEWHERE, HIDDEN_ENCODER,
                     PICKLED, PIPE_FORGERY, PRINT_SELF_EXEC, SLEEPER, UNBROADCAST_BY_BACKWARD,
                     UNBROADCAST_BY_EXPAND,
                     UNBROADCAST_BY_HIDDEN_TORCH, UNBROADCAST_BY_SUM_TO,
                     backward_by_differences, gradients_by_differences, reach_the_grader,
                     stencils)
from keys import WRONG, build, numbers, published, right
from shared_fixture import shared

from grader.cli import main

SHORT = {"d": "derive_it_by_hand", "b": "broadcasting_and_reductions",
         "t": "tensors_and_gradients", "k": "implement_a_backward", "p": "backprop_by_hand"}
SALT = "s3cret-salt-for-the-attack-test"


def _with(assignment, extra_code, where="q1_answer", first=False):
    """The wrong answers, with ``extra_code`` added to the answer cell ``where`` (after the
    answer, or ``first``)."""
    answers = dict(WRONG[assignment])
    answers[where] = (extra_code + "\n" + answers[where] if first else
                      answers[where] + "\n" + extra_code)
    return answers


def _submissions(folder: Path):
    """name -> (assignment, answers, extra cells after grade_id, cell types changed)."""
    out, cwd, submitted = folder / "grades", folder / "cwd", folder / "submitted"
    t, found = "tensors_and_gradients", {}
    for short, assignment in SHORT.items():
        found[f"{short}_wrong"] = (assignment, WRONG[assignment], {}, {})
        found[f"{short}_right"] = (assignment, right(assignment, f"{short}_right"), {}, {})
        found[f"{short}_published"] = (assignment, published(assignment), {}, {})
    # kind 1: globals() rebound, in an answer cell (it runs) and in a cell of one's own
    found["t_globals"] = (t, _with(t, GLOBALS_REBOUND), {}, {})
    found["t_globals_free"] = (t, WRONG[t], {"setup": GLOBALS_REBOUND}, {})
    # kind 2: outputs changed after the fact; the grader's pipe written to directly
    found["t_display"] = (t, _with(t, DISPLAY_UPDATE), {}, {})
    found["t_pipe"] = (t, _with(t, PIPE_FORGERY, "q3_answer"), {}, {})
    # the encoder patched by a route the denylist does not name; and code as data (in q2's
    # cell: q3 builds on q2, judged at its own step, so forging from q3's cell on gains
    # nothing even before review)
    found["t_hidden_encoder"] = (t, _with(t, HIDDEN_ENCODER, "q2_answer"), {}, {})
    found["t_print_self"] = (t, _with(t, PRINT_SELF_EXEC, "q2_answer"), {}, {})
    found["t_pickled"] = (t, _with(t, PICKLED, "q2_answer"), {}, {})
    # kind 3: a cell only its own future import parses
    found["t_barry"] = (t, {**_with(t, BARRY, "q3_answer"),
                            "q2_answer": BARRY_FLAG + "\n" + WRONG[t]["q2_answer"]}, {}, {})
    # kind 4: the written answer turned into a code cell that forges
    found["t_markdown_code"] = (t, {**WRONG[t], "q4": GLOBALS_REBOUND + HIDDEN_ENCODER}, {},
                                {"q4": "code"})
    # kind 5: derivations answered by a tool
    found["d_stencil"] = ("derive_it_by_hand", stencils(numbers("derive_it_by_hand",
                                                                "d_stencil")), {}, {})
    found["k_differences"] = ("implement_a_backward",
                              {**WRONG["implement_a_backward"],
                               **backward_by_differences(numbers("implement_a_backward",
                                                                 "k_differences"))}, {}, {})
    found["k_autograd"] = ("implement_a_backward", {**WRONG["implement_a_backward"],
                                                    **BACKWARD_BY_AUTOGRAD}, {}, {})
    b = "broadcasting_and_reductions"
    for name, code in (("backward", UNBROADCAST_BY_BACKWARD), ("expand", UNBROADCAST_BY_EXPAND),
                       ("sum_to", UNBROADCAST_BY_SUM_TO),
                       ("hidden_torch", UNBROADCAST_BY_HIDDEN_TORCH)):
        found[f"b_{name}"] = (b, {**WRONG[b], "q4_answer": code}, {}, {})
    found["b_helper"] = (b, {**WRONG[b], "q2_answer": HELPER_ELSEWHERE,
                             "q4_answer": "def unbroadcast(grad, shape):\n"
                                          "    return _helper(grad, shape)"}, {}, {})
    # assignment 5: autograd's numbers handed over, differences, calls outside the language,
    # sizes written as the notebook's numbers, the instructor's numbers and solution
    p = "backprop_by_hand"
    found["p_autograd"] = (p, {**WRONG[p], **GRADIENTS_BY_AUTOGRAD}, {}, {})
    found["p_differences"] = (p, {**WRONG[p], **gradients_by_differences(numbers(
        p, "p_differences"))}, {}, {})
    found["p_outside"] = (p, {**WRONG[p], **GRADIENTS_OUTSIDE}, {}, {})
    found["p_public_only"] = (p, {**WRONG[p], **_public_only(p, "p_public_only")}, {}, {})
    instructor = published(p)
    found["p_forged_numbers"] = (p, {**WRONG[p], **{k: instructor[k] for k in (
        "q1_answer", "q4_answer", "q5_answer", "q7_answer")}, "network": NOTEBOOK_NUMBERS},
        {}, {})
    # reaching the grader: its command line, its files, the solutions, other packages
    targets = [str(submitted / "escaped.txt"), str(out / "escaped.txt"),
               str(out / "results" / t / "mallory.json"), str(cwd / "escaped.txt")]
    secrets = [str(BY_ASSIGNMENT[t]), torch.__file__, "/usr/lib/python3/dist-packages",
               str(Path(sys.executable).parent)]
    found["t_escape"] = (t, _with(t, reach_the_grader(targets, secrets)), {}, {})
    return found, targets


def _public_only(assignment, student):
    """Right answers with the sizes of the notebook's own batch written as numbers (n = 32
    and the student's vocab): right on the public batch only."""
    answers = right(assignment, student)
    vocab = numbers(assignment, student)["vocab"]
    return {cell: answers[cell].replace(" / n", " / 32").replace("(Y, vocab)", f"(Y, {vocab})")
            for cell in ("q1_answer", "q7_answer")}


# the instructor notebook's numbers, in place of the student's (a locked cell edited)
NOTEBOOK_NUMBERS = """\
vocab, dims, block, hidden, s, T, w = 27, 10, 3, 64, 1.0, 1.0, 1.0
reduction = "mean"
n = 32
rng = np.random.default_rng(42)
X = torch.tensor(rng.integers(0, vocab, (n, block)))
Y = torch.tensor(rng.integers(0, vocab, n))


def parameter(*shape, scale):
    return torch.tensor(rng.standard_normal(shape) * scale, requires_grad=True)


C = parameter(vocab, dims, scale=1.0)
W1 = parameter(dims * block, hidden, scale=0.3)
b1 = parameter(hidden, scale=0.1)
W2 = parameter(hidden, vocab, scale=0.1)
b2 = parameter(vocab, scale=0.1)"""


def _plant(out: Path) -> list[str]:
    """What anyone might leave in OUT before a run."""
    forged = {"student": "d_wrong", "assignment": "derive_it_by_hand", "file": "x.ipynb",
              "questions": [{"name": f"q{n}", "title": "", "points": 3.0, "max_points": 3.0}
                            for n in range(1, 5)]}
    planted = {"results/other/d_wrong.json": json.dumps(forged),
               "results/derive_it_by_hand/phantom.json": json.dumps(
                   {**forged, "student": "phantom"}),
               "results/derive_it_by_hand/broken.json": "{ not json"}
    for relative, text in planted.items():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_text(text, encoding="utf-8")
    (out / "results/tensors_and_gradients/t_wrong.json").mkdir(parents=True)  # a folder
    return sorted(planted)


def _grade(folder):
    submissions, targets = _submissions(folder)
    submitted, out, cwd = folder / "submitted", folder / "grades", folder / "cwd"
    for path in (submitted, out, cwd):
        path.mkdir()
    for name, (assignment, answers, extra, types) in submissions.items():
        notebook = build(assignment, name, answers, extra, types)
        if name == "p_forged_numbers":  # and the metadata of a notebook released to no one
            notebook.metadata["minigrad_kit"] = {"assignment": assignment}
        nbformat.write(notebook, submitted / f"{name}.ipynb")
    planted = _plant(out)
    previous, os.environ["MINIGRAD_KIT_SALT"] = os.getcwd(), SALT
    os.chdir(cwd)
    try:
        status = main(["grade", str(submitted), "--out", str(out), "--timeout", "10",
                       "--jobs", "2", "--salt", SALT, "--sandbox", "required", "--strict"])
    finally:
        os.chdir(previous)
        del os.environ["MINIGRAD_KIT_SALT"]
    return {"status": status, "out": str(out), "targets": targets, "planted": planted,
            "names": sorted(submissions), "submitted": str(submitted)}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    graded = shared(tmp_path_factory, "graded_attacks", _grade)
    out = Path(graded["out"])
    results = {}
    for name in graded["names"]:
        path = out / "results" / SHORT[name.split("_")[0]] / f"{name}.json"
        if path.is_file():  # (t_wrong's place is taken by a planted folder)
            results[name] = json.loads(path.read_text())
    with open(out / "gradebook.csv", newline="") as file:
        book = list(csv.DictReader(file))
    with open(out / "flags.csv", newline="") as file:
        flags = list(csv.DictReader(file))
    return {**graded, "out": out, "results": results, "book": book, "flags": flags}


def _rows(graded, student):
    return {r["question"]: r for r in graded["book"] if r["student"] == student}


def test_the_run_finished_and_graded_everyone(graded):
    assert graded["status"] == 0
    assert {r["student"] for r in graded["book"]} == set(graded["names"])


@pytest.mark.parametrize("short", SHORT)
def test_a_right_submission_gets_full_marks_unflagged(graded, short):
    rows = _rows(graded, f"{short}_right")
    result = graded["results"][f"{short}_right"]
    auto = [q["name"] for q in result["questions"] if not q["manual"]]
    assert auto and all(rows[q]["points"] == rows[q]["max"] and rows[q]["needs_review"] == ""
                        for q in auto), (rows, result["questions"])
    assert result["flags"] == [] and result["problems"] == []
    assert result["sandbox"].startswith("bubblewrap")


ATTACKS = ["t_globals", "t_globals_free", "t_display", "t_pipe", "t_hidden_encoder",
           "t_print_self", "t_pickled", "t_barry", "t_markdown_code", "t_escape", "d_stencil",
           "k_differences", "k_autograd", "b_backward", "b_expand", "b_sum_to", "b_hidden_torch",
           "b_helper", "p_autograd", "p_differences", "p_outside", "p_public_only",
           "p_forged_numbers"]


@pytest.mark.parametrize("name", ATTACKS)
def test_an_attack_scores_no_more_than_the_wrong_answer_or_is_held_back(graded, name):
    wrong = _rows(graded, name.split("_")[0] + "_wrong")
    for question, row in _rows(graded, name).items():
        if row["needs_review"] == "yes":
            assert row["points"] == ""
            continue
        assert float(row["points"] or 0) <= float(wrong[question]["points"] or 0), (
            question, row, graded["results"][name]["flags"])


@pytest.mark.parametrize("name", ["t_globals", "t_globals_free", "t_display", "t_barry",
                                  "t_markdown_code", "d_stencil", "k_differences", "k_autograd",
                                  "b_backward", "b_expand", "b_sum_to", "b_hidden_torch",
                                  "b_helper", "p_autograd", "p_differences", "p_outside",
                                  "p_public_only"])
def test_closed_by_construction_not_by_review(graded, name):
    """These gain nothing even before review: nothing is held, the points are the wrong
    answer's (what they forge never reaches the grader, or what they lean on is absent)."""
    wrong = _rows(graded, name.split("_")[0] + "_wrong")
    rows = _rows(graded, name)
    automatic = [q["name"] for q in graded["results"][name]["questions"] if not q["manual"]]
    assert {q: rows[q]["points"] for q in automatic} == {q: wrong[q]["points"]
                                                         for q in automatic}
    assert all(r["needs_review"] == "" for r in rows.values())


@pytest.mark.parametrize("name, expected", [
    ("t_pipe", "received data it did not ask for"),
    ("t_hidden_encoder", "beyond what a code answer needs (--strict)"),
    ("t_print_self", "beyond what a code answer needs (--strict)"),
    ("t_pickled", "runs code handed over as data"),
])
def test_what_could_forge_is_held_back(graded, name, expected):
    result = graded["results"][name]
    assert any(expected in flag for flag in result["flags"]), result["flags"]
    held = [q["name"] for q in result["questions"] if q["review"]]
    assert all(_rows(graded, name)[q]["needs_review"] == "yes" for q in held)


def test_the_hidden_encoder_would_have_forged_full_marks(graded):
    """Held back, its questions carry the forged (full) points the grader judged: it does
    forge, so holding it is what keeps the wrong answer from them."""
    result = graded["results"]["t_hidden_encoder"]
    q3 = next(q for q in result["questions"] if q["name"] == "q3")
    assert q3["review"] and q3["points"] == q3["max_points"]


def test_published_solutions_earn_nothing_but_general_code(graded):
    """The instructor notebooks' solutions answer the default numbers, not a student's."""
    for short in ("d", "k"):
        assert {r["points"] for r in _rows(graded, f"{short}_published").values()} == {"0"}
    p = _rows(graded, "p_published")  # the steps that hold the student's numbers
    assert [p[q]["points"] for q in ("q1", "q4", "q5", "q7")] == ["0", "0", "0", "0"]
    assert p["q6"]["points"] == "5"  # the same chain-rule steps for everyone: not caught
    t = _rows(graded, "t_published")
    assert [t[q]["points"] for q in ("q1", "q2", "q3")] == ["0", "0", "0"]
    b = _rows(graded, "b_published")
    assert [b[q]["points"] for q in ("q1", "q2", "q3")] == ["0", "0", "0"]
    assert b["q4"]["points"] == "3"  # code that sums in general: copying code is not caught


def test_findings_say_why(graded):
    results = graded["results"]

    def failures(name, question):
        q = next(q for q in results[name]["questions"] if q["name"] == question)
        return " ".join(f[1] for f in q["findings"] if not f[0]) + " " + q["note"]
    assert "approximation (a finite difference?), not the derivative" in failures(
        "d_stencil", "q3")
    assert "too long" in failures("d_stencil", "q1")  # (the longest ones do not even fit)
    assert "approximation" in failures("k_differences", "q1")
    assert "calls grad, which is not allowed" in failures("k_autograd", "q1")
    assert "not a formula" in failures("k_autograd", "q2")
    assert "graded on tensors without autograd" in failures("b_backward", "q4")
    assert "No module named 'minigrad.autograd'" in " ".join(results["b_sum_to"]["problems"])
    assert "is not plain Python" in " ".join(results["t_barry"]["flags"])  # it could not run
    assert "approximation" in failures("p_differences", "q5")
    assert "approximation" in failures("p_differences", "q4")
    # (answers are read from the text: an assignment that computes is no answer at all)
    assert "dlogprobs is a value computed by code" in failures("p_autograd", "q1")
    assert "dhpre is a value computed by code, not a formula" in failures("p_autograd", "q5")
    for question in ("q4", "q7"):
        assert "not allowed" in failures("p_outside", question), failures("p_outside", question)
    assert "the formula 'hpre.grad' holds an attribute" in failures("p_outside", "q5")
    assert "dlogprobs" in failures("p_public_only", "q1")
    assert "write the sizes by name" in failures("p_public_only", "q7")


def test_the_code_run_could_not_reach_the_grader(graded):
    problems = " ".join(graded["results"]["t_escape"]["problems"])
    assert "escape: pids ['1', '2']; wrote []; found []; saw" in problems
    assert SALT not in json.dumps(graded["results"]["t_escape"])
    for path in graded["targets"]:
        assert not os.path.exists(path), path


def test_planted_results_are_flagged_and_ignored(graded):
    rows = [(r["student"], r["assignment"], r["question"]) for r in graded["book"]]
    assert len(rows) == len(set(rows))  # no question twice
    assert "phantom" not in {r["student"] for r in graded["book"]}
    wrong = _rows(graded, "d_wrong")
    assert [wrong[q]["points"] for q in ("q1", "q2", "q3", "q4")] == ["0", "0", "0", "0"]
    foreign = " ".join(r["flag"] for r in graded["flags"] if r["student"] == "")
    for relative in graded["planted"]:
        assert f"{relative} was not written by the grader; it was ignored" in foreign
    assert "could not write results/tensors_and_gradients/t_wrong.json" in foreign
    assert _rows(graded, "t_wrong")  # its result is still in the gradebook


def test_a_rerun_into_the_poisoned_folder_works_and_review_decides(graded, tmp_path, capsys):
    out = tmp_path / "grades"
    shutil.copytree(graded["out"], out, symlinks=True)
    (out / "results" / "derive_it_by_hand" / "d_right.json").write_text("{}")  # changed
    status = main(["grade", str(Path(graded["submitted"]) / "t_pickled.ipynb"), "--out",
                   str(out), "--timeout", "10", "--jobs", "1", "--sandbox", "required"])
    assert status == 0
    with open(out / "gradebook.csv", newline="") as file:
        book = list(csv.DictReader(file))
    # the changed file is ignored; t_wrong's result could not be written (a planted folder)
    assert {r["student"] for r in book} == set(graded["names"]) - {"d_right", "t_wrong"}
    flags = (out / "flags.csv").read_text()
    assert "results/derive_it_by_hand/d_right.json was ignored: ValueError: its content " \
           "changed after the grader wrote it" in flags
    capsys.readouterr()

    assert main(["review", str(out)]) == 0
    listed = capsys.readouterr().out
    assert "t_print_self/tensors_and_gradients/q3: held back (2 of 2 points as judged)" \
        in listed
    assert main(["review", str(out), "--accept", "t_print_self/tensors_and_gradients/q3",
                 "--reject", "t_hidden_encoder/tensors_and_gradients"]) == 0
    with open(out / "gradebook.csv", newline="") as file:
        decided = {(r["student"], r["question"]): (r["points"], r["needs_review"])
                   for r in csv.DictReader(file)}
    assert decided[("t_print_self", "q3")] == ("2", "")
    assert decided[("t_hidden_encoder", "q3")] == ("0", "")
    assert decided[("t_pickled", "q3")] == ("", "yes")  # undecided
    feedback = (out / "feedback/tensors_and_gradients/t_print_self.md").read_text()
    assert "accepted after review" in feedback
    assert main(["review", str(out), "--reject", "t_print_self/tensors_and_gradients/q3"]) == 0
    with open(out / "gradebook.csv", newline="") as file:
        assert {(r["points"], r["needs_review"]) for r in csv.DictReader(file)
                if r["student"] == "t_print_self" and r["question"] == "q3"} == {("0", "")}
    assert main(["review", str(out), "--accept", "nobody/x/q1"]) == 1
    assert "'nobody/x/q1' names no held-back question" in capsys.readouterr().err


def test_a_time_budget_bounds_a_submission(tmp_path):
    """Four answer cells that each sleep until interrupted: at --timeout 2 each would take
    2 s; the budget of 5 s stops the run, the rest is not run, and a flag says so."""
    t = "tensors_and_gradients"
    answers = {**right(t, "sleepy"), **{gid: SLEEPER for gid in
                                        ("q2_answer", "print_before", "q3_answer")}}
    (tmp_path / "in").mkdir()
    nbformat.write(build(t, "sleepy", answers), tmp_path / "in" / "sleepy.ipynb")
    started = time.monotonic()
    assert main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--timeout",
                 "2", "--budget", "5", "--jobs", "1", "--sandbox", "required"]) == 0
    took = time.monotonic() - started
    result = json.loads((tmp_path / "out/results" / t / "sleepy.json").read_text())
    assert any("time budget of 5 s ran out" in flag for flag in result["flags"])
    points = {q["name"]: q["points"] for q in result["questions"]}
    assert points["q1"] == 1.0 and points["q2"] == 0 and points["q3"] == 0
    assert took < 30, took
