"""The student's side: ``start``, ``check`` and ``check_all`` in the notebook.

``check("q1")`` runs the public checks of question q1 *in your kernel* and
shows what is right and what to try. It is feedback, not a grade: your
teacher's grader runs the same checks, plus hidden ones at inputs drawn for
you, in its own process. So it says "public checks passed", never "all
tests passed". It works offline; no server is involved. A check that fails
ends the cell with its message (``CheckFailed``), not a traceback.

``start(assignment, student=...)`` also draws the student's own numbers (the
assignment's variant), which the notebook's locked cells show and ``check()``
judges with. ``from_formula("name", x=..., ...)`` computes the formula answer held
by ``name`` on tensors: a notebook builds a working ``Function`` from a
backward written as a formula.
"""

from __future__ import annotations

import html
import json
import os
import sys
import textwrap

from .data import decode
from .i18n import ASSIGNMENTS, _
from .kernel_side import collect
from .questions import Assignment, Finding, find_assignment, judge

__all__ = ["start", "check", "check_all", "from_formula", "Feedback", "CheckFailed",
           "NotAnswered"]

_current: Assignment | None = None
_variant: dict = {}
# JupyterLab breaks a line of plain output wider than the notebook at any character, a
# number included (a release's "T = 0.5" was shown as "T = 0." over "5"): the lines printed
# here are wrapped at spaces first, narrower than a notebook beside the file browser (117
# characters at 1280 px).
WIDTH = 96


def _wrapped(text: str, indent: str = "") -> str:
    return "\n".join(textwrap.fill(line, WIDTH, initial_indent=indent, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False)
                     for line in text.split("\n"))


