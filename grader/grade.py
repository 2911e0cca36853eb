"""Grade a submission: the instructor's notebook decides what is read and what runs.

``grade_notebook`` does one submission:

1. **The instructor's notebook decides.** Its cells, in its order, are matched with the
   submission's by ``grade_id``. An answer cell brings the student's text; a written
   answer is text (markdown) whatever the submission made of it; locked and test cells
   are the instructor's, with the student's own numbers (``variants.py``). An edited or
   deleted one is put back and reported. The student's other cells are neither run nor
   read.
2. **Data questions** (``DATA``): the answers are read from the answer cells' text
   (``answers.py``) and judged here. Nothing runs: no kernel can change what is read.
   Each question is judged in a bounded child of this process (``bounded.py``): no
   answer can cost the grader more than a few seconds and a gigabyte.
3. **Code questions** (``CODE``): the locked cells they need and the answer cells, in the
   instructor's order, run in a fresh sandboxed process (``run.py``): one for the
   questions with autograd, one for those without, where minigrad and PyTorch do not
   exist. Each question's extract step hands back its data there; it is judged here. The
   submission's time budget (``Options.budget``) bounds its runs together.
4. **Review.** The scan (``scan.py``) reads every cell that ran. Code that could forge a
   run's data, a cell that is not plain Python, and a run whose pipe carried anything
   but its own reports, hold the questions that run serves (those that scored) for the
   teacher's review. With ``strict`` (the default), so does anything beyond an allowlist
   of what a code answer needs. Written answers are collected for the teacher.

Nothing is written here (``batch.py`` grades many files, ``report.py`` writes).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from kit_i18n import speaking

from . import notebook as nbg
from .answered import unanswered
from .bounded import judge_bounded
from .answers import written_answers
from .data import Missing, Other, Raised, decode
from .i18n import ASSIGNMENTS, _
from .ipython_text import plain_python_tree
from .languages import notebook_language, translated
from .questions import CODE, DATA
from .run import Budget, Plan, run_code
from .sandbox import choose
from .scan import examine, strict_findings
from .source import Source, context, inputs
from .variants import STUDENT, render

__all__ = ["Options", "QuestionResult", "Result", "grade_notebook", "budget_of",
           "VARIANTS", "answered_digest"]

# What the grader reads of a submission, in its own process (no --timeout applies there):
# answers are a few lines, and the student's own cells are only looked at for flags.
MAX_CELL = 100_000  # characters of one cell
MAX_OWN_CELLS = 200  # of the student's own code cells
# ... and characters of them in all: each is read and scanned in this process, about 10 s a
# megabyte (200 cells of 100,000 characters cost minutes, for nothing but flags)
MAX_OWN_TEXT = 200_000
VARIANTS = ("per-student", "none")  # --variants: each student's own numbers, or the default
WITHHELD = "…"  # what a hidden test's words from the student's code are shown as (_as_shown)


@dataclass(frozen=True)
class Options:
    timeout: float = 30  # CPU seconds per cell (and per extract step; see run.BACKSTOP)
    memory_mb: int = 4096  # address-space limit of a code run (0: none)
    salt: str = ""  # mixed into the hidden inputs
    sandbox: str = "auto"  # "auto", "required", "off" (see sandbox.py), or "bubblewrap"
    budget: float | None = None  # CPU seconds for a submission's code runs (None: 3 × timeout)
    variants: str = "per-student"  # or "none": everyone is graded on the default numbers
    # everyone graded on the numbers drawn for this name, whatever ``variants`` says: one
    # handout for a class with numbers that are not the instructor notebook's, whose
    # solutions the kit's public wheel holds (PrairieLearn, Gradescope: red team 9)
    numbers_of: str | None = None
    strict: bool = True  # code that runs may use only an allowlist (scan.strict_findings)


def budget_of(options: Options) -> float:
    return options.budget if options.budget is not None else 3 * options.timeout


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
    flags: list = field(default_factory=list)  # code worth a look, edited locked cells
    problems: list = field(default_factory=list)  # errors, timeouts, cells put back
    answers: dict = field(default_factory=dict)  # grade_id -> written answer
    unanswered: list = field(default_factory=list)  # questions left as released (answered.py)
    error: str = ""  # the submission could not be graded at all
    sandbox: str = ""  # how its code runs were isolated (sandbox.Sandbox.describe)
    title: str = ""  # the assignment's title
    lang: str = "en"  # the submission's language: its findings and feedback are in it
    variant: dict = field(default_factory=dict)  # the student's own numbers
    answered: str = ""  # digest of the answer cells as graded: a review decision is tied to it
    collected: str = ""  # the folder the teacher collected it in (batch.collection_of)
    # the student whose own folder holds this notebook, named after another (batch._hold_beside)
    beside: str = ""
    graded: dict = field(default_factory=dict)  # grade_id -> an answer cell's text as graded
    named: str = ""  # the student's name as the path spells it (batch.named_as)
    # the id the learning platform gave the student, "moodle:456" (batch.platform_id)
    platform: str = ""
    heading: str = ""  # the assignment's title as its instructor notebook writes it

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
class _Cell:
    """A cell as the instructor's notebook places it, with what the student wrote."""

    kind: str  # "answer", "manual", "locked", "test"
    gid: str
    source: str  # the student's text (answer, manual) or the instructor's (locked, test)
    label: str  # "cell 5 (your answer 'q1_answer')"
    cell_type: str  # the instructor's
    shown: str = ""  # an answer's cell type in the submission ("": not in it, put back)


