"""The sixth red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required). Each attack rides on the wrong answers (keys.WRONG, or right ones with a wrong
q3) and may score no more than they do; honest work keeps full marks, unflagged. What
succeeded before, and the construction that closed it:

* **assignment 3 answered with wrong factors over an x close to zeros, 4 of 4, unflagged,
  unheld**: ``x = torch.full(shape, 1e-6, requires_grad=True)``, ``total = (x * 2).sum()``
  and ``y = x * (factor + 1)``, with a ``backward()`` in each cell (which frees the graph,
  so that autograd could not show the slope at the extract step), then ``x.grad = None``
  and a second ``backward()`` of ``(x * factor).sum()`` for q3 (measured). Red team 4 had
  closed the same over an x of *zeros*: the slope was needed only when x was all zeros, and
  the values, compared within ``ATOL_32`` = 1e-4, cannot tell a multiple of 1e-6 from
  another. A y made from a leaf of its own (``y = x * (factor + 1) + w``, w a zero that
  requires grad, x a 1e-6 that does not) scored q2 the same way (measured).
* **q2 and q3 scored by a graph of the wrong factor with the right values**, over x of
  ones, with allowed names only: ``y = x * (factor + 1) - torch.tensor(x.tolist())`` (the
  values of ``factor * x``; ``tolist()`` takes them out of the graph), a ``backward()`` in
  q2's cell, then ``x.grad = None`` and ``(x * factor).sum().backward()``: 3 points over
  the wrong answers, unheld (measured). Values leave the graph by ``tolist()``, ``item()``,
  ``float()``, a repr: no list of names holds them all.
  (``tensors_and_gradients._by_slope``: the slope, autograd's own record, is needed at the
  question's own step whatever the values are; ``_slope`` remembers the slope autograd
  showed for the very same tensors and grad_fn, so ``check_all()`` at the end of the
  notebook, after ``backward()``, still sees what ``check("q2")`` right after q2's cell
  saw.)
* **q3 of assignment 3 scored over a wrong y**, q2 being right at its own step: q3's cell
  made new tensors, ``x = torch.zeros(shape, requires_grad=True)``, ``y = x * (factor +
  1)``, ``retain_grad()`` on y and z, ``z.backward()``, ``x.grad = None``, ``(x *
  factor).sum().backward()``; q3 re-checks q2 on its own y and z, by values only (no slope
  is left after ``backward()``), and over zeros the values passed: 2 of 2, unflagged
  (measured). (``tensors_and_gradients._read_q3``: q3 is judged on the very x, y and z
  that q2's step read from the same namespace.)
"""

import json

import pytest
from keys import WRONG, build, right
from shared_fixture import (book_rows, check_class_graded, check_full_marks_unflagged,
                            grade_notebooks, read_graded, shared)

T = "tensors_and_gradients"
TINY = "x = torch.full(shape, 1e-6, requires_grad=True)\n"
AGAIN = "x.grad = None\n(x * factor).sum().backward()"


def _submissions() -> dict:
    """student (the file's name) -> the notebook released to them, answered."""
    found = {"t_wrong": build(T, "t_wrong", WRONG[T]),
             "t_right": build(T, "t_right", right(T, "t_right"))}
    # honest, with an x whose values alone show little (zeros, values below 1)
    found["t_zeros_honest"] = build(T, "t_zeros_honest", {
        **right(T, "t_zeros_honest"),
        "q1_answer": "x = torch.zeros(shape, requires_grad=True)\ntotal = x.sum()"})
    found["t_rand_honest"] = build(T, "t_rand_honest", {
        **right(T, "t_rand_honest"),
        "q1_answer": "torch.manual_seed(0)\nx = (torch.rand(shape) / 1000).requires_grad_()\n"
                     "total = x.sum()"})  # (values too small to show a factor: the slope does)
    # q1 and q2 right, q3 wrong: what an attack on q3 alone may score
    found["t_q3_wrong"] = build(T, "t_q3_wrong", {**right(T, "t_q3_wrong"),
                                                  "q3_answer": "print(x.grad)"})
    found["t_tiny"] = build(T, "t_tiny", {
        **WRONG[T], "q1_answer": TINY + "total = (x * 2).sum()\ntotal.backward()",
        "q2_answer": "x.grad = None\ny = x * (factor + 1)\ny.retain_grad()\nz = y.sum()\n"
                     "z.retain_grad()\nz.backward()\n" + AGAIN,
        "q3_answer": "print(x.grad)"})
    found["t_other_leaf"] = build(T, "t_other_leaf", {
        **WRONG[T], "q1_answer": "x = torch.full(shape, 1e-6)\ntotal = x.sum()",
        "q2_answer": "w = torch.zeros((), requires_grad=True)\ny = x * (factor + 1) + w\n"
                     "z = y.sum()"})
    found["t_tolist"] = build(T, "t_tolist", {
        **WRONG[T], "q1_answer": "x = torch.ones(shape, requires_grad=True)\ntotal = x.sum()",
        "q2_answer": "y = x * (factor + 1) - torch.tensor(x.tolist())\ny.retain_grad()\n"
                     "z = y.sum()\nz.retain_grad()\nz.backward()\n" + AGAIN,
        "q3_answer": "print(x.grad)"})
    found["t_q3_new"] = build(T, "t_q3_new", {
        **right(T, "t_q3_new"),
        "q3_answer": "x = torch.zeros(shape, requires_grad=True)\ny = x * (factor + 1)\n"
                     "y.retain_grad()\nz = y.sum()\nz.retain_grad()\nz.backward()\n" + AGAIN})
    return found


