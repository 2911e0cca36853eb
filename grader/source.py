"""An instructor notebook, checked against its question module, and what the grader takes from it.

``load_source(path)`` reads the notebook, refuses a student version, loads
the question module beside it (``<assignment>.py``, named by the notebook's
metadata), checks nbgrader's format and that every test cell has a question
in the module (and every question a test cell), or raises ``SourceError``
listing every problem with its fix.
``context(source, notebook)`` runs the teacher's locked context cells (as
``notebook`` has them: with a student's numbers) in the grader's own process.
``inputs(source, question, student, variant, answered)`` draws the hidden inputs:
the same for the same student on every run (a code question's, with more drawn from
the answers too), unknowable without the instructor notebook's hidden tests and the
grader's secret salt.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import notebook as nbg
from .questions import (CODE, Assignment, Question, QuestionModuleError, module_file,
                        questions_from_text)
from .variants import default_problems

__all__ = ["Source", "SourceError", "load_source", "context", "inputs"]


class SourceError(ValueError):
    """An instructor notebook that cannot be released or graded (the message lists why)."""


@dataclass
class Source:
    path: Path
    notebook: object  # nbformat.NotebookNode
    assignment: Assignment
    salt: str = ""
    module: Path | None = None  # the question module beside the notebook
    module_text: str = ""  # its text, as the grading kernels receive it

    @property
    def cells(self) -> dict:
        """grade_id -> cell, for every nbgrader cell."""
        return {nbg.grade_id(c): c for c in self.notebook.cells if nbg.grade_id(c)}

    def points(self, grade_id: str) -> float:
        return nbg.points(self.cells[grade_id])

    @property
    def secret(self) -> str:
        """What the hidden inputs are drawn from: the hidden tests' text (and the salt)."""
        hidden = [c.source for c in self.notebook.cells if nbg.role(c) == "test"]
        return hashlib.sha256(json.dumps([hidden, self.salt]).encode()).hexdigest()


def load_source(path, salt: str = "") -> Source:
    path = Path(path)
    notebook = nbg.read(path)
    if nbg.is_student_version(notebook):
        raise SourceError(f"{path} is a student version (its solutions are stubbed and its "
                          "hidden tests removed); give the instructor notebook it was "
                          "released from")
    found = nbg.problems(notebook, str(path))
    name = nbg.assignment_name(notebook)
    assignment, module, text = None, None, ""
    if not name:
        found.append(f"{path}: the notebook metadata has no 'minigrad_kit': {{'assignment': "
                     "NAME}; add it (Edit > Notebook Metadata in JupyterLab), with NAME the "
                     "question module NAME.py beside the notebook")
    else:
        module = module_file(path.parent, name)
        try:
            text = module.read_text(encoding="utf-8")
            assignment = questions_from_text(text, str(module))
        except FileNotFoundError:
            found.append(f"{path}: its questions belong in {module} (the notebook metadata "
                         f"names the assignment {name!r}), which does not exist; write it "
                         "(notebooks/assignments/README.md shows how)")
        except QuestionModuleError as error:
            found.append(str(error))
        except Exception as error:  # noqa: BLE001 (the teacher's module can raise anything)
            found.append(f"{module} raised {type(error).__name__}: {error} when loaded; "
                         "fix the question module")
    if assignment is not None and assignment.name != name:
        found.append(f"{module} defines the assignment {assignment.name!r}, but the notebook "
                     f"metadata names {name!r}; make them the same")
    elif assignment is not None:
        found += assignment.problems(str(module))
        found += _module_problems(notebook, assignment, path, module)
        found += default_problems(notebook, assignment, str(path))
    if found:
        raise SourceError("\n".join(found))
    return Source(path, notebook, assignment, salt, module, text)


def _module_problems(notebook, assignment: Assignment, path: Path, module: Path) -> list[str]:
    by_id = {nbg.grade_id(c): c for c in notebook.cells if nbg.grade_id(c)}
    tests = {gid for gid, c in by_id.items() if nbg.role(c) == "test"}
    asked = {q.name for q in assignment.questions}
    found = [f"{path}: test cell {gid!r} has no question in {module}; add one there, or make "
             "the cell a plain locked cell" for gid in sorted(tests - asked)]
    found += [f"{path}: question {gid!r} of {module} has no test cell; add a graded test cell "
              f"with grade_id {gid!r}" for gid in sorted(asked - tests)]
    for gid in assignment.context:
        if gid not in by_id or nbg.role(by_id[gid]) != "locked":
            found.append(f"{path}: the grader needs a locked code cell {gid!r} (it runs it to "
                         "compute the expected answers); add it or mark it read-only")
    return found


def context(source: Source, notebook=None) -> dict:
    """The names the teacher's context cells define, run here (their prints are dropped),
    as ``notebook`` (default: the instructor's) has them."""
    namespace: dict = {"__name__": "__minigrad_kit_context__"}
    cells = {nbg.grade_id(c): c for c in (notebook or source.notebook).cells
             if nbg.grade_id(c)}
    with contextlib.redirect_stdout(io.StringIO()):
        for gid in source.assignment.context:
            exec(compile(cells[gid].source, f"{source.path.name}:{gid}", "exec"), namespace)
    return namespace


def inputs(source: Source, question: Question, student: str, variant: dict | None = None,
           answered: str = "") -> dict:
    """``{"public": ..., "hidden": ...}`` for one student (no "hidden" if the question has
    none). In an assignment with a variant, ``hidden(rng, variant)`` draws them.

    ``answered``: the digest of the submission's answer cells (``grade.answered_digest``),
    given by the grader. A code question's hidden calls (``Question.calls``: a list of
    independent calls) are then the student's own, drawn from their name as ever,
    followed by as many drawn from the answers too.
    The feedback says which hidden checks passed, call by call, and the student's code
    chooses, from the inputs it is called with, which ones pass: six bits a submission
    carried out, on calls that were all the same at every resubmission (red team 10: over
    a few uploads, a table of the hidden calls' answers scored q4's 3 points, the attack
    the secret salt had closed). The calls drawn from the answers change with every edit,
    and the table is an edit: graded on calls no earlier submission was called with. The
    student's own calls stay (an unbroadcast right on some shapes only cannot try again
    and again with a new comment until it is lucky), and the same answers draw the same
    calls (a re-grading is identical). Nothing a run reads but the answer cells' text can
    differ from one submission to the next: the sandbox keeps no file, clock or network."""
    drawn = {"public": question.public}
    if question.hidden is not None:
        key = f"{source.secret}|{source.assignment.name}|{question.name}|{student}"
        drawn["hidden"] = _drawn(source, question, key, variant)
        if answered and question.kind == CODE and question.calls \
                and isinstance(drawn["hidden"], list):
            drawn["hidden"] = drawn["hidden"] + list(
                _drawn(source, question, f"{key}|{answered}", variant))
    return drawn


def _drawn(source: Source, question: Question, key: str, variant: dict | None):
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "little")
    rng = np.random.default_rng(seed)
    return question.hidden(rng, variant or {}) if source.assignment.variant is not None \
        else question.hidden(rng)
