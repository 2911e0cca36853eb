"""The suspicious-code scan: every tampering trick is named; ordinary answers are not. And
--strict's allowlist: what an answer needs passes, anything beyond is named."""

import pytest
from assignment_files import BY_ASSIGNMENT
from samples import (BY_AUTOGRAD, PATCH_BUILTINS, PATCH_CHECKER, PATCH_MINIGRAD, PATCH_NUMPY,
                     PATCH_SYS_MODULES, PATCH_TRANSFORMERS, RIGHT)

from keys import UNBROADCAST, right

from grader.scan import (Suspicion, defined_names, defines_code, examine, scan,
                         strict_findings)
from grader.source import load_source

ASSIGNMENT = load_source(BY_ASSIGNMENT["derive_it_by_hand"]).assignment
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
    (PATCH_CHECKER, ["imports grader internals (grader.judging)",
                     f"replaces grader.judging.compare {PATCHED}",
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
    rules = ((r"\bbackward\b|\.grad\b", "uses autograd in a function that should not"),)
    assert scan(BY_AUTOGRAD, rules=rules) == ["uses autograd in a function that should not"]
    assert scan("def f(x):\n    return x", protected={"f": "expressions"}) == [
        "redefines f, which the locked cell 'expressions' defines"]
    assert defined_names("import minigrad as torch\ndef f(x): pass\ng = 1") == {"torch", "f", "g"}


GRADER = "grader"


@pytest.mark.parametrize("code, expected", [
    # the grader's modules reached through a package attribute, not an import
    ("import grader as p\np.kernel_side.collect = lambda *a: {}",
     f"reaches grader internals ({GRADER}.kernel_side.collect)"),
    ("import grader\ngrader.kernel_side.emit(1)",
     f"reaches grader internals ({GRADER}.kernel_side.emit)"),
    ("emit = check.__globals__['emit']", "reaches a function's globals (the grader's, through "
                                         "check) (__globals__)"),
    ("g = getattr(check, '__globals__')", "reaches a function's globals"),
    ("from IPython.core.interactiveshell import InteractiveShell\n"
     "InteractiveShell.instance()", "reaches into IPython"),
    ("shell.events.register('post_run_cell', hook)", "reaches into IPython (input transformers "
                                                     "and events can rewrite later cells) "
                                                     "(events)"),
    ("from IPython.display import clear_output\nclear_output()",
     "clears a cell's output (it can hide the grader's data)"),
    ("import sys\nsys.settrace(tracer)", "traces code as it runs (sys.settrace)"),
    ("import sys\nsys.setprofile(tracer)", "traces code as it runs (sys.setprofile)"),
    ("getattr(t, 'back' + 'ward')()", "looks up an attribute or a name by a computed string "
                                      "(getattr)"),
    ("name = 'grad'\nt.__getattribute__(name)", "looks up an attribute or a name by a computed "
                                               "string (__getattribute__)"),
    ("look = getattr\nlook(t, 'backward')()", "looks up an attribute or a name by a computed "
                                              "string (getattr)"),
    ("vars(torch)['auto' + 'grad']", "looks up an attribute or a name by a computed string "
                                     "(vars()[...])"),
    ("import importlib\nimportlib.import_module('sys')", "imports by a string (importlib)"),
    ("__import__('sys')", "imports by a string (__import__)"),
    # the grader's module through inspect, gc or a string
    ("import inspect\nm = inspect.getmodule(inspect.getmodule(check).collect)\n"
     "m.collect = None", "inspects the interpreter's objects"),
    ("import gc\n[o for o in gc.get_referents(check)]", "searches the interpreter's objects"),
    ("from operator import attrgetter\nattrgetter('kernel_side.collect')(p)",
     "names the grader's own step in a string (kernel_side)"),
    ("import sys\nm = sys.modules\n", "edits sys.modules"),
    ("display({'application/vnd.minigrad-kit.data+json': {}}, raw=True)",
     "names the grader's own step in a string (minigrad-kit)"),
    ("check.__module__; p.__loader__", "reaches grader internals (__loader__)"),
    # code that arrives as data, and objects reached without an import alias (issue 31)
    ("import pickle\npickle.loads(data)", "runs code handed over as data (pickle)"),
    ("import marshal", "runs code handed over as data (marshal)"),
    ("import timeit\ntimeit.timeit('x = 1')", "runs code built from a string (timeit)"),
    ("import code\ncode.InteractiveInterpreter().runsource('x')",
     "runs code built from a string (code)"),
    ("print.__self__.exec('x = 1')", "reaches a builtin's module (print.__self__: builtins)"),
    ("vars(pkg).get('kernel')", "reaches a namespace by name (vars)"),
    ("import pydoc\npydoc.locate('grader')", "imports by a string (pydoc)"),
    ("from unittest import mock\nmock.patch('grader.x')", "imports by a string (unittest.mock)"),
    ("import os\nos.write(5, b'0000000002{}')",
     "writes to a file descriptor (the grader's pipe) (os.write)"),
])
def test_new_ways_to_forge_are_tampering(code, expected):
    found = examine(code)
    assert any(s.text.startswith(expected) for s in found), [s.text for s in found]
    assert all(s.tampering for s in found if s.text.startswith(expected))


def test_plain_findings_are_not_tampering():
    for code in ["import os\nos._exit(0)", "import subprocess", "!ls",
                 "def check(q):\n    pass", "getattr(t, 'shape')", "import sys\nsys.exit()"]:
        assert examine(code) == [] or not any(s.tampering for s in examine(code)), code
    assert examine("getattr(t, 'shape')") == []


def test_rules_see_getattr_with_a_plain_string_and_name_their_questions():
    rules = ((r"\.backward\s*\(", "uses autograd", ("q4",)),)
    for code in ["t.backward()", "getattr(t, 'backward')()", "getattr(t, \"backward\")( )"]:
        assert examine(code, rules=rules) == [Suspicion("uses autograd", True, ("q4",))], code
    assert examine("t.forward()", rules=rules) == []


@pytest.mark.parametrize("name", ["derive_it_by_hand", "broadcasting_and_reductions",
                                  "tensors_and_gradients", "implement_a_backward"])
def test_strict_lets_every_kit_answer_through(name):
    for code in right(name, "alice").values():
        assert strict_findings(code) == [], code
    assert strict_findings(UNBROADCAST) == []
    assert strict_findings("import numpy as np\nimport math\nfrom minigrad import nn\n"
                           "with torch.no_grad():\n    w = np.zeros((2, 3)).sum(axis=0)\n"
                           "y.grad = None\nprint(f'{math.pi:.2f}', [i for i in range(3)])") == []


@pytest.mark.parametrize("code, named", [
    ("_m = torch.autograd.engine.sys.modules", [".engine", ".sys", ".modules"]),
    ("import grader.kernel_side as k\nk.encode = None", ["import grader.kernel_side",
                                                         ".encode ="]),
    ("import sys", ["import sys"]), ("from minigrad.autograd import engine",
                                     ["from minigrad.autograd import ..."]),
    ("x.__class__", [".__class__"]), ("getattr(x, 'a')", ["getattr"]),
    ("class Fake(torch.Tensor):\n    pass", ["ClassDef"]), ("global x", ["Global"]),
    ("'{0.__class__}'.format(x)", ["'{0.__class__}'"]), ("torch.Tensor.sum = None", [".sum ="]),
    ("open('/proc/self/mem')", ["open"]), ("np.load('a.npy', allow_pickle=True)", [".load"]),
    ("@staticmethod\ndef f():\n    pass", ["def f"]), ("x = __builtins__", ["__builtins__"]),
])
def test_strict_names_what_goes_beyond(code, named):
    assert all(item in strict_findings(code) for item in named), strict_findings(code)


def test_defines_code():
    assert defines_code("def f(x):\n    return x") and defines_code("f = lambda x: x")
    assert not defines_code("loss.backward()\nprint(x.grad)")


def test_the_denylist_misses_what_strict_names():
    """Why --strict is the default: a forger that reaches the encoder through minigrad's own
    imports names nothing the tampering scan knows (the teachers' guide says so)."""
    from attacks import HIDDEN_ENCODER

    assert not any(s.tampering for s in examine(HIDDEN_ENCODER))
    assert {".engine", ".sys", ".modules"} <= set(strict_findings(HIDDEN_ENCODER))
