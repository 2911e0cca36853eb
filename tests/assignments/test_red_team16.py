"""The sixteenth red team's submissions, graded as a teacher grades them (the real commands:
``minigrad-kit grade`` as root where bubblewrap cannot run, ``minigrad-kit gradescope``;
a question's code run, ``run_code``, as they call it). What succeeded before, and the
construction that closed it:

* **a classmate's notebook, the teacher's ``--source`` and the grader's command line, read
  by a code run without the sandbox** (a root grader where bubblewrap cannot run, whose
  code runs as a user of its own): that user still read every file any user may, and
  ``/proc/<pid>/cmdline`` of every process. An answer cell of assignment 3 raised an
  error holding a classmate's notebook, the instructor notebook beside ``--source`` and the
  grader's ``--salt``, which the student's own feedback showed (measured). Run by an
  ordinary user, the code read the teacher's ``salt.txt`` (0600), wrote 160 MB into its
  working folder on the grader's disk, and could signal the grader's worker.
  (``confine.only_these_files``: Landlock, the kernel's own allowlist of files for a
  process, which needs no privileges and no namespaces: a code run without the sandbox
  opens only what the sandbox would show it, writes nothing, and signals no process
  outside it; where the kernel has Landlock but refuses the rules, no code runs.)
* **the teacher's files' mode changed**, which Landlock does not govern: ``os.chmod`` made
  the teacher's ``salt.txt`` readable by every user. (``confine.no_sockets``'s seccomp
  filter refuses chmod, chown, utime and the xattr calls.)
* **the salt in the process list**: ``grade --salt S`` showed S in ``/proc/<pid>/cmdline``
  to every user of the machine for the whole grading. (``command_line.hide`` stars it out
  of the grader's own argument memory before any student's code runs.)
* **without Landlock** (a kernel before 5.13), a root grader's run left a file in
  ``/run/lock`` for the submissions after it, and read an earlier grading's feedback in
  ``--out``. (``sandbox.SHARED`` sweeps ``/run/lock``; ``grade`` makes ``--out`` root's
  alone when the code runs without the sandbox.)
* **a process that outlived the run**, forked by a cell of an ordinary user's grader
  without the sandbox (no user of its own limits its processes) and out of its session.
  (The seccomp filter refuses fork, vfork and clone but of a thread.)
* **without Landlock, a classmate's notebook** read by a root grader's run: it is now
  enclosed in its working folder (``confine.enclose``, chroot) where root may chroot.
* **the Gradescope autograder readable by every user** of the teacher's machine (the
  solutions and the salt). (The zip, and the salt's file in it, are 0600.)
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat
import pytest
import without_landlock
from assignment_files import BY_ASSIGNMENT, with_module
from keys import WRONG, build, right
from platform_tree import environment, failing_bwrap

import grader.run
from grader import batch
from grader.cli import main
from grader.confine import landlock_abi
from grader.run import Plan, run_code
from grader.sandbox import Sandbox
from grader.source import load_source

T = "tensors_and_gradients"
AS_ROOT = pytest.mark.skipif(
    os.geteuid() != 0, reason="the code runs as a user of its own where the grader is root "
    "(Gradescope's container); an ordinary user's grader has no other user to become")
LANDLOCK = pytest.mark.skipif(landlock_abi() < 1, reason="this kernel offers no Landlock")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def open_folder():
    """A folder every user may enter, as a teacher's home or a course folder often is
    (pytest's own is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="minigrad-kit-red-team-16-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def grade(*arguments, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    """``minigrad-kit grade`` in a process of its own (its sandbox chosen there)."""
    return subprocess.run([sys.executable, "-m", "grader", "grade", *map(str, arguments)],
                          cwd=cwd, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=900)


SNOOPER = r'''
import os
found, refused = [], []
for path in {paths!r}:
    try:
        found.append(open(path, encoding="utf-8", errors="replace").read()[:200])
    except OSError as error:
        refused.append(type(error).__name__)
try:
    pids = os.listdir("/proc")
except OSError:
    refused.append("proc")
    pids = [str(os.getppid()), "1"]  # (the grader, and the first process)
for pid in pids:
    try:
        line = open(f"/proc/{{pid}}/cmdline", "rb").read()
    except OSError as error:
        refused.append("proc")
        continue
    if b"--salt" in line:
        found.append(line.decode(errors="replace"))
raise RuntimeError(("LEAKED " + " | ".join(found)) if found else
                   "NOTHING " + " ".join(sorted(set(refused))))
'''


@AS_ROOT
@LANDLOCK
def test_a_run_without_the_sandbox_reads_no_classmate_source_or_salt(tmp_path, open_folder):
    """``grade class/ --source course/ --salt ...`` by root where bwrap fails (a stub that
    fails as it does in Docker): mallory's answer cell reads alice's notebook beside hers,
    the instructor notebook in ``--source`` and every ``/proc/*/cmdline``, and raises what
    it read. Her feedback shows PermissionError and nothing it read; alice, graded in the
    same run, keeps her full marks."""
    course, group = open_folder / "course", open_folder / "class"
    course.mkdir()
    group.mkdir()
    shutil.copy(BY_ASSIGNMENT[T], course)
    with_module(T, course)
    for folder in (course, group):
        folder.chmod(0o755)
    alice = group / "alice.ipynb"
    paths = [str(alice), str(course / BY_ASSIGNMENT[T].name)]
    snooper = SNOOPER.format(paths=paths)
    nbformat.write(build(T, "alice", right(T, "alice")), alice)
    nbformat.write(build(T, "mallory", {**WRONG[T], "q1_answer": snooper}),
                   group / "mallory.ipynb")
    for path in group.iterdir():
        path.chmod(0o644)
    out = tmp_path / "out"
    done = grade(group, "--source", course, "--out", out, "--salt", "pepper-16-secret",
                 "--timeout", "20", cwd=tmp_path,
                 env=environment(PATH=failing_bwrap(tmp_path / "stubs")))
    assert "WITHOUT a sandbox" in done.stdout, done.stdout + done.stderr
    written = "\n".join(p.read_text(errors="replace") for p in out.rglob("*")
                        if p.is_file() and p.suffix in (".md", ".csv", ".json", ".html"))
    assert "RuntimeError: LEAKED" not in written and "pepper-16-secret" not in written
    assert "NOTHING PermissionError proc" in written, written[:3000]
    lines = {line.split()[0]: line for line in done.stdout.splitlines()
             if line.split() and line.split()[0] in ("alice", "mallory")}
    points, _, most = lines["alice"].split()[2:5]
    assert points == most and float(most) > 0, done.stdout


@pytest.mark.parametrize("spelling", [["--salt", "{}"], ["--salt={}"]])  # (--sal=: red team 17)
def test_the_salt_given_on_the_command_line_is_in_no_process_list(tmp_path, spelling):
    """``grade class/ --salt S`` (or ``--salt=S``):
    while the students' code runs (a cell that sleeps), no process of the machine shows S
    in its ``/proc/<pid>/cmdline`` (before, the grader's did, which every user, and a code
    run without the sandbox, could read); the grading is the same (the secret still draws
    the hidden inputs: ``--salt`` was read)."""
    group = tmp_path / "class"
    group.mkdir()
    sleeper = "import time\ntime.sleep(4)\n" + WRONG[T]["q1_answer"]
    nbformat.write(build(T, "mallory", {**WRONG[T], "q1_answer": sleeper}),
                   group / "mallory.ipynb")
    secret = "pepper-16-on-the-command-line"
    command = [sys.executable, "-m", "grader", "grade", str(group), "--out",
               str(tmp_path / "out"), *(s.format(secret) for s in spelling), "--timeout", "20"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**environment(), "PYTHONPATH": str(ROOT)})
    running, shown = False, set()
    while process.poll() is None:
        for pid in descendants(process.pid):
            try:
                line = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            running = running or b"grader.runner" in line
        if running:  # (the student's code runs: every process of the machine)
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    line = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if secret.encode() in line:
                    shown.add(line.decode(errors="replace"))
    stdout, stderr = process.communicate()
    assert process.returncode == 0 and "mallory" in stdout, stdout + stderr
    assert running and not shown, shown
    assert not (tmp_path / "out" / "salt.txt").exists()  # (the given salt was used)


