"""Derivatives of derivatives (create_graph=True, several times over), compared with
PyTorch 2.13 as whole programs (tests/core/support/programs.py): values with their signed
zeros, grad_fn names along next_functions, printed text.

* nll_loss: its gradient is written into zeros, as torch's kernel writes it (an
  ignored row or another class stays +0., whatever the upstream gradient); the
  gradient of that gradient is nll_loss of the incoming gradient (NllLossBackward0),
  and so on.
* prod: torch's gradient of a product is result / x when no factor is 0, else the
  product of the others from exclusive cumulative products (cumprod) from both ends,
  so a second backward shows CumprodBackward0, CatBackward0, FlipBackward0, ... and
  a third goes through cumprod's own gradient (with zeros: a product of the other
  factors for each position, written into zeros, CopySlices). Without create_graph
  several zeros give zeros at once (torch's shortcut).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

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


PRODUCTS = {
    "no zero": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    "one zero": [[1.0, 0.0, 3.0], [4.0, -5.0, 6.0]],
    "zeros in both rows": [[0.0, 0.0, 3.0], [4.0, 5.0, 0.0]],
    "signed zeros": [[0.0, 2.0, -0.0], [-0.0, 5.0, 6.0]],
    "a row of zeros": [[2.0, 0.0, -1.0], [0.0, 0.0, 0.0]],
}

REDUCTIONS = {
    "prod()": lambda t: t.prod(),
    "prod(0)": lambda t: t.prod(0),
    "prod(1, keepdim=True)": lambda t: t.prod(1, keepdim=True),
    "t().prod()": lambda t: t.t().prod(),
    "t().prod(-1)": lambda t: t.t().prod(-1),
    "cumprod(0)": lambda t: t.cumprod(0),
    "cumprod(1)": lambda t: t.cumprod(1),
    "t().cumprod(1)": lambda t: t.t().cumprod(1),
    "cumsum(1)": lambda t: t.cumsum(1),
    "cumsum(0)": lambda t: t.cumsum(0),
}


def _orders(values, reduce, seed, orders=2, then_backward=True):
    def program(lib, rec):
        x = rec.leaf(values, dtype="float64")
        y = reduce(x)
        rec.show("y", y)
        previous = y
        for order in range(1, orders + 1):
            upstream = rec.leaf(np.full(tuple(previous.shape), seed), dtype="float64")
            grad, = lib.autograd.grad(previous, x, upstream, create_graph=True)
            rec.show(f"order {order}", grad)
            previous = grad
        if then_backward:
            previous.sum().backward()
            rec.show("x.grad", x.grad)
    return program


@pytest.mark.parametrize("seed", [1.0, -1.0])
@pytest.mark.parametrize("reduce", list(REDUCTIONS))
@pytest.mark.parametrize("values", list(PRODUCTS))
def test_products_differentiated_twice_are_torchs(values, reduce, seed):
    assert_same_run(_orders(PRODUCTS[values], REDUCTIONS[reduce], seed))


@pytest.mark.parametrize("reduce", ["prod()", "prod(0)", "cumprod(1)", "cumprod(0)"])
@pytest.mark.parametrize("values", ["one zero", "zeros in both rows", "a row of zeros"])
def test_products_with_zeros_differentiated_three_times_are_torchs(values, reduce):
    """(the third order goes through cumprod's gradient with zeros, recorded; not
    compared: a fourth, where one sum deep in the graph adds its two terms in the
    other order, which changes a last bit)"""
    assert_same_run(_orders(PRODUCTS[values], REDUCTIONS[reduce], 1.0, orders=3,
                            then_backward=False))


@pytest.mark.parametrize("values", list(PRODUCTS))
@pytest.mark.parametrize("reduce", list(REDUCTIONS))
def test_products_backward_once_are_torchs(values, reduce):
    """Without create_graph: torch's shortcuts (zeros for several zeros in prod(),
    the O(n) masks of cumprod's gradient), values and signed zeros."""
    def program(lib, rec):
        x = rec.leaf(PRODUCTS[values], dtype="float64")
        y = REDUCTIONS[reduce](x)
        y.backward(lib.full(tuple(y.shape), -1.0, dtype=lib.float64))
        rec.show("x.grad", x.grad)
        rec.show("printed", repr(y.grad_fn.name()))
    assert_same_run(program)


