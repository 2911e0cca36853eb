"""The twentieth red team's attacks. What succeeded before, and the construction that closed
it:

* **a y that is not x multiplied by the factor, with the values and the slope of one**:
  assignment 3's slopes were taken along ones, d(y · 1)/dx, which says only that each
  column of the Jacobian sums to the factor. Over x of ones (the notebook's own), ``y = x *
  (factor + 1) - x.flip(0)`` (or ``- x.roll(1, 0)``) has the values of ``factor * x`` and a
  slope of factor + 1 - 1 along ones: q2 and q3 scored (measured in the question module),
  allowed names only, for a y that is factor * x at x of ones alone. (``_slope``: taken
  along a direction drawn when the module is loaded, after which no student code runs
  before the extract step, and divided by it: the factor everywhere only where the
  Jacobian is the factor times the identity.)
* **a tensor's memory written through NumPy again, past red team 19's read-only view**: the
  array NumPy received for a tensor (``np.asarray(x.grad)``) was a read-only *view* of the
  tensor's own memory, and a view of a writable array can be made writable again with
  allowed names: ``g.setflags(write=True)`` or ``g.flags["WRITEABLE"] = True`` (``.flags``
  and ``.setflags`` are public names of ``ndarray``), then ``g[:] = 0`` wrote x.grad where
  autograd does not see (measured: q3's x.grad zeros at its extract step). The other way
  round too: ``x = torch.as_tensor(buf)`` (or ``torch.asarray(buf)``, ``torch.frombuffer
  (buf, ...)``: public minigrad names, only ``from_numpy`` was held) shares ``buf``'s
  memory, so ``buf[:] = 0`` after ``backward()`` rewrote x's values behind autograd
  (measured: q3's values of x zeros). (``runner._no_writable_handles``: in a run with
  autograd, nothing is shared: the array NumPy receives is a copy, and a tensor made from
  an array holds a copy of it.)
"""

import json
import shutil

import nbformat
import pytest
from assignment_files import FOLDER
from keys import build, right

from grader.cli import main

BWRAP = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
T = "tensors_and_gradients"

# q3's cell: an honest backward(), then x.grad written through a view made writable again
WRITABLE_AGAIN = """\
import numpy as np
y.retain_grad()
z.retain_grad()
z.backward()
g = np.asarray(x.grad)
g.setflags(write=True)
g[:] = 0
h = np.asarray(x.grad)
h.flags["WRITEABLE"] = True
h[:] = 0
"""

# q1's cell: x over an array of the student's own, written after backward() in q3's cell
def _shared_buffer(rows: int, columns: int) -> dict:
    return {"q1_answer": "import numpy as np\n"
                         f"buf = np.ones(({rows}, {columns}), dtype=np.float32)\n"
                         "x = torch.as_tensor(buf)\nx.requires_grad_()\ntotal = x.sum()",
            "q3_answer": "y.retain_grad()\nz.retain_grad()\nz.backward()\nbuf[:] = 0\n"}


def _numbers(student: str) -> tuple:
    rows, columns = right(T, student)["q1_answer"].split("(", 1)[1].split(",")[:2]
    return int(rows), int(columns)


@pytest.mark.slow
@BWRAP
def test_numpy_shares_no_memory_with_a_tensor_whatever_the_spelling(tmp_path, monkeypatch):
    """Both cells use allowed names only (--strict holds nothing) and write a tensor's memory
    after an honest backward(). Before, the writes went through: q3 scored 0 for both (x.grad,
    then x's values, zeros at q3's extract step). Now NumPy's arrays are copies: the writes
    change nothing of the tensors, and q3 scores, unheld."""
    folder = tmp_path / "class"
    folder.mkdir()
    answers = {"mallory": {**right(T, "mallory"), "q3_answer": WRITABLE_AGAIN},
               "trudy": {**right(T, "trudy"), **_shared_buffer(*_numbers("trudy"))}}
    for student, cells in answers.items():
        nbformat.write(build(T, student, cells), folder / f"{student}.ipynb")
    monkeypatch.setenv("MINIGRAD_KIT_SALT", "red-team-20")
    assert main(["grade", str(folder), "--out", str(tmp_path / "out"), "--sandbox",
                 "required", "--jobs", "1"]) == 0
    for student in answers:
        result = json.loads((tmp_path / "out" / "results" / T / f"{student}.json").read_text())
        points = {q["name"]: (q["points"], q["max_points"], q["review"])
                  for q in result["questions"] if q["name"] != "q4"}  # (q4: written)
        assert all(got == most and not review for got, most, review in points.values()), \
            (student, points, result["problems"])


