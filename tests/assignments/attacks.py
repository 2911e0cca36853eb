"""Tampering submissions, each built on a wrong answer: issue 31's kinds, and issue 14's.

Each forger computes the right data from the student's own numbers (as a motivated student
would, with code that is not the answer), and tries to get it to the grader another way:
a rebound ``globals``, display updates and rewritten outputs, the grader's own pipe,
a patched encoder reached through a path no denylist names, code handed over as data
(``pickle``, ``print.__self__.exec``), a written answer turned into code, a finite
difference written as a formula, autograd where it must not be. None may score more than
the wrong answer it rides on, unless its question is held back for review.
"""

from __future__ import annotations

import os

# The right data for assignment 3, made by code of the forger's own (not in the answers).
FORGED_NAMESPACE = """\
_x = torch.ones(shape, requires_grad=True)
_y = _x * factor
_z = _y.sum()
_y.retain_grad()
_z.retain_grad()
_z.backward()
_forged = {"x": _x, "total": _x.sum(), "y": _y, "z": _z,  # (and the slopes the extract
           "dtotal/dx": torch.ones_like(_x), "dy/dx": torch.full_like(_x, float(factor)),
           "dz/dy": torch.ones_like(_y)}  # steps hand back: autograd's, which a forger forges)
"""

# kind 1: the grader's test cell called globals() by name
GLOBALS_REBOUND = FORGED_NAMESPACE + """
def globals():
    return _forged
"""

# kind 2: outputs changed after the fact (IPython's display machinery, the session)
DISPLAY_UPDATE = FORGED_NAMESPACE + """
from IPython.display import display, update_display
handle = display({"application/vnd.minigrad-kit.data+json": {}}, raw=True, display_id=True)
update_display({"application/vnd.minigrad-kit.data+json": {}}, raw=True,
               display_id=handle.display_id)
get_ipython().kernel.session.send = lambda *a, **k: None
"""

# kind 2, below IPython: the grader's own pipe, written to directly
PIPE_FORGERY = """\
import json as _json, os, sys as _sys
_fd = int(_sys.argv[1])
for _step in range(30):
    _body = _json.dumps({"step": _step, "started": True}).encode()
    os.write(_fd, b"%010d" % len(_body) + _body)
"""

# a patched encoder, reached through a path that names neither sys nor the grader (one of
# minigrad's modules that imports sys; the first that exists, as minigrad's layout moves):
# the tampering scan (a denylist) does not see it; --strict (an allowlist) does
HIDDEN_ENCODER = FORGED_NAMESPACE + """
try:
    _modules = torch.autograd.fast.sys.modules
except AttributeError:
    _modules = torch.autograd.engine.sys.modules
_side = [m for k, m in _modules.items() if k.endswith("l_side")][0]
_encode = _side.encode
_side.encode = lambda value, depth=0: _encode(
    {k: _forged.get(k, v) for k, v in value.items()} if isinstance(value, dict) else value,
    depth)
"""

# kind 3: code that arrives as data
PRINT_SELF_EXEC = "print.__self__.exec(" + repr(HIDDEN_ENCODER) + ")"
PICKLED = """\
import pickle
pickle.loads(pickle.dumps(print.__self__.exec))(""" + repr(HIDDEN_ENCODER) + """)
"""
# kind 3: a cell IPython parses only after an earlier cell's future import (the old scan
# could not parse it and counted it clean, while the kernel ran it)
BARRY_FLAG = "from __future__ import barry_as_FLUFL"
BARRY = "assert 1 <> 2\n" + HIDDEN_ENCODER

# kind 5: derivations answered by a tool


def five_point(expression: str, variable: str, step: str = "0.002") -> str:
    """A five-point stencil of ``expression`` along ``variable`` (error ~1e-11 at 0.002)."""
    def at(shift):
        return "(" + expression.replace(variable, f"({variable} + {shift}*{step})") + ")"
    return f"(-{at(2)} + 8*{at(1)} - 8*{at(-1)} + {at(-2)}) / (12*{step})"


def stencils(numbers: dict) -> dict:
    """Assignment 1's answers as five-point stencils of the student's own functions."""
    a, b, c = numbers["a"], numbers["b"], numbers["c"]
    f = f"{a}*x**3 + {b}*x + sin({c}*x)"
    g = f"sin({c}*x)*exp({b}*x)"
    h = f"log({a} + {c}*x**2)"
    k = f"{a}*x*y**2 + tanh({b}*x + {c}*y)"
    return {"q1_answer": f'df = "{five_point(f, "x")}"',
            "q2_answer": f'dg = "{five_point(g, "x")}"',
            "q3_answer": f'dh = "{five_point(h, "x")}"',
            "q4_answer": f'dk_dx = "{five_point(k, "x")}"\ndk_dy = "{five_point(k, "y")}"'}