def grade_notebook(source: Source, submission, student: str, file: str,
                   options: Options = Options()) -> Result:
    """Grade ``submission``; its findings are written in its language (``lang`` metadata)."""
    lang = notebook_language(submission)
    with speaking(lang):
        return _grade(source, submission, student, file, options, lang)


def _grade(source: Source, submission, student: str, file: str, options: Options,
           lang: str) -> Result:
    assignment = source.assignment
    who = options.numbers_of or (student if options.variants == "per-student" else None)
    variant = assignment.variant_for(who)
    result = Result(student, assignment.name, file, title=ASSIGNMENTS.gettext(assignment.title),
                    lang=lang, variant=variant, heading=assignment.title)
    sandbox = choose(options.sandbox)
    result.sandbox = sandbox.describe()
    instructor = render(source.notebook, assignment, who)
    cells, free = _merge(source, instructor, submission, result, lang)
    env = {**context(source, instructor), **variant}
    answered = answered_digest(cells)
    drawn = {q.name: inputs(source, q, student, variant, answered)
             for q in assignment.questions}
    judged: dict = {}
    _judge_data(source, cells, free, drawn, env, result, judged)
    _judge_code(source, cells, drawn, env, options, sandbox, result, judged)
    _built_on(assignment, judged)
    someone_else = _released_to_another(source, instructor, submission, who, lang)
    if someone_else:  # held as the flag says, also where it scored nothing on who's numbers:
        # (a class released without --students, graded per student, scored 0 everywhere,
        # unheld, under a flag that said "held for review")
        result.flags.append(someone_else)
        for graded in judged.values():
            graded.review.append(someone_else)
    _hold_rendered(cells, judged, result)
    for cell in cells:
        if cell.kind == "test":
            result.questions.append(judged[cell.gid])
        elif cell.kind == "manual":
            result.questions.append(_manual(source, cell))
            blank = result.questions[-1].points == 0
            result.answers[cell.gid] = "" if blank else cell.source
    _scan_free(free, result)
    result.answered = answered
    result.graded = {c.gid: c.source for c in cells if c.kind == "answer"}
    result.unanswered = unanswered([(c.kind, c.gid, c.source) for c in cells
                                    if c.kind in ("answer", "manual")], _owners(cells))
    return result