def neither(sandbox, scratch, packages) -> tuple:
    """``run.confinement`` where the kernel has no Landlock and root may not chroot."""
    return None, False


def descendants(pid: int) -> list[str]:
    """The processes ``pid`` started, and theirs (from each one's parent in /proc)."""
    parents = {}
    for child in filter(str.isdigit, os.listdir("/proc")):
        try:
            parents[child] = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[1]
        except (OSError, IndexError):
            continue
    found, frontier = [], [str(pid)]
    while frontier:
        frontier = [child for child, parent in parents.items() if parent in frontier]
        found += frontier
    return found


LEAVER = """
wrote = []
for path in ("/dev/shm/{tag}", "/tmp/{tag}", "/var/tmp/{tag}", "in-its-working-folder"):
    try:
        with open(path, "wb") as file:
            file.write(bytes(1 << 20))
        wrote.append(path)
    except OSError:
        pass
if wrote:
    raise RuntimeError("WROTE " + " ".join(wrote))
"""


@LANDLOCK
def test_a_run_without_the_sandbox_by_an_ordinary_user_reads_none_of_the_teachers_files(
        tmp_path, monkeypatch):
    """Without the sandbox, run with the grader's own rights (an ordinary user's grader,
    here made so): a cell read ``--out``'s ``salt.txt`` (the teacher's alone, 0600) and
    wrote into ``/dev/shm``, ``/tmp``, ``/var/tmp`` and its working folder, which is on
    the grader's disk (160 MB there, measured, where the sandbox's is a tmpfs of 64 MB).
    Now it opens none of them and writes nowhere; the run goes on (the next cell
    computes)."""
    monkeypatch.setattr(grader.run, "unsandboxed_user", lambda: None)
    secret = tmp_path / "salt.txt"
    secret.write_text("0123456789abcdef" * 4)
    secret.chmod(0o600)
    tag = f"minigrad-kit-red-team-16-{os.getpid()}"
    reader = f"open({str(secret)!r}).read()"
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": reader, "filename": "<cell 1>"},
                 {"kind": "cell", "source": LEAVER.format(tag=tag), "filename": "<cell 2>"},
                 {"kind": "cell", "source": "import minigrad as torch\nx = torch.ones(2)",
                  "filename": "<cell 3>"}], source.module_text, source.module.name, {})
    places = [Path("/dev/shm", tag), Path("/tmp", tag), Path("/var/tmp", tag)]
    try:
        run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                       deadline=time.monotonic() + 60)
        assert [step.status for step in run.steps] == ["error", "ok", "ok"], run
        assert run.steps[0].error.startswith("PermissionError"), run
        assert [place.exists() for place in places] == [False, False, False]
    finally:
        for place in places:
            place.unlink(missing_ok=True)


