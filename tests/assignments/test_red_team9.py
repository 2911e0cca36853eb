"""The ninth red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required). Each attack rides on the wrong answers (keys.WRONG) and may score no more than
they do; honest work keeps full marks, unflagged. What succeeded before, and the
construction that closed it:

* **the wheel is public, and so were the hidden inputs**: students ``pip install`` the same
  kit, and the wheel holds the five instructor notebooks (``minigrad_kit_notebooks/
  assignments/``: the solutions and the hidden tests) and ``grader/source.py``, which draws
  a student's hidden inputs from the hidden tests' text, the student's name and ``--salt``
  (empty by default). With the teacher's ``minigrad-kit grade`` as the README shows it (no
  ``--salt``), bob ran ``grader.source.inputs`` on the installed notebook for his own name,
  had the kit's own autograd answer each call, and handed in an ``unbroadcast`` that is a
  table of those answers (and ``grad.sum()``, wrong, for anything else): q4's 3 points,
  unflagged, with plain Python (measured). The README said "pass a private --salt"; a
  teacher who does not is the default. (``cli._salt``: without ``--salt`` the grader draws
  a secret of its own, ``secrets.token_hex``, at the first grading into an ``--out``, keeps
  it there (``OUT/salt.txt``, which no code run sees) and reuses it, so re-grading is
  identical; ``--shard`` without ``--salt`` is refused, since the parts would draw
  different inputs; ``gradescope`` and ``prairielearn`` write a secret drawn the same way
  into the autograder's private configuration when none is given.)
* **the published solution, on the platforms' one notebook for everyone**: PrairieLearn
  (always) and Gradescope (``--variants none``, the default) graded every student on the
  instructor notebook's numbers, which the handed-out notebook showed, and the wheel holds
  that notebook's solution (``minigrad-kit assignments x/`` copies it out): pasted in, 9 of
  9 (``test_prairielearn``'s Korean submission, the published answers, scored 1.0).
  (``variants.course_numbers``: one notebook for the class shows numbers drawn for a new
  name, printed, that ``--numbers-of`` gives again, written by ``prairielearn`` into ``clientFilesQuestion/`` and by
  ``gradescope`` beside the zip, and ``grade --numbers-of NAME`` grades every submission
  on them; a class handed one ``release --students NAME`` notebook is graded the same way.
  The kit's variants never draw the instructor notebook's numbers, so the published
  solution answers no question whose answer depends on them.)

Tried and found closed (kept here so that they stay so, or measured elsewhere): JSON with
duplicate keys (the grader and JupyterLab both take the last), a ``source`` as a string or
a list, NaN and -0.0 handed back by code (``compare`` takes finite values only), a grade
id repeated (the first is graded, and it says so); the sandbox as a teacher meets it after
``pip install`` (no bubblewrap: ``auto`` grades without it loudly and records it on every
result, ``required`` refuses before writing anything).
"""

import json
import os
from pathlib import Path

import nbformat
import numpy as np
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, numbers, right
from shared_fixture import points_and_review

from grader.cli import main
from grader.source import inputs, load_source

B = "broadcasting_and_reductions"




# --- (1) the wheel is public: what it lets a student compute ------------------------------------

def _table_unbroadcast(student: str) -> str:
    """What bob computes at home from the installed kit: his hidden inputs of q4 (and the
    public ones, printed by check()), answered by the kit's autograd, as a table."""
    import minigrad

    source = load_source(BY_ASSIGNMENT[B])  # the wheel's notebook: the same file
    question = next(q for q in source.assignment.questions if q.name == "q4")
    drawn = inputs(source, question, student, numbers(B, student))
    table = {}
    for grad, shape in drawn["public"] + drawn["hidden"]:
        leaf = minigrad.zeros(shape, dtype=minigrad.float64, requires_grad=True)
        leaf.expand(np.array(grad).shape).backward(minigrad.tensor(grad, dtype=minigrad.float64))
        table[str((np.array(grad).tolist(), list(shape)))] = leaf.grad.tolist()
    return ("TABLE = " + repr(table) + "\n\n"
            "def unbroadcast(grad, shape):\n"
            "    key = str((grad.tolist(), list(shape)))\n"
            "    if key in TABLE:\n"
            "        return torch.tensor(TABLE[key], dtype=torch.float64)\n"
            "    return grad.sum()\n")


def _class(root: Path, attack: dict) -> Path:
    """alice (right answers) and bob (the wrong ones, with ``attack`` over them), each the
    notebook released to them, in nbgrader's layout."""
    for student, answers in (("alice", right(B, "alice")), ("bob", {**WRONG[B], **attack})):
        folder = root / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        nbformat.write(build(B, student, answers), folder / BY_ASSIGNMENT[B].name)
    return root / "submitted"


