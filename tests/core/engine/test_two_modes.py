"""One formula, two modes (issue 11), against PyTorch 2.13.

* ``x ** k`` for small integer k is computed as torch's kernels compute it (by
  multiplication for 2, 3 and -2), so its values are torch's, bit for bit.
* With ``create_graph=True`` the formulas run on Tensors, and the nodes they
  record are the ones torch records (``TanhBackwardBackward0``, ...).
* Without it they run on NumPy arrays: the gradients are the same as the
  Tensor run's, bit for bit, and no node is recorded.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import rand


# ---- integer powers ------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("exponent", [2, 3, -2, -1, 0, 1, 2.0, 3.0])
def test_integer_powers_have_torchs_exact_values(exponent, dtype):
    values = rand((2000,), seed=5, dtype=dtype, low=-3.0, high=3.0)
    ours = (mg.tensor(values) ** exponent)._data
    theirs = (torch.tensor(values) ** exponent).numpy()
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("exponent", [0.5, -0.5, 4, 1.5, -3])
def test_other_powers_agree_with_torch(exponent):
    """(torch computes these with its vectorised pow and sqrt, which may differ
    from NumPy's in the last bit)"""
    values = rand((2000,), seed=5, low=0.1, high=3.0)
    np.testing.assert_allclose((mg.tensor(values) ** exponent)._data,
                               (torch.tensor(values) ** exponent).numpy(), rtol=3e-7)


@pytest.mark.parametrize("exponent", [2, 3, -2, 0.5])
def test_power_keeps_pow_backward_and_torchs_gradient(exponent):
    values = rand((50,), seed=6, low=0.5, high=2.0)
    ours, theirs = mg.tensor(values, requires_grad=True), torch.tensor(values, requires_grad=True)
    y, z = ours ** exponent, theirs ** exponent
    assert y.grad_fn.name() == z.grad_fn.name() == "PowBackward0"
    y.sum().backward()
    z.sum().backward()
    if exponent in (2, 3):  # exponent * x ** (exponent - 1) by multiplication: exact
        np.testing.assert_array_equal(ours.grad._data, theirs.grad.numpy())
    else:
        np.testing.assert_allclose(ours.grad._data, theirs.grad.numpy(), rtol=3e-7)


def test_power_of_negative_zero_and_inf_as_torch():
    values = np.array([-0.0, 0.0, -np.inf, np.inf, np.nan, -1.5], np.float32)
    for exponent in (2, 3, -2, -1, 0.5, -0.5):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # and NumPy prints no warning
            ours = (mg.tensor(values) ** exponent)._data
        np.testing.assert_array_equal(ours, (torch.tensor(values) ** exponent).numpy())


# ---- the nodes a backward with create_graph=True records ---------------------------

PROGRAMS = {
    "sigmoid": lambda lib, x: x.sigmoid(),
    "tanh": lambda lib, x: x.tanh(),
    "relu": lambda lib, x: x.relu(),
    "sqrt": lambda lib, x: x.sqrt(),
    "abs": lambda lib, x: x.abs(),
    "x ** 3": lambda lib, x: x ** 3,
    "2 ** x": lambda lib, x: 2 ** x,
    "x ** x": lambda lib, x: x ** x,
    "max": lambda lib, x: x.max(),
    "max(dim)": lambda lib, x: x.max(dim=1).values,
    "min(dim)": lambda lib, x: x.min(dim=1).values,
    "maximum": lambda lib, x: lib.maximum(x, x.detach() * 0 + 1.0),
    "masked_fill": lambda lib, x: x.masked_fill(x > 1, 0.0),
    "x[0]": lambda lib, x: x[0],
    "x[1:]": lambda lib, x: x[1:],
    "narrow": lambda lib, x: x.narrow(1, 1, 2),
    "mean": lambda lib, x: x.mean(),
    "mean(dim)": lambda lib, x: x.mean(dim=1),
    "sum(dim)": lambda lib, x: x.sum(dim=1),
    "x[mask]": lambda lib, x: x[x > 1],
    "x[[0, 2]]": lambda lib, x: x[lib.tensor([0, 2])],
    "var": lambda lib, x: x.var(),
    "std": lambda lib, x: x.std(),
    "norm": lambda lib, x: x.norm(),
    "logsumexp": lambda lib, x: x.logsumexp(1),
    "squeeze": lambda lib, x: x.unsqueeze(0).squeeze(0),
    "expand": lambda lib, x: x[0:1].expand(3, 4),
    "dot": lambda lib, x: x[0].dot(x[1]),
    "softmax": lambda lib, x: x.softmax(1),
    "log_softmax": lambda lib, x: x.log_softmax(0),
    "mse_loss": lambda lib, x: lib.nn.functional.mse_loss(x * x, x.detach() + 1),
    "mse_loss none": lambda lib, x: lib.nn.functional.mse_loss(x, x.detach() * 2,
                                                              reduction="none"),
    "mse_loss target": lambda lib, x: lib.nn.functional.mse_loss(x.detach() + 1, x),
    "nll_loss": lambda lib, x: lib.nn.functional.nll_loss(x.log_softmax(1),
                                                          lib.tensor([0, 3, 1])),
    "nll_loss none": lambda lib, x: lib.nn.functional.nll_loss(x, lib.tensor([0, 3, 1]),
                                                               reduction="none"),
    "cross_entropy": lambda lib, x: lib.nn.functional.cross_entropy(x, lib.tensor([2, 0, 1])),
    "mv": lambda lib, x: x.mv(x[0].detach() * x[0]),
    "mm": lambda lib, x: x.mm(x.t()),
    "setitem": lambda lib, x: _written(x),
    "write through a view": lambda lib, x: _written_through_a_view(x),
}


def _written(x):
    y = x * 1
    y[0] = x[1] * 2
    return y


def _written_through_a_view(x):
    y = x * x
    y[1:, 1].mul_(x[0, :2])
    return y


def first_derivative_nodes(lib, fn) -> list:
    """The names of the nodes in the graph of d(fn(x))/dx taken with
    create_graph=True, for an upstream gradient that itself requires grad."""
    values = rand((3, 4), seed=8, low=0.5, high=2.0)
    x = lib.tensor(values, requires_grad=True)
    y = fn(lib, x)
    v = lib.tensor(rand(tuple(y.shape), seed=9, low=0.5, high=1.5), requires_grad=True)
    g, = lib.autograd.grad([y], [x], [v], create_graph=True)
    names, stack, seen = [], [g.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(n for n, _ in reversed(node.next_functions))
    return names


@pytest.mark.parametrize("name", PROGRAMS)
def test_double_backward_records_torchs_nodes(name):
    fn = PROGRAMS[name]
    assert first_derivative_nodes(mg, fn) == first_derivative_nodes(torch, fn)


@pytest.mark.parametrize("name", ["sigmoid", "tanh", "relu", "max(dim)", "x[0]", "x[1:]",
                                  "x[mask]", "masked_fill", "mean(dim)", "softmax",
                                  "log_softmax", "mse_loss", "mse_loss none",
                                  "mse_loss target", "nll_loss", "nll_loss none",
                                  "cross_entropy", "mv", "setitem", "write through a view"])
def test_second_derivative_through_the_new_nodes_as_torch(name):
    fn = PROGRAMS[name]
    values = rand((3, 4), seed=10, low=0.5, high=2.0)
    results = []
    for lib in (mg, torch):
        x = lib.tensor(values, requires_grad=True)
        y = fn(lib, x)
        v = lib.tensor(rand(tuple(y.shape), seed=11, low=0.5, high=1.5), requires_grad=True)
        g, = lib.autograd.grad([y], [x], [v], create_graph=True)
        w = lib.tensor(rand((3, 4), seed=12))
        second = lib.autograd.grad([(g * w).sum()], [x, v], allow_unused=True)
        results.append([None if s is None else np.asarray(s.detach().numpy()) for s in second])
    for ours, theirs in zip(*results):
        if theirs is None:
            assert ours is None or not ours.any()
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_relu_is_twice_differentiable_as_in_torch():
    for lib in (mg, torch):
        x = lib.tensor([-1.0, 2.0], requires_grad=True)
        g, = lib.autograd.grad(x.relu().sum(), x, create_graph=True)
        assert g.grad_fn.name() == "ThresholdBackwardBackward0"
        g.sum().backward()
        assert x.grad.tolist() == [0.0, 0.0]


# ---- arrays and Tensors give the same numbers ------------------------------------

@pytest.mark.parametrize("name", PROGRAMS)
def test_backward_on_arrays_equals_backward_on_tensors(name):
    """The same formula on arrays (create_graph=False) and on Tensors
    (create_graph=True) gives the same gradient, bit for bit."""
    fn = PROGRAMS[name]
    values = rand((3, 4), seed=13, low=0.5, high=2.0)
    grads = []
    for create_graph in (False, True):
        x = mg.tensor(values, requires_grad=True)
        y = fn(mg, x)
        v = mg.tensor(rand(tuple(y.shape), seed=14))
        g, = mg.autograd.grad([y], [x], [v], create_graph=create_graph)
        assert (g.grad_fn is None) == (not create_graph) or not g.requires_grad
        grads.append(g._data)
    np.testing.assert_array_equal(grads[0], grads[1])


@pytest.mark.parametrize("op", ["mul", "add", "sub", "div"])
def test_a_signed_zero_number_keeps_its_sign_after_the_other_zero(op):
    """Wrapped numbers are cached: 0.0 and -0.0 are equal keys to a dict, but
    x * -0.0 is -0. where x * 0.0 is 0."""
    results = {}
    for lib in (mg, torch):
        x = lib.tensor([1.0, -0.0, 2.0])
        f = {"mul": lambda a, b: a * b, "add": lambda a, b: a + b,
             "sub": lambda a, b: a - b, "div": lambda a, b: a / b}[op]
        results[lib.__name__] = [f(x, 0.0).tolist(), f(x, -0.0).tolist(), f(x, 0.0).tolist()]
    for got, want in zip(results["minigrad"], results["torch"]):
        assert np.array_equal(np.signbit(got), np.signbit(want)) and np.allclose(got, want,
                                                                                equal_nan=True)
