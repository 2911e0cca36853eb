"""Anomaly detection and ``torch.autograd.graph``'s hooks, against PyTorch 2.13.

Each program is written once, saved as a file (so that a forward stack has its source
lines, as a learner's notebook cell has) and run with ``torch`` bound to minigrad and
to PyTorch. What it shows must be the same: the values it prints, the errors (type and
text), and the warnings (category and text). A PyTorch warning names its own files
in the forward stack where a torch function is written in Python (``torch/_tensor.py``
for ``**``, ``torch/autograd/function.py`` for a custom Function's ``apply``); minigrad's
stacks end at the learner's line. The comparison keeps the frames of the program's
file only, and a test checks that the learner's line is the last frame.
"""

from __future__ import annotations

import doctest
import os
import random
import re
import sys
import warnings

import numpy as np
import pytest
import torch

import minigrad
from minigrad.autograd import anomaly, engine, graph, hooks

from test_two_walks import prog_node_hooks  # same folder (pytest's prepend import mode)

_ADDRESS = re.compile(r"0x[0-9a-f]+")
_FRAME = re.compile(r'  File "(?P<file>[^"]+)", line \d+, in \S+\n(    .*\n)?')


def _program_frames(text: str, path) -> str:
    """A warning's text with the forward stack's frames of the program only (not the
    test runner's that called it, nor torch's own Python files)."""
    return _FRAME.sub(lambda m: m[0] if m["file"] == str(path) else "", text)


def _shown(value):
    if isinstance(value, (torch.Tensor, minigrad.Tensor)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return tuple(_shown(v) for v in value)
    return _ADDRESS.sub("0x?", repr(value))


def run(lib, src: str, path) -> list:
    """Run ``src`` (saved at ``path``) with ``torch`` bound to ``lib``; everything it
    showed, raised and warned, in order, anomaly mode left as it was."""
    out: list = []
    env = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "np": np,
           "show": lambda *values: out.extend(_shown(v) for v in values)}
    path.write_text(src)
    was = (lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compile(src, str(path), "exec"), env)
        except Exception as error:  # noqa: BLE001 (the error is what is compared)
            out.append(("raised", type(error).__name__, _ADDRESS.sub("0x?", str(error))))
        finally:
            lib.set_anomaly_enabled(*was)
    out += [("warned", w.category.__name__, _program_frames(str(w.message), path))
            for w in caught]
    return out


def same_in_both(src: str, tmp_path) -> list:
    """The program's output, asserted to be PyTorch's."""
    ours = run(minigrad, src, tmp_path / "program.py")
    theirs = run(torch, src, tmp_path / "program.py")
    assert ours == theirs
    return ours


# ---- the mode ---------------------------------------------------------------------

@pytest.mark.parametrize("lib", [minigrad, torch], ids=["minigrad", "torch"])
def test_the_mode_switches_as_in_torch(lib):
    seen = [(lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled())]
    handle = lib.autograd.set_detect_anomaly(True, check_nan=False)
    seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    with handle:
        pass
    seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    with lib.autograd.set_detect_anomaly(True):
        seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
        with lib.autograd.set_detect_anomaly(False):
            seen.append(lib.is_anomaly_enabled())
        seen.append(lib.is_anomaly_enabled())
    seen.append(lib.is_anomaly_enabled())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        manager = lib.autograd.detect_anomaly(check_nan=False)
        seen.append(("made", lib.is_anomaly_enabled(), len(caught)))
        with manager:
            seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    seen += [(w.category, str(w.message), os.path.basename(w.filename)) for w in caught]
    with pytest.raises(TypeError) as not_a_decorator, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.autograd.detect_anomaly()(lambda: None)
    seen.append(str(not_a_decorator.value))
    for bad in [("yes",), (True, 1)]:
        with pytest.raises(TypeError) as refused:
            lib.set_anomaly_enabled(*bad)
        seen.append(str(refused.value))
    lib.set_anomaly_enabled(False)
    assert seen == [
        (False, True), (True, False), (False, True), (True, True), False, True, False,
        ("made", False, 1), (True, False), (False, True),
        (UserWarning, "Anomaly Detection has been enabled. This mode will increase the "
         "runtime and should only be enabled for debugging.", "test_anomaly_and_graph_hooks.py"),
        "'detect_anomaly' object is not callable",
        "set_anomaly_enabled(): argument 'enabled' (position 1) must be bool, not str",
        "set_anomaly_enabled(): argument 'check_nan' (position 2) must be bool, not int",
    ]


# ---- programs in anomaly mode --------------------------------------------------

