"""minigrad's engine runs nodes in the order PyTorch's engine does, ties included.

torch keeps ready nodes in a C++ priority queue keyed by creation number;
leaves (AccumulateGrad) all share the largest number, so when several are
ready at once they come out in the heap's own order (a, c, b, d for four),
not first-in first-out. The order is read from torch with register_prehook.
"""

import numpy as np
import pytest
import torch

import minigrad


def torch_order(out):
    seen, stack, handles, order = set(), [out.grad_fn], [], []
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        handles.append(node.register_prehook(lambda grads, node=node: order.append(node)))
        stack += [child for child, _ in node.next_functions]
    out.backward(retain_graph=True)
    for handle in handles:
        handle.remove()
    return order


def described(nodes, leaves):
    """Node names, with leaves replaced by their position in ``leaves``."""
    index = {id(leaf): i for i, leaf in enumerate(leaves)}
    return [f"leaf {index[id(n.variable)]}" if hasattr(n, "variable") else n.name()
            for n in nodes]


GRAPHS = {
    "stack of 4": lambda lib, xs: (lib.stack(xs[:4]) * 2).sum(),
    "cat of 7": lambda lib, xs: lib.cat(xs).sum(),
    "stack of 7, twice": lambda lib, xs: (lib.stack(xs) * lib.stack(xs[::-1])).sum(),
    "sum of products": lambda lib, xs: (xs[0] * xs[1] + xs[2] * xs[3] * xs[4]).sum(),
}


@pytest.mark.parametrize("name", GRAPHS)
def test_order_equals_torchs_with_many_leaves_ready_at_once(name):
    data = [np.random.default_rng(i).standard_normal(3).astype(np.float32) for i in range(7)]
    theirs = [torch.tensor(d, requires_grad=True) for d in data]
    mine = [minigrad.tensor(d, requires_grad=True) for d in data]
    expected = described(torch_order(GRAPHS[name](torch, theirs)), theirs)
    steps = minigrad.autograd.backward_steps(GRAPHS[name](minigrad, mine))
    assert described([step.node for step in steps], mine) == expected


def test_execution_order_takes_another_libraries_creation_numbers():
    xs = [torch.ones(2, requires_grad=True) for _ in range(5)]
    out = torch.stack(xs).sum()
    order = minigrad.autograd.execution_order([out.grad_fn],
                                              sequence_nr=lambda n: n._sequence_nr())
    assert list(order) == torch_order(out)
