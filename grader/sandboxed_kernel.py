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
TCP connection is decided alone, before a byte of it reaches ZeroMQ (``_Door``): the
launcher accepts it itself and passes its bytes on, both ways, to the relay's own Unix
socket in a folder of its user's alone, only when the socket at its other end, the one
with its two addresses in ``/proc/net/tcp``, is its user's, the user of the client that
wrote the connection file (``_owner``); another user's connection is closed at once.
(Red team 17 decided each ZeroMQ handshake by every socket connected to the port, as ZAP
does not say which connection it asks about: while another user's socket was connected,
the client's own handshake was refused too, and a classmate could hold a grading back
for as long as they liked, red team 18.)

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

What the launcher puts right once the kernel has ended (its links and special files in
the notebook's folder removed, modes restored, the folder given back to its owner, the
scratch folder removed) must not wait on the launcher itself: a client that stops a kernel
kills the launcher's process group with SIGKILL when it does not end in time (jupyter_client,
or nbclient's ``shutdown_kernel = "immediate"``), and a SIGKILLed launcher left the
notebook's folder owned by the sandbox's user and writable by every user, and a link made
by the student to the instructor's notebook, for ``nbgrader generate_feedback`` to copy
(red team 18, measured). A keeper (``_Keeper``), forked first, in a session of its own, holds
the sandbox's processes (pidfds of bubblewrap and of the sandbox's first process, which
ends only once every process of its PID namespace has) and waits for the launcher: ended
without saying it is done, the launcher is followed by the keeper killing what is left of
the sandbox and doing the same clean-up.

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
import select
import shutil
import signal
import socket
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
TCP_TABLES = ("/proc/net/tcp", "/proc/net/tcp6")
TIME_WAIT = "06"  # (a closed connection's row: owned by root, whoever had it)
COPY_BYTES = 1 << 16
DONE = b"done"  # the launcher to its keeper: cleaned up, nothing left to do


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


def _front(client: dict, channel: str, private: Path) -> str:
    """Where the relay of ``channel`` takes the client's messages: the client's own address
    where it is a Unix socket (the client's folder decides who reaches it), else a Unix
    socket in ``private``, the launcher's user's alone, reached through ``_Door``."""
    if client.get("transport", "tcp") == "ipc":
        return _address(client, channel)
    return f"ipc://{private / channel}"


def _relay(context, channel: str, client: dict, kernel: dict, ready: threading.Barrier,
           budget: "_Budget", private: Path):
    outer, inner = CHANNELS[channel]
    front, back = context.socket(outer), context.socket(inner)
    if outer == zmq.XPUB:
        front.setsockopt(zmq.XPUB_VERBOSE, 1)  # each client's subscription reaches the kernel
    else:
        back.setsockopt(zmq.IDENTITY, RELAY_IDENTITY)
    front.bind(_front(client, channel, private))
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


class _Door(threading.Thread):
    """The client's TCP port of one channel: each connection to it is let through to the
    relay's Unix socket ``inside`` (its bytes copied both ways) when ``_owner`` says the
    socket at its other end is this launcher's user's; any other is closed at once, and so
    is one whose other end this machine's network namespace does not show (``_owner`` None:
    another machine's, or another namespace's, a container's on the same host). The client
    started this launcher, on this machine, in this namespace: on a port bound to every
    address (the client's ``ip`` ``0.0.0.0``, or the machine's own address) such
    connections went through, and read the cells nbgrader ran (red team 19)."""

    def __init__(self, client: dict, channel: str, inside: Path):
        super().__init__(daemon=True, name=f"door-{channel}")
        host = client.get("ip", "127.0.0.1")
        host = "0.0.0.0" if host in ("*", "") else host
        family, kind, protocol, _name, address = socket.getaddrinfo(
            host, client[f"{channel}_port"], type=socket.SOCK_STREAM)[0]
        self.listener = socket.socket(family, kind, protocol)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(address)
        self.listener.listen(16)
        self.inside = str(inside)

    def run(self) -> None:
        while True:
            try:
                connection, _peer = self.listener.accept()
            except OSError:
                return
            try:
                owner = _owner(connection.getpeername()[:2], connection.getsockname()[:2])
                if owner != os.getuid():
                    connection.close()
                    continue
                relay = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                relay.connect(self.inside)
            except OSError:
                connection.close()
                continue
            for one, other in ((connection, relay), (relay, connection)):
                threading.Thread(target=_copy, args=(one, other), daemon=True,
                                 name="door-copy").start()


def _copy(source, target) -> None:
    """Bytes from ``source`` to ``target`` until either ends; then both are shut."""
    try:
        while data := source.recv(COPY_BYTES):
            target.sendall(data)
    except OSError:
        pass
    for end in (source, target):
        with contextlib.suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)
    source.close()


