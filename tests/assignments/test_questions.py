"""The question bank, in-process: solutions pass, stubs fail, and the feedback says why.

The extract step runs here on a namespace built by executing a notebook's
cells, and its data goes through the same JSON round trip as in grading.
"""

import json
import warnings

import minigrad
import nbformat
import numpy as np
import pytest
from assignment_files import BY_ASSIGNMENT

from grader import notebook as nbg
from grader.data import decode
from grader.kernel_side import collect
from grader.questions import find_assignment, judge
from grader.source import context, inputs, load_source


def _namespace(notebook, replace=None) -> dict:
    """Run a notebook's answer and locked cells here (test cells and free cells skipped)."""
    namespace = {"__name__": "__main__"}
    for cell in notebook.cells:
        gid = nbg.grade_id(cell)
        if cell.cell_type != "code" or nbg.role(cell) not in ("answer", "locked"):
            continue
        try:
            with warnings.catch_warnings():  # (reading y.grad before backward warns)
                warnings.simplefilter("ignore")
                exec((replace or {}).get(gid, cell.source), namespace)
        except Exception:  # noqa: BLE001 (as a student's cell may)
            pass
    return namespace


def _findings(name, question, namespace, student="alice", source=None):
    source = source or load_source(BY_ASSIGNMENT[name])
    question = source.assignment.question(question)
    drawn = inputs(source, question, student)
    found = []
    for part, points in drawn.items():
        data = decode(json.loads(json.dumps(collect(question, namespace, points))))
        found += judge(question, data, points, context(source))
    return found


def _failures(*args, **kwargs):
    return [f.text for f in _findings(*args, **kwargs) if not f.ok]


@pytest.mark.parametrize("name", BY_ASSIGNMENT)
def test_solutions_pass_every_question_at_public_and_hidden_inputs(name):
    source = load_source(BY_ASSIGNMENT[name])
    namespace = _namespace(source.notebook)
    for question in source.assignment.questions:
        assert _failures(name, question.name, namespace) == [], question.name


@pytest.mark.parametrize("name", BY_ASSIGNMENT)
def test_stubs_fail_every_question(name):
    source = load_source(BY_ASSIGNMENT[name])
    namespace = _namespace(nbg.student_version(source.notebook))
    for question in source.assignment.questions:
        assert _failures(name, question.name, namespace), question.name


def _a1(answers):
    source = nbformat.read(BY_ASSIGNMENT["tensors_and_gradients"], as_version=4)
    return _namespace(source, answers)


def test_a1_feedback_without_backward():
    namespace = _a1({"q3_answer": "y.retain_grad()\nz.retain_grad()"})
    assert _failures("tensors_and_gradients", "q3", namespace) == [
        "x.grad is None — did you call backward()? (z.backward())",
        "y.grad is None — call y.retain_grad() before z.backward(): a tensor made by an "
        "operation keeps its gradient only when asked",
        "z.grad is None — call z.retain_grad() before z.backward()"]


def test_a1_feedback_after_two_backward_passes():
    namespace = _a1({"q3_answer": "y.retain_grad()\nz.retain_grad()\n"
                                  "z.backward(retain_graph=True)\nz.backward()"})
    assert _failures("tensors_and_gradients", "q3", namespace)[0] == (
        "x.grad is 2 times the expected gradient — did you call backward() more than once? "
        "Gradients accumulate in .grad; run the notebook again from the top")


def test_a1_feedback_on_the_tensor_itself():
    namespace = _a1({"q1_answer": "x = torch.ones(5, dtype=torch.int64)\ntotal = x.sum()"})
    assert _failures("tensors_and_gradients", "q1", namespace) == [
        "x has shape (5,) but expected (5, 5)",
        "x does not require grad — create it with requires_grad=True",
        "x holds int64 — only floating point tensors can require grad; use 1.0, not 1",
        "total.grad_fn is None, expected SumBackward0: compute it from x with x.sum()"]


def _a2(answers):
    return _namespace(nbformat.read(BY_ASSIGNMENT["derive_it_by_hand"], as_version=4), answers)


