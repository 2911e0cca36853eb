"""The seventeenth red team's attacks, made as a teacher meets them (the real commands:
``minigrad-kit grade``, ``gradescope --help``; the nbgrader route's kernel started by a Jupyter
client from the kernel spec ``minigrad-kit kernelspec install`` writes). What succeeded
before, and the construction that closed it:

* **the salt in the process list of what started the grader**: ``grade --salt S`` is starred
  out of the grader's own command line (red team 16), but sudo's, and the shell of the
  teacher's script, keep S in theirs for every user of the machine to read, and the
  commands' own examples wrote ``--salt "$MINIGRAD_KIT_SALT"`` (the variable expanded onto
  the command line). (``command_line.salt``: ``--salt-file FILE`` or
  ``$MINIGRAD_KIT_SALT``, never an argument; ``--salt`` still works and says on stderr
  that it showed; the examples and READMEs give the variable or the file.)
* **the hidden tests read off the nbgrader route's loopback**: the sandboxed kernel's
  launcher relays the client's TCP ports on 127.0.0.1, which every user of the machine
  reaches. A classmate's process (user ``nobody`` here) subscribed to iopub and received
  every cell nbgrader ran, the instructor's hidden test cells with their code
  (``execute_input``), and could flood the shell port of a classmate's grading (measured).
  (``sandboxed_kernel._Door``, since red team 18: each connection to those ports goes on
  to the relay only when its other end, read from ``/proc/net/tcp``, is the launcher's
  user's; red team 17 decided ZeroMQ's handshakes by every socket on the port.)
* **the class's disk filled by a kernel of the nbgrader route**: its notebook's folder and
  its home are on the machine's disk, unbounded: a cell wrote 300 MB into each (measured),
  and nothing stopped it at the disk's end, where nbgrader's gradebook and the classmates'
  autograded notebooks are written. (``sandboxed_kernel._Watch``: past ``WRITE_BYTES`` or
  ``NEW_ENTRIES`` the kernel is killed and what it made removed; ``RLIMIT_FSIZE`` caps a
  file.)
* **a script in the teacher's browser, from a cell's output (the nbgrader route)**: nbgrader
  keeps what a cell displays in the autograded notebook, and its formgrader (where the
  teacher, logged in to the hub, grades by hand) and feedback pages render it with
  nbconvert, which writes an output's HTML and JavaScript into the page as they are:
  ``display(HTML("<img src=x onerror=...>"))``, ``Javascript(...)`` and a Markdown
  ``<script>`` ran in the teacher's session, which can set grades and run code as the
  teacher (measured: the three scripts in nbconvert's page), and so did a PNG's width
  in its metadata, ``"1 onerror=..."``, which nbconvert writes into the ``<img>`` tag
  unquoted (found against this fix's first version). (``sandboxed_kernel.
  _passive``: a display reaches the client with text and raster images only, signed again;
  the widgets' messages not at all.)
* **a folder every user may write, left in the course's folder by the kernel**: the
  kernel's files stay in its notebook's folder (``autograded/<student>/<assignment>/``),
  given back to its owner, modes as the kernel set them: a folder made ``0o777`` (and a
  setuid file; run with the teacher's own rights, the notebook's folder itself) stayed
  writable by every user (measured), where a link another user puts is followed by
  ``nbgrader generate_feedback``'s copy, outside the sandbox, into the student's
  feedback (the instructor's notebook). (``sandboxed_kernel._restore_modes``: what was
  there gets its mode back, what the kernel made is writable by its owner alone.)
* **a notebook's outputs without end, through the nbgrader route**: a cell printed 300 MB
  in 12 s (measured), all kept by the client (nbgrader grades the whole class in one
  process) and written into the autograded notebook; a notebook of such cells would
  stop the class's grading. (``sandboxed_kernel._Budget``: the kernel is killed once it has
  sent its client ``KERNEL_BYTES``.)
* **terminal escapes and forged lines in the terminal of ``nbgrader autograde``**: the
  kernel's standard error was the client's, so ``os.write(2, b"\\x1b]52;c;...\\x07[Autograde
  App | INFO] ...")`` reached the teacher's terminal as written (OSC 52 writes the
  clipboard; measured). (``sandboxed_kernel._pass_on``: each line as one line of text,
  prefixed, bounded.)

Found on the way: ``timing.csv`` read a name ``inert`` had written (``'-x``, a student's
file ``-x.ipynb``) as another student, so each re-grading added a row where it should
replace one (``timing._as_written``).

Tried and found closed (kept here so that they stay so): ``os.stat`` and ``os.readlink`` of
paths outside a run's view without the sandbox (Landlock governs neither): a run learns
whether a path exists and its size and times, never a byte of it; ``readlink`` of the
grader's ``/proc/<pid>/fd`` and ``cwd`` is refused (Landlock's ptrace scope), and so is
listing ``/proc``.
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right

import grader.run
from grader import sandboxed_kernel
from grader.cli import main
from grader.confine import landlock_abi
from grader.run import Plan, run_code
from grader.sandbox import Sandbox
from grader.source import load_source

D, T = "derive_it_by_hand", "tensors_and_gradients"
ROOT = Path(__file__).resolve().parents[2]
SECRET = "red-team-17-a-salt-no-one-else-reads"
AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="another user to be: root only")
BWRAP = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


def _class(folder: Path) -> Path:
    """bob (right) and zed (wrong), assignment 1, in a flat folder."""
    folder.mkdir(parents=True)
    nbformat.write(build(D, "bob", right(D, "bob")), folder / "bob.ipynb")
    nbformat.write(build(D, "zed", WRONG[D]), folder / "zed.ipynb")
    return folder


def _gradebook(out: Path) -> list:
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def test_the_salt_is_given_as_a_file_or_the_variable(tmp_path, monkeypatch, capsys):
    """``--salt-file`` (its first line), ``$MINIGRAD_KIT_SALT`` and ``--salt`` are one salt:
    the same hidden inputs, the same gradebook; only ``--salt`` says that it showed, and
    nothing is drawn into ``--out``."""
    submitted = _class(tmp_path / "class")
    salt = tmp_path / "salt"
    salt.write_text(SECRET + "\nanything after the first line\n")
    salt.chmod(0o600)
    common = ["grade", str(submitted), "--sandbox", "required", "--jobs", "1"]
    monkeypatch.delenv("MINIGRAD_KIT_SALT", raising=False)
    assert main(common + ["--out", str(tmp_path / "file"), "--salt-file", str(salt)]) == 0
    assert "--salt on the command line" not in capsys.readouterr().err
    salt.chmod(0o644)  # (readable by every user: said)
    assert main(common + ["--out", str(tmp_path / "open"), "--salt-file", str(salt)]) == 0
    assert "may be read by other users" in capsys.readouterr().err
    assert main(common + ["--out", str(tmp_path / "given"), "--salt", SECRET]) == 0
    assert "--salt on the command line shows" in capsys.readouterr().err
    monkeypatch.setenv("MINIGRAD_KIT_SALT", SECRET)
    assert main(common + ["--out", str(tmp_path / "variable")]) == 0
    books = [_gradebook(tmp_path / name) for name in ("file", "open", "given", "variable")]
    assert books[0] == books[1] == books[2] == books[3]
    assert ["bob", D, "q4", "3", "3", ""] in books[0]
    assert not any((tmp_path / name / "salt.txt").exists()
                   for name in ("file", "given", "variable"))
    # the two together, or a file without a salt, are refused before anything is graded
    empty = tmp_path / "empty"
    empty.write_text("\n")
    assert main(common + ["--out", str(tmp_path / "both"), "--salt-file", str(salt),
                          "--salt", "x"]) == 1
    assert main(common + ["--out", str(tmp_path / "none"), "--salt-file", str(empty)]) == 1
    assert "holds no salt" in capsys.readouterr().err
    assert not (tmp_path / "both").exists() and not (tmp_path / "none").exists()
    # an abbreviation is now two options' (argparse refuses it), and it was starred anyway
    with pytest.raises(SystemExit):
        main(common + ["--out", str(tmp_path / "short"), f"--sal={SECRET}"])
    assert "ambiguous option" in capsys.readouterr().err


def test_a_script_that_grades_shows_no_salt_in_the_process_list(tmp_path):
    """A teacher's script (``sh -c``) that grades with the salt in a file: no process of the
    machine shows it while the class is graded. (The same script with ``--salt S`` shows
    S in the shell's own command line, which the grader cannot change: why the file.)"""
    submitted = _class(tmp_path / "class")
    salt = tmp_path / "salt"
    salt.write_text(SECRET + "\n")
    shown = {}
    for how, given in (("file", f"--salt-file {salt}"), ("argument", f"--salt {SECRET}")):
        script = (f"{sys.executable} -m grader grade {submitted} --out {tmp_path / how} "
                  f"--sandbox required --jobs 1 {given}; echo done")
        process = subprocess.Popen(["sh", "-c", script], env={**os.environ,
                                                              "PYTHONPATH": str(ROOT)},
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        seen = set()
        while process.poll() is None:
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    line = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if SECRET.encode() in line:
                    seen.add(line.split(b"\0")[0].decode(errors="replace"))
            time.sleep(0.02)
        stdout, stderr = process.communicate()
        assert process.returncode == 0 and "done" in stdout, stdout + stderr
        shown[how] = seen
    assert shown["file"] == set()
    assert "sh" in shown["argument"]  # (the shell's line: what --salt cannot hide)


@pytest.mark.parametrize("command", ["gradescope", "prairielearn"])
def test_the_examples_put_no_salt_on_the_command_line(command, capsys):
    """The platform commands' own examples wrote ``--salt "$MINIGRAD_KIT_SALT"``: the
    variable expanded into the process list. They read the variable themselves."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    said = capsys.readouterr().out
    example = said[said.index("example:"):]
    assert "--salt " not in example and "$MINIGRAD_KIT_SALT" in example
    assert "--salt-file FILE" in said


# --- the nbgrader route: the sandboxed kernel, started as a Jupyter client starts it ---------

class Kernel:
    """The kit's sandboxed kernel started by jupyter_client from the kernel spec the kit
    writes, its notebook folder ``work``, the launcher's standard error in ``stderr``."""

    def __init__(self, folder: Path):
        from jupyter_client import KernelManager
        from jupyter_client.kernelspec import KernelSpecManager

        specs = folder / "kernels" / sandboxed_kernel.KERNEL_NAME
        specs.mkdir(parents=True)
        (specs / "kernel.json").write_text(json.dumps(sandboxed_kernel.kernel_json()))
        self.work = folder / "notebook"
        self.work.mkdir()
        self.work.chmod(0o755)
        (self.work / "data.txt").write_text("the student's own file")  # (there before)
        self.stderr = folder / "stderr.txt"
        self.manager = KernelManager(kernel_name=sandboxed_kernel.KERNEL_NAME,
                                     kernel_spec_manager=KernelSpecManager(
                                         kernel_dirs=[str(folder / "kernels")]))
        with open(self.stderr, "wb") as stderr:
            self.manager.start_kernel(cwd=str(self.work), stderr=stderr)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)

    def run(self, code: str, timeout: float = 30) -> str:
        """What ``code`` printed (or "TIMEOUT" where the kernel did not answer)."""
        said = []

        def hook(message):
            if message["msg_type"] == "stream":
                said.append(message["content"]["text"])
        try:
            self.client.execute_interactive(code, timeout=timeout, output_hook=hook)
        except TimeoutError:
            said.append("TIMEOUT")
        return "".join(said)

    def close(self) -> None:
        """As nbgrader's client stops a kernel (``shutdown_kernel = "graceful"``)."""
        self.client.stop_channels()
        if self.manager.has_kernel:
            self.manager.shutdown_kernel(now=False)


@pytest.fixture
def kernel():
    folder = Path(tempfile.mkdtemp(prefix="minigrad-kit-red-team-17-", dir=ROOT.parent))
    started = Kernel(folder)
    yield started
    started.close()
    shutil.rmtree(folder, ignore_errors=True)


SPY = """
import sys, zmq
context = zmq.Context()
spy = context.socket(zmq.SUB)
spy.connect(f"tcp://127.0.0.1:{sys.argv[1]}")
spy.setsockopt(zmq.SUBSCRIBE, b"")
spy.RCVTIMEO = 6000
got = []
try:
    while True:
        got.append(b" ".join(spy.recv_multipart()))
except zmq.Again:
    pass
print(len(got), any(b"HIDDEN_TEST" in message for message in got))
"""


@pytest.mark.slow
@AS_ROOT
@BWRAP
def test_another_user_of_the_machine_reads_nothing_the_kernel_publishes(kernel):
    """User ``nobody`` subscribes to the iopub port of a grading kernel while it runs a
    hidden test cell: it received the cell's code (three messages) before; now its
    handshake is refused and it receives nothing, while the client's own work goes on."""
    port = kernel.manager.get_connection_info()["iopub_port"]
    spy = subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            sys.executable, "-c", SPY, str(port)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    assert kernel.run("print(6 * 7)  # HIDDEN_TEST: the instructor's") == "42\n"
    stdout, stderr = spy.communicate(timeout=60)
    assert stdout.split() == ["0", "False"], stdout + stderr


def test_a_connection_is_mine_when_its_other_end_is():
    """``_owner`` finds, in /proc/net/tcp's rows, the socket whose own address is the
    connection's peer and whose remote address is the relay's: its user; none where no
    row is that end (a peer on another machine), and never a closed connection's row
    (TIME_WAIT, listed as root's). (Red team 17 read every socket connected to the port;
    red team 18 decides each connection by its own two ends.)"""
    head = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid"
    me, other = os.getuid(), os.getuid() + 1
    folder = Path(tempfile.mkdtemp())

    def table(*rows) -> str:
        path = folder / f"tcp{len(list(folder.iterdir()))}"
        path.write_text("\n".join([head] + [
            f"   0: 0100007F:{local:04X} 0100007F:{remote:04X} {state} 00000000:00000000 "
            f"00:00000000 00000000 {uid:5d}        0 1 1 0000000000000000 20 4 30 10 -1"
            for local, remote, state, uid in rows]) + "\n")
        return str(path)

    rows = table((50000, 9000, "01", me), (9000, 50000, "01", other + 5),
                 (50001, 9000, "01", other), (50002, 9000, "06", 0))
    assert sandboxed_kernel._owner(("127.0.0.1", 50000), ("127.0.0.1", 9000), (rows,)) == me
    assert sandboxed_kernel._owner(("127.0.0.1", 50001), ("127.0.0.1", 9000), (rows,)) == other
    assert sandboxed_kernel._owner(("127.0.0.1", 50002), ("127.0.0.1", 9000), (rows,)) is None
    assert sandboxed_kernel._owner(("::ffff:127.0.0.1", 50000), ("127.0.0.1", 9000),
                                   (rows,)) == me
    shutil.rmtree(folder)


FILL = """
import os
block = bytes(1 << 20)
written = 0
try:
    for number in range(6):
        with open(os.path.join({where}, f"fill{{number}}"), "wb") as file:
            for _ in range(100):
                file.write(block)
                written += 1
except OSError as error:
    print(type(error).__name__)
print(written)
"""


@pytest.mark.slow
@BWRAP
@pytest.mark.parametrize("where", ['"."', 'os.environ["HOME"]'])
def test_a_kernel_that_fills_the_disk_is_stopped_and_its_files_removed(kernel, where):
    """600 MB written into the notebook's folder (or the kernel's home, on the same disk):
    all of it stayed before; now the kernel is stopped past ``WRITE_BYTES`` and what it
    wrote is gone (the notebook folder as it was)."""
    said = kernel.run(FILL.format(where=where), timeout=20)
    assert "600" not in said, said
    deadline = time.monotonic() + 30
    while kernel.manager.is_alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not kernel.manager.is_alive()
    time.sleep(1)  # (the launcher removes what it made once the kernel has ended)
    assert sorted(p.name for p in kernel.work.iterdir()) == ["data.txt"]
    assert "wrote more than 256 MB" in kernel.stderr.read_text()


@pytest.mark.slow
@BWRAP
def test_a_kernel_that_makes_files_without_end_is_stopped(kernel):
    """30,000 empty files (the disk's inodes, and the time of whatever walks the folder):
    stopped past ``NEW_ENTRIES``, and removed."""
    said = kernel.run("import os\nos.mkdir('d')\nfor i in range(30000):\n"
                      "    open(f'd/{i}', 'w').close()\nprint('made them all')", timeout=20)
    assert "made them all" not in said
    deadline = time.monotonic() + 30
    while kernel.manager.is_alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1)
    assert [p.name for p in kernel.work.iterdir()] == ["data.txt"]
    assert "made more than 10,000 files and folders" in kernel.stderr.read_text()