def _owner(peer: tuple, local: tuple, tables=TCP_TABLES) -> int | None:
    """The user of the socket of this machine whose own address is ``peer`` and whose
    remote one is ``local`` (one TCP connection's two ends, as /proc/net/tcp lists them),
    or None where no socket of this machine is that end (the peer is on another machine)."""
    wanted = (_host(peer[0]), int(peer[1]), _host(local[0]), int(local[1]))
    for table in tables:
        try:
            with open(table, encoding="ascii") as file:
                lines = file.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 7 and fields[3] != TIME_WAIT and \
                    (*_proc_address(fields[1]), *_proc_address(fields[2])) == wanted:
                return int(fields[7])
    return None


def _host(text: str):
    """An address as one value whichever way it is written (IPv4 mapped into IPv6 as IPv4)."""
    address = ipaddress.ip_address(text.split("%")[0])
    return getattr(address, "ipv4_mapped", None) or address


def _proc_address(field: str) -> tuple:
    """/proc/net/tcp's ``0100007F:1F90`` (the address's 32-bit words each in the machine's
    byte order; the port in hexadecimal) as (address, port)."""
    hexadecimal, port = field.split(":")
    raw = bytes.fromhex(hexadecimal)
    if sys.byteorder == "little":
        raw = b"".join(raw[at:at + 4][::-1] for at in range(0, len(raw), 4))
    return _host(str(ipaddress.ip_address(raw))), int(port, 16)


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

    def __init__(self, folders, process=None):
        super().__init__(daemon=True, name="write-watch")
        self.process, self.folders, self.over = process, folders, ""
        self.before = _entries(folders, 1 << 62)
        self.most = len(self.before) + NEW_ENTRIES
        self.start_bytes = sum(self.before.values())

    def check(self) -> str:
        """Why the folders are past their bounds now ("" if they are not)."""
        now = _entries(self.folders, self.most + 1)
        if len(now) > self.most:
            self.over = f"made more than {NEW_ENTRIES:,} files and folders"
        elif sum(now.values()) - self.start_bytes > WRITE_BYTES:
            self.over = f"wrote more than {WRITE_BYTES >> 20} MB"
        return self.over

    def run(self) -> None:
        while self.process.poll() is None:
            if self.check():
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


class Refused(SystemExit):
    """The client's connection file asks for what the launcher will not do."""


def _client_sockets(client: dict, lent: Path) -> dict:
    """``client`` with its Unix sockets' path (``ip`` of the ``ipc`` transport) made absolute
    as the client means it: relative to the client's own working folder (jupyter_client's
    default is ``kernel-ipc``), which is this launcher's parent's, not this launcher's (the
    notebook's folder: there the relays bound sockets the client never found, and the kernel
    waited for good, red team 19). Refused (``Refused``) where that folder is one the
    kernel is lent (``lent``), or one another user may write: whoever may write there may
    put a socket of their own at that path, which the client then talks to."""
    if client.get("transport", "tcp") != "ipc":
        return client
    path = str(client.get("ip") or "kernel-ipc")
    if not os.path.isabs(path):
        path = os.path.join(os.readlink(f"/proc/{os.getppid()}/cwd"), path)
    folder = Path(os.path.realpath(os.path.dirname(path)))
    mode = folder.stat()
    kernels = folder == lent or lent in folder.parents
    if kernels or mode.st_uid != os.getuid() or mode.st_mode & 0o022:
        raise Refused(f"{STDERR_PREFIX}refused: the client's Unix sockets ({path}-*) would be "
                      f"in {folder}, which {'the kernel' if kernels else 'another user'} may "
                      "write to; give the kernel manager a folder of your own "
                      "(--KernelManager.ip=/a/folder/of/yours/kernel)")
    return {**client, "ip": os.path.join(folder, os.path.basename(path))}


def run(connection_file: str, memory_mb: int = 4096) -> int:
    workdir = Path.cwd().resolve()
    client = _client_sockets(json.loads(Path(connection_file).read_text(encoding="utf-8")),
                             workdir)
    scratch = Path(tempfile.mkdtemp(prefix="minigrad-kit-kernel-"))
    private = Path(tempfile.mkdtemp(prefix="minigrad-kit-relay-"))  # (0700: the relays')
    kernel = _kernel_connection(client, scratch)
    (scratch / "connection.json").write_text(json.dumps(kernel), encoding="utf-8")
    user = sandbox_user()
    hand_over(user, scratch, scratch / "connection.json")
    watch = _Watch((workdir, scratch))
    state = _Left(workdir, (scratch, private), _special_files(workdir), _modes(workdir),
                  _lend(workdir, user), watch)
    keeper = _Keeper(state)  # (forked before any thread: it does state.clean() if this dies)
    try:
        argv = bubblewrap_argv(scratch, kernel_command(str(scratch / "connection.json"), user),
                               workdir)
        environment = sandbox_environment(scratch)
        command = argv.index("--")
        if "JPY_SESSION_NAME" in os.environ:  # which notebook (its language), as Lab says
            argv[command:command] = ["--setenv", "JPY_SESSION_NAME",
                                     os.environ["JPY_SESSION_NAME"]]
            command = argv.index("--")
        told, info = os.pipe()  # (bwrap writes the sandbox's first process's pid there)
        argv[command:command] = ["--info-fd", str(info)]
        # started before any thread (a memory limit set between fork and exec), the relays
        # next: ZeroMQ queues what the client sends until both ends are there
        process = subprocess.Popen(argv, env=environment, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL,  # (its banner)
                                   stderr=subprocess.PIPE, preexec_fn=_limits(memory_mb),
                                   pass_fds=(info,))
        os.close(info)
        keeper.hold(process.pid, _first_process(told))
        said = threading.Thread(target=_pass_on, args=(process.stderr,), daemon=True,
                                name="kernel-stderr")
        said.start()
        watch.process = process
        watch.start()
        context = zmq.Context()
        ready = threading.Barrier(len(CHANNELS) + 1)
        budget = _Budget(process)
        relays = [threading.Thread(target=_relay, args=(context, name, client, kernel, ready,
                                                        budget, private),
                                   daemon=True, name=f"relay-{name}") for name in CHANNELS]
        for relay in relays:
            relay.start()
        ready.wait()
        if client.get("transport", "tcp") == "tcp":
            for name in CHANNELS:
                _Door(client, name, private / name).start()

        def stop(signum, frame):  # the client stops the kernel: stop it, then this
            process.terminate()
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # interrupts come as messages
        status = process.wait()
        said.join(timeout=5)  # (what it said last, passed on before this ends)
        watch.join()
        context.term()
        return status
    finally:
        state.clean()
        keeper.release()