def _hold_rendered(cells: list, judged: dict, result: Result) -> None:
    """Flag, and hold every question that scored, when an answer graded as code is not a
    code cell in the notebook. The first cell with an answer's grade id is graded, as the
    instructor's cell type says, whatever the submission calls it; a markdown cell put
    first with q4's id was graded as q4's code, but JupyterLab renders it, and code inside
    an HTML comment (``r = 0  # <!--`` ... ``# -->``) shows nothing: the teacher who
    opened the notebook to review it saw the harmless code cell after it. Only a code cell
    shows its text as it is everywhere: nbconvert's HTML (nbgrader's formgrader) writes a
    raw cell's text into the page as HTML (unmarked, or marked ``text/html``: a comment
    hides again) or leaves it out (marked otherwise). What is graded is what
    ``minigrad-kit review`` shows (``Result.graded``)."""
    hidden = [c for c in cells if c.kind == "answer" and c.cell_type == "code"
              and c.shown not in ("", "code")]
    if not hidden:
        return
    text = _("{cells} graded as code, but not a code cell in the notebook: what a notebook "
             "viewer shows of it is not what was graded (minigrad-kit review shows the "
             "answers as graded); held for review").format(
        cells=", ".join(c.label for c in hidden))
    result.flags.append(text)
    for graded in judged.values():
        if graded.points:
            graded.review.append(text)


def answered_digest(cells: list) -> str:
    """The digest of the answer cells as graded: what a review decision is tied to, and what
    the hidden inputs are drawn with (``source.inputs``). Every cell a code run runs is an
    answer cell or the instructor's."""
    return hashlib.sha256(json.dumps(
        [[c.gid, c.source] for c in cells if c.kind == "answer"]).encode()).hexdigest()[:16]


def _merge(source: Source, instructor, submission, result: Result, lang: str):
    """The instructor's graded and locked cells, in its order, with the student's answers;
    and the student's other code cells (never run), as (label, source)."""
    try:
        theirs = translated(instructor, source.path, lang)
    except FileNotFoundError:  # no catalog for that language: only English is the original
        theirs = instructor
    in_language = {nbg.grade_id(c): c for c in theirs.cells if nbg.grade_id(c)}
    mine = {nbg.grade_id(c): c for c in instructor.cells if nbg.grade_id(c)}
    given, free = {}, []
    for number, cell in enumerate(submission.cells, 1):
        gid = (cell.get("metadata", {}).get("nbgrader") or {}).get("grade_id")
        if gid in mine and gid not in given:
            given[gid] = (number, cell)
        else:
            if gid in mine:
                result.problems.append(_("cell {number} repeats the cell {gid}; only the first "
                                         "one was graded").format(number=number, gid=repr(gid)))
            if cell.get("cell_type") == "code":
                free.append((_("cell {number}").format(number=number), cell.get("source", "")))
    kept, unread, total = [], [], 0
    for index, (label, text) in enumerate(free):
        total += len(text) if len(text) <= MAX_CELL else 0
        fits = index < MAX_OWN_CELLS and len(text) <= MAX_CELL and total <= MAX_OWN_TEXT
        (kept if fits else unread).append((label, text))
    free = kept
    if unread:
        result.problems.append(_("{count} cells of your own were not read (more than {cells} "
                                 "such cells, more than {limit} characters in one, or more "
                                 "than {total} in all); only the answer cells are graded").format(
            count=len(unread), cells=MAX_OWN_CELLS, limit=f"{MAX_CELL:,}",
            total=f"{MAX_OWN_TEXT:,}"))
    cells = []
    for gid, original in mine.items():
        kind = nbg.role(original)
        if gid not in given:
            stub = nbg.CODE_STUB if original.cell_type == "code" else nbg.TEXT_STUB
            label = _("the cell {gid} (missing, put back)").format(gid=repr(gid))
            cells.append(_Cell(kind, gid, stub if kind in ("answer", "manual") else
                               original.source, label, original.cell_type))
            result.problems.append(
                (_("the cell {gid} was missing from the submission; it was graded as "
                   "unanswered") if kind in ("answer", "manual") else
                 _("the cell {gid} was missing from the submission; it was put back from the "
                   "instructor's notebook")).format(gid=repr(gid)))
            continue
        number, cell = given[gid]
        if kind in ("answer", "manual"):
            label = _("cell {number} (your answer {gid})").format(number=number, gid=repr(gid))
            text = cell.get("source", "")
            if len(text) > MAX_CELL:
                result.problems.append(_("{cell} has {length} characters, more than the {limit} "
                                         "an answer may have; it was graded as unanswered")
                                       .format(cell=label, length=f"{len(text):,}",
                                               limit=f"{MAX_CELL:,}"))
                text = nbg.CODE_STUB if original.cell_type == "code" else nbg.TEXT_STUB
            cells.append(_Cell(kind, gid, text, label, original.cell_type,
                               str(cell.get("cell_type") or "none")))
            continue
        released = {c.source.strip() for c in (original, in_language.get(gid, original))}
        if kind == "test":  # as released: without the hidden tests (the source has them)
            released |= {nbg.clear_hidden_tests(text) for text in released}
        released = {text.strip() for text in released}
        if cell.get("source", "").strip() not in released or \
                cell.get("cell_type") != original.cell_type:
            result.flags.append(_("cell {number} ({gid}) was edited; the instructor's version "
                                  "was used").format(number=number, gid=repr(gid)))
        cells.append(_Cell(kind, gid, original.source,
                           _("cell {number} ({gid})").format(number=number, gid=repr(gid)),
                           original.cell_type))
    return cells, free


