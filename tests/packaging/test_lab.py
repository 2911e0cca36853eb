"""`minigrad-kit lab` (what `make lab` runs): the lessons copied once, JupyterLab started on
the first lesson, and a short summary on the terminal (the address, where the log is), with
JupyterLab's own log in a file. Run for real: a JupyterLab server in a temporary folder,
asked for the printed address, then stopped with Ctrl-C as a learner stops it."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from grader import lab, lab_style
from grader.lab import LabError, lessons_ready
from kit_i18n import speaking

pytestmark = pytest.mark.slow


def _start(home: Path, lang: str, *log: str):
    env = dict(os.environ, LANG=lang, LANGUAGE="", LC_ALL="", LC_MESSAGES="",
               JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"))
    return subprocess.Popen([sys.executable, "-m", "grader", "lab", "my-lessons", *log],
                            cwd=home, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def _lines_until_running(server, seconds=180) -> list[str]:
    lines, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if "http://localhost:" in line:
            lines.append(server.stdout.readline().rstrip("\n"))
            return lines
    server.kill()
    raise AssertionError(f"no address printed: {lines}")


def _stop(server) -> int:
    """Ctrl-C, as at the terminal (the whole process group gets it; JupyterLab, whose input is
    not a terminal here, stops without asking)."""
    os.killpg(server.pid, signal.SIGINT)
    try:
        return server.wait(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)


@pytest.mark.parametrize("lang, folder, copied", [
    ("C.UTF-8", "", "Lessons copied to my-lessons/: your own copy, kept from now on."),
    ("zh_CN.UTF-8", "zh/", "课程已复制到 my-lessons/：这是你自己的副本，以后会一直保留。"),
])
def test_lab_copies_the_lessons_starts_jupyterlab_and_says_where(tmp_path, lang, folder, copied):
    own = tmp_path / "config" / "custom" / "custom.css"  # the learner's own style sheet
    own.parent.mkdir(parents=True)
    own.write_text("/* the learner's own */\n", encoding="utf-8")
    server = _start(tmp_path, lang, "--log", "lab.log")
    said = _lines_until_running(server)
    try:
        assert said[0] == copied
        address = said[1].split(" ")[-1].split("：")[-1]
        assert address.startswith("http://localhost:") and (
            f"/lab/tree/my-lessons/{folder}00_start_here.ipynb?token=" in address), said
        token = address.split("token=")[1]
        assert len(token) == 48  # our own token, given to JupyterLab in its environment
        with urllib.request.urlopen(address, timeout=30) as page:
            assert page.status == 200 and b"JupyterLab" in page.read()
        # JupyterLab's own menus in the lessons' language, and no news pop-up over the first
        # lesson, without `make lab`'s overrides.json (a pip install has none): its defaults
        # as the server gives them to the page (it was English, with the pop-up, for pip users)
        base = address.split("/lab/")[0]
        defaults = {}
        for plugin in ("@jupyterlab/translation-extension:plugin",
                       "@jupyterlab/apputils-extension:notification"):
            with urllib.request.urlopen(f"{base}/lab/api/settings/{plugin}?token={token}",
                                        timeout=30) as answer:
                schema = json.load(answer)["schema"]["properties"]
            defaults.update({key: value.get("default") for key, value in schema.items()})
        assert defaults["locale"] == ("zh_CN" if folder else "en"), defaults
        assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False
        # printed lines break between words (grader.lab_style, audit 21: a pip install has
        # no custom.css of the kit's in the learner's Jupyter folder); the learner's own after
        with urllib.request.urlopen(address, timeout=30) as page:
            assert b"custom/custom.css" in page.read()
        with urllib.request.urlopen(f"{base}/custom/custom.css?token={token}",
                                    timeout=30) as answer:
            css = answer.read().decode()
        assert css.startswith(lab_style.CSS) and css.endswith("/* the learner's own */\n"), css
        assert "word-break: normal" in lab_style.CSS
        assert said[2].endswith("lab.log" + ("。按 Ctrl-C 停止。" if folder else
                                            ". Ctrl-C stops it."))
        assert len(said) == 3  # the summary only: JupyterLab's own lines went to the log
    finally:
        status = _stop(server)
    assert status == 0
    log = (tmp_path / "lab.log").read_text()
    assert "Jupyter Server" in log and "is running at" in log
    lessons = tmp_path / "my-lessons"
    assert (lessons / "00_start_here.ipynb").is_file() and (lessons / "zh" / "00_start_here.ipynb"
                                                            ).is_file()
    assert (lessons / "assignments" / "01_derive_it_by_hand.ipynb").is_file()


def test_the_log_defaults_into_the_lessons_and_a_stopped_kit_stops_jupyterlab(tmp_path):
    """Without --log, JupyterLab's log is kept beside the lessons (a hidden file, not in the
    folder the learner happened to start from); a SIGTERM to the kit's own process (a closed
    terminal, a service manager) stops JupyterLab with it, leaving no server behind."""
    server = _start(tmp_path, "C.UTF-8")
    said = _lines_until_running(server)
    try:
        log = tmp_path / "my-lessons" / ".jupyter-lab.log"
        assert said[2] == "Its log: my-lessons/.jupyter-lab.log. Ctrl-C stops it."
        address = said[1].split(" ")[-1]
        port = int(address.split("localhost:")[1].split("/")[0])
        server.send_signal(signal.SIGTERM)  # the kit's process only, not its group
        server.wait(timeout=60)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://localhost:{port}/api/status", timeout=2)
            except urllib.error.HTTPError:  # it answers (without the token: 403)
                pass
            except OSError:  # nothing listens any more
                break
            time.sleep(0.5)
        else:
            raise AssertionError("JupyterLab still answers after the kit was stopped")
        assert "is running at" in log.read_text()
        assert not (tmp_path / "jupyter-lab.log").exists()
    finally:
        try:
            os.killpg(server.pid, signal.SIGKILL)
        except ProcessLookupError:  # the group is gone, as it should be
            pass


def test_a_second_start_keeps_the_learners_copy(tmp_path):
    lessons = tmp_path / "my-lessons"
    with speaking("en"):
        first = lessons_ready(lessons, "en")
        mine = lessons / "01_a_scalar_by_hand.ipynb"
        mine.write_text(mine.read_text().replace("A scalar by hand", "My own notes"))
        again = lessons_ready(lessons, "en")
    assert first == ["Lessons copied to {}/: your own copy, kept from now on.".format(lessons)]
    assert again == [f"{lessons}/ exists: your copy of the lessons is kept (delete {lessons}/ "
                     "for fresh ones)."]
    assert "My own notes" in mine.read_text()


def test_a_copy_made_before_the_translations_is_explained(tmp_path):
    lessons = tmp_path / "my-lessons"
    lessons.mkdir()
    (lessons / "00_start_here.ipynb").write_text("{}")
    with speaking("en"), pytest.raises(LabError, match=r"has no lessons in ko \(it was copied "
                                                       r"before they existed\): delete it"):
        lessons_ready(lessons, "ko")


def test_ctrl_c_stops_jupyterlab_whatever_sigint_the_kit_inherited(tmp_path, inherited_sigint):
    """A process inherits SIGINT ignored (a job started in the background) or blocked (by a
    library's thread): JupyterLab, the kit's child, must still stop on Ctrl-C."""
    with inherited_sigint():
        server = _start(tmp_path, "C.UTF-8", "--log", "lab.log")
    try:
        _lines_until_running(server)
    finally:
        status = _stop(server)
    assert status == 0


def test_a_port_taken_after_it_was_found_free_moves_to_the_next(tmp_path, monkeypatch):
    """Two labs started at once both find the same port free, and one JupyterLab then finds
    it taken: that one is started again on the next free port (it failed, and the test
    run beside it too, when xdist started two of these tests together)."""
    import socket
    import threading

    from grader import lab, lab_style

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    busy = taken.getsockname()[1]
    real = lab._free_port
    asked = []

    def first_the_taken_one(first=8888, tries=50):
        asked.append(first)
        return busy if len(asked) == 1 else real(first, tries)

    monkeypatch.setattr(lab, "_free_port", first_the_taken_one)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR",
                 "JUPYTERLAB_WORKSPACES_DIR"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.chdir(tmp_path)
    said = []

    def say(line):
        said.append(line)
        if "token=" in line:  # running: stop it as a closed terminal stops the kit
            threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()

    try:
        with speaking("en"):
            status = lab.run_lab(tmp_path / "my-lessons", tmp_path / "lab.log", say=say)
    finally:
        taken.close()
    address = next(line for line in said if "token=" in line)
    assert status == 0 and asked[1] == busy + 1
    assert f"localhost:{busy}/" not in address and "localhost:" in address
    assert f"port {busy} is not available" in (tmp_path / "lab.log").read_text()


def test_lab_compiles_minigrads_loops_in_the_background(tmp_path, monkeypatch):
    # (so that a lesson's first softmax does not wait seconds for numba: started before
    # JupyterLab, its output into JupyterLab's log, the learner's terminal left alone)
    started = []
    monkeypatch.setattr(lab.subprocess, "Popen",
                        lambda argv, **options: started.append((argv, options)))
    lab._compile_kernels(tmp_path / "logs" / "lab.log")
    monkeypatch.undo()  # (lab.subprocess is the subprocess module the run below needs)
    (argv, options), = started
    assert options["stdin"] is subprocess.DEVNULL
    assert options["stdout"].name == options["stderr"].name == str(tmp_path / "logs" / "lab.log")
    run = subprocess.run(argv, capture_output=True, text=True, timeout=600)  # for real
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    checked = subprocess.run([sys.executable, "-c", "from minigrad.kernels import compiled; "
                              "compiled.warm(); print(compiled.softmax_rows.signatures != [])"],
                             capture_output=True, text=True, timeout=600)
    assert checked.stdout.strip() == "True", checked.stderr
