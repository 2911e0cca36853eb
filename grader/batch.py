"""Grade many submission files in parallel; one that fails never stops the rest.

``grade_files(paths, sources)`` grades each file in a worker process (two at a
time by default): it reads the file, finds its instructor notebook, names the
student and calls ``grade.grade_notebook``. Whatever goes wrong with one file
(not a notebook, no matching assignment, a crashed worker) comes back as that
file's ``Result.error``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from kit_i18n import speaking

from . import notebook as nbg
from .grade import Options, Result, grade_notebook
from .i18n import _
from .intake import MAX_BYTES, printable, read_submission, valid_text
from .source import Source, load_source

__all__ = ["grade_file", "grade_files", "readable", "workers", "alone", "safe_name",
           "owner_of", "nbgrader_owner", "collection_of", "student_of", "named_by_its_file",
           "named_as", "collisions", "platform_owner", "platform_id", "MOODLE", "MOODLE_FILE",
           "CANVAS", "BLACKBOARD", "MAX_BYTES", "NOT_GRADED"]

SUBMITTED = "submitted"  # nbgrader's folder of submissions: submitted/<student>/<assignment>/
# The folders and names the learning platforms' "download all submissions" make: the
# platform's, never the student's (a student chooses only the name of the file they upload).
# Moodle: <Full Name>_<participant id>_assignsubmission_file_/<their file>; its student is
# <Full Name>_<id> (the id tells two students of one name apart).
MOODLE = re.compile(r"^(?P<student>.+_\d+)_assignsubmission_[a-z]+_?$")
# Canvas: <name>[_late]_<user id>_<submission id>_<their file name>; its student is the
# user id, which is the column ``ID`` of the gradebook Canvas exports (the roster).
CANVAS = re.compile(r"^[a-z0-9]+_(?:late_)?(?P<student>\d+)_\d+_(?P<tail>.+)\.ipynb$",
                    re.IGNORECASE)
# Moodle without "download submissions in folders": <Full Name>_<id>_assignsubmission_file_
# <their file> in one folder (the first such head from the left is Moodle's).
MOODLE_FILE = re.compile(r"^(?P<student>.+?_\d+)_assignsubmission_file_(?P<tail>.+)\.ipynb$")
# Blackboard Learn (Grade Center, "Assignment File Download"):
# <Assignment>_<username>_attempt_<yyyy-mm-dd-hh-mm-ss>_<their file name>, and beside it the
# platform's receipt <Assignment>_<username>_attempt_<date>.txt, whose first line is
# "Name: <full name> (<username>)"; its student is the username.
BLACKBOARD = re.compile(
    r"^(?P<head>.+?)_attempt_(?P<date>\d{4}(?:-\d\d){5})_(?P<tail>.+)\.ipynb$")
# (its first line only: the lines after it hold the student's own text, their comments)
RECEIPT_NAME = re.compile(r"^Name:.*\((?P<username>[^()\s]+)\)\s*$")
# the error of a submission whose grading process died (``_alone``): never graded at all
NOT_GRADED = "not graded: "


def grade_file(path: str, sources: list[str], options: Options = Options(),
               owner: str | None = None, collected: str | None = None,
               top: str | None = None) -> Result:
    """Grade one submission file; every failure comes back as ``Result.error``.
    ``owner``: the student whose folder holds it (``owner_of``), whatever its name;
    ``collected``: the folder the teacher collected it in (``collection_of``; by default
    read from its path alone); ``top``: the folder the teacher gave that holds it, up to
    which a student's own folder is looked for (``_hold_beside``; by default its own)."""
    collected = collection_of(path) if collected is None else collected
    path, loaded = Path(path), []
    try:
        if path.is_symlink() or not path.is_file():
            raise ValueError(f"{path} is a symbolic link, or not a file: the grader reads "
                             "only the files handed in, never what a link leads to")
        loaded = [load_source(s, options.salt) for s in sources]
        submission = read_submission(path)  # (bounded: intake.py)
        source = _match(submission, loaded, path)
        student = _student(path, source, owner)
        result = grade_notebook(source, submission, student, path.name, options)
        result.collected = collected
        result.named = named_as(path, owner, (source.path.stem,))
        result.platform = platform_id(path, owner)
        if named_by_its_file(path, owner, (source.path.stem,)):
            _hold_beside(result, path, [s.path.stem for s in loaded], top)
        return readable(result)
    except Exception as error:  # noqa: BLE001 (one bad submission must not stop the rest)
        student, assignment = _who(path, loaded, owner)
        return readable(Result(student, assignment, path.name,
                               error=f"{type(error).__name__}: {error}",
                               platform=platform_id(path, owner)))