PROGRAMS = {
    "nan in pow's backward": """
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([-1.0, 4.0], requires_grad=True)
    y = x ** 0.5
    loss = (y * 2).sum()
    loss.backward()
""",
    "nan in a product, sqrt(0) made an inf": """
torch.autograd.set_detect_anomaly(True)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.0, 2.0], requires_grad=True)
c = (a * b).sqrt().sum()
c.backward()
""",
    "nan in a product's 1th output, inf times 0": """
with torch.autograd.detect_anomaly():
    a = torch.tensor([float('inf'), 2.0], requires_grad=True)
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (a * b * 0).sum()
    z.backward()
""",
    "check_nan=False lets the NaN through": """
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    x = torch.tensor([-1.0, 4.0], requires_grad=True)
    x.sqrt().sum().backward()
show(x.grad, torch.is_anomaly_check_nan_enabled())
""",
    "lesson 8: an in-place change, anomaly mode as the hint says": """
torch.autograd.set_detect_anomaly(True, check_nan=False)
a = torch.ones(3, requires_grad=True)
b = a.sin()
b.add_(1)
c = (b * 2).sum()
d = b.exp()
try:
    d.sum().backward()
except RuntimeError as error:
    show(str(error))
b2 = a.exp()
b2.mul_(2)
b2.sum().backward()
""",
    "the in-place hint without anomaly mode": """
a = torch.ones(2, requires_grad=True)
b = a.exp()
b.add_(1)
b.sum().backward()
""",
    "autograd.grad": """
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    y = torch.log(x) * 0
    show(torch.autograd.grad((y * w).sum(), [w]))
    torch.autograd.grad((y * w).sum(), [x, w])
""",
    "a second backward": """
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()
""",
    "a hook that raises": """
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([1.0], requires_grad=True)
    h = x * 2
    h.register_hook(lambda g: 1 / 0)
    (h * 3).sum().backward()
""",
    "anomaly mode during backward only": """
x = torch.tensor([-1.0], requires_grad=True)
y = x.sqrt()
with torch.autograd.set_detect_anomaly(True):
    y.backward()
""",
    "create_graph: the node that made the failing node": """
with torch.autograd.set_detect_anomaly(True):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (a ** 3).sum()
    g, = torch.autograd.grad(y, a, create_graph=True)
    show(g.grad_fn.name(), g.grad_fn.metadata["parent_"].name())
    g.register_hook(lambda t: t * float('nan'))
    g.sum().backward()
""",
    "create_graph: a NaN in the second backward": """
with torch.autograd.set_detect_anomaly(True):
    a = torch.tensor([0.0, 2.0], requires_grad=True)
    y = (a ** 3).sum()
    g, = torch.autograd.grad(y, a, create_graph=True)
    h = (g.sqrt() * 0).sum()
    h.backward()
""",
    "create_graph: the first backward made without anomaly mode": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
y = (a ** 3).sum()
with torch.autograd.set_detect_anomaly(True):
    g, = torch.autograd.grad(y, a, create_graph=True)
    g.register_hook(lambda t: 1 / 0)
    g.sum().backward()
""",
    "a custom Function whose backward makes a NaN": """
class Root(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x.log()
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    Root.apply(x).sum().backward()
""",
    "a custom Function whose backward raises": """
class Broken(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, grad):
        raise ValueError("my backward is broken")
with torch.autograd.set_detect_anomaly(True):
    x = torch.ones(2, requires_grad=True)
    Broken.apply(x).sum().backward()
""",
    "a model: nn.Linear, a loss, no NaN": """
with torch.autograd.set_detect_anomaly(True):
    model = nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.5, -1.0]]))
        model.bias.fill_(0.25)
    loss = F.mse_loss(model(torch.tensor([[1.0, 2.0], [3.0, 4.0]])), torch.tensor([[1.0], [0.0]]))
    loss.backward()
show(loss, model.weight.grad, model.bias.grad)
""",
    "a model whose loss takes the square root of a negative number": """
with torch.autograd.set_detect_anomaly(True):
    model = nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.5, -1.0]]))
        model.bias.fill_(0.25)
    out = model(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    loss = out.sqrt().mean()
    loss.backward()
""",
    "a NaN in forward only: backward is checked, not forward": """
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    y = x.log()
    (y * 2).sum().backward()
show(y, x.grad)
""",
    "a backward seed with a NaN": """
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([1.0], requires_grad=True)
    (x * 2).sum().backward(torch.tensor(float('nan')))
""",
    "backward with inputs=": """
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x.log() * 0 * w).sum()
    y.backward(inputs=[w])
    show(w.grad)
    y.backward(inputs=[x])
