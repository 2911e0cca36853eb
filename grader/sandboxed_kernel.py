"""A Jupyter kernel inside the kit's bubblewrap sandbox, for any Jupyter client:
``minigrad-kit kernelspec install`` installs it, and ``nbgrader autograde
--ExecutePreprocessor.kernel_name=minigrad-kit-sandbox`` then runs every student's kernel
in it (no Docker, no privileges: what a JupyterHub can do).

The kernel spec starts this module (``python -m grader.sandboxed_kernel -f
{connection_file}``) outside the sandbox. It

1. reads the connection file the client made (TCP ports on the loopback, the key);
2. makes a private scratch folder, the kernel's home and temporary folder, and writes a
   connection file for the kernel there: the same key, Unix sockets in that folder (TCP
   cannot cross the sandbox's own network namespace);
3. starts ipykernel under bubblewrap (``sandbox.bubblewrap_argv``: no network, read-only
   system, no view of other processes, a cleared environment), with its working folder
   (the notebook's folder, as nbgrader and JupyterLab set it) the one other folder it may
   read and write, and at most ``sandbox.KERNEL_TASKS`` processes and threads (started by
   root, the kernel becomes a user of its own, ``confine.py``: it owns the scratch
   folder, and reads the notebook's folder as any user may, without writing to it);
4. relays the five channels between the client's TCP ports and the kernel's sockets
   (shell, control, stdin and heartbeat through ROUTER/DEALER, iopub through XPUB/XSUB);
5. ends when the kernel ends, and takes the kernel with it when it is stopped
   (``--die-with-parent``).

The client's TCP ports are on the loopback, which every user of the machine reaches: a
classmate's own kernel on the same JupyterHub subscribed to iopub and read every cell nbgrader
ran, the instructor's hidden tests with them (``execute_input``), and could flood the shell
channel of a classmate's grading (red team 17). Messages are signed, but not enciphered, and
a signature is checked by the kernel, after the relay has queued what it was sent. So each
handshake on a TCP port is decided first (``_peers_are_mine``, ZeroMQ's ZAP): it goes ahead
only when every socket of this machine connected to that port is its user's, the user of
the client that wrote the connection file (``/proc/net/tcp``); a connection of another user
is refused before any message crosses it. (ZeroMQ does not say which connection a
handshake is, so while another user's socket is connected to a port, the client's own
handshake there is refused too, and tried again: another user can delay a grading, as
they can by loading the machine, but reads nothing.)

What the kernel writes is on the machine's disk (its notebook's folder, and the scratch
folder, its home): a cell wrote 300 MB into each, and nothing stopped it filling the disk that
nbgrader's gradebook and the classmates' autograded notebooks are written to (red team 17).
A file may hold at most ``WRITE_BYTES`` (``RLIMIT_FSIZE``), and ``_Watch`` adds up, every
``WATCH_SECONDS``, what the two folders hold beyond what they held at the start: past
``WRITE_BYTES``, or past ``NEW_ENTRIES`` files and folders, the kernel is killed, and what
it made there is removed.

What the kernel sends its client is bounded too: a cell printed 300 MB in 12 s (measured),
all of it kept in the client's memory and in the autograded notebook, and nothing stopped a
notebook of such cells before nbgrader, grading the whole class in one process, ran out of
memory. Past ``KERNEL_BYTES`` in all (``_Budget``) the kernel is killed.

What a cell displays reaches the teacher too: nbgrader keeps the outputs in the autograded
notebook, and its formgrader (where the teacher grades by hand, logged in to the hub) and
its feedback pages render them with nbconvert, which writes an output's HTML and JavaScript
into the page as they are: ``display(HTML("<script>..."))`` in a cell ran its script in the
teacher's browser, with the teacher's session (red team 17). The relay passes on of a
display (``display_data``, ``execute_result``, ``update_display_data``) only the kinds of
data that cannot run (``PASSIVE``: text, and raster images as base64) and of their metadata
an image's width and height as numbers (a width of ``"1 onerror=..."`` became an attribute
of nbconvert's ``<img>``), signed again with the client's key, and none of the widgets'
messages (``comm_*``, whose state nbconvert renders with the widgets' own scripts); a
message whose signature is wrong is dropped, as the client would drop it (``_passive``).

The kernel's standard error (bubblewrap's, ipykernel's, and a cell's ``os.write(2, ...)``)
was the client's: it reached the terminal of the teacher who runs ``nbgrader autograde``
as written, terminal escapes (OSC 52 writes the clipboard) and lines that read as
nbgrader's own among them (red team 17). It is read here and written on, each line as one
line of text (``CONTROL`` characters as U+FFFD), after ``STDERR_PREFIX``, ``STDERR_BYTES``
at most.

Interrupts travel as messages on the control channel (``interrupt_mode: message``): a
signal would reach this launcher, not the kernel.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import ipaddress
import json
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import zmq

from .sandbox import (bubblewrap_argv, hand_over, kernel_command, sandbox_environment,
                      sandbox_user)

__all__ = ["main", "kernel_json", "CHANNELS", "KERNEL_NAME", "DISPLAY_NAME"]

KERNEL_NAME = "minigrad-kit-sandbox"
DISPLAY_NAME = "Python 3 (minigrad-kit sandbox)"
# channel -> (the client's side: bound here on TCP, the kernel's side: connected on ipc)
CHANNELS = {"shell": (zmq.ROUTER, zmq.DEALER), "control": (zmq.ROUTER, zmq.DEALER),
            "stdin": (zmq.ROUTER, zmq.DEALER), "hb": (zmq.ROUTER, zmq.DEALER),
            "iopub": (zmq.XPUB, zmq.XSUB)}
# the kernel answers on stdin to the identity it saw on shell: both relays show it the same
RELAY_IDENTITY = b"minigrad-kit-relay"
WRITE_BYTES = 256 * 1024 * 1024  # what a kernel may add to its folders (the class's disk)
NEW_ENTRIES = 10_000  # files and folders it may make there
PASSIVE = ("text/plain", "image/png", "image/jpeg", "image/gif")  # what a display may show
BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*")
DISPLAYS = ("display_data", "execute_result", "update_display_data")
WIDGETS = ("comm_open", "comm_msg", "comm_close")
DELIMITER = b"<IDS|MSG>"
KERNEL_BYTES = 64 * 1024 * 1024  # what it may send its client (outputs: the notebook's size)
STDERR_BYTES = 64 * 1024  # of the kernel's standard error passed on to the client's
STDERR_PREFIX = "[minigrad-kit sandboxed kernel] "
# what a terminal acts on rather than shows: intake.UNPRINTABLE's characters (a test keeps
# them the same; intake itself loads nbformat, seconds of a busy machine's launcher)
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\r\n]")
WATCH_SECONDS = 0.2
ZAP = "inproc://zeromq.zap.01"  # where ZeroMQ asks whether a handshake may go ahead
TCP_TABLES = ("/proc/net/tcp", "/proc/net/tcp6")
ESTABLISHED = "01"


def kernel_json(memory_mb: int = 4096) -> dict:
    """The kernel spec: this launcher, with the Python that installs it."""
    argv = [sys.executable, "-m", __name__, "-f", "{connection_file}"]
    if memory_mb:
        argv[3:3] = ["--memory", str(memory_mb)]
    return {"argv": argv, "display_name": DISPLAY_NAME, "language": "python",
            "interrupt_mode": "message",
            "metadata": {"minigrad_kit": "the kernel runs in bubblewrap: no network, nothing of "
                                         "the machine writable but its own folder"}}


def _kernel_connection(client: dict, scratch: Path) -> dict:
    return {"transport": "ipc", "ip": str(scratch / "kernel"), "key": client["key"],
            "signature_scheme": client.get("signature_scheme", "hmac-sha256"),
            "kernel_name": client.get("kernel_name", KERNEL_NAME),
            **{f"{name}_port": number for number, name in enumerate(CHANNELS, 1)}}


def _address(connection: dict, channel: str) -> str:
    port = connection[f"{channel}_port"]
    if connection.get("transport", "tcp") == "ipc":
        return f"ipc://{connection['ip']}-{port}"
    return f"tcp://{connection['ip']}:{port}"


def _relay(context, channel: str, client: dict, kernel: dict, ready: threading.Barrier,
           budget: "_Budget"):
    outer, inner = CHANNELS[channel]
    front, back = context.socket(outer), context.socket(inner)
    if client.get("transport", "tcp") == "tcp":  # (ipc: the client's own folder decides)
        front.setsockopt(zmq.ZAP_DOMAIN, str(client[f"{channel}_port"]).encode())
    if outer == zmq.XPUB:
        front.setsockopt(zmq.XPUB_VERBOSE, 1)  # each client's subscription reaches the kernel
    else:
        back.setsockopt(zmq.IDENTITY, RELAY_IDENTITY)
    front.bind(_address(client, channel))
    back.connect(_address(kernel, channel))
    ready.wait()
    poller = zmq.Poller()
    poller.register(front, zmq.POLLIN)
    poller.register(back, zmq.POLLIN)
    try:
        while True:
            for socket, _event in poller.poll():
                message = socket.recv_multipart(copy=True)
                if socket is front:
                    back.send_multipart(message)
                elif budget.spend(sum(len(part) for part in message)):
                    if channel == "iopub":
                        message = _passive(message, client)
                    if message:
                        front.send_multipart(message)
    except zmq.ContextTerminated:
        pass
    finally:
        front.close(linger=0)
        back.close(linger=0)


def _passive(message: list, client: dict) -> list | None:
    """``message`` (a published message of the kernel's, as ZeroMQ frames) with no data a
    page could run: a display keeps its ``PASSIVE`` kinds (or a line that says what was
    left out) and is signed again; a widget's message, or one not signed with the
    client's key, is None."""
    if DELIMITER not in message:
        return None
    at = message.index(DELIMITER)
    signature, parts = message[at + 1], message[at + 2:at + 6]
    if len(parts) < 4 or not hmac.compare_digest(signature, _sign(client, parts)):
        return None
    try:
        kind = json.loads(parts[0]).get("msg_type")
    except (ValueError, AttributeError):
        return None
    if kind in WIDGETS:
        return None
    try:
        content = json.loads(parts[3])
    except ValueError:
        return None
    if not isinstance(content, dict):
        return None
    count = content.get("execution_count")
    if kind not in DISPLAYS and (count is None or type(count) is int):
        return message
    if "execution_count" in content and type(count) is not int:
        # (nbclient sets the cell's prompt number from it: a text there made the notebook
        # one nbformat refuses, which formgrader and the feedback then cannot show)
        content["execution_count"] = None
    if kind not in DISPLAYS:
        parts[3] = json.dumps(content).encode()
        return message[:at + 1] + [_sign(client, parts)] + parts + message[at + 6:]
    data = content.get("data") if isinstance(content.get("data"), dict) else {}
    shown = {kind: value for kind, value in data.items() if _shown(kind, value)}
    if "text/plain" not in shown:
        left = sorted(set(data) - set(shown))
        shown["text/plain"] = f"[not shown: {', '.join(left)}; the sandbox passes text and " \
                              "images only]"
    content["data"] = shown
    # (an image's metadata is written into nbconvert's <img> tag as it is: a width of
    # "1 onerror=alert(1)" became an attribute of the tag, and ran: sizes as numbers only)
    metadata = content.get("metadata") if isinstance(content.get("metadata"), dict) else {}
    content["metadata"] = {
        kind: {size: value for size, value in metadata[kind].items()
               if size in ("width", "height") and type(value) is int}
        for kind in shown if kind != "text/plain" and isinstance(metadata.get(kind), dict)}
    parts[3] = json.dumps(content).encode()
    return message[:at + 1] + [_sign(client, parts)] + parts + message[at + 6:]


def _shown(kind: str, value) -> bool:
    """Whether a display's data of ``kind`` is passed on: text, and images as base64."""
    if kind == "text/plain":
        return isinstance(value, str)
    return kind in PASSIVE and isinstance(value, str) and BASE64.fullmatch(value) is not None


def _sign(client: dict, parts: list) -> bytes:
    """The HMAC of a message's four JSON parts with the client's key (as jupyter_client)."""
    scheme = client.get("signature_scheme", "hmac-sha256").partition("-")[2] or "sha256"
    key = client.get("key", "").encode()
    if not key:
        return b""
    signer = hmac.new(key, digestmod=getattr(hashlib, scheme))
    for part in parts:
        signer.update(part)
    return signer.hexdigest().encode()


class _Budget:
    """What the kernel may send its client, ``KERNEL_BYTES`` in all; past it the kernel is
    killed (``process``) and nothing more is passed on."""

    def __init__(self, process):
        self.process, self.left, self.lock = process, KERNEL_BYTES, threading.Lock()

    def spend(self, size: int) -> bool:
        with self.lock:
            if self.left < 0:
                return False
            self.left -= size
            if self.left >= 0:
                return True
        print(f"minigrad-kit sandbox: the kernel sent more than {KERNEL_BYTES >> 20} MB to "
              "its client: stopped", file=sys.stderr)
        self.process.kill()
        return False


def _gatekeeper(socket, loopback: bool) -> None:
    """ZeroMQ's ZAP handler for the relays' TCP ports (``socket``, bound at ``ZAP`` before
    any relay binds): each handshake is allowed when ``_peers_are_mine`` of the port (the
    request's domain) holds."""
    try:
        while True:
            request = socket.recv_multipart()
            routing, rest = request[:request.index(b"")], request[request.index(b"") + 1:]
            version, number, domain = rest[0], rest[1], rest[2]
            allowed = domain.isdigit() and _peers_are_mine(int(domain), loopback)
            socket.send_multipart([*routing, b"", version, number,
                                   b"200" if allowed else b"400",
                                   b"OK" if allowed else b"another user's connection", b"", b""])
    except zmq.ContextTerminated:
        pass
    finally:
        socket.close(linger=0)


def _peers_are_mine(port: int, loopback: bool, tables=TCP_TABLES) -> bool:
    """Whether every established socket of this machine connected to ``port`` belongs to
    this process's user (the user of the client that wrote the connection file), and, on a
    ``loopback`` port, that there is one."""
    owners = set()
    for table in tables:
        try:
            with open(table, encoding="ascii") as file:
                lines = file.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 7 and fields[3] == ESTABLISHED and \
                    int(fields[2].rsplit(":", 1)[1], 16) == port:
                owners.add(int(fields[7]))
    if not owners:
        return not loopback  # (a peer on another machine: /proc shows none of its sockets)
    return owners == {os.getuid()}


def _lend(folder: Path, user: int | None):
    """Lend the notebook's ``folder`` to the kernel's ``user`` (a root launcher's sandbox);
    the function returned gives it back, with what the kernel made in it (links are
    changed, never followed)."""
    if user is None:
        return lambda: None
    owner = folder.stat()
    hand_over(user, folder)

    def give_back() -> None:
        for root, folders, files in os.walk(folder):
            for name in folders + files:
                path = os.path.join(root, name)
                if os.lstat(path).st_uid == user:
                    os.chown(path, owner.st_uid, owner.st_gid, follow_symlinks=False)
        os.chown(folder, owner.st_uid, owner.st_gid)  # (its mode: ``_restore_modes``, last)
    return give_back


def _limits(megabytes: int):
    """The kernel's limits, set between fork and exec: its memory, and the size of a file."""
    def limit() -> None:
        if megabytes:
            size = megabytes * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        resource.setrlimit(resource.RLIMIT_FSIZE, (WRITE_BYTES, WRITE_BYTES))
    return limit


def _pass_on(stream, out=None) -> None:
    """The kernel's standard error, each line as one line of text after ``STDERR_PREFIX``,
    ``STDERR_BYTES`` of it; the rest is read and dropped."""
    out = out or sys.stderr
    passed = 0
    for line in iter(lambda: stream.readline(4096), b""):
        if passed < STDERR_BYTES:
            passed += len(line)
            text = CONTROL.sub("\ufffd", line.decode("utf-8", "replace").rstrip("\n"))
            out.write(STDERR_PREFIX + text + "\n")
            if passed >= STDERR_BYTES:
                out.write(STDERR_PREFIX + f"(more than {STDERR_BYTES:,} bytes: the rest not "
                                          "shown)\n")
            out.flush()
    stream.close()


def _entries(folders, most: int) -> dict:
    """(path, inode) -> bytes on disk of everything beneath ``folders`` (links not
    followed); at most ``most`` entries are read."""
    found, stack = {}, [str(folder) for folder in folders]
    while stack and len(found) < most:
        with contextlib.suppress(OSError), os.scandir(stack.pop()) as listing:
            for entry in listing:
                with contextlib.suppress(OSError):
                    status = entry.stat(follow_symlinks=False)
                    found[entry.path, status.st_ino] = status.st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                if len(found) >= most:
                    break
    return found


class _Watch(threading.Thread):
    """Kills ``process`` once ``folders`` hold more than ``WRITE_BYTES`` beyond what they held
    at the start, or ``NEW_ENTRIES`` more files and folders; ``over`` says why."""

    def __init__(self, process, folders):
        super().__init__(daemon=True, name="write-watch")
        self.process, self.folders, self.over = process, folders, ""
        self.before = _entries(folders, 1 << 62)
        self.most = len(self.before) + NEW_ENTRIES
        self.start_bytes = sum(self.before.values())

    def run(self) -> None:
        while self.process.poll() is None:
            now = _entries(self.folders, self.most + 1)
            if len(now) > self.most:
                self.over = f"made more than {NEW_ENTRIES:,} files and folders"
            elif sum(now.values()) - self.start_bytes > WRITE_BYTES:
                self.over = f"wrote more than {WRITE_BYTES >> 20} MB"
            if self.over:
                print(f"minigrad-kit sandbox: the kernel {self.over} in its folders: stopped, "
                      "and what it made there removed", file=sys.stderr)
                self.process.kill()
                return
            time.sleep(WATCH_SECONDS)

    def undo(self) -> None:
        """Remove what the kernel made in its folders (once it has ended)."""
        if not self.over:
            return
        for path, inode in sorted(set(_entries(self.folders, 1 << 62)) - set(self.before),
                                  key=lambda item: -len(item[0])):  # (deepest first)
            with contextlib.suppress(OSError):
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)