@pytest.mark.slow
@BWRAP
def test_the_kernels_standard_error_reaches_the_terminal_as_text(kernel):
    """A cell writes an OSC 52 escape (the terminal's clipboard) and a line that reads as
    nbgrader's own on file descriptor 2: before, the teacher's terminal got both as
    written; now one line of text, the kernel's, prefixed, and no escape."""
    kernel.run('import os\nos.write(2, b"\\x1b]52;c;ZXZpbA==\\x07\\n[AutogradeApp | INFO] '
               'bob: 10 / 10\\n")\nprint("ok")')
    kernel.close()
    said = kernel.stderr.read_text(errors="replace")
    assert "\x1b" not in said and "\x07" not in said
    forged = [line for line in said.splitlines() if "AutogradeApp" in line]
    assert forged and all(line.startswith(sandboxed_kernel.STDERR_PREFIX) for line in forged)


@pytest.mark.slow
@BWRAP
def test_a_kernel_that_prints_without_end_is_stopped(kernel):
    """300 MB printed in one cell: the client received all of it before; now the kernel is
    stopped past ``KERNEL_BYTES`` and the client has received no more than that."""
    received = []

    def hook(message):
        if message["msg_type"] == "stream":
            received.append(len(message["content"]["text"]))
    try:
        kernel.client.execute_interactive(
            "import sys\nline = 'x' * (1 << 20)\nfor i in range(300):\n"
            "    sys.stdout.write(line)\n    sys.stdout.flush()\nprint('printed it all')",
            timeout=30, output_hook=hook)
    except TimeoutError:
        pass
    deadline = time.monotonic() + 30
    while kernel.manager.is_alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not kernel.manager.is_alive()
    assert 0 < sum(received) <= sandboxed_kernel.KERNEL_BYTES
    assert "sent more than 64 MB to its client" in kernel.stderr.read_text()


