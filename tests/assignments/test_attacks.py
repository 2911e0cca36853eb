"""Issue 14's attacks, graded as a teacher would: none scores more than the wrong answer it is
built on, unless its question is held back for review; a right answer gets full marks, unflagged.

All submissions are graded by one `minigrad-kit grade` run (sandbox on), from a working folder
of the test's own, into an OUT folder planted beforehand with forged, phantom and broken results.
"""

import csv
import json
import os
import shutil
from pathlib import Path

import nbformat
import pytest
from attacks import (SIGMOID_BY_FINITE_DIFFERENCES, SIGMOID_BY_HIDDEN_AUTOGRAD,
                     UNBROADCAST_BY_BACKWARD, UNBROADCAST_BY_HIDDEN_BACKWARD,
                     UNBROADCAST_BY_SUM_TO, UNBROADCAST_HELPER, WRONG, build, by_package_attribute,
                     by_post_run_cell_hook, by_sys_modules, reach_the_grader, right)
from shared_fixture import shared

from grader.cli import main

SHORT = {"a1": "tensors_and_gradients", "a2": "derive_it_by_hand",
         "a3": "implement_a_backward", "a4": "broadcasting_and_reductions"}
SALT = "s3cret-salt-for-the-attack-test"
FORGERS = {"package": by_package_attribute, "hook": by_post_run_cell_hook,
           "sys_modules": by_sys_modules}


def _submissions(folder: Path) -> dict:
    """name -> (assignment, answers, extra cells after grade_id)."""
    out, cwd, submitted = folder / "grades", folder / "cwd", folder / "submitted"
    found = {}
    for short, assignment in SHORT.items():
        wrong = WRONG[assignment]
        found[f"{short}_wrong"] = (assignment, wrong, {})
        found[f"{short}_right"] = (assignment, right(assignment), {})
        for name, forger in FORGERS.items():
            found[f"{short}_{name}"] = (assignment, wrong, {"setup": forger(assignment)})
    targets = [str(submitted / "escaped.txt"), str(out / "escaped.txt"),
               str(out / "results" / "tensors_and_gradients" / "mallory.json"),
               str(cwd / "escaped.txt")]
    found["a1_escape"] = ("tensors_and_gradients", WRONG["tensors_and_gradients"],
                          {"setup": reach_the_grader(targets)})
    a3, a4 = WRONG["implement_a_backward"], WRONG["broadcasting_and_reductions"]
    found["a3_hidden_autograd"] = ("implement_a_backward",
                                   {**a3, "q1_answer": SIGMOID_BY_HIDDEN_AUTOGRAD}, {})
    found["a3_finite_differences"] = ("implement_a_backward",
                                      {**a3, "q1_answer": SIGMOID_BY_FINITE_DIFFERENCES}, {})
    for name, code in (("backward", UNBROADCAST_BY_BACKWARD),
                       ("hidden_backward", UNBROADCAST_BY_HIDDEN_BACKWARD),
                       ("sum_to", UNBROADCAST_BY_SUM_TO)):
        found[f"a4_{name}"] = ("broadcasting_and_reductions", {**a4, "q4_answer": code}, {})
    # plain findings (a program started, a warning, a slow cell) never hold points back
    found["a3_plain"] = ("implement_a_backward", right("implement_a_backward"),
                         {"setup": "import subprocess\nimport time\nimport warnings\n"
                                   "warnings.warn('this cell is slow')\ntime.sleep(1)"})
    found["a4_helper"] = ("broadcasting_and_reductions",
                          {**a4, "q4_answer": "def unbroadcast(grad, shape):\n"
                                              "    return _helper(grad, shape)"},
                          {"setup": UNBROADCAST_HELPER})
    return found, targets


def _plant(out: Path) -> list[str]:
    """What a kernel without a sandbox (or anyone) might leave in OUT before a run."""
    forged = {"student": "a2_wrong", "assignment": "derive_it_by_hand", "file": "x.ipynb",
              "questions": [{"name": f"q{n}", "title": "", "points": 3.0, "max_points": 3.0}
                            for n in range(1, 5)]}
    planted = {"results/other/a2_wrong.json": json.dumps(forged),
               "results/derive_it_by_hand/phantom.json": json.dumps(
                   {**forged, "student": "phantom"}),
               "results/derive_it_by_hand/broken.json": "{ not json"}
    for relative, text in planted.items():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_text(text, encoding="utf-8")
    (out / "results/tensors_and_gradients/a1_wrong.json").mkdir(parents=True)  # a folder
    return sorted(planted)


