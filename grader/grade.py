"""Grade a submission: restore, run in a fresh kernel, judge here.

``grade_notebook`` does one submission:

1. the student's cells are kept; every locked and test cell is restored from
   the instructor notebook by ``grade_id`` (edited ones are flagged, missing
   ones put back);
2. each test cell is replaced by the extract step, fed the inputs drawn for
   this student, and the notebook runs in a fresh kernel (``kernel.py``);
3. each question is judged in this process, on the data the kernel handed
   back, with the teacher's context cells run here as well;
4. the student's code is scanned for suspicious patches; written answers
   are collected for the teacher.

Nothing is written here (``batch.py`` grades many files, ``report.py`` writes).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict, dataclass, field

from . import notebook as nbg
from .data import decode
from .kernel import CellRun, run_cells
from .kernel_side import MIME
from .questions import judge
from .scan import defined_names, scan
from .source import Source, context, inputs

__all__ = ["Options", "QuestionResult", "Result", "grade_notebook"]

EXTRACT_LIMIT = 2_000_000  # characters of data one test cell may hand back


@dataclass(frozen=True)
class Options:
    timeout: float = 30  # seconds per cell
    output_limit: int = 100_000  # characters of output kept per cell
    memory_mb: int = 4096  # address-space limit of the kernel (0: none)
    salt: str = ""  # mixed into the hidden inputs


@dataclass
class QuestionResult:
    name: str
    title: str
    points: float | None  # None: to be graded by the teacher
    max_points: float
    findings: list = field(default_factory=list)  # [ok, text, "public" | "hidden"]
    note: str = ""  # why there was nothing to judge
    manual: bool = False  # a written answer (0 points if left blank)


@dataclass
class Result:
    student: str
    assignment: str
    file: str
    questions: list = field(default_factory=list)
    flags: list = field(default_factory=list)  # suspicious code, edited locked cells
    problems: list = field(default_factory=list)  # errors, timeouts, truncated output
    answers: dict = field(default_factory=dict)  # grade_id -> written answer
    error: str = ""  # the submission could not be graded at all

    @property
    def points(self) -> float:
        """Points graded automatically."""
        return sum(q.points for q in self.questions if not q.manual)

    @property
    def max_points(self) -> float:
        """Maximum of the points graded automatically."""
        return sum(q.max_points for q in self.questions if not q.manual)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Result":
        data = json.loads(text)
        data["questions"] = [QuestionResult(**q) for q in data["questions"]]
        return cls(**data)


@dataclass
class _Step:
    kind: str  # "student", "answer", "manual", "locked", "test"
    source: str  # what runs (or, for a markdown answer, the text)
    grade_id: str | None
    label: str
    cell_type: str = "code"


def grade_notebook(source: Source, submission, student: str, file: str,
                   options: Options = Options()) -> Result:
    result = Result(student, source.assignment.name, file)
    steps = _merge(source, submission, result)
    drawn = {q.name: inputs(source, q, student) for q in source.assignment.questions}
    code = [_guard(options.memory_mb)]
    for step in steps:
        code.append(_extract_code(source, step.grade_id, drawn[step.grade_id])
                    if step.kind == "test" else step.source if step.cell_type == "code" else "")
    extract_at = {i + 1: EXTRACT_LIMIT for i, s in enumerate(steps) if s.kind == "test"}
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-") as folder:
        runs = run_cells(code, cwd=folder, timeout=options.timeout,
                         output_limit=options.output_limit, limits=extract_at)[1:]
    env = context(source)
    for step, run, after in zip(steps, runs, runs[1:] + [None]):
        if run.status == "timeout" and after is not None and after.status == "skipped":
            result.problems.append(f"the kernel did not answer after {step.label} was "
                                   "interrupted, so the cells after it did not run")
        if step.kind == "test":
            result.questions.append(_judge(source, step.grade_id, run, drawn, env, options,
                                           result))
        elif step.cell_type == "code":
            _report_run(step, run, options, result)
        if step.kind == "manual":
            result.questions.append(_manual(source, step))
            blank = result.questions[-1].points == 0
            result.answers[step.grade_id] = "" if blank else step.source
    _scan(source, steps, result)
    return result


def _merge(source: Source, submission, result: Result) -> list[_Step]:
    """The student's cells, with locked and test cells from the source (see module doc)."""
    cells, steps, placed = source.cells, [], set()
    for number, cell in enumerate(submission.cells, 1):
        gid = (cell.get("metadata", {}).get("nbgrader") or {}).get("grade_id")
        if gid not in cells or gid in placed:
            steps.append(_Step("student", cell.source, None, f"cell {number}", cell.cell_type))
            continue
        placed.add(gid)
        original, kind = cells[gid], nbg.role(cells[gid])
        if kind in ("answer", "manual"):
            steps.append(_Step(kind, cell.source, gid, f"cell {number} (your answer {gid!r})",
                               cell.cell_type))
            continue
        released = nbg.clear_hidden_tests(original.source) if kind == "test" else original.source
        if cell.source.strip() != released.strip() or cell.cell_type != original.cell_type:
            result.flags.append(f"cell {number} ({gid!r}) was edited; the instructor's "
                                "version was used")
        steps.append(_Step(kind, original.source, gid, f"cell {number} ({gid!r})",
                           original.cell_type))
    order = [gid for gid in (nbg.grade_id(c) for c in source.notebook.cells) if gid]
    for position, gid in enumerate(order):
        if gid in placed:
            continue
        kind, original = nbg.role(cells[gid]), cells[gid]
        before = [i for i, s in enumerate(steps) if s.grade_id in order[:position]]
        missing = (nbg.CODE_STUB if original.cell_type == "code" else nbg.TEXT_STUB)
        steps.insert(before[-1] + 1 if before else 0,
                     _Step(kind, missing if kind in ("answer", "manual") else original.source,
                           gid, f"cell {gid!r} (missing, put back)", original.cell_type))
        placed.add(gid)
        result.problems.append(f"the cell {gid!r} was missing from the submission; "
                               + ("it was graded as unanswered" if kind in ("answer", "manual")
                                  else "it was put back from the instructor's notebook"))
    return steps


