"""``minigrad-kit``: copy the lessons out, release and grade assignments.

    minigrad-kit lessons my-lessons                      # the lessons, for a learner
    minigrad-kit assignments course/                     # the kit's assignments, for a teacher
    minigrad-kit release course/*.ipynb --out release/
    minigrad-kit grade submitted/ --source course/ --out grades/
    minigrad-kit review grades/ --accept alice/derive_it_by_hand/q1
    minigrad-kit grade submitted/ --shard 1/4 --out grades-1/   (... 4/4), then
    minigrad-kit merge grades-1/ grades-2/ grades-3/ grades-4/ --out grades/

Run ``minigrad-kit --help`` or ``minigrad-kit grade --help`` for every option.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sqlite3
import stat
import sys
from pathlib import Path

from kit_i18n import speaking

from . import commands as course_commands
from .batch import (NOT_GRADED, collection_of, collisions, grade_files, named_by_its_file,
                    nbgrader_owner, owner_of, platform_id, platform_owner, readable, safe_name,
                    student_of)
from .command_line import add_salt, hide, salt as given_salt
from .grade import VARIANTS, Options, Result
from .i18n import _
from .intake import one_line, printable, valid_text
from .kit import Exists, copy_assignments, copy_lessons, kit_sources, trust_lessons
from .progress import progress
from .resume import UNFINISHED, finish, graded_before, keep, sources_digest, submission_key
from .sandbox import MODES, SandboxUnavailable, choose, withhold
from .source import SourceError, load_source
from .timing import merge_timing, write_timing

__all__ = ["main"]

DESCRIPTION = """\
The minigrad teaching kit: lessons, and assignments in nbgrader's format.

  lessons      copies the lessons (and the student versions of the assignments) into a
               folder, to open with `jupyter lab FOLDER`.
  assignments  copies the kit's instructor notebooks and their question modules into a
               course folder, where a teacher can add assignments of their own.
  release      writes the student version of each instructor notebook, after checking that
               the solution gets full marks and the stub gets none.
  grade        grades submissions: each runs in a fresh, sandboxed kernel, and every
               verdict is computed outside the student's kernel. Writes a gradebook, a
               feedback report per student, flags and the written answers.
  review       lists the questions held back for tampering, and accepts or rejects them;
               the gradebook is rebuilt from the decisions.
  merge        merges the folders of a grading split with --shard into one.
""" + course_commands.SUMMARY

ASSIGNMENTS_HINT = ("the kit's own assignments are copied into a folder by "
                    "`minigrad-kit assignments FOLDER`")

RELEASE_EPILOG = """\
what it writes:
  OUT/<notebook>.ipynb   solutions replaced by '# YOUR CODE HERE / raise NotImplementedError()',
                         hidden tests removed, outputs cleared, test and locked cells made
                         read-only, nbgrader checksums recorded
  OUT/<assignment>.py    the question module, which the notebook's check() needs: hand it
                         out with the notebook
with --students: OUT/<student>/ holds each student's own version (and the module), with the
numbers drawn for that student written into its locked cells, so that every student
answers questions of their own and a published solution earns nothing; `grade` draws the
same numbers from the student's name (the file name, or nbgrader's folder).
Each instructor notebook needs its question module beside it: <assignment>.py, named by the
notebook metadata {"minigrad_kit": {"assignment": "<assignment>"}}.
Before writing, each notebook is run four times (unless --no-verify): the grader must give
the solution full marks and the student version zero, and run as real nbgrader runs it,
every test cell must pass on the solution and fail on the stub. A notebook that fails is not
written; the message names the question and the fix. A student version (already released)
is refused. Exit status 1 if anything failed.

--lang zh (or ko) writes the student versions in Chinese (Korean): the notebook's prose and
code comments from the catalog beside it, locale/<lang>/LC_MESSAGES/<notebook>.po, and its
"lang" metadata, so that check() answers in that language. The code, the cells and the
grading stay the same: `grade` takes submissions in any language.

