"""The nineteenth red team's attacks, made as a teacher meets them (``minigrad-kit grade`` on a
class, the CSV files it writes). What succeeded before, and the construction that closed it:

* **a name that a spreadsheet reads as a formula, left unquoted because Python reads it as a
  number**: ``report.inert`` quoted a field starting with ``=``, ``+``, ``-``, ``@`` unless
  ``float()`` read it, and ``float()`` reads much that no spreadsheet does: digits grouped
  by underscores (``float("-2_3") == -23.0``), ``-inf`` and ``-nan``, digits of other
  scripts (``-٣``), a trailing Unicode space. A student's folder ``-2+3`` (``safe_name``
  makes it ``-2_3``) reached gradebook.csv and flags.csv starting with a minus, unquoted
  (measured). (``report.NUMBER``: only what a spreadsheet reads as a number, ASCII digits
  with a sign, a point and an exponent, is left as it is.)
* **the nbgrader route's TCP ports squatted** (found, closed by the client's configuration):
  a process of user ``nobody`` that listens on one of the loopback ports the client wrote in
  its connection file, before the launcher binds it, makes the launcher die (``Address
  already in use``): "Kernel died before replying to kernel_info" after 2 s, and the
  squatter receives the client's ZeroMQ greeting (measured). No launcher can take back a
  port another user holds; Unix sockets in a folder of the teacher's own can be held by no
  one else: ``nbgrader autograde ... --KernelManager.transport=ipc``. That did not work:
  jupyter_client's sockets are then ``kernel-ipc-1`` ... relative to the client's own
  working folder, and the launcher bound them relative to its own, the notebook's folder:
  the client never found them and waited (not ready after 60 s, measured). Bound there,
  they were in the folder the kernel may write, beside the student's files. (``sandboxed_
  kernel._client_sockets``: the path is the client's, made absolute from the client's own
  working folder; a folder the kernel is lent, or another user may write, is refused.)
* **a tensor's memory written through NumPy, past --strict**: ``g = np.asarray(x.grad);
  g[:] = 7`` wrote a gradient by hand, and ``h = np.asarray(w)`` taken before ``w.
  requires_grad = True`` rewrote w's values after y was computed from it, with nothing but
  allowed names (``np.ravel``, ``np.atleast_1d``, ``np.array(t, copy=False)`` too):
  ``Tensor.__array__`` hands NumPy the tensor's own memory, and the allowlist holds
  ``.numpy()``, ``.data`` and ``x.grad[...] =`` for exactly that reason. The kit's own
  questions judge slopes that autograd computes at the extract step, so no kit question
  scored from it; a teacher's question that reads a ``.grad`` would have. (``runner.
  _no_writable_handles``: in a run with autograd, the array NumPy receives is a read-only
  view, whatever the spelling.)
* **the nbgrader route's ports on every address, open to other machines and containers**:
  with a client whose ``ip`` is ``0.0.0.0`` (or the machine's own address), ``_Door`` let
  through every connection whose other end ``/proc/net/tcp`` does not show, as from
  another machine, so a container of the same host (another network namespace, another
  user's single-user server) or any machine of the network reached the relay, where red
  team 17 read every cell nbgrader ran. (The client started the launcher, on this machine
  and in its namespace: a peer the namespace does not show is closed too.)
"""

import csv
import json
import socket
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right

from grader import sandboxed_kernel
from grader.cli import main
from grader.report import inert

D = "derive_it_by_hand"


def _as_spreadsheet_number(field: str) -> bool:
    """Whether a spreadsheet reads ``field`` as a number (ASCII only, no underscores)."""
    text = field.lstrip("+-")
    mantissa, _e, exponent = text.lower().partition("e")
    whole, _point, fraction = mantissa.partition(".")
    return bool(whole + fraction) and (whole + fraction).isascii() and \
        (whole + fraction).isdigit() and (not _e or exponent.lstrip("+-").isascii()
                                          and exponent.lstrip("+-").isdigit())


@pytest.mark.parametrize("field", ["-2_3", "+1_000", "-inf", "-Infinity", "-nan", "-٣",
                                   "-1\u2003", "\t1", "-1\n"])
def test_what_python_reads_as_a_number_and_a_spreadsheet_does_not_is_quoted(field):
    assert inert(field) == "'" + field


@pytest.mark.parametrize("field", ["-1.5", "-3", "+2", "-0.5e-3", "-1E+06", "-.5", "-2."])
def test_numbers_stay_numbers(field):
    assert inert(field) == field and _as_spreadsheet_number(field)


def test_a_folder_named_like_a_number_reaches_no_csv_starting_with_a_minus(tmp_path):
    """A student's folder ``-2+3`` (``-2_3`` once made safe) hands in a notebook: every field
    of every CSV that starts like a formula and is not a spreadsheet's number is quoted."""
    submitted, out = tmp_path / "submitted", tmp_path / "grades"
    folder = submitted / "-2+3" / D
    folder.mkdir(parents=True)
    nbformat.write(build(D, "-2+3", WRONG[D]), folder / BY_ASSIGNMENT[D].name)
    assert main(["grade", str(submitted), "--out", str(out), "--jobs", "1",
                 "--sandbox", "required"]) == 0
    fields = []
    for path in out.rglob("*.csv"):
        with open(path, newline="", encoding="utf-8") as file:
            fields += [field for row in csv.reader(file) for field in row]
    assert "'-2_3" in fields
    assert [f for f in fields if f[:1] in ("=", "+", "-", "@", "\t", "\r")
            and not _as_spreadsheet_number(f)] == []


# --- the nbgrader route on Unix sockets (--KernelManager.transport=ipc) --------------------