@pytest.mark.parametrize("call", [
    lambda lib: lib.cumsum(lib.tensor([[1, 2], [3, 4]]), 0),
    lambda lib: lib.cumprod(lib.tensor([True, True, False]), 0),
    lambda lib: lib.cumprod(lib.tensor([1.5, 2.0]), 0, dtype=lib.float64),
    lambda lib: lib.tensor([1.0, 2.0]).cumsum(dim=-1),
    lambda lib: lib.tensor(3.0).cumprod(0),
    lambda lib: lib.tensor([1.0, 2.0]).cumsum(1),
    lambda lib: lib.cumsum(lib.tensor([1.0, 2.0]), 0, out=lib.zeros(2)),
], ids=["int64", "bool", "dtype", "dim=-1", "0-dim", "bad dim", "out="])
def test_cumsum_and_cumprod_are_torchs(call):
    def program(lib, rec):
        rec.show("result", call(lib))
    assert_same_run(program)


# ---- the order in which formulas record their nodes ---------------------------------
# torch's generated backward takes the inputs by name, alphabetically (other before self,
# mat1 before mat2 before self), and C++ evaluates the right operand of a product first.
# With create_graph=True that order is the nodes' creation order, and a later backward
# runs the latest-created first: it decides in which order the gradients reaching one
# tensor are added up (AddBackward0's operands, and the last bits of the sums).

BINARY_FORMULAS = {
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / b,
    "exp(a) / a": lambda lib, a, b: a.exp() / a,
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "minimum": lambda lib, a, b: lib.minimum(a, b),
    "where": lambda lib, a, b: lib.where(a > b, a, b),
    "mm": lambda lib, a, b: a.reshape(2, 2) @ b.reshape(2, 2),
    "bmm": lambda lib, a, b: a.reshape(1, 2, 2) @ b.reshape(1, 2, 2),
    "linear": lambda lib, a, b: lib.nn.functional.linear(a.reshape(2, 2), b.reshape(2, 2),
                                                         b[:2]),
    "a * b / (a + b)": lambda lib, a, b: a * b / (a + b),
}


@pytest.mark.parametrize("formula", list(BINARY_FORMULAS))
def test_nodes_of_formulas_add_up_in_torchs_order(formula):
    def program(lib, rec):
        a = rec.leaf([1.0, -2.0, 3.0, 0.5], dtype="float64")
        b = rec.leaf([0.5, -2.0, -1.0, 2.0], dtype="float64")
        y = BINARY_FORMULAS[formula](lib, a, b)
        upstream = rec.leaf(np.full(tuple(y.shape), 1.5), dtype="float64")
        ga, gb = lib.autograd.grad(y, [a, b], upstream, create_graph=True)
        rec.show("first order", (ga, gb))
        hb, = lib.autograd.grad((ga * ga).sum() + (gb * ga).sum(), [b], create_graph=True)
        rec.show("second order", hb)
        (hb * hb).sum().backward()
        rec.show("third order", (a.grad, upstream.grad))
    assert_same_run(program)


@pytest.mark.parametrize("sizes", [(2, 1, 3), (3, 1, 2), (1, 1, 3), (3, 1, 1), (2, 2, 2)],
                         ids=str)
def test_matrix_products_keep_torchs_signed_zeros(sizes):
    """With an inner size of 1 (and more than one row and column) torch's kernel
    writes each product as it is: -2 * 0 is -0. With an inner size of 0, addmm (a linear
    layer) leaves its bias as it is, -0. too."""
    m, k, n = sizes

    def program(lib, rec):
        a = rec.leaf(-np.arange(1.0, m * k + 1).reshape(m, k))
        b = rec.leaf(np.zeros((k, n)))
        rec.show("mm", a @ b)
        rec.show("mm of zeros on the left", b.t() @ a.t() if k == 1 else b.t() @ a.t())
        rec.show("linear", lib.nn.functional.linear(a, b.t(), lib.zeros(n)))
        (a @ b).backward(lib.full((m, n), -1.0))
        rec.show("grads", (a.grad, b.grad))
        bias = rec.leaf(np.array([-0.0, 0.0, -0.0] * n)[:n])
        empty = lib.nn.functional.linear(a[:, :0], b.t()[:, :0], bias)
        rec.show("linear with an inner size of 0", (empty, empty.stride()))
        empty.backward(lib.full((m, n), -1.0))
        rec.show("its bias's grad", bias.grad)
    assert_same_run(program)


