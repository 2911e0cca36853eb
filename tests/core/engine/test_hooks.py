"""Tensor hooks that change the gradient, and retain_grad() under autograd.grad, against
PyTorch 2.13 (transcripts as in transcripts.py): a hook's result must keep the
gradient's dtype and size (torch's check_variable_result, its messages naming the hook:
'<lambda>', a function's name, '<unknown>' for a callable without one), must be a tensor;
retained gradients are filled by autograd.grad too, wherever the walk passes."""

from __future__ import annotations

import functools

import pytest

from transcripts import assert_same

HOOKS = {
    "lambda to double": "lambda g: g.double()",
    "lambda to float16": "lambda g: g.half()",
    "lambda sum": "lambda g: g.sum()",
    "lambda unsqueeze": "lambda g: g.unsqueeze(0)",
    "lambda expand": "lambda g: g.expand(3, 2)",
    "lambda number": "lambda g: 2",
    "lambda list": "lambda g: [1.0, 2.0]",
    "lambda None": "lambda g: None",
    "lambda times 2": "lambda g: g * 2",
    "lambda to int": "lambda g: g.long()",
    "named function": "double_it",
    "partial": "functools.partial(lambda g, k: g.double() * k, k=2)",
    "callable object": "Doubler()",
}
PRELUDE = ("import functools\n"
           "def double_it(g): return g.double()\n"
           "class Doubler:\n    def __call__(self, g): return g.double()\n")
WHERE = {
    "non-leaf": "a = torch.tensor([1.0, 2.0], requires_grad=True)\nx = a.exp()\n",
    "leaf": "a = torch.tensor([1.0, 2.0], requires_grad=True)\nx = a\n",
    "non-leaf float64": "a = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)\n"
                        "x = a.exp()\n",
}
RUNS = {
    "backward": "x.sum().backward()\nshow(a.grad)",
    "create_graph": "x.sum().backward(create_graph=True)\nshow(a.grad)\ngfn(a.grad)",
    "autograd.grad": "show(torch.autograd.grad((x * 3).sum(), [a]))",
}


def _hook_program(hook, where, run):
    # (a class or def cannot follow on one line: the prelude is exec'd line by line, so
    # the helpers are made with exec of their own source)
    helpers = f"exec({PRELUDE!r})\n"
    return (helpers + WHERE[where] + f"h = x.register_hook({HOOKS[hook]})\n" + RUNS[run])


HOOK_CASES = {f"{hook}, {where}, {run}": _hook_program(hook, where, run)
              for hook in HOOKS for where in WHERE for run in RUNS}


@pytest.mark.parametrize("name", list(HOOK_CASES))
def test_hook_results(name):
    assert_same(HOOK_CASES[name])


RETAIN = {
    "retained tensor is the input": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nx = a.exp()\ny = x * 2\n"
        "y.retain_grad()\nz = (y * x).sum()\nshow(torch.autograd.grad(z, [y], retain_graph=True))\n"
        "show(y.grad)\nshow(torch.autograd.grad(z, [y]))\nshow(y.grad, a.grad)"),
    "retained tensor on the path": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nx = a.exp()\ny = x * 2\n"
        "y.retain_grad()\nx.retain_grad()\nz = (y * 3).sum()\nshow(torch.autograd.grad(z, [a]))\n"
        "show(y.grad, x.grad, a.grad)"),
    "retained tensor beyond the inputs": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nx = a.exp()\nx.retain_grad()\n"
        "y = x * 2\nz = (y * 3).sum()\nshow(torch.autograd.grad(z, [y]))\nshow(x.grad, a.grad)"),
    "retained tensor off the path": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nb = torch.tensor([2.0], requires_grad=True)\n"
        "u = b * 2\nu.retain_grad()\nz = (a.exp() * u).sum()\nshow(torch.autograd.grad(z, [a]))\n"
        "show(u.grad, b.grad)"),
    "retained, autograd.grad with create_graph": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nx = a.exp()\ny = x * 2\n"
        "y.retain_grad()\nz = (y * y).sum()\ng, = torch.autograd.grad(z, [a], create_graph=True)\n"
        "show(g, y.grad)\ngfn(y.grad)\ngfn(g)"),
    "retained, autograd.grad then backward": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nx = a.exp()\ny = x * 2\n"
        "y.retain_grad()\nz = (y * y).sum()\nshow(torch.autograd.grad(z, [a], retain_graph=True))\n"
        "z.backward()\nshow(y.grad, a.grad)"),
    "retained with a hook that doubles": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nx = a.exp()\ny = x * 2\n"
        "y.retain_grad()\nh = y.register_hook(lambda g: g * 2)\nz = (y * y).sum()\n"
        "show(torch.autograd.grad(z, [a]))\nshow(y.grad)"),
    "retained leaf under autograd.grad": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\na.retain_grad()\n"
        "show(torch.autograd.grad((a * a).sum(), [a]))\nshow(a.grad)"),
    "retained, allow_unused": (
        "a = torch.tensor([-1.25, 0.5], requires_grad=True)\nb = torch.tensor([1.0], requires_grad=True)\n"
        "y = a * 2\ny.retain_grad()\n"
        "show(torch.autograd.grad(y.sum(), [a, b], allow_unused=True))\nshow(y.grad)"),
}