def _released_to_another(source: Source, instructor, submission, who: str | None,
                         lang: str) -> str:
    """Why the submission shows another student's variant ("" if it shows ``who``'s): the
    student named in its metadata (``release --students`` writes it), or a locked cell that
    carries the variant (the numbers, ``start(student=...)``) with other text than ``who``'s.
    It is graded on ``who``'s numbers all the same; this says it is to be looked at (a
    notebook handed on, or a friend's answers copied in with their numbers)."""
    if who is None or source.assignment.variant is None:
        return ""
    named = (submission.metadata.get("minigrad_kit") or {}).get(STUDENT)
    default = {nbg.grade_id(c): c.source for c in source.notebook.cells if nbg.grade_id(c)}
    try:
        theirs = translated(instructor, source.path, lang)
    except FileNotFoundError:
        theirs = instructor
    mine: dict = {}  # grade_id -> the texts of a variant's cell for who (English, theirs)
    for notebook in (instructor, theirs):
        for cell in notebook.cells:
            gid = nbg.grade_id(cell)
            if gid and nbg.role(cell) == "locked" and cell.source != default.get(gid):
                mine.setdefault(gid, set()).add(cell.source.strip())
    shown = [c for c in submission.cells
             if (c.get("metadata", {}).get("nbgrader") or {}).get("grade_id") in mine]
    other = [c for c in shown if c.get("source", "").strip() not in
             mine[c["metadata"]["nbgrader"]["grade_id"]]]
    if named in (None, who) and not other:
        return ""
    return _("this notebook shows the numbers of {other}, not those of {student} who handed it "
             "in (a notebook released to someone else?); it was graded on {student}'s own "
             "numbers and is held for review").format(
        other=repr(named) if named not in (None, who) else _("another student"),
        student=repr(who))


def _built_on(assignment, judged: dict) -> None:
    """A question that builds on others (``Question.after``) scores only when they have full
    marks, each judged at its own extract step, on its own answer. Its own judge sees what
    the names hold when it runs, after the later cells: there the earlier answer may no
    longer be checkable (assignment 3: over an x of zeros, y's values show no factor, and
    after backward() autograd can no longer show it either), and a wrong y with an x.grad
    put right by a second backward() scored q3."""
    for question in assignment.questions:
        graded = judged.get(question.name)
        missing = [name for name in question.after if name in judged
                   and judged[name].points != judged[name].max_points]
        if graded is not None and graded.points and missing:
            graded.points = 0.0
            graded.findings.append([False, _("{question} builds on {earlier}, which is not "
                                             "right yet: fix {earlier} first").format(
                question=question.name, earlier=", ".join(missing)), "public"])


def _owners(cells: list) -> dict:
    """Answer cell -> the question of the first test cell after it."""
    owners, waiting = {}, []
    for cell in cells:
        if cell.kind in ("answer", "manual"):
            waiting.append(cell.gid)
        elif cell.kind == "test":
            owners.update(dict.fromkeys(waiting, cell.gid))
            waiting = []
    return owners


# --- data questions: read from the text, judged here ---------------------------------------

