"""``torch.autograd.graph.register_multi_grad_hook`` against PyTorch 2.13 (transcripts, as in
transcripts.py): mode "all" calls the hook once per backward pass with every tensor's
gradient, None for those the pass does not reach (a backward from one output, grad() with
``inputs``, a split's other half); mode "any" with the first gradient computed; hooks that
return something are not used; the handle's ``remove()``; PyTorch's errors; and the hook
inside a small training loop. The engine's answers behind it (``GraphTask``: the pass's
id, whether it will run a node) are the same in the reference walk (``backward_steps``)."""

from __future__ import annotations

import pytest

import minigrad
from transcripts import assert_same

START = ("a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
         "b = torch.tensor([3.0, 4.0], requires_grad=True)\n"
         "c = a * b\nd = a * 2\ncalls = []\n"
         "def grads(gs): return [None if g is None else g.tolist() for g in gs]\n")
ALL = "h = torch.autograd.graph.register_multi_grad_hook((c, d), lambda gs: calls.append(grads(gs)))\n"
ANY = ("h = torch.autograd.graph.register_multi_grad_hook((c, d), lambda g: calls.append(g.tolist()), "
       "mode='any')\n")

PROGRAMS = {
    "all: both reached": ALL + "(c.sum() + d.sum()).backward()\nshow(calls)",
    "all: one reached": ALL + "c.sum().backward()\nshow(calls)",
    "all: once per pass": ALL + "(c.sum() + d.sum()).backward(retain_graph=True)\n"
                                "d.sum().backward(retain_graph=True)\n(c * d).sum().backward()\n"
                                "show(calls)",
    "all: removed": ALL + "h.remove()\n(c.sum() + d.sum()).backward()\nshow(calls)\nh.remove()",
    "all: leaves": "h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: "
                   "calls.append(grads(gs)))\n(a * 3).sum().backward()\n(a * b).sum().backward()\n"
                   "show(calls, a.grad, b.grad)",
    "all: grad() of one input": ALL + "show(torch.autograd.grad(c.sum(), a, retain_graph=True))\n"
                                      "show(torch.autograd.grad((c + d).sum(), [a]))\nshow(calls)",
    "all: grad() stops at an output": ALL + "show(torch.autograd.grad((c + d).sum(), [c]))\n"
                                            "show(calls)",
    "all: grad() with leaves": "h = torch.autograd.graph.register_multi_grad_hook((a, b), "
                               "lambda gs: calls.append(grads(gs)))\n"
                               "show(torch.autograd.grad((a * b).sum(), [a, b]))",
    "all: backward(inputs=)": ALL + "(c.sum() + d.sum()).backward(inputs=[b])\nshow(calls, b.grad, a.grad)",
    "all: a hook's value is not used": "h = torch.autograd.graph.register_multi_grad_hook((c, d), "
                                       "lambda gs: [g * 0 for g in gs])\n"
                                       "(c.sum() + d.sum()).backward()\nshow(a.grad, b.grad)",
    "all: a split's halves": "x = torch.arange(4.0, requires_grad=True)\np, q = x.split(2)\n"
                             "h = torch.autograd.graph.register_multi_grad_hook((p, q), "
                             "lambda gs: calls.append(grads(gs)))\n(p * 1).sum().backward(retain_graph=True)\n"
                             "(p.sum() + q.sum()).backward()\nshow(calls)",
    "all: nested backward in the hook": "h = torch.autograd.graph.register_multi_grad_hook((c, d), "
                                        "lambda gs: calls.append(torch.autograd.grad((a * a).sum(), a)))\n"
                                        "(c.sum() + d.sum()).backward()\nshow(calls)",
    "any: first gradient": ANY + "(c.sum() + d.sum()).backward(retain_graph=True)\n"
                                 "d.sum().backward(retain_graph=True)\nshow(calls)",
    "any: removed": ANY + "h.remove()\n(c.sum() + d.sum()).backward()\nshow(calls)",
    "any: a tensor without grad is skipped": (
        "h = torch.autograd.graph.register_multi_grad_hook((torch.ones(2), d), "
        "lambda g: calls.append(g.tolist()), mode='any')\nd.sum().backward()\nshow(calls, type(h).__name__)"),
    "all: a tensor without grad": "h = torch.autograd.graph.register_multi_grad_hook((c, torch.ones(2)), print)",
    "a bad mode": "h = torch.autograd.graph.register_multi_grad_hook((c, d), print, mode='some')",
    "no tensors": "h = torch.autograd.graph.register_multi_grad_hook((), print)\n"
                  "(c.sum() + d.sum()).backward()\nh.remove()\nshow(type(h).__name__)",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_multi_grad_hook_as_pytorchs(name):
    assert_same(START + PROGRAMS[name])


def test_hook_in_a_training_loop_as_pytorchs():
    """The gradients of a layer's weight and bias seen together once per step (e.g. to log
    their total norm), while SGD trains a small network."""
    assert_same(
        "torch.manual_seed(0)\nnet = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))\n"
        "opt = optim.SGD(net.parameters(), lr=0.1)\nnorms = []\n"
        "h = torch.autograd.graph.register_multi_grad_hook(list(net[0].parameters()), "
        "lambda gs: norms.append(round(sum(float((g * g).sum()) for g in gs), 4)))\n"
        "x = torch.linspace(-1, 1, 15).reshape(5, 3)\ny = x.sum(1, keepdim=True) ** 2\n"
        "for _ in range(4): opt.zero_grad(); loss = ((net(x) - y) ** 2).mean(); loss.backward(); opt.step()\n"
        "show(norms, loss)\nh.remove()\nnet(x).sum().backward()\nshow(len(norms))")


def test_the_reference_walk_runs_the_hooks_as_backward():
    """backward_steps (the stepper's walk) tells the hook the same as backward() does."""
    found = []
    for run in ("steps", "backward"):
        a = minigrad.tensor([1.0, 2.0], requires_grad=True)
        c, d = a * 3, a.exp()
        calls = []
        minigrad.autograd.graph.register_multi_grad_hook(
            (c, d), lambda gs: calls.append([None if g is None else g.tolist() for g in gs]))
        for loss in (c.sum(), (c * d).sum()):
            if run == "steps":
                list(minigrad.autograd.backward_steps(loss))
            else:
                loss.backward(retain_graph=True)
        found.append(calls)
    assert found[0] == found[1] and found[0][0][1] is None and len(found[0]) == 2
    assert minigrad.autograd.graph._current_graph_task_id() == -1
