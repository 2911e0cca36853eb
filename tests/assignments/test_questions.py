"""The question bank, in-process: solutions pass, stubs fail, and the feedback says why.

The extract step runs here on a namespace built by executing a notebook's cells (rendered
with a student's own numbers), and its data goes through the same JSON round trip as in
grading; the judges get the student's numbers as the grader gives them.
"""

import contextlib
import io
import json
import re
import warnings

import minigrad
import nbformat
import numpy as np

import pytest
from assignment_files import BY_ASSIGNMENT
from keys import numbers, right

from grader import notebook as nbg
from grader.data import decode
from grader.kernel_side import collect
from grader.questions import find_assignment, judge
from grader.source import context, inputs, load_source
from grader.variants import render


def _namespace(notebook, replace=None) -> dict:
    """Run a notebook's answer and locked cells here, and the check() of each test cell, as
    "Run All" does (free cells and hidden tests skipped): a check() right after a question's
    cell sees its graph before a later backward() frees it (tensors_and_gradients._SLOPES)."""
    namespace = {"__name__": "__main__"}
    for cell in notebook.cells:
        gid = nbg.grade_id(cell)
        if cell.cell_type == "code" and nbg.role(cell) == "test" and "check(" in cell.source:
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(cell.source.split("### BEGIN HIDDEN TESTS")[0], namespace)
            except Exception:  # noqa: BLE001
                pass
            continue
        if cell.cell_type != "code" or nbg.role(cell) not in ("answer", "locked"):
            continue
        try:
            with warnings.catch_warnings():  # (reading y.grad before backward warns)
                warnings.simplefilter("ignore")
                exec((replace or {}).get(gid, cell.source), namespace)
        except Exception:  # noqa: BLE001 (as a student's cell may)
            pass
    return namespace


def _student(name, student, answers=None):
    """The namespace of ``student``'s notebook, with ``answers`` (grade_id -> code)."""
    source = load_source(BY_ASSIGNMENT[name])
    return _namespace(render(source.notebook, source.assignment, student), answers)


def _findings(name, question, namespace, student="alice"):
    source = load_source(BY_ASSIGNMENT[name])
    question = source.assignment.question(question)
    variant = source.assignment.variant_for(student)
    drawn = inputs(source, question, student, variant)
    env = {**context(source, render(source.notebook, source.assignment, student)), **variant}
    found = []
    for part, points in drawn.items():
        data = decode(json.loads(json.dumps(collect(question, namespace, points))))
        found += judge(question, data, points, env)
    return found


def _failures(*args, **kwargs):
    return [f.text for f in _findings(*args, **kwargs) if not f.ok]


@pytest.mark.parametrize("name", BY_ASSIGNMENT)
def test_right_answers_pass_every_question_for_every_student(name):
    for student in ("alice", "bob", "carol"):
        namespace = _student(name, student, right(name, student))
        for question in find_assignment(name).questions:
            assert _failures(name, question.name, namespace, student) == [], (student,
                                                                             question.name)


@pytest.mark.parametrize("name", BY_ASSIGNMENT)
def test_the_instructor_solution_passes_for_the_default_numbers_only(name):
    source = load_source(BY_ASSIGNMENT[name])
    namespace = _namespace(source.notebook)
    questions = [q.name for q in source.assignment.questions]
    for question in questions:
        assert _failures(name, question, namespace, student=None) == [], question
    failing = [q for q in questions if _failures(name, q, namespace, student="alice")]
    assert failing, "the published solution must not answer a student's own numbers"


@pytest.mark.parametrize("name", BY_ASSIGNMENT)
def test_stubs_fail_every_question(name):
    source = load_source(BY_ASSIGNMENT[name])
    namespace = _namespace(nbg.student_version(source.notebook))
    for question in source.assignment.questions:
        assert _failures(name, question.name, namespace, student=None), question.name