def readable(result: Result) -> Result:
    """``result`` with every text valid Unicode (``intake.valid_text``) and printable
    (``intake.printable``: no terminal escape). Its texts come from outside: the file's
    name (bytes that are not UTF-8 are lone surrogates in Python), the notebook, what the
    run's pipe carried, an exception's message; one lone surrogate stopped the report of
    the whole class from being written (UnicodeEncodeError), and the grader prints them."""
    return Result.from_json(json.dumps(printable(valid_text(json.loads(result.to_json())))))


def owner_of(path, folder) -> str | None:
    """The student whose folder holds ``path`` in nbgrader's layout, given the submissions
    ``folder``: ``folder/<student>/<assignment>/...`` is <student>'s, whatever the file is
    called (a student writes only inside that folder, so a notebook named after a classmate
    there is still theirs). None for a file directly in ``folder`` (named by the file).

    The path the teacher gives (``folder``) is the teacher's, and so is the layout down to
    ``submitted/<student>``; everything below that is the student's, who can make folders
    there named ``submitted``, ``bob``, ``ps1``. So the owner is read from the top: the
    first ``submitted/<student>`` from the folder's own (when the folder is ``submitted/``,
    a student's folder or their assignment's: ``submitted/*/ps1``) or else from the
    folder down, else the folder's first level. (Read from the bottom,
    ``submitted/zed/ps1/bob/ps1/x.ipynb``, or ``.../submitted/bob/ps1/x.ipynb`` inside zed's
    folder, was bob's, and replaced bob's grade.) A course kept below a folder that is
    itself named ``submitted`` is read wrongly: give the grader the course's own
    ``submitted/``."""
    at = _owner_index(path, folder)
    return None if at is None else _owner_name(Path(os.path.abspath(path)).parts[at])


def _owner_name(folder: str) -> str:
    """The student a layout's folder names: Moodle's ``Bob B_456_assignsubmission_file_`` is
    ``Bob B_456``; nbgrader's ``submitted/bob`` is ``bob``."""
    match = MOODLE.match(folder)
    return match["student"] if match else folder


def _platform_index(parts: tuple) -> int | None:
    """The index of the first folder of ``parts`` (from the top, its file excluded) that a
    learning platform made for one student (``MOODLE``), or None."""
    return next((i for i, part in enumerate(parts[:-1]) if MOODLE.match(part)), None)


def _owner_index(path, folder) -> int | None:
    """Where ``owner_of`` finds the owner in ``path``'s parts (None: no owner)."""
    top = Path(os.path.abspath(folder)).parts
    full = Path(os.path.abspath(path)).parts
    marks = [i for i, part in enumerate(top) if part == SUBMITTED]
    # where the layout's submitted/ can be: the folder's own (it is submitted/, a student's
    # folder or their assignment's), else only below the folder
    start = marks[-1] if marks and len(top) - marks[-1] <= 3 else len(top)
    index = _first_submitted(full, start)
    platform = _platform_index(full)
    if platform is not None and (index is None or platform <= index):
        return platform  # (Moodle's folder of one student: the first from the top)
    if index is not None:
        return index + 1
    return len(top) if len(full) - len(top) >= 3 else None


