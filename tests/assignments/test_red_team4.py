r"""The fourth red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required). Each attack rides on the wrong answers (keys.WRONG) and may score no more than
they do; honest work keeps full marks, unflagged. What succeeded before, and the
construction that closed it:

* **every hidden input of a code question carried out in one submission**, through what
  the feedback quoted of the code's *result* (its words were already withheld): an
  ``unbroadcast`` returning ``np.zeros([0] + [int(v) + 6 for v in grad.tolist()])`` had
  its shape quoted, "has shape (0, 9, 9, 1, 5, 9, 6) but expected (1, 3)", and a ragged
  list had its repr quoted, "is [[1.0, 4.0, 5.0, ...], [0.0]]": all six hidden grads,
  every value, unflagged (measured). Resubmitted on the same salt (Gradescope, a late
  regrade), a lookup table of the six answers is full marks without an ``unbroadcast``.
  (``judging.WITHHELD``: a hidden test of a code question is judged as before, and its
  findings say what failed and what the grader gave, never the result's shape, values,
  repr, type, the wrong values' count or place, a gradient's ratio, the kind of exception
  or the line that raised: the first value as ``KeyError`` or ``IndexError``, or as the
  line of the ``if`` that raised, said a few bits a call.) A formula's value at a hidden
  point ("yours is" the value of ``b[0] + 100*b[1] + 10000*b[2]``) said three hidden
  numbers a finding the same way; it is withheld too, the grader's own words (the point,
  the expected value) kept.
* **a grading worker held for minutes by blank lines**: the scan of a cell that ran looked
  for a shell escape with ``^\s*!`` line by line, and ``\s*`` crossed the newlines after
  every line start: quadratic, 3.3 s for 25,000 newlines (0.03 s at 2,000, 0.32 s at
  8,000, measured), about 50 s for a cell of the 100,000 characters read, and the wrong
  answers with 99,000 newlines in each of their four cells and two cells of one's own
  would hold a worker about five minutes, outside any ``--timeout`` or ``--budget``
  (``scan.examine``: a line's own indentation, ``[ \t]*``; 4 s for that submission now).
* **assignment 3's q2 scored with a wrong factor, by plain allowed code**: over an ``x`` of
  101 x 101 (more than the 10,000 values a run hands back) or of shape (0, 5), ``y = x *
  (factor + 1)`` and ``z = (y * 0).sum()`` were "right": the values of the cut x and y
  arrived as empty arrays, and a comparison of no values passed (``all()`` of nothing);
  1 of 1, unflagged, unheld (measured for the 101 x 101 one). (``data.decode``: a tensor
  sent without its values is read as "a tensor with too many values to check", which no
  judge accepts; ``judging.compare``, ``check_grad``: no value compared is nothing
  checked.)
* **q2 and q3 of assignment 3 scored over a wrong y by plain autograd, again**: over ``x =
  torch.zeros(shape, requires_grad=True)`` (the notebook says "any values"), ``y = x *
  (factor + 1)`` has the values of ``factor * x`` (zeros), so q2 scored 1 of 1, and red
  team 3's second ``backward()`` of ``(x * -1).sum()`` then made x.grad the factor, q3's
  re-check of q2 passed on the same zeros: 3 of 3 points for a wrong y, unflagged
  (measured); ``total = (x * 2).sum()`` scored q1 and ``z = (y * 3).sum()`` q2 the same
  way (by the judges' code). (The extract steps also hand back each step's slope,
  ``autograd.grad(y, x, ones, retain_graph=True)``: dy/dx is the factor whatever x holds,
  dz/dy and dtotal/dx are 1; q3 builds on q2 (``Question.after``): it scores only when
  q2, judged at its own step, has; after a backward() autograd can no longer show a slope.)
"""

import re
import time
from pathlib import Path

import pytest
from keys import WRONG, build, right
from shared_fixture import (book_rows, check_class_graded, check_full_marks_unflagged,
                            grade_notebooks, read_graded, shared)

from grader.judging import WITHHELD, compare, withholding

D, B, T, P = ("derive_it_by_hand", "broadcasting_and_reductions", "tensors_and_gradients",
              "backprop_by_hand")

# unbroadcast, called with each hidden (grad, shape), hands the grad back in what the
# feedback quotes of its result
SAID_BACK = {
    "shape": "import numpy as np\n"
             "def unbroadcast(grad, shape):\n"
             "    return np.zeros([0] + [int(v) + 6 for v in grad.reshape(-1).tolist()])",
    "ragged": "def unbroadcast(grad, shape):\n"
              "    return [[float(v) for v in grad.reshape(-1).tolist()], [0.0]]",
    "kind": "def unbroadcast(grad, shape):\n"  # the kind of error says the first value
            "    first = grad.reshape(-1).tolist()[:1]\n"
            "    if first == [1.0]:\n        raise KeyError('one')\n"
            "    if first == [2.0]:\n        raise IndexError('two')\n"
            "    raise ZeroDivisionError('other')",
    "where": "def unbroadcast(grad, shape):\n"  # the line that raises says the first value
             + "".join(f"    if grad.reshape(-1).tolist()[:1] == [{v}.0]:\n"
                       f"        raise ValueError('one')\n" for v in range(-5, 6))
             + "    return grad",
}