@LANDLOCK
def test_a_run_whose_files_cannot_be_confined_runs_no_code(monkeypatch):
    """Where the kernel has Landlock but refuses the run's rules (here a rule that grants
    nothing), the run stops before the student's first cell and says why, instead of
    running it with every file open while the teacher's note says otherwise."""
    monkeypatch.setattr(grader.run, "runner_files",
                        lambda scratch, packages: {"/etc/passwd": 8})  # (READ_DIR, a file)
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": "print(1)", "filename": "<cell 1>"}],
                source.module_text, source.module.name, {})
    run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    assert [step.status for step in run.steps] == ["dead"], run
    assert "Landlock refused a rule for /etc/passwd" in run.startup, run


SIGNALLER = """
import os
os.kill(os.getppid(), 0)  # (0: may it be signalled? a 9 ended the grader's worker)
"""


@pytest.mark.skipif(landlock_abi() < 6, reason="Landlock scopes signals from its ABI 6")
def test_a_run_without_the_sandbox_by_an_ordinary_user_signals_no_grader(monkeypatch):
    """Without the sandbox, with the grader's own rights (an ordinary user's grader), a
    cell could signal every process of that user: the grader's worker that started it
    (``os.kill(os.getppid(), 9)`` ended it, and with it the submissions it was grading).
    Now no process outside the run may be signalled (Landlock's scope)."""
    monkeypatch.setattr(grader.run, "unsandboxed_user", lambda: None)
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": SIGNALLER, "filename": "<cell 1>"}],
                source.module_text, source.module.name, {})
    run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    assert [step.status for step in run.steps] == ["error"], run
    assert run.steps[0].error.startswith("PermissionError"), run


@AS_ROOT
def test_without_landlock_what_a_run_leaves_in_run_lock_is_removed(monkeypatch):
    """Without the sandbox, without Landlock (a kernel before 5.13) and where root may not
    chroot (here made so), as a root grader's user of its own: a file the cell left in
    ``/run/lock`` (mode 1777, as ``/tmp``) outlived the run, for the submissions graded
    after it; now it is removed with what the run left in ``/tmp`` (``sandbox.sweep``)."""
    monkeypatch.setattr(grader.run, "confinement", neither)
    place = Path("/run/lock", f"minigrad-kit-red-team-16-{os.getpid()}")
    if not place.parent.is_dir():
        pytest.skip("this machine has no /run/lock")
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": f"open({str(place)!r}, 'w').write('x')",
                  "filename": "<cell 1>"}], source.module_text, source.module.name, {})
    try:
        run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                       deadline=time.monotonic() + 60)
        assert [step.status for step in run.steps] == ["ok"], run
        assert not place.exists()
    finally:
        place.unlink(missing_ok=True)


