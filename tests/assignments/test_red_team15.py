"""The fifteenth red team's submissions, graded as a teacher grades them (the real commands:
the autograder as Gradescope runs it, ``minigrad-kit grade`` and ``export``; a question's
code run, ``run_code``, as they call it). What succeeded before, and the construction that
closed it:

* **the instructor notebook read by the student's code** (Gradescope's container, where
  bubblewrap cannot run and the grader, root, runs the code as a user of its own: red
  team 14): that user could still read what any user may, and the course folder,
  ``/autograder/source/course`` (the instructor notebook, with the reference solutions and
  the hidden tests, and minigrad-kit.json, with the salt), is extracted readable by every
  user. An answer cell of assignment 3 raised an error holding the instructor notebook's
  text, which the student's own feedback showed (measured); the next submission could
  then copy the solutions. (``upload.grade_upload``: where the code would run as a user of
  its own, the course folder is made root's alone first.)

* **files left where every user may write**, by that user: 100 MB in ``/dev/shm`` (which
  is memory, outside the run's ``--memory``), a folder in ``/tmp``, a file in
  ``/var/tmp``, and a System V shared memory segment of 100 MB (through ctypes), all
  still there for the submissions graded after it (measured). (``sandbox.sweep``: once
  the run's process has ended, what its user made there, and the IPC objects it created,
  are removed; it could start no other process.)

* **a socket opened without the sandbox** (no network namespace of its own), through
  ctypes, which NumPy has loaded: the hidden inputs a question's function is called with
  could be sent to the student's server (a socket was opened, measured).
  (``confine.no_sockets``: a seccomp filter makes ``socket()`` fail, in every run.)

* **a notebook of another assignment in a platform's download**: Canvas's download of
  assignment 3, graded into a folder of its own, held bob's notebook of assignment 1,
  answered again after its deadline; nothing was there to compare it with, and the export
  wrote his 9 over his 0 in assignment 1's column of Canvas's gradebook, its id kept
  (measured). (``collection.hold_collected_elsewhere``, rule 3: a platform's download is
  one assignment's; a notebook of another one in it is held for review.)
"""

import csv
import io
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right
from platform_tree import environment, failing_bwrap, gradescope_tree, run, submit

import grader.run
from grader.cli import main
from grader.run import Plan, run_code
from grader.sandbox import FIRST_USER, Sandbox
from grader.source import load_source
from grader.questions import find_assignment
from grader.stored import read_grades

T = "tensors_and_gradients"
AS_ROOT = pytest.mark.skipif(
    os.geteuid() != 0, reason="the code runs as a user of its own where the grader is root "
    "(Gradescope's container); an ordinary user's grader has no other user to become")

READER = r'''
import os
course = os.path.join({root!r}, "source", "course")
found = sorted(n for n in os.listdir(course) if n.endswith(".ipynb"))
raise RuntimeError("LEAKED " + open(os.path.join(course, found[0])).read()[:300])
'''


@pytest.fixture
def open_folder():
    """A folder every user may enter, as /autograder is (pytest's own is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="minigrad-kit-red-team-15-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@AS_ROOT
def test_code_run_without_the_sandbox_cannot_read_the_instructor_notebook(tmp_path,
                                                                           open_folder):
    """The autograder of assignment 3 where bwrap cannot make namespaces (a stub that fails
    as it fails there): an answer that reads the course folder gets PermissionError, and
    the feedback holds nothing of the instructor notebook; the teacher's note says so."""
    zipped = tmp_path / "autograder.zip"
    assert main(["gradescope", str(BY_ASSIGNMENT[T]), "--out", str(zipped), "--salt", "s",
                 "--timeout", "20", "--numbers-of", "ada"]) == 0
    root = gradescope_tree(open_folder, zipped)
    (root / "minigrad-kit").symlink_to(Path(sys.prefix))
    path = failing_bwrap(tmp_path / "stubs")
    reader = READER.format(root=str(root))
    submit(root, {"hw.ipynb": build(T, "ada", {**WRONG[T], "q1_answer": reader})})
    done = run([root / "run_autograder"], cwd=root,
               env=environment(PATH=path))
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    everything = json.dumps(results)
    assert "LEAKED" not in everything
    assert "PermissionError" in results["output"], results["output"]
    notes = {t["name"]: t["output"] for t in results["tests"] if t.get("visibility") == "hidden"}
    assert "not the course folder" in notes["For the teacher · no sandbox"]


LEAVER = """
import os
with open("/dev/shm/{tag}", "wb") as file:
    for _ in range(100):
        file.write(b"x" * (1 << 20))
os.mkdir("/tmp/{tag}")
open("/tmp/{tag}/f", "w").write("x")
open("/var/tmp/{tag}", "w").write("x")
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
segment = libc.shmget(0, 100 << 20, 0o1000 | 0o600)  # (IPC_PRIVATE, IPC_CREAT)
address = libc.shmat(segment, None, 0)
ctypes.memset(address, 1, 100 << 20)
libc.shmdt(ctypes.c_void_p(address))
print(segment, libc.msgget(0, 0o1000 | 0o600), libc.semget(0, 1, 0o1000 | 0o600))
"""