DISPLAYS = """\
from IPython.display import display, HTML, Javascript, Markdown
display(HTML("<img src=x onerror=alert(1)>"))
display(Javascript("alert(2)"))
display({"image/svg+xml": "<svg><script>alert(3)</script></svg>", "text/plain": "svg"},
        raw=True)
display(Markdown("<script>alert(4)</script>"))
display({"image/png": "iVBORw0KGgo=", "text/plain": "png"}, raw=True,
        metadata={"image/png": {"width": "1 onerror=alert(5)", "height": 2}})
print("the text stays")
"""
RUNS = ['onerror="alert(1)"', '<script type="text/javascript">', "<script>alert(3)",
        "<script>alert(4)", 'onerror="alert(5)"']


@pytest.mark.slow
@BWRAP
def test_what_a_cell_displays_runs_no_script_where_the_teacher_reads_it(tmp_path,
                                                                         monkeypatch):
    """The notebook executed by nbclient (as nbgrader autograde does) in the sandboxed
    kernel, then rendered by nbconvert's HTML exporter (formgrader's, feedback's): no
    script of the student's is on the page, the printed text is; each display keeps its
    text. (With ipykernel alone, the page holds them: the attack, as it was.)"""
    import nbclient
    from nbconvert.exporters import HTMLExporter

    specs = tmp_path / "kernels" / sandboxed_kernel.KERNEL_NAME
    specs.mkdir(parents=True)
    (specs / "kernel.json").write_text(json.dumps(sandboxed_kernel.kernel_json()))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    work = Path(tempfile.mkdtemp(prefix="minigrad-kit-red-team-17-", dir=ROOT.parent))
    pages = {}
    try:
        for name in (sandboxed_kernel.KERNEL_NAME, "python3"):
            notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(DISPLAYS)])
            nbclient.NotebookClient(notebook, kernel_name=name, timeout=60).execute(
                cwd=str(work))
            pages[name] = (HTMLExporter().from_notebook_node(notebook)[0],
                           [sorted(o.get("data", {})) for o in notebook.cells[0].outputs])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    page, kinds = pages[sandboxed_kernel.KERNEL_NAME]
    assert [script for script in RUNS if script in page] == [] and "the text stays" in page
    assert kinds == [["text/plain"]] * 4 + [["image/png", "text/plain"], []]
    assert [script for script in RUNS if script in pages["python3"][0]] != []


