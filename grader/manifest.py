"""The grader's own list of the result files it wrote: ``OUT/manifest.json``.

The gradebook is rebuilt from result files, so a file planted in
``OUT/results/`` must never reach it. Each time the grader writes a result
it records the file's SHA-256, assignment and student here. When the
report is rebuilt, a result file counts only if the manifest lists it, its
hash matches, and its content names the same assignment and student as its
place in the folder. Anything else in ``results/`` (a foreign file, a
changed or unreadable one, a link) is reported and ignored; an unreadable
manifest is reported and read as empty, so a rerun into a poisoned folder
still works.

    >>> manifest = Manifest()
    >>> manifest.add("results/a1/alice.json", '{"x": 1}', "a1", "alice")
    >>> manifest.entries["results/a1/alice.json"]["student"]
    'alice'
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

__all__ = ["Manifest", "load_manifest", "read_listed", "foreign_files", "MANIFEST", "MAX_BYTES"]

MANIFEST = "manifest.json"
MAX_BYTES = 20_000_000  # a result file is a few kB; anything bigger is not ours
VERSION = 1


@dataclass
class Manifest:
    """``entries``: relative path -> {"sha256", "assignment", "student"}."""

    entries: dict = field(default_factory=dict)

    def add(self, relative: str, text: str, assignment: str, student: str) -> None:
        self.entries[relative] = {"sha256": _sha256(text.encode("utf-8")),
                                  "assignment": assignment, "student": student}

    def to_text(self) -> str:
        return json.dumps({"minigrad_kit_manifest": VERSION, "results": self.entries},
                          indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_manifest(out) -> tuple[Manifest, list[str]]:
    """The manifest in ``out`` (empty if there is none), and what was wrong with it."""
    path = Path(out) / MANIFEST
    if not os.path.lexists(path):
        return Manifest(), []
    try:
        data = json.loads(_read_regular(path).decode("utf-8"))
        entries = data["results"]
        if data.get("minigrad_kit_manifest") != VERSION or not isinstance(entries, dict):
            raise ValueError("not a minigrad-kit manifest")
        for relative, entry in entries.items():
            if not (isinstance(relative, str) and isinstance(entry, dict)
                    and all(isinstance(entry.get(k), str)
                            for k in ("sha256", "assignment", "student"))):
                raise ValueError(f"a malformed entry {str(relative)[:80]!r}")
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        return Manifest(), [f"{MANIFEST} could not be read ({type(error).__name__}: "
                            f"{str(error)[:200]}); earlier results were ignored (grade those "
                            "submissions again)"]
    return Manifest(dict(entries)), []


def read_listed(out, manifest: Manifest, parse: Callable[[str], object],
                identity: Callable[[object], tuple]) -> tuple[list, list[str]]:
    """The results the manifest lists that check out, and a line per one that does not.

    ``parse(text)`` builds a result (any exception: unreadable); ``identity(result)``
    gives ``(folder, student)``, which must match the entry and the file's place.
    """
    kept, problems = [], []
    for relative, entry in sorted(manifest.entries.items()):
        path = Path(out) / relative
        try:
            raw = _read_regular(path)
            if _sha256(raw) != entry["sha256"]:
                raise ValueError("its content changed after the grader wrote it")
            result = parse(raw.decode("utf-8"))
            folder, student = identity(result)
            expected = f"results/{folder}/{student}.json"
            if (relative != expected or entry["student"] != student
                    or entry["assignment"] != folder):
                raise ValueError(f"its content is about {student!r} in {folder!r}")
        except FileNotFoundError:
            problems.append(f"{relative} is listed in {MANIFEST} but missing; that "
                            "submission is not in the gradebook (grade it again)")
            continue
        except Exception as error:  # noqa: BLE001 (a damaged file must not stop the report)
            problems.append(f"{relative} was ignored: {type(error).__name__}: "
                            f"{str(error)[:200]}")
            continue
        kept.append(result)
    return kept, problems


def foreign_files(out, manifest: Manifest) -> list[str]:
    """Paths under ``out/results`` that the manifest does not list (links included)."""
    root = Path(out) / "results"
    found = []
    for folder, folders, files in os.walk(root):  # (does not follow links to folders)
        for name in sorted(files) + sorted(f for f in folders
                                           if os.path.islink(os.path.join(folder, f))):
            relative = Path(folder, name).relative_to(out).as_posix()
            if relative not in manifest.entries:
                found.append(relative)
    return sorted(found)


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file (no links, FIFOs or devices; at most MAX_BYTES)."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > MAX_BYTES:
            raise ValueError(f"{info.st_size} bytes, more than a result can hold")
        with os.fdopen(handle, "rb", closefd=False) as file:
            return file.read(MAX_BYTES + 1)
    finally:
        os.close(handle)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
