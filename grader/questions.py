"""What a graded question is: how its answer reaches the grader, and a judge.

A question is named by the ``grade_id`` of its test cell (``"q1"``). Each declares its
**kind**, which says how its answer reaches the grader (``release`` and ``grade`` refuse
a question that declares neither):

* ``DATA``: the answer is data (a formula in quotes, a shape, a number), held by the
  names in ``answers``. The grader reads them from the notebook's text, as written
  (``answers.py``), and evaluates formulas itself (``formula.py``): no kernel runs, so
  nothing the notebook does can change what is read. A derivation ("by hand") is
  always asked this way.
* ``CODE``: the skill is code (``unbroadcast``, a training loop). The answer cells, and
  the locked cells the question ``runs``, run in a fresh sandboxed process of their
  own (``run.py``), in the instructor notebook's order; nothing else of the notebook
  runs. With ``autograd=False`` that process holds no autograd at all: ``minigrad``
  and ``torch`` are tensors without it (``forward_only.py``).

Then:

* ``extract(namespace, inputs)``: reads the student's names and calls their code at
  ``inputs``, and returns plain data (see ``data.py``). It runs in that process for a
  CODE question, and in the notebook's kernel for ``check()``; it decides nothing.
* ``judge(data, inputs, env)``: runs in the grader's own process on that data and
  returns ``Finding``s; the question scores only when all are ok. ``env`` holds the
  teacher's context cells (run by the grader itself) and the student's variant.
* ``public``: the fixed inputs of ``check()``; ``hidden(rng)`` (``hidden(rng, variant)``
  in an assignment with variants): the inputs the grader draws for each student.

An assignment may have a **variant**: numbers drawn for each student (``Variant``), which
its locked cells show (``variants.py`` writes them in), so that every student answers
questions of their own and a published solution earns nothing.

An assignment's questions live in its **question module**, ``<assignment>.py``, beside the
instructor notebook (the notebook's metadata ``minigrad_kit.assignment`` names it); the
module ends with ``ASSIGNMENT = Assignment(...)``. The kit's assignments are written
that way too, in the package data ``minigrad_kit_notebooks/assignments/``.

The in-notebook test cell is the nbgrader twin of the same question: real nbgrader runs
its asserts in the kernel; ``minigrad-kit grade`` judges outside.
"""

from __future__ import annotations

import hashlib
import sys
import types
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .i18n import _

__all__ = ["Finding", "Question", "Answer", "Variant", "Assignment", "QuestionModuleError",
           "load_questions", "questions_from_text", "kit_assignments", "module_file",
           "find_assignment", "assignment_names", "judge", "DATA", "CODE", "KINDS"]

DATA = "data"  # the answer is data, read from the notebook's text
CODE = "code"  # the answer is code, run in a fresh sandboxed process
KINDS = (DATA, CODE)


@dataclass(frozen=True)
class Finding:
    """One judged fact: ``ok`` and a sentence for the student."""

    ok: bool
    text: str


@dataclass(frozen=True)
class Answer:
    """An answer given as data; for a formula, the variables and functions it may use
    (``formula.parse``). A bare name in ``Question.answers`` is a literal (a shape, a
    number)."""

    name: str
    variables: tuple = ()
    functions: tuple = ()
    labels: tuple = ()


@dataclass(frozen=True)
class Question:
    name: str  # the grade_id of the test cell
    title: str
    extract: Callable[[dict, Any], dict]
    judge: Callable[[dict, Any, dict], list]
    public: Any = None
    hidden: Callable | None = None  # rng (, variant) -> inputs; None: public checks only
    answers: tuple = ()  # DATA: the names (or Answers) that hold the answer
    kind: str = ""  # DATA or CODE: how the answer reaches the grader (see the module doc)
    autograd: bool = True  # CODE: False runs it on tensors without autograd
    runs: tuple = ("setup",)  # CODE: the locked cells its run needs, besides the answers
    # questions this one builds on: it scores only when they have full marks, judged on
    # their own answers (assignment 3's q3 is a backward through q2's y: see grade.py)
    after: tuple = ()
    # CODE: ``hidden`` draws a list of independent calls, each judged on its own (q4's
    # ``unbroadcast``): the grader follows the student's own with as many drawn with the
    # submission's answers (``source.inputs``), so that what the feedback's per-call
    # verdicts carried out of one submission answers no later one
    calls: bool = False

    @property
    def answer_specs(self) -> tuple:
        """``answers`` as ``Answer``s."""
        return tuple(a if isinstance(a, Answer) else Answer(a) for a in self.answers)

    @property
    def answer_names(self) -> tuple:
        return tuple(a.name for a in self.answer_specs)


