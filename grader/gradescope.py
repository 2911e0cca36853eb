"""Gradescope: ``minigrad-kit gradescope SOURCE... --out autograder.zip``, and what runs
inside the autograder (Gradescope's "Autograder Specifications").

The zip holds, at its root::

    setup.sh            run once by Gradescope, as root, when it builds the image: Python's
                        venv and bubblewrap from the base image's packages, then the kit from
                        the wheel below into /autograder/minigrad-kit (its dependencies come
                        from PyPI then, at build time; nothing is fetched when grading)
    run_autograder      run for each submission: python -m grader.gradescope /autograder
    minigrad_kit-*.whl  the kit, as installed where the zip was made (``wheel.py``)
    course/             the instructor notebooks, their question modules and catalogs, and
                        minigrad-kit.json (timeout, memory, salt, sandbox, ...)

``run(root)`` grades the notebooks in ``root/submission/`` with ``minigrad-kit grade``
(``upload.py``) and writes ``root/results/results.json``: the score, one test per
question (its points, and the student's feedback: which checks passed and failed, in the
student's language, never the hidden tests' code), and, visible to the teacher only
(``"visibility": "hidden"``), what held points back for review (the flagged code and the
points the grader judged), the flags, and, when bubblewrap could not run in Gradescope's
container, that the students' code ran without the sandbox and what that allows.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
import traceback
import zipfile
from pathlib import Path

import nbformat
from kit_i18n import speaking

from . import notebook as nbg
from .confine import landlock_abi
from .i18n import _
from .report import write_atomic
from .source import load_source
from .sandbox import encloses, runs_as_own_user
from .upload import (CONFIG, ONE_ASSIGNMENT, died, grade_upload, grader_failed, no_notebook,
                     not_graded, notebooks_in, overview, pack_course, question_feedback)
from .variants import render
from .wheel import kit_wheel

__all__ = ["build_zip", "run", "results_json", "handout_folder", "write_handouts",
           "VISIBILITIES"]

VISIBILITIES = ("visible", "after_due_date", "after_published")  # of the questions' tests
MAX_OUTPUT = 100_000  # characters of one test's output (Gradescope shows it in a <pre>)

SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (Ubuntu), from
# /autograder/source. It installs Python's venv and bubblewrap (the sandbox of the
# students' kernels), then the minigrad kit from the wheel in this zip into
# /autograder/minigrad-kit, with its dependencies from PyPI. Nothing is downloaded when a
# submission is graded.
set -euo pipefail
source="$(cd "$(dirname "$0")" && pwd)"
environment="$(dirname "$source")/minigrad-kit"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv bubblewrap
python3 -m venv "$environment"
"$environment/bin/python" -m pip install --upgrade pip
"$environment/bin/python" -m pip install "$source/{wheel}"
"$environment/bin/python" -c "import grader, minigrad; print('the minigrad kit is installed')"
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission, from /autograder (a copy of it is made there):
# the minigrad kit grades /autograder/submission/ and writes /autograder/results/results.json.
root="$(cd "$(dirname "$0")" && pwd)"
[ "$(basename "$root")" = source ] && root="$(dirname "$root")"
exec "$root/minigrad-kit/bin/python" -m grader.gradescope "$root"
"""


def _executable(name: str, text: str) -> tuple[zipfile.ZipInfo, str]:
    item = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
    item.external_attr = 0o100755 << 16  # rwxr-xr-x, a regular file
    item.compress_type = zipfile.ZIP_DEFLATED
    return item, text