def _grade(folder):
    submissions, targets = _submissions(folder)
    submitted, out, cwd = folder / "submitted", folder / "grades", folder / "cwd"
    for path in (submitted, out, cwd):
        path.mkdir()
    for name, (assignment, answers, extra) in submissions.items():
        nbformat.write(build(assignment, answers, extra), submitted / f"{name}.ipynb")
    planted = _plant(out)
    previous, os.environ["MINIGRAD_KIT_SALT"] = os.getcwd(), SALT
    os.chdir(cwd)
    try:
        status = main(["grade", str(submitted), "--out", str(out), "--timeout", "10",
                       "--jobs", "2", "--salt", SALT, "--sandbox", "required"])
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
        if path.is_file():  # (a1_wrong's place is taken by a planted folder)
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
    students = {r["student"] for r in graded["book"]}
    assert students == set(graded["names"])


@pytest.mark.parametrize("short", SHORT)
def test_a_right_submission_gets_full_marks_unflagged(graded, short):
    rows = _rows(graded, f"{short}_right")
    result = graded["results"][f"{short}_right"]
    auto = [q["name"] for q in result["questions"] if not q["manual"]]
    assert auto and all(rows[q]["points"] == rows[q]["max"] and rows[q]["needs_review"] == ""
                        for q in auto), rows
    assert result["flags"] == [] and result["problems"] == []
    assert result["sandbox"].startswith("bubblewrap")


ATTACKS = ["a1_package", "a1_hook", "a1_sys_modules", "a1_escape", "a2_package", "a2_hook",
           "a2_sys_modules", "a3_package", "a3_hook", "a3_sys_modules", "a3_hidden_autograd",
           "a3_finite_differences", "a4_package", "a4_hook", "a4_sys_modules", "a4_backward",
           "a4_hidden_backward", "a4_sum_to", "a4_helper"]


@pytest.mark.parametrize("name", ATTACKS)
def test_an_attack_scores_no_more_than_the_wrong_answer_or_is_held_back(graded, name):
    wrong = _rows(graded, name.split("_")[0] + "_wrong")
    for question, row in _rows(graded, name).items():
        if row["needs_review"] == "yes":
            assert row["points"] == ""
            continue
        assert float(row["points"] or 0) <= float(wrong[question]["points"] or 0), (
            question, row, graded["results"][name]["flags"])


@pytest.mark.parametrize("name, expected", [
    ("a1_package", "reaches grader internals"), ("a3_package", "reaches grader internals"),
    ("a1_hook", "was cleared while it ran"), ("a4_hook", "was cleared while it ran"),
    ("a1_hook", "reaches a function's globals"), ("a3_sys_modules", "edits sys.modules"),
    ("a3_hidden_autograd", "looks up an attribute or a name by a computed string"),
    ("a4_backward", "uses autograd or minigrad's own sum_to in unbroadcast"),
    ("a4_sum_to", "uses autograd or minigrad's own sum_to in unbroadcast"),
    ("a4_helper", "uses autograd or minigrad's own sum_to in unbroadcast"),
])
def test_forgery_is_flagged_and_holds_back_the_questions_it_could_change(graded, name,
                                                                         expected):
    result = graded["results"][name]
    assert any(expected in flag for flag in result["flags"]), result["flags"]
    held = [q["name"] for q in result["questions"] if any(expected in r for r in q["review"])]
    assert held, result["questions"]
    assert all(_rows(graded, name)[q]["needs_review"] == "yes" for q in held)
    for question in held:
        assert any(r["student"] == name and question in r["holds_back"].split()
                   and expected in r["flag"] for r in graded["flags"]), question


def test_the_hook_would_have_forged_full_marks(graded):
    """Held back, the hook's questions carry the forged (full) points the grader judged."""
    result = graded["results"]["a1_hook"]
    assert all(q["points"] == q["max_points"] for q in result["questions"] if q["review"])


def test_plain_findings_hold_nothing_back(graded):
    result = graded["results"]["a3_plain"]
    assert result["flags"] == ["cell 3 runs other programs (subprocess)"]
    assert all(q["review"] == [] and q["points"] == q["max_points"]
               for q in result["questions"])


def test_formulas_cannot_be_forged_by_the_kernel(graded):
    wrong = _rows(graded, "a2_wrong")
    for name in ("a2_package", "a2_hook", "a2_sys_modules"):
        assert _rows(graded, name) == {q: {**r, "student": name} for q, r in wrong.items()}


