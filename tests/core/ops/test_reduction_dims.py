"""``sum`` and ``mean`` with ``dim=None``, an empty ``dim`` or a tensor ``dim``, against PyTorch.

PyTorch tells ``x.sum()`` (no ``dim``: ``SumBackward0``) from ``x.sum(None)`` and
``x.sum(())`` (a reduction with ``dim`` over every dim: ``SumBackward1``, which saves
the ``dim`` it was given and honours ``keepdim``), and takes a one-element integer
tensor as a ``dim``. Compared here: values, shapes, the graph's node names, the saved
``dim``, gradients, and the node names of the second-order graph.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from torch_compare import check, check_error, rand

CALLS = [
    "x.sum()", "x.sum(None)", "x.sum(dim=None)", "x.sum(None, True)",
    "x.sum(dim=None, keepdim=True)",
    "x.sum(())", "x.sum([])", "x.sum((), True)", "x.sum((0, 1))", "x.sum(1)", "x.sum(-1)",
    "x.sum((1, 0))", "x.mean((-1, 0), True)", "x.sum(0)",
    "x.sum(None, dtype=lib.float64)", "x.sum(dtype=lib.float64)",
    "x.sum(lib.tensor(1))", "x.sum(dim=lib.tensor(0), keepdim=True)", "x.sum(lib.tensor([1]))",
    "x.sum((lib.tensor(0), 1))",
    "lib.sum(x, None, True)", "lib.sum(x, dim=None)", "lib.sum(x, lib.tensor(0))",
    "x.mean()", "x.mean(None)", "x.mean(None, True)", "x.mean(())", "x.mean([], True)",
    "x.mean(lib.tensor(1))", "lib.mean(x, None, True)", "lib.mean(x, dim=lib.tensor(-1))",
]
SHAPES = [(2, 3), (), (0, 3)]


def _second_order_names(lib, call, array):
    x = lib.tensor(array, requires_grad=True)
    y = eval(call, {"lib": lib, "x": x})
    g, = lib.autograd.grad((y * y).sum(), x, create_graph=True)
    names, stack, seen = [], [g.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(node.name())
        stack.extend(next_node for next_node, _ in node.next_functions)
    return sorted(names), g.detach().numpy() if lib is torch else g._data


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("call", CALLS)
def test_reduction_dims_as_torch(call, shape):
    run = lambda lib, x: eval(call, {"lib": lib, "x": x})  # noqa: E731
    try:
        run(torch, torch.tensor(rand(shape)))
    except (IndexError, RuntimeError):  # (a bad dim for a 0-dim tensor: the same error)
        check_error(run, rand(shape))
        return
    ours, theirs = check(run, rand(shape))
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    if "_saved_dim" in dir(theirs.grad_fn):
        assert ours.grad_fn._saved_dim == theirs.grad_fn._saved_dim
        assert ours.grad_fn._saved_keepdim == theirs.grad_fn._saved_keepdim


@pytest.mark.parametrize("call", [c for c in CALLS if "dtype" not in c])
def test_second_order_graphs_as_torch(call):
    array = rand((2, 3), seed=4)
    ours_names, ours_grad = _second_order_names(mg, call, array)
    theirs_names, theirs_grad = _second_order_names(torch, call, array)
    assert ours_names == theirs_names
    np.testing.assert_allclose(ours_grad, theirs_grad, rtol=1e-6)


@pytest.mark.parametrize("call", [
    "x.sum(keepdim=True)", "x.mean(keepdim=True)", "x.sum(lib.tensor(1.0))",
    "x.sum(lib.tensor([0, 1]))", "x.sum(1.5)", "x.sum(5)", "x.sum((0, 0))",
    "lib.sum(x, lib.tensor([0, 1]))", "lib.sum(x, 1.5)",
])
def test_bad_dims_fail_as_torch(call):
    check_error(lambda lib, x: eval(call, {"lib": lib, "x": x}), rand((2, 3)))


def test_the_default_reads_plainly():
    """``help(x.sum)`` shows what the default means."""
    assert repr(mg.ops.NOT_GIVEN) == "<not given>"
    assert mg.ones(2).sum(None).grad_fn is None  # (nothing requires grad: no node)