class _Left:
    """What the kernel may leave that is put right once it has ended (``clean``): in the
    notebook's folder ``workdir``, the special files it made (``_special_files``: ``before``
    were there) and the modes it changed (``modes``, ``_restore_modes``), the folder given
    back (``give_back``, ``_lend``), what it wrote past the ``watch``'s bounds, and the
    launcher's own ``folders`` (the scratch folder, the relays')."""

    def __init__(self, workdir: Path, folders, before: set, modes: dict, give_back, watch):
        self.workdir, self.folders, self.before, self.modes = workdir, folders, before, modes
        self.give_back, self.watch = give_back, watch

    def clean(self) -> None:
        self.watch.undo()
        with contextlib.suppress(OSError):  # (no other user in while it is put right)
            os.chmod(self.workdir, 0o700)
        for path, _inode in _special_files(self.workdir) - self.before:
            with contextlib.suppress(OSError):
                os.unlink(path)
        self.give_back()
        _restore_modes(self.workdir, self.modes)
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)


class _Keeper:
    """A process forked from the launcher, in a session of its own (a client's SIGKILL of
    the launcher's process group does not reach it), that outlives the launcher: told the
    sandbox's processes (``hold``: pidfds of bubblewrap and of the sandbox's first process),
    it waits for the launcher to say it is done (``release``). Should the launcher end
    without saying so (SIGKILL), the keeper kills those processes, waits until the first
    one has ended (once every process of its PID namespace has), and does ``left.clean()``
    itself (red team 18)."""

    def __init__(self, left: _Left):
        self.line, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.pid = os.fork()
        if self.pid == 0:
            self.line.close()
            status = 1
            try:
                os.setsid()
                _keep(theirs, left)
                status = 0
            finally:
                os._exit(status)
        theirs.close()

    def hold(self, *pids: int) -> None:
        """Tell the keeper the sandbox's processes (while they are this process's children
        and grandchildren, so that no other process has their numbers yet)."""
        handles = []
        for pid in pids:
            with contextlib.suppress(OSError, AttributeError):
                handles.append(os.pidfd_open(pid))
        socket.send_fds(self.line, [b"p"], handles)
        for handle in handles:
            os.close(handle)

    def release(self) -> None:
        """Tell the keeper that everything is put right, and let it end."""
        with contextlib.suppress(OSError):
            self.line.sendall(DONE)
            self.line.shutdown(socket.SHUT_WR)
            self.line.recv(1)  # (its end: it has read the word)
        self.line.close()
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)


def _keep(line, left: _Left) -> None:
    """The keeper's life (see ``_Keeper``)."""
    for stream in (0, 1):  # (the launcher's standard output may be the client's pipe)
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_RDWR), stream)
    handles, heard = [], b""
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(line, 16, 8)
        except OSError:
            data, fds = b"", []
        handles += fds
        heard += data
        if not data:
            break
    if heard.endswith(DONE):
        return
    for handle in handles:
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(handle, signal.SIGKILL)
    for handle in handles:
        select.select([handle], [], [], 30)  # (readable once that process has ended)
    if not handles:
        time.sleep(2)  # (no pidfds on this system: --die-with-parent's kill, given time)
    left.watch.check()
    left.clean()


def _first_process(told: int) -> int:
    """The pid of the sandbox's first process, as bubblewrap's ``--info-fd`` says it (0 if it
    said nothing: it failed to start)."""
    said = b""
    with os.fdopen(told, "rb") as stream:
        while chunk := stream.read(4096):
            said += chunk
    try:
        return int(json.loads(said)["child-pid"])
    except (ValueError, KeyError, TypeError):
        return 0


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