@pytest.mark.parametrize("name", list(RETAIN))
def test_retain_grad_under_autograd_grad(name):
    assert_same(RETAIN[name])


# autograd.grad hands back, for an input whose node runs on (toward another input), the
# gradient as it arrived, before the input's hooks (PyTorch's engine captures it there);
# for an input whose node does not run, after them (semantic seed 25293)
CAPTURED = {
    "input and what it came from": (
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\nx = a.view(2).clone()\n"
        "h = x.register_hook(lambda g: g + 1)\nshow(torch.autograd.grad((x * 3).sum(), [x, a]))"),
    "the input alone": (
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\nx = a.view(2).clone()\n"
        "h = x.register_hook(lambda g: g + 1)\nshow(torch.autograd.grad((x * 3).sum(), [x]))"),
    "two hooks, retained": (
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\nx = a * 2\nx.retain_grad()\n"
        "h = x.register_hook(lambda g: g * 10)\nh2 = x.register_hook(lambda g: g + 1)\n"
        "show(torch.autograd.grad((x * 3).sum(), [a, x]))\nshow(x.grad)"),
    "a leaf and its hook": (
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\nh = a.register_hook(lambda g: g * 2)\n"
        "x = a * 2\nshow(torch.autograd.grad((x * 3).sum(), [a, x]))"),
}


@pytest.mark.parametrize("name", list(CAPTURED))
def test_an_input_that_runs_on_gives_its_gradient_before_its_hooks(name):
    assert_same(CAPTURED[name])


UNREACHED = {
    "split, the other half's hook": (
        "x = torch.arange(4.0, requires_grad=True)\np, q = x.split(2)\n"
        "h = q.register_hook(lambda g: show(g))\nh2 = p.register_hook(lambda g: show(g))\n"
        "(p * 1).sum().backward()\nshow(x.grad)"),
    "unbind, a part not used": (
        "x = torch.arange(3.0, requires_grad=True)\nparts = x.unbind(0)\n"
        "h = parts[2].register_hook(lambda g: show(g))\n(parts[0] * 2).backward()\nshow(x.grad)"),
    "replacing a None gradient": (
        "x = torch.arange(4.0, requires_grad=True)\np, q = x.split(2)\n"
        "h = q.register_hook(lambda g: torch.ones(2))\n(p * 1).sum().backward()"),
    "a hook on an unreached leaf": (
        "a = torch.ones(2, requires_grad=True)\nb = torch.ones(2, requires_grad=True)\n"
        "h = b.register_hook(lambda g: show(g))\n(a * 2).sum().backward()\nshow(b.grad)"),
}


@pytest.mark.parametrize("name", list(UNREACHED))
def test_hooks_on_outputs_no_gradient_reached(name):
    """A node that runs calls the hooks of each of its outputs, with None for an output no
    gradient reached (and refuses a hook's value in its place); a leaf not reached: none."""
    assert_same(UNREACHED[name])