example:
  minigrad-kit assignments course/       # the kit's five, to start a course folder
  minigrad-kit release course/*.ipynb --out release/ --students roster.txt
  minigrad-kit release course/*.ipynb --out release-zh/ --lang zh --students roster.txt
without --students, every student's version shows the instructor notebook's numbers (which
its published solution answers): grade those with `grade --variants none`.
"""

GRADE_EPILOG = """\
which assignment: the notebook metadata of the submission names it; a submission for an
assignment not among the --source notebooks is reported (flags.csv), not scored.
which student: the file name (alice.ipynb -> alice); for nbgrader's layout
submitted/<student>/<assignment>/<notebook>.ipynb, where the file has the instructor
notebook's name, the folder two levels up.

what it writes (OUT may not hold the submissions, which are only read):
  OUT/gradebook.csv                       student, assignment, question, points, max,
                                          needs_review (points empty: a written answer to
                                          grade by hand, or needs_review "yes": held back
                                          for tampering until `minigrad-kit review`)
  OUT/feedback/<assignment>/<student>.md  per-student report (no hidden test code)
  OUT/flags.csv                           suspicious code, edited locked cells, failures,
                                          files in OUT the grader did not write, no sandbox
  OUT/answers/<assignment>.md             written answers, for the teacher to read
  OUT/results/<assignment>/<student>.json everything; the files above are rebuilt from
                                          these (only those listed in OUT/manifest.json
                                          with their hashes), so grading again gives the
                                          same files
  OUT/timing.csv                          the seconds each submission took (the one file
                                          that changes from run to run)
progress: in a terminal, a bar on standard error (done/total, time left, failures so far);
none when standard error is not a terminal.
how: answers given as data (formulas, shapes) are read from the notebook's text and
judged here, nothing run; code answers (the answer cells, in the instructor notebook's
order) run in a fresh sandboxed process per submission, and only its report counts.
Questions whose run showed code that could forge its data are held back for review.
the sandbox: each code run is under bubblewrap (no network, read-only system, a private
scratch folder, only NumPy and the kit's packages, no view of the grader, the
submissions or OUT). --sandbox auto (default) grades without it when bubblewrap does not
work here, and says so loudly; required refuses; off is your explicit choice. Both are
recorded in flags.csv. --timeout bounds each cell, --budget a submission's runs.
Exit status 1 if a submission could not be graded at all (see flags.csv).

speed: about a second of one core for an ordinary submission with code answers, much less
for one answered with formulas only; --jobs N grades N at a time (up to the machine's
cores; each run uses one thread). For a large course, split the work over
n machines: each runs the same command with --shard i/n (i = 1..n) and its own --out, then
`minigrad-kit merge` joins the folders; the result is the same, file for file, as grading
everything on one machine.

examples:
  minigrad-kit grade submitted/ --source course/ --out grades/ --jobs 4
  minigrad-kit grade submitted/*/derive_it_by_hand/*.ipynb --out grades/ --format html
  # a Slurm array of 8 tasks (#SBATCH --array=1-8):
  minigrad-kit grade submitted/ --source course/ --shard $SLURM_ARRAY_TASK_ID/8 \\
      --out grades-$SLURM_ARRAY_TASK_ID/
  minigrad-kit merge grades-*/ --out grades/
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minigrad-kit", description=DESCRIPTION,
        epilog="Each command has its own --help. The teachers' guide and the threat model: "
               "assignments/README.md in the kit's repository (notebooks/assignments/), also "
               "copied by `minigrad-kit assignments FOLDER`.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    names = ("lessons", "assignments", "release", "grade", "review", "merge",
             *course_commands.NAMES)
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{" + ",".join(names) + "}")
    for name, what in (("lessons", "the lessons, and the student versions of the "
                                   "assignments in FOLDER/assignments/"),
                       ("assignments", "the kit's instructor notebooks and their question "
                                       "modules, to start a course folder")):
        command = commands.add_parser(
            name, help=f"copy {what.split(',')[0]} into a folder",
            description=f"Copy {what} into FOLDER (created if needed).",
            epilog=f"example:\n  minigrad-kit {name} "
                   + ("my-lessons\n  jupyter lab my-lessons" if name == "lessons" else
                      "course/\n  minigrad-kit release course/*.ipynb --out release/"),
            formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_argument("folder", metavar="FOLDER")
        command.add_argument("--force", action="store_true",
                             help="replace files that already exist (default: refuse, and "
                                  "write nothing)")

    release = commands.add_parser(
        "release", help="write student versions of instructor notebooks",
        description="Write the student version of each instructor notebook.",
        epilog=RELEASE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    release.add_argument("sources", nargs="+", metavar="SOURCE",
                         help="instructor notebooks (.ipynb) or folders of them")
    release.add_argument("--out", required=True, metavar="DIR",
                         help="folder for the student versions (created if needed)")
    release.add_argument("--no-verify", action="store_true",
                         help="skip the four check runs (faster; not recommended)")
    release.add_argument("--lang", default="en", choices=["en", "zh", "ko"],
                         help="the student versions' language (default: en)")
    release.add_argument("--students", nargs="+", metavar="NAME",
                         help="write one version per student, OUT/<student>/<notebook>.ipynb, "
                              "each with the student's own numbers (the assignment's variant); "
                              "a file of names, one a line, may stand for the names")
    _common(release)

    grade = commands.add_parser(
        "grade", help="grade submissions into a gradebook and feedback reports",
        description="Grade submitted notebooks, each in a fresh kernel; verdicts are "
                    "computed in the grader's own process.",
        epilog=GRADE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    grade.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                       help="submitted notebooks (.ipynb) or folders of them")
    grade.add_argument("--out", required=True, metavar="DIR",
                       help="folder for the gradebook and reports (created if needed)")
    grade.add_argument("--source", action="append", metavar="NOTEBOOK",
                       help="instructor notebook(s) or a course folder of them, each with "
                            "its question module beside it (repeatable; default: the kit's "
                            "own five assignments)")
    grade.add_argument("--format", choices=("md", "html"), default="md",
                       help="feedback reports as Markdown (default) or HTML")
    grade.add_argument("--memory", type=int, default=4096, metavar="MB",
                       help="memory limit of each code run, 0 for none (default 4096)")
    grade.add_argument("--budget", type=float, metavar="SECONDS",
                       help="time for all the code runs of one submission; when it runs out, "
                            "the rest is not run and the submission is graded on what ran, "
                            "with a flag saying so (default: 3 x --timeout)")
    grade.add_argument("--strict", action="store_true", default=True,
                       help="(the default) hold for review every code question whose run "
                            "includes code beyond what an answer needs: an allowlist of plain "
                            "Python and the public names of minigrad, NumPy and math; no other "
                            "imports, no _private or __dunder__ names, no classes, no "
                            "reflective builtins")
    grade.add_argument("--lenient", action="store_false", dest="strict",
                       help="hold only what the tampering scan recognises (a denylist: fewer "
                            "answers to review, but a new spelling of a forgery can pass)")
    grade.add_argument("--variants", choices=VARIANTS, default="per-student",
                       help="per-student (default): each student is graded on their own "
                            "numbers, as `release --students` wrote them; none: everyone on "
                            "the instructor notebook's numbers (for notebooks released "
                            "without --students, which published solutions then answer)")
    grade.add_argument("--numbers-of", metavar="NAME",
                       help="grade every student on the numbers drawn for NAME (the one "
                            "notebook `release --students` wrote for NAME, handed to the whole "
                            "class; what `gradescope` and `prairielearn` do)")
    add_salt(grade, "a secret drawn at the first grading into --out and kept there, "
                    "OUT/salt.txt")
    grade.add_argument("--sandbox", choices=MODES, default="auto",
                       help="run each kernel under bubblewrap: auto (default; without it, "
                            "loudly, where it does not work), required, or off")
    grade.add_argument("--missing", action="store_true",
                       help="grade only what a run into --out that was stopped, or that left "
                            "submissions not graded, did not grade: a submission whose "
                            "result that run kept (OUT/unfinished/) for the same file, "
                            "instructor notebooks and options is stored as it was graded")
    grade.add_argument("--shard", type=_shard, metavar="I/N",
                       help="grade only part I of N (I = 1..N) of the students, sorted by "
                            "name, each with all their notebooks; give every part the same "
                            "SUBMISSION arguments and its own --out, then join the parts "
                            "with `minigrad-kit merge`")
    _common(grade)

    review = commands.add_parser(
        "review", help="accept or reject questions held back for tampering",
        description="List the questions whose points are held back because the scan found "
                    "code that could forge the grader's data; accept (the points count) or "
                    "reject (0 points) them. The gradebook is rebuilt from the decisions.",
        epilog=REVIEW_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    review.add_argument("out", metavar="OUT", help="the folder minigrad-kit grade wrote")
    review.add_argument("--accept", action="append", default=[], metavar="KEY",
                        help="student/assignment/question (or student/assignment: all its "
                             "held questions); repeatable")
    review.add_argument("--reject", action="append", default=[], metavar="KEY",
                        help="the same, for 0 points")
    review.add_argument("--format", choices=("md", "html"), default="md",
                        help="feedback reports rewritten as Markdown (default) or HTML")

    merge = commands.add_parser(
        "merge", help="join the --out folders of a sharded grading",
        description="Join the folders written by `grade --shard i/n` into one: the results "
                    "(and review decisions) are copied, and the gradebook, feedback, flags "
                    "and written answers rebuilt from all of them.",
        epilog="example:\n  minigrad-kit merge grades-1/ grades-2/ --out grades/",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    merge.add_argument("parts", nargs="+", metavar="FOLDER",
                       help="folders written by `minigrad-kit grade`")
    merge.add_argument("--out", required=True, metavar="DIR",
                       help="the joined folder (created if needed; may already hold grades)")
    merge.add_argument("--format", choices=("md", "html"), default="md",
                       help="feedback reports as Markdown (default) or HTML, as graded")
    course_commands.add_commands(commands)
    return parser


REVIEW_EPILOG = """example:
  minigrad-kit review grades/                       # list what is held back, and why
  minigrad-kit review grades/ --accept alice/derive_it_by_hand/q1 --reject bob/implement_a_backward
A decision holds for the reasons it was made on: if a later run holds the question back
for other reasons, it is listed again.
"""


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=float, default=30, metavar="SECONDS",
                        help="time limit per cell (default 30), counted as an idle machine "
                             "takes it: a grading run's waits for a busy machine's CPU do not "
                             "count (and 10 x as long on the wall ends it all the same)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), metavar="N",
                        help="notebooks run at a time, up to the machine's cores "
                             f"({os.cpu_count()} here; default: 2, or 1 on one core)")


def _shard(text: str) -> tuple[int, int]:
    part, _, count = text.partition("/")
    if not (part.isdigit() and count.isdigit() and 1 <= int(part) <= int(count)):
        raise argparse.ArgumentTypeError(f"{text!r} is not I/N with 1 <= I <= N, e.g. 2/8 "
                                         "for the second of eight parts")
    return int(part), int(count)


def _owners(items: list[str], submissions: list[str]) -> tuple[dict, dict]:
    """submission -> the student whose nbgrader folder holds it (``batch.owner_of``), and
    submission -> the folder it was collected in (``batch.collection_of``)."""
    owners, collections = {}, {}
    for item in items:
        if Path(item).is_dir():
            for path in submissions:
                if Path(item) in Path(path).parents and path not in collections:
                    collections[path] = collection_of(path, item)
                    owner = owner_of(path, item)
                    if owner:
                        owners[path] = owner
    return owners, collections


def _tops(items: list[str], submissions: list[str]) -> dict:
    """submission -> the folder of ``items`` it was found in (none for a file given as
    itself): a notebook named after a student below another student's own folder is looked
    for up to there (``batch._hold_beside``)."""
    tops = {}
    for item in items:
        if Path(item).is_dir():
            for path in submissions:
                if Path(item) in Path(path).parents:
                    tops.setdefault(path, item)
    return tops


def _sharded(items: list[str], submissions: list[str], sources: list[str], part: int,
             count: int) -> list[str]:
    """The submissions of part ``part`` of ``count``: the students (as the grader names
    them, ``batch.student_of``) sorted, every ``count``-th taken, with all their files.
    Taken file by file (every n-th path), a student's two notebooks of one assignment were
    graded in two parts, and ``merge`` refused the two results: nothing was written for the
    whole class (in one run, the last by path is kept, and the command says so)."""
    owners = _owners(items, submissions)[0]
    stems = {Path(source).stem for source in sources}
    # (ignoring case: ``Bob.ipynb`` and ``bob.ipynb`` in one part, where ``batch.collisions``
    # sees them both)
    whose = {path: student_of(path, owners.get(path), stems).casefold()
             for path in set(submissions)}
    chosen = set(sorted(set(whose.values()))[part - 1::count])
    return sorted(path for path, student in whose.items() if student in chosen)


def _notebooks(items: list[str], what: str, hint: str) -> list[str]:
    """Files as given; folders expanded to the notebooks inside (checkpoints skipped)."""
    found = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
            if not inside:
                raise SystemExit(f"minigrad-kit: error: {what} folder {item!r} has no .ipynb "
                                 f"files; {hint}")
            found += [str(p) for p in inside]
        elif not path.exists():
            pattern = " (the shell found no file matching it)" if set("*?[") & set(item) else ""
            raise SystemExit(f"minigrad-kit: error: {what} {item!r} does not exist{pattern}; "
                             f"{hint}")
        elif path.suffix != ".ipynb" or not path.is_file():
            raise SystemExit(f"minigrad-kit: error: {what} {item!r} is not a .ipynb notebook; "
                             f"{hint}")
        else:
            found.append(str(path))
    return found


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # (this process's own command line: the salt off the process list)
        hide()
    args = _parser().parse_args(argv)
    if args.command in course_commands.HANDLERS:
        return course_commands.HANDLERS[args.command](args)
    if args.command == "review":
        return _review(args)
    if args.command in ("lessons", "assignments"):
        return _copy(args)
    if args.command == "merge":
        return _merge(args)
    if args.jobs < 1 or args.timeout <= 0 or (getattr(args, "budget", None) or 1) <= 0:
        raise SystemExit("minigrad-kit: error: --jobs must be at least 1, --timeout and "
                         "--budget positive")
    if args.command == "release":
        return _release(args)
    return _grade(args)


def _copy(args) -> int:
    copy = copy_lessons if args.command == "lessons" else copy_assignments
    try:
        written = copy(args.folder, force=args.force)
    except Exists as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files into {args.folder}")
    if args.command == "lessons":
        try:
            trusted = trust_lessons(written)
        except (OSError, sqlite3.Error) as error:  # no writable Jupyter data folder: they still work
            print(f"minigrad-kit: warning: could not mark the lessons trusted ({error}); "
                  f"run: jupyter trust {args.folder}/*.ipynb", file=sys.stderr)
        else:
            print(f"marked {trusted} lessons trusted (their stored graphs show before you run them)")
        print(f"open them with: jupyter lab {args.folder}")
    return 0


def _release(args) -> int:
    from .release import release

    sources = _notebooks(args.sources, "SOURCE", "give instructor notebooks or a course "
                         f"folder ({ASSIGNMENTS_HINT})")
    students = _students(args.students)
    sandbox = choose("auto") if not args.no_verify else None
    if sandbox is not None and not sandbox.on:
        print(f"WARNING: checking without a sandbox. {sandbox.reason}.", file=sys.stderr)
    options = Options(timeout=args.timeout,
                      sandbox="bubblewrap" if sandbox is not None and sandbox.on else "off")
    with progress("checking") as bar:
        written, problems = release(sources, args.out, verify_first=not args.no_verify,
                                    options=options, jobs=args.jobs, lang=args.lang,
                                    students=students, progress=bar)
    for path in written:
        print(f"wrote {path}")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if problems else 0


def _students(given: list[str] | None) -> list[str] | None:
    """--students: the names, or the lines of a file of names."""
    if not given:
        return None
    if len(given) == 1 and Path(given[0]).is_file():
        given = Path(given[0]).read_text(encoding="utf-8").splitlines()
    names = [safe_name(name.strip()) for name in given if name.strip()]
    if len(set(names)) != len(names):
        raise SystemExit("minigrad-kit: error: --students names a student twice")
    return names


def _grade(args) -> int:
    submissions = _notebooks(args.submissions, "SUBMISSION",
                             "give the students' notebooks, or the folder they are in")
    out = Path(args.out).resolve()
    for submission in submissions:
        folder = Path(submission).resolve().parent
        if out == folder or out in folder.parents:
            raise SystemExit(f"minigrad-kit: error: --out {args.out!r} holds the submission "
                             f"{submission!r}; write the grades to a folder outside the "
                             "submissions")
    if args.source:
        sources = _notebooks(args.source, "--source", "give instructor notebooks or a course "
                             f"folder ({ASSIGNMENTS_HINT})")
        return _grade_with(args, submissions, sources, out)
    with kit_sources() as sources:
        return _grade_with(args, submissions, sources, out)


def _grade_with(args, submissions: list[str], sources: list[str], out: Path) -> int:
    from .report import write_report

    try:
        for source in sources:
            load_source(source)
    except (SourceError, ValueError, FileNotFoundError) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    try:
        chosen = given_salt(args)
    except ValueError as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    if args.shard and not chosen:
        print("minigrad-kit: error: --shard needs --salt-file FILE (or $MINIGRAD_KIT_SALT): "
              "without it each part draws a secret of its own, and the parts' hidden inputs "
              "would differ from one run's; give every part the same private salt",
              file=sys.stderr)
        return 1
    if args.shard:
        submissions = _sharded(args.submissions, submissions, sources, *args.shard)
    try:
        sandbox = choose(args.sandbox)
        salt = chosen or _salt(out)  # (nothing written before a refusal)
    except (SandboxUnavailable, ValueError) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    if not sandbox.on:
        print(f"WARNING: grading without a sandbox. {sandbox.reason}. (Recorded in "
              "flags.csv.)", file=sys.stderr)
        out.mkdir(parents=True, exist_ok=True)
        withhold(out)  # (earlier gradings' feedback and written answers: red team 16)
    options = Options(timeout=args.timeout, memory_mb=args.memory, salt=salt,
                      sandbox="bubblewrap" if sandbox.on else "off", budget=args.budget,
                      variants=args.variants, strict=args.strict,
                      numbers_of=args.numbers_of or None)
    measured = []
    owners, collections = _owners(args.submissions, submissions)
    clashing = collisions(submissions, owners, {Path(source).stem for source in sources})
    clashing.update(_unowned(args.submissions, submissions, owners, sources))
    graded = [path for path in submissions if path not in clashing]
    tops, digest = _tops(args.submissions, graded), sources_digest(sources)
    keys = {path: submission_key(path, digest, options, owners.get(path),
                                 collections.get(path), tops.get(path)) for path in graded}
    before = graded_before(out, keys) if args.missing else {}
    pending = [path for path in graded if path not in before]
    if args.missing:
        print(f"--missing: {len(before)} submission(s) graded before are kept as graded; "
              f"{len(pending)} to grade")
    with progress("grading", len(pending)) as bar:
        def done(path, result, seconds):
            keep(out, keys[path], result)  # (a run stopped now loses nothing: --missing)
            measured.append((result, seconds))
            bar.done(failed=bool(result.error))
        results = grade_files(pending, sources, options, jobs=args.jobs, owners=owners,
                              collections=collections, on_done=done, tops=tops)
    by_path = {**before, **dict(zip(pending, results))}
    results = [by_path[path] if path in by_path else
               _clash(path, clashing[path], owners, sources) for path in submissions]
    submissions, results = _folders_last(submissions, results, owners, sources)
    if not sandbox.on:
        for result in results:
            result.sandbox = sandbox.describe()
    stems = {Path(source).stem for source in sources}
    by_file = {path for path in submissions
               if named_by_its_file(path, owners.get(path), stems)}
    failed = [r for r in results if r.error] + _duplicates(submissions, results, by_file)
    write_report(results, out, args.format)
    write_timing(out, measured)
    if not finish(out, results, NOT_GRADED):
        print(f"some submissions were not graded (their grading process died; listed "
              f"below): what was graded is kept in {out / UNFINISHED}; grade again with "
              "--missing to grade only those", file=sys.stderr)
    for r in results:
        held = sum(q.held for q in r.questions)
        line = (f"could not grade {r.file}: {r.error}" if r.error else
                f"{r.student:>16}  {r.assignment}  {r.points:g} / {r.max_points:g}"
                + (f"  ({len(r.flags)} flagged)" if r.flags else "")
                + (f"  ({held} held back for review)" if held else ""))
        print(one_line(line), file=sys.stderr if r.error else sys.stdout)
    print(f"wrote {out / 'gradebook.csv'} and the feedback in {out / 'feedback'}; code ran "
          + (f"in a sandbox: {sandbox.describe()}" if sandbox.on else "WITHOUT a sandbox"))
    return 1 if failed else 0


SALT = "salt.txt"  # in --out: the secret drawn when no --salt is given


def _salt(out: Path) -> str:
    """The secret the hidden inputs are drawn with when the teacher gives no ``--salt``:
    drawn once (``secrets``) at the first grading into ``out``, kept there as ``salt.txt``
    and read back by every later grading into it, so re-grading draws the same inputs.

    The hidden inputs are drawn from the instructor notebook's hidden tests, the student's
    name and the salt. The kit's instructor notebooks, hidden tests included, are in its
    wheel, which the students install, and so is this code: with an empty salt (the
    default until the red team's ninth pass) a student computed their own hidden inputs
    at home, had the kit's autograd answer them, and handed in an ``unbroadcast`` that was
    a table of those answers, for full marks. A secret that only ``--out`` holds (no code
    run sees ``--out``) makes them unknowable by construction, whoever publishes what."""
    path = out / SALT
    try:
        out.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | getattr(os, "O_NOFOLLOW", 0), 0o600)  # (a secret: its owner only)
    except FileExistsError:
        pass  # drawn by an earlier grading (or one running beside this one)
    except OSError as error:
        raise ValueError(f"--out {str(out)!r} cannot be written ({error}); give a folder "
                         "you can write to") from error
    else:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(32) + "\n")
    try:  # (a regular file only: a link or a FIFO planted there is refused, never waited on)
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(handle, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise OSError("not a regular file")
            text = file.read(200).decode("ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} cannot be read ({error}); it holds the secret the hidden "
                         "inputs are drawn with: restore it, or give --salt") from error
    if len(text) < 32 or not all(c in "0123456789abcdef" for c in text):
        raise ValueError(f"{path} is not a secret the grader drew (64 hexadecimal digits); "
                         "restore it, or give --salt")
    return text


def _review(args) -> int:
    from .report import decide, decision_of, held_questions, load_reviews, rebuild, save_reviews

    out = Path(args.out)
    if not (out / "gradebook.csv").is_file():
        raise SystemExit(f"minigrad-kit: error: {args.out!r} has no gradebook.csv; give the "
                         "folder that minigrad-kit grade --out wrote")
    stored = rebuild(out, args.format)
    decisions = load_reviews(out)
    wanted = [(key, "accept") for key in args.accept] + [(key, "reject") for key in args.reject]
    unknown = []
    for key, decision in wanted:
        matched = [(r, q) for r in stored for q in held_questions(r)
                   if key in (f"{r.student}/{r.assignment}/{q.name}",
                              f"{r.student}/{r.assignment}")]
        unknown += [key] if not matched else []
        decisions.update(decide(r, q, decision) for r, q in matched)
    if wanted:
        save_reviews(out, decisions)
        stored = rebuild(out, args.format)
    held = [(r, q, decision_of(r, q, decisions)) for r in stored for q in held_questions(r)]
    for r, q, decision in held:
        status = {"accept": "accepted", "reject": "rejected"}.get(decision, "held back")
        print(one_line(f"{r.student}/{r.assignment}/{q.name}: {status} ({q.points:g} of "
                       f"{q.max_points:g} points as judged): " + "; ".join(q.review)))
    for r in {id(r): r for r, _q, _d in held}.values():
        _show_graded(r)
    pending = sum(decision is None for _, _, decision in held)
    print(f"{pending} question(s) held back for review" if pending
          else "nothing is held back for review")
    for key in unknown:
        print(f"minigrad-kit: error: {key!r} names no held-back question (keys look like "
              "alice/derive_it_by_hand/q1, as listed above)", file=sys.stderr)
    return 1 if unknown else 0


def _merge(args) -> int:
    from .report import MergeConflict, merge

    try:
        merge(args.parts, args.out, args.format)
    except (MergeConflict, FileNotFoundError) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1
    merge_timing(args.parts, args.out)
    print(f"wrote {Path(args.out) / 'gradebook.csv'} from {len(args.parts)} folders")
    return 0


def _folders_last(submissions: list[str], results: list, owners: dict, sources: list[str]
                  ) -> tuple[list[str], list]:
    """``submissions`` and their ``results`` with those whose student a folder of the layout
    names after those named by their file's name alone (``batch.named_by_its_file``), each
    kind in its order: of two notebooks for one student and assignment the last is kept, so
    a notebook named ``bob.ipynb`` in zed's own folder (``home/zed/ps1/``) never replaces
    the one in bob's, whatever their paths (by path, zed's came last and replaced bob's
    9 of 9 with 0)."""
    stems = {Path(source).stem for source in sources}
    pairs = sorted(zip(submissions, results), key=lambda pair: not named_by_its_file(
        pair[0], owners.get(pair[0]), stems))
    return [path for path, _result in pairs], [result for _path, result in pairs]


def _show_graded(result) -> None:
    """The answer cells of ``result`` as they were graded, indented: what the teacher
    decides on. The notebook may show other text: a markdown cell graded as an answer's
    code hides what an HTML comment holds (``grade._hold_rendered``)."""
    if not result.graded:
        return
    print(f"  {result.student}/{result.assignment}: the answer cells as graded")
    for gid, text in result.graded.items():
        print(f"    [{gid}]")
        print("\n".join(f"      {line}" for line in text.splitlines()) or "      (empty)")


def _unowned(items: list[str], submissions: list[str], owners: dict, sources: list[str]
             ) -> dict:
    """path -> a reason (``_clash``'s "others") for each notebook named like an instructor
    notebook, directly in a folder that is directly in a folder the teacher gave
    (``dl/<folder>/01_derive_it_by_hand.ipynb``), that no layout names the student of
    (``owners``, nbgrader's ``submitted/``, Moodle's and Canvas's names). Whose it is, only
    the folder could say, and whether ``<folder>`` is a student's or a section's (or an
    assignment's) the grader cannot tell; the rule "two folders up" made it the student
    ``dl``, the given folder itself, and one notebook of each such folder replaced the
    others' (measured: bob's 9 of 9 in ``Bob B_456_assignsubmission_file_/``, before the
    grader read Moodle's folders, was graded as ``dl``). Graded for no one, and said."""
    stems = {Path(source).stem for source in sources}
    found = {}
    for item in (Path(item) for item in items if Path(item).is_dir()):
        for path in submissions:
            full = Path(path)
            if full.parent.parent == item and full.stem in stems and not (
                    owners.get(path) or nbgrader_owner(path) or platform_owner(path)):
                found[path] = [f"the folder given, {item}: is {full.parent.name} a student's "
                               "folder or a section's? Give the students' folders in "
                               "nbgrader's layout, submitted/<student>/<assignment>/, or "
                               "each file named after its student"]
    return found


def _clash(path: str, others: list[str], owners: dict, sources: list[str]):
    """The result of a notebook whose name becomes a student's name that another notebook's
    different name becomes too (``batch.collisions``): not graded, and saying so. Graded,
    the last by path replaced the other's result: mallory's ``bob~smith.ipynb`` (or ``bob
    smith.ipynb``, ``Bob_Smith.ipynb``) was ``bob_smith`` and replaced bob's 9 of 9 with
    the points of her choice, with a warning the exit status alone carried. Which file is
    bob's only the teacher can tell: neither is graded under the name, both are listed."""
    student = student_of(path, owners.get(path), {Path(source).stem for source in sources})
    error = (f"its name and the different name of {', '.join(others)} both become the "
             f"student {student}: two students, or one student's name written two ways? "
             "None of them was graded; rename them so that each name is one student's "
             "and grade them again")
    return readable(Result(student, "", Path(path).name, error=error,
                           platform=platform_id(path, owners.get(path))))


def _duplicates(submissions: list[str], results: list, by_file=frozenset()) -> list[str]:
    """Two files for the same student and assignment: only the last one's result is kept,
    and it is flagged and what it scored held for review (``_hold_duplicate``): which of
    the two is the student's, and whether both are theirs, only the teacher can tell (two
    files named ``bob.ipynb``, one in a folder of its own, replaced bob's 9 of 9 with the
    other's 0, with only a line on the terminal). Not held: a notebook whose student a
    folder of the layout names, kept over one named by its file alone (``by_file``,
    ``_folders_last``: zed's ``bob.ipynb`` in his own folder never makes bob's own held)."""
    seen, found = {}, []
    for path, result in zip(submissions, results):
        key = (result.student, result.assignment)
        if key in seen and not result.error:
            found.append(key)
            print(one_line(f"two submissions for {result.student} in {result.assignment}: "
                           f"{seen[key]} and {path}; only the last was kept, and held for "
                           "review (rename one to grade both)"),
                  file=sys.stderr)  # (the paths: the student's)
            if path in by_file or seen[key] not in by_file:
                _hold_duplicate(result, seen[key])
        seen[key] = path
    return found


def _hold_duplicate(result, other: str) -> None:
    """Flag ``result``, which replaced ``other``'s of the same student and assignment, and
    hold every question graded automatically, those it scored 0 too (the other may be the
    student's, and right): for the teacher to decide, never a grade sent as it stands."""
    with speaking(result.lang):
        text = _("another notebook of this student and assignment was handed in too, "
                 "{other}; only this one was kept: which is the student's? It is held for "
                 "review").format(other=printable(valid_text(Path(other).name)))
    result.flags.append(text)
    for question in result.questions:
        if not question.manual:
            question.review.append(text)


if __name__ == "__main__":
    sys.exit(main())