def run(connection_file: str, memory_mb: int = 4096) -> int:
    client = json.loads(Path(connection_file).read_text(encoding="utf-8"))
    workdir = Path.cwd().resolve()
    scratch = Path(tempfile.mkdtemp(prefix="minigrad-kit-kernel-"))
    before, modes = _special_files(workdir), _modes(workdir)
    try:
        kernel = _kernel_connection(client, scratch)
        (scratch / "connection.json").write_text(json.dumps(kernel), encoding="utf-8")
        user = sandbox_user()
        hand_over(user, scratch, scratch / "connection.json")
        give_back = _lend(workdir, user)
        argv = bubblewrap_argv(scratch, kernel_command(str(scratch / "connection.json"), user),
                               workdir)
        environment = sandbox_environment(scratch)
        if "JPY_SESSION_NAME" in os.environ:  # which notebook (its language), as Lab says
            command = argv.index("--")
            argv[command:command] = ["--setenv", "JPY_SESSION_NAME",
                                     os.environ["JPY_SESSION_NAME"]]
        # started before any thread (a memory limit set between fork and exec), the relays
        # next: ZeroMQ queues what the client sends until both ends are there
        process = subprocess.Popen(argv, env=environment, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL,  # (its banner)
                                   stderr=subprocess.PIPE, preexec_fn=_limits(memory_mb))
        said = threading.Thread(target=_pass_on, args=(process.stderr,), daemon=True,
                                name="kernel-stderr")
        said.start()
        watch = _Watch(process, (workdir, scratch))
        watch.start()
        context = zmq.Context()
        gate = context.socket(zmq.ROUTER)
        gate.bind(ZAP)  # (before the relays: no handshake goes ahead undecided)
        ready = threading.Barrier(len(CHANNELS) + 1)
        budget = _Budget(process)
        relays = [threading.Thread(target=_relay, args=(context, name, client, kernel, ready,
                                                        budget),
                                   daemon=True, name=f"relay-{name}") for name in CHANNELS]
        relays.append(threading.Thread(target=_gatekeeper, args=(gate, _loopback(client)),
                                       daemon=True, name="relay-gatekeeper"))
        for relay in relays:
            relay.start()
        ready.wait()

        def stop(signum, frame):  # the client stops the kernel: stop it, then this
            process.terminate()
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # interrupts come as messages
        status = process.wait()
        said.join(timeout=5)  # (what it said last, passed on before this ends)
        watch.join()
        watch.undo()
        context.term()
        return status
    finally:
        with contextlib.suppress(OSError):  # (no other user in while it is put right)
            os.chmod(workdir, 0o700)
        for path, _inode in _special_files(workdir) - before:
            with contextlib.suppress(OSError):
                os.unlink(path)
        if "give_back" in locals():
            give_back()
        _restore_modes(workdir, modes)
        shutil.rmtree(scratch, ignore_errors=True)


