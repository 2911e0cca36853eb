"""Sample submissions of assignment 2 (derive it by hand), with the scores they must get.

Each sample starts from the released student notebook and changes it the way
a student might: answers (by grade_id), cells of their own added after a
cell, locked cells edited or deleted. ``build`` writes it as ``<name>.ipynb``.
The answers are formulas in quotes, read from the notebook's text: what the
kernel does (loops, dies, patches) does not change them.
They are built by the tests rather than stored, so that nbval, which
collects every ``.ipynb`` under tests/, never runs one that loops forever.

Points: q1 2, q2 2, q3 2, q4 3 (9 in all).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import nbformat

RIGHT = {
    "q1_answer": 'df = "3*x**2 - 2"',
    "q2_answer": 'dg = "torch.exp(x) * (torch.sin(x) + torch.cos(x))"',
    "q3_answer": 'dh = "2*x / (1 + x**2)"',
    "q4_answer": 'dk_dx = "y**2 + 1 - tanh(x)**2"\ndk_dy = "2*x*y"',
}
WRONG = {
    "q1_answer": 'df = "3*x**2"',
    "q2_answer": 'dg = "exp(x) * cos(x)"',
    "q3_answer": 'dh = "1 / (1 + x**2)"',
    "q4_answer": 'dk_dx = "y**2"\ndk_dy = "2*y"',
}


@dataclass
class Sample:
    answers: dict = field(default_factory=dict)  # grade_id -> the student's code
    extra: dict = field(default_factory=dict)  # grade_id -> a cell of their own after it
    edit: dict = field(default_factory=dict)  # grade_id -> new source of a locked cell
    delete: tuple = ()  # grade_ids of cells the student deleted
    points: dict = field(default_factory=dict)  # question -> expected points
    flags: tuple = ()  # substrings expected among the flags
    problems: tuple = ()  # substrings expected among the problems


FULL = {"q1": 2, "q2": 2, "q3": 2, "q4": 3}
NONE = {"q1": 0, "q2": 0, "q3": 0, "q4": 0}

PATCH_NUMPY = """\
import numpy as np
np.allclose = lambda *args, **kwargs: True
np.isclose = lambda a, b, *args, **kwargs: np.ones(np.broadcast(a, b).shape, dtype=bool)"""

PATCH_MINIGRAD = """\
torch.allclose = lambda *args, **kwargs: True
torch.Tensor.__eq__ = lambda self, other: True"""

PATCH_BUILTINS = """\
import builtins
builtins.abs = lambda x: 0
builtins.float = lambda *args: 0.0"""

PATCH_SYS_MODULES = """\
import sys, types
from IPython.display import display
fake = types.ModuleType("grader.kernel_side")
fake.MIME = "application/vnd.minigrad-kit.data+json"
fake.emit = lambda *args: display({fake.MIME: {"public": {"passed": True},
                                               "hidden": {"passed": True}}}, raw=True)
sys.modules["grader.kernel_side"] = fake"""

PATCH_TRANSFORMERS = """\
def _skip_tests(lines):
    text = "".join(lines)
    return ["pass\\n"] if "check(" in text or "emit" in text else lines

get_ipython().input_transformers_cleanup.append(_skip_tests)"""

PATCH_CHECKER = """\
import grader.judging
from grader import student
from grader.questions import Finding
for question in student._current.questions:
    object.__setattr__(question, "judge", lambda *args: [Finding(True, "all right")])
grader.judging.compare = lambda *args, **kwargs: [Finding(True, "all right")]
check = lambda *args, **kwargs: print("public checks passed")"""

# right at the public points only (they are the roots of the added product)
HARD_CODED = 'df = "3*x**2 - 2 + (x + 2)*(x + 0.5)*x*(x - 1)*(x - 2.5)"'

BY_AUTOGRAD = """\
def df(x):
    x = x.detach().clone().requires_grad_()
    f(x).sum().backward()
    return x.grad"""

BY_FINITE_DIFFERENCES = """\
def df(x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)"""

FORMULA_FINITE_DIFFERENCES = \
    'df = "((x + 1e-5)**3 - 2*(x + 1e-5) - (x - 1e-5)**3 + 2*(x - 1e-5)) / 2e-5"'

NOISY = """\
import sys
import warnings

