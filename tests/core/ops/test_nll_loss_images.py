"""nll_loss and cross_entropy on more than two dims, (N, C, d1, ...), compared with
PyTorch 2.13 at test time. torch computes them with nll_loss2d: 4 dims as they are,
3 dims and 5 or more made contiguous and viewed as (N, C, 1, d) first, so every case
records ``NllLoss2DBackward0`` (after a ``ViewBackward0``, and before one for
reduction='none'), and a second backward ``NllLoss2DBackwardBackward0``. Values,
signed zeros, graphs, saved values and gradients up to the third order, with class
weights, ignore_index and every reduction."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from programs import assert_same_run

SHAPES = [(2, 3, 4), (2, 3, 2, 2), (2, 3, 2, 1, 2), (1, 4, 3, 1), (3, 2, 0)]


def _program(shape, reduction, weighted, ignore_index, loss="nll_loss", permuted=False):
    def program(lib, rec):
        rng = np.random.default_rng(len(shape) * 7 + shape[1])
        x = rec.leaf(rng.standard_normal(shape), dtype="float64")
        classes = rng.integers(0, shape[1], size=(shape[0], *shape[2:]))
        if ignore_index is not None and classes.size:
            classes.reshape(-1)[::3] = ignore_index
        target = lib.tensor(classes)
        kwargs = {"reduction": reduction}
        if weighted:
            kwargs["weight"] = rec.leaf(np.linspace(0.5, 2.0, shape[1]), requires_grad=False,
                                        dtype="float64")
        if ignore_index is not None:
            kwargs["ignore_index"] = ignore_index
        scores = x  # (any scores will do for nll_loss; cross_entropy takes log_softmax)
        if permuted:  # (not contiguous: torch copies it first)
            scores = scores.transpose(0, 1).contiguous().transpose(0, 1)
        y = getattr(lib.nn.functional, loss)(scores, target, **kwargs)
        rec.show("loss", y)
        node = y.grad_fn if reduction != "none" or len(shape) == 4 else \
            y.grad_fn.next_functions[0][0]
        rec.show("saved", sorted((k, getattr(node, k)) for k in dir(node)
                                 if k.startswith("_saved_") and k not in ("_saved_self",
                                                                           "_saved_target",
                                                                           "_saved_total_weight")))
        rec.show("saved tensors", (node._saved_self, node._saved_target, node._saved_total_weight))
        upstream = rec.leaf(np.linspace(-1.0, 2.0, int(np.prod(tuple(y.shape), dtype=int)))
                            .reshape(tuple(y.shape)), dtype="float64")
        g, = lib.autograd.grad(y, x, upstream, create_graph=True)
        rec.show("first order", g)
        rec.show("its strides", g.stride())
        h, = lib.autograd.grad((g * g).sum(), [x], create_graph=True)
        rec.show("second order", h)
        (h * h.detach().sin()).sum().backward()
        rec.show("third order", (x.grad, upstream.grad))
    return program


@pytest.mark.parametrize("ignore_index", [None, 1], ids=["all", "ignore 1"])
@pytest.mark.parametrize("weighted", [False, True], ids=["", "weighted"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_nll_loss_on_images_is_torchs(shape, reduction, weighted, ignore_index):
    assert_same_run(_program(shape, reduction, weighted, ignore_index))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", SHAPES[:3], ids=str)
def test_cross_entropy_on_images_is_torchs(shape, reduction):
    assert_same_run(_program(shape, reduction, True, 2, loss="cross_entropy"))


@pytest.mark.parametrize("shape", SHAPES[:3], ids=str)
def test_a_non_contiguous_input_is_copied_as_torch_copies_it(shape):
    assert_same_run(_program(shape, "mean", False, None, permuted=True))


def test_everything_ignored_is_torchs():
    def program(lib, rec):
        x = rec.leaf(np.zeros((2, 3, 2, 2)))
        target = lib.full((2, 2, 2), -100, dtype=lib.int64)
        for reduction in ("mean", "sum", "none"):
            rec.show(reduction, lib.nn.functional.nll_loss(x, target, reduction=reduction))
    assert_same_run(program)


@pytest.mark.parametrize("call", [
    "F.nll_loss(torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=torch.int64))",
    "F.nll_loss(torch.zeros(2, 3, 4), torch.full((2, 4), 3))",
    "F.nll_loss(torch.zeros(2, 3, 4, 1, 1), torch.zeros(2, 4, 1, dtype=torch.int64))",
])
def test_errors_are_torchs(call):
    from torch_compare import outcome

    def run(lib):
        return eval(call, {"torch": lib, "F": lib.nn.functional})  # noqa: S307
    assert outcome(run, mg) == outcome(run, torch)