OUT_READER = r'''
import os
found = []
for root, folders, files in os.walk({out!r}):
    for name in files:
        try:
            found.append(name + ": " + open(os.path.join(root, name)).read()[:80])
        except OSError:
            pass
if found:
    raise RuntimeError("LEAKED " + " | ".join(found))
'''


@AS_ROOT
def test_without_landlock_a_run_reads_no_earlier_grading_in_out(tmp_path, open_folder,
                                                                 monkeypatch):
    """Without the sandbox, without Landlock and where root may not chroot (here made so),
    as a root grader's user of its own: ``--out`` (made readable by every user) held the
    class's earlier grading, its feedback, ``gradebook.csv`` and written answers, and
    mallory's cell, graded into it again, read them. The grader makes ``--out`` root's
    alone first."""
    monkeypatch.setattr(grader.run, "confinement", neither)
    out = open_folder / "out"
    group = tmp_path / "class"
    group.mkdir()
    nbformat.write(build(T, "alice", right(T, "alice")), group / "alice.ipynb")
    assert main(["grade", str(group), "--out", str(out), "--sandbox", "off", "--jobs", "1",
                 "--salt", "s"]) == 0
    for path in [out, *out.rglob("*")]:  # (as a folder the teacher shares would be)
        path.chmod(0o755 if path.is_dir() else 0o644)
    reader = OUT_READER.format(out=str(out))
    nbformat.write(build(T, "mallory", {**WRONG[T], "q1_answer": reader}),
                   group / "mallory.ipynb")
    main(["grade", str(group), "--out", str(out), "--sandbox", "off", "--jobs", "1",
          "--salt", "s"])
    written = "\n".join(p.read_text(errors="replace") for p in out.rglob("*.md"))
    assert "RuntimeError: LEAKED" not in written