def test_an_unanswered_data_answer_says_to_write_it_not_only_to_run_its_cell():
    """A student who runs the notebook before answering has run every cell: the answer cell
    raised NotImplementedError before defining df. The check said only "run the cell that
    defines it" (audit 19, a released assignment run from the top)."""
    source = load_source(BY_ASSIGNMENT["derive_it_by_hand"])
    namespace = _namespace(nbg.student_version(source.notebook))
    failures = _failures("derive_it_by_hand", "q1", namespace, student=None)
    assert failures and set(failures) == {
        "df is not defined — write it in its answer cell (in place of `raise "
        "NotImplementedError()`) and run that cell (and the cells above it)"}


def _a3(answers, student="alice"):
    return _student("tensors_and_gradients", student,
                    {**right("tensors_and_gradients", student), **answers})


def test_a3_feedback_without_backward():
    namespace = _a3({"q3_answer": "y.retain_grad()\nz.retain_grad()"})
    assert _failures("tensors_and_gradients", "q3", namespace) == [
        "x.grad is None — did you call backward()? (z.backward())",
        "y.grad is None — call y.retain_grad() before z.backward(): a tensor made by an "
        "operation keeps its gradient only when asked",
        "z.grad is None — call z.retain_grad() before z.backward()"]


def test_a3_feedback_after_two_backward_passes():
    namespace = _a3({"q3_answer": "y.retain_grad()\nz.retain_grad()\n"
                                  "z.backward(retain_graph=True)\nz.backward()"})
    assert _failures("tensors_and_gradients", "q3", namespace)[0] == (
        "x.grad is 2 times the expected gradient — did you call backward() more than once? "
        "Gradients accumulate in .grad; run the notebook again from the top")


def test_a3_feedback_on_the_tensor_itself():
    rows, columns = numbers("tensors_and_gradients", "alice")["shape"]
    namespace = _a3({"q1_answer": "x = torch.ones(5, dtype=torch.int64)\ntotal = x.sum()"})
    assert _failures("tensors_and_gradients", "q1", namespace) == [
        f"x has shape (5,) but expected ({rows}, {columns}) (your shape)",
        "x does not require grad — create it with requires_grad=True",
        "x holds int64 — only floating point tensors can require grad; use 1.0, not 1",
        "total does not record how it was made (its grad_fn is None): it was computed under "
        "torch.no_grad(), from a detached tensor, or made as a new tensor, so backward cannot "
        "reach x through it. Compute it from x itself, outside no_grad"]


def test_a3_accepts_what_is_mathematically_right():
    """y = x + x is x times 2 (AddBackward0, not MulBackward0): right, where factor is 2."""
    student = next(s for s in (f"s{i}" for i in range(100))
                   if numbers("tensors_and_gradients", s)["factor"] == 3)
    namespace = _a3({"q2_answer": "y = x + x + x\nz = torch.sum(y)"}, student)
    assert _failures("tensors_and_gradients", "q2", namespace, student) == []
    assert _failures("tensors_and_gradients", "q3", namespace, student) == []


def test_a3_says_why_no_grad_broke_the_graph():
    factor = numbers("tensors_and_gradients", "alice")["factor"]
    namespace = _a3({"q2_answer": f"with torch.no_grad():\n    y = x * {factor}\nz = y.sum()",
                     "q3_answer": "z.backward()"})
    q2 = _failures("tensors_and_gradients", "q2", namespace)
    assert q2[0].startswith("y does not record how it was made (its grad_fn is None): it was "
                            "computed under torch.no_grad()")
    assert _failures("tensors_and_gradients", "q3", namespace) == [
        "z does not require grad, so z.backward() cannot reach x: y or z was computed under "
        "torch.no_grad() or from a detached tensor (see q2)"]


def test_a3_a_gradient_assigned_by_hand_is_not_retain_grad():
    namespace = _a3({"q3_answer": "z.backward(retain_graph=True)\n"
                                  "y.grad = torch.ones_like(y)\nz.grad = torch.ones_like(z)"})
    assert _failures("tensors_and_gradients", "q3", namespace) == [
        "y.grad was assigned by hand; call y.retain_grad() before z.backward(), so that "
        "backward keeps it",
        "z.grad was assigned by hand; call z.retain_grad() before z.backward(), so that "
        "backward keeps it"]