def nbgrader_owner(path) -> str | None:
    """The student of a file in nbgrader's layout, from its path alone:
    ``.../submitted/<student>/<assignment>/.../<file>.ipynb`` is <student>'s, whatever the
    file is called and however it was handed to the grader (the folder ``submitted/``, a
    student's folders ``submitted/*/ps1``, the files ``submitted/*/ps1/*.ipynb``). A
    student writes only below their own folder, so a notebook named after a classmate
    there is still theirs: named by its file, it replaced the classmate's grade. The first
    ``submitted`` of the path is the layout's (a student can add others only below it:
    see ``owner_of``)."""
    parts = Path(os.path.abspath(path)).parts
    index, platform = _first_submitted(parts), _platform_index(parts)
    if platform is not None and (index is None or platform <= index):
        return _owner_name(parts[platform])  # (Moodle's folder of one student)
    return None if index is None else parts[index + 1]


def collection_of(path, folder=None) -> str:
    """The name of the folder the teacher collected ``path`` in: in nbgrader's layout the
    assignment's folder below its owner's (``submitted/bob/ps3/x.ipynb``: ``ps3``), else the
    folder that holds the file (``ps3/bob.ipynb``: ``ps3``). The teacher's, not the
    student's: the assignment a notebook answers is read from its metadata, which the
    student writes (``collection.hold_collected_elsewhere``). ``folder``: the submissions
    folder it was found in, as for ``owner_of``."""
    full = Path(os.path.abspath(path)).parts
    at = _owner_index(path, folder) if folder is not None else None
    if at is None:
        index, platform = _first_submitted(full), _platform_index(full)
        at = platform if platform is not None and (index is None or platform <= index) \
            else None if index is None else index + 1
    if at is not None and MOODLE.match(full[at]):
        return full[at - 1] if at >= 1 else ""  # (the folder Moodle's download made)
    return full[at + 1] if at is not None else full[-2] if len(full) >= 2 else ""


def _first_submitted(parts: tuple, start: int = 0) -> int | None:
    """The index of the first ``submitted`` from ``start`` on that has a student, an
    assignment and a file below it, or None."""
    for index in range(start, len(parts) - 3):
        if parts[index] == SUBMITTED:
            return index
    return None


def _student(path: Path, source: Source, owner: str | None = None) -> str:
    """alice.ipynb -> alice; submitted/alice/<assignment>/<anything>.ipynb -> alice."""
    return student_of(path, owner, (source.path.stem,))


def student_of(path, owner: str | None = None, instructor_stems=()) -> str:
    """The student a submission file is graded as, from its path: its ``owner``, or its
    nbgrader folder's student; a file named like an instructor notebook (a stem of
    ``instructor_stems``) is the folder's two up; any other file is its name's."""
    return safe_name(named_as(path, owner, instructor_stems))


def named_as(path, owner: str | None = None, instructor_stems=()) -> str:
    """The name ``student_of`` makes the student's (``safe_name``) as the path spells it."""
    owner = owner or nbgrader_owner(path) or platform_owner(path)
    if owner:
        return owner
    path = Path(path).resolve()
    if path.stem in instructor_stems and len(path.parents) > 2:
        return path.parent.parent.name
    return path.stem


def platform_owner(path) -> str | None:
    """The student a file that a platform's download named is of: Canvas's user id
    (``CANVAS``: ``bobsmith_456_9001_bob.ipynb`` is user 456's, whatever the student called
    the file they uploaded, ``bob.ipynb``), Moodle's ``Full Name_<id>`` (``MOODLE_FILE``),
    Blackboard's username (``BLACKBOARD``), or None."""
    found = _platform_file(path)
    return found[1] if found else None


def platform_id(path, owner: str | None = None) -> str:
    """``platform:id``, the id the learning platform gave the student whose download named
    ``path`` (``owner``: as for ``named_as``), or "" when no platform named it:
    ``moodle:456`` (the participant id of ``Bob B_456_assignsubmission_file_``, as the
    assignment's grading worksheet says "Participant 456"), ``canvas:456`` (the user id,
    the gradebook's ``ID``), ``blackboard:jdoe`` (the username, as its receipt says), or
    ``blackboard-head:HW 2_j_doe`` (no receipt: the assignment's name and the username,
    which both can hold ``_``). The export matches these to the gradebook's rows by that
    id alone: never by a name the student typed."""
    who = owner or nbgrader_owner(path)
    if who:
        parts = Path(os.path.abspath(path)).parts
        at = _platform_index(parts)
        if at is not None and _owner_name(parts[at]) == who:
            return "moodle:" + re.search(r"(\d+)$", who)[1]
        return ""
    found = _platform_file(path)
    return f"{found[0]}:{found[2]}" if found else ""


