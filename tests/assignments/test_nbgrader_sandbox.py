"""`minigrad-kit kernelspec install`, proven with real nbgrader 0.9.6: the same course is
autograded twice, with nbgrader's usual python3 kernel and with the kit's sandboxed kernel
(`--ExecutePreprocessor.kernel_name=minigrad-kit-sandbox`).

A student's notebook that reaches for the grader's files (the instructor's source notebook
with its solutions and hidden tests, the course folder, the gradebook) gets them under plain
nbgrader, and gets nothing in the sandbox; honest work scores the same in both. Also tested
on the kernel directly: no network, no view of the grader's processes, interrupts, and the
kernel gone when the client stops it."""

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT, with_module
from samples import SAMPLES, Sample, build

from grader.cli import main

pytestmark = pytest.mark.slow
pytest.importorskip("nbgrader.api", reason="nbgrader is in the 'nbgrader' extra")

A2 = BY_ASSIGNMENT["derive_it_by_hand"]
KERNEL = "minigrad-kit-sandbox"

# A student's cell: read the instructor's source notebook, write into the course folder and
# the gradebook, report what worked (the kernel runs in autograded/<student>/<assignment>/)
REACH = """\
import pathlib, sqlite3
course = pathlib.Path.cwd().parents[2]
reached = []
try:
    text = (course / "source" / "kit" / "01_derive_it_by_hand.ipynb").read_text()
    reached.append("read the solutions" if "BEGIN HIDDEN TESTS" in text else "read the source")
except OSError as error:
    reached.append(f"no source: {error.strerror}")
try:
    (course / "PWNED").write_text("a student wrote into the course folder")
    reached.append("wrote into the course")
except OSError as error:
    reached.append(f"no course: {error.strerror}")
try:
    sqlite3.connect(course / "gradebook.db").execute("create table pwned (x)")
    reached.append("wrote the gradebook")
except Exception as error:
    reached.append(f"no gradebook: {error}")
print(reached)"""


def _nbgrader(course: Path, *args: str, env: dict | None = None) -> str:
    bin_dir = str(Path(sys.executable).parent)  # nbgrader runs `alembic` from PATH
    env = {**os.environ, **(env or {}), "PATH": bin_dir + os.pathsep + os.environ["PATH"]}
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def _course(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.root = {str(root)!r}\n"
        "c.CourseDirectory.course_id = 'minigrad'\n")
    (root / "source" / "kit").mkdir(parents=True)
    shutil.copy(A2, root / "source" / "kit")
    with_module("derive_it_by_hand", root / "source" / "kit")
    _nbgrader(root, "generate_assignment", "kit", "--force")
    released = nbformat.read(root / "release" / "kit" / A2.name, as_version=4)
    for student, notebook in (
            ("honest", build(released, SAMPLES["partial"])),
            ("reacher", build(released, Sample(SAMPLES["correct"].answers,
                                               extra={"setup": REACH})))):
        folder = root / "submitted" / student / "kit"
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / A2.name)
        shutil.copy(root / "release" / "kit" / "derive_it_by_hand.py", folder)
    return root


def _outcome(root: Path) -> tuple[dict, list]:
    from nbgrader import api
    with api.Gradebook(f"sqlite:///{root / 'gradebook.db'}") as book:
        scores = {s: {g.name: g.auto_score for g in book.find_submission("kit", s)
                      .notebooks[0].grades} for s in ("honest", "reacher")}
    graded = nbformat.read(root / "autograded" / "reacher" / "kit" / A2.name, as_version=4)
    printed = [o.get("text", "") for c in graded.cells for o in c.get("outputs", [])
               if "reached" in c.source and o.get("output_type") == "stream"]
    return scores, printed


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    """The kit's kernel spec installed under a prefix of its own (JUPYTER_PATH finds it)."""
    prefix = tmp_path_factory.mktemp("prefix")
    assert main(["kernelspec", "install", "--prefix", str(prefix)]) == 0
    spec = json.loads((prefix / "share/jupyter/kernels" / KERNEL / "kernel.json").read_text())
    assert spec["argv"][:3] == [sys.executable, "-m", "grader.sandboxed_kernel"]
    assert spec["interrupt_mode"] == "message" and "{connection_file}" in spec["argv"]
    return {"JUPYTER_PATH": str(prefix / "share" / "jupyter")}


