"""ops/special.py's lgamma, digamma and polygamma (and torch.special's gammaln, digamma,
psi, polygamma) against
PyTorch 2.13 and finite differences: values, LgammaBackward0 and DigammaBackward0 with
their gradients (digamma, and polygamma(1, x) recorded as PolygammaBackward0), integer
inputs (float32), the poles and infinities, the in-place forms, ``out=``, printing and
errors; and how often the last bit differs from PyTorch's kernels (the README's figures:
PyTorch's lgamma is SLEEF's, minigrad's the C library's; digamma and trigamma are
PyTorch's formulas, step by step)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_numerical, rand
from transcripts import assert_same

X = rand((3, 4), seed=1, low=-4.0, high=6.0, away_from=[-4, -3, -2, -1, 0], gap=0.1)

CASES = {
    "lgamma": lambda lib, x: lib.lgamma(x),
    "lgamma method": lambda lib, x: (x * x).lgamma() * x,
    "digamma": lambda lib, x: lib.digamma(x),
    "digamma method": lambda lib, x: x.digamma() * x,
    "special.gammaln": lambda lib, x: lib.special.gammaln(x.abs() + 1),
    "special.psi": lambda lib, x: lib.special.psi(x) + lib.special.digamma(x),
    "in place": lambda lib, x: (x * 1).lgamma_() + (x * 2).digamma_(),
    "polygamma 0": lambda lib, x: lib.polygamma(0, x) * x,
    "polygamma 1": lambda lib, x: lib.polygamma(1, x),
    "polygamma 2": lambda lib, x: x.polygamma(2) * x,
    "polygamma 3, in place": lambda lib, x: (x.abs() + 1).polygamma_(3),
    "special.polygamma": lambda lib, x: lib.special.polygamma(1, x * 2),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_graphs_and_gradients(name, dtype):
    check(CASES[name], X.astype(dtype), rtol=4e-6 if dtype == "float32" else 1e-13, atol=1e-6)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda x: CASES[name](mg, x), X)


def test_second_derivative_of_lgamma_records_polygamma():
    def fn(lib, x):
        (g,) = lib.autograd.grad(lib.lgamma(x).sum(), x, create_graph=True)
        return g * x
    check(fn, X.astype("float64"), rtol=1e-13, atol=1e-12)


def test_third_derivative_of_lgamma():
    def fn(lib, x):
        (g,) = lib.autograd.grad(lib.lgamma(x).sum(), x, create_graph=True)
        (h,) = lib.autograd.grad((g * g).sum(), x, create_graph=True)
        return h
    check(fn, X.astype("float64"), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_polygamma_of_higher_orders_is_within_an_ulp_or_two(n, dtype):
    """n >= 2: (-1)**(n + 1) n! zeta(n + 1, x), Cephes' zeta in float64 (PyTorch computes
    float32 in float32: a few ulps apart there; float64: within 2e-15)."""
    x = np.random.default_rng(n).uniform(-5, 20, 2000).astype(dtype)
    ours = mg.polygamma(n, mg.tensor(x)).numpy()
    theirs = torch.polygamma(n, torch.tensor(x)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=4e-6 if dtype == "float32" else 2e-15)


# per cent of random values whose last bit differs from PyTorch's, (float32, float64)
DIFFERING = {"lgamma": (1.3, 38), "digamma": (0.06, 0.15), "trigamma": (0.4, 0.02)}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(DIFFERING))
def test_the_last_bits_differ_from_torchs_no_more_often_than_the_readme_says(name, dtype):
    rng = np.random.default_rng(0)
    x = rng.uniform(-10, 30, 50_000).astype(dtype)
    if name == "trigamma":
        ours = mg.ops.fn.trigamma(x)
        theirs = torch.polygamma(1, torch.tensor(x)).numpy()
    else:
        ours = getattr(mg, name)(mg.tensor(x)).numpy()
        theirs = getattr(torch, name)(torch.tensor(x)).numpy()
    same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
    assert 100 * (~same).mean() <= DIFFERING[name][dtype == "float64"]
    np.testing.assert_allclose(ours, theirs, rtol=4e-7 if dtype == "float32" else 1e-15,
                               atol=1e-6 if dtype == "float32" else 1e-14)


PROGRAMS = [
    "x = torch.tensor([0.0, -0.0, 1.0, 2.0, -1.0, -2.5, 0.5, 10.0, 1e20, float('inf'), -float('inf'), float('nan')])\n"
    "show(torch.lgamma(x), torch.digamma(x), x.lgamma(), torch.special.psi(x))",
    "i = torch.tensor([1, 2, 3, 0, -1])\nshow(torch.lgamma(i), torch.digamma(i), torch.special.gammaln(i))",
    "b = torch.tensor([True, False])\nshow(torch.lgamma(b), torch.digamma(b))",
    "h = torch.tensor([0.5, 2.5, -1.5, 7.0], dtype=torch.float16)\nshow(torch.lgamma(h), torch.digamma(h))",
    "x = torch.tensor([[0.5, 2.0], [3.5, -0.5]], requires_grad=True)\ny = torch.lgamma(x) * torch.digamma(x)\n"
    "show(y)\ngfn(y)\ny.sum().backward()\nshow(x.grad)",
    "a = torch.tensor([0.5, 3.0], requires_grad=True)\nx = a * 1\nx.lgamma_()\nx.digamma_()\nshow(x)\ngfn(x)\n"
    "x.sum().backward()\nshow(a.grad)",
    "x = torch.tensor([0.5, 3.0])\ny = torch.empty(2)\ntorch.lgamma(x, out=y)\nshow(y)\ntorch.digamma(x, out=y)\nshow(y)",
    "x = torch.tensor([0.5, 3.0], requires_grad=True)\ntorch.lgamma(x, out=torch.empty(2))",
    "x = torch.tensor([0.5, 3.0])\ntorch.digamma(x, out=torch.empty(2, dtype=torch.long))",
    "k = torch.tensor([1, 2])\nk.lgamma_()", "torch.lgamma([1.0])", "torch.digamma('a')",
    "x = torch.tensor([0.5, 3.0, -1.5, 0.0, -2.0], requires_grad=True)\ny = torch.polygamma(0, x) + x.polygamma(1) + torch.polygamma(2, x)\n"
    "show(y)\ngfn(y)\nshow(y.grad_fn.next_functions[1][0]._saved_n)",
    "x = torch.ones(2)\ntorch.polygamma(-1, x)", "x = torch.ones(2)\ntorch.polygamma(1.5, x)",
    "x = torch.ones(2)\ntorch.polygamma(x, 1)", "torch.polygamma(1, [1.0])",
    "show(torch.polygamma(2, torch.tensor([1, 2])), torch.tensor([1.5]).polygamma_(1))",
    "a = torch.tensor([0.5], requires_grad=True)\na.digamma_()",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)
