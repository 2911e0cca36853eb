"""The progress bar of `grade` and `release`: on a terminal, done/total, the time left and the
failures so far; anywhere else, not a character of it (and the files written are the same).

The terminal is a real pseudo-terminal of 100 columns, as a teacher's would be."""

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from samples import SAMPLES, build

from grader import notebook as nbg

pytestmark = pytest.mark.slow
SOURCE = BY_ASSIGNMENT["derive_it_by_hand"]


def _kit(*args, terminal: bool, cwd):
    """Run `minigrad-kit ARGS` with its standard error on a terminal or a pipe; (exit status,
    stdout, stderr)."""
    command = [sys.executable, "-m", "grader", *map(str, args)]
    if not terminal:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
        return done.returncode, done.stdout, done.stderr
    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=secondary,
                               stdin=subprocess.DEVNULL, text=True)
    os.close(secondary)
    said = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        said += chunk
    stdout = process.stdout.read()
    process.wait(timeout=900)
    os.close(main)
    return process.returncode, stdout, said.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def submitted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submitted")
    released = nbg.student_version(nbformat.read(SOURCE, as_version=4))
    for name in ("correct", "partial", "wrong"):
        nbformat.write(build(released, SAMPLES[name]), folder / f"{name}.ipynb")
    (folder / "broken.ipynb").write_text("{ not JSON")
    return folder


SALT = "the same for both runs"  # (without one, each --out draws its own: test_red_team9)


def _files(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != "timing.csv"}


def test_grading_on_a_terminal_shows_done_total_eta_and_failures(submitted, tmp_path):
    salt = tmp_path / "salt"  # (a file: --salt on the command line adds a note to stderr)
    salt.write_text(SALT + "\n")
    salt.chmod(0o600)  # (readable by others, a note on stderr says so)
    status, stdout, bar = _kit("grade", submitted, "--source", SOURCE, "--out",
                               tmp_path / "tty", "--jobs", "2", "--salt-file", salt,
                               terminal=True, cwd=tmp_path)
    assert status == 1  # broken.ipynb could not be graded
    final = bar.replace("\r\n", "\n").split("\r")[-1].splitlines()
    last = [line for line in final if line.startswith("grading")][-1]
    assert "4/4" in last and "failed: 1]" in last and "<00:00" in last, last
    assert "0/4 [00:00<?, failed: 0]" in bar  # the start: nothing done, no estimate yet
    frames = [f for f in bar.split("\r") if f.startswith("grading")]
    assert any("/4 [" in f and "<?" not in f and "<00:00" not in f for f in frames) or len(
        frames) >= 3, frames  # it moved (an estimate while work was left)
    assert "could not grade" in bar  # the file's own error line, on stderr too
    assert "/4 [" not in stdout and "failed: " not in stdout, stdout  # the bar: stderr only

    status, stdout, stderr = _kit("grade", submitted, "--source", SOURCE, "--out",
                                  tmp_path / "pipe", "--jobs", "2", "--salt-file", salt,
                                  terminal=False, cwd=tmp_path)
    assert status == 1
    assert "\r" not in stderr and "/4 [" not in stderr and "failed: " not in stderr
    assert stderr.startswith("could not grade") and stderr.count("\n") == 1, stderr
    # the same files either way (but for the seconds each took)
    assert _files(tmp_path / "tty") == _files(tmp_path / "pipe")


def test_release_on_a_terminal_counts_its_check_runs(tmp_path):
    status, stdout, bar = _kit("release", SOURCE, "--out", tmp_path / "release", "--jobs", "2",
                               terminal=True, cwd=tmp_path)
    assert status == 0, bar
    last = [f for f in bar.replace("\r\n", "\n").split("\r") if f.startswith("checking")][-1]
    assert "4/4" in last and "failed: 0]" in last, last  # the four runs of one notebook
    assert stdout.startswith("wrote ")
    status, stdout, stderr = _kit("release", SOURCE, "--out", tmp_path / "again", "--jobs", "2",
                                  terminal=False, cwd=tmp_path)
    assert status == 0 and stderr == ""
