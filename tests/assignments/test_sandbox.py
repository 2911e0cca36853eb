"""The grading kernel's sandbox (bubblewrap): what a kernel can no longer reach.

These run real kernels under bwrap (installed by `make test`, like Chromium).
"""

import json
import os
import shutil
import socket
import subprocess
import sys

import pytest

from grader import sandbox
from grader.kernel import run_cells
from grader.sandbox import Sandbox, SandboxUnavailable, choose

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="bubblewrap is Linux only")

ON = Sandbox("bubblewrap")


def _probe(tmp_path, code: str, **kwargs):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    runs = run_cells([code], cwd=scratch, timeout=20, sandbox=ON, **kwargs)
    assert runs[0].status == "ok", runs[0].error
    return json.loads("".join(o.get("text", "") for o in runs[0].outputs))


def test_bubblewrap_works_here():
    assert shutil.which("bwrap"), "make test installs bubblewrap (tests/browser/install-browser.sh)"
    assert choose("auto") == ON
    assert choose("required") == ON


def test_a_sandboxed_kernel_cannot_see_the_grader_the_network_or_the_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGRAD_KIT_SALT", "s3cret-salt")
    monkeypatch.setenv("SOME_TOKEN", "hunter2")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    code = f"""
import json, os, socket
found = {{"pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit())}}
try:
    open("/proc/{os.getpid()}/cmdline", "rb").read()
    found["grader_cmdline"] = "read"
except OSError as error:
    found["grader_cmdline"] = type(error).__name__
for name, address in (("loopback", ("127.0.0.1", {port})), ("internet", ("1.1.1.1", 53))):
    try:
        socket.create_connection(address, timeout=2).close()
        found[name] = "connected"
    except OSError as error:
        found[name] = type(error).__name__
found["environ"] = dict(os.environ)
try:  # bwrap's own process (root's, when the grader is root: not readable then)
    found["proc_environ"] = open("/proc/1/environ", "rb").read().decode(errors="replace")
except PermissionError:
    found["proc_environ"] = ""
print(json.dumps(found))
"""
    try:
        found = _probe(tmp_path, code)
    finally:
        listener.close()
    assert os.getpid() not in found["pids"] and max(found["pids"]) < 10
    assert found["grader_cmdline"] == "FileNotFoundError"
    assert found["loopback"] == "ConnectionRefusedError"  # its own loopback, nobody listening
    assert found["internet"] in ("OSError", "TimeoutError", "ConnectionRefusedError")
    seen = json.dumps(found["environ"]) + found["proc_environ"]
    assert "s3cret-salt" not in seen and "hunter2" not in seen
    ipykernel_sets = {"PWD", "TERM", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "PAGER",
                      "GIT_PAGER", "PYDEVD_USE_FRAME_EVAL"}
    assert set(found["environ"]) - set(sandbox.sandbox_environment(tmp_path)) <= ipykernel_sets


def test_a_sandboxed_kernel_writes_only_its_scratch_folder(tmp_path):
    grader_cwd = os.getcwd()
    visible = tmp_path / "submissions"
    visible.mkdir()
    (visible / "bob.ipynb").write_text("bob's work", encoding="utf-8")
    targets = ["/tmp/minigrad-kit-escape", "/escape", "/usr/escape", "/dev/escape",
               "/dev/shm/escape", os.path.join(grader_cwd, "escape"),
               os.path.join(sys.prefix, "escape"), str(visible / "escape"),
               str(tmp_path / "escape"), os.path.join(os.path.dirname(sandbox.__file__),
                                                      "escape")]
    code = f"""
import json, os
found = {{}}
for path in {targets!r}:
    try:
        with open(path, "w") as file:
            file.write("x")
        found[path] = "written"
    except OSError as error:
        found[path] = type(error).__name__
with open("scratch.txt", "w") as file:
    file.write("mine")
found["cwd"] = os.getcwd()
try:
    found["bob"] = open({str(visible / "bob.ipynb")!r}).read()
except OSError as error:
    found["bob"] = type(error).__name__
found["kit_notebooks"] = os.path.exists({os.path.join(os.path.dirname(
    os.path.dirname(os.path.dirname(sandbox.__file__))), "notebooks")!r})
import minigrad, numpy
found["imports"] = "ok"
print(json.dumps(found))
"""
    try:
        found = _probe(tmp_path, code)
    finally:  # (were the sandbox broken, leave nothing behind)
        escaped = [path for path in targets if os.path.isfile(path)]
        for path in escaped:
            os.unlink(path)
    assert escaped == []
    for path in targets:
        assert found[path] != "written", path
    assert found["bob"] == "FileNotFoundError"  # other folders are not even there
    assert found["kit_notebooks"] is False  # the instructor notebooks neither
    assert found["cwd"] == str((tmp_path / "scratch").resolve())
    assert (tmp_path / "scratch" / "scratch.txt").read_text() == "mine"
    assert found["imports"] == "ok"


def test_processes_a_kernel_starts_die_with_it(tmp_path):
    code = """
import subprocess
subprocess.Popen(["sleep", "1000"], start_new_session=True)
import os; print('{"pid": %d}' % os.getpid())
"""
    _probe(tmp_path, code)
    leftovers = [p for p in os.listdir("/proc") if p.isdigit()
                 and _cmdline(p) == b"sleep\x001000\x00"]
    assert leftovers == []


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read()
    except OSError:
        return b""


def test_timeouts_and_interrupts_still_work_in_the_sandbox(tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    runs = run_cells(["import time\ntime.sleep(60)", "print('after')"], cwd=scratch, timeout=2,
                     sandbox=ON)
    assert runs[0].status == "timeout"
    assert runs[1].status == "ok" and runs[1].outputs[0]["text"] == "after\n"


def test_without_bubblewrap_auto_grades_unsandboxed_and_says_why(monkeypatch):
    sandbox._bubblewrap_works.cache_clear()
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    try:
        chosen = choose("auto")
        assert not chosen.on and "bwrap is not installed" in chosen.reason
        assert chosen.describe().startswith("OFF: bubblewrap could not be used")
        with pytest.raises(SandboxUnavailable, match="--sandbox required, but bwrap is not "
                                                     "installed; the grader's sandbox needs"):
            choose("required")
    finally:
        sandbox._bubblewrap_works.cache_clear()
    assert "--sandbox off was chosen" in choose("off").reason
    with pytest.raises(ValueError, match="--sandbox must be one of auto, required, off"):
        choose("maybe")


def test_students_code_runs_minigrads_numpy_steps_not_its_compiled_loops(tmp_path):
    # (numba would compile them again for each submission, with no folder to keep them
    # in, against the cells' time, and read files the run is not shown: session 20's
    # compiled sums made honest work score 0 without the sandbox, red team 16's test)
    from grader.kernel import kernel_environment

    for environment in (sandbox.sandbox_environment(tmp_path), kernel_environment()):
        assert environment["MINIGRAD_NUMBA"] == "0"
        seen = subprocess.run([sys.executable, "-c", "from minigrad.kernels import compiled; "
                               "print(compiled.AVAILABLE)"], capture_output=True, text=True,
                              env={**environment, "PYTHONPATH": os.pathsep.join(sys.path)},
                              cwd=tmp_path, timeout=120)
        assert seen.stdout.strip() == "False", seen.stderr
