"""Assignment 2 · Derive it by hand.

The notebook's locked cell ``expressions`` defines f, g, h (one input) and k
(two inputs). The student writes each derivative as a **formula in quotes**
(``df = "3*x**2 - 2"``; for k both partials, ``dk_dx`` and ``dk_dy``). The
answer is data: the grader reads it from the notebook's text, parses it with
the restricted parser of ``formula.py`` (no eval; numbers, the variables,
+ - * / ** and the functions the question allows) and evaluates it in
float64 at points drawn for each student, against autograd on the
teacher's ``expressions`` cell run in its own process. A formula cannot call
autograd or the notebook's functions, so neither autograd nor finite
differences of f can answer; the tolerance (1e-9) is far below what central
differences reach, and a formula holding a tiny step (< 1e-3) is refused.
"""

from __future__ import annotations

import numpy as np

from grader.data import read
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import autograd_gradient, judge_formula
from grader.questions import Assignment, Finding, Question

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)

PUBLIC_X = [-2.0, -0.5, 0.0, 1.0, 2.5]
PUBLIC_Y = [1.5, -1.0, 2.0, 0.5, -2.5]


def _hidden(arity: int):
    def draw(rng: np.random.Generator) -> list:
        return [rng.uniform(-3, 3, 25).round(4).tolist() for _ in range(arity)]
    return draw


def _read(*names: str):
    """check() in the kernel reads the same names the grader reads from the text."""
    def extract(namespace, inputs):
        return {name: read(namespace, name) for name in names}
    return extract


def _judge(expression: str, answers: tuple, functions: tuple):
    """Compare each formula with autograd's gradient of ``expression`` at the points."""
    variables = ("x", "y")[:len(answers) if len(answers) > 1 else 1]

    def judge(data, inputs, env) -> list[Finding]:
        if expression not in env:
            return [Finding(False, _("{name} is not defined — run the cell that defines the "
                                     "expressions").format(name=expression))]
        arrays = [np.array(points, dtype=np.float64) for points in inputs]
        expected = autograd_gradient(lambda *xs: env[expression](*xs).sum(), arrays)
        allowed = {name: ALLOWED[name] for name in functions}

        def where(index):
            return _("at {point}").format(point=", ".join(
                f"{variables[i]} = {a[index]:.4g}" for i, a in enumerate(arrays)))

        findings = []
        for name, reference in zip(answers, expected):
            findings += judge_formula(name, data[name], variables, allowed, arrays, reference,
                                      where)
        return findings
    return judge


ALLOWED = {"sin": np.sin, "cos": np.cos, "exp": np.exp, "log": np.log, "tanh": np.tanh,
           "cosh": np.cosh}


def _question(name, title, expression, answers, functions=()):
    arity = 2 if len(answers) == 2 else 1
    public = [PUBLIC_X, PUBLIC_Y][:arity]
    return Question(name, title, _read(*answers), _judge(expression, answers, functions),
                    public=public, hidden=_hidden(arity), answers=answers)


ASSIGNMENT = Assignment(
    name="derive_it_by_hand",
    title=N_("Derive it by hand"),
    questions=(
        _question("q1", N_("df/dx for f(x) = x³ − 2x"), "f", ("df",)),
        _question("q2", N_("dg/dx for g(x) = sin(x)·eˣ"), "g", ("dg",), ("sin", "cos", "exp")),
        _question("q3", N_("dh/dx for h(x) = log(1 + x²)"), "h", ("dh",), ("log",)),
        _question("q4", N_("∂k/∂x and ∂k/∂y for k(x, y) = x·y² + tanh(x)"), "k",
                  ("dk_dx", "dk_dy"), ("tanh", "cosh")),
    ),
    context=("setup", "expressions"),
)