@AS_ROOT
def test_what_a_run_without_the_sandbox_leaves_where_every_user_writes_is_removed(
        monkeypatch):
    """Without the sandbox, as a root grader's user of its own: the files and folders the
    cell left in /dev/shm, /tmp and /var/tmp, and its System V segment, queue and
    semaphores, are gone once ``run_code`` returns; the cell ran (its step is ok). (On a
    kernel without Landlock, where root may not chroot either, here made so: red team 16's
    ``only_these_files`` and ``enclose`` let the cell write nowhere.)"""
    monkeypatch.setattr(grader.run, "confinement",
                        lambda sandbox, scratch, packages: (None, False))
    tag = f"minigrad-kit-red-team-15-{os.getpid()}"
    places = [Path("/dev/shm", tag), Path("/tmp", tag), Path("/var/tmp", tag)]
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": LEAVER.format(tag=tag), "filename": "<cell 1>"}],
                source.module_text, source.module.name, {})
    try:
        run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                       deadline=time.monotonic() + 60)
        assert [step.status for step in run.steps] == ["ok"], run
        assert [place.exists() for place in places] == [False, False, False]
        for kind in ("shm", "msg", "sem"):  # (none of the cell's user's left: it is no other's)
            lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
            creators = [dict(zip(lines[0].split(), line.split()))["cuid"] for line in lines[1:]]
            assert not [c for c in creators if int(c) >= FIRST_USER], (kind, lines)
    finally:
        for place in places:
            shutil.rmtree(place, ignore_errors=True) if place.is_dir() else \
                place.unlink(missing_ok=True)


SOCKET = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
descriptor = libc.socket(2, 1, 0)  # (AF_INET, SOCK_STREAM: socket.socket() through libc)
raise RuntimeError(f"socket {descriptor} errno {ctypes.get_errno()}")
"""


def test_a_code_run_without_the_sandbox_opens_no_socket():
    """Without the sandbox (no network namespace of its own), a cell opened a socket through
    ctypes, with which it could send the hidden inputs it is called with to the student's
    server: now socket() fails with EPERM (a seccomp filter, ``confine.no_sockets``), and
    the run goes on."""
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": SOCKET, "filename": "<cell 1>"},
                 {"kind": "cell", "source": "import minigrad as torch\nx = torch.ones(2)",
                  "filename": "<cell 2>"}], source.module_text, source.module.name, {})
    run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    assert [step.status for step in run.steps] == ["error", "ok"], run
    assert "socket -1 errno 1" in run.steps[0].error, run


# --- a platform's download is one assignment's ---------------------------------------------

D, I = "derive_it_by_hand", "implement_a_backward"


def _canvas_roster(path: Path) -> dict:
    """Canvas's gradebook with a column for each of the two assignments (as Canvas names an
    assignment it has: ``Title (id)``): assignment -> its column."""
    columns = {D: f"{find_assignment(D).title} (4242)", I: f"{find_assignment(I).title} (4343)"}
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *columns.values()],
            ["    Points Possible", "", "", "", "", "9", "9"],
            ["A, Alice", "7", "", "alice", "S1", "9", ""], ["B, Bob", "8", "", "bob", "S1", "0", ""],
            ["C, Cy", "9", "", "cy", "S1", "9", ""]]
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return columns


def test_a_notebook_of_another_assignment_in_a_platforms_download_fills_no_column(
        tmp_path, capsys):
    """Canvas's download of assignment 3 (``implement_a_backward``), graded into a folder of
    its own: bob (user 8) hands in, there, his notebook of assignment 1 answered again after
    its deadline (0 of 9 in Canvas). The export wrote his 9 into assignment 1's column of
    Canvas, its id kept: his grade there silently replaced. A download is one assignment's
    (each platform downloads the submissions of one): held for review, his assignment-1
    cell stays empty (it changes nothing in Canvas) and is said."""
    given = tmp_path / "dl"
    given.mkdir()
    for name, notebook in [("alicea_7_70_hw.ipynb", build(I, None, right(I, None))),
                           ("cyc_9_90_hw.ipynb", build(I, None, right(I, None))),
                           ("bobb_late_8_80_hw.ipynb", build(D, None, right(D, None)))]:
        nbformat.write(notebook, given / name)
    out = tmp_path / "grades"
    assert main(["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt",
                 "s", "--jobs", "1", "--variants", "none"]) == 0
    columns = _canvas_roster(tmp_path / "roster.csv")
    capsys.readouterr()
    main(["export", str(out), "--to", "canvas", "--roster", str(tmp_path / "roster.csv"),
          "--out", str(tmp_path / "canvas.csv")])
    said = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO((tmp_path / "canvas.csv").read_text())))
    by_id = {row["ID"]: row for row in rows if row["ID"]}
    possible = rows[0][columns[I]]
    assert by_id["8"].get(columns[D], "") == "", by_id["8"]
    assert by_id["7"][columns[I]] == by_id["9"][columns[I]] == possible != ""
    assert "q1 q2 q3 q4 held back" in said.out, said.out
    flags = {r.student: r.flags for r in read_grades(out).results}
    assert flags["7"] == flags["9"] == []
    assert [f"a learning platform's download of the submissions of one assignment, {I}"
            in flag for flag in flags["8"]] == [True]