def _a1(answers, student="alice"):
    return _student("derive_it_by_hand", student, answers)


def test_a1_feedback_names_the_point_and_both_values():
    n = numbers("derive_it_by_hand", "alice")
    namespace = _a1({"q3_answer": 'dh = "2*x"'})
    public, hidden = _failures("derive_it_by_hand", "q3", namespace)
    expected = 2 * n["c"] * -2.0 / (n["a"] + n["c"] * 4.0)
    assert public == (f"dh is wrong at 4 of 5 values; at x = -2: yours is -4, autograd "
                      f"gives {expected:.6g}")
    assert hidden.startswith("dh is wrong at ")


def test_a1_feedback_on_answers_that_are_not_formulas():
    namespace = _a1({"q1_answer": 'df = "math.cos(x) + f(x)"', "q2_answer": "dg = '3x'",
                     "q3_answer": "def dh(x):\n    return 2 * x / (1 + x ** 2)",
                     "q4_answer": 'dk_dx = "2*x*y"\ndk_dy = "a*x"'})
    assert _failures("derive_it_by_hand", "q1", namespace)[0] == (
        "df: the formula 'math.cos(x) + f(x)' calls f, which is not allowed here; it may use "
        "abs, cos, cosh, exp, log, sin, sinh, sqrt, tan, tanh")
    assert _failures("derive_it_by_hand", "q2", namespace)[0] == (
        "dg: could not read the formula '3x': write products with * and powers with ** (e.g. "
        "3*x**2 - 2*x)")
    assert _failures("derive_it_by_hand", "q3", namespace)[0] == (
        'dh is a function, not a formula: write the formula as text, in quotes (dh = "...")')
    failures = _failures("derive_it_by_hand", "q4", namespace)
    assert failures[0].startswith("dk_dx is wrong at 5 of 5 values; at x = -2, y = 1.5")
    assert failures[1] == ("dk_dy: the formula 'a*x' uses 'a'; it may use x, y, pi, e")


def test_no_feedback_hands_out_an_answer():
    """(Issue 33: the example and the feedback for an unquoted answer said "3*x**2 - 2",
    question 1's answer, and named an internal class.)"""
    namespace = _a1({"q1_answer": "df = 3", "q2_answer": "dg = torch.tensor([1.0])",
                     "q3_answer": "dh = [1, 2]"})
    said = [f.text for q in ("q1", "q2", "q3", "q4")
            for f in _findings("derive_it_by_hand", q, namespace)]
    text = " ".join(said)
    for student in ("alice", None):
        for answer in right("derive_it_by_hand", student).values():
            for formula in answer.split('"')[1::2]:
                assert formula not in text, formula
    assert "TensorData" not in text and "df is a number, not a formula" in text
    assert "dg is a tensor, not a formula" in text


def _a4(answers, student="alice"):
    return _student("implement_a_backward", student, answers)


def test_a4_feedback_on_a_wrong_backward():
    namespace = _a4({"q1_answer": 'sigmoid_backward = "grad_output * y * (1 - y)"'})
    k = numbers("implement_a_backward", "alice")["k"]
    failure = _failures("implement_a_backward", "q1", namespace)[0]
    assert failure.startswith("sigmoid_backward is wrong at ")
    assert "on an input of shape (5,)" in failure and "autograd gives" in failure
    namespace = _a4({"q1_answer": f'sigmoid_backward = "grad_output * {k} * y * (1 - y)"'})
    assert _failures("implement_a_backward", "q1", namespace) == []