def _judge_data(source: Source, cells: list, free: list, drawn: dict, env: dict,
                result: Result, judged: dict) -> None:
    written = [c.source for c in cells if c.kind == "answer" and c.cell_type == "code"]
    for question in source.assignment.questions:
        if question.kind != DATA:
            continue
        names = question.answer_names
        # (the student's own numbers only, which their notebook shows: never a value of
        # the teacher's context cells, which an f-string would quote in the feedback)
        data = written_answers(written, names, result.variant)
        elsewhere = written_answers([text for _label, text in free], names)
        for name in names:
            if isinstance(data[name], Missing) and not isinstance(elsewhere[name], Missing):
                where = next(label for label, text in free
                             if not isinstance(written_answers([text], (name,))[name], Missing))
                result.problems.append(_("{name} is set in {cell}, which is not an answer "
                                         "cell: the grader reads answers from the answer "
                                         "cells only").format(name=name, cell=where))
        graded = _question_result(source, question.name)
        parts = {part: (data, drawn[question.name][part], env)
                 for part in ("public", "hidden") if part in drawn[question.name]}
        _score(graded, judge_bounded(question, parts, withheld=("hidden",), everything=False))
        judged[question.name] = graded


def _score(graded: QuestionResult, judged: dict) -> None:
    """The findings of each part judged (public, hidden) into ``graded``; full points only
    when every part drawn was judged, found something, and all of it passed. (A part with
    no findings checked nothing: for a code question, one whose data did not arrive.)"""
    for part, found in judged.items():
        graded.findings += [[f.ok, f.text, part] for f in found]
        if not found:
            graded.findings.append([False, _("the {part} tests of {question} checked "
                                             "nothing (no data for them)").format(
                part=_part_name(part), question=graded.name), part])
    if graded.findings and all(ok for ok, _text, _part in graded.findings):
        graded.points = graded.max_points


def _part_name(part: str) -> str:
    return _("public") if part == "public" else _("hidden")


def _question_result(source: Source, gid: str) -> QuestionResult:
    question = source.assignment.question(gid)
    return QuestionResult(gid, ASSIGNMENTS.gettext(question.title), 0.0, source.points(gid))


# --- code questions: run in a fresh sandbox, judged here -----------------------------------

def _judge_code(source: Source, cells: list, drawn: dict, env: dict, options: Options,
                sandbox, result: Result, judged: dict) -> None:
    assignment = source.assignment
    budget = Budget(budget_of(options))
    for autograd in (True, False):
        served = [q for q in assignment.questions if q.kind == CODE and q.autograd == autograd]
        if not served:
            continue
        plan, placed = _plan(source, cells, served, drawn, autograd, options)
        run = run_code(plan, sandbox=sandbox, timeout=options.timeout, budget=budget) \
            if not budget.spent() else None
        steps = run.steps if run else []
        if run is None or any(s.status == "budget" for s in steps):
            result.flags.append(_("the time budget of {seconds} s ran out; the cells after it "
                                  "did not run, and the questions were graded on what ran")
                                .format(seconds=f"{budget_of(options):g}"))
        if run is not None and run.startup:
            result.problems.append(_("the grading run could not start: {why}").format(
                why=run.startup))
        hidden_given = False  # (the student's code has been called with hidden inputs)
        for index, (cell, question) in enumerate(placed):
            step = steps[index] if index < len(steps) else None
            if question is None:
                if not (step is not None and step.status == "error" and
                        _holds_data(cell, assignment)):
                    _report_step(cell, step, options, result, quote=not hidden_given)
                continue
            # Once the student's code has been called with hidden inputs, everything it
            # hands back later in the run is read as a hidden test's: a later question's
            # public checks quoted what a function returned, and one that returned the
            # inputs an earlier one had kept (``seen.append(x.tolist())``) had every hidden
            # input of that question said back in the feedback (the public checks' own
            # words are check()'s, in the notebook). Within a step, public comes first.
            said = ("public", "hidden") if hidden_given else ("hidden",)
            hidden_given = hidden_given or "hidden" in drawn[question.name]
            graded = _question_result(source, question.name)
            if step is None or step.data is None:
                graded.note = _("{question} was not checked: {why}").format(
                    question=question.name, why=_why_not(step, options,
                                                         quote=said == ("hidden",)))
            else:
                wanted = [p for p in ("public", "hidden") if p in drawn[question.name]]
                parts = {part: (_as_shown(decode(step.data[part]),
                                          "hidden" if part in said else part),
                                drawn[question.name][part], env)
                         for part in wanted if part in step.data}
                _score(graded, {**dict.fromkeys(wanted, []),
                                **judge_bounded(question, parts, withheld=said)})
            judged[question.name] = graded
        holds = _review(source, placed, run, result, options.strict, autograd)
        for name, reasons in holds.items():
            if judged[name].points:
                judged[name].review += reasons