def _platform_file(path) -> tuple[str, str, str] | None:
    """(platform, student, id) of a file a platform's download named, or None. A student
    names only the tail of the file, after the platform's head, and can write another
    platform's head in it: the head that ends first from the left is the platform's
    (``hw1_jdoe_attempt_<date>_Zed Z_9_assignsubmission_file_x.ipynb`` is jdoe's)."""
    path = Path(path)
    name, found = path.name, []
    match = CANVAS.match(name)
    if match:
        found.append((match.start("tail"), "canvas", match["student"], match["student"]))
    match = MOODLE_FILE.match(name)
    if match:
        found.append((match.start("tail"), "moodle", match["student"],
                      re.search(r"(\d+)$", match["student"])[1]))
    match = BLACKBOARD.match(name)
    if match:
        username = _blackboard_username(path, match)
        if username:
            found.append((match.start("tail"), "blackboard", username, username))
        else:  # (graded as the head's last _ part; the export reads the whole head)
            found.append((match.start("tail"), "blackboard-head",
                          match["head"].rsplit("_", 1)[-1], match["head"]))
    return min(found)[1:] if found else None


def _blackboard_username(path: Path, match) -> str:
    """The username in Blackboard's ``<Assignment>_<username>`` head that its receipt beside
    the file names, when the head ends with it, else "". (An assignment's name and a
    username can both hold ``_``: without the receipt, the student is graded as the head's
    last ``_`` part, and ``platform_id`` is ``blackboard-head:<head>``, which the export
    matches only to the one roster username the head ends with.)"""
    receipt = path.with_name(f"{match['head']}_attempt_{match['date']}.txt")
    try:
        text = receipt.read_text(encoding="utf-8-sig", errors="replace")[:4096] \
            if receipt.is_file() and not receipt.is_symlink() else ""
    except OSError:
        text = ""
    # (the first line is Blackboard's; "Comments:" below it is the student's, and a line
    # "Name: Zed (doe)" there made j_doe doe when the first line had another form)
    named = RECEIPT_NAME.match(text.split("\n", 1)[0].rstrip("\r"))
    if named and match["head"].endswith("_" + named["username"]):
        return named["username"]
    return ""


def collisions(paths: list, owners: dict, instructor_stems=()) -> dict:
    """path -> the other paths whose different names become its student's name, ignoring
    case (``safe_name``: ``bob smith``, ``bob~smith`` and ``Bob_Smith`` are all
    ``bob_smith`` for the gradebook, an LMS roster and a file system that ignores case),
    for every path that has such others. Two notebooks of one name (``ps1/bob.ipynb``,
    ``ps2/bob.ipynb``) are not: they are one student's. Names are compared with names of
    their kind: the file's (``named_by_its_file``) or a folder's of the layout; where a
    file's name meets a folder's, the folder's student is the one graded (``cli``'s
    ``_folders_last``, ``_hold_beside``)."""
    spelled: dict = {}
    for path in paths:
        name = named_as(path, owners.get(path), instructor_stems)
        kind = named_by_its_file(path, owners.get(path), instructor_stems)
        spelled.setdefault((safe_name(name).casefold(), kind), []).append((name, path))
    found = {}
    for group in spelled.values():
        for name, path in group:
            others = sorted(str(p) for n, p in group if n != name)
            if others:
                found[path] = others
    return found


def named_by_its_file(path, owner: str | None = None, instructor_stems=()) -> bool:
    """Whether ``student_of`` names the student of ``path`` by the file's name alone (a flat
    folder of the class: ``ps1/bob.ipynb``), not by a folder of the layout (an ``owner``,
    nbgrader's ``submitted/<student>/``, or ``<student>/<assignment>/`` around a notebook
    named like an instructor notebook)."""
    if owner or nbgrader_owner(path) or platform_owner(path):
        return False
    path = Path(path).resolve()
    return not (path.stem in instructor_stems and len(path.parents) > 2)