def test_the_sandboxed_kernel_stops_what_plain_nbgrader_lets_through(tmp_path, kernels):
    plain, boxed = _course(tmp_path / "plain"), _course(tmp_path / "boxed")
    _nbgrader(plain, "autograde", "kit", "--create", "--force")
    _nbgrader(boxed, "autograde", "kit", "--create", "--force",
              f"--ExecutePreprocessor.kernel_name={KERNEL}", env=kernels)
    plain_scores, plain_printed = _outcome(plain)
    boxed_scores, boxed_printed = _outcome(boxed)
    # under nbgrader's own kernel the student reads the solutions and writes where they like
    assert plain_printed == ["['read the solutions', 'wrote into the course', "
                             "'wrote the gradebook']\n"]
    assert (plain / "PWNED").exists()
    with sqlite3.connect(plain / "gradebook.db") as db:
        assert db.execute("select name from sqlite_master where name = 'pwned'").fetchall()
    # in the kit's sandbox: nothing of the course is there to read or to write
    assert boxed_printed == ["['no source: No such file or directory', 'no course: Read-only "
                             "file system', 'no gradebook: unable to open database file']\n"]
    assert not (boxed / "PWNED").exists()
    with sqlite3.connect(boxed / "gradebook.db") as db:
        assert not db.execute("select name from sqlite_master where name = 'pwned'").fetchall()
    # honest work scores the same either way (the notebooks ran, with their question module)
    assert boxed_scores == plain_scores
    assert plain_scores["honest"] == {"q1": 2, "q2": 0, "q3": 2, "q4": 0}
    assert plain_scores["reacher"] == {"q1": 2, "q2": 2, "q3": 2, "q4": 3}


PROBE = [
    "import os, socket\nprint(os.getcwd(), sorted(p for p in os.listdir('/proc') if p.isdigit()))",
    "s = socket.socket(); s.settimeout(3)\ntry:\n    s.connect(('127.0.0.1', {port}))\n"
    "    print('reached the grader')\nexcept OSError as error:\n    print('no network:', "
    "error.strerror)",
    "print(sorted(os.environ))",
    "open('mine.txt', 'w').write('the notebook folder is the kernel\\'s own')",
    "import time\ntime.sleep(60)",
    "print('answers after the interrupt')",
]


def test_the_kernel_itself(tmp_path, kernels, monkeypatch):
    import nbclient

    monkeypatch.setenv("JUPYTER_PATH", kernels["JUPYTER_PATH"])
    monkeypatch.setenv("MINIGRAD_KIT_SALT", "a secret of the grader's")
    listening = socket.socket()  # the grader's machine listens on its loopback
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    port = listening.getsockname()[1]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s.replace(
        "{port}", str(port))) for s in PROBE])
    client = nbclient.NotebookClient(notebook, kernel_name=KERNEL, timeout=10,
                                     allow_errors=True, interrupt_on_timeout=True,
                                     resources={"metadata": {"path": str(tmp_path)}})
    with client.setup_kernel():
        launcher = client.km.provisioner.process.pid
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        assert _alive(launcher)
    said = ["".join(o.get("text", "") for o in c.outputs) for c in notebook.cells]
    assert said[0] == f"{tmp_path} ['1', '2']\n"  # its own pid namespace: no grader to see
    assert said[1] == "no network: Connection refused\n"  # its own loopback, not ours
    listening.close()
    assert "MINIGRAD_KIT_SALT" not in said[2] and "HOME" in said[2]
    assert (tmp_path / "mine.txt").read_text() == "the notebook folder is the kernel's own"
    assert notebook.cells[4].outputs[0]["ename"] == "KeyboardInterrupt"  # over control
    assert said[5] == "answers after the interrupt\n"
    assert not _alive(launcher)  # stopped with its client, and bwrap's kernel with it


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is not alive
        return stat.read().split(") ")[1][0] != "Z"


def test_install_refuses_where_bubblewrap_cannot_run(tmp_path, capsys, monkeypatch):
    from grader import sandbox
    sandbox._bubblewrap_works.cache_clear()
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    try:
        assert main(["kernelspec", "install", "--prefix", str(tmp_path)]) == 1
    finally:
        sandbox._bubblewrap_works.cache_clear()
    assert ("minigrad-kit: error: the kernel would not run here: --sandbox required, but bwrap "
            "is not installed") in capsys.readouterr().err
    assert not (tmp_path / "share").exists()
