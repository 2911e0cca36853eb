"""``torch.autograd.graph.GradientEdge`` and ``get_gradient_edge`` against PyTorch 2.13
(transcripts, as in transcripts.py): a tensor's edge (its grad_fn, a leaf's AccumulateGrad,
its output_nr), taken by ``autograd.grad`` and ``backward`` wherever they take a tensor:
as an input (the gradient flowing into that edge), as an output (with its gradient given),
unused (``allow_unused``), and PyTorch's errors."""

from __future__ import annotations

import pytest

from transcripts import assert_same

START = ("from importlib import import_module\n"
         "graph = import_module(torch.__name__ + '.autograd.graph')\n"
         "a = torch.tensor([1.0, 2.0], requires_grad=True)\nb = a * 3\nc = b.exp()\n"
         "e = graph.get_gradient_edge(b)\n")

PROGRAMS = {
    "the edge": "show(type(e).__name__, e.output_nr, e.node.name(), e.ownership_token, len(e))\n"
                "show(graph.get_gradient_edge(a).node.name(), graph.GradientEdge(b.grad_fn, 0) == e)",
    "grad into an edge": "show(torch.autograd.grad(c.sum(), e))",
    "an edge and a leaf": "show(torch.autograd.grad(c.sum(), [e, a]))",
    "materialize_grads": "show(torch.autograd.grad(c.sum(), e, materialize_grads=True))",
    "an edge as the output": "show(torch.autograd.grad(graph.get_gradient_edge(c), a, "
                             "grad_outputs=torch.ones(2)))",
    "an edge as the output, no gradient": "show(torch.autograd.grad(graph.get_gradient_edge(c), a))",
    "an unused edge": "d = a * 2\nshow(torch.autograd.grad(c.sum(), graph.get_gradient_edge(d)))",
    "an unused edge allowed": "d = a * 2\nshow(torch.autograd.grad(c.sum(), graph.get_gradient_edge(d), "
                              "allow_unused=True))",
    "backward(inputs=edge)": "c.sum().backward(inputs=e, retain_graph=True)\nshow(a.grad)\n"
                             "c.sum().backward(inputs=[e, a])\nshow(a.grad)",
    "a split's second part": "x = torch.arange(4.0, requires_grad=True)\np, q = x.split(2)\n"
                             "show(graph.get_gradient_edge(q).output_nr, "
                             "torch.autograd.grad((q * q).sum(), graph.get_gradient_edge(q)))",
    "no grad": "graph.get_gradient_edge(torch.ones(2))",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_gradient_edges_as_pytorchs(name):
    assert_same(START + PROGRAMS[name])