def _holds_data(cell, assignment) -> bool:
    """Whether ``cell`` sets an answer given as data. Its answers are read from its text;
    an error it raises in a code run is not said: the run has only the read-only cells the
    code questions need, so ``a_grad_shape = (m, 1)``, right in the notebook (where the
    cell that sets ``m`` ran), raised NameError there, a problem in honest work's feedback."""
    names = tuple(n for q in assignment.questions if q.kind == DATA for n in q.answer_names)
    return bool(names) and any(not isinstance(v, Missing)
                               for v in written_answers([cell.source], names).values())


def _plan(source: Source, cells: list, served: list, drawn: dict, autograd: bool,
          options: Options):
    """The steps of one run, and for each the cell and question (None: a cell) it is."""
    names = {q.name for q in served}
    needed = {gid for q in served for gid in q.runs}
    last = max(i for i, c in enumerate(cells) if c.kind == "test" and c.gid in names)
    steps, placed = [], []
    for index, cell in enumerate(cells[:last + 1]):
        if cell.kind == "test" and cell.gid in names:
            steps.append({"kind": "extract", "question": cell.gid})
            placed.append((cell, source.assignment.question(cell.gid)))
        elif cell.cell_type == "code" and (cell.kind == "answer" or
                                           (cell.kind == "locked" and cell.gid in needed)):
            steps.append({"kind": "cell", "source": cell.source,
                          "filename": f"<cell {index + 1}>"})
            placed.append((cell, None))
    plan = Plan(steps, source.module_text, source.module.name,
                {q.name: drawn[q.name] for q in served}, autograd, options.memory_mb)
    return plan, placed


def _as_shown(data, part: str):
    """A code question's data as its judge may quote it in the student's feedback. The
    hidden tests' inputs reach the student's code (it is called with them), so what that
    code says in words there (text it returns, an exception's message, an object's repr)
    is reduced to its kind: feedback carries no hidden input out in words (and a next
    submission that hard-coded one is graded on others: ``source.inputs``, drawn with
    its answers). Numbers are judged as they
    are, and the judges' findings on them quote none of them (``judging.WITHHELD``: a
    returned value's shape, its values, the repr of a ragged list carried every hidden
    input out)."""
    if part != "hidden":
        return data
    if isinstance(data, list):
        return [_as_shown(item, part) for item in data]
    if isinstance(data, dict):
        return {key: _as_shown(value, part) for key, value in data.items()}
    if isinstance(data, str):
        return WITHHELD
    if isinstance(data, Raised):  # (its kind, of twenty builtin ones, and the line that
        # raised can each be chosen by the inputs: bits a call, to carry them out)
        return Raised(WITHHELD, WITHHELD, "")
    if isinstance(data, Other):  # (its kind is a type's name, which code can make)
        return Other(WITHHELD, WITHHELD)
    return data


def _report_step(cell: _Cell, step, options: Options, result: Result,
                 quote: bool = True) -> None:
    """A cell's problem in the feedback; ``quote`` False (a cell that ran after the
    student's code was called with hidden inputs): its error's kind only, as
    ``_as_shown``."""
    if step is None or step.status in ("ok", "skipped"):
        return
    if step.status == "error":
        said = step.error if quote else step.error.partition(":")[0] + ": " + WITHHELD
        result.problems.append(_("{cell} raised {error}").format(cell=cell.label,
                                                                 error=said))
    elif step.status == "timeout":
        result.problems.append(
            (_("{cell} ran longer than {seconds} s and was stopped; the cells after it did not "
               "run") if step.killed else
             _("{cell} ran longer than {seconds} s and was interrupted")).format(
                cell=cell.label, seconds=f"{options.timeout:g}"))
    elif step.status == "dead":
        result.problems.append(_("the grading run ended while running {cell} (os._exit, a "
                                 "crash or too much memory); the cells after it did not run")
                               .format(cell=cell.label))


