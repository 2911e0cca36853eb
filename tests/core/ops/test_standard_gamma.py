"""torch._standard_gamma and torch._standard_gamma_grad against PyTorch 2.13, live: the
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
