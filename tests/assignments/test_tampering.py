"""The second tampering set (tampering.py), graded as a teacher grades: one `minigrad-kit
grade --strict` run over all of them, with the sandbox required. No attack scores more than
the honest submission it rides on unless its questions are held for review; nothing outside
the sandbox changes; nothing is left running; the batch grades everyone.
"""

import csv
import json
import os
import subprocess
import time
from pathlib import Path

import nbformat
import pytest
from keys import build
from shared_fixture import shared
from tampering import MARKER, SECRET, SHORT, attacks, baselines

from grader.cli import main

SALT = "salt-of-the-tampering-test"
ATTACKS = attacks()
BY_NAME = {a.name: a for a in ATTACKS}


def _grade(folder: Path) -> dict:
    submitted, out, cwd = folder / "submitted", folder / "grades", folder / "cwd"
    for path in (submitted, out, cwd):
        path.mkdir()
    for name, (assignment, answers) in baselines().items():
        nbformat.write(build(assignment, name, answers), submitted / f"{name}.ipynb")
    for attack in ATTACKS:
        attack.write(submitted)
    before = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    previous = os.getcwd()
    os.chdir(cwd)
    started = time.monotonic()
    try:
        status = main(["grade", str(submitted), "--out", str(out), "--timeout", "5",
                       "--jobs", "2", "--salt", SALT, "--sandbox", "required", "--strict"])
    finally:
        os.chdir(previous)
    took = time.monotonic() - started
    after = sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                   if out not in p.parents and p != out)
    left = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return {"status": status, "out": str(out), "took": took, "before": before, "after": after,
            "left_running": [line for line in left.splitlines() if MARKER in line]}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    graded = shared(tmp_path_factory, "graded_tampering", _grade)
    out = Path(graded["out"])
    with open(out / "gradebook.csv", newline="") as file:
        book = list(csv.DictReader(file))
    with open(out / "flags.csv", newline="") as file:
        flags = list(csv.DictReader(file))
    results = {p.stem: json.loads(p.read_text()) for p in (out / "results").rglob("*.json")}
    return {**graded, "out": out, "book": book, "flags": flags, "results": results}


def _rows(graded, student):
    return {r["question"]: r for r in graded["book"] if r["student"] == student}


def _points(row) -> float:
    return float(row["points"] or 0)


def _no_gain(graded, name, baseline):
    base = _rows(graded, baseline)
    for question, row in _rows(graded, name).items():
        if row["needs_review"] == "yes":
            assert row["points"] == "", (question, row)
            continue
        assert _points(row) <= _points(base.get(question, {"points": ""})), (
            question, row, graded["results"].get(name, {}).get("flags"),
            graded["results"].get(name, {}).get("questions"))


def _kind(kind):
    return [pytest.param(a.name, id=a.name) for a in ATTACKS if a.kind == kind]


def _check(graded, name):
    attack = BY_NAME[name]
    _no_gain(graded, name, attack.baseline or f"{attack.short}_wrong")


@pytest.mark.parametrize("name", _kind("notebook"))
def test_the_notebook_json_gains_nothing(graded, name):
    """Forged outputs, metadata, roles, cells moved, malformed or huge files."""
    _check(graded, name)


@pytest.mark.parametrize("name", _kind("formula"))
def test_answers_given_as_data_gain_nothing(graded, name):
    """Parser escapes, objects instead of text, work that would stall the grader."""
    _check(graded, name)


@pytest.mark.parametrize("name", _kind("code"))
def test_code_runs_gain_nothing(graded, name):
    """Hand-made gradients, forged frames, threads, signals, floods, processes."""
    _check(graded, name)


@pytest.mark.parametrize("name", _kind("identity"))
def test_whose_submission_it_is_gains_nothing(graded, name):
    """Symlinks, another student's name, a classmate's or the published variant."""
    if name == "i_zmallory":
        return  # (test_a_notebook_named_after_a_classmate_does_not_replace_theirs)
    _check(graded, name)


def test_the_batch_graded_everyone_in_bounded_time(graded):
    """Nothing a submission does stops the others: every baseline is graded, and the
    run takes about what its code runs' limits allow, not what a formula asks for."""
    graded_students = {r["student"] for r in graded["book"]}
    assert set(baselines()) <= graded_students
    assert graded["took"] < 600, graded["took"]


def test_nothing_outside_the_sandbox_changed_and_nothing_is_left_running(graded):
    new = set(graded["after"]) - set(graded["before"])
    assert new == set(), new
    assert graded["left_running"] == []


def test_a_notebook_named_after_a_classmate_does_not_replace_theirs(graded):
    """i_zmallory's folder holds a wrong notebook named i_victim.ipynb: the victim's own
    submission is what the gradebook holds for i_victim."""
    victim = _rows(graded, "i_victim")
    assert victim and all(r["points"] == r["max"] for r in victim.values()
                          if r["question"] != "q4"), victim


def test_a_symlinked_submission_is_refused_and_its_target_never_echoed(graded):
    everything = "".join(p.read_text(errors="replace") for p in graded["out"].rglob("*")
                         if p.is_file())
    assert SECRET not in everything
    refused = " ".join(r["flag"] for r in graded["flags"])
    assert "s_symlink_secret.ipynb is a symbolic link" in refused


def test_the_code_run_gets_a_bounded_disk(graded):
    problems = " ".join(graded["results"]["c_disk_fill"]["problems"])
    assert "No space left on device" in problems, problems


def test_what_the_code_run_printed_never_reaches_the_reports(graded):
    everything = "".join(p.read_text(errors="replace") for p in graded["out"].rglob("*")
                         if p.is_file())
    assert "\x1b" not in everything


def test_a_sine_of_a_huge_number_is_refused_at_once():
    """sin(10**100000) at 200 digits would reduce modulo pi to 100,000 digits (seconds;
    10**999999: hours) in the grader's own process, where no --timeout applies."""
    from grader.exact import evaluate
    from grader.formula import FormulaError, parse

    formula = parse("3*x**2 + (sin(10**100000) > 2)", ("x",), ("sin",))
    assert formula.evaluate(x=[0.5]).tolist() == [0.75]  # float64 lets it through
    started = time.monotonic()
    with pytest.raises(FormulaError, match="too large"):
        evaluate(formula, {"x": [0.5]})
    assert time.monotonic() - started < 1


def test_a_broadcast_of_many_elements_is_refused_at_200_digits():
    """27,000 elements at 200 digits, a few times over: seconds of the grader's time for one
    answer; the exact check takes values of at most 10,000 elements."""
    import numpy as np

    from grader.exact import evaluate
    from grader.formula import REDUCTIONS, FormulaError, parse

    u = "(a*b)[...,None,None,None,None]*(a*b)[...,None,None]*(a*b)"
    formula = parse(f"sum(b) + 0*sum({u}*{u}/{u})", ("a", "b"), REDUCTIONS)
    values = {"a": np.ones((5, 1)), "b": np.ones(6)}
    assert formula.evaluate(**values) == 6
    with pytest.raises(FormulaError, match="too large"):
        evaluate(formula, values)
