"""Assignment 1 · Derive it by hand.

The notebook's locked cell ``expressions`` defines f, g, h (one input) and k (two inputs)
with the student's own numbers a, b, c (the variant, drawn per student). The student
writes each derivative as a **formula in quotes**; for k both partials, ``dk_dx`` and
``dk_dy``. The answer is data: the grader reads it from the notebook's text, parses it
with the restricted parser of ``formula.py`` (no eval) and evaluates it itself, in
float64 at points drawn for each student, against autograd on the same expression
(``EXPRESSIONS``, the cell's functions written as formulas). A formula cannot call
autograd or the notebook's functions. It must also be the derivative itself: evaluated
with 200 digits it must agree with the true derivative to 190 (``exact.py``), which no
finite difference or stencil that fits in a formula reaches. Every function holds a sine,
a logarithm or a tanh, so that no stencil is exact by accident (as a five-point stencil
is on a cubic).
"""

from __future__ import annotations

import numpy as np

from grader.data import read
from grader.formula import ELEMENTARY, parse
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import exact_elementwise, judge_formula
from grader.questions import DATA, Answer, Assignment, Finding, Question, Variant

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)

PUBLIC_X = [-2.0, -0.5, 0.0, 1.0, 2.5]
PUBLIC_Y = [1.5, -1.0, 2.0, 0.5, -2.5]
NUMBERS = ("a", "b", "c")
# The functions of the cell `expressions`, as formulas in their inputs and the numbers.
EXPRESSIONS = {
    "f": ("a*x**3 + b*x + sin(c*x)", ("x",)),
    "g": ("sin(c*x) * exp(b*x)", ("x",)),
    "h": ("log(a + c*x**2)", ("x",)),
    "k": ("a*x*y**2 + tanh(b*x + c*y)", ("x", "y")),
}


def draw_numbers(rng: np.random.Generator) -> dict:
    """The student's a, b, c (never the notebook's 1, 1, 1)."""
    return {"a": int(rng.choice([2, 3, 4])), "b": int(rng.choice([-3, -2, 2, 3])),
            "c": int(rng.choice([2, 3]))}


def _hidden(arity: int):
    def draw(rng: np.random.Generator, numbers: dict) -> list:
        return [rng.uniform(-2, 2, 25).round(4).tolist() for _ in range(arity)]
    return draw


def _read(*names: str):
    """check() in the kernel reads the same names the grader reads from the text."""
    def extract(namespace, inputs):
        return {name: read(namespace, name) for name in names}
    return extract


def expression(name: str):
    """The function ``name`` as a formula in its inputs and the numbers a, b, c."""
    text, inputs = EXPRESSIONS[name]
    return parse(text, inputs + NUMBERS, ELEMENTARY)


def derivatives(name: str, arrays: list, numbers: dict) -> list[np.ndarray]:
    """d name / d each input at ``arrays``, by minigrad's autograd (float64)."""
    import minigrad

    inputs = EXPRESSIONS[name][1]
    leaves = [minigrad.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)
              for a in arrays]
    value = expression(name).on_tensors(minigrad, **dict(zip(inputs, leaves)), **numbers)
    grads = minigrad.autograd.grad(value.sum(), leaves, allow_unused=True,
                                   materialize_grads=True)
    return [g.detach().numpy().astype(np.float64) for g in grads]


def _judge(name: str, answers: tuple):
    """Each formula against autograd's derivative of ``name``, then its exactness."""
    inputs = EXPRESSIONS[name][1]

    def judge(data, points, env) -> list[Finding]:
        numbers = {n: env[n] for n in NUMBERS}
        arrays = [np.array(p, dtype=np.float64) for p in points]
        values = dict(zip(inputs, arrays))
        reference = expression(name)

        def where(index):
            return _("at {point}").format(point=", ".join(
                f"{variable} = {a[index]:.4g}" for variable, a in zip(inputs, arrays)))

        findings = []
        for answer, variable, expected in zip(answers, inputs,
                                              derivatives(name, arrays, numbers)):
            exact = exact_elementwise(answer.name, {**values, **numbers},
                                      lambda v: reference.exact(**v), variable)
            findings += judge_formula(answer, data[answer.name], values, expected,
                                      where=where, exact=exact)
        return findings
    return judge


def _question(grade_id, title, name, answer_names):
    inputs = EXPRESSIONS[name][1]
    answers = tuple(Answer(a, inputs, ELEMENTARY) for a in answer_names)
    return Question(grade_id, title, _read(*answer_names), _judge(name, answers),
                    public=[PUBLIC_X, PUBLIC_Y][:len(inputs)], hidden=_hidden(len(inputs)),
                    answers=answers, kind=DATA)


ASSIGNMENT = Assignment(
    name="derive_it_by_hand",
    title=N_("Derive it by hand"),
    questions=(
        _question("q1", N_("df/dx for f(x) = a·x³ + b·x + sin(c·x)"), "f", ("df",)),
        _question("q2", N_("dg/dx for g(x) = sin(c·x)·exp(b·x)"), "g", ("dg",)),
        _question("q3", N_("dh/dx for h(x) = log(a + c·x²)"), "h", ("dh",)),
        _question("q4", N_("∂k/∂x and ∂k/∂y for k(x, y) = a·x·y² + tanh(b·x + c·y)"), "k",
                  ("dk_dx", "dk_dy")),
    ),
    variant=Variant(default={"a": 1, "b": 1, "c": 1}, draw=draw_numbers),
)