""",
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_in_anomaly_mode_show_what_torch_shows(name, tmp_path):
    shown = same_in_both(PROGRAMS[name].lstrip("\n"), tmp_path)
    if "no NaN" not in name and "check_nan=False" not in name and "forward" not in name:
        assert any(item[0] == "raised" for item in shown if isinstance(item, tuple))


def test_the_warning_points_at_the_learners_forward_line(tmp_path):
    src = PROGRAMS["nan in pow's backward"].lstrip("\n")
    path = tmp_path / "cell.py"
    shown = run(minigrad, src, path)
    warned = [item for item in shown if item[0] == "warned"]
    assert len(warned) == 1
    lines = warned[0][2].splitlines()
    assert lines[0] == ("Error detected in PowBackward0. Traceback of forward call that "
                        "caused the error:")
    assert lines[-3:-1] == [f'  File "{path}", line 3, in <module>', "    y = x ** 0.5"]
    assert shown[0] == ("raised", "RuntimeError",
                        "Function 'PowBackward0' returned nan values in its 0th output.")
    # with the torch-only frames in, torch's warning ends with torch/_tensor.py's frame
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compile(src, str(path), "exec"), {"torch": torch})
        except RuntimeError:
            pass
    torch.set_anomaly_enabled(False)
    assert f'File "{path}", line 3, in <module>\n    y = x ** 0.5\n' in str(caught[0].message)


def test_each_node_keeps_its_forward_stack_only_in_anomaly_mode():
    x = minigrad.ones(2, requires_grad=True)
    plain = x * 2
    with minigrad.autograd.set_detect_anomaly(True):
        kept = x * 2; line = sys._getframe().f_lineno  # noqa: E702
    assert plain.grad_fn.metadata == {}
    stack = kept.grad_fn.metadata["traceback_"]
    assert stack[-1] == (f'  File "{__file__}", line {line}, in '
                         "test_each_node_keeps_its_forward_stack_only_in_anomaly_mode\n"
                         "    kept = x * 2; line = sys._getframe().f_lineno  # noqa: E702\n")
    assert all("minigrad" + os.sep + "ops" not in frame for frame in stack)


def test_anomaly_mode_off_leaves_backward_on_its_fast_path():
    """With the mode off, a plain node runs inline (``fast._run_formula``); on, it goes
    through the checked step."""
    from minigrad.autograd import fast
    calls = []
    original = fast._step

    def counting(*args, **kwargs):
        calls.append(type(args[0]).__name__)
        return original(*args, **kwargs)

    fast._step = counting
    try:
        x = minigrad.ones(2, requires_grad=True)
        (x * 2).exp().sum().backward()
        off = list(calls)
        calls.clear()
        with minigrad.autograd.set_detect_anomaly(True):
            (x * 2).exp().sum().backward()
    finally:
        fast._step = original
    assert off == ["AccumulateGrad"]
    assert calls == ["SumBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad"]


def test_the_stepper_walk_warns_too():
    """``backward_steps`` (the reference walk) names the failing node as backward does."""
    with minigrad.autograd.set_detect_anomaly(True):
        x = minigrad.tensor([-1.0], requires_grad=True)
        y = x.sqrt() * 3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with minigrad.autograd.set_detect_anomaly(True):
            with pytest.raises(RuntimeError, match="'SqrtBackward0' returned nan values"):
                list(engine.backward_steps(y))
    assert str(caught[0].message).startswith("Error detected in SqrtBackward0.")


# ---- node hooks ------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_node_hook_programs_show_what_torch_shows(seed, tmp_path):
    src = "\n".join(prog_node_hooks(random.Random(seed))) + "\n"
    same_in_both(src, tmp_path)


NODE_HOOKS = {
    "the order of tensor hooks, pre-hooks and post-hooks": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
log = []
y.register_hook(lambda g: log.append(("tensor hook", g)))
y.grad_fn.register_prehook(lambda go: log.append(("pre", go)))
y.grad_fn.register_hook(lambda gi, go: log.append(("post", gi, go)))
y.grad_fn.register_prehook(lambda go: log.append(("pre 2", go)))
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: log.append(("leaf pre", go)))
acc.register_hook(lambda gi, go: log.append(("leaf post", gi, go)))
x.register_hook(lambda g: log.append(("leaf tensor hook", g)))
y.retain_grad()
(y * 2).sum().backward()
show(log, y.grad, x.grad, w.grad, y.grad_fn.metadata, isinstance(y.grad_fn, torch.autograd.graph.Node))
""",
    "hooks that replace gradients": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
