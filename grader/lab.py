"""``minigrad-kit lab FOLDER``: the lessons in JupyterLab, with a short summary.

The learner's copy of the lessons is made once (``kit.copy_lessons``, as
``minigrad-kit lessons`` makes it) and kept from then on. JupyterLab is started
on it with a token of our own, in the environment (``JUPYTER_TOKEN``: other
users of the machine cannot read it off the command line), so the address can
be printed as soon as the server answers; JupyterLab's own log goes to a file.
The lessons open in the language of the locale (``LANG=zh_CN.UTF-8``: the
Chinese lessons in ``FOLDER/zh/``), and so do JupyterLab's own menus; the "get
notified about Jupyter news?" pop-up, which would cover the first lesson, is
switched off. Both are JupyterLab settings given as defaults (``lab_defaults``),
as ``make lab`` writes them into ``.venv`` for a clone: a ``pip install`` of the
kit gets them too, and the learner's own settings still win.

What it prints (in the learner's language)::

    Lessons copied to my-lessons/: your own copy, kept from now on.
    JupyterLab is running: http://localhost:8888/lab/tree/my-lessons/00_start_here.ipynb?token=...
    Its log: .venv/lab.log. Ctrl-C stops it.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from kit_i18n import language

from . import lab_style
from .i18n import _
from .signals import default_interrupts, restore_interrupts
from .kit import copy_lessons, trust_lessons

__all__ = ["run_lab", "LabError", "START_SECONDS"]

START_SECONDS = 120  # how long JupyterLab may take to answer
FIRST_LESSON = "00_start_here.ipynb"
# JupyterLab's locale for each language of the lessons (its language packs come with the kit)
LAB_LOCALES = {"en": "en", "zh": "zh_CN", "ko": "ko_KR"}


class LabError(RuntimeError):
    """JupyterLab could not be started (the message says why and where its log is)."""


def _free_port(first: int = 8888, tries: int = 50) -> int:
    """The first port from ``first`` on that nothing on this machine listens on."""
    for port in range(first, first + tries):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:  # all taken: any free one
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def lessons_ready(folder: Path, lang: str) -> list[str]:
    """Copy the lessons into ``folder`` unless it holds them already; what to say about it."""
    first = folder / ("" if lang == "en" else lang) / FIRST_LESSON
    if (folder / FIRST_LESSON).exists():
        if not first.exists():
            raise LabError(_("{folder}/ has no lessons in {lang} (it was copied before they "
                             "existed): delete it, or copy them with minigrad-kit lessons "
                             "another-folder").format(folder=folder, lang=lang))
        return [_("{folder}/ exists: your copy of the lessons is kept (delete {folder}/ for "
                  "fresh ones).").format(folder=folder)]
    written = copy_lessons(folder)
    said = _("Lessons copied to {folder}/: your own copy, kept from now on.").format(
        folder=folder)
    try:
        trust_lessons(written)
    except OSError as error:  # no writable Jupyter data folder: they still work
        said += " " + _("(They could not be marked trusted: {error}.)").format(error=error)
    return [said]


def lab_defaults(folder: Path, lang: str) -> Path:
    """A Jupyter configuration folder (for ``JUPYTER_CONFIG_PATH``) whose
    ``labconfig/default_setting_overrides.json`` sets JupyterLab's menus in ``lang`` and
    switches its news pop-up off, and whose ``jupyter_server_config.json`` switches on the
    kit's style sheet (``grader.lab_style``: printed lines break between words). JupyterLab
    layers these defaults over the environment's ``overrides.json``; the learner's own
    settings (the Settings menu) still win."""
    config = folder / ".jupyter-lab-config"
    path = config / "labconfig" / "default_setting_overrides.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                        "checkForUpdates": False},
        "@jupyterlab/translation-extension:plugin": {"locale": LAB_LOCALES[lang]},
    }, indent=1) + "\n", encoding="utf-8")
    # printed lines (tracebacks too) broken between words: grader.lab_style's style sheet
    (config / "jupyter_server_config.json").write_text(json.dumps({
        "ServerApp": {"jpserver_extensions": {lab_style.EXTENSION: True}},
        "LabApp": {"custom_css": True},
    }, indent=1) + "\n", encoding="utf-8")
    return config


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _tail(path: Path, lines: int = 25) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def run_lab(folder, log, *, port: int | None = None, say=print,
            command: list[str] | None = None) -> int:
    """Copy the lessons if needed, start JupyterLab on the first one, print its address,
    and wait until it stops (Ctrl-C, as always with JupyterLab); its exit status."""
    folder, log = Path(folder), Path(log)
    lang = language()
    for line in lessons_ready(folder, lang):
        say(line)
    first = (folder / ("" if lang == "en" else lang) / FIRST_LESSON).resolve()
    root = Path.cwd().resolve()
    if not first.is_relative_to(root):  # lessons outside the current folder: serve theirs
        root = folder.resolve()
    _compile_kernels(log)
    token = secrets.token_hex(24)
    command = command or [sys.executable, "-m", "jupyter", "lab"]
    given = port
    port = port or _free_port()
    for attempt in range(10):
        try:
            return _serve(command, first, root, port, token, log, folder, lang, say)
        except _PortTaken:
            # (another program took the free port between the check and JupyterLab's
            # start: two labs started at once; the next free one, unless it was asked for)
            if given or attempt == 9:
                break
            port = _free_port(port + 1)
    raise _not_started(log)


def _compile_kernels(log: Path) -> None:
    """Compile minigrad's numba loops in the background (``compiled.warm``) while
    JupyterLab starts and the learner reads the first lesson, so that the first softmax
    of a lesson does not wait seconds for it (once per machine: numba keeps them on disk;
    later it only loads them). Its output, if any, goes to JupyterLab's log."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a", encoding="utf-8") as stream:
        subprocess.Popen([sys.executable, "-c", WARM], stdin=subprocess.DEVNULL,
                         stdout=stream, stderr=stream)


