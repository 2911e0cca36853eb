"""The ``minigrad-kit`` subcommands that take the kit to where courses run it.

    minigrad-kit lab my-lessons                                  # the lessons in JupyterLab
    minigrad-kit export grades/ --to canvas --roster roster.csv  # a gradebook to import
    minigrad-kit report grades/                                  # the item analysis
    minigrad-kit gradescope course/01_derive_it_by_hand.ipynb --out ag.zip  # Gradescope
    minigrad-kit prairielearn course/*.ipynb --out pl/ --image you/minigrad-kit-grader
    minigrad-kit kernelspec install --user                       # a sandboxed Jupyter kernel

``cli.py`` holds the grading commands and calls ``add_commands`` for these. Each
command is two functions: ``_add_<name>(commands)`` declares its options (``ADDERS``),
``_<name>(args) -> exit status`` runs it (``HANDLERS``); the work itself is in a module
of its own (``export.py``, ``analysis_page.py``, ``gradescope.py``, ``prairielearn.py``,
``sandboxed_kernel.py``, ``lab.py``).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import secrets
import sys

from .command_line import add_salt, salt

__all__ = ["add_commands", "HANDLERS", "NAMES", "SUMMARY"]

NAMES = ("report", "export", "gradescope", "prairielearn", "kernelspec", "lab")

SUMMARY = """\
  report       writes an item analysis per assignment for the teacher (HTML, offline): how
               each question went, which mistakes were frequent, time, flags.
  export       writes the CSV file that a Canvas, Moodle or Blackboard gradebook imports, one
               column per assignment, each student matched by the id the platform gave.
  gradescope   writes a Gradescope autograder (a zip) that grades each submission with the
               kit: one test per question, the student's feedback, notes for the teacher.
  prairielearn writes PrairieLearn questions graded by the kit (an external grader), and
               the grading image's Dockerfile.
  kernelspec   installs a Jupyter kernel that runs inside the kit's bubblewrap sandbox, for
               nbgrader on a hub: nbgrader autograde then runs every student kernel in it.
  lab          copies the lessons into a folder (once) and opens them in JupyterLab,
               printing its address.
"""

LAB_EPILOG = """\
The lessons are copied into FOLDER the first time (as `minigrad-kit lessons FOLDER` does) and
kept from then on: it is your own copy. JupyterLab starts on the first lesson, in the language
of your locale (LANG=zh_CN.UTF-8: the Chinese lessons in FOLDER/zh/), and its address is
printed once it answers; its own log goes to --log. Ctrl-C stops it, as usual.

example:
  minigrad-kit lab my-lessons
  LANG=ko_KR.UTF-8 minigrad-kit lab my-lessons
"""


EXPORT_EPILOG = """\
the roster: what the LMS itself exports, which lists every student it knows
  Canvas: Grades, Export, Export Entire Gradebook (columns Student, ID, SIS User ID,
          SIS Login ID, Section, ...); or no --roster: a row per user id that Canvas's
          download named (bobsmith_456_9001_hw.ipynb is user 456), found by ID
  Moodle: the assignment's grading worksheet (View all submissions, Grading action,
          Download grading worksheet; feedback type "Offline grading worksheet"), with
          Moodle in English, German, French, Spanish, Chinese or Korean (upload it in
          the same):
          needed for a class Moodle's download named (Bob B_456_assignsubmission_file_
          is "Participant 456" there, and in no gradebook export); or Grade
          administration, Export, Plain text file (First name, Last name, ID number,
          Institution, Department, Email address, ...)
  Blackboard: Grade Center, Work Offline, Download, the full Grade Center, comma
          (Last Name, First Name, Username, Student ID, ...)
