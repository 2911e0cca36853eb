"""The student's side: start(), check() and check_all(), run here with an explicit namespace.

(In a notebook they read the caller's globals; the release checks run them in real kernels.)
"""

import minigrad
import pytest

from grader import check, check_all, start, student
from grader.questions import find_assignment


@pytest.fixture
def tensors():
    start("tensors_and_gradients")
    x = minigrad.ones(5, 5, requires_grad=True)
    y = x * 2
    return {"x": x, "total": x.sum(), "y": y, "z": y.sum()}


def test_start_says_what_to_do(capsys):
    start("derive_it_by_hand")
    assert capsys.readouterr().out == (
        'Assignment: Derive it by hand. check("q1") runs the public checks of one question '
        "(q1, q2, q3,\nq4); check_all() runs them all.\n"
        "Your own numbers (the cells below use them): a = 1, b = 1, c = 1\n")


def test_start_draws_the_students_own_numbers(capsys):
    """check() judges with the numbers the grader draws for the student (the notebook's
    locked cells show the same ones, written in at release)."""
    start("tensors_and_gradients", student="ada")
    mine = find_assignment("tensors_and_gradients").variant_for("ada")
    shown = ", ".join(f"{k} = {v}" for k, v in mine.items())
    assert capsys.readouterr().out.endswith(f"numbers (the cells below use them): {shown}\n")
    rows, columns = mine["shape"]
    x = minigrad.ones(5, 5, requires_grad=True)
    with pytest.raises(AssertionError, match=rf"x has shape \(5, 5\) but expected "
                                             rf"\({rows}, {columns}\)"):
        check("q1", namespace={"x": x, "total": x.sum()})


def test_check_reports_public_checks_passed(tensors, capsys):
    check("q1", namespace=tensors)
    out = capsys.readouterr().out
    assert out.startswith("q1 · A tensor that requires grad, and its sum: public checks passed\n"
                          "  ✓ x has shape (5, 5)\n  ✓ x requires grad\n")
    assert out.endswith("Your teacher's grader adds hidden tests.\n")
    assert "all tests passed" not in out.lower()


def test_check_raises_with_the_first_hint(tensors, capsys):
    with pytest.raises(AssertionError, match=r"^q3: x.grad is None — did you call backward\(\)"):
        check("q3", namespace=tensors)
    assert "q3 · retain_grad() and backward(): 3 of 3 public checks failed" in (
        capsys.readouterr().out)


def test_check_reads_the_callers_globals(tensors, capsys):
    code = "x = ones(5, 5, requires_grad=True)\ntotal = x.sum()\ncheck('q1')"
    exec(code, {"ones": minigrad.ones, "check": check})
    assert "public checks passed" in capsys.readouterr().out


def test_check_all_has_one_line_per_question(tensors, capsys):
    check("q2", namespace=tensors)  # (the notebook's check right after q2's cell: autograd's
    capsys.readouterr()  # slope for these tensors is remembered past backward())
    tensors["z"].backward()
    check_all(namespace=tensors)
    assert capsys.readouterr().out.splitlines() == [
        "✓ q1 · A tensor that requires grad, and its sum: public checks passed",
        "✓ q2 · Multiply, then sum: public checks passed",
        "✗ q3 · retain_grad() and backward(): 2 of 3 public checks failed",
        "    y.grad is None — call y.retain_grad() before z.backward(): a tensor made by an "
        "operation",
        "    keeps its gradient only when asked",
        "Public checks passed for 2 of 3 questions. Your teacher's grader adds hidden tests.",
        "Written answers (q4) are read by your teacher."]


def test_written_answers_and_unknown_questions(tensors, capsys):
    check("q4", namespace=tensors)
    assert "a written answer, read by your teacher" in capsys.readouterr().out
    with pytest.raises(KeyError, match="has no question 'q9'; its questions are 'q1', 'q2', 'q3'"):
        check("q9", namespace=tensors)


def test_check_before_start(monkeypatch):
    monkeypatch.setattr(student, "_current", None)
    with pytest.raises(RuntimeError, match=r"run the notebook's first cell, which calls start"):
        check("q1", namespace={})


def test_feedback_renders_as_html(tensors):
    feedback = student._feedback(student._current, "q3", tensors)
    html = feedback._repr_html_()
    assert "✗ x.grad is None — did you call backward()?" in html and "#b00020" in html


def test_a_failed_check_is_one_line_in_a_notebook(tensors):
    """(Issue 33: a failing check() printed a traceback into grader/student.py under the
    feedback.) IPython renders an exception with _render_traceback_ as what it returns."""
    with pytest.raises(student.CheckFailed) as caught:
        check("q3", namespace=tensors)
    assert isinstance(caught.value, AssertionError)  # (nbgrader counts the cell as failed)
    lines = caught.value._render_traceback_()
    assert len(lines) == 1 and "q3: x.grad is None" in lines[0]
    assert "student.py" not in "".join(lines)


def test_from_formula_computes_the_answer_and_says_what_to_do_without_it(capsys):
    """from_formula (assignments 4 and 5: the answer built into a Function, the hidden tests)
    reads the formula from the caller's globals; a student who ran the unanswered cell gets
    the same words as check()."""
    from grader import from_formula

    start("implement_a_backward")
    x, y = minigrad.tensor([0.0, 1.0]), minigrad.tensor([0.25, 0.5])
    grad_output = minigrad.tensor([1.0, 2.0])
    code = "got = from_formula('sigmoid_backward', x=x, y=y, grad_output=grad_output)"
    names = {"from_formula": from_formula, "x": x, "y": y, "grad_output": grad_output,
             "sigmoid_backward": "grad_output * y * (1 - y)"}
    exec(code, names)
    assert names["got"].tolist() == (grad_output * y * (1 - y)).tolist()
    del names["sigmoid_backward"]
    with pytest.raises(NameError, match=r"^sigmoid_backward is not defined — write it in its "
                                        r"answer cell \(in place of `raise NotImplementedError"
                       ) as caught:
        exec(code, names)
    # (raised inside backward by assignment 4's gradcheck: one line, not the engine's frames)
    shown = caught.value._render_traceback_()
    assert len(shown) == 1 and "NameError: sigmoid_backward is not defined" in shown[0]


def test_printed_lines_break_at_spaces_never_inside_a_number(capsys):
    """JupyterLab breaks a line of plain output wider than the notebook at any character: a
    release's "T = 0.5" showed as "T = 0." over "5" (audit 19, assignment 5 at 1280 px).
    What start(), check_all() and a failed check print is wrapped at spaces, within WIDTH."""
    start("backprop_by_hand", student="alice")
    out = capsys.readouterr().out
    assert all(len(line) <= student.WIDTH for line in out.splitlines())
    drawn = find_assignment("backprop_by_hand").variant_for("alice")
    assert all(f"{name} = {value}" in out for name, value in drawn.items())  # never "s =\n2.0"
    failed = student.CheckFailed("q1: " + "dlogprobs is wrong at 32 of 640 values; " * 5)
    shown = failed._render_traceback_()
    assert len(shown) == 1 and shown[0].count("\n") >= 2
    assert all(len(line) <= student.WIDTH for line in shown[0].strip("\x1b[0;31m").split("\n"))
