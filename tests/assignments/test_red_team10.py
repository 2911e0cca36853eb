"""The tenth red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required). What succeeded before, and the construction that closed it:

* **the feedback's ✓ and ✗, one per hidden call, as a channel out**: the feedback says
  which of q4's hidden calls of ``unbroadcast`` passed (the calls' shapes too: the
  grader's own words), and the student's code, called with the hidden inputs, chooses
  which pass: right where ``grad.sum() >= 0``, say, and the feedback shows six bits of
  the hidden inputs. The hidden inputs were drawn from the salt, the assignment, the
  question and the student's name only, so every resubmission (Gradescope's, or a
  re-grading into the same ``--out``) was graded on the same ones: over a few uploads,
  the answers of the six calls came out, and an ``unbroadcast`` that is a table of them
  (``grad.sum()``, wrong, for anything else) scored q4's 3 points, unflagged (measured
  with the table made from the inputs that grading drew: what the channel hands over).
  (``source.inputs``: a code question's hidden calls are the student's own, drawn from
  the name as before, followed by as many drawn with the digest of the answer cells too.
  A submission of the same answers draws the same calls, so grading again is identical,
  but the table is written into an answer cell, and that is a new submission, graded on
  calls that no earlier one was called with. Nothing a code run reads can differ between
  two submissions of the same answer cells: the sandbox keeps no file, clock or network.
  The student's own calls stay: drawn from the answers alone, an ``unbroadcast`` right on
  some shapes only could be handed in again with a new comment until a draw missed its
  mistake.)

Tried and found closed, kept so that they stay so: formulas in letters that only look like
the variables (read as Python reads them: NFKC makes ``ｘ`` x and ``ｅｘｐ`` exp, while a
Cyrillic ``х`` is another name, refused); a formula with a Unicode line separator;
answers that pretend to be text (a ``str`` subclass, a conditional expression); a
notebook in UTF-16 or with NaN and Infinity in its JSON; an answer cell turned into a raw
cell.
"""

import json
from pathlib import Path

import digest_by_name
import nbformat
import numpy as np
from assignment_files import BY_ASSIGNMENT
from keys import UNBROADCAST, WRONG, build, numbers, right
from shared_fixture import points_and_review

from grader import batch
from grader.cli import main
from grader.grade import answered_digest
from grader.source import inputs, load_source

B = "broadcasting_and_reductions"
D = "derive_it_by_hand"
SALT = "kept by the teacher"




def _grade(tmp_path: Path, name: str, notebooks: dict, assignment: str) -> dict:
    """``notebooks`` (student -> notebook or text) in nbgrader's layout, graded; the
    gradebook."""
    root = tmp_path / name
    for student, notebook in notebooks.items():
        folder = root / "submitted" / student / "ps1"
        folder.mkdir(parents=True)
        path = folder / BY_ASSIGNMENT[assignment].name
        if isinstance(notebook, bytes):
            path.write_bytes(notebook)
        else:
            nbformat.write(notebook, path)
    out = root / "grades"
    main(["grade", str(root / "submitted"), "--out", str(out), "--sandbox", "required",
          "--salt", SALT, "--jobs", "1"])
    return points_and_review(out)


# --- (1) the hidden checks' ✓ and ✗ carried the hidden inputs out ---------------------------

LEAK = UNBROADCAST.replace("def unbroadcast(grad, shape):\n",
                           "def unbroadcast(grad, shape):\n"
                           "    if float(grad.sum()) < 0:\n"
                           "        return grad.sum() * 0 + 12345.5\n")


def _hidden_calls(notebook, student: str, by_name_alone: bool = False) -> list:
    """The hidden calls of q4 that grading ``notebook`` draws (the grader's own reading);
    ``by_name_alone``: as they were drawn before, from the name alone."""
    from grader import notebook as nbg

    source = load_source(BY_ASSIGNMENT[B], SALT)
    question = source.assignment.question("q4")
    if by_name_alone:
        return inputs(source, question, student, numbers(B, student))["hidden"]

    class Cell:  # (what answered_digest reads of a graded cell)
        def __init__(self, gid, text):
            self.kind, self.gid, self.source = "answer", gid, text
    cells = [Cell(nbg.grade_id(c), c.source) for c in notebook.cells
             if nbg.role(c) == "answer" and c.cell_type == "code"]
    return inputs(source, question, student, numbers(B, student),
                  answered_digest(cells))["hidden"]