def _hold_beside(result: Result, path: Path, instructor_stems: list[str],
                 top: str | None = None) -> None:
    """Flag ``result``, and hold what it scored, when its notebook, named after its student
    (``named_by_its_file``), sits in another student's own folder: beside a notebook named
    like an instructor notebook, which the layout ``<student>/<assignment>/`` makes the
    folder's two up's, or below such a folder (up to ``top``, the folder the teacher gave).
    Graded from the students' folders (``home/*/ps1``), zed's own ``home/zed/ps1/bob.ipynb``
    was bob's and, last by path, replaced bob's 9 of 9 with 0, or gave a classmate who
    handed nothing in the points zed chose (measured); ``home/zed/ps1/sub/cy.ipynb`` too.
    The file's name says bob, the folder says zed: the grader cannot tell who wrote it, the
    teacher can."""
    path = Path(os.path.abspath(path))
    top = Path(os.path.abspath(top)) if top is not None else None
    folders = [path.parent]
    if top is not None and top in path.parents:
        folders = [folder for folder in path.parents if folder == top or top in folder.parents]
    for stem, folder in ((stem, folder) for folder in folders for stem in instructor_stems):
        beside = folder / f"{stem}.ipynb"
        if beside.name == path.name and folder == path.parent or beside.is_symlink() \
                or not beside.is_file():
            continue
        other = student_of(beside, None, (stem,))
        if other == result.student:
            continue
        with speaking(result.lang):
            text = _("this notebook is named after {student}, but it was handed in in the "
                     "folder of {other}, beside {other}'s notebook {notebook}: a notebook "
                     "handed in for a classmate? It was graded as {student}'s and is held "
                     "for review").format(student=result.student, other=other,
                                          notebook=beside.name)
        result.flags.append(text)
        result.beside = other
        for question in result.questions:
            if question.points and not question.manual:
                question.review.append(text)
        return


def _who(path: Path, sources: list[Source], owner: str | None = None) -> tuple[str, str]:
    """Student and assignment of a file that could not be read: its ``owner`` if known; in
    nbgrader's layout (the file has an instructor notebook's name) the folder two up and that
    notebook's assignment, as for a graded one; else the file's name, and no assignment."""
    for source in sources:
        if path.name == source.path.name and len(path.resolve().parents) > 2:
            return _student(path, source, owner), source.assignment.name
    return safe_name(owner or nbgrader_owner(path) or platform_owner(path) or path.stem), ""


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


def _timed(path: str, sources: list[str], options: Options,
           owner: str | None = None, collected: str | None = None,
           top: str | None = None) -> tuple[Result, float]:
    """``grade_file``, and the wall-clock seconds it took."""
    start = time.perf_counter()
    result = grade_file(path, sources, options, owner, collected, top)
    return result, time.perf_counter() - start


