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

An assignment's questions live in its **question module**, ``<assignment>.py``, beside the
instructor notebook (the notebook's metadata ``minigrad_kit.assignment`` names it); the
module ends with ``ASSIGNMENT = Assignment(...)``. The kit's four assignments are written
that way too, in the package data ``minigrad_kit_notebooks/assignments/``.

The in-notebook test cell is the nbgrader twin of the same question: real
nbgrader runs its asserts in the kernel; ``minigrad-kit grade`` replaces it
with the extract step and judges outside.
"""

from __future__ import annotations

import hashlib
import sys
import types
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable

__all__ = ["Finding", "Question", "Assignment", "QuestionModuleError", "load_questions",
           "questions_from_text", "kit_assignments", "module_file", "find_assignment",
           "assignment_names", "judge"]


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


def load_questions(path) -> Assignment:
    """The ``ASSIGNMENT`` defined by the question module at ``path``."""
    path = Path(path)
    return questions_from_text(path.read_text(encoding="utf-8"), str(path))


def questions_from_text(text: str, filename: str) -> Assignment:
    """Run a question module's ``text`` as a module of its own (once per text) and return its
    ``ASSIGNMENT``. The grader hands the text, not a path, to the grading kernels."""
    key = hashlib.sha256(f"{filename}\0{text}".encode()).hexdigest()
    if key not in _LOADED:
        name = f"_minigrad_kit_questions_{key[:16]}"
        module = types.ModuleType(name)
        module.__file__ = filename
        sys.modules[name] = module  # (dataclasses look their module up while it runs)
        try:
            exec(compile(text, filename, "exec"), module.__dict__)
        finally:
            sys.modules.pop(name, None)
        assignment = module.__dict__.get("ASSIGNMENT")
        if not isinstance(assignment, Assignment):
            raise QuestionModuleError(f"{filename} defines no ASSIGNMENT = Assignment(...); "
                                      "a question module ends with one (see "
                                      "notebooks/assignments/README.md)")
        _LOADED[key] = assignment
    return _LOADED[key]


_LOADED: dict = {}


class QuestionModuleError(ValueError):
    """A question module that defines no assignment."""


def kit_assignments():
    """The folder of the kit's own assignments, shipped inside the package (a Traversable)."""
    return resources.files("minigrad_kit_notebooks") / "assignments"


def module_file(folder, name: str):
    """Where assignment ``name``'s question module sits in ``folder``: ``<name>.py``."""
    return folder / f"{name}.py"


def find_assignment(name: str, folder=None) -> Assignment:
    """Assignment ``name``: its question module in ``folder`` if there is one, else the kit's
    (KeyError listing the kit's assignments)."""
    places = ([lambda: Path(folder)] if folder is not None else []) + [kit_assignments]
    for place in places:  # (the kit's only when needed: a sandboxed kernel cannot see it)
        candidate = module_file(place(), name)
        if candidate.is_file():
            return questions_from_text(candidate.read_text(encoding="utf-8"), str(candidate))
    where = f" in {folder} or" if folder is not None else ""
    raise KeyError(f"no question module {name}.py{where} among the kit's assignments "
                   f"({', '.join(assignment_names())})")


def assignment_names() -> list[str]:
    """The kit's own assignments."""
    return sorted(p.name[:-3] for p in kit_assignments().iterdir()
                  if p.name.endswith(".py") and not p.name.startswith("_"))


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
