"""A fork bomb and a thread bomb in a submission, graded for real: they cannot slow or stop
the other submissions' grading, nor the machine (issue 31's follow-up: processes).

The test machine is protected whatever the grader does: the whole grading runs in a pids
cgroup of its own (``OUTER`` tasks at most) when the tests run as root, or under an
``RLIMIT_NPROC`` of ``OUTER`` more tasks than the user has when they do not. Without the
sandbox's own limit the bombs fill that outer limit (and the honest student's run cannot
start); with it, they fail at their first fork.
"""

import json
import os
import resource
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, right

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="bubblewrap is Linux only")

T = "tensors_and_gradients"
OUTER = 400  # tasks the whole grading may have, bombs included
BOUNDED = 150  # what the grading needs (two jobs, their kernels and threads), with room

# forks for three seconds, the children too (each stops when the three seconds are over)
FORK_BOMB = """\
import os, time
end, me = time.time() + 3, os.getpid()
while time.time() < end:
    try:
        os.fork()
    except OSError:
        pass
if os.getpid() != me:
    os._exit(0)
"""
THREAD_BOMB = """\
import threading, time
end = time.time() + 3
threading.stack_size(32768)
while time.time() < end:
    try:
        threading.Thread(target=time.sleep, args=(end - time.time(),)).start()
    except RuntimeError:
        pass
"""


class _Outer:
    """Runs commands with at most OUTER tasks in all, and says how many they reached."""

    def __init__(self, folder: Path) -> None:
        self.cgroup = None
        if os.geteuid() == 0:
            # cgroup v1's pids hierarchy, or v2's root with the pids controller on
            for root in (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup")):
                if (root / "tasks").exists() or "pids" in _read(root / "cgroup.subtree_control"):
                    try:
                        group = root / f"minigrad-kit-test-{uuid.uuid4().hex[:8]}"
                        group.mkdir()
                        (group / "pids.max").write_text(str(OUTER))
                        self.cgroup = group
                        break
                    except OSError:
                        continue
            if self.cgroup is None:
                pytest.skip("running as root without a writable pids cgroup: a fork bomb "
                            "cannot be run safely here")
        self.folder = folder

    def run(self, command: list[str]) -> subprocess.CompletedProcess:
        def inside():
            if self.cgroup is not None:
                (self.cgroup / "cgroup.procs").write_text(str(os.getpid()))
            else:
                mine = _tasks_of(os.getuid())
                resource.setrlimit(resource.RLIMIT_NPROC, (mine + OUTER, mine + OUTER))
        return subprocess.run(command, capture_output=True, text=True, timeout=600,
                              preexec_fn=inside, cwd=self.folder)

    def peak(self) -> int | None:
        if self.cgroup is None:
            return None
        for name in ("pids.peak",):
            if (self.cgroup / name).exists():
                return int((self.cgroup / name).read_text())
        return None

    def close(self) -> None:
        """Remove the cgroup once empty: processes of the bomb that are still exiting when
        the run returns (a busy cgroup cannot be removed) are killed and waited for."""
        if self.cgroup is None:
            return
        for _ in range(200):
            pids = _read(self.cgroup / "cgroup.procs").split()
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)
        self.cgroup.rmdir()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _tasks_of(uid: int) -> int:
    return sum(len(os.listdir(f"/proc/{p}/task")) for p in os.listdir("/proc")
               if p.isdigit() and os.stat(f"/proc/{p}").st_uid == uid)


@pytest.fixture
def outer(tmp_path):
    limit = _Outer(tmp_path)
    yield limit
    limit.close()


def test_a_fork_bomb_and_a_thread_bomb_leave_the_class_graded(tmp_path, outer):
    submitted, out = tmp_path / "submitted", tmp_path / "grades"
    submitted.mkdir()
    honest = right(T, "honest")
    nbformat.write(build(T, "honest", honest), submitted / "honest.ipynb")
    for name, bomb in (("forker", FORK_BOMB), ("threader", THREAD_BOMB)):
        own = right(T, name)  # (each student's own numbers)
        answers = {**own, "q1_answer": bomb + "\n" + own["q1_answer"]}
        nbformat.write(build(T, name, answers), submitted / f"{name}.ipynb")
    nbformat.write(build(T, "wrong", WRONG[T]), submitted / "wrong.ipynb")
    done = outer.run([sys.executable, "-m", "grader", "grade", str(submitted), "--out", str(out),
                      "--timeout", "10", "--jobs", "2", "--sandbox", "required"])
    assert done.returncode in (0, 1), done.stdout + done.stderr
    results = {p.stem: json.loads(p.read_text()) for p in (out / "results").rglob("*.json")}
    points = {name: sum(q["points"] or 0 for q in r["questions"] if not q["manual"])
              for name, r in results.items()}
    best = sum(q["max_points"] for q in results["honest"]["questions"] if not q["manual"])
    assert points["honest"] == best and not results["honest"]["problems"]
    # the bombs' own answers still ran (the forks or threads failed, the rest went on), and
    # are held for review (--strict: os.fork, threading)
    for name in ("forker", "threader"):
        questions = {q["name"]: q for q in results[name]["questions"]}
        assert [ok for ok, _text, _part in questions["q1"]["findings"]] == \
            [True] * len(questions["q1"]["findings"]), questions["q1"]
        assert questions["q1"]["review"] and not results[name]["problems"], results[name]
    assert points["wrong"] < best
    peak = outer.peak()
    assert peak is None or peak < BOUNDED, f"{peak} tasks at once: the bombs were not held"


KERNEL_PROBE = """\
import json, sys, tempfile
from grader.kernel import run_cells
from grader.sandbox import choose
with tempfile.TemporaryDirectory() as scratch:
    runs = run_cells([sys.argv[1], "import os\\nprint(os.getuid() != 0)"], cwd=scratch,
                     timeout=15, sandbox=choose("required"))
print(json.dumps([[r.status, r.error, [o.get("text", "") for o in r.outputs]] for r in runs]))
"""


@pytest.mark.parametrize("bomb", [FORK_BOMB, THREAD_BOMB], ids=["fork", "threads"])
def test_a_notebook_kernel_is_held_to_its_tasks(outer, bomb):
    """The other kernel (``release`` runs notebooks in it; so does the nbgrader kernel spec)."""
    done = outer.run([sys.executable, "-c", KERNEL_PROBE, bomb + "print('after the bomb')"])
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout.splitlines()[-1])
    assert runs[0][0] == "ok" and runs[0][2] == ["after the bomb\n"], runs
    assert runs[1] == ["ok", "", ["True\n"]]  # never root: the limit binds
    peak = outer.peak()
    assert peak is None or peak < BOUNDED, f"{peak} tasks at once"