def backward_by_differences(numbers: dict) -> dict:
    """Assignment 4's backwards as central differences of the forward (h = 1e-7)."""
    k, s = numbers["k"], numbers["s"]
    return {"q1_answer": f'sigmoid_backward = "grad_output * (1/(1 + exp(-{k}*(x + 1e-7))) - '
                         f'1/(1 + exp(-{k}*(x - 1e-7)))) / 2e-7"',
            "q2_answer": f'tanh_backward = "grad_output * ((exp(2*{s}*(x + 1e-7)) - 1)/(exp(2*{s}'
                         f'*(x + 1e-7)) + 1) - (exp(2*{s}*(x - 1e-7)) - 1)/(exp(2*{s}*(x - 1e-7)) '
                         f'+ 1)) / 2e-7"'}


BACKWARD_BY_AUTOGRAD = {"q1_answer": 'sigmoid_backward = "torch.autograd.grad(y, x, grad_output)"',
                        "q2_answer": "def tanh_backward(x, y, grad_output):\n"
                                     "    return torch.autograd.grad(y, x, grad_output)[0]"}

UNBROADCAST_BY_BACKWARD = """\
def unbroadcast(grad, shape):
    leaf = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    (leaf + torch.zeros(tuple(grad.shape), dtype=grad.dtype)).backward(grad)
    return leaf.grad"""

UNBROADCAST_BY_EXPAND = """\
def unbroadcast(grad, shape):
    leaf = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    return leaf.expand(tuple(grad.shape)).grad_fn(grad)"""

UNBROADCAST_BY_SUM_TO = """\
from minigrad.autograd.broadcast import sum_to


def unbroadcast(grad, shape):
    return sum_to(grad, tuple(shape))"""

UNBROADCAST_BY_HIDDEN_TORCH = """\
def unbroadcast(grad, shape):
    real = __import__("tor" + "ch")
    leaf = real.zeros(shape, dtype=real.float64, requires_grad=True)
    (leaf + real.zeros(tuple(grad.shape), dtype=real.float64)).backward(
        real.tensor(grad.numpy()))
    return leaf.grad.numpy()"""

# a helper with backward() in another question's answer cell, called by unbroadcast
HELPER_ELSEWHERE = """\
a_grad = "b"
b_grad = "a"


def _helper(grad, shape):
    leaf = torch.zeros(shape, dtype=grad.dtype, requires_grad=True)
    (leaf + torch.zeros(tuple(grad.shape), dtype=grad.dtype)).backward(grad)
    return leaf.grad"""

SLEEPER = "import time\nwhile True:\n    time.sleep(60)"