def _submissions() -> dict:
    """student (the file's name) -> the notebook released to them, answered."""
    found = {"b_wrong": build(B, "b_wrong", WRONG[B]),
             "b_right": build(B, "b_right", right(B, "b_right"))}
    for how, code in SAID_BACK.items():
        name = f"b_said_{how}"
        found[name] = build(B, name, {**WRONG[B], "q4_answer": code})
    found["b_said_formula"] = build(B, "b_said_formula", {
        **WRONG[B], "q2_answer": 'a_grad = "b[0] + 100*b[1] + 10000*b[2]"\nb_grad = "a"'})
    found["t_wrong"] = build(T, "t_wrong", WRONG[T])
    found["t_right"] = build(T, "t_right", right(T, "t_right"))
    for name, x in (("t_too_many", "torch.ones(101, 101, requires_grad=True)"),
                    ("t_empty", "torch.ones(0, 5, requires_grad=True)")):
        found[name] = build(T, name, {**WRONG[T], "q1_answer": f"x = {x}\ntotal = x.sum()",
                                      "q2_answer": "y = x * (factor + 1)\nz = (y * 0).sum()"})
    zeros = "x = torch.zeros(shape, requires_grad=True)\ntotal = x.sum()"
    found["t_zeros_honest"] = build(T, "t_zeros_honest", {**right(T, "t_zeros_honest"),
                                                          "q1_answer": zeros})
    found["t_zeros_wrong"] = build(T, "t_zeros_wrong", {  # (q1 right: any values)
        **WRONG[T], "q1_answer": zeros, "q3_answer": "y.retain_grad()\nz.retain_grad()\n"
                                                     "z.backward()"})
    found["t_zeros_twice"] = build(T, "t_zeros_twice", {
        **WRONG[T], "q1_answer": zeros, "q3_answer": "y.retain_grad()\nz.retain_grad()\n"
                                                     "z.backward()\n(x * -1).sum().backward()"})
    blank = "\n" * 99_000  # (under the 100,000 characters a cell is read)
    found["t_blank"] = build(T, "t_blank", {k: v + blank for k, v in WRONG[T].items()},
                             extra={"q1": blank, "q2": blank})
    found["t_zeros_total"] = build(T, "t_zeros_total", {  # total of another multiple
        **WRONG[T], "q1_answer": "x = torch.zeros(shape, requires_grad=True)\n"
                                 "total = (x * 2).sum()"})
    found["t_zeros_z"] = build(T, "t_zeros_z", {  # y right, z of another multiple
        **WRONG[T], "q1_answer": zeros, "q2_answer": "y = x * factor\nz = (y * 3).sum()"})
    return found


ATTACKS = [f"b_said_{how}" for how in SAID_BACK] + [
    "b_said_formula", "t_blank", "t_too_many", "t_empty", "t_zeros_twice", "t_zeros_total",
    "t_zeros_z"]
BASELINE = {"t_zeros_twice": "t_zeros_wrong", "t_zeros_z": "t_zeros_wrong"}
HONEST = ["b_right", "t_right", "t_zeros_honest"]


def _grade(folder: Path) -> dict:
    return grade_notebooks(folder, _submissions(), "red team 4")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return read_graded(shared(tmp_path_factory, "graded_red_team4", _grade))


def test_the_class_is_graded(graded):
    check_class_graded(graded, {"b_wrong", "t_wrong", "t_zeros_wrong", *HONEST,
                                *ATTACKS})


@pytest.mark.parametrize("name", HONEST)
def test_honest_work_keeps_full_marks_unflagged(graded, name):
    result = graded["results"][name]
    check_full_marks_unflagged(result)


@pytest.mark.parametrize("name", ATTACKS)
def test_no_attack_scores_more_than_the_wrong_answers(graded, name):
    wrong = book_rows(graded, BASELINE.get(name, name[0] + "_wrong"))
    rows = book_rows(graded, name)
    assert rows.keys() == wrong.keys()
    for question, row in rows.items():
        if row["points"] == "":
            assert row["needs_review"] in ("", "yes"), row  # written, or held
            continue
        assert float(row["points"]) <= float(wrong[question]["points"] or 0), (name, row)