def build_zip(sources: list[str], out, options: dict) -> Path:
    """Write the autograder zip of one instructor notebook (see the module docstring: a
    Gradescope assignment is one of the course's, ``upload.ONE_ASSIGNMENT``); its path.
    With ``--variants none`` (one notebook for the class), also the notebook to hand out,
    beside it (``handout_folder``): with the course's numbers, on which it grades."""
    out = Path(out)
    if len(sources) != 1:  # (Gradescope grades an upload as the assignment it was uploaded to)
        raise ValueError(ONE_ASSIGNMENT.format(count=len(sources)))
    if options.get("numbers"):
        write_handouts(sources, handout_folder(out), options["numbers"])
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-gradescope-") as folder:
        folder = Path(folder)
        wheel = kit_wheel(folder / "wheel")
        course = folder / "course"
        course.mkdir()
        packed = pack_course(sources, course, options)
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(f".{out.name}.tmp")
        partial.unlink(missing_ok=True)
        # (its owner's alone: it holds the solutions and the salt, and a zip readable by
        # every user of the teacher's machine handed them to any student with an account
        # there, red team 16)
        handle = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, "wb") as file, \
                zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, text in (("setup.sh", SETUP_SH.format(wheel=wheel.name)),
                               ("run_autograder", RUN_AUTOGRADER)):
                archive.writestr(*_executable(name, text))
            archive.write(wheel, wheel.name)
            for path in packed:
                archive.write(path, path.relative_to(folder).as_posix())
        partial.replace(out)
    return out


def handout_folder(zipped: Path) -> Path:
    """Where the notebooks to hand out go: ``autograder.zip`` -> ``autograder-handout/``."""
    return zipped.with_name(f"{zipped.stem}-handout")


def write_handouts(sources: list[str], folder: Path, numbers: str) -> list[Path]:
    """The student version of each instructor notebook with the course's numbers
    (``variants.course_numbers``), and its question module: what the class is handed. The
    instructor notebook's own numbers are those its solution answers, and the kit's wheel,
    which students install, holds that solution (red team 9: pasted in, 9 of 9)."""
    written = []
    for path in sources:
        source = load_source(path)
        handout = render(source.notebook, source.assignment, numbers)
        written.append(folder / source.path.name)
        write_atomic(written[-1], nbformat.writes(nbg.handout(handout)) + "\n")
        written.append(folder / source.module.name)
        write_atomic(written[-1], source.module_text)
    return written


def _student(root: Path) -> str:
    """Who submitted (``submission_metadata.json``): the first user's e-mail or id. The
    hidden inputs are drawn for this name, so a resubmission gets the same ones (and a
    code question's further calls drawn with the answers: ``source.inputs``)."""
    try:
        users = json.loads((root / "submission_metadata.json").read_text(
            encoding="utf-8")).get("users") or []
        first = users[0]
        return str(first.get("email") or first.get("id") or "student")
    except (OSError, ValueError, IndexError, AttributeError, TypeError):
        return "student"


def _cut(text: str, limit: int = MAX_OUTPUT) -> str:
    return text if len(text) <= limit else text[:limit] + "\n…"


def _question_test(q, number: str, visibility: str) -> dict:
    test = {"name": f"{q.name} · {q.title}", "number": number, "visibility": visibility,
            "output_format": "text"}
    lines = question_feedback(q)
    if q.manual:
        test["output"] = "\n".join(lines) or _("graded by your teacher")
        return test
    test.update(score=0.0 if q.held or q.points is None else float(q.points),
                max_score=float(q.max_points), output=_cut("\n".join(lines)))
    if not q.held:  # (held: neither passed nor failed yet)
        test["status"] = "passed" if q.points == q.max_points else "failed"
    return test


def _note(name: str, text: str) -> dict:
    """A test only the teacher sees (Gradescope shows instructors every test)."""
    return {"name": name, "output": _cut(text), "output_format": "text", "visibility": "hidden"}