def test_the_readmes_nbgrader_setting_renders_no_markdown_script():
    """A markdown cell is the student's file, not the kernel's: nbconvert rendered its
    ``<script>`` and ``onerror`` into formgrader's page. The line README.md gives for
    ``nbgrader_config.py`` makes nbconvert's HTML exporter leave them out."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config import Config

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setting = "c.HTMLExporter.sanitize_html = True"
    assert f"`{setting}` in `nbgrader_config.py`" in readme.replace("\n", " ")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "my answer <img src=x onerror=alert(1)> <script>alert(4)</script>")])
    c = Config()
    exec(setting, {"c": c})  # noqa: S102 (the README's own line)
    for config, expected in ((Config(), True), (c, False)):
        page = HTMLExporter(config=config).from_notebook_node(notebook)[0]
        assert any(script in page for script in RUNS) is expected
        assert "my answer" in page


def test_a_published_message_is_passed_on_as_the_client_would_read_it():
    """``_passive`` on messages signed as jupyter_client signs them: a display keeps its
    passive kinds and is signed again (the client accepts it); a widget's message, and one
    signed with another key, are dropped; anything else passes unchanged."""
    from jupyter_client.session import Session

    client = {"key": "a key", "signature_scheme": "hmac-sha256"}
    session = Session(key=b"a key")

    def frames(kind, content, key=b"a key"):
        signer = Session(key=key)
        return signer.serialize(signer.msg(kind, content), ident=[b"topic"])

    shown = sandboxed_kernel._passive(frames("display_data", {"data": {
        "text/html": "<b>x</b>", "image/png": "iVBOR", "text/plain": "x"}, "metadata": {}}),
        client)
    _identities, kept = session.feed_identities(shown)
    read = session.deserialize(kept)  # (raises where the signature is wrong)
    assert read["content"]["data"] == {"image/png": "iVBOR", "text/plain": "x"}
    sized = sandboxed_kernel._passive(frames("display_data", {"data": {
        "image/png": "iVBOR", "image/jpeg": "<img src=x>", "text/plain": "x"}, "metadata": {
        "image/png": {"width": "1 onerror=alert(1)", "height": 3, "unconfined": True}}}),
        client)
    read = session.deserialize(session.feed_identities(sized)[1])["content"]
    assert read["data"] == {"image/png": "iVBOR", "text/plain": "x"}  # (not base64: out)
    assert read["metadata"] == {"image/png": {"height": 3}}
    only = sandboxed_kernel._passive(frames("execute_result", {"data": {
        "application/javascript": "alert(1)"}, "metadata": {}, "execution_count": 1}), client)
    said = session.deserialize(session.feed_identities(only)[1])["content"]["data"]
    assert list(said) == ["text/plain"] and "application/javascript" in said["text/plain"]
    counted = sandboxed_kernel._passive(frames("execute_input", {
        "code": "x", "execution_count": "<img src=x onerror=alert(1)>"}), client)
    said = session.deserialize(session.feed_identities(counted)[1])["content"]
    assert said == {"code": "x", "execution_count": None}
    stream = frames("stream", {"name": "stdout", "text": "<script>"})
    assert sandboxed_kernel._passive(stream, client) == stream
    assert sandboxed_kernel._passive(frames("comm_open", {"comm_id": "1", "data": {}}),
                                     client) is None
    assert sandboxed_kernel._passive(frames("stream", {"name": "stdout", "text": "x"},
                                            key=b"another"), client) is None


@pytest.mark.slow
@BWRAP
def test_what_the_kernel_leaves_is_writable_by_its_owner_alone(kernel):
    """A cell makes a folder and a file writable by every user (the file setuid) and opens
    the notebook's folder to every user: once the kernel has ended, each is writable by
    its owner alone, and the notebook's folder has its mode back."""
    kernel.run("import os\nos.mkdir('open')\nos.chmod('open', 0o777)\n"
               "open('s', 'w').write('x')\nos.chmod('s', 0o6777)\n"
               "os.chmod('.', 0o777)\nprint('done')")
    kernel.close()
    assert oct(kernel.work.stat().st_mode & 0o7777) == "0o755"  # (as it was given)
    assert oct((kernel.work / "open").stat().st_mode & 0o7777) == "0o755"
    assert oct((kernel.work / "s").stat().st_mode & 0o7777) == "0o755"