def _guard(memory_mb: int) -> str:
    """The first cell: cap the kernel's memory before any student code runs."""
    if not memory_mb:
        return "pass"
    limit = memory_mb * 1024 * 1024
    return ("import resource as _r\ntry:\n"
            f"    _r.setrlimit(_r.RLIMIT_AS, ({limit}, {limit}))\n"
            "except (ValueError, OSError):\n    pass\ndel _r")


def _extract_code(source: Source, gid: str, drawn: dict) -> str:
    return ("from grader.kernel_side import emit as _minigrad_kit_emit\n"
            f"_minigrad_kit_emit({source.assignment.name!r}, {gid!r}, "
            f"{json.dumps(drawn)!r}, globals())")


def _judge(source: Source, gid: str, run: CellRun, drawn: dict, env: dict,
           options: Options, result: Result) -> QuestionResult:
    question = source.assignment.question(gid)
    graded = QuestionResult(gid, question.title, 0.0, source.points(gid))
    payloads = [o["data"][MIME] for o in run.outputs
                if o.get("output_type") == "display_data" and MIME in o.get("data", {})]
    if run.status in ("skipped", "dead"):
        graded.note = ("not tested: the kernel died or stopped responding before this test "
                       "(see the problems below)")
    elif run.status == "timeout":
        graded.note = f"not tested: your code did not finish within {options.timeout:g} s"
    elif len(payloads) != 1 or not isinstance(payloads[0], dict):
        graded.note = ("not tested: the test cell handed back no usable data (something in "
                       "the notebook changed how it ran)")
        if len(payloads) > 1:
            result.flags.append(f"the test cell {gid!r} handed back {len(payloads)} results "
                                "instead of one: code in the notebook imitated the grader")
    else:
        for part in ("public", "hidden"):
            if part in drawn[gid]:
                found = judge(question, decode(payloads[0].get(part)), drawn[gid][part], env)
                graded.findings += [[f.ok, f.text, part] for f in found]
        if graded.findings and all(ok for ok, _, _ in graded.findings):
            graded.points = graded.max_points
    return graded


def _manual(source: Source, step: _Step) -> QuestionResult:
    answer = step.source.strip()
    blank = answer in ("", nbg.TEXT_STUB, nbg.CODE_STUB)
    title = source.assignment.manual.get(step.grade_id, "written answer")
    return QuestionResult(step.grade_id, title, 0.0 if blank else None,
                          source.points(step.grade_id), manual=True,
                          note="no answer" if blank else "graded by your teacher")


def _report_run(step: _Step, run: CellRun, options: Options, result: Result) -> None:
    problems = result.problems
    if run.status == "error":
        problems.append(f"{step.label} raised {run.error}")
    elif run.status == "timeout":
        problems.append(f"{step.label} ran longer than {options.timeout:g} s and was "
                        "interrupted")
    elif run.status == "dead":
        problems.append(f"the kernel died while running {step.label} (os._exit, a crash or "
                        "too much memory); the cells after it did not run")
    if run.truncated:
        problems.append(f"{step.label} printed more than {options.output_limit:,} characters;"
                        " the rest was dropped")


def _scan(source: Source, steps: list[_Step], result: Result) -> None:
    protected = {}
    for gid, cell in source.cells.items():
        if nbg.role(cell) == "locked" and cell.cell_type == "code":
            protected.update(dict.fromkeys(defined_names(cell.source), gid))
    for step in steps:
        if step.kind in ("student", "answer") and step.cell_type == "code":
            for flag in scan(step.source, protected=protected,
                             rules=source.assignment.suspicious):
                result.flags.append(f"{step.label} {flag}")