HANDLES = """
import sys
import numpy as np
import minigrad as torch
from grader.runner import _no_writable_handles
_no_writable_handles()
x = torch.ones(2, 3, requires_grad=True)
(x * 3).sum().backward()
def write(array, how):
    try:  # (refused is as good as written to a copy)
        how(array)
        array[...] = 0
    except (ValueError, TypeError):  # (TypeError: no .base, an array of its own)
        pass
for spelling in (np.asarray, np.ravel, np.atleast_1d):
    write(spelling(x.grad), lambda a: a.setflags(write=True))
    write(spelling(x.grad), lambda a: a.flags.__setitem__("WRITEABLE", True))
    write(spelling(x.grad).base, lambda a: None)
written = []
for make in (lambda b: torch.as_tensor(b), lambda b: torch.asarray(b),
             lambda b: torch.asarray(b, copy=False), lambda b: torch.from_numpy(b),
             lambda b: torch.frombuffer(b, dtype=torch.float32)):
    buf = np.ones(4, dtype=np.float32)
    w = make(buf)
    buf[:] = 0
    written.append(w.tolist())
try:
    np.asarray(x.grad)[0, 0] = 1
    said = "written"
except ValueError:
    said = "read-only"
print(x.grad.tolist(), written, said)
"""


def test_no_array_shares_a_tensors_memory_in_a_run_with_autograd():
    """What a run with autograd does before any student code (``_no_writable_handles``),
    then the attacks' lines: x.grad is still autograd's, each tensor made from an array
    keeps the array's values as they were when it was made, and NumPy's array of a tensor
    is still read-only (an honest write raises, as it did). Before: x.grad zeros, and each
    tensor zeros."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", HANDLES], capture_output=True, text=True,
                          timeout=120, cwd=root, env={"PYTHONPATH": str(root)})
    assert done.stdout.split("\n")[0] == (
        "[[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]] " + str([[1.0] * 4] * 5) + " read-only"), \
        done.stdout + done.stderr


@pytest.mark.parametrize("code", [WRITABLE_AGAIN, _shared_buffer(2, 3)["q1_answer"],
                                  _shared_buffer(2, 3)["q3_answer"]])
def test_the_attacks_use_allowed_names_only(code):
    """Each attack passes --strict (so that only the construction above stops it)."""
    from grader.scan import strict_findings
    assert strict_findings(code, autograd=True) == []


SLOPED = ["y = x * {f}", "y = x + x * {g}", "y = (x * {h}) / 2"]
NOT_TIMES = ["y = x * {p} - x.flip(0)", "y = x * {p} - x.roll(1, 0)",
             "y = x * {f} + x.roll(1, 1) - x"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("line", SLOPED + NOT_TIMES)
def test_q2_scores_only_a_y_that_is_x_times_the_factor(line, dtype):
    """q2 of assignment 3, judged as the grader judges it (the extract step's data through
    JSON, then the judge), over the notebook's x of ones: ``factor * x`` in any spelling
    scores; a y with those values and a Jacobian that is not the factor times the identity
    (its columns summing to the factor) does not. Before, every line of ``NOT_TIMES``
    scored (along ones, its slope is the factor)."""
    import minigrad
    from grader.data import roundtrip
    from grader.questions import find_assignment

    questions = find_assignment(T, FOLDER)  # (this checkout's, whatever the venv installed)
    factor = 3
    code = line.format(f=factor, g=factor - 1, h=2 * factor, p=factor + 1)
    namespace = {"torch": minigrad}
    exec(f"x = torch.ones(3, 4, dtype=torch.{dtype}, requires_grad=True)\n{code}\n"
         "z = y.sum()", namespace)
    q2 = questions.question("q2")
    found = q2.judge(roundtrip(q2.extract(namespace, None)), None, {"shape": (3, 4),
                                                                     "factor": factor})
    assert all(f.ok for f in found) == (line in SLOPED), [f.text for f in found]