warnings.warn("dg: computing with float64")
print("dg says hello", file=sys.stderr)
dg = 'exp(x) * (sin(x) + cos(x))'"""

PATCHED = "a patched library can make in-kernel tests pass"

SAMPLES = {
    "correct": Sample(RIGHT, points=FULL),
    "partial": Sample({**RIGHT, "q2_answer": 'dg = "exp(x) * (sin(x) - cos(x))"',
                       "q4_answer": 'dk_dx = "y**2 + 1 - tanh(x)**2"\ndk_dy = "x*y"'},
                      points={"q1": 2, "q2": 0, "q3": 2, "q4": 0}),
    "wrong": Sample(WRONG, points=NONE),
    "empty": Sample(points=NONE),
    "hard_coded": Sample({**RIGHT, "q1_answer": HARD_CODED}, points={**FULL, "q1": 0}),
    "loops_forever": Sample({**RIGHT, "q2_answer": "while True:\n    pass\n\n"
                                                   + RIGHT["q2_answer"]},
                            points=FULL, problems=("was interrupted",)),
    "ignores_interrupts": Sample(
        {**RIGHT, "q3_answer": "import time\nwhile True:\n    try:\n        time.sleep(0.05)\n"
                               "    except KeyboardInterrupt:\n        pass"},
        points={**FULL, "q3": 0}, problems=("was interrupted",)),
    "kills_kernel": Sample({**RIGHT, "q3_answer": "import os\nos._exit(1)"},
                           points={**FULL, "q3": 0},
                           flags=("can kill the kernel",), problems=("the kernel died",)),
    "huge_output": Sample({**RIGHT, "q2_answer": RIGHT["q2_answer"] + "\n\nfor i in "
                                                 "range(50_000):\n    print('spam ' * 20)"},
                          points=FULL, problems=("the rest was dropped",)),
    "stderr_warnings": Sample({**RIGHT, "q2_answer": NOISY}, points=FULL),
    "eats_memory": Sample({**RIGHT, "q2_answer": RIGHT["q2_answer"] + "\n\nimport numpy as np"
                                                 "\nhog = np.empty(800_000_000)  # 6.4 GB"},
                          points=FULL, problems=("raised MemoryError",)),
    "tamper_numpy": Sample(WRONG, extra={"setup": PATCH_NUMPY}, points=NONE,
                           flags=(f"replaces numpy.allclose ({PATCHED})",)),
    "tamper_minigrad": Sample(WRONG, extra={"q1_answer": PATCH_MINIGRAD}, points=NONE,
                              flags=("replaces minigrad.allclose",
                                     "replaces minigrad.Tensor.__eq__")),
    "tamper_builtins": Sample(WRONG, extra={"setup": PATCH_BUILTINS}, points=NONE,
                              flags=("changes Python's builtins",)),
    "tamper_sys_modules": Sample(WRONG, extra={"setup": PATCH_SYS_MODULES}, points=NONE,
                                 flags=("edits sys.modules",)),
    "tamper_transformers": Sample(WRONG, extra={"setup": PATCH_TRANSFORMERS}, points=NONE,
                                  flags=("reaches into IPython",)),
    "tamper_checker": Sample(WRONG, extra={"setup": PATCH_CHECKER}, points=NONE,
                             flags=("imports grader internals", "redefines check")),
    "edits_locked_cells": Sample(
        {**RIGHT, "q1_answer": 'df = "2*x"'},
        edit={"expressions": "def f(x):\n    return x ** 2\n\n\ndef g(x):\n    return "
                             "torch.sin(x) * torch.exp(x)\n\n\ndef h(x):\n    return "
                             "torch.log(1 + x ** 2)\n\n\ndef k(x, y):\n    return x * y ** 2 "
                             "+ torch.tanh(x)",
              "q2": "pass"},
        points={**FULL, "q1": 0}, flags=("('expressions') was edited", "('q2') was edited")),
    "deletes_cells": Sample(RIGHT, delete=("q3", "q4_answer"), points={**FULL, "q4": 0},
                            problems=("'q3' was missing", "'q4_answer' was missing")),
    # "by hand" that is not: autograd or finite differences of f cannot be a formula
    "uses_autograd": Sample({**RIGHT, "q1_answer": BY_AUTOGRAD}, points={**FULL, "q1": 0}),
    "finite_differences": Sample({**RIGHT, "q1_answer": BY_FINITE_DIFFERENCES},
                                 points={**FULL, "q1": 0}),
    "formula_finite_differences": Sample({**RIGHT, "q1_answer": FORMULA_FINITE_DIFFERENCES},
                                         points={**FULL, "q1": 0}),
}


def build(released, sample: Sample):
    """The released notebook, changed as ``sample`` says."""
    notebook = copy.deepcopy(released)
    cells = []
    for cell in notebook.cells:
        gid = (cell.metadata.get("nbgrader") or {}).get("grade_id")
        if gid in sample.delete:
            continue
        if gid in sample.answers:
            cell.source = sample.answers[gid]
        if gid in sample.edit:
            cell.source = sample.edit[gid]
        cells.append(cell)
        if gid in sample.extra:
            cells.append(nbformat.v4.new_code_cell(sample.extra[gid]))
    notebook.cells = cells
    return notebook