# "unbroadcast(grad of shape (2, 3), (3,))": what the grader gave, which may be said
CALL = re.compile(r"^unbroadcast\(grad of shape \([0-9, ]*\), \([0-9, ]*\)\)")


@pytest.mark.parametrize("how", SAID_BACK)
def test_a_hidden_test_quotes_nothing_of_what_the_code_returned(graded, how):
    """Before, each of these carried the hidden grads out: their values as the returned
    shape's sizes, as a ragged list's repr, or the first value as the line that raised.
    Now a hidden finding says the call, what failed and the shape expected; no number the
    code chose. The public tests (their inputs are in the notebook) still say it all."""
    q4 = next(q for q in graded["results"][f"b_said_{how}"]["questions"] if q["name"] == "q4")
    hidden = [text for _ok, text, part in q4["findings"] if part == "hidden"]
    public = [text for ok, text, part in q4["findings"] if part == "public" and not ok]
    # (six calls of the student's own and six drawn with the answers: red team 10)
    assert len(hidden) == 12 and not any(ok for ok, _t, part in q4["findings"]
                                        if part == "hidden")
    for text in hidden:
        said = CALL.sub("", text).split(" but expected (")[0]
        assert not re.search(r"\d", said), text  # (nothing but the grader's own numbers)
        assert "line" not in said and not re.search(r"[A-Z][a-z]+Error", said), text
    if how not in ("where", "kind"):
        assert any(WITHHELD in text for text in hidden)
        assert any(re.search(r"\(0, \d|\[\[", t) for t in public), public


def test_a_formulas_value_at_hidden_points_is_not_said(graded):
    """``a_grad = "b[0] + 100*b[1] + 10000*b[2]"`` was "wrong ...; at index (0, 0): yours is"
    that number: three hidden numbers a finding, for a formula of comparisons that looks the
    answers up. A formula's hidden findings keep the grader's words, not its value."""
    q2 = next(q for q in graded["results"]["b_said_formula"]["questions"] if q["name"] == "q2")
    hidden = [text for ok, text, part in q2["findings"] if part == "hidden" and not ok]
    public = [text for ok, text, part in q2["findings"] if part == "public" and not ok]
    assert any(t.startswith("a_grad is wrong") and f"yours is {WITHHELD}" in t
               for t in hidden), hidden
    assert not any(re.search(r"yours is -?\d|has shape \(", t) for t in hidden), hidden
    assert any(re.search(r"yours is -?\d", text) for text in public), public


def test_the_kits_findings_withhold_what_the_code_made():
    """The helpers the question modules judge with, in a hidden test of code."""
    import numpy as np

    from grader.data import Other, Raised
    from grader.judging import as_array, check_grad, problem
    from grader.data import TensorData

    got = np.zeros((0, 7, 3))
    assert "(0, 7, 3)" in compare("r", got, np.ones(3))[0].text
    with withholding():
        assert compare("r", got, np.ones(3))[0].text == \
            f"r has shape {WITHHELD} but expected (3,)"
        text = compare("r", np.array([4.0, 5.0]), np.array([1.0, 5.0]))[0].text
        assert "4" not in text and "index" not in text
        assert as_array([[1.0, 2.0], [3.0]], "r")[1] == \
            f"r is {WITHHELD}, expected a tensor or numbers"
        assert problem(Raised("ValueError", WITHHELD, "line 9: raise"), "r").endswith(WITHHELD)
        assert problem(Other(WITHHELD, WITHHELD), "r") is not None
        grad = TensorData((2,), "float32", np.array([6.0, 6.0]), True, True, None, None)
        x = TensorData((2,), "float32", np.ones(2), True, True, None, grad)
        assert "times" not in check_grad("x", x, np.full(2, 2.0), how="")[0].text
    assert "3 times" in check_grad("x", x, np.full(2, 2.0), how="")[0].text


@pytest.mark.parametrize("name, said", [("t_too_many", "a tensor with too many values to "
                                                      "check (shape (101, 101)"),
                                        ("t_empty", "y has no values (shape (0, 5))")])
def test_values_not_compared_are_not_right(graded, name, said):
    """y = x * (factor + 1) over an x whose values did not come (too many) or that has none
    scored q2 (1 of 1, unflagged): nothing was compared, and nothing compared passed."""
    q2 = next(q for q in graded["results"][name]["questions"] if q["name"] == "q2")
    assert q2["points"] == 0 and any(said in text for _ok, text, _p in q2["findings"]), q2