def _why_not(step, options: Options, quote: bool = True) -> str:
    """Why a question's extract step gave no data; ``quote`` False (the student's code had
    been given hidden inputs before it): an error's kind only, as ``_report_step``."""
    if step is None or step.status == "skipped":
        return _("the grading run stopped before it")
    if step.status == "budget":
        return _("the time budget ran out")
    if step.status == "timeout":
        return _("it ran longer than {seconds} s").format(seconds=f"{options.timeout:g}")
    if step.status == "error":
        return step.error if quote else step.error.partition(":")[0] + ": " + WITHHELD
    return _("the grading run ended")


def _review(source: Source, placed: list, run, result: Result, strict: bool,
            autograd: bool = True) -> dict:
    """question -> reasons to hold it: suspicious code in a cell that ran before its
    extract step, or a pipe that carried anything but the run's own reports."""
    holds: dict = {}
    questions = [q.name for _c, q in placed if q is not None]
    if run is not None and run.tampering:
        text = _("the grading run of {questions} received data it did not ask for ({what}): "
                 "code in the notebook imitated the grader").format(
            questions=", ".join(questions), what=run.tampering[0])
        result.flags.append(text)
        for name in questions:
            holds.setdefault(name, []).append(text)
    owners = _owners([c for c, _q in placed])
    for index, (cell, question) in enumerate(placed):
        if question is not None or cell.kind != "answer":
            continue
        later = [q.name for _c, q in placed[index + 1:] if q is not None]
        for text, held in _suspicions(cell, source, owners, later, strict, autograd):
            result.flags.append(text)
            for name in held:
                holds.setdefault(name, []).append(text)
    return holds


def _suspicions(cell: _Cell, source: Source, owners: dict, later: list, strict: bool,
                autograd: bool = True) -> list:
    """(flag, questions it holds) for an answer cell that ran (in a run with ``autograd``)."""
    found = []
    plain = _plain_python(cell.source)
    beyond = strict_findings(cell.source, autograd) if strict and plain else []
    if beyond:
        found.append((_("{cell} uses {things}, beyond what a code answer needs (--strict): "
                        "held for review").format(cell=cell.label, things=", ".join(beyond)),
                      later))
    if not plain:
        found.append((_("{cell} is not plain Python (IPython's %magics, ! commands, or a "
                        "syntax error): the grader ran it as Python, and holds what it could "
                        "have changed").format(cell=cell.label), later))
    for suspicion in examine(cell.source, rules=source.assignment.suspicious):
        text = f"{cell.label} {suspicion.text}"
        if suspicion.rule is not None:
            owner = owners.get(cell.gid)
            held = [q for q in (suspicion.rule or (owner,)) if q in later]
            found.append((text, held))
        elif suspicion.tampering:
            found.append((text, later))
        else:
            found.append((text, []))
    return found


def _plain_python(text: str) -> bool:
    """Whether ``text`` compiles as Python the way a code run compiles it (the parse the
    scan and the answers given as data share: ``ipython_text.python_tree``)."""
    return plain_python_tree(text) is not None


def _scan_free(free: list, result: Result) -> None:
    """The student's other cells never run; code in them that aims at the grader is still
    reported (it holds nothing)."""
    for label, text in free:
        for suspicion in examine(text):
            if suspicion.tampering:
                result.flags.append(_("{cell} {finding} (not run when grading)").format(
                    cell=label, finding=suspicion.text))


def _manual(source: Source, cell: _Cell) -> QuestionResult:
    answer = cell.source.strip()
    blank = answer in ("", nbg.TEXT_STUB, nbg.CODE_STUB)
    title = source.assignment.manual.get(cell.gid)
    title = ASSIGNMENTS.gettext(title) if title else _("written answer")
    return QuestionResult(cell.gid, title, 0.0 if blank else None,
                          source.points(cell.gid), manual=True,
                          note=_("no answer") if blank else _("graded by your teacher"))