@pytest.mark.parametrize("pos_weight", [False, True])
@pytest.mark.parametrize("weight", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_bce_with_logits_differentiated_twice_is_torchs(reduction, weight, pos_weight):
    """torch's binary_cross_entropy_with_logits_backward: (sigmoid(x) - t) * G (with
    pos_weight: ((p t + 1 - t) sigmoid(x) - p t) * G), times the weight, divided by
    the number of elements for 'mean'; the target's: -x * G, with pos_weight
    (log_sigmoid(-x) - log_sigmoid(x) * p) * G (LogSigmoidBackward0, then
    LogSigmoidBackwardBackward0 and third order through it)."""
    def program(lib, rec):
        x = rec.leaf([0.5, -1.5, 2.0, 0.0], dtype="float64")
        t = rec.leaf([1.0, 0.0, 0.25, 1.0], dtype="float64")
        options = {"reduction": reduction}
        if weight:
            options["weight"] = lib.tensor([1.0, 2.0, 0.5, 1.5], dtype=lib.float64)
        if pos_weight:
            options["pos_weight"] = lib.tensor([2.0, 0.5, 1.0, 3.0], dtype=lib.float64)
        loss = lib.nn.functional.binary_cross_entropy_with_logits(x, t, **options)
        upstream = rec.leaf(np.full(tuple(loss.shape), 1.5), dtype="float64")
        gx, gt = lib.autograd.grad(loss, [x, t], upstream, create_graph=True)
        rec.show("d/dx", gx)
        rec.show("d/dt", gt)
        h, = lib.autograd.grad((gt * gt).sum(), [x], create_graph=True)
        rec.show("d/dx of the target's gradient", h)
        (gx * gx).sum().backward(retain_graph=True)
        rec.show("second order", (x.grad, t.grad, upstream.grad))
        (h * h.detach().cos()).sum().backward()
        rec.show("third order", (x.grad, t.grad, upstream.grad))
    assert_same_run(program)


UNARY_FORMULAS = {
    "exp": lambda lib, x: x.exp(), "log |x|": lambda lib, x: x.abs().log(),
    "tanh": lambda lib, x: x.tanh(), "sigmoid": lambda lib, x: x.sigmoid(),
    "x ** 3": lambda lib, x: x ** 3, "|x| ** 2.5": lambda lib, x: x.abs() ** 2.5,
    "1 / x": lambda lib, x: 1 / x, "sin": lambda lib, x: x.sin(),
    "softmax": lambda lib, x: x.softmax(-1), "log_softmax": lambda lib, x: x.log_softmax(-1),
    "norm()": lambda lib, x: x.norm(), "norm(dim=1)": lambda lib, x: x.norm(dim=1),
    "mean(1)": lambda lib, x: x.mean(1), "var(1)": lambda lib, x: x.var(1),
    "std()": lambda lib, x: x.std(), "logsumexp(1)": lambda lib, x: x.logsumexp(1),
    "max(1)": lambda lib, x: x.max(1).values,
    "mse_loss": lambda lib, x: lib.nn.functional.mse_loss(x, x.detach() * 0.5),
    "cross_entropy": lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor([1, 0])),
    "x * exp(x)": lambda lib, x: x * x.exp(), "x / x.sum()": lambda lib, x: x / x.sum(),
    "tanh(x) * sigmoid(x)": lambda lib, x: x.tanh() * x.sigmoid(),
}


@pytest.mark.parametrize("formula", list(UNARY_FORMULAS))
def test_formulas_differentiated_three_times_are_torchs(formula):
    """Graphs (names, edges, the order sums add up in) and values to the third order."""
    def program(lib, rec):
        x = rec.leaf([[0.7, -1.3, 2.1], [0.4, 1.1, -0.6]], dtype="float64")
        previous = UNARY_FORMULAS[formula](lib, x)
        for order in (1, 2, 3):
            # (varied: a constant into softmax would give gradients of pure rounding noise)
            size = int(np.prod(previous.shape, dtype=np.int64))
            upstream = rec.leaf((np.arange(size) * 0.7 - 1.1).reshape(tuple(previous.shape)),
                                dtype="float64")
            grad, = lib.autograd.grad(previous, x, upstream, create_graph=True)
            rec.show(f"order {order}", grad)
            previous = grad
    assert_same_run(program)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_gradient_of_gradient_is_torchs(reduction):
    """torch's mse_loss_double_backward: the upstream gradient's is mse_loss_backward
    of G (summed when reduced), self's 2 (G grad_output) / n, target's minus that."""
    def program(lib, rec):
        x = rec.leaf([[0.7, -1.3, 2.1], [0.4, 1.1, -0.6]], dtype="float64")
        t = rec.leaf([[0.5, 1.0, 2.0], [0.0, 1.0, -1.0]], dtype="float64")
        loss = lib.nn.functional.mse_loss(x, t, reduction=reduction)
        upstream = rec.leaf(np.full(tuple(loss.shape), 1.5), dtype="float64")
        gx, gt = lib.autograd.grad(loss, [x, t], upstream, create_graph=True)
        rec.show("first", (gx, gt))
        u = rec.leaf(np.full(tuple(gx.shape), 0.5), dtype="float64")
        rec.show("second", lib.autograd.grad(gx, [upstream, x, t], u, create_graph=True))
    assert_same_run(program)



