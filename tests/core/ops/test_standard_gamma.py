"""torch._standard_gamma, torch._standard_gamma_grad, torch._sample_dirichlet,
torch._dirichlet_grad, torch.poisson and torch.binomial against PyTorch 2.13, live: the
draws after manual_seed bit for bit (float32, float64; alpha below and above 1, 0,
inf, nan, negative; non-contiguous input; the generator's state afterwards, so the next
randn agrees too), the reparameterised gradient (all three of its approximations) bit for
bit, the grad_fn names, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import outcome


def run(lib, dtype, alphas, shape=None):
    lib.manual_seed(7)
    a = lib.tensor(alphas, dtype=getattr(lib, dtype))
    if shape:
        a = a.reshape(shape).t()
    return lib._standard_gamma(a).numpy(), lib.randn(5).numpy()


ALPHAS = [0.3, 0.5, 1.0, 2.0, 7.5, 20.0, 0.0, float("inf"), 1e-3, 0.999, -1.0, float("nan"),
          150.0, 1e-8, 3.0, 0.05] * 25


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_draws_bit_for_bit(dtype):
    for shape in (None, (20, 20)):
        ours, theirs = run(mg, dtype, ALPHAS, shape), run(torch, dtype, ALPHAS, shape)
        for x, y in zip(ours, theirs):
            assert x.dtype == y.dtype and x.shape == y.shape
            assert np.array_equal(x, y, equal_nan=True)


def test_gradient_bit_for_bit():
    rng = np.random.RandomState(0)
    alpha = np.concatenate([rng.uniform(0.05, 30, 2000), rng.uniform(8, 50, 500)])
    x = np.concatenate([rng.uniform(0.01, 40, 2000), alpha[2000:] * rng.uniform(0.85, 1.15, 500)])
    for dtype in ("float64", "float32"):
        ours = mg._standard_gamma_grad(mg.tensor(alpha, dtype=getattr(mg, dtype)),
                                       mg.tensor(x, dtype=getattr(mg, dtype))).numpy()
        theirs = torch._standard_gamma_grad(torch.tensor(alpha, dtype=getattr(torch, dtype)),
                                            torch.tensor(x, dtype=getattr(torch, dtype))).numpy()
        assert np.array_equal(ours, theirs, equal_nan=True)


def test_backward_and_graph_as_torch():
    def program(lib):
        lib.manual_seed(0)
        a = lib.tensor([[0.5, 2.0], [7.0, 0.1]], requires_grad=True)
        y = lib._standard_gamma(a)
        (y * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        g = lib._standard_gamma_grad(a, y.detach())
        return (y, a.grad, type(y.grad_fn).__name__, type(g.grad_fn).__name__,
                len(g.grad_fn.next_functions), outcome(lambda _: g.sum().backward(), lib))
    assert repr(program(mg)) == repr(program(torch))


@pytest.mark.parametrize("call", [
    lambda lib: lib._standard_gamma(lib.tensor([1, 2])),
    lambda lib: lib._standard_gamma([1.0]),
    lambda lib: lib._standard_gamma(lib.tensor([], dtype=lib.float32)),
    lambda lib: lib._standard_gamma(lib.tensor([1.0], dtype=lib.float16)),
    lambda lib: lib._standard_gamma_grad(lib.tensor([1.0], dtype=lib.float16), lib.tensor([1.0])),
    lambda lib: lib._standard_gamma_grad(lib.tensor([1.0], dtype=lib.float16),
                                         lib.tensor([1.0], dtype=lib.float16)),
])
def test_errors_and_edges_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sample_dirichlet_bit_for_bit(dtype):
    """Gamma draws in double for every alpha (float32 alphas too), each row normalised;
    then the generator agrees for the next randn."""
    def program(lib):
        lib.manual_seed(11)
        alphas = lib.tensor(np.random.RandomState(0).uniform(0.05, 10, (300, 4)),
                            dtype=getattr(lib, dtype))
        return [lib._sample_dirichlet(alphas).numpy(), lib._sample_dirichlet(alphas.t()).numpy(),
                lib.randn(3).numpy()]
    for x, y in zip(program(mg), program(torch)):
        assert x.dtype == y.dtype and np.array_equal(x, y)


def test_dirichlet_grad_against_torch():
    """The reparameterised gradient's four approximations: in float64 PyTorch's bits for
    98.5 % of 1,200 points (one ulp otherwise; Beta's mid-range expansion: all), in
    float32 within 1e-5 (PyTorch computes parts in float with the C library's logf and
    powf; 85 % bit-equal)."""
    rng = np.random.RandomState(0)
    for dtype, rtol, share in (("float64", 1e-15, 0.97), ("float32", 2e-5, 0.8)):
        for alpha in (rng.uniform(0.05, 10, (300, 4)), rng.uniform(6.5, 40, (200, 2))):
            torch.manual_seed(1)
            a = torch.tensor(alpha, dtype=getattr(torch, dtype))
            x = torch._sample_dirichlet(a)
            total = a.sum(-1, keepdim=True).expand_as(a)
            theirs = torch._dirichlet_grad(x, a, total).numpy()
            ours = mg._dirichlet_grad(mg.tensor(x.numpy()), mg.tensor(a.numpy()),
                                      mg.tensor(total.numpy())).numpy()
            np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=0)
            assert (ours == theirs).mean() > share


def test_dirichlet_graph_and_errors_as_torch():
    def program(lib):
        lib.manual_seed(0)
        a = lib.tensor([[0.5, 2.0, 1.0], [3.0, 4.0, 0.2]], requires_grad=True)
        x = lib._sample_dirichlet(a)
        g = lib._dirichlet_grad(x.detach(), a, a.sum(-1, True).expand_as(a))
        return (x, g, str(x.grad_fn.name()), len(x.grad_fn.next_functions),
                len(g.grad_fn.next_functions), outcome(lambda _: x.sum().backward(), lib),
                outcome(lambda _: g.sum().backward(), lib),
                outcome(lambda _: lib._sample_dirichlet(lib.tensor([1, 2])), lib))
    assert repr(program(mg)) == repr(program(torch))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_poisson_bit_for_bit(dtype):
    """torch.poisson: Knuth's product below rate 10, Hoermann's rejection from 10 (0, 9.99,
    10, large rates), non-contiguous input, then the next randn; PoissonBackward0's zero
    gradient; PyTorch's errors."""
    def program(lib):
        lib.manual_seed(4)
        rates = lib.tensor([0.0, 0.5, 3.0, 9.99, 10.0, 25.0, 300.0, 1e4] * 30,
                           dtype=getattr(lib, dtype))
        r = lib.tensor([[1.0, 20.0], [0.0, 3.5]], requires_grad=True)
        y = lib.poisson(r)
        y.sum().backward()
        return [lib.poisson(rates).numpy(), lib.poisson(rates.reshape(16, 15).t()).numpy(),
                lib.randn(3).numpy(), y.detach().numpy(), r.grad.numpy(),
                type(y.grad_fn).__name__]
    ours, theirs = program(mg), program(torch)
    for x, y in zip(ours, theirs):
        assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y


@pytest.mark.parametrize("call", [
    lambda lib: lib.poisson(lib.tensor([1.0, -1.0])),
    lambda lib: lib.poisson(lib.tensor([float("nan")])),
    lambda lib: lib.poisson(lib.tensor([1, 2])),
    lambda lib: lib.poisson([1.0]),
])
def test_poisson_errors_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binomial_bit_for_bit(dtype):
    """torch.binomial: inversion below count * prob = 10, BTRS from 10 (prob above 0.5
    through 1 - prob), counts and chances of 0 and 1, float32 arithmetic kept where
    PyTorch keeps it; the graph (NotImplemented) and the next randn."""
    def program(lib):
        lib.manual_seed(9)
        rng = np.random.RandomState(0)
        n = lib.tensor(np.concatenate([rng.randint(0, 200, 400), [0, 5, 10, 1000, 1e5]]),
                       dtype=getattr(lib, dtype))
        p = lib.tensor(np.concatenate([rng.uniform(0, 1, 400), [0.5, 0.0, 1.0, 0.3, 0.9]]),
                       dtype=getattr(lib, dtype))
        c = lib.tensor([5.0, 30.0], requires_grad=True)
        y = lib.binomial(c, lib.tensor([0.3, 0.6]))
        return [lib.binomial(n, p).numpy(), lib.randn(3).numpy(), y.detach().numpy(),
                y.grad_fn.name(), outcome(lambda _: y.sum().backward(), lib)]
    ours, theirs = program(mg), program(torch)
    for x, y in zip(ours, theirs):
        assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y


@pytest.mark.parametrize("call", [
    lambda lib: lib.binomial(lib.tensor([5]), lib.tensor([1])),
    lambda lib: lib.binomial(lib.tensor([5.0], dtype=lib.float16), lib.tensor([0.5], dtype=lib.float16)),
    lambda lib: lib.binomial(lib.tensor([5.0]), lib.tensor([0.5], dtype=lib.float64)),
    lambda lib: lib.binomial(lib.tensor([5.0]), 0.5),
])
def test_binomial_errors_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)


def test_gradients_at_the_edges_as_torch():
    """x = 0, alpha = 0, a negative x, x = inf: the inf/nan/0 C gives, not Python's errors."""
    def program(lib):
        f = lib.float64
        a = lib.tensor([0.0, 0.5, 2.0, 10.0, 0.5, 3.0, 9.0], dtype=f)
        x = lib.tensor([0.0, 0.0, 1.0, 10.0, -1.0, float("inf"), 0.0], dtype=f)
        xs = lib.tensor([[0.0, 1.0, 0.5], [1e-300, 0.999999, 0.3]], dtype=f)
        al = lib.tensor([[0.5, 1.0, 2.0], [7.0, 8.0, 0.1]], dtype=f)
        return (lib._standard_gamma_grad(a, x),
                lib._dirichlet_grad(xs, al, al.sum(-1, True).expand_as(al)),
                lib._dirichlet_grad(xs.float(), al.float(), al.float().sum(-1, True).expand_as(al)))
    assert repr(program(mg)) == repr(program(torch))
