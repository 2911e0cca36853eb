"""Grade a submission: restore, run in a fresh kernel, judge here.

``grade_notebook`` does one submission:

1. the student's cells are kept; every locked and test cell is restored from
   the instructor notebook by ``grade_id`` (edited ones are flagged, missing
   ones put back);
2. each test cell is replaced by the extract step, fed the inputs drawn for
   this student, and the notebook runs in a fresh, sandboxed kernel
   (``kernel.py``, ``sandbox.py``);
3. each question is judged in this process, on the data the kernel handed
   back, with the teacher's context cells run here as well; a question
   answered with data (a formula) is judged on the notebook's text instead,
   and its test cell does not run;
4. the student's code is scanned (``scan.py``); written answers are
   collected for the teacher. Tampering (a scan finding that could forge
   data, a test cell whose output was cleared or that handed back more than
   one result) puts the questions it could have changed on **review**: their
   points are held back until the teacher accepts or rejects them.

Nothing is written here (``batch.py`` grades many files, ``report.py`` writes).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kit_i18n import speaking

from . import notebook as nbg
from .answered import unanswered
from .answers import written_answers
from .data import decode
from .kernel import CellRun, run_cells
from .i18n import ASSIGNMENTS, _
from .kernel_side import MIME
from .languages import notebook_language, translated
from .questions import judge
from .sandbox import choose
from .scan import defined_names, defines_code, examine
from .source import Source, context, inputs

__all__ = ["Options", "QuestionResult", "Result", "grade_notebook", "with_module"]

EXTRACT_LIMIT = 2_000_000  # characters of data one test cell may hand back


@dataclass(frozen=True)
class Options:
    timeout: float = 30  # seconds per cell
    output_limit: int = 100_000  # characters of output kept per cell
    memory_mb: int = 4096  # address-space limit of the kernel (0: none)
    salt: str = ""  # mixed into the hidden inputs
    sandbox: str = "auto"  # "auto", "required", "off" (see sandbox.py), or "bubblewrap"


@dataclass
class QuestionResult:
    name: str
    title: str
    points: float | None  # None: to be graded by the teacher
    max_points: float
    findings: list = field(default_factory=list)  # [ok, text, "public" | "hidden"]
    note: str = ""  # why there was nothing to judge
    manual: bool = False  # a written answer (0 points if left blank)
    review: list = field(default_factory=list)  # tampering that holds the points back

    @property
    def held(self) -> bool:
        """Points held back for the teacher's review."""
        return bool(self.review)


@dataclass
class Result:
    student: str
    assignment: str
    file: str
    questions: list = field(default_factory=list)
    flags: list = field(default_factory=list)  # suspicious code, edited locked cells
    problems: list = field(default_factory=list)  # errors, timeouts, truncated output
    answers: dict = field(default_factory=dict)  # grade_id -> written answer
    unanswered: list = field(default_factory=list)  # questions left as released (answered.py)
    error: str = ""  # the submission could not be graded at all
    sandbox: str = ""  # how its kernel was isolated (sandbox.Sandbox.describe)
    title: str = ""  # the assignment's title
    lang: str = "en"  # the submission's language: its findings and feedback are in it

    @property
    def points(self) -> float:
        """Points graded automatically (held-back ones not counted)."""
        return sum(q.points for q in self.questions if not q.manual and not q.held)

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
    """Grade ``submission``; its findings are written in its language (``lang`` metadata)."""
    lang = notebook_language(submission)
    with speaking(lang):
        return _grade(source, submission, student, file, options, lang)


def _grade(source: Source, submission, student: str, file: str, options: Options,
           lang: str) -> Result:
    result = Result(student, source.assignment.name, file,
                    title=ASSIGNMENTS.gettext(source.assignment.title), lang=lang)
    sandbox = choose(options.sandbox)
    result.sandbox = sandbox.describe()
    steps = _merge(source, submission, result, lang)
    drawn = {q.name: inputs(source, q, student) for q in source.assignment.questions}
    code = [_guard(options.memory_mb)]
    for step in steps:
        if step.kind == "test":
            as_data = source.assignment.question(step.grade_id).answers
            code.append("pass" if as_data else
                        _extract_code(source, step.grade_id, drawn[step.grade_id]))
        else:
            code.append(step.source if step.cell_type == "code" else "")
    extract_at = {i + 1: EXTRACT_LIMIT for i, s in enumerate(steps) if s.kind == "test"}
    scratch = tempfile.TemporaryDirectory(prefix="minigrad-kit-", ignore_cleanup_errors=True)
    with scratch as folder:  # (whatever the kernel left in it, removing it never fails)
        with_module(source, folder)
        runs = run_cells(code, cwd=folder, timeout=options.timeout,
                         output_limit=options.output_limit, limits=extract_at,
                         sandbox=sandbox, count=MIME)[1:]
    env = context(source)
    written = [s.source for s in steps if s.kind in ("student", "answer")
               and s.cell_type == "code"]
    for step, run, after in zip(steps, runs, runs[1:] + [None]):
        if run.status == "timeout" and after is not None and after.status == "skipped":
            result.problems.append(f"the kernel did not answer after {step.label} was "
                                   "interrupted, so the cells after it did not run")
        if step.kind == "test":
            result.questions.append(_judge(source, step.grade_id, run, drawn, env, options,
                                           result, written))
        elif step.cell_type == "code":
            _report_run(step, run, options, result)
        if step.kind == "manual":
            result.questions.append(_manual(source, step))
            blank = result.questions[-1].points == 0
            result.answers[step.grade_id] = "" if blank else step.source
    _scan(source, steps, result)
    result.unanswered = unanswered([(s.kind, s.grade_id, s.source) for s in steps
                                    if s.kind in ("answer", "manual")], _answer_owners(source))
    return result


