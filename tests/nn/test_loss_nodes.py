"""Linear and the losses show PyTorch's own graph nodes, and those nodes'
derivatives pass gradcheck (float64), including gradients for targets."""

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad.autograd import gradcheck

RNG = np.random.default_rng(7)
SCORES = RNG.standard_normal((5, 3))
CLASSES = np.array([0, 2, 1, 2, 0])
TARGETS = RNG.uniform(0, 1, (5, 3))
WEIGHT = np.array([0.5, 2.0, 1.0])


def chain(tensor):
    """Node names from the output down the first input of each node."""
    names, node = [], tensor.grad_fn
    while node is not None:
        names.append([None if n is None else n.name() for n, _ in node.next_functions])
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return [tensor.grad_fn.name()] + names


def build(lib, case, reduction, leaves=None):
    scores = lib.tensor(SCORES, dtype=lib.float32, requires_grad=True)
    layer_in = lib.tensor(SCORES[:, :2], dtype=lib.float32)
    w = lib.tensor(SCORES[:3, :2], dtype=lib.float32, requires_grad=True)
    b = lib.tensor(SCORES[0], dtype=lib.float32, requires_grad=True)
    if leaves is not None:
        leaves.extend([scores, w, b])
    F = lib.nn.functional
    if case == "linear":
        return F.linear(layer_in, w, b)
    if case == "linear_3d":
        return F.linear(layer_in.reshape(5, 1, 2), w, b)
    if case == "cross_entropy":
        return F.cross_entropy(scores, lib.tensor(CLASSES), reduction=reduction)
    if case == "cross_entropy_weighted":
        return F.cross_entropy(scores, lib.tensor(CLASSES), weight=lib.tensor(WEIGHT,
                               dtype=lib.float32), ignore_index=1, reduction=reduction)
    if case == "mse":
        return F.mse_loss(scores, lib.tensor(TARGETS, dtype=lib.float32), reduction=reduction)
    if case == "bce_logits":
        return F.binary_cross_entropy_with_logits(
            scores, lib.tensor(TARGETS, dtype=lib.float32), reduction=reduction,
            pos_weight=lib.tensor(WEIGHT, dtype=lib.float32))
    raise ValueError(case)


CASES = ["linear", "linear_3d", "cross_entropy", "cross_entropy_weighted", "mse", "bce_logits"]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", CASES)
def test_nodes_values_and_grads_match_torch(case, reduction):
    our_leaves, their_leaves = [], []
    ours = build(mg, case, reduction, our_leaves)
    theirs = build(torch, case, reduction, their_leaves)
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    assert len(ours.grad_fn.next_functions) == len(theirs.grad_fn.next_functions)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5,
                               atol=1e-6)
    upstream = RNG.standard_normal(tuple(theirs.shape)).astype(np.float32)
    ours.backward(mg.tensor(upstream))
    theirs.backward(torch.tensor(upstream))
    for mine, reference in zip(our_leaves, their_leaves):
        assert (mine.grad is None) == (reference.grad is None)
        if reference.grad is not None:
            np.testing.assert_allclose(mine.grad.numpy(), reference.grad.numpy(), rtol=1e-5,
                                       atol=1e-6)


def test_linear_graph_is_torchs():
    assert chain(build(mg, "linear", None))[:2] == chain(build(torch, "linear", None))[:2]


def _double(x):
    return mg.tensor(x, dtype=mg.float64, requires_grad=True)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_gradcheck_losses(reduction):
    F = mg.nn.functional
    classes = mg.tensor(CLASSES)
    weight = mg.tensor(WEIGHT)
    assert gradcheck(lambda s: F.nll_loss(s.log_softmax(1), classes, weight,
                                          reduction=reduction), (_double(SCORES),))
    assert gradcheck(lambda s, t: F.mse_loss(s, t, reduction=reduction),
                     (_double(SCORES), _double(TARGETS)))
    assert gradcheck(lambda s, t: F.binary_cross_entropy_with_logits(
        s, t, weight=weight, pos_weight=weight, reduction=reduction),
        (_double(SCORES * 4), _double(TARGETS)))


def test_gradcheck_addmm():
    assert gradcheck(lambda b, x, w: mg.nn.functional.linear(x, w, b),
                     (_double(SCORES[0]), _double(SCORES[:, :2]), _double(SCORES[:3, :2])))


def test_bce_gradients_for_targets_match_torch():
    def run(lib):
        s = lib.tensor(SCORES * 4, requires_grad=True)
        t = lib.tensor(TARGETS, requires_grad=True)
        lib.nn.functional.binary_cross_entropy_with_logits(
            s, t, pos_weight=lib.tensor(WEIGHT)).backward()
        return s.grad.numpy(), t.grad.numpy()
    for ours, theirs in zip(run(mg), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-8)
