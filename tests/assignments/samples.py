"""Sample submissions with the scores they must get, graded on the instructor notebooks'
own numbers (``--variants none``: the numbers a notebook released without --students
shows, and real nbgrader grades).

``SAMPLES`` answer assignment 1 (derive it by hand: formulas, read as data, nothing runs),
as a student might: answers (by grade_id), cells of their own after a cell, locked cells
edited or deleted. What the notebook's code does (loops, dies, patches) changes nothing.
``CODE_SAMPLES`` answer assignment 3 (tensors and gradients: code, run in the grader's
sandbox), and show what a code run survives: endless loops, a dead process, output without
end, memory. ``build`` writes a sample from a released notebook. They are built by the tests
rather than stored, so that nbval, which collects every ``.ipynb`` under tests/, never runs
one that loops forever.

Points: assignment 1: q1 2, q2 2, q3 2, q4 3 (9 in all); assignment 3: q1 1, q2 1, q3 2.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import nbformat

RIGHT = {
    "q1_answer": 'df = "3*x**2 + 1 + cos(x)"',
    "q2_answer": 'dg = "torch.exp(x) * (torch.sin(x) + torch.cos(x))"',
    "q3_answer": 'dh = "2*x / (1 + x**2)"',
    "q4_answer": 'dk_dx = "y**2 + 1 - tanh(x + y)**2"\ndk_dy = "2*x*y + 1/cosh(x + y)**2"',
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
fake = types.ModuleType("grader.kernel_side")
fake.collect = lambda *args: {"passed": True}
sys.modules["grader.kernel_side"] = fake"""

PATCH_TRANSFORMERS = """\
def _skip_tests(lines):
    text = "".join(lines)
    return ["pass\\n"] if "check(" in text else lines

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
HARD_CODED = 'df = "3*x**2 + 1 + cos(x) + (x + 2)*(x + 0.5)*x*(x - 1)*(x - 2.5)"'

BY_AUTOGRAD = """\
def df(x):
    x = x.detach().clone().requires_grad_()
    f(x).sum().backward()
    return x.grad"""

BY_FINITE_DIFFERENCES = """\
def df(x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)"""

FORMULA_FINITE_DIFFERENCES = \
    'df = "((x+1e-5)**3 + (x+1e-5) + sin(x+1e-5) - (x-1e-5)**3 - (x-1e-5) - sin(x-1e-5)) / 2e-5"'

PATCHED = "a patched library can make in-kernel tests pass"

SAMPLES = {
    "correct": Sample(RIGHT, points=FULL),
    "partial": Sample({**RIGHT, "q2_answer": 'dg = "exp(x) * (sin(x) - cos(x))"',
                       "q4_answer": 'dk_dx = "y**2 + 1 - tanh(x + y)**2"\ndk_dy = "x*y"'},
                      points={"q1": 2, "q2": 0, "q3": 2, "q4": 0}),
    "wrong": Sample(WRONG, points=NONE),
    "empty": Sample(points=NONE),
    "hard_coded": Sample({**RIGHT, "q1_answer": HARD_CODED}, points={**FULL, "q1": 0}),
    # what the notebook's code does never changes a formula read from its text
    "loops_forever": Sample({**RIGHT, "q2_answer": "while True:\n    pass\n\n"
                                                   + RIGHT["q2_answer"]}, points=FULL),
    "kills_kernel": Sample({**RIGHT, "q3_answer": "import os\nos._exit(1)\n"
                                                  + RIGHT["q3_answer"]}, points=FULL),
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
                             flags=("imports grader internals",)),
    "edits_locked_cells": Sample(
        {**RIGHT, "q1_answer": 'df = "2*x"'},
        edit={"expressions": "a, b, c = 1, 1, 1\n\n\ndef f(x):\n    return x ** 2",
              "q2": "pass"},
        points={**FULL, "q1": 0}, flags=("('expressions') was edited", "('q2') was edited")),
    "deletes_cells": Sample(RIGHT, delete=("q3", "q4_answer"), points={**FULL, "q4": 0},
                            problems=("'q3' was missing", "'q4_answer' was missing")),
    "answers_elsewhere": Sample({**RIGHT, "q3_answer": "# see below"},
                                extra={"q3": RIGHT["q3_answer"]}, points={**FULL, "q3": 0},
                                problems=("dh is set in cell 14, which is not an answer cell",)),
    # "by hand" that is not: autograd or finite differences of f cannot be a formula
    "uses_autograd": Sample({**RIGHT, "q1_answer": BY_AUTOGRAD}, points={**FULL, "q1": 0}),
    "finite_differences": Sample({**RIGHT, "q1_answer": BY_FINITE_DIFFERENCES},
                                 points={**FULL, "q1": 0}),
    "formula_finite_differences": Sample({**RIGHT, "q1_answer": FORMULA_FINITE_DIFFERENCES},
                                         points={**FULL, "q1": 0}),
}

CODE_RIGHT = {
    "q1_answer": "x = torch.ones(5, 5, requires_grad=True)\ntotal = x.sum()",
    "q2_answer": "y = x * 2\nz = y.sum()",
    "print_before": "print(x.grad, y.grad, z.grad)",
    "q3_answer": "y.retain_grad()\nz.retain_grad()\nz.backward()",
}
CODE_FULL = {"q1": 1, "q2": 1, "q3": 2, "q4": 0}
CODE_SAMPLES = {
    "code_correct": Sample(CODE_RIGHT, points=CODE_FULL),
    "code_loops_forever": Sample({**CODE_RIGHT, "print_before": "while True:\n    pass"},
                                 points=CODE_FULL, problems=("was interrupted",)),
    "code_ignores_interrupts": Sample(
        {**CODE_RIGHT, "print_before": "import time\nwhile True:\n    try:\n        "
                                       "time.sleep(0.05)\n    except KeyboardInterrupt:\n"
                                       "        pass"},
        points={**CODE_FULL, "q3": 0}, problems=("and was stopped; the cells after it did "
                                                 "not run",)),
    "code_kills_itself": Sample({**CODE_RIGHT, "q3_answer": "import os\nos._exit(1)"},
                                points={**CODE_FULL, "q3": 0},
                                flags=("can kill the kernel",),
                                problems=("the grading run ended while running cell 14",)),
    "code_huge_output": Sample({**CODE_RIGHT, "print_before": "for i in range(50_000):\n"
                                                             "    print('spam ' * 20)"},
                               points=CODE_FULL),
    "code_eats_memory": Sample({**CODE_RIGHT, "print_before": "import numpy as np\n"
                                                             "hog = np.empty(800_000_000)"},
                               points=CODE_FULL, problems=("raised MemoryError",)),
    "code_warns": Sample({**CODE_RIGHT, "print_before": "import numpy as np\n"
                                                       "print(np.log(-1.0), x.grad, y.grad)"},
                         points=CODE_FULL),
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
