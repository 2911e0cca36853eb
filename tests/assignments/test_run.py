"""A code question's sandboxed run (run.py, runner.py), driven directly: what it can see,
what counts from it, and what stops it."""

import sys
import time
from pathlib import Path

import pytest
import torch
from assignment_files import BY_ASSIGNMENT
from busy_core import busy_core

import grader
from grader.run import Budget, Plan, run_code
from grader.sandbox import Sandbox, choose
from grader.source import load_source

SOURCE = load_source(BY_ASSIGNMENT["tensors_and_gradients"])
ON = choose("required")


def _run(*cells, extract=False, autograd=True, timeout=10, budget=60, sandbox=ON):
    steps = [{"kind": "cell", "source": c, "filename": f"<cell {i}>"}
             for i, c in enumerate(cells, 1)]
    if extract:
        steps.append({"kind": "extract", "question": "q1"})
    plan = Plan(steps, SOURCE.module_text, SOURCE.module.name, {"q1": {"public": None}},
                autograd)
    return run_code(plan, sandbox=sandbox, timeout=timeout, budget=Budget(budget))


def _seen(expression: str, **kwargs) -> str:
    """What ``expression`` is inside the run (raised, since nothing it prints is kept)."""
    run = _run(f"raise RuntimeError(repr({expression}))", **kwargs)
    assert run.steps[0].status == "error", run
    return run.steps[0].error.split("RuntimeError: ", 1)[1].rsplit(" (line", 1)[0]


def test_the_run_sees_only_numpy_and_the_kit():
    look = ("[m for m in ('numpy', 'grader', 'kit_i18n', 'minigrad', 'torch', 'IPython', "
            "'ipykernel', 'mpmath', 'sympy', 'scipy', 'jax', 'minigrad_kit_notebooks') "
            "if __import__('importlib.util').util.find_spec(m)]")
    assert _seen(look) == "['numpy', 'grader', 'kit_i18n', 'minigrad']"
    # without autograd, minigrad and torch are names of grader.forward_only; the real
    # package's files are not there
    assert _seen(look, autograd=False) == "['numpy', 'grader', 'kit_i18n', 'minigrad', 'torch']"
    assert _seen("__import__('os').path.exists('/kit/minigrad')", autograd=False) == "False"
    paths = [str(BY_ASSIGNMENT["tensors_and_gradients"]), torch.__file__, sys.executable,
             "/usr/lib/python3/dist-packages/README.txt", str(Path(grader.__file__).parents[1]
                                                            / "notebooks")]
    assert _seen(f"[p for p in {paths!r} if __import__('os').path.exists(p)]") == "[]"


def test_without_autograd_minigrad_and_torch_are_tensors_without_it():
    assert _seen("__import__('minigrad').__name__", autograd=False) == "'grader.forward_only'"
    assert _seen("__import__('torch').zeros(2).sum().item()", autograd=False) == "0.0"
    run = _run("import minigrad as torch\ntorch.zeros(2, requires_grad=True)", autograd=False)
    assert "autograd is not available here" in run.steps[0].error


def test_no_network_no_writes_outside_its_folder(tmp_path):
    run = _run("import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=2)",
               f"open({str(tmp_path / 'x')!r}, 'w')", "open('here.txt', 'w').write('ok')")
    assert [s.status for s in run.steps] == ["error", "error", "ok"], run
    assert not (tmp_path / "x").exists()


def test_the_extract_step_reads_the_runs_own_namespace():
    """A cell's ``def globals()``, a rebound ``collect`` name or a deleted ``__builtins__``
    changes nothing: the runner hands the extract step the dict it made itself."""
    run = _run("import minigrad as torch\nx = torch.ones(2, 3)\ntotal = x.sum()",
               "def globals():\n    return {'x': 1}\ncollect = None\n"
               "grader_namespace = {}", extract=True)
    data = run.steps[-1].data["public"]["dict"]
    assert data["x"]["tensor"]["shape"] == [2, 3] and run.tampering == []


