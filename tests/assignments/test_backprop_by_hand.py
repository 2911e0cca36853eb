"""Assignment 5 (backprop by hand), in-process: each gradient's feedback says which gradient
is wrong and why (shape or value, and the classic slip when its numbers show one), the
variant changes the answers, and a formula that is right only on the notebook's own batch,
or only approximately, earns nothing.

Every wrong answer here is one slip away from a right answer for the student's own numbers
(``keys.backprop_by_hand``), so the hint is tested on the mistake it names.
"""

import pytest
from keys import backprop_by_hand, numbers, right
from test_questions import _failures, _student

from grader.questions import find_assignment

NAME = "backprop_by_hand"


def _slip(student, question, old, new):
    """The failures of ``question`` when the right answer's ``old`` is written ``new``."""
    answers = right(NAME, student)
    cell = f"{question}_answer"
    assert old in answers[cell], (old, answers[cell])
    answers[cell] = answers[cell].replace(old, new)
    return _failures(NAME, question, _student(NAME, student, answers), student)


def _student_with(**wanted):
    """A student whose drawn numbers include ``wanted``."""
    for i in range(200):
        student = f"student{i}"
        drawn = numbers(NAME, student)
        if all(drawn[k] == v for k, v in wanted.items()):
            return student
    raise AssertionError(wanted)


MEAN = _student_with(reduction="mean", hidden=24)  # (hidden != 32, the public batch's n)


@pytest.mark.parametrize("question, old, new, said", [
    ("q1", ' / n"', '"', "yours is n times autograd's: a division by n forgotten"),
    ("q2", '(counts * dprobs).sum(1, keepdim=True)', '(counts * dprobs).sum(1)',
     "the summed dimension is gone: keep it with sum(..., keepdim=True)"),
    ("q2", ' + dcounts_sum"', '"', "the tensor is used 2 times (counts_sum, probs): the "
                                   "gradients from every use add up"),
    ("q6", '"dhpre @ W1.T', '"-dhpre @ W1.T', "the sign is flipped"),
    ("q4", 'dlogits.sum(0)', 'dlogits', "db2 has the shape of what the tensor was broadcast "
                                        "to"),
    ("q4", 'h.T @ dlogits', 'dlogits.T @ h', "transposed"),
    ("q6", 'dhpre.sum(0)', 'dhpre.sum(1)', "a sum over the wrong dimension?"),
])
def test_a_classic_slip_gets_its_hint(question, old, new, said):
    failures = _slip(MEAN, question, old, new)
    assert failures and all(said in f for f in failures), failures
    assert failures[0].startswith("d"), failures  # names the wrong gradient first


def test_the_temperature_forgotten_is_named():
    # (the division by T forgotten: the hint said only "a factor T too many?", which the
    # student never wrote; audit 19)
    student = _student_with(T=4.0)
    failures = _slip(student, "q4", ' / 4.0"', '"', )
    assert failures and ("yours is T times autograd's: a division by T missing, or a factor T "
                         "too many?") in failures[0]


def test_lesson_10s_answer_for_a_summed_weighted_loss_is_told_both_factors():
    """Lesson 10's ``-1.0 * one_hot(Y, vocab) / n`` copied by a student whose loss is the sum
    times w: off by 1/(n·w), which was "a constant factor is off" (audit 19)."""
    student = _student_with(reduction="sum", w=3.0)
    failures = _slip(student, "q1", '"-3.0 * one_hot(Y, vocab)"',
                     '"-1.0 * one_hot(Y, vocab) / n"')
    assert failures and ("yours is 1/(n·w) times autograd's: look at the factors n and w"
                         in failures[0]), failures


def test_a_factor_is_named_among_the_numbers_its_gradient_can_have():
    """With w = s = 0.5, dlogprobs without its w is twice autograd's: that is w (the loss's
    weight), not s, which no step after logprobs has (it was called "divided by s")."""
    student = _student_with(reduction="mean", w=0.5, s=0.5)
    failures = _slip(student, "q1", '"-0.5 * one_hot(Y, vocab) / n"', '"-one_hot(Y, vocab) / n"')
    assert failures and "yours is autograd's divided by w: a factor w missing" in failures[0], \
        failures


def test_a_wrong_shape_says_shape_and_a_wrong_value_says_where():
    shape = _slip(MEAN, "q4", "dlogits @ W2.T", "dlogits @ W2")
    assert "dh" in shape[0] and "shape" in shape[0], shape
    value = _slip(MEAN, "q5", "(1 - h**2)", "(1 - h)")
    assert value[0].startswith("dhpre") and "a batch of n = " in value[0], value


