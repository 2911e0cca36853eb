"""Attack submissions for all four assignments, each built on a deliberately wrong answer.

Every attack of issue 14 is here: forged extract data (the grader's module
through a package attribute, an IPython post_run_cell hook that clears the
real output and re-emits through ``check.__globals__``, ``sys.modules``),
autograd spelled with ``getattr`` and string pieces, "by hand" answers that
are finite differences or autograd, a kernel that reaches for the grader
(``/proc``, the submissions, ``--out``, the grader's folder). To forge, an
attack computes the right data from the solution, kept in a namespace of
its own, so that an unprotected grader would give it full marks.
"""

from __future__ import annotations

import copy
import re

import nbformat
from assignment_files import BY_ASSIGNMENT

import grader as grader_package
from grader import notebook as nbg

GRADER = grader_package.__name__

WRONG = {
    "tensors_and_gradients": {
        "q1_answer": "x = torch.ones(5, 5)\ntotal = x.sum()\nprint(total)",
        "q2_answer": "y = x * 3\nz = y.sum()",
        "print_before": "print(x.grad)",
        "q3_answer": "print(x.grad)",
    },
    "derive_it_by_hand": {
        "q1_answer": 'df = "3*x**2"', "q2_answer": 'dg = "exp(x) * cos(x)"',
        "q3_answer": 'dh = "1 / (1 + x**2)"', "q4_answer": 'dk_dx = "y**2"\ndk_dy = "2*y"',
    },
    "implement_a_backward": {
        f"q{n}_answer": f"""\
class {name}(Function):
    @staticmethod
    def forward(ctx, x):
        y = {forward}
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        y, = ctx.saved_tensors
        return grad_output * y""" for n, name, forward in (
            (1, "Sigmoid", "1 / (1 + torch.exp(-x))"), (2, "Tanh", "torch.tanh(x)"),
            (3, "Softmax", "torch.softmax(x, dim=-1)"))
    },
    "broadcasting_and_reductions": {
        "q1_answer": "a_grad_shape = (3, 4)\nb_grad_shape = (3, 4)",
        "q2_answer": 'a_grad = "b"\nb_grad = "a"', "q3_answer": 'x_grad = "w"',
        "q4_answer": "def unbroadcast(grad, shape):\n    return grad.sum()",
    },
}


def solution(assignment: str) -> str:
    """The instructor's answers, as one cell (markers removed)."""
    source = nbformat.read(BY_ASSIGNMENT[assignment], as_version=4)
    parts = []
    for cell in source.cells:
        if nbg.role(cell) == "answer" and cell.cell_type == "code":
            parts.append("\n".join(line for line in cell.source.splitlines()
                                   if "### BEGIN SOLUTION" not in line
                                   and "### END SOLUTION" not in line))
    return "\n".join(parts)


def by_package_attribute(assignment: str) -> str:
    return f"""{solution(assignment)}
_ns = dict(globals())
import {GRADER} as _package
_real = _package.kernel_side.collect
_package.kernel_side.collect = lambda question, namespace, inputs: _real(question, _ns, inputs)"""


def by_post_run_cell_hook(assignment: str) -> str:
    return f"""{solution(assignment)}
_ns = dict(globals())
import ast as _ast
from IPython.core.interactiveshell import InteractiveShell
from IPython.display import clear_output
_emit = check.__globals__["collect"].__globals__["emit"]

def _forge(result):
    cell = result.info.raw_cell
    if "_minigrad_kit_emit(" in cell and "_forge" not in cell:
        clear_output()
        arguments = cell.split("_minigrad_kit_emit(", 1)[1].rsplit(", globals())", 1)[0]
        _emit(*_ast.literal_eval("(" + arguments + ")"), _ns)

InteractiveShell.instance().events.register("post_run_cell", _forge)"""


def by_sys_modules(assignment: str) -> str:
    return f"""{solution(assignment)}
_ns = dict(globals())
import sys
_side = sys.modules["{GRADER}.kernel_side"]
_real = _side.collect
_side.collect = lambda question, namespace, inputs: _real(question, _ns, inputs)"""


SIGMOID_BY_HIDDEN_AUTOGRAD = """\
class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 1 / (1 + torch.exp(-x))

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        with getattr(torch, "enable" + "_grad")():
            leaf = x.detach().requires_grad_()
            getattr(1 / (1 + torch.exp(-leaf)), "back" + "ward")(grad_output)
        return getattr(leaf, "gr" + "ad")"""

SIGMOID_BY_FINITE_DIFFERENCES = """\
def _sigmoid(x):
    return 1 / (1 + torch.exp(-x))


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _sigmoid(x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        h = 1e-5
        return grad_output * (_sigmoid(x + h) - _sigmoid(x - h)) / (2 * h)"""

UNBROADCAST_BY_BACKWARD = """\
def unbroadcast(grad, shape):
    leaf = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    (leaf + torch.zeros(tuple(grad.shape), dtype=grad.dtype)).backward(grad)
    return leaf.grad"""

UNBROADCAST_BY_HIDDEN_BACKWARD = """\
def unbroadcast(grad, shape):
    leaf = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    getattr(leaf + torch.zeros(tuple(grad.shape), dtype=grad.dtype), "back" + "ward")(grad)
    return getattr(leaf, "gr" + "ad")"""

UNBROADCAST_BY_SUM_TO = """\
from minigrad.autograd.broadcast import sum_to


def unbroadcast(grad, shape):
    return sum_to(grad, tuple(shape))"""

# A helper in a cell of the student's own, called by the answer: still held back.
UNBROADCAST_HELPER = """\
def _helper(grad, shape):
    leaf = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    (leaf + torch.zeros(tuple(grad.shape), dtype=grad.dtype)).backward(grad)
    return leaf.grad"""


def reach_the_grader(targets: list[str]) -> str:
    """Read every process's command line and environment; write where the grader lives."""
    return f"""import os
seen = []
for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    for part in ("cmdline", "environ"):
        try:
            with open(f"/proc/{{pid}}/{{part}}", "rb") as file:
                seen.append(file.read().decode(errors="replace").replace("\\0", " "))
        except OSError:
            pass
wrote = []
for path in {targets!r}:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as file:
            file.write('{{"forged": true}}')
        wrote.append(path)
    except OSError:
        pass
raise RuntimeError(f"escape: pids {{sorted(p for p in os.listdir('/proc') if p.isdigit())}}; "
                   f"wrote {{wrote}}; saw {{' | '.join(seen)}}")"""


def build(assignment: str, answers: dict, extra: dict | None = None):
    """The released notebook with ``answers`` (by grade_id) and cells of the student's own
    after the cells named in ``extra``."""
    source = nbformat.read(BY_ASSIGNMENT[assignment], as_version=4)
    notebook = copy.deepcopy(nbg.student_version(source))
    cells = []
    for cell in notebook.cells:
        gid = nbg.grade_id(cell)
        if gid in answers:
            cell.source = answers[gid]
        cells.append(cell)
        if gid in (extra or {}):
            cells.append(nbformat.v4.new_code_cell(extra[gid]))
    notebook.cells = cells
    return notebook


def right(assignment: str) -> dict:
    """The solution, answer cell by answer cell."""
    source = nbformat.read(BY_ASSIGNMENT[assignment], as_version=4)
    return {nbg.grade_id(c): re.sub(r"[ \t]*### (BEGIN|END) SOLUTION\n?", "", c.source)
            for c in source.cells if nbg.role(c) == "answer" and c.cell_type == "code"}