ROOT = Path(__file__).resolve().parents[2]
BWRAP = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
CLIENT = """
import sys
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager
manager = KernelManager(kernel_name=sys.argv[1], transport="ipc",
                        kernel_spec_manager=KernelSpecManager(kernel_dirs=[sys.argv[2]]))
manager.start_kernel(cwd=sys.argv[3])
client = manager.client()
client.start_channels()
try:
    client.wait_for_ready(timeout=40)
    said = []
    client.execute_interactive("print(6 * 7)", timeout=30, output_hook=lambda message:
        said.append(message["content"].get("text", "")) if message["msg_type"] == "stream"
        else None)
    print("said", repr("".join(said)))
except RuntimeError as error:
    print("not ready:", error)
finally:
    client.stop_channels()
    manager.shutdown_kernel(now=True)
"""


@pytest.fixture
def course():
    """A folder every user may enter with the kit's kernel spec, the notebook folder
    ``notebook/`` (mode 0755) and the teacher's own folder ``teacher/`` (0700)."""
    folder = Path(tempfile.mkdtemp(prefix="minigrad-kit-red-team-19-", dir=ROOT.parent))
    folder.chmod(0o755)
    specs = folder / "kernels" / sandboxed_kernel.KERNEL_NAME
    specs.mkdir(parents=True)
    (specs / "kernel.json").write_text(json.dumps(sandboxed_kernel.kernel_json()))
    for name, mode in (("notebook", 0o755), ("teacher", 0o700)):
        (folder / name).mkdir()
        (folder / name).chmod(mode)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _client(course: Path, where: str) -> str:
    """What a client on Unix sockets (jupyter_client's own default path, ``kernel-ipc``,
    relative to its working folder ``where``) says of a kernel started in ``notebook/``."""
    done = subprocess.run([sys.executable, "-c", CLIENT, sandboxed_kernel.KERNEL_NAME,
                           str(course / "kernels"), str(course / "notebook")],
                          cwd=course / where, capture_output=True, text=True, timeout=120)
    return done.stdout.strip()


@pytest.mark.slow
@BWRAP
def test_a_client_on_unix_sockets_is_served(course):
    """The client runs in the teacher's own folder: its cell runs (before, the launcher bound
    the sockets in the notebook's folder and the client was never ready)."""
    assert _client(course, "teacher") == "said '42\\n'"


@pytest.mark.slow
@BWRAP
def test_no_client_socket_in_the_folder_the_kernel_may_write(course):
    """The client runs in the notebook's folder itself (``jupyter execute`` there): its
    sockets would be where the kernel writes, beside the student's files. The launcher
    refuses, and no socket was made there (before: the kernel ran, its client's five
    sockets in its own folder)."""
    said = _client(course, "notebook")
    assert said.startswith("not ready"), said
    assert list((course / "notebook").iterdir()) == []


# --- a code run with autograd: a tensor's memory through NumPy ------------------------------

T = "tensors_and_gradients"
HANDLE = """\
import numpy as np
y.retain_grad()
z.retain_grad()
z.backward()
np.asarray(x.grad)[:] = 0
"""


@pytest.mark.slow
@BWRAP
def test_numpy_gets_no_writable_handle_on_a_tensor(tmp_path, monkeypatch):
    """q3's cell writes x.grad through ``np.asarray`` after an honest backward(), allowed
    names only (--strict holds nothing). Before, the write went through: x.grad held zeros
    at q3's extract step, and q3 scored 0. Now the array is read-only: the cell stops at
    that line (the feedback says so), x.grad is autograd's, and q3 scores."""
    folder = tmp_path / "class"
    folder.mkdir()
    nbformat.write(build(T, "mallory", {**right(T, "mallory"), "q3_answer": HANDLE}),
                   folder / "mallory.ipynb")
    monkeypatch.setenv("MINIGRAD_KIT_SALT", "red-team-19")
    assert main(["grade", str(folder), "--out", str(tmp_path / "out"), "--sandbox",
                 "required", "--jobs", "1"]) == 0
    result = json.loads((tmp_path / "out" / "results" / T / "mallory.json").read_text())
    q3, = [q for q in result["questions"] if q["name"] == "q3"]
    assert any("read-only" in problem for problem in result["problems"]), result["problems"]
    assert q3["points"] == q3["max_points"] and not q3["review"], q3


# --- the nbgrader route's TCP ports bound to every address ---------------------------------

PEER = """
import os, socket, sys
from pathlib import Path
from grader import sandboxed_kernel
folder = Path(sys.argv[1])
inside = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
inside.bind(str(folder / "shell"))
inside.listen(4)
inside.settimeout(3)
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
sandboxed_kernel._owner = lambda peer, local: None  # (as /proc shows no such socket)
older = "loopback" in sandboxed_kernel._Door.__init__.__code__.co_varnames  # (main's)
door = sandboxed_kernel._Door({"ip": "0.0.0.0", "shell_port": port}, "shell",
                              folder / "shell", *([False] if older else []))
door.start()
peer = socket.create_connection(("127.0.0.1", port), timeout=3)
peer.settimeout(3)
try:
    said = "closed" if peer.recv(1) == b"" else "answered"
except socket.timeout:
    said = "open"
try:
    inside.accept()
    said += ", reached the relay"
except socket.timeout:
    said += ", not at the relay"
print(said, flush=True)
os._exit(0)  # (the door's thread waits in accept(); this process has said all it says)
"""


def test_a_peer_this_network_namespace_does_not_show_is_closed(tmp_path):
    """A door on every address (the client's ip ``0.0.0.0``): a connection whose other end
    /proc/net/tcp does not list (``_owner`` None: a container's, another machine's) is
    closed at once and never reaches the relay's socket; before, it went through."""
    done = subprocess.run([sys.executable, "-c", PEER, str(tmp_path)], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.stdout.strip() == "closed, not at the relay", done.stdout + done.stderr
