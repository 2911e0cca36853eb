"""Release student versions, after proving that solution and stub behave.

``release(sources, out)`` writes, for each instructor notebook, its student
version (``notebook.student_version``: solutions stubbed, hidden tests
removed, outputs cleared, test cells locked, checksums recorded) and, beside
it, the question module that the notebook's ``check()`` uses. With
``students``, one version per student in ``out/<student>/``, each with the
student's own numbers in its locked cells (``variants.render``). First,
unless ``verify=False``, it checks four runs of each notebook:

* minigrad-kit's grader gives the solution full marks ...
* ... and the student version zero on every autograded question;
* run as it is, the way real nbgrader runs it, every test cell passes on the
  solution with nothing on stderr ...
* ... and fails once the solutions are stubbed (hidden tests kept).

Each run is made as grading makes its own: in a worker process (with ``jobs`` 1 as
well), its code in the sandbox (``options.sandbox``; the two runs as nbgrader runs
them in a kernel under bubblewrap, as ``minigrad-kit kernelspec`` makes nbgrader's). A
run whose process dies (the system out of memory, or killed) is run again alone; if it
dies again, that notebook is not released and the problem says which run died, and why.

A notebook with a problem is not written; the problems name file, question
and fix.
"""

from __future__ import annotations

import dataclasses
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import nbformat

from . import notebook as nbg
from .batch import alone, workers
from .grade import Options, grade_notebook
from .kernel import run_cells
from .languages import translated
from .progress import Progress
from .report import write_atomic
from .sandbox import choose
from .source import SourceError, load_source
from .variants import render

__all__ = ["release", "verify"]

CHECKS = ("solution", "stub", "twin-solution", "twin-stub")
RUNS = {  # what each of CHECKS is, for the teacher
    "solution": "the grader's run of the solution",
    "stub": "the grader's run of the student version (no answers)",
    "twin-solution": "the run of the solution notebook as nbgrader runs it",
    "twin-stub": "the run of the notebook with its solutions stubbed, as nbgrader runs it",
}


def release(sources: list[str], out, *, verify_first: bool = True,
            options: Options = Options(), jobs: int = 2, lang: str = "en",
            students: list[str] | None = None, progress: Progress | None = None
            ) -> tuple[list[Path], list[str]]:
    """Write the student versions into ``out`` (in ``lang``: see ``languages.py``; with
    ``students``, one each in ``out/<student>/``); returns (written files, problems).
    ``progress`` (a progress bar) counts the check runs as they finish."""
    out, problems, loaded = Path(out), [], []
    for path in sources:
        try:
            source = load_source(path)
        except (SourceError, ValueError, FileNotFoundError) as error:
            problems.append(str(error))
            continue
        if (out / source.path.name).resolve() == source.path.resolve():
            problems.append(f"{source.path}: --out would overwrite the instructor notebook; "
                            "choose another folder (e.g. release/)")
            continue
        try:
            notebook = translated(source.notebook, source.path, lang)
        except (FileNotFoundError, ValueError) as error:
            problems.append(str(error))
            continue
        loaded.append((source, notebook))
    tasks = [(str(s.path), check, options) for s, _ in loaded for check in CHECKS]
    if verify_first and tasks:
        progress = progress or Progress("checking")  # (drawn nowhere)
        progress.start(len(tasks))
        problems += _run_all(tasks, jobs, progress)
    written = []
    for source, notebook in loaded:
        if any(p.startswith(str(source.path)) for p in problems):
            continue
        for student in students or [None]:
            folder = out / student if student else out
            mine = render(notebook, source.assignment, student)
            write_atomic(folder / source.path.name,
                         nbformat.writes(nbg.handout(mine)) + "\n")
            write_atomic(folder / source.module.name, source.module_text)  # check() needs it
            written += [folder / source.path.name, folder / source.module.name]
    return written, problems