y.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, None))
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: (go[0] * 2,))
y.sum().backward()
show(x.grad, w.grad)
""",
    "handles remove their hook, once": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
log = []
h1 = y.grad_fn.register_prehook(lambda go: log.append("pre"))
h2 = y.grad_fn.register_hook(lambda gi, go: log.append("post"))
y.sum().backward(retain_graph=True)
h1.remove(); h1.remove()
y.sum().backward(retain_graph=True)
h2.remove()
y.sum().backward()
show(log, x.grad)
""",
    "autograd.grad runs no leaf's node hooks and gives None along unneeded edges": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
z = (x * w) * 2
log = []
z.grad_fn.next_functions[0][0].register_hook(lambda gi, go: log.append(("post", gi, go)))
x_acc = z.grad_fn.next_functions[0][0].next_functions[0][0]
x_acc.register_prehook(lambda go: log.append("leaf pre"))
show(torch.autograd.grad(z.sum(), [x]), log)
""",
    "hooks see Tensors in a graph with create_graph": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
log = []
y.grad_fn.register_hook(lambda gi, go: log.append((gi, go)))
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
show(log, g)
""",
    "a pre-hook returns a tensor": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.grad_fn.register_prehook(lambda go: go[0])
y.sum().backward()
""",
    "a post-hook returns a list": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.grad_fn.register_hook(lambda gi, go: list(gi))
y.sum().backward()
""",
    "a pre-hook returns two gradients": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.grad_fn.register_prehook(lambda go: (go[0], go[0]))
y.sum().backward()
""",
    "a post-hook changes the dtype": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
def to_double(gi, go):
    return (gi[0].double(), gi[1])
y.grad_fn.register_hook(to_double)
y.sum().backward()
""",
    "a pre-hook changes the shape": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
def first(go):
    return (go[0][:1],)
y.grad_fn.register_prehook(first)
y.sum().backward()
""",
}


@pytest.mark.parametrize("name", NODE_HOOKS)
def test_node_hooks_show_what_torch_shows(name, tmp_path):
    same_in_both(NODE_HOOKS[name].lstrip("\n"), tmp_path)


# ---- saved tensors hooks ---------------------------------------------------------

SAVED = {
    "pack at forward, unpack at backward, in torch's order": """
calls = []
def pack(t):
    calls.append(("pack", t.shape, None if t.grad_fn is None else t.grad_fn.name()))
    return ("packed", t.detach())
def unpack(p):
    calls.append(("unpack", p[1].shape))
    return p[1]
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([[3.0], [4.0]], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    c = a * b
    d = c.exp()
    e = torch.tanh(d.sum(1))
    f = e.pow(2)
    g = a * 2
    with torch.no_grad():
        h = a * a
show(calls); calls.clear()
show(c.grad_fn._saved_self, calls); calls.clear()
f.sum().backward()
show(calls, a.grad, b.grad)
""",
    "what unpack returns is what backward uses": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t * 10):
    y = a * a
y.sum().backward()
show(a.grad)
""",
    "a custom Function's saved tensors, and a double backward": """
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2
calls = []
def pack(t):
    calls.append(("pack", t.shape))
    return t.detach()
def unpack(t):
    calls.append(("unpack", t.shape))
    return t
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = Cube.apply(x)
    z = (x * x).sum()
y.sum().backward()
g, = torch.autograd.grad(z, x, create_graph=True)
g.sum().backward()
show(calls, x.grad)
""",
    "nested blocks: the innermost pair": """
log = []
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append("outer") or t.detach(), lambda t: t):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append("inner") or t.detach(), lambda t: t):
        y = a.exp()
    z = a.exp()
(y + z).sum().backward()
show(log, a.grad)
""",
    "save_on_cpu": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.save_on_cpu():
    y = (a * a).exp()
y.sum().backward()
show(a.grad)
""",
    "a second backward through packed tensors": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
    y = (a * a).sum()
y.backward()
y.backward()
""",
    "unpack returns no tensor": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: 1, lambda p: "no"):
    y = a * a
y.sum().backward()
""",
    "pack changes its input in place": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.add_(1), lambda p: p):
    y = a * a
""",
    "disable_saved_tensors_hooks": """
a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    y = a * a
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        z = a * a
""",
}


@pytest.mark.parametrize("name", SAVED)
def test_saved_tensors_hooks_show_what_torch_shows(name, tmp_path):
    same_in_both(SAVED[name].lstrip("\n"), tmp_path)


@pytest.mark.parametrize("module", [anomaly, graph, hooks], ids=lambda m: m.__name__)
def test_the_docstring_examples_run(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried and not failures
