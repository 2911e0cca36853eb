"""What a graded question is: an extract step (kernel) and a judge (grader).

A question is named by the ``grade_id`` of its test cell (``"q1"``). It has

* ``extract(namespace, inputs)``: runs in the student's kernel. It reads the
  student's names and calls the student's code at ``inputs``, and returns
  plain data (see ``data.py``). It never decides anything.
* ``judge(data, inputs, env)``: runs in the grader's own process on that
  data and returns ``Finding``s; the question scores only when all are ok.
  ``env`` holds the teacher's locked cells (e.g. the expressions to
  differentiate), executed by the grader itself.
* ``public``: the fixed inputs of ``check()``; ``hidden(rng)``: the inputs
  the grader draws for each student. The hidden tests are the same judge at
  points the student cannot know in advance.
* ``answers``: for a question answered with data (a formula in quotes,
  numbers), the names that hold it. The grader then reads them from the
  notebook's text (``answers.py``), not from the kernel; ``check()`` reads
  the same names from the kernel, and both are judged alike.

The in-notebook test cell is the nbgrader twin of the same question: real
nbgrader runs its asserts in the kernel; ``minigrad-kit grade`` replaces it
with the extract step and judges outside.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["Finding", "Question", "Assignment", "find_assignment", "assignment_names", "judge"]


@dataclass(frozen=True)
class Finding:
    """One judged fact: ``ok`` and a sentence for the student."""

    ok: bool
    text: str


@dataclass(frozen=True)
class Question:
    name: str  # the grade_id of the test cell
    title: str
    extract: Callable[[dict, Any], dict]
    judge: Callable[[dict, Any, dict], list]
    public: Any = None
    hidden: Callable | None = None  # rng -> inputs; None: the public checks are all there is
    answers: tuple = ()  # names of answers given as data, read from the notebook's text


@dataclass(frozen=True)
class Assignment:
    name: str  # as in the notebook's metadata {"minigrad_kit": {"assignment": name}}
    title: str
    questions: tuple
    context: tuple = ()  # grade_ids of locked cells the grader runs to build ``env``
    manual: dict = field(default_factory=dict)  # grade_id -> title of free-text questions
    # (regex, why) or (regex, why, question names): code that must not be in an answer
    suspicious: tuple = ()

    def question(self, name: str) -> Question:
        for question in self.questions:
            if question.name == name:
                return question
        known = ", ".join(repr(q.name) for q in self.questions)
        if name in self.manual:
            raise KeyError(f"{name!r} is a written answer, read by your teacher; "
                           f"the checked questions are {known}")
        raise KeyError(f"assignment {self.name!r} has no question {name!r}; "
                       f"its questions are {known}")


def _registry() -> dict:
    from .bank import ASSIGNMENTS
    return {a.name: a for a in ASSIGNMENTS}


def find_assignment(name: str) -> Assignment:
    """The assignment called ``name`` (KeyError listing the known ones)."""
    registry = _registry()
    if name not in registry:
        raise KeyError(f"no assignment {name!r}; the kit has {', '.join(sorted(registry))}")
    return registry[name]


def assignment_names() -> list[str]:
    return sorted(_registry())


def judge(question: Question, data, inputs, env) -> list[Finding]:
    """``question.judge``, where bad data or a crash is a failed finding, never an exception."""
    from .data import Raised

    if isinstance(data, Raised):
        return [Finding(False, f"your answer could not be read: {data.kind}: {data.message}")]
    if not isinstance(data, dict):
        return [Finding(False, "the test cell handed back no usable data")]
    try:
        findings = list(question.judge(data, inputs, env))
    except Exception as error:  # noqa: BLE001 (data from a kernel can be anything)
        return [Finding(False, f"could not check {question.name}: {type(error).__name__}: "
                               f"{error} — run all cells from the top")]
    return findings or [Finding(False, "nothing was checked")]