def test_a2_feedback_names_the_point_and_both_values():
    namespace = _a2({"q3_answer": 'dh = "2*x"'})
    public, hidden = _failures("derive_it_by_hand", "q3", namespace)
    assert public == ("dh is wrong at 4 of 5 values; at x = -2: yours is -4, autograd "
                      "gives -0.8")
    assert hidden.startswith("dh is wrong at ")


def test_a2_feedback_on_formulas_that_cannot_be_read():
    namespace = _a2({"q1_answer": 'df = "math.cos(x)"', "q2_answer": "dg = '3x'",
                     "q3_answer": "def dh(x):\n    return 2 * x / (1 + x ** 2)",
                     "q4_answer": 'dk_dx = "2*x*y"'})
    assert _failures("derive_it_by_hand", "q1", namespace)[0] == (
        "df: the formula 'math.cos(x)' calls cos, which is not allowed here; write the "
        "derivative with +, -, *, /, ** only")
    assert _failures("derive_it_by_hand", "q2", namespace)[0] == (
        "dg: could not read the formula '3x': write products with * and powers with ** (e.g. "
        "3*x**2 - 2*x)")
    assert _failures("derive_it_by_hand", "q3", namespace)[0] == (
        'dh is a function, not a formula: write it in quotes, like dh = "3*x**2 - 2"')
    assert _failures("derive_it_by_hand", "q4", namespace)[:2] == [
        "dk_dx is wrong at 5 of 5 values; at x = -2, y = 1.5: yours is -6, autograd gives "
        "2.32065", "dk_dy is not defined — run the cell that defines it (and the cells above "
                  "it)"]


def test_a2_a_constant_derivative_may_be_a_number():
    source = load_source(BY_ASSIGNMENT["derive_it_by_hand"])
    namespace = _a2({"expressions": "def f(x):\n    return 3 * x"})
    namespace["df"] = "3"
    source.notebook.cells[3].source = "def f(x):\n    return 3 * x"  # (the teacher's f)
    assert _failures("derive_it_by_hand", "q1", namespace, source=source) == []


def _a3(cls_source):
    source = nbformat.read(BY_ASSIGNMENT["implement_a_backward"], as_version=4)
    return _namespace(source, {"q1_answer": cls_source})


SIGMOID = """\
class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        y = 1 / (1 + torch.exp(-x))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        y, = ctx.saved_tensors
        return BACKWARD
"""


def test_a3_gradcheck_reports_the_worst_index():
    wrong = "grad_output * y * (1 - y) * (1 + 0.1 * (y > 0.6))"  # 10% off where y > 0.6
    namespace = _a3(SIGMOID.replace("BACKWARD", wrong))
    failures = _failures("implement_a_backward", "q1", namespace)
    assert failures[0] == ("gradcheck on an input of shape (5,): largest difference 2e-02 at "
                           "index (3,) (d out[3] / d x[3]: your backward gives 0.2585, finite "
                           "differences 0.235)")
    assert failures[1].startswith("gradcheck on an input of shape (2, 3): largest difference")


def test_a3_backward_with_the_wrong_shape():
    namespace = _a3(SIGMOID.replace("BACKWARD", "(grad_output * y * (1 - y))[:2]"))
    failures = _failures("implement_a_backward", "q1", namespace)
    assert failures[0] == ("Sigmoid.backward raised RuntimeError: Function SigmoidBackward "
                           "returned an invalid gradient at index 0 - got [2] but expected shape "
                           "compatible with [5]")


def test_a3_a_class_that_is_not_a_function():
    namespace = _a3("class Sigmoid:\n    pass")
    assert _failures("implement_a_backward", "q1", namespace) == 2 * [
        "Sigmoid should be a Function: class Sigmoid(Function) with a forward and a backward"]


def _a4(answers):
    source = nbformat.read(BY_ASSIGNMENT["broadcasting_and_reductions"], as_version=4)
    return _namespace(source, answers)


