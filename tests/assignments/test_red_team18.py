"""The eighteenth red team's attacks, made as a teacher meets them (the nbgrader route's kernel
started by a Jupyter client from the kernel spec ``minigrad-kit kernelspec install`` writes;
``minigrad-kit grade``, ``report`` and ``export`` on a class). What succeeded before, and the
construction that closed it:

* **a classmate's grading held back through the nbgrader route's loopback**: red team 17's
  relay decided each ZeroMQ handshake on a client's TCP port by every socket connected to
  it, as ZAP does not say which connection it asks about. User ``nobody`` connected to the
  five ports as the launcher opened them and held them: the client's own handshakes were
  refused for as long as those sockets stayed, and the client never became ready (measured:
  still waiting after 14 minutes, past its own 20-second timeout). (``sandboxed_kernel.
  _Door``: the launcher accepts each TCP connection itself and passes its bytes on to the
  relay's Unix socket, in a folder of its user's alone, only when that connection's own
  other end is its user's socket; another user's is closed at once and delays nothing.)
* **a SIGKILLed launcher's clean-up never done**: a client that stops a kernel at once
  (``shutdown_kernel(now=True)``, nbclient's ``shutdown_kernel = "immediate"``, or a kernel
  that does not end in time) kills the launcher's process group with SIGKILL: the
  notebook's folder stayed the sandbox user's and writable by every user, with the
  student's link to a file outside it (which ``nbgrader generate_feedback`` copies into
  the feedback, following the link) and the scratch folder left behind (measured).
  (``sandboxed_kernel._Keeper``: forked first, in a session of its own, it holds pidfds of
  the sandbox's processes and, should the launcher end without saying it is done, kills
  them and puts everything right itself.)
* **a tensor's record handed back by a string of the student's own class** (``grade
  --lenient``, where no allowlist holds what the scan does not know): ``type("S", (str,),
  {"__getitem__": ...})`` passed the extract step's ``isinstance(value, str)``, whose
  ``value[:2000]`` called the student's method, which returned a forged tensor's record:
  q1's checks of x and total passed on two strings, unflagged (measured; autograd's own
  slope, which the run computes, still failed). (``data.encode`` reads a value only as
  exactly its own type; a subclass, and a tensor of a class not minigrad's, is described,
  never read through its own methods.)

Tried and found closed (kept in the report, not here): duplicate cell ids, a student's
test cell worth 100 points, points raised in the metadata, the numbers cell edited, a
hidden test's grade id reused first, grade ids of other types, answers as nested
containers, bytes and dicts, formulas with huge values at one point, fullwidth letters and
bidirectional overrides, carriage returns and form feeds in a cell's lines, a 30 MB
notebook, stored outputs claiming a pass, HTML in a formula on the teacher's pages and in
the Markdown feedback, a 6000 x 6000 tensor, complex and float16 tensors, NaN and infinite
tensors, tensors in containers, a print flood, 8 GB of NumPy beside a classmate, an endless
loop, names that casefold alike (the Kelvin sign, the long s), file names that start as
a formula (=, +, -, @, a tab, a full-width =) in every CSV, another user's flood of
connections to the nbgrader relay (a factor 2 on a busy machine, as any load).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, right

from grader import sandboxed_kernel
from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="another user to be: root only")
BWRAP = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
CHANNELS = ("shell", "control", "stdin", "hb", "iopub")


@pytest.fixture
def course():
    """A folder every user may enter with the kit's kernel spec, and the notebook folder
    ``notebook/`` (mode 0755, a student's file in it), as nbgrader's autograded/ has."""
    folder = Path(tempfile.mkdtemp(prefix="minigrad-kit-red-team-18-", dir=ROOT.parent))
    specs = folder / "kernels" / sandboxed_kernel.KERNEL_NAME
    specs.mkdir(parents=True)
    (specs / "kernel.json").write_text(json.dumps(sandboxed_kernel.kernel_json()))
    (folder / "notebook").mkdir()
    (folder / "notebook").chmod(0o755)
    (folder / "notebook" / "data.txt").write_text("the student's own file")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _manager(course: Path):
    from jupyter_client import KernelManager
    from jupyter_client.kernelspec import KernelSpecManager

    return KernelManager(kernel_name=sandboxed_kernel.KERNEL_NAME,
                         kernel_spec_manager=KernelSpecManager(
                             kernel_dirs=[str(course / "kernels")]))


def _printed(client, code: str, timeout: float = 30) -> str:
    """What ``code`` printed."""
    said = []
    client.execute_interactive(code, timeout=timeout, output_hook=lambda message: said.append(
        message["content"]["text"]) if message["msg_type"] == "stream" else None)
    return "".join(said)


HOLD = """
import socket, sys, time
ports, held = [int(port) for port in sys.argv[1:]], []
deadline = time.monotonic() + 60
while len(held) < len(ports) and time.monotonic() < deadline:
    try:
        held.append(socket.create_connection(("127.0.0.1", ports[len(held)]), timeout=1))
    except OSError:
        time.sleep(0.005)
print("held", len(held), flush=True)
closed = 0
for connection in held:
    connection.settimeout(20)
    try:
        closed += connection.recv(1) == b""
    except OSError:
        pass
print("closed", closed, flush=True)
time.sleep(20)
"""


CLIENT = """
import sys, time
from jupyter_client import BlockingKernelClient
client = BlockingKernelClient(connection_file=sys.argv[1])
client.load_connection_file()
client.start_channels()
started = time.monotonic()
client.wait_for_ready(timeout=30)
said = []
client.execute_interactive("print(6 * 7)", timeout=30, output_hook=lambda message: said.append(
    message["content"].get("text", "")) if message["msg_type"] == "stream" else None)
print(repr("".join(said)), round(time.monotonic() - started))
client.stop_channels()
"""


@pytest.mark.slow
@AS_ROOT
@BWRAP
def test_another_users_connections_hold_no_grading_back(course):
    """User ``nobody`` connects to the five ports as soon as the launcher opens them and
    holds the connections: the client (a process of its own: before, its first message
    blocked it for good) still becomes ready at once and runs its cell, and each of
    nobody's connections is closed by the launcher."""
    manager = _manager(course)
    manager.start_kernel(cwd=str(course / "notebook"))
    ports = [str(manager.get_connection_info()[f"{name}_port"]) for name in CHANNELS]
    holder = subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               sys.executable, "-c", HOLD, *ports],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().split() == ["held", "5"]
        try:
            done = subprocess.run([sys.executable, "-c", CLIENT, manager.connection_file],
                                  capture_output=True, text=True, timeout=45)
        except subprocess.TimeoutExpired:
            pytest.fail("the client was held back: not ready after 45 s")
        said = done.stdout.split()
        assert said[:1] == ["'42\\n'"] and int(said[1]) < 25, done.stdout + done.stderr
        assert holder.stdout.readline().split() == ["closed", "5"]
    finally:
        holder.kill()
        holder.communicate()
        manager.shutdown_kernel(now=True)