def with_module(source: Source, folder) -> None:
    """Put the question module in the kernel's working folder, as beside a handed-out
    notebook, so that the notebook's ``start()`` finds it."""
    (Path(folder) / source.module.name).write_text(source.module_text, encoding="utf-8")


def _merge(source: Source, submission, result: Result, lang: str = "en") -> list[_Step]:
    """The student's cells, with locked and test cells from the source (see module doc).
    A locked cell may be the instructor's in English or in the submission's language."""
    cells, steps, placed = source.cells, [], set()
    try:
        theirs = translated(source.notebook, source.path, lang)
    except FileNotFoundError:  # no catalog for that language: only English is the original
        theirs = source.notebook
    in_language = {nbg.grade_id(c): c for c in theirs.cells if nbg.grade_id(c)}
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
        released = {nbg.clear_hidden_tests(c.source).strip() if kind == "test" else c.source.strip()
                    for c in (original, in_language.get(gid, original))}
        if cell.source.strip() not in released or cell.cell_type != original.cell_type:
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
            f"_minigrad_kit_emit({source.module_text!r}, {source.module.name!r}, {gid!r}, "
            f"{json.dumps(drawn)!r}, globals())")


def _judge(source: Source, gid: str, run: CellRun, drawn: dict, env: dict,
           options: Options, result: Result, written: list[str]) -> QuestionResult:
    question = source.assignment.question(gid)
    graded = QuestionResult(gid, ASSIGNMENTS.gettext(question.title), 0.0, source.points(gid))
    if question.answers:  # data, read from the notebook's text: the kernel has no say
        data = written_answers(written, question.answers)
        for part in ("public", "hidden"):
            if part in drawn[gid]:
                found = judge(question, data, drawn[gid][part], env)
                graded.findings += [[f.ok, f.text, part] for f in found]
        if graded.findings and all(ok for ok, _text, _part in graded.findings):
            graded.points = graded.max_points
        return graded
    payloads = [o["data"][MIME] for o in run.outputs
                if o.get("output_type") == "display_data" and MIME in o.get("data", {})]
    forged = []
    if run.cleared:
        forged.append(f"the output of the test cell {gid!r} was cleared while it ran: code in "
                      "the notebook can hide the grader's data and show its own")
    if run.counted > 1:
        forged.append(f"the test cell {gid!r} handed back {run.counted} results instead of "
                      "one: code in the notebook imitated the grader")
    result.flags += forged
    graded.review += forged
    if run.status in ("skipped", "dead"):
        graded.note = _("not tested: the kernel died or stopped responding before this test "
                        "(see the problems below)")
    elif run.status == "timeout":
        graded.note = _("not tested: your code did not finish within {seconds} s").format(
            seconds=f"{options.timeout:g}")
    elif len(payloads) != 1 or not isinstance(payloads[0], dict):
        graded.note = _("not tested: the test cell handed back no usable data (something in "
                        "the notebook changed how it ran)")
    else:
        for part in ("public", "hidden"):
            if part in drawn[gid]:
                found = judge(question, decode(payloads[0].get(part)), drawn[gid][part], env)
                graded.findings += [[f.ok, f.text, part] for f in found]
        if graded.findings and all(ok for ok, _text, _part in graded.findings):
            graded.points = graded.max_points
    return graded


def _manual(source: Source, step: _Step) -> QuestionResult:
    answer = step.source.strip()
    blank = answer in ("", nbg.TEXT_STUB, nbg.CODE_STUB)
    title = source.assignment.manual.get(step.grade_id)
    title = ASSIGNMENTS.gettext(title) if title else _("written answer")
    return QuestionResult(step.grade_id, title, 0.0 if blank else None,
                          source.points(step.grade_id), manual=True,
                          note=_("no answer") if blank else _("graded by your teacher"))


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
    """Flag suspicious code; tampering puts the questions it could change on review.

    An assignment's rule (autograd in a by-hand answer) holds back the question whose
    answer cell it is in, or, in a cell of the student's own that defines code, the
    questions the rule names. Any other tampering can change every question whose data
    comes from the kernel. Questions answered with data (read from the text) are immune.
    """
    protected = {}
    for gid, cell in source.cells.items():
        if nbg.role(cell) == "locked" and cell.cell_type == "code":
            protected.update(dict.fromkeys(defined_names(cell.source), gid))
    assignment = source.assignment
    from_kernel = [q for q in result.questions if not q.manual
                   and q.name in {x.name for x in assignment.questions if not x.answers}]
    owner = _answer_owners(source)
    for step in steps:
        if step.kind not in ("student", "answer") or step.cell_type != "code":
            continue
        for found in examine(step.source, protected=protected, rules=assignment.suspicious):
            held = []
            if found.rule is not None:
                if step.kind == "answer":
                    held = [owner.get(step.grade_id)]
                    if found.rule and held[0] not in found.rule:
                        continue  # a rule about another question
                elif defines_code(step.source):
                    held = list(found.rule) or [q.name for q in from_kernel]
                else:
                    continue  # top-level checks in a scratch cell (x.backward() to verify)
            elif found.tampering:
                held = [q.name for q in from_kernel]
            text = f"{step.label} {found.text}"
            result.flags.append(text)
            for question in from_kernel:
                if question.name in held:
                    question.review.append(text)


def _answer_owners(source: Source) -> dict:
    """Answer cell -> the question of the first test cell after it."""
    owners, waiting = {}, []
    for cell in source.notebook.cells:
        gid, kind = nbg.grade_id(cell), nbg.role(cell)
        if kind in ("answer", "manual"):
            waiting.append(gid)
        elif kind == "test":
            owners.update(dict.fromkeys(waiting, gid))
            waiting = []
    return owners
