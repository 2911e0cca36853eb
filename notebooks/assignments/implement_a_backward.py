"""Assignment 4 · Implement a backward: the backward of σ(k·x), tanh(s·x) and softmax(x/T)
as formulas.

The locked cell ``functions`` defines the three forwards with the student's own numbers
k, s, T (the variant). Each forward saves its input ``x`` and its output ``y``; the student
writes the backward as a **formula** in ``x``, ``y`` and ``grad_output`` (the gradient
with respect to ``y``), and a locked cell builds a working ``Function`` from it
(``grader.formula``), which the notebook runs and checks with gradcheck.

The answer is data, read from the notebook's text and evaluated by the grader itself
(``formula.py``): at inputs and output gradients drawn for each student, in float64,
against autograd's vector-Jacobian product of the same forward (``FORWARDS``); then at
200 digits, along a direction drawn by the grader, where a finite difference (or any
approximation that fits in a formula) falls short of the 190 digits an exact backward
reaches (``exact.py``). A formula may not name the function it differentiates, and
cannot call autograd: nothing but the formula reaches the grader.
"""

from __future__ import annotations

import numpy as np

from grader.data import read
from grader.formula import TENSOR, parse
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import exact_projection, judge_formula
from grader.questions import DATA, Answer, Assignment, Finding, Question, Variant

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)

# The forwards of the cell `functions`, as formulas in x and the student's numbers.
FORWARDS = {"q1": ("1 / (1 + exp(-k * x))", "k"), "q2": ("tanh(s * x)", "s"),
            "q3": ("softmax(x / T, -1)", "T")}
# What a backward may use: elementary functions and reductions, never the function itself.
ALLOWED = ("exp", "log", "sqrt", "sum", "mean", "max")
VARIABLES = ("x", "y", "grad_output")
PUBLIC = [{"x": [-2.0, -0.5, 0.0, 0.5, 3.0], "grad_output": [1.0, -2.0, 0.5, 1.5, -1.0]},
          {"x": [[0.1, -1.2, 2.0], [0.7, 1.5, -0.3]],
           "grad_output": [[1.0, 0.0, -1.0], [0.5, 2.0, -0.5]]}]


def draw_numbers(rng: np.random.Generator) -> dict:
    """The student's k, s and T (never the notebook's 1, 1, 1)."""
    return {"k": float(rng.choice([0.5, 2.0, 3.0])), "s": float(rng.choice([0.5, 2.0, 3.0])),
            "T": float(rng.choice([0.5, 2.0, 4.0]))}


def _hidden(rng: np.random.Generator, numbers: dict) -> list:
    draws = []
    for shape in ((3, 4), (6,)):
        draws.append({"x": rng.normal(0, 1.5, shape).round(4).tolist(),
                      "grad_output": rng.normal(0, 1, shape).round(4).tolist(),
                      "direction": rng.normal(0, 1, shape).round(4).tolist()})
    return draws


def _read(name: str):
    def extract(namespace, inputs):
        return {name: read(namespace, name)}
    return extract


def forward(question: str):
    text, number = FORWARDS[question]
    return parse(text, ("x", number), TENSOR), number


def vector_jacobian(question: str, x: np.ndarray, grad_output: np.ndarray,
                    numbers: dict) -> tuple[np.ndarray, np.ndarray]:
    """The forward's output y and grad_output's product with its Jacobian, by minigrad's
    autograd (float64)."""
    import minigrad

    function, number = forward(question)
    leaf = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    y = function.on_tensors(minigrad, x=leaf, **{number: numbers[number]})
    y.backward(minigrad.tensor(grad_output, dtype=minigrad.float64))
    return y.detach().numpy().astype(np.float64), leaf.grad.numpy().astype(np.float64)


def _judge(question: str, answer: Answer):
    def judge(data, inputs, env) -> list[Finding]:
        function, number = forward(question)
        numbers = {number: env[number]}
        findings = []
        for drawn in inputs:
            x = np.array(drawn["x"], dtype=np.float64)
            grad_output = np.array(drawn["grad_output"], dtype=np.float64)
            y, expected = vector_jacobian(question, x, grad_output, numbers)
            values = {"x": x, "y": y, "grad_output": grad_output}
            direction = np.array(drawn.get("direction", np.ones(x.shape)), dtype=np.float64)
            exact = _exactness(answer.name, function, values, numbers, direction)
            on = _("on an input of shape {shape}").format(shape=tuple(x.shape))
            found = judge_formula(answer, data[answer.name], values, expected,
                                  where=lambda index: _("at index {index} {on}").format(
                                      index=index, on=on), exact=exact)
            findings += found
            if not all(f.ok for f in found):
                break  # one input's feedback is enough
        return findings
    return judge


def _exactness(name: str, function, values: dict, numbers: dict, direction: np.ndarray):
    """The formula, at 200 digits with the exact output y, against the derivative of
    sum(grad_output * forward(x)) along ``direction``."""
    from grader.exact import DIGITS, MPMATH, precision

    def check(formula):
        with precision(DIGITS):
            y = function.exact(x=values["x"], **numbers)
        exact_values = {"x": values["x"], "y": y, "grad_output": values["grad_output"],
                        **numbers}

        def loss(v):
            return np.sum(function.exact(x=v["x"], **numbers)
                          * MPMATH.array(values["grad_output"]))
        return exact_projection(name, exact_values, loss, "x", direction)(formula)
    return check


def _question(grade_id, title, name):
    answer = Answer(name, VARIABLES, ALLOWED)
    return Question(grade_id, title, _read(name), _judge(grade_id, answer), public=PUBLIC,
                    hidden=_hidden, answers=(answer,), kind=DATA)


ASSIGNMENT = Assignment(
    name="implement_a_backward",
    title=N_("Implement a backward"),
    questions=(
        _question("q1", N_("The backward of σ(k·x)"), "sigmoid_backward"),
        _question("q2", N_("The backward of tanh(s·x)"), "tanh_backward"),
        _question("q3", N_("The backward of softmax(x / T) over the last dimension"),
                  "softmax_backward"),
    ),
    variant=Variant(default={"k": 1.0, "s": 1.0, "T": 1.0}, draw=draw_numbers),
)
