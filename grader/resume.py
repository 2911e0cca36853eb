"""A grading run that stops part-way loses nothing: ``OUT/unfinished/`` and ``grade --missing``.

A submission's grading depends on its file's bytes, where it was found (its path, the
folder that names its student, the folder it was collected in, the folder the teacher
gave), the instructor notebooks with their question modules, the grading options (the
secret salt among them, so no one without it can name a key) and the kit's version:
``submission_key`` digests all of that. As each submission is graded, its result, as the
grader made it and before anything the whole class decides (a duplicate held, a notebook
of another assignment held), is kept in ``OUT/unfinished/<key>.json``. The folder is
removed once a run has stored every result and none was left not graded because its
grading process died (``batch.NOT_GRADED``); until then it holds what was graded: after a
run that was stopped (killed, out of memory, Ctrl-C, the machine restarted) or that left
submissions not graded, ``grade --missing`` grades only the submissions with no graded
result of the same key there, and stores the others as they were graded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import stat
from importlib import metadata
from pathlib import Path

from .grade import Result
from .intake import MAX_BYTES
from .report import _write_inside
from .source import load_source

__all__ = ["UNFINISHED", "sources_digest", "submission_key", "keep", "graded_before",
           "finish"]

UNFINISHED = "unfinished"  # in --out: this grading's results, until every one is stored


def _version() -> str:
    try:
        return metadata.version("minigrad-kit")
    except metadata.PackageNotFoundError:
        return "unknown"


def sources_digest(sources: list[str]) -> str:
    """One digest of the instructor notebooks and their question modules (their text)."""
    digest = hashlib.sha256()
    for path in sorted(sources):
        source = load_source(path)
        digest.update(Path(path).read_bytes() + b"\0" + source.module_text.encode() + b"\0")
    return digest.hexdigest()


def submission_key(path: str, sources: str, options, owner: str | None = None,
                   collected: str | None = None, top: str | None = None) -> str:
    """The digest of what grading ``path`` depends on (the module docstring); ``sources``:
    ``sources_digest``. "" when the file cannot be read as a regular file of at most
    MAX_BYTES (it is always graded again)."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(handle, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                return ""
            data = file.read(MAX_BYTES + 1)
    except OSError:
        return ""
    if len(data) > MAX_BYTES:
        return ""
    parts = [_version(), os.path.abspath(path), owner or "", collected or "", top or "",
             sources, json.dumps(dataclasses.asdict(options), sort_keys=True, default=str),
             hashlib.sha256(data).hexdigest()]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=True).encode()).hexdigest()


def keep(out: Path, key: str, result: Result) -> None:
    """Keep ``result``, graded from the submission of ``key``, in ``OUT/unfinished/``; one
    that could not be graded is not kept (``--missing`` grades it again)."""
    if key and not result.error:
        try:
            _write_inside(Path(out), f"{UNFINISHED}/{key}.json", result.to_json() + "\n")
        except OSError:
            pass  # (what is kept is a spare: the run's own results are stored at its end)


def graded_before(out: Path, keys: dict) -> dict:
    """path -> the result kept in ``OUT/unfinished/`` for its key (``keys``: path -> key),
    for every path that has one; a file that is not a result of that key is ignored."""
    folder = Path(out) / UNFINISHED
    if folder.is_symlink() or not folder.is_dir():
        return {}
    found = {}
    for path, key in keys.items():
        kept = folder / f"{key}.json"
        if not key or kept.is_symlink() or not kept.is_file():
            continue
        try:
            result = Result.from_json(kept.read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError, KeyError):
            continue
        if not result.error:
            found[path] = result
    return found


def finish(out: Path, results: list[Result], not_graded: str) -> bool:
    """Remove ``OUT/unfinished/`` when no result of ``results`` is one whose grading
    process died (its error starts with ``not_graded``); whether it was removed."""
    if any(r.error.startswith(not_graded) for r in results):
        return False
    folder = Path(out) / UNFINISHED
    if folder.is_symlink():
        folder.unlink()
    elif folder.is_dir():
        shutil.rmtree(folder)
    return True
