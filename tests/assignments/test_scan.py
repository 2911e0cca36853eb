"""The suspicious-code scan: every tampering trick is named; ordinary answers are not."""

import pytest
from samples import (BY_AUTOGRAD, PATCH_BUILTINS, PATCH_CHECKER, PATCH_MINIGRAD, PATCH_NUMPY,
                     PATCH_SYS_MODULES, PATCH_TRANSFORMERS, RIGHT)

from grader.bank.derive_it_by_hand import ASSIGNMENT
from grader.scan import defined_names, scan

PATCHED = "(a patched library can make in-kernel tests pass)"


@pytest.mark.parametrize("code, expected", [
    (PATCH_NUMPY, [f"replaces numpy.allclose {PATCHED}"]),
    (PATCH_MINIGRAD, [f"replaces minigrad.allclose {PATCHED}"]),
    (PATCH_BUILTINS, ["changes Python's builtins (builtins)",
                      f"replaces builtins.abs {PATCHED}"]),
    ("__builtins__.len = lambda x: 0", ["changes Python's builtins (__builtins__.len)"]),
    (PATCH_SYS_MODULES, [f"replaces an entry of sys.modules {PATCHED}",
                         "edits sys.modules (swaps imported modules) (sys.modules)"]),
    (PATCH_TRANSFORMERS, ["reaches into IPython (input transformers and events can rewrite "
                          "later cells) (get_ipython)"]),
    (PATCH_CHECKER, ["imports grader internals (grader.bank)",
                     "redefines check, which the locked cell 'setup' defines"]),
    ("setattr(np, 'isclose', None)", [f"replaces numpy.isclose {PATCHED}"]),
    ("import os\nos._exit(0)", ["can kill the kernel (os._exit)"]),
    ("import ctypes", ["uses ctypes (can change memory directly) (ctypes)"]),
    ("import sys\nsys._getframe(1).f_locals", ["inspects the caller's frames (sys._getframe)"]),
    ("exec('x = 1')", ["runs code built from a string (exec)"]),
    ("!rm -rf /", ["runs a shell command"]),
])
def test_tampering_is_named(code, expected):
    assert scan(code)[:len(expected)] == expected


@pytest.mark.parametrize("code", [
    *RIGHT.values(),
    "import numpy as np\nx = np.linspace(-1, 1, 5)\nprint(df(torch.tensor(x)))",
    "%timeit df(torch.ones(3))",
    "x.requires_grad = True\nctx.saved = (1, 2)",
    "signal = 3\nprint(signal)",
    "from grader import check\ncheck('q1')",
    "def df(x):\n    # no backward() here\n    return 3 * x ** 2 - 2",
    "this is not python (",
])
def test_ordinary_code_is_not_flagged(code):
    assert scan(code, rules=ASSIGNMENT.suspicious) == []


def test_assignment_rules_and_locked_names():
    assert scan(BY_AUTOGRAD, rules=ASSIGNMENT.suspicious) == [
        "uses autograd or a numerical gradient in a derivative that should be written by hand"]
    assert scan("def f(x):\n    return x", protected={"f": "expressions"}) == [
        "redefines f, which the locked cell 'expressions' defines"]
    assert defined_names("import minigrad as torch\ndef f(x): pass\ng = 1") == {"torch", "f", "g"}
