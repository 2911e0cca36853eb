"""A grading worker that dies (killed by the system's out-of-memory killer, or by someone) while
the real ``minigrad-kit grade`` runs: every submission is graded, or reported as not graded
with the reason; ``grade --missing`` then grades only what is missing; and a run stopped
part-way (the grader itself killed) loses what it graded.

The death is SIGKILL, what the out-of-memory killer sends, from inside the grading process
of the submissions named ``*_oom.ipynb`` (``dying_worker.py``). Before: a dead worker broke
the pool, and every submission still waiting in it came back "could not grade: the grading
process failed: A process in the process pool was terminated abruptly" (measured with this
class, two workers: an honest classmate waiting behind the dying one, too); with ``--jobs 1``
the grader graded in its own process, and the death ended the run (and, here, pytest); and a
run stopped part-way had written nothing."""

import csv
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import dying_worker
import nbformat
import pytest
from keys import WRONG, build, right

from grader import batch
from grader.cli import main
from grader.resume import UNFINISHED

pytestmark = pytest.mark.slow

D = "derive_it_by_hand"
SALT = "kept by the teacher"
CLASS = ["alice", "bob", "cy_oom", "dee", "ed", "fay"]  # (cy's grading always dies; three
# classmates are graded after him, in the order the grader takes the files)


def _class(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for number, name in enumerate(CLASS):
        answers = right(D, None) if number % 2 == 0 else WRONG[D]
        nbformat.write(build(D, None, answers), folder / f"{name}.ipynb")
    return folder


def _grade(given: Path, out: Path, *more) -> list:
    return ["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt", SALT,
            "--variants", "none", *more]


def _book(out: Path) -> dict:
    """student -> points, from the gradebook."""
    rows = csv.DictReader(io.StringIO((out / "gradebook.csv").read_text(encoding="utf-8")))
    points: dict = {}
    for row in rows:
        points.setdefault(row["student"], []).append(row["points"])
    return points


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    """The class graded by a run where nothing dies: the gradebook to compare with."""
    base = tmp_path_factory.mktemp("honest")
    out = base / "grades"
    assert main(_grade(_class(base / "class"), out, "--jobs", "2")) == 0
    return _book(out)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_worker_killed_once_costs_no_submission(honest, tmp_path, monkeypatch, capsys, jobs):
    """cy's worker is killed in the pool (as the out-of-memory killer ends the largest
    process, whoever's it is): the pool breaks, each submission it had not finished is
    graded again alone, and every one is graded, as in a run where nothing died. With
    ``--jobs 1`` too (it graded in the grader's own process, and the run died with cy:
    nothing was graded or written for the three after him)."""
    monkeypatch.setattr(batch, "_timed", dying_worker.timed)
    out = tmp_path / "grades"
    assert main(_grade(_class(tmp_path / "class"), out, "--jobs", jobs)) == 0
    assert "could not grade" not in capsys.readouterr().err
    assert _book(out) == honest
    assert not (out / UNFINISHED).exists()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_submission_whose_grading_always_dies(honest, tmp_path, monkeypatch, capsys, jobs):
    """cy's grading dies in the pool and again alone: every classmate is graded; cy is
    reported not graded, with the reason (killed, SIGKILL: out of memory?) and what to do;
    the exit status is 1. ``grade --missing`` (nothing dies now) grades cy alone, keeps
    the others as graded, and the gradebook is the honest run's."""
    monkeypatch.setattr(batch, "_timed", dying_worker.timed)
    monkeypatch.setattr(batch, "_answer", dying_worker.answer)
    given, out = _class(tmp_path / "class"), tmp_path / "grades"
    assert main(_grade(given, out, "--jobs", jobs)) == 1
    said = capsys.readouterr().err
    assert "could not grade cy_oom.ipynb: not graded: its grading process was killed " \
           "(SIGKILL) before it finished: most often the system ran out of memory" in said
    assert "--missing" in said
    assert said.count("could not grade") == 1
    book = _book(out)
    assert {s: p for s, p in book.items() if s != "cy_oom"} == \
           {s: p for s, p in honest.items() if s != "cy_oom"}
    assert (out / UNFINISHED).is_dir()  # (kept: cy is missing)
    monkeypatch.undo()
    capsys.readouterr()
    assert main(_grade(given, out, "--jobs", "2", "--missing")) == 0
    said = capsys.readouterr()
    assert "5 submission(s) graded before are kept as graded; 1 to grade" in said.out
    assert _book(out) == honest
    assert not (out / UNFINISHED).exists()


def test_a_run_killed_part_way_loses_nothing(honest, tmp_path):
    """The grader itself killed (SIGKILL) once it has graded two: ``--missing`` grades only
    the rest; the gradebook is the honest run's."""
    given, out = _class(tmp_path / "class"), tmp_path / "grades"
    command = [sys.executable, "-m", "grader"] + _grade(given, out, "--jobs", "1")
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True, cwd=tmp_path)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None and len(
            list((out / UNFINISHED).glob("*.json"))) < 2:
        time.sleep(0.05)
    assert run.poll() is None, "the run ended before it could be stopped"
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    kept = len(list((out / UNFINISHED).glob("*.json")))
    assert 2 <= kept < len(CLASS)
    done = subprocess.run(command + ["--missing"], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{kept} submission(s) graded before are kept as graded; " \
           f"{len(CLASS) - kept} to grade" in done.stdout
    assert _book(out) == honest
    assert not (out / UNFINISHED).exists()
