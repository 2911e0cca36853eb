"""The grader is not a widget: grading imports nothing of widgets, ipywidgets or graphviz,
neither in the grader's process nor in the sandboxed run of a code question, where they
are not even there."""

import subprocess
import sys
import time

from assignment_files import BY_ASSIGNMENT

from grader.run import Plan, run_code
from grader.sandbox import choose
from grader.source import load_source

WIDGET_MODULES = ("widgets", "ipywidgets", "graphviz")


def test_grader_process_imports_no_widgets():
    code = ("import sys, grader, grader.cli, grader.batch, grader.release, grader.report\n"
            "import grader.judging, grader.kit, grader.kernel_side, grader.run, grader.exact\n"
            f"bad = [m for m in sys.modules if m.split('.')[0] in {WIDGET_MODULES!r}]\n"
            "print(bad); assert not bad")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_code_run_has_no_widgets_at_all():
    """A code question's run, as the grader runs it: the extract step hands back data, and
    the widgets' packages are neither imported nor importable there."""
    source = load_source(BY_ASSIGNMENT["tensors_and_gradients"])
    look = ("import sys, importlib.util\n"
            f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {WIDGET_MODULES!r})\n"
            f"there = [m for m in {WIDGET_MODULES!r} if importlib.util.find_spec(m)]\n"
            "raise RuntimeError(f'loaded {loaded} there {there}')")
    steps = [{"kind": "cell", "source": "import minigrad as torch\nx = torch.ones(2)\n"
                                        "total = x.sum()", "filename": "<cell 1>"},
             {"kind": "extract", "question": "q1"},
             {"kind": "cell", "source": look, "filename": "<cell 2>"}]
    plan = Plan(steps, source.module_text, source.module.name,
                {"q1": {"public": None}}, autograd=True)
    run = run_code(plan, sandbox=choose("auto"), timeout=60, deadline=time.monotonic() + 120)
    assert [s.status for s in run.steps] == ["ok", "ok", "error"], run
    assert run.steps[1].data["public"]["dict"]["x"]["tensor"]["shape"] == [2]  # it ran
    assert run.steps[2].error.startswith("RuntimeError: loaded [] there []")