class CheckFailed(AssertionError):
    """A failed ``check()``. In a notebook it shows as its message alone (wrapped at spaces),
    under the feedback (IPython renders an exception with ``_render_traceback_`` that way)."""

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[0;31m{_wrapped(str(self))}\x1b[0m"]


class NotAnswered(NameError):
    """``from_formula`` of an answer not written yet. In a notebook it shows as its message:
    raised inside backward (assignment 4's gradcheck of the Function built on the answer),
    its traceback went through a dozen frames of the engine to say only this."""

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[0;31mNameError: {_wrapped(str(self))}\x1b[0m"]


def _hidden_note() -> str:
    return _("Your teacher's grader adds hidden tests.")


def start(assignment: str, student: str | None = None) -> None:
    """Say which assignment this notebook is, and whose (the first cell does it for you).

    Its questions come from the question module ``<assignment>.py`` in the notebook's folder
    (handed out with the notebook), else from the kit's own assignments; ``student``'s own
    numbers are drawn as the grader draws them."""
    global _current, _variant
    _current = find_assignment(assignment, folder=os.getcwd())
    _variant = _current.variant_for(student)
    names = ", ".join(q.name for q in _current.questions)
    print(_wrapped(_('Assignment: {title}. check("q1") runs the public checks of one question '
                     '({names}); check_all() runs them all.').format(
        title=ASSIGNMENTS.gettext(_current.title), names=names)))
    if _variant:  # (each "T = 0.5" kept on one line: no-break spaces while wrapping)
        numbers = ", ".join(f"{name}\xa0=\xa0{value}" for name, value in _variant.items())
        print(_wrapped(_("Your own numbers (the cells below use them): {numbers}").format(
            numbers=numbers)).replace("\xa0", " "))


class Feedback:
    """The public checks of one question: ``passed`` and one line per finding."""

    def __init__(self, name: str, title: str, findings: list[Finding]) -> None:
        self.name, self.title, self.findings = name, title, findings

    @property
    def passed(self) -> bool:
        return all(f.ok for f in self.findings)

    @property
    def headline(self) -> str:
        failed = sum(not f.ok for f in self.findings)
        verdict = (_("public checks passed") if self.passed else
                   _("{failed} of {count} public checks failed").format(
                       failed=failed, count=len(self.findings)))
        return _("{question} · {title}: {verdict}").format(
            question=self.name, title=ASSIGNMENTS.gettext(self.title), verdict=verdict)

    def __repr__(self) -> str:
        lines = [self.headline] + [f"  {'✓' if f.ok else '✗'} {f.text}" for f in self.findings]
        return "\n".join(lines + [_hidden_note()])

    def _repr_html_(self) -> str:
        colour = "#1e7d32" if self.passed else "#b00020"
        items = "".join(
            f'<li style="color:{"inherit" if f.ok else "#b00020"}">{"✓" if f.ok else "✗"} '
            f"{html.escape(f.text)}</li>" for f in self.findings)
        return (f'<div><b style="color:{colour}">{html.escape(self.headline)}</b>'
                f'<ul style="margin:2px 0">{items}</ul><i>{html.escape(_hidden_note())}</i>'
                '</div>')


def check(question: str, *, namespace: dict | None = None) -> None:
    """Run ``question``'s public checks on your notebook and show the result.

    Raises ``CheckFailed`` (an AssertionError, shown as one line) when a check fails, so
    that a test cell shows it failed.
    ``namespace``: where your names live (default: the caller's globals).
    """
    assignment = _started()
    namespace = namespace if namespace is not None else sys._getframe(1).f_globals
    if question in assignment.manual:
        print(_("{question} · {title}: a written answer, read by your teacher; there is nothing "
                "to check automatically.").format(
            question=question, title=ASSIGNMENTS.gettext(assignment.manual[question])))
        return
    feedback = _feedback(assignment, question, namespace)
    _show(feedback)
    if not feedback.passed:
        first = next(f.text for f in feedback.findings if not f.ok)
        raise CheckFailed(_("{question}: {finding}").format(question=question, finding=first))


def check_all(*, namespace: dict | None = None) -> None:
    """Run every question's public checks and show one line per question."""
    assignment = _started()
    namespace = namespace if namespace is not None else sys._getframe(1).f_globals
    results = [_feedback(assignment, q.name, namespace) for q in assignment.questions]
    passed = sum(r.passed for r in results)
    lines = [_wrapped(f"{'✓' if r.passed else '✗'} {r.headline}") for r in results]
    for r in results:
        lines += [_wrapped(f.text, "    ") for f in r.findings if not f.ok][:1]
    lines.append(_wrapped(_("Public checks passed for {passed} of {count} questions.").format(
        passed=passed, count=len(results)) + " " + _hidden_note()))
    if assignment.manual:
        lines.append(_wrapped(_("Written answers ({names}) are read by your teacher.").format(
            names=", ".join(assignment.manual))))
    print("\n".join(lines))


def _feedback(assignment: Assignment, name: str, namespace: dict) -> Feedback:
    question = assignment.question(name)
    data = decode(json.loads(json.dumps(collect(question, namespace, question.public))))
    env = {**namespace, **_variant}
    return Feedback(name, question.title, judge(question, data, question.public, env))


def from_formula(name: str, **values):
    """The formula answer held by ``name`` (in your notebook), computed on ``values``
    (tensors) with their own operations, as the grader reads it: the same grammar, the
    same functions. ``from_formula("sigmoid_backward", x=x, y=y, grad_output=grad_output)``."""
    from .formula import parse

    assignment = _started()
    answer = assignment.answer(name)
    if answer is None or not answer.variables:
        raise KeyError(_("{name} is not a formula answer of this assignment").format(
            name=name))
    text = sys._getframe(1).f_globals.get(name)
    if text is None:
        raise NotAnswered(_("{name} is not defined — write it in its answer cell (in place of "
                            "`raise NotImplementedError()`) and run that cell (and the cells "
                            "above it)").format(name=name))
    module = _tensor_module(values.values())
    return parse(text, answer.variables, answer.functions, answer.labels).on_tensors(
        module, **values)


def _tensor_module(values):
    """minigrad, or torch when the values are PyTorch's tensors."""
    for value in values:
        if type(value).__module__.split(".")[0] == "torch":
            import torch
            return torch
    import minigrad
    return minigrad


def _started() -> Assignment:
    if _current is None:
        raise RuntimeError(_("no assignment started: run the notebook's first cell, which "
                             "calls start(...)"))
    return _current


def _show(feedback: Feedback) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(feedback)
    else:
        print(repr(feedback))
