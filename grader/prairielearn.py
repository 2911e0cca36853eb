"""PrairieLearn: ``minigrad-kit prairielearn SOURCE... --out pl/``, and the external
grader's entry point that runs in PrairieLearn's grading container (its "External
grading" documentation).

What ``pl/`` holds, to copy into the course's repository::

    minigrad-kit-grader/Dockerfile   the grading image: Python, bubblewrap and the kit from the
    minigrad-kit-grader/*.whl        wheel beside it (docker build, then push it where
                                     PrairieLearn pulls images from)
    questions/minigrad-kit/<assignment>/
        info.json                    external grading with that image; entrypoint
                                     /grade/tests/run; no network
        question.html                download the notebook, upload it, see the results
        clientFilesQuestion/         the student version, its question module and the kit's
                                     wheel (the students install it)
        tests/                       the instructor notebook, question module, catalogs and
                                     minigrad-kit.json; ``run``, the entry point

``run(root)`` grades the notebook(s) in ``root/student/`` with ``minigrad-kit grade``
(``upload.py``) and writes ``root/results/results.json``: ``score`` in [0, 1] (the
automatic points over their maximum; points held back for review count 0), one test per
question with its points and the student's feedback, ``gradable: false`` with
``format_errors`` when there is no notebook that can be graded (no attempt is used up),
and never more than PrairieLearn's 1 MB. What only the teacher should read (what held
points back, flags, a kernel run without the sandbox) goes to the job's output, which
PrairieLearn shows to course staff.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import traceback
import uuid
from pathlib import Path

import nbformat

from kit_i18n import speaking

from . import notebook as nbg
from .grade import Result
from .i18n import _
from .report import write_atomic
from .source import load_source
from .upload import (CONFIG, died, grade_upload, grader_failed, no_notebook, not_graded,
                     notebooks_in, overview, pack_course, question_feedback)
from .variants import course_numbers, render
from .wheel import kit_wheel

__all__ = ["run", "results_json", "write_course", "LIMIT"]

LIMIT = 1_000_000  # bytes of results.json PrairieLearn takes
CUT = " … (cut to fit PrairieLearn's 1 MB limit)"
NAMESPACE = uuid.UUID("5c6c2f3e-6d0a-4a36-9a5e-2f2d2b0c7a11")  # the questions' uuids, stable

DOCKERFILE = """\
# The grading image for the minigrad kit's PrairieLearn questions:
#   docker build -t {image} .   then push it where PrairieLearn pulls images from
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \\
    && rm -rf /var/lib/apt/lists/*
COPY {wheel} /tmp/
RUN pip install --no-cache-dir /tmp/{wheel} && rm /tmp/{wheel}
"""

RUN = """\
#!/bin/sh
# PrairieLearn's entry point for the minigrad kit (it runs /grade/tests/run): grade
# /grade/student/, write /grade/results/results.json
exec python3 -m grader.prairielearn "$(dirname "$0")/.."
"""

QUESTION = """\
<pl-question-panel>
  <p>{title}: download the notebook, its question module and the minigrad kit, install the
  kit (<code>pip install {wheel}</code>), work in JupyterLab, run <code>check()</code> as
  you go, and upload the notebook here.</p>
  <pl-file-download file-name="{notebook}"></pl-file-download>
  <pl-file-download file-name="{module}"></pl-file-download>
  <pl-file-download file-name="{wheel}"></pl-file-download>
  <pl-file-upload file-names="{notebook}"></pl-file-upload>
</pl-question-panel>

<pl-submission-panel>
  <pl-external-grader-results></pl-external-grader-results>
  <pl-file-preview></pl-file-preview>
</pl-submission-panel>
"""


def write_course(sources: list[str], out, options: dict, image: str, timeout: int) -> list:
    """Write ``out`` (see the module docstring); the files written."""
    out = Path(out)
    written = []
    numbers = options.get("numbers") or course_numbers()
    options = {**options, "numbers": numbers}
    grader_dir = out / "minigrad-kit-grader"
    wheel = kit_wheel(grader_dir)
    write_atomic(grader_dir / "Dockerfile", DOCKERFILE.format(image=image, wheel=wheel.name))
    written += [wheel, grader_dir / "Dockerfile"]
    for path in sources:
        source = load_source(path)
        name = source.assignment.name
        question = out / "questions" / "minigrad-kit" / name
        tests = question / "tests"
        tests.mkdir(parents=True, exist_ok=True)
        written += pack_course([path], tests, options)
        write_atomic(tests / "run", RUN)
        (tests / "run").chmod(0o755)
        student = question / "clientFilesQuestion"
        student.mkdir(parents=True, exist_ok=True)
        handout = render(source.notebook, source.assignment, numbers)
        write_atomic(student / source.path.name,
                     nbformat.writes(nbg.handout(handout)) + "\n")
        write_atomic(student / source.module.name, source.module_text)
        # (the kit the grading image has, for the students to install: the question said
        # "pip install minigrad-kit", which installs whatever PyPI holds under that name; the
        # kit is installed from its wheel, README)
        shutil.copyfile(wheel, student / wheel.name)
        info = {"uuid": str(uuid.uuid5(NAMESPACE, name)),
                "title": source.assignment.title, "topic": "Automatic differentiation",
                "tags": ["minigrad-kit"], "type": "v3", "singleVariant": False,
                "gradingMethod": "External",
                "externalGradingOptions": {"enabled": True, "image": image,
                                           "entrypoint": "/grade/tests/run",
                                           "timeout": timeout}}
        write_atomic(question / "info.json", json.dumps(info, indent=4) + "\n")
        write_atomic(question / "question.html", QUESTION.format(
            title=source.assignment.title, notebook=source.path.name,
            module=source.module.name, wheel=wheel.name))
        written += [tests / "run", student / source.path.name, student / source.module.name,
                    student / wheel.name, question / "info.json", question / "question.html"]
    return written


def _student(root: Path) -> str:
    """The variant's seed (``data.json``): the hidden inputs are drawn for it, so a student
    working on one variant gets the same ones on every submission (and a code question's
    further calls drawn with the answers: ``source.inputs``)."""
    try:
        seed = json.loads((root / "data" / "data.json").read_text(encoding="utf-8"))[
            "variant_seed"]
        return f"variant-{seed}"
    except (OSError, ValueError, KeyError, TypeError):
        return "student"


def _test(q) -> dict:
    lines = question_feedback(q)
    test = {"name": f"{q.name} · {q.title}"}
    if q.manual:
        test["message"] = "\n".join(lines) or _("graded by your teacher")
        return test
    test.update(points=0.0 if q.held or q.points is None else float(q.points),
                max_points=float(q.max_points), message="\n".join(lines))
    return test


def results_json(results: list[Result], lang: str) -> dict:
    """PrairieLearn's results.json for one submission (a result per uploaded notebook)."""
    graded = [r for r in results if not r.error]
    if not graded:
        with speaking(lang):
            errors = [not_graded(r) for r in results] or [no_notebook()]
        return {"gradable": False, "format_errors": errors}
    tests, said, output = [], [], []
    for result in graded:
        with speaking(result.lang):
            points, problems, hidden = overview(result)
            said += [points, hidden]
            output += [problems] if problems else []
            tests += [_test(q) for q in result.questions]
    points = sum(r.points for r in graded)
    most = sum(r.max_points for r in graded)
    return {"gradable": True, "score": points / most if most else 0.0,
            "message": " ".join(said), "output": "\n\n".join(output), "tests": tests}


def fit(results: dict, limit: int = LIMIT) -> dict:
    """``results`` cut until its JSON is under ``limit`` bytes: the longest lines of the
    messages and the output first, each to its beginning and a note, so that every check
    (a line each) still says whether it passed; then, if lines are too many, whole texts."""
    def size(data) -> int:
        return len(json.dumps(data, ensure_ascii=False).encode("utf-8"))

    def cut(text: str, keep: int) -> str:
        text = text.removesuffix(CUT)
        return text[:keep] + CUT if len(text) > keep else text

    holders = [(holder, key) for holder in [results] + results.get("tests", [])
               for key in ("output", "message") if holder.get(key)]
    for whole in (False, True):
        keep = max((len(text if whole else line) for holder, key in holders
                    for text in [holder[key]] for line in text.split("\n")), default=0)
        while size(results) > limit and keep > 100:
            keep //= 2
            for holder, key in holders:
                holder[key] = cut(holder[key], keep) if whole else "\n".join(
                    cut(line, keep) for line in holder[key].split("\n"))
    return results


def _teacher_notes(results: list[Result]) -> list[str]:
    notes = []
    for result in results:
        for q in result.questions:
            if q.held:
                notes.append(f"{result.student} {q.name}: held back for review "
                             f"({'; '.join(q.review)}); judged {q.points:g} of "
                             f"{q.max_points:g} points: give them with a manual score")
        notes += [f"{result.student}: flagged: {flag}" for flag in result.flags]
        if died(result):
            notes.append(f"{result.student}: {result.file}: {result.error}")
        if result.sandbox and not result.sandbox.startswith("bubblewrap"):
            notes.append(f"{result.student}: the kernel ran WITHOUT the sandbox: "
                         f"{result.sandbox}")
    return notes


def run(root) -> int:
    """What ``/grade/tests/run`` does (see the module docstring); 0 once results.json is
    written."""
    root = Path(root)
    course = root / "tests"
    lang = json.loads((course / CONFIG).read_text(encoding="utf-8")).get("lang", "en")
    try:
        with tempfile.TemporaryDirectory(prefix="minigrad-kit-") as work:
            # (graded on the course's numbers, config["numbers"]: upload.grade_upload)
            graded = grade_upload(notebooks_in(root / "student"), _student(root), course, work)
        results = results_json(graded, lang)
        for note in _teacher_notes(graded):
            print(note)  # the job's output: course staff see it, students do not
    except Exception:  # noqa: BLE001 (PrairieLearn needs a results.json whatever happens)
        print(traceback.format_exc(), file=sys.stderr)
        with speaking(lang):
            results = {"gradable": False, "format_errors": [grader_failed()]}
    write_atomic(root / "results" / "results.json",
                 json.dumps(fit(results), ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1] if len(sys.argv) > 1 else "/grade"))