def reach_the_grader(targets: list[str], secrets: list[str]) -> str:
    """Read every process's command line and environment; write where the grader lives;
    look for files it must not see (``secrets``)."""
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
found = [p for p in {secrets!r} if os.path.exists(p)]
raise RuntimeError(f"escape: pids {{sorted(p for p in os.listdir('/proc') if p.isdigit())}}; "
                   f"wrote {{wrote}}; found {{found}}; saw {{' | '.join(seen)}}")"""


# Assignment 5 (backprop by hand): autograd's own numbers, handed over instead of formulas
GRADIENTS_BY_AUTOGRAD = {
    "q1_answer": "dlogprobs, dprobs = torch.autograd.grad(loss, [logprobs, probs], "
                 "retain_graph=True)",
    "q4_answer": "found = torch.autograd.grad(loss, [h, W2, b2], retain_graph=True)\n"
                 "dh, dW2, db2 = (str(g.tolist()) for g in found)",
    "q5_answer": "dhpre = repr(torch.autograd.grad(loss, hpre, retain_graph=True)[0].tolist())",
}
# formulas that call what the language does not have
GRADIENTS_OUTSIDE = {
    "q4_answer": 'dh = "torch.autograd.grad(loss, h)[0]"\ndW2 = "W2.grad"\n'
                 'db2 = "__import__(\'grader\').answers"',
    "q5_answer": 'dhpre = "hpre.grad"',
    "q7_answer": 'dlogits_one_line = "eval(\'logits.grad\')"',
}


def gradients_by_differences(numbers: dict) -> dict:
    """Assignment 5's dhpre as a central difference (h = 1e-7), db2 times a difference
    quotient of exp at 0 (1 to 11 digits: within float64's tolerance), written as formulas."""
    s, t = numbers["s"], numbers["T"]
    return {"q5_answer": f'dhpre = "dh * (tanh({s} * (hpre + 1e-7)) - tanh({s} * (hpre - 1e-7)))'
                         f' / 2e-7"',
            "q4_answer": 'dh = "dlogits @ W2"\ndW2 = "dlogits.T @ h"\n'  # (wrong, as WRONG's)
                         f'db2 = "dlogits.sum(0) / {t} * (exp(1e-5) - exp(-1e-5)) / 2e-5"'}


# --- the red team's (tests/assignments/test_red_team.py) ----------------------------------

# 0 in float64 (1 + 1e-30 == 1 there, so the comparison holds and log(1 - 1) ... is log(1)),
# NaN at 200 digits (0 * log(0) = 0 * -inf): a term that changes nothing where the float64
# check looks and poisons the 200-digit check, whose NaN compared with nothing and passed
NAN_AT_200_DIGITS = "0*log(1e-30+1-1<=0)"
# 1 at 200 digits, 0 in float64: a formula that is one thing where each check looks
AT_200_DIGITS = "(1e-30+1-1>0)"


def central_difference(expression: str, variable: str, step: str = "1e-5") -> str:
    """(f(v + h) - f(v - h)) / 2h, written as a formula: within float64's 1e-9 of the
    derivative, nowhere near it at 200 digits."""
    up = expression.replace(variable, f"({variable}+{step})")
    down = expression.replace(variable, f"({variable}-{step})")
    return f"(({up})-({down}))/(2*{step})"


def differences(numbers: dict, extra: str = "") -> dict:
    """Assignment 1's answers as central differences of the student's own functions, each
    followed by ``extra``."""
    a, b, c = numbers["a"], numbers["b"], numbers["c"]
    f, g, h = f"{a}*x**3+{b}*x+sin({c}*x)", f"sin({c}*x)*exp({b}*x)", f"log({a}+{c}*x**2)"
    k = f"{a}*x*y**2+tanh({b}*x+{c}*y)"
    return {"q1_answer": f'df = "{central_difference(f, "x")}{extra}"',
            "q2_answer": f'dg = "{central_difference(g, "x")}{extra}"',
            "q3_answer": f'dh = "{central_difference(h, "x")}{extra}"',
            "q4_answer": f'dk_dx = "{central_difference(k, "x")}{extra}"\n'
                         f'dk_dy = "{central_difference(k, "y")}{extra}"'}


def poisoned(answers: dict, term: str = NAN_AT_200_DIGITS) -> dict:
    """Answer cells of ``name = "formula"`` lines, each formula plus ``term``."""
    return {cell: "\n".join(f'{line.rstrip()[:-1]} + {term}"' for line in text.splitlines())
            for cell, text in answers.items()}


# A frame on the grader's pipe nested deeper than JSON's parser reads: it raised
# RecursionError in the grader, and the submission was "not graded", its flags lost
DEEP_FRAME = """\
import os, sys
body = b"[" * 200000 + b"]" * 200000
os.write(int(sys.argv[1]), b"%010d" % len(body) + body)"""

# Frames in order, for this step and the extract step after it, with data in no shape
# encode writes (a tensor without its fields): decode raised KeyError, "not graded" again
FORGED_DATA = """\
import json, os, sys
step = sys._getframe(1).f_locals["index"]
def send(message):
    body = json.dumps(message).encode()
    os.write(int(sys.argv[1]), b"%010d" % len(body) + body)
send({"step": step, "status": "ok"})
send({"step": step + 1, "started": True})
send({"step": step + 1, "status": "ok", "data": {"public": {"x": {"tensor": {}}}}})
os._exit(0)"""

# Never run, only scanned: deeper than Python's parser goes (it raised MemoryError)
DEEP_EXPRESSION = "x = " + "-" * 20_000 + "1"

# Names the --strict allowlist lets through that reached the process's memory: minigrad's
# as_strided made a view past its storage (NumPy's as_strided checks nothing), to read and
# write what lies around it (the run's key, the grader's own objects)
MEMORY_VIEW = """\
_probe = torch.ones(4, dtype=torch.float64)
_memory = _probe.as_strided((1 << 16,), (1,))
_memory[8:16] = 0.0"""

# NumPy's own: resize without its reference check frees the memory a view still reads
DANGLING_VIEW = """\
_owner = np.arange(4.0)
_view = _owner[:]
_owner.resize(1 << 20, refcheck=False)
_freed = [np.full(4, 7.0) for _ in range(64)]
_view[0] = 0.0"""

# NumPy's constructors over a buffer check no lower bound on the offset
BEFORE_THE_BUFFER = """\
_around = np.ndarray((4096,), buffer=np.zeros(2), offset=-4096, dtype=np.uint8)
_records = np.recarray((16,), dtype=[("b", "u1")], buf=np.zeros(2), offset=-16)
_around[4000:4004] = 0"""

# The hidden inputs, said back: unbroadcast is called with them, and what it raises or
# returns was quoted in the student's feedback, to be hard-coded in the next submission
# (graded on the same hidden inputs), its answers worked out by autograd elsewhere
HIDDEN_SAID_BACK = {
    "raised": "def unbroadcast(grad, shape):\n"
              "    raise ValueError('LEAK ' + str(grad.tolist()) + ' ' + str(shape))",
    "returned": "def unbroadcast(grad, shape):\n    return 'LEAK ' + str(grad.tolist())",
}

# The run's plan, read with names --strict allows: a format string walks from an exception
# to the runner's frame (read only; its text is what the feedback quotes)
PLAN_BY_FORMAT = """\
try:
    1 / 0
except ZeroDivisionError as error:
    _seen = ("{0._" + "_traceback_" + "_.tb_frame.f_back.f_locals[plan][inputs][q4][hidden]}"
             ).format(error)
raise RuntimeError(_seen[:400])"""
