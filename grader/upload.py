"""One student's upload, graded where a platform grades it: Gradescope and PrairieLearn run
each submission in a fresh container, with the course's files beside it.

``pack_course`` copies the instructor notebooks, their question modules and their
catalogs (so that a submission in Chinese or Korean is graded too) into the folder that
goes into the platform; ``grade_upload`` grades the notebooks a student uploaded there
with ``minigrad-kit grade`` itself (one run per notebook, into a folder of its own) and
reads back what it wrote. The platform modules turn those results into their formats.

What an upload may hold is checked by construction, not by the platform's good will:

* only regular files that the upload itself holds are read: a symbolic link (to the
  instructor notebook in the course folder beside it, to another file of the container) is
  never followed, and a folder that is a link is never entered (``notebooks_in``,
  ``_read_uploaded``); such a file is reported as not graded;
* an upload is graded as the platform's assignment, whose instructor notebook is the one
  the course folder holds (``ONE_ASSIGNMENT``: a notebook of another assignment answers
  none of its questions), from one notebook: when several notebooks answer the same
  assignment, or notebooks answer several assignments, none of them counts, and the
  student is told to upload one (``_one_each``). The platforms add up the points of
  the notebooks graded, so copies of one right notebook would otherwise count once each
  (three copies: three times the maximum).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

from .batch import NOT_GRADED, readable
from .cli import main as minigrad_kit
from .grade import Result
from .i18n import _
from .intake import MAX_BYTES
from .report import question_lines, summary, write_atomic
from .sandbox import withhold
from .source import load_source
from .stored import read_grades

__all__ = ["pack_course", "grade_upload", "CONFIG", "DEFAULTS", "ONE_ASSIGNMENT",
           "notebooks_in", "question_feedback", "overview", "no_notebook", "not_graded",
           "grader_failed", "died"]

CONFIG = "minigrad-kit.json"  # the grading options, beside the course's notebooks
# The platform grades an upload as its assignment's (Gradescope: the programming assignment
# the zip was uploaded to; PrairieLearn: the question), and only the course folder can say
# which that is: by holding its one instructor notebook. An autograder made from a course
# folder of several graded whatever assignment an upload answered, and the notebook of
# assignment 2, uploaded alone to the Gradescope assignment of assignment 1, scored its 8
# points there (red team 12).
ONE_ASSIGNMENT = ("an autograder of {count} instructor notebooks: a platform's assignment is "
                  "one of them, and an upload is graded as that one (the notebook of another, "
                  "uploaded there, scored its own points); write one autograder per "
                  "instructor notebook (minigrad-kit gradescope NOTEBOOK) and upload each to "
                  "its own assignment")
DEFAULTS = {"timeout": 30, "memory": 4096, "budget": None, "lenient": False, "salt": "",
            "sandbox": "auto", "lang": "en", "variants": "none"}


def pack_course(sources: list[str], folder, options: dict) -> list[Path]:
    """Copy each instructor notebook with its question module and catalogs into ``folder``
    and write the options (``DEFAULTS`` overridden); the files written."""
    folder = Path(folder)
    written = []
    for path in sources:
        source = load_source(path)
        for file in (source.path, source.path.parent / source.module.name):
            written.append(Path(shutil.copy2(file, folder / file.name)))
        for catalog in sorted(source.path.parent.glob(f"locale/*/LC_MESSAGES/"
                                                      f"{source.path.stem}.po")):
            target = folder / catalog.relative_to(source.path.parent)
            target.parent.mkdir(parents=True, exist_ok=True)
            written.append(Path(shutil.copy2(catalog, target)))
    config = folder / CONFIG
    write_atomic(config, json.dumps({**DEFAULTS, **options}, indent=1, sort_keys=True) + "\n")
    config.chmod(0o600)  # (the salt: its owner's alone, red team 16)
    return written + [config]


def notebooks_in(folder) -> list[Path]:
    """The notebooks a student uploaded (checkpoints left out), in order: what ends in
    ``.ipynb`` inside ``folder``, found without entering a folder that is a link. A link
    named like a notebook is listed (``grade_upload`` reports it, and reads nothing
    through it)."""
    found = []
    for top, folders, files in os.walk(folder, followlinks=False):
        folders[:] = [f for f in folders if f != ".ipynb_checkpoints"
                      and not os.path.islink(os.path.join(top, f))]
        found += [Path(top) / name for name in files if name.endswith(".ipynb")]
    return sorted(found)


def _read_uploaded(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file of the upload (never a link)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError:
        raise ValueError(_("{file} is a symbolic link or cannot be read: only the notebook "
                           "files uploaded themselves are graded").format(
            file=path.name)) from None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise ValueError(_("{file} is not a regular file: only the notebook files "
                               "uploaded themselves are graded").format(file=path.name))
        return file.read(MAX_BYTES + 1)


def grade_upload(notebooks: list[Path], student: str, course, work) -> list[Result]:
    """Grade each of ``notebooks`` as ``student``'s, with the notebooks and options in
    ``course``; ``work`` is an empty folder for the grader's files. A result per notebook,
    as the gradebook has it."""
    course, work = Path(course), Path(work)
    withhold(course)  # (the instructor notebooks, the salt: never the student's code's to read)
    options = {**DEFAULTS, **json.loads((course / CONFIG).read_text(encoding="utf-8"))}
    sources = sorted(str(p) for p in course.glob("*.ipynb"))
    if len(sources) != 1:
        raise ValueError(ONE_ASSIGNMENT.format(count=len(sources)))
    graded = []
    salt = os.environ.get("MINIGRAD_KIT_SALT")
    os.environ["MINIGRAD_KIT_SALT"] = options["salt"]  # (not on the command line: the kernel
    try:                                              # could read that without the sandbox)
        for number, notebook in enumerate(notebooks, 1):
            submitted = work / f"upload-{number}" / "submitted"
            submitted.mkdir(parents=True)
            try:
                (submitted / f"{student}.ipynb").write_bytes(_read_uploaded(notebook))
            except ValueError as error:
                graded.append(Result(student, "", notebook.name, error=str(error)))
                continue
            out = work / f"upload-{number}" / "grades"
            # "none": one notebook for everyone (the course's numbers: ``numbers`` below);
            # "per-student" (Gradescope): the numbers `release --students` wrote for `student`
            argv = ["grade", str(submitted), "--out", str(out), "--timeout",
                    str(options["timeout"]), "--memory", str(options["memory"]), "--sandbox",
                    options["sandbox"], "--jobs", "1", "--variants", options["variants"]]
            if options["budget"]:
                argv += ["--budget", str(options["budget"])]
            if options["lenient"]:
                argv.append("--lenient")
            if options.get("numbers"):  # the course's numbers, which the handout shows
                argv += ["--numbers-of", options["numbers"]]
            for source in sources:
                argv += ["--source", source]
            minigrad_kit(argv)  # the command itself: the same grading as anywhere else
            grades = read_grades(out)
            copied = str(submitted / f"{student}.ipynb")
            for result in grades.results:
                result.file = notebook.name  # as the student named it
                result.error = result.error.replace(copied, notebook.name)
                graded.append(result)
    finally:
        if salt is None:
            os.environ.pop("MINIGRAD_KIT_SALT", None)
        else:
            os.environ["MINIGRAD_KIT_SALT"] = salt
    # (the upload's file names are the student's: bytes that are not UTF-8 too)
    return _one_each([readable(result) for result in graded])


def _one_each(results: list[Result]) -> list[Result]:
    """``results`` graded as one assignment, from one notebook: when several graded
    notebooks answer the same assignment, or notebooks answer several assignments, each
    becomes a result that was not graded. The platform adds the points of an upload up,
    so copies would each count (three copies of one right notebook: 27 of 9), and so
    would the notebooks of other assignments: an autograder made from a course folder
    (``minigrad-kit gradescope course/``) grades all of its assignments, and the upload
    to the Gradescope assignment of the first scored 17 of its 9 points with the notebook
    of the second beside it."""
    files: dict = {}
    for result in results:
        if not result.error:
            files.setdefault(result.assignment, []).append(result.file)
    kept = []
    for result in results:
        same = files.get(result.assignment, []) if not result.error else []
        if len(same) > 1:
            result = Result(result.student, result.assignment, result.file,
                            title=result.title, lang=result.lang,
                            error=_("{count} notebooks of this upload answer {assignment} "
                                    "({files}); an assignment is graded from one notebook, "
                                    "so none of them was: upload only the one to grade")
                            .format(count=len(same), assignment=result.title
                                    or result.assignment, files=", ".join(same)))
        elif len(files) > 1 and not result.error:
            result = Result(result.student, result.assignment, result.file,
                            title=result.title, lang=result.lang,
                            error=_("the notebooks of this upload answer {count} assignments "
                                    "({files}); an upload is graded as one assignment, so "
                                    "none of them was: upload only the notebook of this "
                                    "assignment").format(
                                count=len(files), files=", ".join(
                                    name for names in files.values() for name in names)))
        kept.append(result)
    return kept



# --- what the student reads on the platform (in the language spoken now) ---------------------

def question_feedback(q) -> list[str]:
    """The checks of one question as the feedback has them, and, for points held back, that
    they count once the teacher has looked (what was found is the teacher's to read)."""
    lines = question_lines(q)
    if q.held:
        lines.append(_("Held back for your teacher's review: the points count once your "
                       "teacher has looked at your code."))
    return lines


def overview(result: Result) -> tuple[str, str, str]:
    """(the points, the problems while running, the note on hidden tests) of a result."""
    problems = ""
    if result.problems:
        problems = _("Problems while running your notebook") + ":\n" + "\n".join(
            f"- {problem}" for problem in result.problems)
    return (summary(result) + ".", problems,
            _("Hidden tests were run; their code is not shown. Public checks are the ones "
              "check() runs in your notebook."))


def no_notebook() -> str:
    return _("No notebook (.ipynb) was found in your submission: upload the notebook you "
             "worked in.")


def not_graded(result: Result) -> str:
    if died(result):  # (the teacher's to act on: the student is told the score is not final)
        return grader_failed()
    return _("Your notebook {file} could not be graded: {error}").format(file=result.file,
                                                                          error=result.error)


def died(result: Result) -> bool:
    """Whether ``result``'s grading process died before it answered (killed, out of
    memory: ``batch.NOT_GRADED``): the submission was not graded at all, and its error is
    for the teacher (it says to grade again with ``--missing``)."""
    return result.error.startswith(NOT_GRADED)


def grader_failed() -> str:
    return _("The autograder failed on this submission; your teacher can see why. Your score "
             "is not final.")