def test_a4_feedback_on_formulas_that_cannot_be_used():
    namespace = _a4({"q1_answer": 'sigmoid_backward = "grad_output * sigmoid(x)"',
                     "q2_answer": 'tanh_backward = "grad_output * (1 - y**2"',
                     "q3_answer": 'softmax_backward = "y * (grad_output - y @ grad_output)"'})
    assert _failures("implement_a_backward", "q1", namespace)[0] == (
        "sigmoid_backward: the formula 'grad_output * sigmoid(x)' calls sigmoid, which is not "
        "allowed here; it may use exp, log, max, mean, sqrt, sum")
    assert "could not read the formula" in _failures("implement_a_backward", "q2", namespace)[0]
    assert "@ cannot multiply shapes (5,) and (5,)" not in " ".join(
        _failures("implement_a_backward", "q3", namespace))  # a number: the shape is wrong
    assert "softmax_backward is wrong" in _failures("implement_a_backward", "q3",
                                                    namespace)[0]


def test_a4_builds_a_working_function_from_the_formula():
    from grader import student
    from minigrad.autograd import gradcheck

    student.start("implement_a_backward", student="alice")
    k = numbers("implement_a_backward", "alice")["k"]
    namespace = _a4({"q1_answer": f'sigmoid_backward = "grad_output * {k} * y * (1 - y)"'})
    x = minigrad.tensor([-2.0, 0.5, 3.0], dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(namespace["SigmoidK"].apply, (x,))


def _a2(answers, student="alice"):
    return _student("broadcasting_and_reductions", student, answers)


def test_a2_predictions_say_where_not_what():
    n = numbers("broadcasting_and_reductions", "alice")
    namespace = _a2({"q1_answer": f"a_grad_shape = ({n['m']}, {n['p']})\n"
                                  f"b_grad_shape = ({n['p']},)",
                     "q2_answer": "a_grad = [100.0, 100.0, 100.0]\nb_grad = [[6.0] * 4] * 3"})
    assert _failures("broadcasting_and_reductions", "q1", namespace) == [
        f"a_grad_shape is ({n['m']}, {n['p']}) — that is the shape of a * b, not of a. A "
        "gradient has the shape of its tensor: broadcasting is undone by summing"]
    assert _failures("broadcasting_and_reductions", "q2", namespace) == [
        'a_grad is a list of numbers: write it as a formula in a and b, like a_grad = "2 * a", '
        "so that it holds for any values",
        'b_grad is a list of numbers: write it as a formula in a and b, like b_grad = "2 * a", '
        "so that it holds for any values"] * 2
    namespace = _a2({"q2_answer": 'a_grad = "sum(b) / 10"\nb_grad = "sum(a)"'})
    public = _failures("broadcasting_and_reductions", "q2", namespace)[0]
    assert public.startswith(f"a_grad is wrong at {n['m']} of {n['m']} values; at index (0, 0): "
                             "yours is ")
    assert "autograd gives" not in public


def test_a2_predictions_are_checked_at_tensors_drawn_per_student():
    source = load_source(BY_ASSIGNMENT["broadcasting_and_reductions"])
    question = source.assignment.question("q2")
    alice, bob = (inputs(source, question, s, numbers(source.assignment.name, s))["hidden"]
                  for s in ("alice", "bob"))
    assert alice != bob
    n = numbers("broadcasting_and_reductions", "alice")
    assert np.array(alice["a"]).shape == (n["m"], 1) and 0 not in np.array(alice["b"])
    copied = _a2({"q2_answer": 'a_grad = "100"\nb_grad = "6"'})  # the printed gradients
    failures = _failures("broadcasting_and_reductions", "q2", copied)
    assert len(failures) == 4 and all(f.startswith(("a_grad is wrong", "b_grad is wrong"))
                                      for f in failures)


def test_a2_unbroadcast_runs_on_tensors_without_autograd():
    namespace = _a2({"q4_answer": "def unbroadcast(grad, shape):\n    return grad.sum(dim=0)"})
    failures = _failures("broadcasting_and_reductions", "q4", namespace)
    assert "unbroadcast(grad of shape (3, 4), (3, 1)) has shape (4,) but expected (3, 1)" \
        in failures
    namespace = _a2({"q4_answer": "def unbroadcast(grad, shape):\n"
                                  "    leaf = torch.zeros(shape, requires_grad=True)\n"
                                  "    (leaf + grad).backward(grad)\n    return leaf.grad"})
    failure = _failures("broadcasting_and_reductions", "q4", namespace)[0]
    assert "'Tensor' object has no attribute 'backward'" in failure
    assert failure.endswith("unbroadcast is graded on tensors without autograd: sum by hand")


@pytest.mark.parametrize("line", ["grad.requires_grad = True", "grad.grad = grad",
                                  "print(grad.grad)", "grad.requires_grad_()"])
def test_a2_each_spelling_of_autograd_is_refused_with_the_reason(line):
    """The attribute spellings too (they were kept silently: ``grad.requires_grad = True``
    passed, and the answer was graded as if nothing had been asked)."""
    body = ("    while grad.dim() > len(shape):\n        grad = grad.sum(dim=0)\n"
            "    for i, n in enumerate(shape):\n        if n == 1:\n"
            "            grad = grad.sum(dim=i, keepdim=True)\n    return grad")
    right_answer = _a2({"q4_answer": f"def unbroadcast(grad, shape):\n{body}"})
    assert _failures("broadcasting_and_reductions", "q4", right_answer) == []
    namespace = _a2({"q4_answer": f"def unbroadcast(grad, shape):\n    {line}\n{body}"})
    failures = _failures("broadcasting_and_reductions", "q4", namespace)
    assert failures and all("autograd is not available here" in f and f.endswith(
        "unbroadcast is graded on tensors without autograd: sum by hand") for f in failures)


def test_a2_requires_grad_false_and_reading_it_are_fine_without_autograd():
    from grader import forward_only

    grad = forward_only.tensor([[1.0, 2.0]])
    grad.requires_grad = False
    assert grad.requires_grad is False and not hasattr(grad, "grad")
    with pytest.raises(AttributeError):
        grad.mine = 1  # a tensor keeps no attribute of an answer's own


@pytest.mark.parametrize("expression", ["x * 2", "x / 3", "2.5 - x", "x + True", "x ** 2",
                                        "n * 2"])
def test_tensors_without_autograd_keep_pytorchs_dtype_with_python_numbers(expression):
    """(A float32 tensor times 2 was float64: NumPy 2 takes a 0-d array's dtype, where
    PyTorch and NumPy keep the tensor's for a Python number.)"""
    import torch

    from grader import forward_only

    ours = eval(expression, {"x": forward_only.tensor([1.0, 2.0]),
                             "n": forward_only.tensor([1, 2])})
    theirs = eval(expression, {"x": torch.tensor([1.0, 2.0]), "n": torch.tensor([1, 2])})
    assert repr(ours.dtype) == repr(theirs.dtype)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize("expression", [
    "x * 0.1 + n", "n * 2.5", "n / n", "n / 2", "3 / n", "x + d0", "n + d0", "d * n",
    "b0 + n", "b + 1", "b + True", "b * 2.5", "n == 2.5", "2.5 - n", "n.exp()",
    "torch.sqrt(b)", "n.sum()", "b.sum()", "x.tanh()", "torch.cos(n)"])
def test_tensors_without_autograd_promote_dtypes_as_pytorch(expression):
    """PyTorch's type promotion, not NumPy's: a float32 tensor plus an int64 one is
    float32 (NumPy: float64), integers divided or given to exp are float32, a 0-dim
    tensor of a higher category gives its own dtype."""
    import torch

    from grader import forward_only

    def names(m):
        return {"x": m.tensor([1.0, 2.0]), "n": m.tensor([1, 2]), "b": m.tensor([True, False]),
                "d": m.tensor([1.0, 2.0], dtype=m.float64), "b0": m.tensor(True),
                "d0": m.tensor(2.5, dtype=m.float64), "torch": m}

    ours, theirs = eval(expression, names(forward_only)), eval(expression, names(torch))
    assert repr(ours.dtype) == repr(theirs.dtype)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_tensors_without_autograd_compare_with_none_as_before():
    """``grad == None`` in an answer (not a number: no promotion) compares as NumPy's
    operators do, as before PyTorch's promotion was added: all False, no error."""
    from grader import forward_only

    grad = forward_only.tensor([1.0, 2.0])
    assert not (grad == None).numpy().any() and (grad != None).numpy().all()  # noqa: E711


def test_the_mean_of_integers_is_refused_as_pytorch_refuses_it():
    import torch

    from grader import forward_only

    with pytest.raises(RuntimeError) as theirs:
        torch.tensor([1, 2]).mean()
    with pytest.raises(RuntimeError, match=re.escape(str(theirs.value))):
        forward_only.tensor([1, 2]).mean()


def test_hidden_inputs_are_stable_per_student_and_differ_between_students():
    source = load_source(BY_ASSIGNMENT["derive_it_by_hand"])
    question = source.assignment.question("q1")
    alice = inputs(source, question, "alice", {})
    assert alice == inputs(load_source(BY_ASSIGNMENT["derive_it_by_hand"]), question, "alice",
                           {})
    assert alice["hidden"] != inputs(source, question, "bob", {})["hidden"]
    assert alice["public"] == inputs(source, question, "bob", {})["public"]
    salted = load_source(BY_ASSIGNMENT["derive_it_by_hand"], salt="a private text")
    assert inputs(salted, question, "alice", {})["hidden"] != alice["hidden"]


def test_every_student_has_numbers_of_their_own():
    for name in BY_ASSIGNMENT:
        assignment = find_assignment(name)
        drawn = [assignment.variant_for(f"student{i}") for i in range(40)]
        assert assignment.variant.default not in drawn  # the published solution answers none
        assert len({json.dumps(d, sort_keys=True) for d in drawn}) >= 6, name
        assert assignment.variant_for("ada") == assignment.variant_for("ada")


def test_every_assignment_is_registered_once():
    names = [find_assignment(n).name for n in BY_ASSIGNMENT]
    assert names == list(BY_ASSIGNMENT)
    with pytest.raises(KeyError, match="no question module nope.py among the kit's "
                                       "assignments \\(backprop_by_hand, broadcasting_and_"):
        find_assignment("nope")


def test_a_judge_that_crashes_is_a_failed_check():
    question = find_assignment("derive_it_by_hand").question("q1")
    found = judge(question, {"unexpected": True}, [[0.0]], {"a": 1, "b": 1, "c": 1})
    assert not found[0].ok and found[0].text.startswith("could not check q1: KeyError")
    assert judge(question, ["not", "a", "dict"], [0.0], {})[0].text == (
        "the grader received no usable data for this question")


def test_a_remembered_slope_survives_a_full_memory():
    """The slopes autograd showed are remembered (``_SLOPES``) for a check after backward()
    has freed the graph; once 256 are kept the oldest go, one by one. Clearing them all at
    once dropped, now and then, the slope q2's check had just remembered: the right
    answers failed q2 ("autograd could not show how y was made from x") once enough other
    checks had run in the process (a notebook run again and again, or a test worker)."""
    extract = find_assignment("tensors_and_gradients").questions[1].extract
    slope, remembered = extract.__globals__["_slope"], extract.__globals__["_SLOPES"]
    others = [minigrad.ones(1, requires_grad=True) for _ in range(256)]
    for other in others:  # (the memory full: what earlier checks showed)
        slope(other, other * 1)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    shown = slope(x, y)  # (q2's check, right after its cell)
    z = minigrad.ones(1, requires_grad=True)
    slope(z, z * 1)  # (q3's check)
    y.sum().backward()  # (frees y's graph: autograd can no longer say)
    assert slope(x, y) is shown
    # (a quotient along a random direction, d(y · v)/dx / v: 3 to float32's rounding)
    assert np.allclose(shown.numpy(), [3.0, 3.0], rtol=1e-6, atol=0)
    assert len(remembered) <= 256
