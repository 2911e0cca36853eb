"""Derivatives of derivatives (create_graph=True, several times over), compared with
PyTorch 2.13 as whole programs (tests/core/programs.py): values with their signed
zeros, grad_fn names along next_functions, printed text.

* nll_loss: its gradient is written into zeros, as torch's kernel writes it (an
  ignored row or another class stays +0., whatever the upstream gradient); the
  gradient of that gradient is nll_loss of the incoming gradient (NllLossBackward0),
  and so on.
"""

from __future__ import annotations

import pytest

from programs import assert_same_run

SEEDS = [1.0, -1.0, -0.0, 0.5, float("nan")]


def _nll_orders(reduction, seed, weight, ignore_index, values):
    def program(lib, rec):
        F = lib.nn.functional
        x = rec.leaf(values, dtype="float64")
        target = lib.tensor([2, 0, 1])
        options = dict(reduction=reduction, ignore_index=ignore_index)
        if weight is not None:
            options["weight"] = lib.tensor(weight, dtype=lib.float64)
        loss = F.nll_loss(x, target, **options)
        rec.show("loss", loss)
        previous, wrt = loss, x
        for order in (1, 2, 3, 4):
            upstream = rec.leaf(lib.full(previous.shape, seed).numpy() if lib.__name__ == "torch"
                                else lib.full(previous.shape, seed)._data, dtype="float64")
            grad, = lib.autograd.grad(previous, wrt, upstream, create_graph=True)
            rec.show(f"order {order}", grad)
            previous, wrt = grad, upstream
    return program


VALUES = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [0.0, -0.0, 3.0]]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weight,ignore_index", [(None, -100), ([1.0, 2.0, 0.5], -100),
                                                 (None, 0), ([1.0, 2.0, 0.5], 1)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_derivatives_of_every_order_are_torchs(reduction, weight, ignore_index, seed):
    assert_same_run(_nll_orders(reduction, seed, weight, ignore_index, VALUES))


@pytest.mark.parametrize("values", [[[0.0, -0.0, 0.0]] * 3, [[-0.0] * 3] * 3,
                                    [[float("nan")] * 3, [1.0, 2.0, 3.0], [-0.0, 1.0, 2.0]]],
                         ids=["zeros", "negative zeros", "nan rows"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_of_zeros_and_ignored_nans_is_torchs(reduction, values):
    """A loss of zero is +0. (torch subtracts from 0); an ignored row is 0 even if NaN."""
    for ignore_index in (-100, 2, 0):
        assert_same_run(_nll_orders(reduction, 1.0, None, ignore_index, values))


def test_cross_entropy_twice_differentiated_is_torchs():
    def program(lib, rec):
        x = rec.leaf([[0.5, -1.0, 2.0], [0.0, -0.0, 1.5]], dtype="float64")
        loss = lib.nn.functional.cross_entropy(x, lib.tensor([1, 0]), ignore_index=0)
        grad, = lib.autograd.grad(loss, x, create_graph=True)
        rec.show("grad", grad)
        (grad * -1).sum().backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)