def test_modes_are_restored_whoever_ran_the_kernel(tmp_path):
    """``_restore_modes`` alone (a kernel with the teacher's own rights changes modes the
    same way): the files there before get their modes back, those made since lose the
    other users' and the group's write and every special bit; links are left alone."""
    folder = tmp_path / "notebook"
    folder.mkdir()
    (folder / "theirs.txt").write_text("the student's file")
    (folder / "theirs.txt").chmod(0o640)
    before = sandboxed_kernel._modes(folder)
    (folder / "theirs.txt").chmod(0o666)
    folder.chmod(0o777)
    (folder / "made").mkdir()
    (folder / "made").chmod(0o3777)
    (folder / "made" / "run").write_text("x")
    (folder / "made" / "run").chmod(0o4775)
    os.symlink("/etc/passwd", folder / "link")
    sandboxed_kernel._restore_modes(folder, before)
    assert oct(folder.stat().st_mode & 0o7777) == oct(before[str(folder)][1])
    assert oct((folder / "theirs.txt").stat().st_mode & 0o7777) == "0o640"
    assert oct((folder / "made").stat().st_mode & 0o7777) == "0o755"
    assert oct((folder / "made" / "run").stat().st_mode & 0o7777) == "0o755"
    assert oct(Path("/etc/passwd").stat().st_mode & 0o7777) == "0o644"