def test_a4_predictions_say_where_not_what():
    namespace = _a4({"q1_answer": "a_grad_shape = (3, 4)\nb_grad_shape = (4,)",
                     "q2_answer": "a_grad = [100.0, 100.0, 100.0]\nb_grad = [[6.0] * 4] * 3"})
    assert _failures("broadcasting_and_reductions", "q1", namespace) == [
        "a_grad_shape is (3, 4) — that is the shape of a * b, not of a. A gradient has the "
        "shape of its tensor: broadcasting is undone by summing"]
    assert _failures("broadcasting_and_reductions", "q2", namespace) == [
        'a_grad is a list of numbers: write it as a formula in a and b, like a_grad = "2 * a", '
        "so that it holds for any values",
        'b_grad is a list of numbers: write it as a formula in a and b, like b_grad = "2 * a", '
        "so that it holds for any values"] * 2
    namespace = _a4({"q2_answer": 'a_grad = "sum(b) / 10"\nb_grad = "sum(a)"'})
    public, hidden = _failures("broadcasting_and_reductions", "q2", namespace)
    assert public.startswith("a_grad is wrong at 3 of 3 values; at index (0, 0): yours is 10 —")
    assert "100" not in public and hidden.startswith("a_grad is wrong at 3 of 3 values")


def test_a4_predictions_are_checked_at_tensors_drawn_per_student():
    source = load_source(BY_ASSIGNMENT["broadcasting_and_reductions"])
    question = source.assignment.question("q2")
    alice, bob = (inputs(source, question, s)["hidden"] for s in ("alice", "bob"))
    assert alice != bob and np.array(alice["a"]).shape == (3, 1)
    assert np.array(bob["b"]).shape == (4,) and 0 not in np.array(bob["b"])
    copied = _a4({"q2_answer": 'a_grad = "100"\nb_grad = "6"'})  # the printed gradients
    failures = _failures("broadcasting_and_reductions", "q2", copied)
    assert len(failures) == 2 and all(f.startswith(("a_grad is wrong", "b_grad is wrong"))
                                      for f in failures)


def test_a4_unbroadcast_shape_feedback():
    namespace = _a4({"q4_answer": "def unbroadcast(grad, shape):\n    return grad.sum(dim=0)"})
    failures = _failures("broadcasting_and_reductions", "q4", namespace)
    assert "unbroadcast(grad of shape (3, 4), (3, 1)) has shape (4,) but expected (3, 1)" \
        in failures


def test_hidden_inputs_are_stable_per_student_and_differ_between_students():
    source = load_source(BY_ASSIGNMENT["derive_it_by_hand"])
    question = source.assignment.question("q1")
    alice = inputs(source, question, "alice")
    assert alice == inputs(load_source(BY_ASSIGNMENT["derive_it_by_hand"]), question, "alice")
    assert alice["hidden"] != inputs(source, question, "bob")["hidden"]
    assert alice["public"] == inputs(source, question, "bob")["public"]
    salted = load_source(BY_ASSIGNMENT["derive_it_by_hand"], salt="a private text")
    assert inputs(salted, question, "alice")["hidden"] != alice["hidden"]


def test_the_grader_uses_the_teachers_expressions():
    env = context(load_source(BY_ASSIGNMENT["derive_it_by_hand"]))
    x = minigrad.tensor([2.0])
    assert env["f"](x).item() == 4.0 and "k" in env and "check" in env


def test_every_assignment_is_registered_once():
    names = [find_assignment(n).name for n in BY_ASSIGNMENT]
    assert names == list(BY_ASSIGNMENT)
    with pytest.raises(KeyError, match="no question module nope.py among the kit's "
                                       "assignments \\(broadcasting_and_reductions, "):
        find_assignment("nope")


def test_a_judge_that_crashes_is_a_failed_check():
    question = find_assignment("derive_it_by_hand").question("q1")
    found = judge(question, {"unexpected": True}, [0.0], {"f": lambda x: x})
    assert not found[0].ok and found[0].text.startswith("could not check q1: KeyError")
    assert judge(question, ["not", "a", "dict"], [0.0], {})[0].text == (
        "the test cell handed back no usable data")
    assert np.isfinite(0.0)
