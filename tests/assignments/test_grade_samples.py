"""`minigrad-kit grade` on sample submissions with known scores (real sandboxed runs, in
parallel).

All samples are graded by one command, as a teacher would (``--variants none``: the
samples answer the instructor notebooks' own numbers); the tests then read what it wrote.
The sample notebooks are built in a temporary folder (see samples.py).
"""

import csv
import hashlib
import json
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from samples import CODE_SAMPLES, SAMPLES, build
from shared_fixture import shared

from grader import notebook as nbg
from grader.cli import main
from grader.timing import read_timing

SOURCES = [BY_ASSIGNMENT["derive_it_by_hand"], BY_ASSIGNMENT["tensors_and_gradients"]]
TIMEOUT = "3"
ALL = {**SAMPLES, **CODE_SAMPLES}


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _grade_all(folder):
    """Grade every sample (and one file that is not a notebook) in one run."""
    submitted, out = folder / "submitted", folder / "grades"
    submitted.mkdir()
    for source, samples in zip(SOURCES, (SAMPLES, CODE_SAMPLES)):
        released = nbg.student_version(nbformat.read(source, as_version=4))
        for name, sample in samples.items():
            nbformat.write(build(released, sample), submitted / f"{name}.ipynb")
    (submitted / "not_a_notebook.ipynb").write_text("{ this is not JSON", encoding="utf-8")
    before = {p.name: _digest(p) for p in submitted.iterdir()}
    status = main(["grade", str(submitted), "--out", str(out), "--timeout", TIMEOUT,
                   "--jobs", "2", "--variants", "none"]
                  + [a for s in SOURCES for a in ("--source", str(s))])
    return {"status": status, "out": str(out), "folder": str(submitted), "before": before}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    graded = shared(tmp_path_factory, "graded_samples", _grade_all)
    out = Path(graded["out"])
    results = {p.stem: json.loads(p.read_text()) for p in out.glob("results/*/*.json")}
    return {**graded, "out": out, "folder": Path(graded["folder"]), "results": results}


@pytest.mark.parametrize("name", ALL)
def test_sample_gets_its_expected_score(graded, name):
    result = graded["results"][name]
    points = {q["name"]: q["points"] or 0 for q in result["questions"]}
    assert points == ALL[name].points, (result["questions"], result["problems"])


@pytest.mark.parametrize("name", [n for n, s in ALL.items() if s.flags or s.problems])
def test_sample_is_flagged_and_explained(graded, name):
    result = graded["results"][name]
    for expected in ALL[name].flags:
        assert any(expected in flag for flag in result["flags"]), (expected, result["flags"])
    for expected in ALL[name].problems:
        assert any(expected in p for p in result["problems"]), (expected, result["problems"])


def test_honest_submissions_are_not_flagged(graded):
    for name in ("correct", "partial", "wrong", "empty", "hard_coded", "uses_autograd",
                 "finite_differences", "code_correct", "code_huge_output", "code_warns"):
        assert graded["results"][name]["flags"] == [], name
        assert all(q["review"] == [] for q in graded["results"][name]["questions"]), name


def test_data_answers_are_never_held(graded):
    """Whatever the notebook's code does, a formula read from its text holds nothing."""
    for name, sample in SAMPLES.items():
        assert all(q["review"] == [] for q in graded["results"][name]["questions"]), name


def test_by_hand_answers_that_are_not_formulas_say_so(graded):
    findings = {name: [f[1] for q in graded["results"][name]["questions"] for f in q["findings"]
                       if q["name"] == "q1" and not f[0]]
                for name in ("uses_autograd", "finite_differences", "formula_finite_differences")}
    assert findings["uses_autograd"][0] == (
        'df is a function, not a formula: write the formula as text, in quotes (df = "...")')
    assert findings["finite_differences"] == findings["uses_autograd"]
    assert "approximation (a finite difference?), not the derivative" in \
        findings["formula_finite_differences"][0]


