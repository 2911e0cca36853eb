"""Assignment 1 · Tensors and gradients (the fifth tutorial's exercises).

q1: a 5x5 tensor ``x`` that requires grad, and ``total = x.sum()``.
q2: ``y = x * 2`` and ``z = y.sum()``.
q3: ``retain_grad()`` on ``y`` and ``z``, then ``z.backward()``.
q4: in words, what changed between the two prints (read by the teacher).
"""

from __future__ import annotations

import numpy as np

from grader.data import read
from grader.judging import ATOL_32, check_grad, compare, is_tensor, problem, shape_text
from grader.questions import Assignment, Finding, Question


def _tensor_problem(value, name: str) -> str | None:
    return problem(value, name) or (None if is_tensor(value) else
                                    f"{name} should be a tensor (torch.tensor, torch.ones, ...)")


def _read_names(*names):
    def extract(namespace, inputs):
        return {name: read(namespace, name) for name in names}
    return extract


def judge_q1(data, inputs, env) -> list[Finding]:
    x, total = data["x"], data["total"]
    why = _tensor_problem(x, "x")
    if why:
        return [Finding(False, why)]
    findings = [
        Finding(x.shape == (5, 5), f"x has shape {shape_text(x.shape)}"
                + ("" if x.shape == (5, 5) else " but expected (5, 5)")),
        Finding(x.requires_grad, "x requires grad" if x.requires_grad else
                "x does not require grad — create it with requires_grad=True"),
        Finding(x.is_leaf, "x is a leaf" if x.is_leaf else
                f"x was made by an operation ({x.grad_fn}); create it directly, e.g. "
                "torch.ones(5, 5, requires_grad=True)"),
        Finding(x.dtype.startswith("float"), f"x holds {x.dtype}"
                + ("" if x.dtype.startswith("float") else
                   " — only floating point tensors can require grad; use 1.0, not 1")),
    ]
    why = _tensor_problem(total, "total")
    if why:
        return findings + [Finding(False, why)]
    findings.append(Finding(total.shape == (), "total is a single number" if total.shape == ()
                            else f"total has shape {shape_text(total.shape)}; sum all the "
                                 "values with x.sum()"))
    if total.shape == ():
        findings += compare("total", total.values, x.values.sum(), atol=ATOL_32,
                            reference="x.sum() is")
        findings.append(Finding(total.grad_fn == "SumBackward0",
                                f"total.grad_fn is {total.grad_fn}"
                                + ("" if total.grad_fn == "SumBackward0" else
                                   ", expected SumBackward0: compute it from x with x.sum()")))
    return findings


def judge_q2(data, inputs, env) -> list[Finding]:
    x, y, z = data["x"], data["y"], data["z"]
    for value, name in ((x, "x"), (y, "y"), (z, "z")):
        why = _tensor_problem(value, name)
        if why:
            return [Finding(False, why)]
    findings = compare("y", y.values, 2 * x.values, atol=ATOL_32, reference="2 * x is")
    findings.append(Finding(y.grad_fn == "MulBackward0", f"y.grad_fn is {y.grad_fn}"
                            + ("" if y.grad_fn == "MulBackward0" else
                               ", expected MulBackward0: y = x * 2")))
    if z.shape != ():
        return findings + [Finding(False, f"z has shape {shape_text(z.shape)}; it should be "
                                          "one number: z = y.sum()")]
    findings += compare("z", z.values, y.values.sum(), atol=ATOL_32, reference="y.sum() is")
    findings.append(Finding(z.grad_fn == "SumBackward0", f"z.grad_fn is {z.grad_fn}"
                            + ("" if z.grad_fn == "SumBackward0" else
                               ", expected SumBackward0: z = y.sum()")))
    return findings


def judge_q3(data, inputs, env) -> list[Finding]:
    x, y, z = data["x"], data["y"], data["z"]
    for value, name in ((x, "x"), (y, "y"), (z, "z")):
        why = _tensor_problem(value, name)
        if why:
            return [Finding(False, why)]
    return (check_grad("x", x, np.full(x.shape, 2.0), how="did you call backward()? (z.backward())")
            + check_grad("y", y, np.ones(y.shape),
                         how="call y.retain_grad() before z.backward(): a tensor made by an "
                             "operation keeps its gradient only when asked")
            + check_grad("z", z, np.ones(z.shape),
                         how="call z.retain_grad() before z.backward()"))


ASSIGNMENT = Assignment(
    name="tensors_and_gradients",
    title="Tensors and gradients",
    questions=(
        Question("q1", "A tensor that requires grad, and its sum",
                 _read_names("x", "total"), judge_q1),
        Question("q2", "Multiply by 2, then sum", _read_names("x", "y", "z"), judge_q2),
        Question("q3", "retain_grad() and backward()", _read_names("x", "y", "z"), judge_q3),
    ),
    manual={"q4": "What changed, and why?"},
)