WARM = "from minigrad.kernels import compiled; compiled.warm()"


def _not_started(log: Path) -> LabError:
    return LabError(_("JupyterLab did not start; the end of its log ({log}):").format(log=log)
                    + "\n" + _tail(log))


class _PortTaken(Exception):
    """JupyterLab stopped at once: the port it was given was in use."""


def _serve(command, first: Path, root: Path, port: int, token: str, log: Path, folder: Path,
           lang: str, say) -> int:
    """Start JupyterLab on ``port``, say its address once it answers, and wait until it
    stops; its exit status."""
    argv = command + [str(first), f"--ServerApp.root_dir={root}", f"--ServerApp.port={port}",
                      "--ServerApp.port_retries=0", "--ServerApp.ip=localhost"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")  # JupyterLab refuses root unless told (as in containers)
    log.parent.mkdir(parents=True, exist_ok=True)
    written = log.stat().st_size if log.exists() else 0
    # Ctrl-C must reach JupyterLab whatever this process inherited (SIGINT blocked by a
    # library, or ignored): a child inherits both, and would then never stop on it.
    inherited = default_interrupts()
    try:
        with open(log, "a", encoding="utf-8") as stream:
            # stdout stays on the terminal: JupyterLab asks there whether to stop on Ctrl-C
            config = [str(lab_defaults(folder, lang).resolve()),
                      *filter(None, os.environ.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep))]
            server = subprocess.Popen(argv, stderr=stream, env={
                **os.environ, "JUPYTER_TOKEN": token,
                "JUPYTER_CONFIG_PATH": os.pathsep.join(config)})
    except BaseException:
        restore_interrupts(inherited)
        raise
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is JupyterLab's to answer
    stopped = signal.signal(signal.SIGTERM, lambda signum, frame: server.terminate())
    try:
        status = f"http://localhost:{port}/api/status?token={token}"
        deadline = time.monotonic() + START_SECONDS
        while not _answers(status):
            if server.poll() is not None or time.monotonic() > deadline:
                server.terminate()
                if server.poll() is not None and _port_was_taken(log, written, port):
                    raise _PortTaken()
                raise _not_started(log)
            time.sleep(0.3)
        page = first.relative_to(root).as_posix()
        address = f"http://localhost:{port}/lab/tree/{page}?token={token}"
        say(_("JupyterLab is running: {url}").format(url=address))
        say(_("Its log: {log}. Ctrl-C stops it.").format(log=log))
        return server.wait()
    finally:
        restore_interrupts(inherited)
        signal.signal(signal.SIGTERM, stopped)
        if server.poll() is None:
            server.terminate()


def _port_was_taken(log: Path, written: int, port: int) -> bool:
    """The log's lines since ``written`` say JupyterLab found ``port`` in use."""
    try:
        with open(log, encoding="utf-8", errors="replace") as stream:
            stream.seek(written)
            return f"port {port} is not available" in stream.read()
    except OSError:
        return False