def test_a_tensor_sent_without_its_values_is_no_tensor_to_judge():
    import minigrad
    import numpy as np

    from grader.data import TOO_MANY, MAX_VALUES, Other, TensorData, roundtrip
    from grader.judging import check_grad

    big = roundtrip(minigrad.ones(101, 101, requires_grad=True))
    assert isinstance(big, Other) and big.kind == TOO_MANY
    assert isinstance(roundtrip(np.zeros(MAX_VALUES + 1)), Other)
    assert isinstance(roundtrip(minigrad.ones(100, 100)), TensorData)  # (10,000: all of it)
    assert roundtrip([minigrad.ones(2), np.ones(20_000)])[0].values.tolist() == [1.0, 1.0]
    empty = np.zeros((0, 5))
    assert not compare("y", empty, empty)[0].ok
    x = TensorData((0, 5), "float32", empty, True, True, None,
                   TensorData((0, 5), "float32", empty, False, True, None, None))
    assert not check_grad("x", x, empty, how="")[0].ok


def test_a_sum_of_another_multiple_over_zeros_scores_nothing(graded):
    """total = (x * 2).sum() scored q1, z = (y * 3).sum() q2, over x of zeros."""
    assert book_rows(graded, "t_zeros_total")["q1"]["points"] == "0"
    assert book_rows(graded, "t_zeros_z")["q2"]["points"] == "0"
    found = {name: " ".join(t for q in graded["results"][name]["questions"]
                            for _ok, t, _p in q["findings"])
             for name in ("t_zeros_total", "t_zeros_z")}
    assert "dtotal/dx (autograd) is wrong" in found["t_zeros_total"]
    assert "dz/dy (autograd) is wrong" in found["t_zeros_z"]


@pytest.mark.parametrize("name", ["t_zeros_wrong", "t_zeros_twice"])
def test_a_wrong_factor_over_zeros_scores_nothing(graded, name):
    """y = x * (factor + 1) over an x of zeros scored q2 (its values are those of factor *
    x), and with a second backward() q3 too: 3 of 3. y's slope says the factor now, and q3
    counts once q2 does."""
    rows = book_rows(graded, name)
    assert rows["q1"]["points"] == "1" and rows["q2"]["points"] == "0" \
        and rows["q3"]["points"] == "0", rows
    q2 = next(q for q in graded["results"][name]["questions"] if q["name"] == "q2")
    assert any("dy/dx (autograd)" in text and not ok for ok, text, _p in q2["findings"]), q2


def test_the_slope_leaves_the_graph_and_the_gradients_as_they_were():
    """check("q2") in a notebook runs the same extract step: run after q3's cell (or twice),
    it must not change y.grad, x.grad or what a later backward() gives."""
    import minigrad

    from grader.questions import find_assignment

    question = find_assignment(T).question("q2")
    x = minigrad.zeros(2, 3, requires_grad=True)
    y = x * 4
    z = y.sum()
    y.retain_grad()
    data = question.extract({"x": x, "y": y, "z": z}, None)
    assert data["dy/dx"].tolist() == [[4.0] * 3] * 2 and data["dz/dy"].tolist() == [[1.0] * 3] * 2
    assert y.grad is None and x.grad is None
    z.backward()
    assert x.grad.tolist() == [[4.0] * 3] * 2 and y.grad.tolist() == [[1.0] * 3] * 2
    again = question.extract({"x": x, "y": y, "z": z}, None)  # (after backward: the slope
    # autograd showed before, for the same tensors: red team 6)
    assert again["dy/dx"].tolist() == [[4.0] * 3] * 2 and y.grad.tolist() == [[1.0] * 3] * 2


def test_every_number_a_run_hands_back_is_json():
    """np.longdouble's item() is a longdouble, which json cannot write: a code answer that
    returned one made the run die at its extract step (its later questions "not checked")
    instead of handing back a number; an int past a float's range raised there too."""
    import json

    import numpy as np

    from grader.data import encode

    for value, said in ((np.longdouble(1.5), 1.5), (np.longdouble("inf"), "inf"),
                        (10 ** 400, "inf"), (-10 ** 400, "-inf"), (2 ** 60, 2.0 ** 60),
                        (7, 7), ([np.longdouble(2)], [2.0])):
        assert json.loads(json.dumps(encode(value))) == said, value


def test_blank_lines_cost_the_grader_linear_time(graded):
    """A cell of 100,000 newlines took about 50 s to scan (quadratic), six of them in one
    submission about five minutes of a grading worker."""
    from grader.scan import examine

    start = time.monotonic()
    assert examine("\n" * 100_000) == [] and examine(" \n" * 50_000) == []
    assert [s.text for s in examine("\n" * 50_000 + "  !ls")] == ["runs a shell command"]
    assert time.monotonic() - start < 5
    with open(Path(graded["out"]) / "timing.csv", encoding="utf-8") as file:
        seconds = {row.split(",")[0]: float(row.split(",")[2]) for row in file.readlines()[1:]}
    assert seconds["t_blank"] < 30, seconds