def _loopback(client: dict) -> bool:
    try:
        return ipaddress.ip_address(client.get("ip", "127.0.0.1")).is_loopback
    except ValueError:  # (a host name)
        return client.get("ip") == "localhost"


def _modes(folder: Path) -> dict:
    """path -> (inode, mode) of ``folder`` and of everything beneath it (links not
    followed)."""
    paths = [str(folder)] + [os.path.join(root, name) for root, folders, files
                             in os.walk(folder) for name in folders + files]
    found = {}
    for path in paths:
        with contextlib.suppress(OSError):
            status = os.lstat(path)
            found[path] = (status.st_ino, stat.S_IMODE(status.st_mode))
    return found


def _restore_modes(folder: Path, before: dict) -> None:
    """Once the kernel has ended: what was in ``folder`` before (``_modes``) has its mode
    back, and what the kernel made there is writable by its owner alone, without setuid,
    setgid or sticky bits (``folder`` itself last: ``run`` closes it to other users first).

    The kernel's files stay in the course's folder, given back to its owner; a folder it
    made with ``chmod 0o777`` stayed writable by every user (or, run with the teacher's own
    rights, the notebook's folder itself), and a link another user then put there is
    followed by ``nbgrader generate_feedback``'s copy, outside the sandbox: the instructor's
    notebook into the student's feedback, as ``_special_files`` says (red team 17)."""
    now = _modes(folder)
    for path in sorted(now, key=lambda path: path == str(folder)):  # (the folder last)
        inode, mode = now[path]
        kept = before.get(path)
        wanted = kept[1] if kept and kept[0] == inode else mode & ~0o7022
        if wanted != mode:
            _change_mode(path, inode, wanted)


