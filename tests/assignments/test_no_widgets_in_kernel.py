"""The grader is not a widget: grading imports nothing of widgets, ipywidgets or graphviz,
neither in the grader's process nor in the student's kernel it runs."""

import subprocess
import sys
import tempfile

from grader.grade import _extract_code
from grader.kernel import run_cells
from grader.questions import find_assignment
from grader.source import load_source

from assignment_files import BY_ASSIGNMENT

WIDGET_MODULES = ("widgets", "ipywidgets", "graphviz")


def test_grader_process_imports_no_widgets():
    code = ("import sys, grader, grader.cli, grader.batch, grader.release, grader.report\n"
            "import grader.judging, grader.kit, grader.kernel_side\n"
            f"bad = [m for m in sys.modules if m.split('.')[0] in {WIDGET_MODULES!r}]\n"
            "print(bad); assert not bad")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_grading_kernel_has_no_ipywidgets():
    """The extract step of a test cell, as the grader runs it, then a look at sys.modules."""
    source = load_source(BY_ASSIGNMENT["derive_it_by_hand"])
    drawn = {"public": find_assignment("derive_it_by_hand").question("q1").public}
    look = ("import sys\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {WIDGET_MODULES!r}))")
    with tempfile.TemporaryDirectory() as folder:
        runs = run_cells(["import minigrad as torch\ndef df(x):\n    return x",
                          _extract_code(source, "q1", drawn), look], cwd=folder, timeout=60)
    assert [r.status for r in runs] == ["ok", "ok", "ok"], runs
    assert any(o.get("output_type") == "display_data" for o in runs[1].outputs)  # it ran
    assert runs[2].outputs[0]["text"].strip() == "[]"
