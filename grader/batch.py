"""Grade many submission files in parallel; one that fails never stops the rest.

``grade_files(paths, sources)`` grades each file in a worker process (two at a
time by default): it reads the file, finds its instructor notebook, names the
student and calls ``grade.grade_notebook``. Whatever goes wrong with one file
(not a notebook, no matching assignment, a crashed worker) comes back as that
file's ``Result.error``.
"""

from __future__ import annotations

import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from . import notebook as nbg
from .grade import Options, Result, grade_notebook
from .source import Source, load_source

__all__ = ["grade_file", "grade_files", "workers", "safe_name"]


def grade_file(path: str, sources: list[str], options: Options = Options()) -> Result:
    """Grade one submission file; every failure comes back as ``Result.error``."""
    path = Path(path)
    try:
        loaded = [load_source(s, options.salt) for s in sources]
        submission = nbg.read(path)
        source = _match(submission, loaded, path)
        student = _student(path, source)
        return grade_notebook(source, submission, student, path.name, options)
    except Exception as error:  # noqa: BLE001 (one bad submission must not stop the rest)
        return Result(safe_name(path.stem), "", path.name, error=f"{type(error).__name__}: {error}")


def _student(path: Path, source: Source) -> str:
    """alice.ipynb -> alice; submitted/alice/<assignment>/<source name>.ipynb -> alice."""
    path = path.resolve()
    if path.stem == source.path.stem and len(path.parents) > 2:
        return safe_name(path.parent.parent.name)
    return safe_name(path.stem)


def safe_name(name: str) -> str:
    """A name that is safe as a file name."""
    return re.sub(r"[^\w.-]", "_", name).lstrip(".") or "student"


def _match(submission, sources: list[Source], path: Path) -> Source:
    """The source whose assignment the submission's metadata names; only a submission that
    names none is matched by its cells."""
    name = nbg.assignment_name(submission)
    for source in sources:
        if source.assignment.name == name:
            return source
    if name:
        given = ", ".join(sorted({s.assignment.name for s in sources})) or "none"
        raise ValueError(f"{path} answers the assignment {name!r}, but the instructor "
                         f"notebooks given are for {given}; it was not graded (add {name!r}'s "
                         "instructor notebook to --source)")
    ids = {(c.get("metadata", {}).get("nbgrader") or {}).get("grade_id")
           for c in submission.cells}
    overlap = [(len(ids & set(s.cells)), s) for s in sources]
    best = max(overlap, key=lambda pair: pair[0], default=(0, None))
    if best[0] and sum(count == best[0] for count, _ in overlap) == 1:
        return best[1]
    names = ", ".join(s.path.name for s in sources) or "none"
    raise ValueError(f"{path}: cannot tell which assignment this answers (its metadata "
                     f"names {name!r}; instructor notebooks given: {names}); pass its "
                     "instructor notebook with --source")


def workers():
    """Fresh worker processes: forked from a clean server process that has already imported
    the grader (fast, and nothing inherited from the caller's kernels or event loops);
    spawned where there is no forkserver."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    multiprocessing.set_forkserver_preload(["grader.release"])
    return multiprocessing.get_context("forkserver")


def grade_files(paths: list[str], sources: list[str], options: Options = Options(),
                jobs: int = 2) -> list[Result]:
    """Grade ``paths`` with ``jobs`` worker processes (results in the order of ``paths``)."""
    if jobs <= 1 or len(paths) <= 1:
        return [grade_file(p, sources, options) for p in paths]
    with ProcessPoolExecutor(max_workers=min(jobs, len(paths)), mp_context=workers()) as pool:
        futures = [pool.submit(grade_file, p, sources, options) for p in paths]
        results = []
        for path, future in zip(paths, futures):
            try:
                results.append(future.result())
            except Exception as error:  # noqa: BLE001 (a worker crashed)
                results.append(Result(safe_name(Path(path).stem), "", Path(path).name,
                                      error=f"the grading process failed: {error}"))
    return results