def _table(calls: list) -> str:
    """An ``unbroadcast`` that knows the answers of ``calls`` and of the public calls (the
    question module, handed out, lists them), by the kit's autograd at home, and nothing
    else."""
    import minigrad

    from grader.questions import find_assignment

    table = {}
    for grad, shape in find_assignment(B).question("q4").public + calls:
        leaf = minigrad.zeros(shape, dtype=minigrad.float64, requires_grad=True)
        leaf.expand(np.array(grad).shape).backward(minigrad.tensor(grad, dtype=minigrad.float64))
        table[str((np.array(grad, dtype=float).tolist(), list(shape)))] = leaf.grad.tolist()
    return ("TABLE = " + repr(table) + "\n\n"
            "def unbroadcast(grad, shape):\n"
            "    key = str((grad.tolist(), list(shape)))\n"
            "    if key in TABLE:\n"
            "        return torch.tensor(TABLE[key], dtype=torch.float64)\n"
            "    return grad.sum()\n")


def test_the_hidden_checks_say_what_the_code_chose(tmp_path):
    """The channel itself (kept: the feedback says which hidden checks passed): bob's
    ``unbroadcast`` is right exactly where a hidden call's ``grad`` sums to 0 or more, and
    the ✓ and ✗ of his feedback are those signs, for his six calls and the six drawn with
    his answers."""
    leak = build(B, "bob", {**WRONG[B], "q4_answer": LEAK})
    _grade(tmp_path, "leak", {"bob": leak}, B)
    feedback = (tmp_path / "leak" / "grades" / "feedback" / B / "bob.md").read_text(
        encoding="utf-8")
    said = [line.startswith("- ✓") for line in feedback.splitlines()
            if line.startswith(("- ✓ hidden: unbroadcast", "- ✗ hidden: unbroadcast"))]
    signs = [float(np.sum(grad)) >= 0 for grad, _shape in _hidden_calls(leak, "bob")]
    assert said == signs and len(said) == 12


def test_the_table_scored_while_the_inputs_came_from_the_name_alone(tmp_path, monkeypatch):
    """The attack as it stood: hidden inputs drawn without the answers (the digest made
    empty here, as before, in the worker that grades: ``digest_by_name.py``), the table
    of the calls the leaking submission was graded on scores q4's 3 points, unflagged."""
    monkeypatch.setattr(batch, "_timed", digest_by_name.timed)
    leak = build(B, "bob", {**WRONG[B], "q4_answer": LEAK})
    table = _table(_hidden_calls(leak, "bob", by_name_alone=True))
    book = _grade(tmp_path, "before", {"bob": build(B, "bob", {**WRONG[B], "q4_answer": table})},
                  B)
    assert book[("bob", "q4")] == ("3", "")


def test_what_a_submission_carried_out_answers_no_later_one(tmp_path):
    """Everything the channel can hand over, the answers of the very calls the leaking
    submission was graded on, written into ``unbroadcast`` as a table: q4 scores 0 (it
    scored 3 of 3 while the hidden inputs were drawn from the name alone). The same
    answers graded again draw the same calls (identical results); alice's honest work
    keeps full marks."""
    leak = build(B, "bob", {**WRONG[B], "q4_answer": LEAK})
    table = build(B, "bob", {**WRONG[B], "q4_answer": _table(_hidden_calls(leak, "bob"))})
    assert _hidden_calls(table, "bob") != _hidden_calls(leak, "bob")
    book = _grade(tmp_path, "table", {"alice": build(B, "alice", right(B, "alice")),
                                      "bob": table}, B)
    assert book[("bob", "q4")] == ("0", "")
    assert {q: book[("alice", q)] for q in ("q1", "q2", "q3", "q4")} == {
        "q1": ("1", ""), "q2": ("2", ""), "q3": ("2", ""), "q4": ("3", "")}
    # the same answers, graded again into the same --out: the same calls, the same files
    out = tmp_path / "table" / "grades"
    first = {p.name: p.read_bytes() for p in (out / "results" / B).glob("*.json")}
    assert main(["grade", str(tmp_path / "table" / "submitted"), "--out", str(out),
                 "--sandbox", "required", "--salt", SALT, "--jobs", "1"]) == 0
    assert {p.name: p.read_bytes() for p in (out / "results" / B).glob("*.json")} == first


# --- (2) tried and found closed -------------------------------------------------------------