def test_the_launcher_shows_no_character_the_reports_hide():
    """The launcher's ``CONTROL`` (it does not load ``intake``, which loads nbformat) is
    ``intake.UNPRINTABLE`` with the line breaks."""
    from grader.intake import UNPRINTABLE

    assert sandboxed_kernel.CONTROL.pattern == UNPRINTABLE.pattern[:-1] + "\r\n]"


def test_the_kernels_standard_error_is_passed_on_bounded(tmp_path):
    """Megabytes on standard error (the teacher's terminal or log) are passed on up to
    ``STDERR_BYTES``, then said to be more, and the rest read (the kernel never blocks)."""
    import io

    stream = io.BytesIO(b"x" * 100 + b"\n" + (b"y" * 1000 + b"\n") * 5000)
    out = io.StringIO()
    sandboxed_kernel._pass_on(stream, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == sandboxed_kernel.STDERR_PREFIX + "x" * 100
    assert len(out.getvalue()) < sandboxed_kernel.STDERR_BYTES + 10_000
    assert "the rest not shown" in lines[-1] and stream.closed


# --- without the sandbox: what stat and readlink show ---------------------------------------

PEEK = """
import os
shown = []
for path in {paths!r}:
    try:
        shown.append(str(os.stat(path).st_size))
    except OSError as error:
        shown.append(type(error).__name__)
for path in (f"/proc/{{os.getppid()}}/cwd", f"/proc/{{os.getppid()}}/fd/0"):
    try:
        shown.append(os.readlink(path))
    except OSError as error:
        shown.append(type(error).__name__)
for path in {paths!r}:
    try:
        shown.append(open(path).read())
    except OSError as error:
        shown.append(type(error).__name__)
try:
    shown.append(str(len(os.listdir("/proc"))))
except OSError as error:
    shown.append(type(error).__name__)
raise RuntimeError("|".join(shown))
"""


@pytest.mark.skipif(landlock_abi() < 1, reason="this kernel offers no Landlock")
@pytest.mark.parametrize("user", ["root's user of its own", "the grader's own"])
def test_without_the_sandbox_stat_shows_a_size_never_a_byte(monkeypatch, user):
    """Without the sandbox (Landlock's allowlist), a run may ``stat`` any path (Landlock
    does not govern it): a classmate's notebook's size, never its text; it reads no file
    outside its view, lists no ``/proc``, and reads no link of the grader's process."""
    if user == "the grader's own" or os.geteuid() != 0:
        monkeypatch.setattr(grader.run, "unsandboxed_user", lambda: None)
    folder = Path(tempfile.mkdtemp(prefix="minigrad-kit-red-team-17-"))
    folder.chmod(0o755)  # (a class folder any user may enter; pytest's is root's alone)
    classmate = folder / "alice.ipynb"
    classmate.write_text("alice's right answers")
    classmate.chmod(0o644)
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": PEEK.format(paths=[str(classmate)]),
                  "filename": "<cell 1>"}], source.module_text, source.module.name, {})
    try:
        run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                       deadline=time.monotonic() + 60)
    finally:
        shutil.rmtree(folder)
    said = run.steps[0].error
    assert said.startswith("RuntimeError: "), run
    shown = said.removeprefix("RuntimeError: ").split(" (line")[0].split("|")
    assert shown == [str(len("alice's right answers")), "PermissionError", "PermissionError",
                     "PermissionError", "PermissionError"], shown


def test_a_regrading_replaces_the_timing_of_a_name_written_inert(tmp_path):
    """``-x`` (a file name a student chose) is written ``'-x`` so that no spreadsheet runs
    it; graded again, its row is replaced, not doubled, and read back as ``-x``."""
    from types import SimpleNamespace

    from grader.timing import read_timing, write_timing

    for seconds in (1.0, 2.0):
        write_timing(tmp_path, [(SimpleNamespace(assignment="a", student="-x", error=""),
                                 seconds)])
    assert read_timing(tmp_path) == {("a", "-x"): 2.0}
    assert (tmp_path / "timing.csv").read_text().splitlines()[1:] == ["'-x,a,2.00"]
