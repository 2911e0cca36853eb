"""Assignment 2 · Derive it by hand.

The notebook's locked cell ``expressions`` defines f, g, h (one input) and k
(two inputs). The student writes their derivatives as functions: ``df``,
``dg``, ``dh`` and ``grad_k`` (returning dk/dx and dk/dy). The grader runs
the teacher's ``expressions`` cell in its own process and compares the
student's values with autograd's at points drawn for each student, so an
answer cannot be hard-coded.
"""

from __future__ import annotations

import numpy as np

from ..data import attempt, read
from ..questions import Assignment, Finding, Question
from .common import as_array, autograd_gradient, compare, problem

PUBLIC_X = [-2.0, -0.5, 0.0, 1.0, 2.5]
PUBLIC_Y = [1.5, -1.0, 2.0, 0.5, -2.5]


def _hidden(arity: int):
    def draw(rng: np.random.Generator) -> list:
        return [rng.uniform(-3, 3, 25).round(4).tolist() for _ in range(arity)]
    return draw


def _extract(name: str):
    """Call the student's function once, on a float64 tensor per argument."""
    def extract(namespace, inputs):
        import minigrad
        args = [minigrad.tensor(np.array(points, dtype=np.float64)) for points in inputs]
        return {"result": attempt(read(namespace, name), *args)}
    return extract


def _judge(expression: str, answer: str, partials: tuple):
    """Compare ``answer(*points)`` with autograd's gradient of ``expression`` there."""
    def judge(data, inputs, env) -> list[Finding]:
        if expression not in env:
            return [Finding(False, f"{expression} is not defined — run the cell that defines "
                                   "the expressions")]
        arrays = [np.array(points, dtype=np.float64) for points in inputs]
        expected = autograd_gradient(lambda *xs: env[expression](*xs).sum(), arrays)
        result = data["result"]
        why = problem(result, answer)
        if why:
            return [Finding(False, why)]
        results = [result] if len(partials) == 1 else result
        if len(partials) > 1 and (not isinstance(results, list) or len(results) != len(partials)):
            return [Finding(False, f"{answer} should return {len(partials)} gradients, "
                                   f"({', '.join(partials)}), in a tuple")]
        names = "xy"

        def where(index):
            return "at " + ", ".join(f"{names[i]} = {a[index]:.4g}" for i, a in enumerate(arrays))

        findings = []
        for partial, got, reference in zip(partials, results, expected):
            array, why = as_array(got, partial)
            findings += [Finding(False, why)] if why else compare(
                partial, array, reference, where=where, reference="autograd gives",
                broadcast=True)
        return findings
    return judge


def _question(name, title, expression, answer, partials):
    arity = 2 if len(partials) == 2 else 1
    public = [PUBLIC_X, PUBLIC_Y][:arity]
    return Question(name, title, _extract(answer), _judge(expression, answer, partials),
                    public=public, hidden=_hidden(arity))


BY_HAND = "uses autograd or a numerical gradient in a derivative that should be written by hand"

ASSIGNMENT = Assignment(
    name="derive_it_by_hand",
    title="Derive it by hand",
    questions=(
        _question("q1", "df/dx for f(x) = x³ − 2x", "f", "df", ("df(x)",)),
        _question("q2", "dg/dx for g(x) = sin(x)·eˣ", "g", "dg", ("dg(x)",)),
        _question("q3", "dh/dx for h(x) = log(1 + x²)", "h", "dh", ("dh(x)",)),
        _question("q4", "∂k/∂x and ∂k/∂y for k(x, y) = x·y² + tanh(x)", "k", "grad_k",
                  ("dk/dx", "dk/dy")),
    ),
    context=("setup", "expressions"),
    suspicious=(
        (r"\.backward\s*\(|\bautograd\b|\.grad\b|\bgradcheck\b", BY_HAND),
        (r"\bcheck_derivatives\b|\bnumerical_gradient\b|\bDerivativeCheck\b", BY_HAND),
    ),
)