LEAVE = """\
import os
os.symlink({target!r}, "notes.txt")
os.mkdir("open")
os.chmod("open", 0o777)
os.chmod(".", 0o777)
print(os.environ["HOME"])
"""


@pytest.mark.slow
@BWRAP
def test_a_launcher_killed_at_once_still_puts_everything_right(course):
    """The kernel makes a link to the instructor's notebook, a folder every user may write,
    and opens its notebook folder to every user; the client then kills it at once
    (``shutdown_kernel(now=True)``: SIGKILL to the launcher's process group). Within a few
    seconds the link is gone, the modes are back, the folder is its owner's again, and the
    scratch folder is removed, as when the kernel ends of itself."""
    work = course / "notebook"
    owner = work.stat()
    instructor = course / "source.ipynb"
    instructor.write_text("BEGIN HIDDEN TESTS")
    manager = _manager(course)
    manager.start_kernel(cwd=str(work))
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        home = Path(_printed(client, LEAVE.format(target=str(instructor))).strip())
        assert (work / "notes.txt").is_symlink() and home.is_dir()
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)  # (jupyter_client: killpg(launcher, SIGKILL))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (home.exists() or (work / "notes.txt").is_symlink()):
        time.sleep(0.2)
    assert sorted(path.name for path in work.iterdir()) == ["data.txt", "open"]
    assert oct(work.stat().st_mode & 0o7777) == "0o755"
    assert (work.stat().st_uid, (work / "open").stat().st_uid) == (owner.st_uid,) * 2
    assert oct((work / "open").stat().st_mode & 0o7777) == "0o755"
    assert not home.exists()


# --- minigrad-kit grade: a run's data handed back by a class of the student's --------------

FORGED = """\
def record(shape, values, leaf, grad_fn):
    return {{"tensor": {{"shape": shape, "dtype": "float32", "values": values,
                        "requires_grad": True, "is_leaf": leaf, "grad_fn": grad_fn,
                        "grad": None, "retains_grad": False}}}}
S = type("S", (str,), {{"__getitem__": lambda self, index: record(*self.parts)}})
x = S("x")
x.parts = ([{rows}, {columns}], [1.0] * {size}, True, None)
total = S("total")
total.parts = ([], [{size}.0], False, "SumBackward0")
"""


@pytest.mark.slow
@BWRAP
def test_a_string_of_the_students_own_class_hands_back_no_tensor(tmp_path, monkeypatch):
    """``grade --lenient`` (no allowlist): q1's x and total are strings of a class made with
    ``type()``, whose ``[:2000]`` returns a tensor's record. Before, the extract step
    handed the records back as they were, unflagged: six of q1's seven checks passed on
    two strings ("x requires grad", "is a leaf", "total is right", "records how
    (SumBackward0)"), all but autograd's own slope, which the run computes itself. Now a
    value is read only as exactly its own type, and the strings are no tensors."""
    rows, columns = map(int, re.search(r"torch.ones\((\d+), (\d+)", right(
        "tensors_and_gradients", "mallory")["q1_answer"]).groups())
    folder = tmp_path / "class"
    folder.mkdir()
    answers = {**WRONG["tensors_and_gradients"], "q1_answer": FORGED.format(
        rows=rows, columns=columns, size=rows * columns)}
    nbformat.write(build("tensors_and_gradients", "mallory", answers), folder / "mallory.ipynb")
    monkeypatch.setenv("MINIGRAD_KIT_SALT", "red-team-18")
    assert main(["grade", str(folder), "--out", str(tmp_path / "out"), "--sandbox",
                 "required", "--jobs", "1", "--lenient"]) == 0
    feedback = (tmp_path / "out" / "feedback" / "tensors_and_gradients" /
                "mallory.md").read_text()
    q1 = feedback[feedback.index("## q1"):feedback.index("## q2")]
    assert "0 / 1" in q1.splitlines()[0] and "x requires grad" not in q1, q1