@dataclass(frozen=True)
class Variant:
    """Numbers drawn for each student: ``draw(rng)`` -> name -> value (numbers, tuples of
    them). The instructor notebook's locked cells hold ``default``, a value no draw gives,
    so that the instructor's solution (published, perhaps) answers no student's
    questions."""

    default: dict
    draw: Callable[[Any], dict]

    def for_student(self, assignment: str, student: str | None) -> dict:
        """The student's numbers: the same on every run, in the notebook and in the
        grader (they are not secret: the hidden inputs are). No student: ``default``."""
        if not student:
            return dict(self.default)
        key = f"minigrad-kit variant|{assignment}|{student}".encode()
        seed = int.from_bytes(hashlib.sha256(key).digest()[:8], "little")
        return dict(self.draw(np.random.default_rng(seed)))


@dataclass(frozen=True)
class Assignment:
    name: str  # as in the notebook's metadata {"minigrad_kit": {"assignment": name}}
    title: str
    questions: tuple
    context: tuple = ()  # grade_ids of locked cells the grader runs to build ``env``
    manual: dict = field(default_factory=dict)  # grade_id -> title of free-text questions
    # (regex, why) or (regex, why, question names): code that must not be in an answer
    suspicious: tuple = ()
    variant: Variant | None = None  # numbers drawn for each student

    def variant_for(self, student: str | None) -> dict:
        """The student's variant (empty for an assignment without one)."""
        return self.variant.for_student(self.name, student) if self.variant else {}

    def answer(self, name: str) -> Answer | None:
        """The data answer called ``name``, in any question."""
        for question in self.questions:
            for answer in question.answer_specs:
                if answer.name == name:
                    return answer
        return None

    def problems(self, filename: str) -> list[str]:
        """What keeps this assignment from being released or graded (each with its fix)."""
        found = []
        for q in self.questions:
            if q.kind not in KINDS:
                found.append(f"{filename}: question {q.name!r} declares no kind; add "
                             "kind=DATA (its answer is data, read from the notebook's text: "
                             "name it in answers=) or kind=CODE (its answer cells run in a "
                             "fresh sandbox), both from grader.questions")
            elif q.kind == DATA and not q.answers:
                found.append(f"{filename}: question {q.name!r} is kind=DATA but names no "
                             "answers; list the names that hold its answer in answers=")
            elif q.kind == CODE and q.answers:
                found.append(f"{filename}: question {q.name!r} is kind=CODE but names "
                             "answers; code answers run, data answers are read: choose one")
        return found

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
        return [Finding(False, _("your answer could not be read: {kind}: {message}").format(
            kind=data.kind, message=data.message))]
    if not isinstance(data, dict):
        return [Finding(False, _("the grader received no usable data for this question"))]
    try:
        findings = list(question.judge(data, inputs, env))
    except Exception as error:  # noqa: BLE001 (data from a kernel can be anything)
        from .judging import WITHHELD, withheld
        said = f"{type(error).__name__}: {WITHHELD if withheld() else error}"  # (its message
        # can quote the student's data: a hidden test's, see judging.WITHHELD)
        return [Finding(False, _("could not check {question}: {error} — run all cells from the "
                                 "top, then check again").format(
            question=question.name, error=said))]
    return findings or [Finding(False, _("nothing was checked"))]