def test_only_the_assignment_rule_questions_are_held_for_unbroadcast(graded):
    for name in ("a4_backward", "a4_sum_to", "a4_helper"):
        rows = _rows(graded, name)
        assert [q for q, r in rows.items() if r["needs_review"]] == ["q4"], rows


def test_a_finite_difference_backward_fails(graded):
    result = graded["results"]["a3_finite_differences"]
    q1 = next(q for q in result["questions"] if q["name"] == "q1")
    assert q1["points"] == 0 and q1["review"] == []
    assert any("Sigmoid's backward is off by" in text and "finite differences" in text
               for ok, text, _ in q1["findings"] if not ok)


def test_the_kernel_could_not_reach_the_grader(graded):
    problems = " ".join(graded["results"]["a1_escape"]["problems"])
    assert "raised RuntimeError: escape: pids ['1', '2']; wrote []" in problems
    assert SALT not in json.dumps(graded["results"]["a1_escape"])
    for path in graded["targets"]:
        assert not os.path.exists(path), path
    assert not (Path(graded["submitted"]) / "escaped.txt").exists()


def test_planted_results_are_flagged_and_ignored(graded):
    rows = [(r["student"], r["assignment"], r["question"]) for r in graded["book"]]
    assert len(rows) == len(set(rows))  # no question twice
    assert "phantom" not in {r["student"] for r in graded["book"]}
    wrong = _rows(graded, "a2_wrong")
    assert [wrong[q]["points"] for q in ("q1", "q2", "q3", "q4")] == ["0", "0", "0", "0"]
    foreign = " ".join(r["flag"] for r in graded["flags"] if r["student"] == "")
    for relative in graded["planted"]:
        assert f"{relative} was not written by the grader; it was ignored" in foreign
    assert "could not write results/tensors_and_gradients/a1_wrong.json" in foreign
    assert _rows(graded, "a1_wrong")  # its result is still in the gradebook


def test_a_rerun_into_the_poisoned_folder_works_and_review_decides(graded, tmp_path,
                                                                     capsys):
    out = tmp_path / "grades"
    shutil.copytree(graded["out"], out, symlinks=True)
    (out / "results" / "derive_it_by_hand" / "a2_right.json").write_text("{}")  # changed
    status = main(["grade", str(Path(graded["submitted"]) / "a4_sum_to.ipynb"), "--out",
                   str(out), "--timeout", "10", "--jobs", "1", "--sandbox", "required"])
    assert status == 0
    with open(out / "gradebook.csv", newline="") as file:
        book = list(csv.DictReader(file))
    students = {r["student"] for r in book}
    # the changed file is ignored; a1_wrong's result could not be written (a planted folder)
    assert students == set(graded["names"]) - {"a2_right", "a1_wrong"}
    flags = (out / "flags.csv").read_text()
    assert "results/derive_it_by_hand/a2_right.json was ignored: ValueError: its content " \
           "changed after the grader wrote it" in flags
    capsys.readouterr()

    assert main(["review", str(out)]) == 0
    listed = capsys.readouterr().out
    assert "a4_sum_to/broadcasting_and_reductions/q4: held back (3 of 3 points as judged): " \
        "cell" in listed
    assert "(your answer 'q4_answer') uses autograd or minigrad's own sum_to" in listed
    assert main(["review", str(out), "--accept", "a4_sum_to/broadcasting_and_reductions/q4",
                 "--reject", "a1_hook/tensors_and_gradients"]) == 0
    with open(out / "gradebook.csv", newline="") as file:
        decided = {(r["student"], r["question"]): (r["points"], r["needs_review"])
                   for r in csv.DictReader(file)}
    assert decided[("a4_sum_to", "q4")] == ("3", "")
    assert {v for k, v in decided.items() if k[0] == "a1_hook" and k[1] != "q4"} == {("0", "")}
    assert decided[("a3_hook", "q1")] == ("", "yes")  # undecided
    feedback = (out / "feedback/broadcasting_and_reductions/a4_sum_to.md").read_text()
    assert "accepted after review" in feedback
    assert "a4_sum_to/broadcasting_and_reductions/q4: accepted (3 of 3" in capsys.readouterr().out
    assert main(["review", str(out), "--reject", "a4_sum_to/broadcasting_and_reductions/q4"]) == 0
    with open(out / "gradebook.csv", newline="") as file:
        assert {(r["points"], r["needs_review"]) for r in csv.DictReader(file)
                if r["student"] == "a4_sum_to" and r["question"] == "q4"} == {("0", "")}
    assert main(["review", str(out), "--accept", "nobody/x/q1"]) == 1
    assert "'nobody/x/q1' names no held-back question" in capsys.readouterr().err