what it writes (--out; default GRADES/canvas.csv, moodle.csv or blackboard.csv): the
  roster's identity columns and one column per assignment (the instructor notebook's
  title, or --name), for every roster student; Canvas's file has the "Points Possible"
  row; Blackboard's uses the Grade Center's own column of that name (its |id). Moodle's
  worksheet comes back as it was, with the Grade of each student graded (scaled to its
  Maximum Grade) and every other Grade empty (Moodle keeps those as they are). A cell
  holds the points the gradebook shows (review decisions applied; written answers
  graded by hand are not among them). It is EMPTY, not zero, for a
  student without a submission, a submission that could not be graded, or points held
  back for review (minigrad-kit review GRADES/). Each of those is listed; so is a graded
  submission that matches no roster row (exit status 1: its points are not in the file).
matching: a student a platform's download named, by the id that platform gave, only
  (Canvas: ID; Moodle: the worksheet's Identifier; Blackboard: Username). Any other
  student (its file name, alice.ipynb; in nbgrader's layout its folder) against a
  roster column: --match, else the one that matches the most (Canvas: SIS Login ID,
  SIS User ID, ID, Student; Moodle: Email address, ID number; Blackboard: Username,
  Student ID). An e-mail address also matches by the part before the @; case is ignored.
importing:
  Canvas: Grades, Import, choose the file; an assignment the roster has a column of
          (its title, "Homework 2 (12345)") is filled by its id; a new column becomes a
          new assignment worth its "Points Possible" (or --name it as in Canvas's
          export). An empty cell changes nothing.
  Moodle: the worksheet: the assignment, View all submissions, Grading action, Upload
          grading worksheet (a grade changed in Moodle since the download is kept).
          The gradebook file: Grade administration, Import, CSV file; "Identify user
          by" Email address to Email address; map each column to its grade item ("new
          grade item" makes one out of 100: create the items first with the maximum
          printed here).
  Blackboard: Grade Center, Work Offline, Upload. A column the Grade Center did not
          have becomes a text column of 0 points: create it first, then download.

examples:
  minigrad-kit export grades/ --to canvas --roster canvas-gradebook.csv
  minigrad-kit export grades/ --to canvas          # a class Canvas's download named
  minigrad-kit export grades/ --to moodle --roster "Grades-CS101-Homework 2-77.csv"
  minigrad-kit export grades/ --to moodle --roster moodle-grades.csv \\
      --name derive_it_by_hand="Assignment 2" --out moodle-import.csv
  minigrad-kit export grades/ --to blackboard --roster gc_CS101_fullgc.csv
"""


REPORT_EPILOG = """\
what it writes: OUT/<assignment>.html (default OUT: GRADES/report/), one page per assignment,
readable offline (plots and style inside the page), for the teacher (it names students):
  points      the distribution of the automatic points, mean, median
  questions   per question: how the class came out (full marks, part, none, left
              unanswered, held back for review) as a plot and a table, the mean, and the
              discrimination index D (Kelley's: top 27 % minus bottom 27 %, ranked by the
              other questions; below 0.2 is shaded)
  findings    the checks that failed most often, as a share of the class (numbers replaced
              by ...): misconceptions as numbers
  unanswered  the questions most often left as released
  time        how long each submission took to grade (timing.csv)
  flags       submissions flagged, held back for review, or that could not be graded
The page is in --lang (default: your locale's language, else English); findings are quoted
as the students read them.

example:
  minigrad-kit report grades/ --lang zh
"""


KERNELSPEC_EPILOG = """\
The kernel "minigrad-kit-sandbox" ("Python 3 (minigrad-kit sandbox)") is ipykernel started
under bubblewrap, as `minigrad-kit grade` starts its code runs: no network, a read-only view of
the system and of Python, no view of other processes, a cleared environment, and nothing of the
machine writable or readable but its own scratch folder and its working folder (the
notebook's folder). A Jupyter client talks to it as to any kernel (its channels are relayed
into the sandbox), so nbgrader runs students' notebooks in it with no Docker:

  nbgrader autograde ps1 --ExecutePreprocessor.kernel_name=minigrad-kit-sandbox

(or c.ExecutePreprocessor.kernel_name = "minigrad-kit-sandbox" in nbgrader_config.py).
A student's code can then no longer read the instructor's source notebooks or other
submissions, nor write into the course folder or the gradebook. nbgrader still judges inside
the student's kernel: a student who forges what that kernel prints still passes nbgrader's
tests there (minigrad-kit grade judges outside it). Of what a cell displays, only text and
images reach nbgrader; a student's markdown cells are their file: add
c.HTMLExporter.sanitize_html = True to nbgrader_config.py, or formgrader shows you their HTML
and runs its scripts.
It needs bubblewrap (apt-get install bubblewrap) and user namespaces; install refuses when
a trial run fails, and says why. Remove it with: jupyter kernelspec remove minigrad-kit-sandbox

examples:
  minigrad-kit kernelspec install --user
  minigrad-kit kernelspec install --sys-prefix --memory 2048
"""


GRADESCOPE_EPILOG = """\
what the zip holds (upload it as the assignment's autograder, "Ubuntu 22.04" base image):
  setup.sh            installs Python's venv and bubblewrap, then the kit from the wheel
                      inside the zip (its dependencies from PyPI, when Gradescope builds the
                      image; nothing is downloaded when grading)
  run_autograder      grades /autograder/submission/ with the kit, writes
                      /autograder/results/results.json
  minigrad_kit-*.whl  the kit, as installed here (a pip-installed kit, or a clone's, built)
  course/             the instructor notebooks, question modules and catalogs, and the
                      options below (minigrad-kit.json: keep the zip private, it holds the
                      solutions and the salt)
what a student sees: the score, one test per question with its points and which checks
  passed and failed (in the student's language; never the hidden tests' code). Points held
  back for review count 0 until you adjust the score; what held them back, the flags, and
  whether the code ran without the sandbox are tests only instructors see ("hidden").
the sandbox: --sandbox auto (default) grades under bubblewrap where Gradescope's container
  lets it run, and otherwise without it, saying so to you in every submission's results;
  required refuses (every submission then fails with an error); off is your choice.

example:
  minigrad-kit gradescope course/01_derive_it_by_hand.ipynb --out hw2-autograder.zip \\
      --visibility after_due_date   # the salt: $MINIGRAD_KIT_SALT or --salt-file FILE
"""


PRAIRIELEARN_EPILOG = """\
what it writes into OUT (copy the question folders into your course's repository):
  minigrad-kit-grader/                 Dockerfile and the kit's wheel: the grading image.
                                       docker build -t IMAGE OUT/minigrad-kit-grader, then
                                       docker push IMAGE (PrairieLearn pulls it)
  questions/minigrad-kit/<assignment>/ one question per instructor notebook:
      info.json                        external grading with IMAGE, no network, --job-timeout
      question.html                    download the notebook, upload it, see the results
      clientFilesQuestion/             the student version and its question module
      tests/                           the instructor notebook, question module, catalogs and
                                       minigrad-kit.json (students never see tests/); run, the
                                       entry point
what a student sees: score = automatic points / their maximum (held-back points count 0), one
  test per question with its points and which checks passed and failed (in the student's
  language; never the hidden tests' code); a submission without a notebook that can be graded
  is "invalid, not gradable" (no attempt used). What held points back, the flags, and code
  run without the sandbox are in the grading job's output, which course staff see.
The hidden inputs are drawn per variant (data.json's variant_seed): keep singleVariant false.

example:
  minigrad-kit prairielearn course/01_derive_it_by_hand.ipynb --out pl/ \\
      --image ghcr.io/you/minigrad-kit-grader:0.1.0   # salt: $MINIGRAD_KIT_SALT or --salt-file
"""


def add_commands(commands) -> None:
    """Add the subcommands of this module to ``cli``'s subparsers, in ``NAMES``' order."""
    for name in NAMES:
        ADDERS[name](commands)


def _add_report(commands) -> None:
    report = commands.add_parser(
        "report", help="write an item analysis per assignment (HTML) for the teacher",
        description="Write one HTML page per assignment: the item analysis of a grading run.",
        epilog=REPORT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    report.add_argument("grades", metavar="GRADES", help="the folder minigrad-kit grade wrote")
    report.add_argument("--out", metavar="DIR",
                        help="the folder for the pages (default: GRADES/report/)")
    report.add_argument("--lang", choices=("en", "zh", "ko"),
                        help="the pages' language (default: your locale's, else English)")


def _add_export(commands) -> None:
    export = commands.add_parser(
        "export", help="write the CSV that a Canvas, Moodle or Blackboard gradebook imports",
        description="Write the file a Canvas, Moodle or Blackboard gradebook imports, from "
                    "the folder "
                    "minigrad-kit grade wrote and a roster exported from the LMS.",
        epilog=EXPORT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    export.add_argument("grades", metavar="GRADES", help="the folder minigrad-kit grade wrote")
    export.add_argument("--to", required=True, choices=("canvas", "moodle", "blackboard"),
                        help="the LMS whose gradebook imports the file")
    export.add_argument("--roster", metavar="ROSTER.csv",
                        help="the gradebook exported from that LMS, or a Moodle assignment's "
                             "grading worksheet (see below); Canvas only: none, to write "
                             "the user ids Canvas's download named")
    export.add_argument("--assignment", metavar="NAME",
                        help="the assignment a Moodle grading worksheet is of (needed when "
                             "GRADES holds several and its ids do not tell)")
    export.add_argument("--out", metavar="FILE",
                        help="the file to write (default: GRADES/canvas.csv, "
                             "GRADES/moodle.csv or GRADES/blackboard.csv)")
    export.add_argument("--match", metavar="COLUMN",
                        help="the roster column that holds the students' names as the "
                             "grader knows them (default: the one that matches the most)")
    export.add_argument("--name", action="append", default=[], metavar="ASSIGNMENT=COLUMN",
                        help="the column header of an assignment (default: its title); "
                             "repeatable")


def _add_gradescope(commands) -> None:
    gradescope = commands.add_parser(
        "gradescope", help="write a Gradescope autograder (zip) for instructor notebooks",
        description="Write a Gradescope autograder that grades each submission with the kit.",
        epilog=GRADESCOPE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    gradescope.add_argument("sources", nargs="+", metavar="SOURCE",
                            help="the instructor notebook (.ipynb), or a course folder "
                                 "that holds one, with its question module beside it: one "
                                 "autograder grades one assignment")
    gradescope.add_argument("--out", required=True, metavar="FILE.zip",
                            help="the autograder zip to write")
    _grading_options(gradescope)
    gradescope.add_argument("--visibility", choices=("visible", "after_due_date",
                                                     "after_published"), default="visible",
                            help="when students see the questions' results (Gradescope's "
                                 "test visibility; default: visible)")
    gradescope.add_argument("--variants", choices=("none", "per-student"), default="none",
                            help="none (default): everyone answers one notebook, written "
                                 "beside the zip (FILE-handout/) with the course's own numbers; "
                                 "per-student: each student's own numbers, as `release "
                                 "--students` wrote them for the e-mail addresses Gradescope "
                                 "knows them by")


def _add_prairielearn(commands) -> None:
    prairielearn = commands.add_parser(
        "prairielearn", help="write PrairieLearn questions graded by the kit",
        description="Write PrairieLearn questions (external grading) for instructor notebooks, "
                    "and the grading image's Dockerfile with the kit's wheel.",
        epilog=PRAIRIELEARN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    prairielearn.add_argument("sources", nargs="+", metavar="SOURCE",
                              help="instructor notebooks (.ipynb) or course folders")
    prairielearn.add_argument("--out", required=True, metavar="DIR",
                              help="the folder to write (created if needed)")
    prairielearn.add_argument("--image", required=True, metavar="IMAGE",
                              help="the grading image's name, as PrairieLearn will pull it")
    prairielearn.add_argument("--job-timeout", type=int, default=300, metavar="SECONDS",
                              help="PrairieLearn's limit for one grading job (at most 600; "
                                   "default 300)")
    _grading_options(prairielearn)


def _add_kernelspec(commands) -> None:
    kernelspec = commands.add_parser(
        "kernelspec", help="install a Jupyter kernel that runs in the kit's sandbox",
        description="Install the Jupyter kernel spec minigrad-kit-sandbox: a Python kernel "
                    "inside the kit's bubblewrap sandbox.",
        epilog=KERNELSPEC_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    kernelspec.add_argument("action", choices=("install",), help="what to do")
    where = kernelspec.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true",
                       help="for you only (the default when not run as root)")
    where.add_argument("--sys-prefix", action="store_true",
                       help="in this Python environment (its share/jupyter)")
    where.add_argument("--prefix", metavar="DIR",
                       help="under DIR/share/jupyter/kernels (point JUPYTER_PATH at "
                            "DIR/share/jupyter)")
    kernelspec.add_argument("--memory", type=int, default=4096, metavar="MB",
                            help="memory limit of each kernel, 0 for none (default 4096)")


def _add_lab(commands) -> None:
    lab = commands.add_parser(
        "lab", help="copy the lessons into a folder (once) and open them in JupyterLab",
        description="Open the lessons in JupyterLab, copying them into FOLDER first if they "
                    "are not there yet.",
        epilog=LAB_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    lab.add_argument("folder", metavar="FOLDER", nargs="?", default="my-lessons",
                     help="your copy of the lessons (default: my-lessons)")
    lab.add_argument("--log", metavar="FILE",
                     help="where JupyterLab's own log goes (default: FOLDER/.jupyter-lab.log)")
    lab.add_argument("--port", type=int, metavar="N",
                     help="the port to serve on (default: the first free one from 8888)")


def _export(args) -> int:
    from .export import SYSTEMS, RosterError, export
    from .intake import one_line
    from .stored import NotGraded

    names = {}
    for item in args.name:
        assignment, equals, column = item.partition("=")
        if not equals or not assignment or not column:
            raise SystemExit(f"minigrad-kit: error: --name {item!r} is not ASSIGNMENT=COLUMN, "
                             "e.g. derive_it_by_hand=\"Homework 2\"")
        names[assignment] = column
    try:
        done = export(args.grades, args.to, args.roster, args.out, match=args.match,
                      names=names, assignment=args.assignment)
    except (RosterError, NotGraded) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    system = SYSTEMS[args.to].name
    unknown = sorted(set(names) - set(done.columns))
    for assignment in unknown:
        print(f"minigrad-kit: warning: --name {assignment!r}: no assignment of that name was "
              f"graded in {args.grades} (graded: {', '.join(done.columns) or 'none'})",
              file=sys.stderr)
    if done.kind == "worksheet":
        system = "Moodle's grading worksheet"
    matched = {"worksheet": "the worksheet's participant ids (Identifier)",
               "no roster": "the user ids Canvas's download named"}.get(done.kind)
    if matched is None:
        by_name = f"the roster's {done.matched_by!r}"
        by_id = (f"the ids {system}'s download gave them (the roster's "
                 f"{SYSTEMS[args.to].platform_column!r})")
        matched = (by_id if done.by_id and not done.by_name else
                   f"{by_name}, and by {by_id} where it named them" if done.by_id else by_name)
    print(f"wrote {done.path} for {system}: {done.filled} cells with points; students "
          f"matched by {matched}")
    for assignment, column in done.columns.items():
        print(f"  column {column!r}: {assignment}, {done.maxima[assignment]:g} points possible")
    if done.no_submission:
        print(one_line("empty (no submission; empty, not zero): "
                       + "; ".join(f"{name}: {a}" for name, a in done.no_submission)))
    for student, assignment, questions in done.held:
        print(one_line(f"empty until reviewed: {student} in {assignment} ({' '.join(questions)} "
                       f"held back; minigrad-kit review {args.grades})"))
    for student, assignment, why in done.not_graded:
        print(one_line(f"empty: {student} in {assignment} could not be graded: {why}"))
    for student, assignment, file, folder in done.set_aside:
        print(one_line(f"not exported: {file} ({student} in {assignment}), handed in in the "
                       f"folder of {folder}: the row's own student's notebook is"))
    for assignment, (students, points) in sorted(done.written_pending.items()):
        print(f"{assignment}: written answers ({points:g} points; {students} "
              f"student{'' if students == 1 else 's'}) are graded by hand: add those points "
              f"in {system} after the import")
    for note in done.notes:
        print(one_line(note))
    if done.kind == "worksheet":
        print("in Moodle: the assignment, View all submissions, Grading action, Upload "
              "grading worksheet")
    elif args.to == "moodle":
        print("in Moodle: Grade administration, Import, CSV file; Identify user by: "
              f"{done.matched_by} to {done.matched_by}; map each column to a grade item with "
              "the maximum above (a new grade item gets 100)")
    for student, assignment, rows in done.not_in_roster:
        where = "matches no roster row" if not rows else f"matches {rows} roster rows"
        print(one_line(f"minigrad-kit: error: {student} ({assignment}) {where}: its points are "
                       f"not in {done.path}; add the student to the roster, rename the "
                       "submission, or choose --match"), file=sys.stderr)
    return 1 if done.not_in_roster else 0


def _report(args) -> int:
    from .analysis_page import write_pages
    from .stored import NotGraded

    try:
        written = write_pages(args.grades, args.lang, args.out)
    except NotGraded as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    if not written:
        print(f"minigrad-kit: error: {args.grades} holds no graded assignment",
              file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    return 0


def _kernelspec(args) -> int:
    import json
    import tempfile
    from pathlib import Path

    from jupyter_client.kernelspec import KernelSpecManager

    from .sandbox import SandboxUnavailable, choose
    from .sandboxed_kernel import KERNEL_NAME, kernel_json

    try:
        choose("required")
    except SandboxUnavailable as error:
        print(f"minigrad-kit: error: the kernel would not run here: {error}", file=sys.stderr)
        return 1
    if args.memory < 0:
        raise SystemExit("minigrad-kit: error: --memory must be 0 (no limit) or more")
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-spec-") as folder:
        (Path(folder) / "kernel.json").write_text(json.dumps(kernel_json(args.memory),
                                                             indent=1), encoding="utf-8")
        prefix = sys.prefix if args.sys_prefix else args.prefix
        user = args.user or (prefix is None and os.geteuid() != 0)
        installed = KernelSpecManager().install_kernel_spec(
            folder, KERNEL_NAME, user=user, prefix=prefix)
    print(f"installed the kernel {KERNEL_NAME} in {installed}")
    print(f"use it: nbgrader autograde ASSIGNMENT --ExecutePreprocessor.kernel_name={KERNEL_NAME}")
    print("and put c.HTMLExporter.sanitize_html = True in nbgrader_config.py (formgrader "
          "renders a student's markdown cells as HTML, scripts included)")
    return 0


def _grading_options(parser) -> None:
    """The options a platform's grading runs with (kept in the course's minigrad-kit.json)."""
    parser.add_argument("--timeout", type=float, default=30, metavar="SECONDS",
                        help="time limit per cell (default 30), counted as an idle machine "
                             "takes it: a grading run's waits for a busy machine's CPU do not "
                             "count (and 10 x as long on the wall ends it all the same)")
    parser.add_argument("--memory", type=int, default=4096, metavar="MB",
                        help="memory limit of each code run, 0 for none (default 4096)")
    parser.add_argument("--budget", type=float, metavar="SECONDS",
                        help="time for all the code runs of one submission (default: 3 x "
                             "--timeout)")
    parser.add_argument("--lenient", action="store_true",
                        help="hold for review only what the tampering scan recognises "
                             "(default: strict, as minigrad-kit grade)")
    add_salt(parser, "a secret drawn now and kept in the autograder's configuration")
    parser.add_argument("--sandbox", choices=("auto", "required", "off"), default="auto",
                        help="bubblewrap for the code runs: auto (default), required, off")
    parser.add_argument("--numbers-of", metavar="NAME",
                        help="one notebook for the class: its numbers are drawn for NAME "
                             "(default: a new name, printed; give it again to write the same "
                             "notebook again)")
    parser.add_argument("--lang", choices=("en", "zh", "ko"),
                        help="the language of your notes and of messages about a notebook "
                             "that cannot be read (default: your locale's, else English)")


def _platform_options(args) -> dict:
    from kit_i18n import language

    from .variants import course_numbers

    # (no --salt: a secret drawn here, kept in the autograder's private configuration
    # beside the instructor notebooks; an empty one let students compute their hidden
    # inputs from the kit's public wheel, see cli._salt)
    # (one notebook for the class: the course's numbers, variants.course_numbers)
    one = getattr(args, "variants", "none") == "none"
    numbers = {"numbers": args.numbers_of or course_numbers()} if one else {}
    return {**numbers, "timeout": args.timeout, "memory": args.memory, "budget": args.budget,
            "lenient": args.lenient, "salt": salt(args) or secrets.token_hex(32),
            "sandbox": args.sandbox, "lang": args.lang or language(),
            **({"visibility": args.visibility} if hasattr(args, "visibility") else {}),
            **({"variants": args.variants} if hasattr(args, "variants") else {})}


def _sources(items: list[str]) -> list[str]:
    from .cli import ASSIGNMENTS_HINT, _notebooks

    return _notebooks(items, "SOURCE", "give instructor notebooks or a course folder "
                                       f"({ASSIGNMENTS_HINT})")


def _gradescope(args) -> int:
    from .gradescope import build_zip
    from .source import SourceError
    from .wheel import WheelError

    try:
        options = _platform_options(args)
        written = build_zip(_sources(args.sources), args.out, options)
    except (SourceError, WheelError, ValueError, FileNotFoundError) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {written}: upload it as the autograder of a Gradescope programming "
          "assignment (it holds the solutions: keep it private)")
    if options.get("numbers"):
        from .gradescope import handout_folder

        print(f"hand out the notebooks in {handout_folder(pathlib.Path(args.out))}: they "
              f"show the numbers drawn for {options['numbers']}, on which it grades (not "
              "the instructor notebooks', whose solutions are public); --numbers-of "
              f"{options['numbers']} writes the same ones again")
    return 0


def _prairielearn(args) -> int:
    from .prairielearn import write_course
    from .source import SourceError
    from .wheel import WheelError

    if not 0 < args.job_timeout <= 600:
        raise SystemExit("minigrad-kit: error: --job-timeout must be 1 to 600 seconds "
                         "(PrairieLearn's limit)")
    try:
        options = _platform_options(args)
        written = write_course(_sources(args.sources), args.out, options, args.image,
                               args.job_timeout)
    except (SourceError, WheelError, ValueError, FileNotFoundError) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    out = pathlib.Path(args.out)  # (--out pl/ wrote "pl//questions/")
    print(f"wrote {len(written)} files into {args.out}: build and push the image "
          f"(docker build -t {args.image} {out / 'minigrad-kit-grader'}), then copy "
          f"{out / 'questions'}/ into your course (its notebooks show the numbers drawn "
          f"for {options['numbers']}; --numbers-of {options['numbers']} writes the same "
          "ones again)")
    return 0


def _lab(args) -> int:
    from .kit import Exists
    from .lab import LabError, run_lab

    try:
        log = args.log or os.path.join(args.folder, ".jupyter-lab.log")
        return run_lab(args.folder, log, port=args.port)
    except (LabError, Exists, OSError) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1


ADDERS = {"report": _add_report, "export": _add_export, "gradescope": _add_gradescope,
          "prairielearn": _add_prairielearn, "kernelspec": _add_kernelspec, "lab": _add_lab}
HANDLERS = {"report": _report, "export": _export, "gradescope": _gradescope,
            "prairielearn": _prairielearn, "kernelspec": _kernelspec, "lab": _lab}