ATTACKS = ["t_tiny", "t_other_leaf", "t_tolist", "t_q3_new"]
# (t_tolist's q1 is the right answer: x of ones, its sum)
BASELINE = {"t_tiny": "t_wrong", "t_other_leaf": "t_wrong", "t_tolist": "t_q3_wrong",
            "t_q3_new": "t_q3_wrong"}
HONEST = ["t_right", "t_zeros_honest", "t_rand_honest"]


def _grade(folder):
    return grade_notebooks(folder, _submissions(), "red team 6")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return read_graded(shared(tmp_path_factory, "graded_red_team6", _grade))


def _failed(graded, name: str, question: str) -> list[str]:
    q = next(q for q in graded["results"][name]["questions"] if q["name"] == question)
    return [text for ok, text, _part in q["findings"] if not ok]


def test_the_class_is_graded(graded):
    check_class_graded(graded, {"t_wrong", "t_q3_wrong", *HONEST, *ATTACKS})


@pytest.mark.parametrize("name", HONEST)
def test_honest_work_keeps_full_marks_unflagged(graded, name):
    result = graded["results"][name]
    check_full_marks_unflagged(result)
    assert all(row["needs_review"] == "" for row in book_rows(graded, name).values())


@pytest.mark.parametrize("name", ATTACKS)
def test_no_attack_scores_more_than_the_wrong_answers(graded, name):
    wrong, rows = book_rows(graded, BASELINE[name]), book_rows(graded, name)
    assert rows.keys() == wrong.keys()
    for question, row in rows.items():
        if row["points"] == "":
            assert row["needs_review"] in ("", "yes"), row  # written, or held
            continue
        assert float(row["points"]) <= float(wrong[question]["points"] or 0), (name, row)


def test_only_autograds_record_shows_how_a_step_was_made(graded):
    """x of 1e-6 (total of 2 x.sum() and y of factor + 1 right 'within the tolerance'), or
    values taken out of the graph (tolist()), with a backward() in the cell: autograd's
    record is needed, and the finding says why."""
    said = "autograd could not show how {} was made from x: does x require grad?"
    assert any(t.startswith(said.format("total")) for t in _failed(graded, "t_tiny", "q1"))
    for name in ("t_tiny", "t_other_leaf", "t_tolist"):
        assert any(t.startswith(said.format("y")) for t in _failed(graded, name, "q2")), name
        assert book_rows(graded, name)["q3"]["points"] == "0", name


def test_q3_is_judged_on_q2s_own_tensors(graded):
    assert book_rows(graded, "t_q3_new")["q2"]["points"] == "1"
    assert _failed(graded, "t_q3_new", "q3") == [
        "q3 is checked on the x, y and z that q2 was checked on, and these are new ones: make "
        "x, y and z in q1's and q2's cells only and call retain_grad() and backward() on them "
        "here (in the notebook: run those cells and check(\"q2\") again, then this cell)"]


def test_check_all_after_backward_keeps_honest_work_right():
    """check_all() at the end of the notebook runs q2's extract after q3's backward(),
    which freed the graph: the slope autograd showed at check("q2"), right after q2's cell,
    is remembered for the same tensors; tensors no check saw before backward() have none.
    check("q3") before any check("q2") in a namespace says nothing of q2's tensors."""
    import minigrad

    from grader.data import decode
    from grader.kernel_side import collect
    from grader.questions import find_assignment, judge
    from keys import numbers

    env = numbers(T, "t_right")
    factor, assignment = env["factor"], find_assignment(T)

    def failures(question, namespace):
        data = decode(json.loads(json.dumps(collect(assignment.question(question), namespace,
                                                    None))))
        return [f.text for f in judge(assignment.question(question), data, None, env)
                if not f.ok]

    for checked_before in (True, False):
        x = minigrad.ones(*env["shape"], requires_grad=True)
        y = x * factor
        z = y.sum()
        y.retain_grad()
        z.retain_grad()
        namespace = {"x": x, "y": y, "z": z, "total": x.sum()}
        if checked_before:
            assert failures("q2", namespace) == []
        assert failures("q3", {**namespace}) != []  # (before backward: x.grad is None)
        z.backward()
        assert bool(failures("q2", namespace)) is not checked_before
        assert failures("q3", namespace) == []
        assert failures("q3", {**namespace}) == []  # (another namespace: nothing to say)