def test_only_the_wrong_gradient_of_a_question_is_reported():
    failures = _slip(MEAN, "q6", "dhpre @ W1.T", "dhpre @ W1.T * 7")
    assert failures and all(f.startswith("dembcat is wrong") for f in failures), failures


def test_the_variant_changes_the_answers_of_q1_q4_q5_q7():
    drawn = {s: numbers(NAME, s) for s in (f"student{i}" for i in range(40))}
    assert {d["reduction"] for d in drawn.values()} == {"mean", "sum"}
    assert len({(d["s"], d["T"]) for d in drawn.values()}) >= 5
    one, other = next((a, b) for a in drawn for b in drawn
                      if all(drawn[a][k] != drawn[b][k] for k in ("s", "T", "reduction")))
    theirs = backprop_by_hand(drawn[other])
    namespace = _student(NAME, one, theirs)
    for question in ("q1", "q4", "q5", "q7"):
        assert _failures(NAME, question, namespace, one), question


def test_sizes_written_as_numbers_hold_only_for_the_notebook_batch():
    # n written as the notebook's 32: right on the public batch, wrong on the grader's.
    failures = _slip(MEAN, "q1", ' / n"', ' / 32"')
    assert failures and "dlogprobs" in failures[0]
    vocab = numbers(NAME, MEAN)["vocab"]
    failures = _slip(MEAN, "q7", "one_hot(Y, vocab)", f"one_hot(Y, {vocab})")
    assert failures and "write the sizes by name" in failures[0], failures


def test_an_approximation_is_not_the_gradient():
    s = numbers(NAME, MEAN)["s"]
    # tanh's derivative by a difference quotient: within 1e-9 in float64, not at 200 digits
    quotient = (f'(tanh({s} * hpre + 1e-11) - tanh({s} * hpre - 1e-11)) / 2e-11'
                .replace("hpre", "(hpre)"))
    failures = _slip(MEAN, "q5", f'{s} * (1 - h**2)', f"{s} * {quotient}")
    assert failures and ("approximation" in failures[0] or "autograd gives" in failures[0])


@pytest.mark.parametrize("formula", [
    "torch.autograd.grad(loss, hpre)", "__import__('os')", "dh.grad", "np.ones(1)",
    "loss.backward()", "open('x')", "dhpre", "dW1 * 0"])
def test_a_formula_outside_the_language_is_refused(formula):
    failures = _slip(MEAN, "q5", _q5(MEAN), formula)
    assert failures and failures[0].startswith("dhpre"), failures


def _q5(student):
    return right(NAME, student)["q5_answer"].split('"')[1]



def test_the_hidden_tests_hand_a_formula_what_it_may_name_and_no_more():
    """The instructor notebook's helper (nbgrader's hidden tests evaluate each formula on its
    values) handed ``s`` but not ``T`` and ``w`` (audit 18): a leftover from before ``s`` was
    written as the student's number. It hands the names a formula may use, the sizes the
    assignment's text names, and the labels; ``s``, ``T`` and ``w`` are written as numbers."""
    import ast

    import nbformat
    from assignment_files import BY_ASSIGNMENT

    answer = find_assignment(NAME).answer("dC")  # (the last: it may name the most)
    may = set(answer.variables) | set(answer.labels)
    cells = nbformat.read(BY_ASSIGNMENT[NAME], as_version=4).cells
    helper = next(c.source for c in cells if c.get("metadata", {}).get("nbgrader", {})
                  .get("grade_id") == "helpers")
    handed = {keyword.arg for node in ast.walk(ast.parse(helper))
              if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "update"
              for keyword in node.keywords if keyword.arg}
    sizes = {"n", "vocab", "dims", "block", "hidden"}
    assert sizes | {"X", "Y"} <= handed <= may, (handed, may)
    assert not may & {"s", "T", "w"}
    intro = cells[0].source
    assert all(f"`{size}`" in intro for size in sizes) and "`s`, `T` and `w` as numbers" in intro


def test_a_formula_that_names_s_is_told_to_write_the_number():
    """Only n and the sizes may be named; s, T and w are the student's numbers. The refusal
    listed what a formula may use without saying why s was not there: it now says to write
    the number (the student's own)."""
    s = numbers(NAME, MEAN)["s"]
    failures = _slip(MEAN, "q5", f'"{s} * (1 - h**2)', '"s * (1 - h**2)')
    assert failures and f"write your own numbers, not their names: s = {float(s)}" in failures[0]
    assert "T = " not in failures[0]
    other = _slip(MEAN, "q5", f'"{s} * (1 - h**2)', '"q * (1 - h**2)')  # another name: as before
    assert other and "not their names" not in other[0]