def test_a_bad_file_never_stops_the_rest(graded):
    assert graded["status"] == 1  # one submission could not be graded at all ...
    error = graded["results"]["not_a_notebook"]["error"]
    assert "not_a_notebook.ipynb is not a readable notebook" in error
    assert "ask for the .ipynb file again" in error
    assert len(graded["results"]) == len(ALL) + 1  # ... and every other one was


def test_submissions_are_never_modified(graded):
    folder = graded["folder"]
    assert {p.name: _digest(p) for p in folder.iterdir()} == graded["before"]


def test_gradebook_has_a_row_per_question(graded):
    with open(graded["out"] / "gradebook.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert list(rows[0]) == ["student", "assignment", "question", "points", "max", "needs_review"]
    assert len(rows) == 4 * len(ALL)
    partial = {r["question"]: (r["points"], r["max"]) for r in rows if r["student"] == "partial"}
    assert partial == {"q1": ("2", "2"), "q2": ("0", "2"), "q3": ("2", "2"), "q4": ("0", "3")}
    assert {r["needs_review"] for r in rows} == {""}


def test_feedback_explains_without_showing_hidden_tests(graded):
    text = (graded["out"] / "feedback/derive_it_by_hand/partial.md").read_text()
    assert "4 / 9 points graded automatically" in text
    assert "✗ hidden: dg is wrong at" in text and "autograd gives" in text
    assert "✗ public: dk_dy is wrong at 5 of 5 values; at x = -2, y = 1.5: yours is -3, " \
        "autograd gives -5.21355" in text
    for secret in ("BEGIN HIDDEN", "default_rng", "assert", "_x.grad"):
        assert secret not in text
    hard_coded = (graded["out"] / "feedback/derive_it_by_hand/hard_coded.md").read_text()
    assert "✓ public: df is right" in hard_coded and "✗ hidden: df is wrong" in hard_coded


def test_flags_file_lists_suspicious_code(graded):
    with open(graded["out"] / "flags.csv", newline="") as file:
        flagged = {row["student"] for row in csv.DictReader(file)}
    assert {n for n in SAMPLES if n.startswith("tamper")} <= flagged
    assert "not_a_notebook" in flagged and "correct" not in flagged


def test_regrading_is_idempotent(graded, tmp_path):
    """Grade two of them again into the same folder: every file comes out identical, but for
    timing.csv, where the two have new times and the others keep theirs."""
    out, folder = graded["out"], graded["folder"]
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    timed = read_timing(out)
    status = main(["grade", str(folder / "correct.ipynb"), str(folder / "code_correct.ipynb"),
                   "--out", str(out), "--timeout", TIMEOUT, "--variants", "none"]
                  + [a for s in SOURCES for a in ("--source", str(s))])
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert status == 0
    retimed = read_timing(out)
    del before[Path("timing.csv")], after[Path("timing.csv")]
    assert after == before  # (and no temporary files were left behind)
    assert set(retimed) == set(timed)
    kept = {key for key in timed if key[1] not in ("correct", "code_correct")}
    assert {key: retimed[key] for key in kept} == {key: timed[key] for key in kept}


def test_timing_has_the_seconds_of_every_graded_submission(graded):
    timed = read_timing(graded["out"])
    graded_ok = set(ALL)
    assert {student for _, student in timed} == graded_ok
    assert {assignment for assignment, _ in timed} == {"derive_it_by_hand",
                                                       "tensors_and_gradients"}
    assert all(0 < seconds < 600 for seconds in timed.values()), timed
    # a code run that loops forever runs into its --timeout (answers as data run nothing:
    # derive_it_by_hand's loops_forever gets full points, see SAMPLES, which it could not
    # if its loop had run; wall-clock times of two submissions are not compared, as a busy
    # machine can make either slower)
    assert timed["tensors_and_gradients", "code_loops_forever"] > float(TIMEOUT)