def test_a_run_without_the_sandbox_changes_no_files_mode_owner_or_times(tmp_path,
                                                                        monkeypatch):
    """Without the sandbox, with the grader's own rights (an ordinary user's grader, here
    made so): Landlock governs opening files, not their metadata, and a cell made the
    teacher's ``salt.txt`` (0600) readable by every user with ``os.chmod`` (a classmate on
    the machine could then read it), or could have made the class's notebooks unreadable
    to the grader. Now chmod, chown and utime fail (a seccomp filter, with or without
    the sandbox) and the file is as it was."""
    monkeypatch.setattr(grader.run, "unsandboxed_user", lambda: None)
    secret = tmp_path / "salt.txt"
    secret.write_text("0123456789abcdef" * 4)
    secret.chmod(0o600)
    before = secret.stat()
    changer = (f"import os\nos.chmod({str(secret)!r}, 0o644)\n")
    steps = [{"kind": "cell", "source": changer, "filename": "<cell 1>"},
             {"kind": "cell", "source": f"import os\nos.utime({str(secret)!r}, (0, 0))",
              "filename": "<cell 2>"},
             {"kind": "cell", "source": f"import os\nos.chown({str(secret)!r}, 1, 1)",
              "filename": "<cell 3>"}]
    source = load_source(BY_ASSIGNMENT[T])
    run = run_code(Plan(steps, source.module_text, source.module.name, {}),
                   sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    assert [step.status for step in run.steps] == ["error"] * 3, run
    assert all(step.error.startswith("PermissionError") for step in run.steps), run
    after = secret.stat()
    assert (after.st_mode, after.st_mtime, after.st_uid) == \
        (before.st_mode, before.st_mtime, before.st_uid)


def test_the_gradescope_autograder_is_its_owners_alone(tmp_path):
    """``minigrad-kit gradescope`` writes the zip the teacher uploads, which holds the
    instructor notebook (solutions, hidden tests) and the salt: it was readable by every
    user of the teacher's machine (0644), a student with an account there among them. Now
    it is its owner's alone (0600), and so is its ``minigrad-kit.json`` (the salt), as
    Gradescope extracts it and as PrairieLearn's ``tests/`` holds it."""
    zipped = tmp_path / "autograder.zip"
    zipped.write_bytes(b"an older one")
    zipped.chmod(0o644)
    assert main(["gradescope", str(BY_ASSIGNMENT[T]), "--out", str(zipped), "--salt", "s",
                 "--numbers-of", "ada"]) == 0
    assert zipped.stat().st_mode & 0o777 == 0o600
    with zipfile.ZipFile(zipped) as archive:  # (and so is the salt's file, extracted)
        mode = archive.getinfo("course/minigrad-kit.json").external_attr >> 16
        assert mode & 0o777 == 0o600


ENCLOSED_READER = r'''
import os
found = []
for path in {paths!r}:
    try:
        found.append(open(path).read()[:80])
    except OSError as error:
        found.append(type(error).__name__)
raise RuntimeError("READ " + " | ".join(found))
'''


@AS_ROOT
def test_without_landlock_a_root_graders_run_sees_its_working_folder_alone(
        tmp_path, open_folder, monkeypatch, capsys):
    """A kernel without Landlock (before 5.13: here made so) where bubblewrap cannot run: a
    root grader's run, a user of its own, read a classmate's notebook readable by every
    user. Now it is enclosed in its working folder (``chroot``, before it becomes that
    user): the notebook and ``/etc/passwd`` are not there; honest work in every
    assignment keeps its full marks (what a run needs is loaded before). (Landlock is made
    absent in the worker that grades: ``without_landlock.py``.)"""
    monkeypatch.setattr(batch, "_timed", without_landlock.timed)
    group = open_folder / "submitted"
    for assignment, path in BY_ASSIGNMENT.items():
        folder = group / "ada" / assignment
        folder.mkdir(parents=True)
        nbformat.write(build(assignment, "ada", right(assignment, "ada")), folder / path.name)
    classmate = group / "ada" / T / BY_ASSIGNMENT[T].name
    reader = ENCLOSED_READER.format(paths=[str(classmate), "/etc/passwd"])
    folder = group / "mallory" / T
    folder.mkdir(parents=True)
    nbformat.write(build(T, "mallory", {**WRONG[T], "q1_answer": reader}),
                   folder / BY_ASSIGNMENT[T].name)
    for path in [group, *group.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    out = tmp_path / "out"
    main(["grade", str(group), "--out", str(out), "--sandbox", "off", "--jobs", "1",
          "--salt", "s"])
    printed = capsys.readouterr().out
    for assignment in BY_ASSIGNMENT:
        line = next(line.split() for line in printed.splitlines()
                    if line.split()[:2] == ["ada", assignment])
        assert line[2] == line[4] and float(line[4]) > 0, line
    feedback = "\n".join(p.read_text() for p in (out / "feedback").rglob("*mallory*"))
    assert "raised RuntimeError: READ FileNotFoundError" in feedback, feedback[:2000]
    assert "cell_type" not in feedback and "root:x:0" not in feedback


OUTLIVER = """
import os, time
child = os.fork()
if child == 0:
    os.setsid()  # (out of the run's process group, which the grader kills)
    time.sleep(30)
    os._exit(0)
raise RuntimeError(f"CHILD {child}")  # (its pid, for the test)
"""


def test_a_run_without_the_sandbox_by_an_ordinary_user_leaves_no_process(monkeypatch):
    """Without the sandbox, with the grader's own rights (an ordinary user's grader, here
    made so), where no user of its own limits the run's processes: a cell forked a child
    that left the run's session and outlived it (30 s here; a loop would have taken a core
    from every submission graded after it). Now no process can start (a seccomp filter:
    fork, vfork and clone without CLONE_THREAD are refused, clone3 is not there), with or
    without the sandbox; the run goes on."""
    monkeypatch.setattr(grader.run, "unsandboxed_user", lambda: None)
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": OUTLIVER, "filename": "<cell 1>"},
                 {"kind": "cell", "source": "import minigrad as torch\nx = torch.ones(2)",
                  "filename": "<cell 2>"}], source.module_text, source.module.name, {})
    run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    said = run.steps[0].error
    if said.startswith("RuntimeError: CHILD"):  # (forked: it must not be there any more)
        child = int(said.split()[2])
        try:
            alive = Path(f"/proc/{child}/stat").read_text().split()[2] != "Z"
        except OSError:
            alive = False
        if alive:
            os.kill(child, 9)
        assert not alive, said
    assert said.startswith("PermissionError"), run
    assert run.steps[1].status == "ok", run