def _change_mode(path: str, inode: int, mode: int) -> None:
    """chmod ``path`` to ``mode`` if it is still the file or folder ``inode``, never through
    a link (os.chmod follows one: a link put there in the meantime would make root change
    the mode of what it points to)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return
    try:
        status = os.fstat(descriptor)
        if status.st_ino == inode and (stat.S_ISREG(status.st_mode)
                                       or stat.S_ISDIR(status.st_mode)):
            os.fchmod(descriptor, mode)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _special_files(folder: Path) -> set:
    """(path, inode) of what in ``folder`` is neither a regular file nor a folder: symbolic
    links, FIFOs, sockets, device files.

    The kernel may write in its notebook's folder, and its links point anywhere: a link it
    makes there is dangling inside the sandbox, but not for what reads the folder after it,
    outside. ``nbgrader generate_feedback`` copies every file of
    ``autograded/<student>/<assignment>/`` but the notebooks into the student's feedback
    with ``shutil.copy``, which follows links: a cell's ``os.symlink(".../source/ps1/
    ps1.ipynb", "notes.txt")`` handed the student the instructor's notebook, solutions and
    hidden tests (and a FIFO stopped the copying). Those the kernel made are removed when it
    ends (``run``); its regular files stay."""
    found = set()
    for root, folders, files in os.walk(folder):
        for name in folders + files:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                mode = os.lstat(path)
                if not (stat.S_ISREG(mode.st_mode) or stat.S_ISDIR(mode.st_mode)):
                    found.add((path, mode.st_ino))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=f"python -m {__name__}", description="Start an IPython kernel inside the "
        "minigrad kit's bubblewrap sandbox (the command of the kernel spec that "
        "`minigrad-kit kernelspec install` writes).")
    parser.add_argument("-f", dest="connection_file", required=True,
                        help="the connection file the Jupyter client wrote")
    parser.add_argument("--memory", type=int, default=4096, metavar="MB",
                        help="the kernel's memory limit (0: none; default 4096)")
    args = parser.parse_args(argv)
    return run(args.connection_file, args.memory)


if __name__ == "__main__":
    sys.exit(main())
