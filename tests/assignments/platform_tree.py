"""The folder trees Gradescope and PrairieLearn grade in, laid out for the tests, and the
formats they document, as JSON schemas.

Gradescope ("Autograder Specifications"): the zip extracted into /autograder/source,
run_autograder copied to /autograder/run_autograder, the submission in
/autograder/submission, submission_metadata.json beside them, results in
/autograder/results/results.json. PrairieLearn ("External grading"): the question's
tests/ in /grade/tests, the student's files in /grade/student, data.json in /grade/data,
results in /grade/results/results.json (a folder the grader makes), at most 1 MB.
"""

from __future__ import annotations

import json
import os
import site
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

FORMAT = {"enum": ["text", "simple_format", "html", "md", "ansi"]}
VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
GRADESCOPE_TEST = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "score": {"type": "number"}, "max_score": {"type": "number"},
        "status": {"enum": ["passed", "failed"]}, "name": {"type": "string"},
        "name_format": FORMAT, "number": {"type": "string"}, "output": {"type": "string"},
        "output_format": FORMAT, "tags": {"type": "array", "items": {"type": "string"}},
        "visibility": VISIBILITY, "extra_data": {"type": "object"}}}
GRADESCOPE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "additionalProperties": False,
    "properties": {
        "score": {"type": "number"}, "execution_time": {"type": "number"},
        "output": {"type": "string"}, "output_format": FORMAT, "test_output_format": FORMAT,
        "test_name_format": FORMAT, "visibility": VISIBILITY, "stdout_visibility": VISIBILITY,
        "extra_data": {"type": "object"}, "tests": {"type": "array", "items": GRADESCOPE_TEST},
        "leaderboard": {"type": "array", "items": {
            "type": "object", "required": ["name", "value"],
            "properties": {"name": {"type": "string"}, "value": {},
                           "order": {"enum": ["asc", "desc"]}}}}},
    # "score: optional, but required if not on each test case"
    "anyOf": [{"required": ["score"]},
              {"required": ["tests"], "properties": {"tests": {"items": {
                  "required": ["score"]}}}}]}

PRAIRIELEARN_TEST = {
    "type": "object", "required": ["name"],
    "properties": {
        "name": {"type": "string"}, "description": {"type": "string"},
        "points": {"type": "number", "minimum": 0}, "max_points": {"type": "number",
                                                                   "minimum": 0},
        "message": {"type": "string"}, "output": {"type": "string"},
        "images": {"type": "array"}}}
PRAIRIELEARN = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "gradable": {"type": "boolean"}, "score": {"type": "number", "minimum": 0,
                                                   "maximum": 1},
        "message": {"type": "string"}, "output": {"type": "string"},
        "format_errors": {"anyOf": [{"type": "string"},
                                    {"type": "array", "items": {"type": "string"}}]},
        "images": {"type": "array"}, "tests": {"type": "array", "items": PRAIRIELEARN_TEST}},
    # "If the submission is gradable, the result only has one mandatory field: score"
    "if": {"not": {"properties": {"gradable": {"const": False}}, "required": ["gradable"]}},
    "then": {"required": ["score"]}}
PRAIRIELEARN_LIMIT = 1_000_000  # "this file should be limited to 1 MB"


def extract(archive: Path, target: Path) -> None:
    """Unzip as ``unzip`` does, keeping the executable bits the zip records."""
    with zipfile.ZipFile(archive) as zipped:
        for item in zipped.infolist():
            path = Path(zipped.extract(item, target))
            mode = item.external_attr >> 16
            if mode and stat.S_ISREG(mode):
                path.chmod(stat.S_IMODE(mode))


def gradescope_tree(base: Path, archive: Path) -> Path:
    """/autograder as Gradescope lays it out once the image is built (without the kit's
    environment, which setup.sh or the test puts in ``minigrad-kit``)."""
    root = base / "autograder"
    (root / "source").mkdir(parents=True)
    extract(archive, root / "source")
    (root / "run_autograder").write_bytes((root / "source" / "run_autograder").read_bytes())
    (root / "run_autograder").chmod(0o755)
    (root / "results").mkdir()
    return root


def submit(root: Path, files: dict, metadata: dict | None = None) -> None:
    """A new submission in /autograder/submission: name -> notebook (dict) or text."""
    folder = root / "submission"
    if folder.exists():
        for path in sorted(folder.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
    folder.mkdir(exist_ok=True)
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(content if isinstance(content, str) else json.dumps(content))
    (root / "submission_metadata.json").write_text(json.dumps(metadata or {
        "id": 123456, "created_at": "2026-11-27T14:22:32.365935-07:00",
        "assignment": {"title": "Homework 2", "total_points": "9.0"},
        "users": [{"email": "ada@example.edu", "id": 1234, "name": "Ada Lovelace"}],
        "previous_submissions": []}))
    results = root / "results" / "results.json"
    results.unlink(missing_ok=True)


def with_test_packages(venv: Path) -> None:
    """Let a fresh environment see the test environment's packages (the kit's
    dependencies), as test_wheel.py does: setup.sh installs the kit itself, from its wheel."""
    packages = subprocess.run([str(venv / "bin" / "python"), "-c",
                               "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              capture_output=True, text=True, check=True).stdout.strip()
    (Path(packages) / "test-environment.pth").write_text("\n".join(site.getsitepackages()))


def failing_bwrap(stubs: Path) -> str:
    """A PATH whose ``bwrap`` (a stub in ``stubs``) fails as bubblewrap fails in a container
    that refuses unprivileged user namespaces (Docker's default seccomp profile)."""
    stubs.mkdir(exist_ok=True)
    bwrap = stubs / "bwrap"
    bwrap.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely "
                     "because the kernel does not allow non-privileged user namespaces.' >&2\n"
                     "exit 1\n")
    bwrap.chmod(0o755)
    return f"{stubs}{os.pathsep}{os.environ['PATH']}"


def environment(**extra) -> dict:
    """The environment a platform runs its scripts in (nothing of the test runner's own
    Python set up: no PYTHONPATH, no virtual environment)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV",
                                                            "MINIGRAD_KIT_SALT")}
    return {**env, **extra}


def run(command: list, cwd: Path, env: dict | None = None, timeout: float = 900):
    return subprocess.run([str(c) for c in command], cwd=cwd, env=env or environment(),
                          capture_output=True, text=True, timeout=timeout)


__all__ = ["GRADESCOPE", "PRAIRIELEARN", "PRAIRIELEARN_LIMIT", "extract", "gradescope_tree",
           "submit", "with_test_packages", "environment", "run", "sys"]