def test_anything_on_the_pipe_but_the_runs_own_reports_is_tampering():
    forge = ("import os, sys\nbody = b'{\"step\": 9, \"started\": true}'\n"
             "os.write(int(sys.argv[1]), b'%010d' % len(body) + body)")
    run = _run("x = 1", forge, "y = 2", extract=True)
    assert run.tampering == ["a frame not signed with the run's key"]
    assert [s.status for s in run.steps] == ["ok", "dead", "skipped", "skipped"]
    garbage = _run("import os, sys\nos.write(int(sys.argv[1]), b'not a frame at all')")
    assert garbage.tampering == ["a frame without a length"]


def test_a_slow_cell_is_interrupted_and_the_run_goes_on():
    started = time.monotonic()
    run = _run("import time\ntime.sleep(60)", "x = 1", timeout=2)
    assert [s.status for s in run.steps] == ["timeout", "ok"]
    assert time.monotonic() - started < 20


def test_a_cell_that_ignores_interrupts_is_stopped_with_its_run():
    run = _run("while True:\n    try:\n        pass\n    except KeyboardInterrupt:\n        pass",
               "x = 1", timeout=2)
    statuses = [s.status for s in run.steps]
    assert statuses[0] == "timeout" and (statuses[1] == "ok" or run.steps[0].killed)


def test_the_budget_stops_the_run():
    started = time.monotonic()
    run = _run(*["import time\ntime.sleep(60)"] * 6, timeout=2, budget=5)
    assert "budget" in [s.status for s in run.steps] and run.steps[-1].status == "skipped"
    assert time.monotonic() - started < 15


def test_a_busy_machine_does_not_stop_honest_work(monkeypatch):
    """A step that computes for 1 s of CPU time, with a limit of 2 s, on a core that three
    other processes share: about 4 s on the wall, where the wall's clock stopped it; the
    grader's clock (clock.py) counts the seconds it computed, and a loop is still stopped."""
    work = ("import time\nstart = time.process_time()\n"
            "while time.process_time() - start < 1.0: pass")
    monkeypatch.setattr(grader.run, "BACKSTOP", 10_000)  # (the clock alone, however loaded)
    with busy_core(hogs=3):
        started = time.monotonic()
        run = _run(work, "x = 1", timeout=2, budget=3)
        took = time.monotonic() - started
        endless = _run("while True: pass", "x = 1", timeout=1, budget=30)
    assert [s.status for s in run.steps] == ["ok", "ok"] and took > 2, took
    assert endless.steps[0].status == "timeout"


def test_a_process_that_dies_or_eats_memory():
    run = _run("import os\nos._exit(3)", "x = 1")
    assert [s.status for s in run.steps] == ["dead", "skipped"]
    run = _run("import numpy as np\nhog = np.empty(800_000_000)", "x = 1")
    assert run.steps[0].status == "error" and "MemoryError" in run.steps[0].error
    assert run.steps[1].status == "ok"


def test_without_the_sandbox_the_same_run_works():
    run = _run("import minigrad as torch\nx = torch.ones(2)\ntotal = x.sum()", extract=True,
               sandbox=Sandbox("off", "a test"))
    assert run.steps[-1].data["public"]["dict"]["total"]["tensor"]["values"] == [2.0]


@pytest.mark.parametrize("code", ["import time\ntime.sleep(60)", "raise SystemExit(0)",
                                  "raise KeyboardInterrupt"])
def test_what_a_cell_raises_never_stops_the_next_step(code):
    run = _run(code, "x = 1", timeout=2)
    assert run.steps[1].status == "ok", run


def test_an_interrupt_works_whatever_the_graders_own_sigint(inherited_sigint):
    """The run's process inherits the grader's SIGINT disposition and signal mask: ignored
    in a job started in the background by a script, blocked by some libraries' threads.
    The interrupt of a slow cell must work either way."""
    with inherited_sigint():
        run = _run("import time\ntime.sleep(60)", "x = 1", timeout=2)
    assert [s.status for s in run.steps] == ["timeout", "ok"], run