@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("values", [-2.0, [-2.0], [0.5, -2.0, 1.5]])
def test_max_and_min_along_a_dim_to_the_third_order(values, op, keepdim):
    """torch's value_selecting_reduction_backward: a scatter into zeros, recorded
    (ScatterBackward0) even for a 0-dim tensor, whose one element is its maximum."""
    def program(lib, rec):
        x = rec.leaf(np.array(values), dtype="float64")
        v = getattr(x, op)(0, keepdim=keepdim).values
        rec.show("values", v)
        total = (v * v * v).sum()
        for order in (1, 2, 3):
            grad, = lib.autograd.grad(total, x, create_graph=True)
            rec.show(f"order {order}", grad)
            total = (grad * grad).sum()
    assert_same_run(program)


@pytest.mark.parametrize("activation", ["leaky_relu", "hardtanh", "relu6", "relu"])
def test_a_piecewise_linear_derivative_is_recorded_as_torchs_node(activation):
    """A gradient taken with create_graph=True through leaky_relu or hardtanh (relu6) is
    PyTorch's XBackwardBackward0 node (as relu's ThresholdBackwardBackward0), which saves x and the
    activation's parameters and passes zeros to x: so the gradient requires grad even
    where only x does (rasbt/machine-learning-book ch17's WGAN-GP penalty differentiates
    the critic's input gradient; a LeakyReLU critic without a smooth layer gave
    minigrad's "does not require grad" error where PyTorch gives zeros)."""
    def program(lib, rec):
        F = lib.nn.functional
        call = {"leaky_relu": lambda t: F.leaky_relu(t, 0.2), "hardtanh": F.hardtanh,
                "relu6": F.relu6, "relu": F.relu}[activation]
        x = rec.leaf([[1.5, -2.0, 0.3], [-0.4, 7.0, 0.0]], dtype="float64")
        w = rec.leaf([[0.5, -1.0, 2.0], [1.0, 1.0, -3.0]], dtype="float64")
        inter = x * w
        g, = lib.autograd.grad(call(inter).sum(), inter, create_graph=True)
        rec.show("gradient", g)
        rec.show("node", type(g.grad_fn).__name__)
        rec.show("saved", sorted(a for a in dir(g.grad_fn) if a.startswith("_saved")))
        (g ** 2).sum().backward()
        rec.show("x.grad", x.grad)
        rec.show("w.grad", w.grad)
        h = call(inter * w)  # (upstream that requires grad: the second derivative's values)
        g, = lib.autograd.grad((h * h).sum(), w, create_graph=True)
        g2, = lib.autograd.grad(g.sum(), [x])
        rec.show("second", g2)
    assert_same_run(program)


def test_a_wgan_gradient_penalty_through_a_leaky_relu_critic_is_torchs():
    """The penalty of rasbt/machine-learning-book ch17: conv, InstanceNorm2d, LeakyReLU,
    the critic's gradient with respect to an interpolation, its norm per sample, then
    backward into the critic's weights and alpha, in float64."""
    results = []
    for lib in (mg, torch):
        nn = lib.nn
        lib.manual_seed(1)
        critic = nn.Sequential(nn.Conv2d(1, 4, 4, 2, 1, bias=False), nn.LeakyReLU(0.2),
                               nn.Conv2d(4, 8, 4, 2, 1, bias=False), nn.InstanceNorm2d(8),
                               nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 7, 1, 0, bias=False)).double()
        real, fake = lib.rand(3, 1, 28, 28, dtype=lib.float64), lib.rand(3, 1, 28, 28, dtype=lib.float64)
        alpha = lib.rand(3, 1, 1, 1, requires_grad=True, dtype=lib.float64)
        interpolated = alpha * real + (1 - alpha) * fake
        out = critic(interpolated)
        gradients = lib.autograd.grad(outputs=out, inputs=interpolated,
                                      grad_outputs=lib.ones(out.size(), dtype=lib.float64),
                                      create_graph=True, retain_graph=True)[0]
        penalty = 10.0 * ((gradients.view(3, -1).norm(2, dim=1) - 1) ** 2).mean()
        penalty.backward()
        results.append([penalty.detach().numpy(), alpha.grad.numpy()]
                       + [p.grad.numpy() for p in critic.parameters()])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
