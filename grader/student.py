"""The student's side: ``start``, ``check`` and ``check_all`` in the notebook.

``check("q1")`` runs the public checks of question q1 *in your kernel* and
shows what is right and what to try. It is feedback, not a grade: your
teacher's grader runs the same checks, plus hidden ones at inputs drawn for
you, in its own process. So it says "public checks passed", never "all
tests passed". It works offline; no server is involved.
"""

from __future__ import annotations

import html
import json
import os
import sys

from .data import decode
from .i18n import ASSIGNMENTS, _
from .kernel_side import collect
from .questions import Assignment, Finding, find_assignment, judge

__all__ = ["start", "check", "check_all", "Feedback"]

_current: Assignment | None = None

def _hidden_note() -> str:
    return _("Your teacher's grader adds hidden tests.")


def start(assignment: str) -> None:
    """Say which assignment this notebook is (the first cell does it for you).

    Its questions come from the question module ``<assignment>.py`` in the notebook's folder
    (handed out with the notebook), else from the kit's own assignments."""
    global _current
    _current = find_assignment(assignment, folder=os.getcwd())
    names = ", ".join(q.name for q in _current.questions)
    print(_('Assignment: {title}. check("q1") runs the public checks of one question '
            '({names}); check_all() runs them all.').format(
        title=ASSIGNMENTS.gettext(_current.title), names=names))


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

    Raises AssertionError when a check fails (so a test cell shows it failed).
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
        raise AssertionError(_("{question}: {finding}").format(question=question, finding=first))


def check_all(*, namespace: dict | None = None) -> None:
    """Run every question's public checks and show one line per question."""
    assignment = _started()
    namespace = namespace if namespace is not None else sys._getframe(1).f_globals
    results = [_feedback(assignment, q.name, namespace) for q in assignment.questions]
    passed = sum(r.passed for r in results)
    lines = [f"{'✓' if r.passed else '✗'} {r.headline}" for r in results]
    for r in results:
        lines += [f"    {f.text}" for f in r.findings if not f.ok][:1]
    lines.append(_("Public checks passed for {passed} of {count} questions.").format(
        passed=passed, count=len(results)) + " " + _hidden_note())
    if assignment.manual:
        lines.append(_("Written answers ({names}) are read by your teacher.").format(
            names=", ".join(assignment.manual)))
    print("\n".join(lines))


def _feedback(assignment: Assignment, name: str, namespace: dict) -> Feedback:
    question = assignment.question(name)
    data = decode(json.loads(json.dumps(collect(question, namespace, question.public))))
    return Feedback(name, question.title, judge(question, data, question.public, namespace))


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