def test_hidden_inputs_computed_from_the_wheel_score_nothing(tmp_path, monkeypatch):
    """bob's table of his hidden inputs, graded as the README shows (no ``--salt``): q4
    scores 0 (it was 3 of 3); alice keeps full marks; a second grading into the same
    ``--out`` draws the same inputs (identical results), and no code run saw the secret."""
    monkeypatch.delenv("MINIGRAD_KIT_SALT", raising=False)
    submitted = _class(tmp_path, {"q4_answer": _table_unbroadcast("bob")})
    out = tmp_path / "grades"
    given = ["grade", str(submitted), "--out", str(out), "--sandbox", "required",
             "--jobs", "1"]
    assert main(given) == 0
    book = points_and_review(out)
    assert book[("bob", "q4")] == ("0", "")
    assert all(book[("alice", q)][0] != "0" and book[("alice", q)][1] == ""
               for q in ("q1", "q2", "q3", "q4"))
    secret = (out / "salt.txt").read_text(encoding="utf-8").strip()
    assert len(secret) == 64
    first = {p.name: p.read_bytes() for p in (out / "results" / B).glob("*.json")}
    assert main(given) == 0
    assert (out / "salt.txt").read_text(encoding="utf-8").strip() == secret
    assert {p.name: p.read_bytes() for p in (out / "results" / B).glob("*.json")} == first
    # the teacher's own --salt is used as given, and nothing is written for it
    other = tmp_path / "other"
    assert main(given[:3] + [str(other)] + given[4:] + ["--salt", "kept elsewhere"]) == 0
    assert not (other / "salt.txt").exists()


def test_shards_without_a_salt_are_refused(tmp_path, monkeypatch, capsys):
    """Each part would draw a secret of its own: the parts' hidden inputs would differ from
    one run's, and from each other's. Refused before anything is written."""
    monkeypatch.delenv("MINIGRAD_KIT_SALT", raising=False)
    submitted = _class(tmp_path, {})
    out = tmp_path / "part1"
    assert main(["grade", str(submitted), "--out", str(out), "--shard", "1/2",
                 "--sandbox", "required"]) == 1
    assert "--shard needs --salt" in capsys.readouterr().err
    assert not out.exists()


def test_a_salt_file_that_is_not_the_graders_is_refused(tmp_path, monkeypatch, capsys):
    """Whoever can write into ``--out`` could plant a secret they know (or a link to one):
    only 64 hexadecimal digits in a regular file are read back, else grading stops."""
    monkeypatch.delenv("MINIGRAD_KIT_SALT", raising=False)
    submitted = _class(tmp_path, {})
    out = tmp_path / "grades"
    out.mkdir()
    known = tmp_path / "known.txt"
    known.write_text("0" * 64 + "\n", encoding="ascii")
    os.symlink(known, out / "salt.txt")
    assert main(["grade", str(submitted), "--out", str(out), "--sandbox", "required"]) == 1
    assert "holds the secret the hidden inputs are drawn with" in capsys.readouterr().err
    (out / "salt.txt").unlink()
    os.mkfifo(out / "salt.txt")  # (read, it would wait for a writer for ever)
    assert main(["grade", str(submitted), "--out", str(out), "--sandbox", "required"]) == 1
    assert "not a regular file" in capsys.readouterr().err
    (out / "salt.txt").unlink()
    (out / "salt.txt").write_text("a salt I chose\n", encoding="ascii")
    assert main(["grade", str(submitted), "--out", str(out), "--sandbox", "required"]) == 1
    assert "is not a secret the grader drew" in capsys.readouterr().err
    assert not (out / "gradebook.csv").exists()


@pytest.mark.parametrize("command", ["gradescope", "prairielearn"])
def test_an_autograder_without_a_salt_gets_a_secret_of_its_own(command, monkeypatch):
    """The autograder's configuration (private: it sits beside the instructor notebooks)
    holds a secret drawn when it is written, never the empty salt anyone can use."""
    import argparse

    from grader import commands

    monkeypatch.delenv("MINIGRAD_KIT_SALT", raising=False)
    parser = argparse.ArgumentParser()
    commands.add_commands(parser.add_subparsers(dest="command"))
    argv = [command, "x.ipynb", "--out", "o"] + (["--image", "i"] if command == "prairielearn"
                                                  else [])
    first, second = (commands._platform_options(parser.parse_args(argv)) for _ in range(2))
    assert len(first["salt"]) == 64 and first["salt"] != second["salt"]
    given = commands._platform_options(parser.parse_args(argv + ["--salt", "mine"]))
    assert given["salt"] == "mine"
    # one notebook for the class: numbers drawn for a new name (never one made from the
    # salt, which the handout would show), or the name given again
    assert first["numbers"].startswith("course-") and first["numbers"] != second["numbers"]
    again = commands._platform_options(parser.parse_args(argv + ["--numbers-of", "fall"]))
    assert again["numbers"] == "fall"
    if command == "gradescope":
        each = parser.parse_args(argv + ["--variants", "per-student"])
        assert "numbers" not in commands._platform_options(each)


