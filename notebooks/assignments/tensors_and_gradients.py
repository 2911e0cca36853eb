"""Assignment 1 · Tensors and gradients (the fifth tutorial's exercises).

q1: a 5x5 tensor ``x`` that requires grad, and ``total = x.sum()``.
q2: ``y = x * 2`` and ``z = y.sum()``.
q3: ``retain_grad()`` on ``y`` and ``z``, then ``z.backward()``.
q4: in words, what changed between the two prints (read by the teacher).
"""

from __future__ import annotations

import numpy as np

from grader.data import read
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import ATOL_32, check_grad, compare, is_tensor, problem, shape_text
from grader.questions import Assignment, Finding, Question

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)


def _tensor_problem(value, name: str) -> str | None:
    return problem(value, name) or (None if is_tensor(value) else
                                    _("{name} should be a tensor (torch.tensor, torch.ones, ...)")
                                    .format(name=name))


def _read_names(*names):
    def extract(namespace, inputs):
        return {name: read(namespace, name) for name in names}
    return extract


def _grad_fn(name: str, tensor, expected: str, how: str) -> Finding:
    """``y.grad_fn is MulBackward0``, or what it is instead and how to get the right one."""
    if tensor.grad_fn == expected:
        return Finding(True, _("{name}.grad_fn is {node}").format(name=name, node=expected))
    return Finding(False, _("{name}.grad_fn is {node}, expected {expected}: {how}").format(
        name=name, node=tensor.grad_fn, expected=expected, how=how))


def judge_q1(data, inputs, env) -> list[Finding]:
    x, total = data["x"], data["total"]
    why = _tensor_problem(x, "x")
    if why:
        return [Finding(False, why)]
    findings = [
        Finding(x.shape == (5, 5), (_("x has shape {shape}") if x.shape == (5, 5) else
                                    _("x has shape {shape} but expected (5, 5)")).format(
            shape=shape_text(x.shape))),
        Finding(x.requires_grad, _("x requires grad") if x.requires_grad else
                _("x does not require grad — create it with requires_grad=True")),
        Finding(x.is_leaf, _("x is a leaf") if x.is_leaf else
                _("x was made by an operation ({node}); create it directly, e.g. "
                  "torch.ones(5, 5, requires_grad=True)").format(node=x.grad_fn)),
        Finding(x.dtype.startswith("float"), (_("x holds {dtype}") if x.dtype.startswith("float")
                                              else _("x holds {dtype} — only floating point "
                                                     "tensors can require grad; use 1.0, not 1"))
                .format(dtype=x.dtype)),
    ]
    why = _tensor_problem(total, "total")
    if why:
        return findings + [Finding(False, why)]
    findings.append(Finding(total.shape == (), _("total is a single number") if total.shape == ()
                            else _("total has shape {shape}; sum all the values with x.sum()")
                            .format(shape=shape_text(total.shape))))
    if total.shape == ():
        findings += compare("total", total.values, x.values.sum(), atol=ATOL_32,
                            reference=_("{expression} is").format(expression="x.sum()"))
        findings.append(_grad_fn("total", total, "SumBackward0",
                                 _("compute it from x with x.sum()")))
    return findings


def judge_q2(data, inputs, env) -> list[Finding]:
    x, y, z = data["x"], data["y"], data["z"]
    for value, name in ((x, "x"), (y, "y"), (z, "z")):
        why = _tensor_problem(value, name)
        if why:
            return [Finding(False, why)]
    findings = compare("y", y.values, 2 * x.values, atol=ATOL_32,
                       reference=_("{expression} is").format(expression="2 * x"))
    findings.append(_grad_fn("y", y, "MulBackward0", "y = x * 2"))
    if z.shape != ():
        return findings + [Finding(False, _("z has shape {shape}; it should be one number: "
                                            "z = y.sum()").format(shape=shape_text(z.shape)))]
    findings += compare("z", z.values, y.values.sum(), atol=ATOL_32,
                        reference=_("{expression} is").format(expression="y.sum()"))
    findings.append(_grad_fn("z", z, "SumBackward0", "z = y.sum()"))
    return findings


def judge_q3(data, inputs, env) -> list[Finding]:
    x, y, z = data["x"], data["y"], data["z"]
    for value, name in ((x, "x"), (y, "y"), (z, "z")):
        why = _tensor_problem(value, name)
        if why:
            return [Finding(False, why)]
    return (check_grad("x", x, np.full(x.shape, 2.0),
                       how=_("did you call backward()? (z.backward())"))
            + check_grad("y", y, np.ones(y.shape),
                         how=_("call y.retain_grad() before z.backward(): a tensor made by an "
                               "operation keeps its gradient only when asked"))
            + check_grad("z", z, np.ones(z.shape),
                         how=_("call z.retain_grad() before z.backward()")))


ASSIGNMENT = Assignment(
    name="tensors_and_gradients",
    title=N_("Tensors and gradients"),
    questions=(
        Question("q1", N_("A tensor that requires grad, and its sum"),
                 _read_names("x", "total"), judge_q1),
        Question("q2", N_("Multiply by 2, then sum"), _read_names("x", "y", "z"), judge_q2),
        Question("q3", N_("retain_grad() and backward()"), _read_names("x", "y", "z"),
                 judge_q3),
    ),
    manual={"q4": N_("What changed, and why?")},
)