def grade_files(paths: list[str], sources: list[str], options: Options = Options(),
                jobs: int = 2, owners: dict | None = None, on_done=None,
                collections: dict | None = None, tops: dict | None = None) -> list[Result]:
    """Grade ``paths`` with ``jobs`` worker processes (results in the order of ``paths``);
    ``owners``: path -> the student whose folder holds it (``owner_of``); ``collections``:
    path -> the folder it was collected in (``collection_of``); ``tops``: path -> the
    folder the teacher gave that holds it (``grade_file``); ``on_done(path,
    result, seconds)`` is called here as each one finishes (seconds: None when its worker
    crashed).

    Each is graded in a worker process, with ``jobs`` 1 as well, never in the caller's:
    a worker that dies (killed, or by the system's out-of-memory killer) breaks the pool,
    and every submission not yet finished with it: each of those is graded again, alone
    in a process of its own, so that only a submission whose own process dies again is
    not graded, its result saying why (``_alone``)."""
    owners, collections, tops = owners or {}, collections or {}, tops or {}
    results: list = [None] * len(paths)

    def finished(index: int, result: Result, seconds: float | None) -> None:
        results[index] = result
        if on_done is not None:
            on_done(paths[index], result, seconds)

    def arguments(path: str) -> tuple:
        return path, sources, options, owners.get(path), collections.get(path), tops.get(path)

    if not paths:
        return results
    broken = []
    # (always in workers, with --jobs 1 too: a death in the grader's own process, where
    # --jobs 1 graded before, stopped the run and took every submission after it along)
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(paths))),
                             mp_context=workers()) as pool:
        futures = {pool.submit(_timed, *arguments(p)): i for i, p in enumerate(paths)}
        for future in as_completed(futures):
            index = futures[future]
            try:
                result, seconds = future.result()
            except BrokenProcessPool:
                broken.append(index)  # (which of them killed it, the pool cannot say)
                continue
            except Exception as error:  # noqa: BLE001 (a worker crashed)
                path = Path(paths[index])
                result, seconds = readable(Result(
                    safe_name(owners.get(paths[index]) or path.stem), "", path.name,
                    error=f"the grading process failed: {error}",
                    platform=platform_id(path, owners.get(paths[index])))), None
            finished(index, result, seconds)
    with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(broken)))) as threads:
        again = {threads.submit(_alone, *arguments(paths[i])): i for i in sorted(broken)}
        for future in as_completed(again):
            finished(again[future], *future.result())
    return results


def _alone(path: str, sources: list[str], options: Options, owner: str | None,
           collected: str | None, top: str | None) -> tuple[Result, float | None]:
    """``_timed`` in a process of its own; when that process dies before it answers, the
    submission's result says so (not graded, and why), seconds None."""
    answer, why = alone(_answer, path, sources, options, owner, collected, top)
    if answer is not None:
        return answer
    return _not_graded(path, sources, owner, why), None


def alone(target, *arguments, named: str = "its grading process") -> tuple[object, str]:
    """``target(send, *arguments)`` in a fresh worker process of its own (``workers``),
    ``target`` sending its answer through ``send``: (that answer, ""), or, when the process
    died before it answered, (None, why it did, calling it ``named``: ``_death``)."""
    context = workers()
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=target, args=(send, *arguments), daemon=True)
    child.start()
    send.close()
    try:
        answer = receive.recv()
    except (EOFError, OSError):
        answer = None
    finally:
        receive.close()
        child.join()
    return answer, "" if answer is not None else _death(child.exitcode, named)


def _answer(send, *arguments) -> None:
    """In ``_alone``'s process: grade, and send back the result and its seconds."""
    send.send(_timed(*arguments))
    send.close()


def _death(code: int | None, named: str = "its grading process") -> str:
    """Why the process ``named``, which ended without an answer, did (its exit ``code``)."""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        cause = (": most often the system ran out of memory and its out-of-memory killer "
                 "ended the largest process, or someone ended it" if -code == signal.SIGKILL
                 else "")
        return f"{named} was killed ({name}) before it finished{cause}"
    return f"{named} ended (exit status {code}) before it finished"


def _not_graded(path: str, sources: list[str], owner: str | None, why: str) -> Result:
    """The result of a submission whose grading process died: its student and assignment
    as a graded one's would be (read from its path, and from its metadata where it names
    an assignment given), so that grading it again replaces this result."""
    student, assignment = safe_name(owner or nbgrader_owner(path) or platform_owner(path)
                                    or Path(path).stem), ""
    try:
        loaded = [load_source(s, "") for s in sources]
        name = nbg.assignment_name(read_submission(Path(path)))
        source = next((s for s in loaded if s.assignment.name == name), None)
        if source is not None:
            student, assignment = _student(Path(path), source, owner), name
    except Exception:  # noqa: BLE001 (what could not be read stays as the path says)
        pass
    return readable(Result(student, assignment, Path(path).name,
                           error=f"{NOT_GRADED}{why}; grade it again (minigrad-kit grade "
                                 "... --missing grades only what is missing)",
                           platform=platform_id(Path(path), owner)))