def test_one_notebook_for_the_class_on_numbers_of_the_courses(tmp_path, monkeypatch):
    """``release --students`` for one name of the course's, handed to everyone, and ``grade
    --numbers-of`` that name: the published solution (the instructor notebook's numbers,
    in the kit's wheel) scores what the wrong answers score; work on the handout's numbers
    scores full marks, unflagged."""
    from keys import published

    D = "derive_it_by_hand"
    course = "fall-2026"
    for student, answers in (("alice", right(D, course)), ("bob", published(D))):
        folder = tmp_path / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        nbformat.write(build(D, course, answers), folder / BY_ASSIGNMENT[D].name)
    out = tmp_path / "grades"
    assert main(["grade", str(tmp_path / "submitted"), "--out", str(out), "--sandbox",
                 "required", "--numbers-of", course, "--salt", "s"]) == 0
    book = points_and_review(out)
    assert {q: book[("alice", q)] for q in ("q1", "q2", "q3", "q4")} == {
        "q1": ("2", ""), "q2": ("2", ""), "q3": ("2", ""), "q4": ("3", "")}
    assert sum(float(book[("bob", q)][0]) for q in ("q1", "q2", "q3", "q4")) < 9
    results = json.loads((out / "results" / D / "alice.json").read_text(encoding="utf-8"))
    assert results["flags"] == []


# --- (2) the same notebook read two ways ----------------------------------------------------------

@pytest.mark.parametrize("last", ["right", "wrong"])
def test_a_duplicate_key_is_read_as_the_teacher_reads_it(tmp_path, last):
    """q1's answer cell with two ``source`` keys, one right and one wrong: the grader
    scores the one JupyterLab and nbformat show (the last: JSON.parse and json.loads agree),
    never the other."""
    D = "derive_it_by_hand"
    good, bad = right(D, "bob")["q1_answer"], WRONG[D]["q1_answer"]
    first, second = (bad, good) if last == "right" else (good, bad)
    notebook = build(D, "bob", {**right(D, "bob"), "q1_answer": "MARK"})
    text = json.dumps(notebook, indent=1)  # (sources as strings, as nbformat allows)
    marked = json.dumps("MARK")
    assert text.count(marked) == 1
    text = text.replace(f'"source": {marked}',
                        f'"source": {json.dumps(first)},\n   "source": {json.dumps(second)}')
    folder = tmp_path / "submitted" / "bob" / "ps1"
    folder.mkdir(parents=True)
    path = folder / BY_ASSIGNMENT[D].name
    path.write_text(text, encoding="utf-8")
    shown = [c.source for c in nbformat.read(path, as_version=4).cells
             if c.metadata.get("nbgrader", {}).get("grade_id") == "q1_answer"]
    assert shown == [second]
    out = tmp_path / "grades"
    assert main(["grade", str(tmp_path / "submitted"), "--out", str(out), "--sandbox",
                 "required", "--salt", "s"]) == 0
    assert points_and_review(out)[("bob", "q1")] == (("2", "") if last == "right" else ("0", ""))


# --- (3) what code hands back ---------------------------------------------------------------------

NAN = ("def unbroadcast(grad, shape):\n"
       "    return torch.zeros(shape, dtype=torch.float64) * float('nan')\n")
NEGATIVE_ZERO_AND_INF = ("def unbroadcast(grad, shape):\n"
                         "    return torch.zeros(shape, dtype=torch.float64) * float('inf')"
                         " - 0.0\n")


@pytest.mark.parametrize("attack", [NAN, NEGATIVE_ZERO_AND_INF], ids=["nan", "inf"])
def test_values_that_compare_oddly_score_nothing(tmp_path, attack):
    """NaN (unequal to everything, so a check written ``not (abs(got - want) > tol)``
    passes it) and infinities, of the right shape, handed back by ``unbroadcast``: q4 scores
    0, as the wrong answers do (``judging.compare`` counts finite values only)."""
    submitted = _class(tmp_path, {"q4_answer": attack})
    out = tmp_path / "grades"
    assert main(["grade", str(submitted), "--out", str(out), "--sandbox", "required",
                 "--salt", "s"]) == 0
    assert points_and_review(out)[("bob", "q4")] == ("0", "")
    assert points_and_review(out)[("alice", "q4")] == ("3", "")