def test_formulas_are_read_as_python_reads_them(tmp_path):
    """Letters that look like the variables: NFKC (Python's own reading of a name) makes the
    fullwidth ``ｘ`` and ``ｅｘｐ`` x and exp, so alice's derivative written in them is the
    derivative; bob's Cyrillic ``х`` is another name, and a formula split by a Unicode
    line separator is no formula: 0 each."""
    good = right(D, "alice")
    fullwidth = {**good, "q1_answer": good["q1_answer"].replace("x", "ｘ"),
                 "q2_answer": good["q2_answer"].replace("exp", "ｅｘｐ")}
    bob = right(D, "bob")
    cyrillic = {**bob, "q1_answer": bob["q1_answer"].replace("*x", "*\u0445"),
                "q2_answer": bob["q2_answer"].replace(" + ", "\u2028+ ", 1)}
    book = _grade(tmp_path, "letters", {"alice": build(D, "alice", fullwidth),
                                        "bob": build(D, "bob", cyrillic)}, D)
    assert book[("alice", "q1")] == ("2", "") and book[("alice", "q2")] == ("2", "")
    assert book[("bob", "q1")] == ("0", "") and book[("bob", "q2")] == ("0", "")
    assert book[("bob", "q3")] == ("2", "")


def test_answers_that_pretend_to_be_text_score_nothing(tmp_path):
    """A formula handed in as a ``str`` subclass, or chosen by a conditional expression:
    neither is a formula in quotes (nothing runs to find out what it is), 0."""
    good = right(D, "bob")
    formula = good["q1_answer"].partition(" = ")[2]
    pretending = {**good,
                  "q1_answer": f"class S(str):\n    pass\n\ndf = S({formula})",
                  "q2_answer": good["q2_answer"].replace('dg = "', 'dg = 1 if 0 else "')}
    book = _grade(tmp_path, "pretend", {"bob": build(D, "bob", pretending)}, D)
    assert book[("bob", "q1")] == ("0", "") and book[("bob", "q2")] == ("0", "")
    assert book[("bob", "q3")] == ("2", "")


def test_the_notebook_json_is_read_as_it_holds(tmp_path):
    """The same right answers in UTF-16, with NaN and Infinity in the metadata, and with
    the q1 answer cell turned into a raw cell: graded as what they hold (full marks), the
    grade ids and the instructor's cell types deciding. (Since red team 11 held for review
    as well, a raw cell being no code cell: nbconvert's HTML writes its text in as HTML;
    accepted, full marks.)"""
    notebook = build(D, "alice", right(D, "alice"))
    for cell in notebook.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "q1_answer":
            cell["cell_type"] = "raw"
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
    text = json.dumps(notebook, indent=1)
    assert text.count('"nbformat": 4') == 1
    text = text.replace('"nbformat": 4', '"extra": [NaN, -Infinity, 1e999], "nbformat": 4')
    book = _grade(tmp_path, "json", {"alice": text.encode("utf-16")}, D)
    assert {q: book[("alice", q)] for q in ("q1", "q2", "q3", "q4")} == {
        "q1": ("", "yes"), "q2": ("", "yes"), "q3": ("", "yes"), "q4": ("", "yes")}
    assert main(["review", str(tmp_path / "json" / "grades"), "--accept", f"alice/{D}"]) == 0
    book = points_and_review(tmp_path / "json" / "grades")
    assert {q: book[("alice", q)] for q in ("q1", "q2", "q3", "q4")} == {
        "q1": ("2", ""), "q2": ("2", ""), "q3": ("2", ""), "q4": ("3", "")}


ONE_LEADING = UNBROADCAST.replace("    while grad.dim() > len(shape):\n", "    if grad.dim() > len(shape):\n")


def test_an_answer_right_on_some_calls_cannot_try_its_luck(tmp_path):
    """An ``unbroadcast`` that sums one leading dimension only (right on every public call,
    wrong where a hidden call has two more dimensions than its target), handed in three
    times with a new comment each: bob's own calls hold such a call, so it scores 0 each
    time (calls drawn from the answers alone gave it a new chance each time)."""
    source = load_source(BY_ASSIGNMENT[B], SALT)
    own = inputs(source, source.assignment.question("q4"), "bob", numbers(B, "bob"))["hidden"]
    assert any(np.ndim(grad) > len(shape) + 1 for grad, shape in own)
    tries = {f"bob{n}": build(B, "bob", {**WRONG[B], "q4_answer": f"# try {n}\n" + ONE_LEADING})
             for n in range(3)}
    for name, notebook in tries.items():
        book = _grade(tmp_path, name, {"bob": notebook}, B)
        assert book[("bob", "q4")] == ("0", "")
        feedback = (tmp_path / name / "grades" / "feedback" / B / "bob.md").read_text(
            encoding="utf-8")
        assert feedback.count("- ✓ public: unbroadcast") == 5  # (its mistake is elsewhere)
        assert "- ✗ public: unbroadcast" not in feedback