def _run_all(tasks: list, jobs: int, progress: Progress) -> list[str]:
    """The problems of every task, in the order of ``tasks``, each run in a worker process
    (with ``jobs`` 1 too: a run that died in release's own process ended the release, with
    nothing said but a traceback). A worker that dies breaks the pool: each run it had not
    finished is made again, alone (``batch.alone``), and one whose process dies again is a
    problem saying which run died, and why."""
    found: list = [None] * len(tasks)
    broken = []
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(tasks))),
                             mp_context=workers()) as pool:
        futures = {pool.submit(verify, *task): index for index, task in enumerate(tasks)}
        for future in as_completed(futures):
            index = futures[future]
            try:
                found[index] = future.result()
            except BrokenProcessPool:
                broken.append(index)  # (which of them killed it, the pool cannot say)
                continue
            progress.done(failed=bool(found[index]))
    for index in sorted(broken):
        answer, why = alone(_send, verify, *tasks[index], named="its process")
        found[index] = answer if answer is not None else [_died(*tasks[index][:2], why)]
        progress.done(failed=bool(found[index]))
    return [problem for problems in found for problem in problems]


def _send(send, function, *arguments) -> None:
    """In ``batch.alone``'s process: run, and send back what ``function`` returned."""
    send.send(function(*arguments))
    send.close()


def _died(path: str, check: str, why: str) -> str:
    return (f"{path}: {RUNS[check]} did not finish: {why}; the notebook is not released. "
            "Release it again (with --jobs 1, or on a machine with more memory)")


def verify(path: str, check: str, options: Options = Options()) -> list[str]:
    """One of the four runs (``CHECKS``); the problems it found."""
    try:
        source = load_source(path)
        if check in ("solution", "stub"):
            return _graded(source, check, options)
        notebook = source.notebook if check == "twin-solution" else nbg.stub_solutions(
            source.notebook)
        return _twin(source, notebook, check, options)
    except Exception as error:  # noqa: BLE001 (e.g. no kernel could start)
        return [f"{path}: {RUNS[check]} could not be done ({type(error).__name__}: "
                f"{error}); check that a python3 Jupyter kernel can start"]


def _graded(source, check: str, options: Options) -> list[str]:
    module = source.module
    options = dataclasses.replace(options, variants="none")  # the instructor's numbers
    notebook = (source.notebook if check == "solution"
                else nbg.student_version(source.notebook))
    result = grade_notebook(source, notebook, check, source.path.name, options)
    found = []
    for question in result.questions:
        if question.manual:
            continue  # written answers are graded by the teacher
        failed = [text for ok, text, _ in question.findings if not ok] or [question.note]
        if check == "solution" and question.points != question.max_points:
            found.append(f"{source.path}: {question.name}: the solution fails the grader "
                         f"({failed[0]}); fix the solution between ### BEGIN SOLUTION and "
                         f"### END SOLUTION, or the question in {module}")
        if check == "stub" and question.points and question.max_points:
            found.append(f"{source.path}: {question.name}: the student version scores "
                         f"without an answer; make the question in {module} check something "
                         "the stub does not do")
    if check == "solution":
        found += [f"{source.path}: the solution notebook: {problem}; fix that cell"
                  for problem in result.problems]
    return found


def with_module(source, folder) -> None:
    """Put the question module in the kernel's working folder, as beside a handed-out
    notebook, so that the notebook's ``start()`` finds it."""
    (Path(folder) / source.module.name).write_text(source.module_text, encoding="utf-8")


def _twin(source, notebook, check: str, options: Options) -> list[str]:
    """Run the code cells as they are (nbgrader's way) and read each test cell's fate."""
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-") as folder:
        with_module(source, folder)
        runs = run_cells([c.source for c in cells], cwd=folder, timeout=options.timeout,
                         sandbox=choose(options.sandbox))
    found = []
    for cell, run in zip(cells, runs):
        stderr = "".join(o.get("text", "") for o in run.outputs
                         if o.get("output_type") == "stream" and o.get("name") == "stderr")
        failed = run.status != "ok" or bool(stderr)
        gid = nbg.grade_id(cell)
        why = run.error or stderr.strip()[:200] or run.status
        if nbg.role(cell) != "test":
            if check == "twin-solution" and run.status != "ok":
                found.append(f"{source.path}: cell {gid or '(unnamed)'} raised {why} when the "
                             "solution notebook runs; fix that cell")
        elif check == "twin-solution" and failed:
            found.append(f"{source.path}: {gid}: the test cell fails on the solution when run "
                         f"in the notebook, as nbgrader runs it ({why}); fix the solution or "
                         "the test's asserts (a test cell must not write to stderr either)")
        elif check == "twin-stub" and not failed:
            found.append(f"{source.path}: {gid}: the test cell passes with the stub when run in "
                         "the notebook, as nbgrader runs it; add an assert that fails without "
                         "an answer")
    return found