def _teacher_notes(result, lang: str) -> list[dict]:
    notes = []
    with speaking(lang):
        for q in result.questions:
            if q.held:
                notes.append(_note(
                    _("For the teacher · {question} held back for review").format(
                        question=q.name),
                    _("What was found: {reasons}. The grader judged it {points} of "
                      "{max_points} points; to give them, adjust this submission's score in "
                      "Gradescope.").format(reasons="; ".join(q.review),
                                            points=f"{q.points:g}",
                                            max_points=f"{q.max_points:g}")))
        if result.flags:
            notes.append(_note(_("For the teacher · flagged code"), "\n".join(result.flags)))
        if result.sandbox and not result.sandbox.startswith("bubblewrap"):
            if runs_as_own_user() and (landlock_abi() or encloses()):
                risk = _(
                    "The student's code ran WITHOUT the sandbox ({why}). In this container it "
                    "could open no file but the system's libraries, Python and the kit's "
                    "packages (not the course folder, /autograder/source/course: the "
                    "instructor notebooks, the salt), but not write the grader's files nor "
                    "start a process. Gradescope's container did not let bubblewrap run; to "
                    "grade sandboxed, grade with minigrad-kit grade on a machine where it "
                    "runs.")
            elif runs_as_own_user():
                risk = _(
                    "The student's code ran WITHOUT the sandbox ({why}). In this container it "
                    "could read what any user may (not the course folder, /autograder/source/"
                    "course: the instructor notebooks, the salt), but not write the grader's "
                    "files nor start a process. Gradescope's container did not let "
                    "bubblewrap run; to grade sandboxed, grade with minigrad-kit grade on a "
                    "machine where it runs.")
            else:
                risk = _(
                    "The student's code ran WITHOUT the sandbox ({why}). In this container it "
                    "could read /autograder/source (the instructor notebooks, the salt) and "
                    "write /autograder/results. Gradescope's container did not let bubblewrap "
                    "run; to grade sandboxed, grade with minigrad-kit grade on a machine where "
                    "it runs.")
            notes.append(_note(_("For the teacher · no sandbox"), risk.format(why=result.sandbox)))
    return notes


def results_json(results: list, visibility: str, lang: str) -> dict:
    """Gradescope's results.json for the results of one submission (one per notebook)."""
    tests, said, score = [], [], 0.0
    many = len(results) > 1
    for index, result in enumerate(results, 1):
        with speaking(result.lang if not result.error else lang):
            if result.error:
                said.append(not_graded(result))
                if died(result):
                    tests.append(_note(_("For the teacher · the autograder's error"),
                                       result.error))
                continue
            prefix = f"{result.file} · " if many else ""
            points, problems, hidden = overview(result)
            said += [prefix + points] + ([problems] if problems else []) + [hidden]
            for number, q in enumerate(result.questions, 1):
                test = _question_test(q, f"{index}.{number}" if many else str(number),
                                      visibility)
                test["name"] = prefix + test["name"]
                tests.append(test)
            score += result.points
        tests += _teacher_notes(result, lang)
    return {"score": score, "output": _cut("\n\n".join(said)),
            "output_format": "text", "tests": tests,
            "extra_data": {"minigrad_kit": [{"student": r.student, "assignment": r.assignment,
                                             "lang": r.lang, "sandbox": r.sandbox}
                                            for r in results]}}


def _nothing_to_grade(lang: str) -> dict:
    with speaking(lang):
        return {"score": 0.0, "output": no_notebook(), "output_format": "text", "tests": []}


def run(root) -> int:
    """What ``run_autograder`` does (see the module docstring); 0 once results.json is
    written, whatever happened to the submission."""
    root = Path(root)
    course = root / "source" / "course"
    options = json.loads((course / CONFIG).read_text(encoding="utf-8"))
    lang, visibility = options.get("lang", "en"), options.get("visibility", "visible")
    started = time.monotonic()
    try:
        notebooks = notebooks_in(root / "submission")
        if not notebooks:
            results = _nothing_to_grade(lang)
        else:
            student = re.sub(r"[^\w.@-]", "_", _student(root))
            with tempfile.TemporaryDirectory(prefix="minigrad-kit-") as work:
                graded = grade_upload(notebooks, student, course, work)
            results = results_json(graded, visibility, lang)
    except Exception:  # noqa: BLE001 (Gradescope needs a results.json whatever happens)
        failure = traceback.format_exc()
        print(failure, file=sys.stderr)
        with speaking(lang):
            results = {"score": 0.0, "output": grader_failed(), "output_format": "text",
                       "tests": [_note(_("For the teacher · the autograder's error"),
                                       failure)]}
    results["execution_time"] = round(time.monotonic() - started)
    write_atomic(root / "results" / "results.json",
                 json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    print(f"score {results['score']:g}; results in {root / 'results' / 'results.json'}")
    for test in results["tests"]:
        if test.get("visibility") == "hidden":
            print(f"{test['name']}: {test['output']}")  # the teacher sees this output too
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else "/autograder"))
