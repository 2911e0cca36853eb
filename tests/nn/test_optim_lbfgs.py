"""optim.LBFGS against torch.optim.LBFGS: the iterates, losses, closure calls
(``func_evals``, ``n_iter``) and state on Rosenbrock's function, with a fixed step and
with the strong-Wolfe line search, history sizes and max_iter; the checks and repr; and
an LBFGS fit of a small regression network whose printed losses are PyTorch's.

Bits: the first three iterations are PyTorch's bit for bit (float32 and float64); from
the fourth (two pairs of history) the two-loop recursion's dot products round otherwise
in the last bit, so the iterates agree to float tolerance: float64 within 3e-11 after
six steps of up to 20 iterations (1e-14 with the line search), with the same number of
closure calls."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg


def _rosenbrock(lib, dtype, steps, **options):
    x = lib.tensor([-1.5, 2.0, 0.5, -0.3], dtype=dtype, requires_grad=True)
    opt = lib.optim.LBFGS([x], **options)
    calls = []

    def closure():
        calls.append(1)
        opt.zero_grad()
        loss = ((1 - x[:-1]) ** 2 + 100 * (x[1:] - x[:-1] ** 2) ** 2).sum()
        loss.backward()
        return loss

    losses = [opt.step(closure).item() for _ in range(steps)]
    state = opt.state[x]
    return (losses, x.detach().numpy().copy(), len(calls), state["func_evals"],
            state["n_iter"], sorted(state))


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
@pytest.mark.parametrize("max_iter", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_first_iterations_bit_for_bit(line_search_fn, max_iter, dtype):
    ours = _rosenbrock(mg, getattr(mg, dtype), 1, max_iter=max_iter,
                       line_search_fn=line_search_fn)
    theirs = _rosenbrock(torch, getattr(torch, dtype), 1, max_iter=max_iter,
                         line_search_fn=line_search_fn)
    assert ours[0] == theirs[0]
    assert np.array_equal(ours[1], theirs[1])
    assert ours[2:] == theirs[2:]


@pytest.mark.parametrize("options", [
    {}, {"line_search_fn": "strong_wolfe"},
    {"lr": 0.5, "history_size": 3, "max_iter": 7},
    {"lr": 0.5, "history_size": 3, "max_iter": 7, "line_search_fn": "strong_wolfe"},
    {"max_iter": 5, "max_eval": 6, "tolerance_change": 1e-5},
])
def test_iterates_as_torch_in_float64(options):
    ours = _rosenbrock(mg, mg.float64, 6, **options)
    theirs = _rosenbrock(torch, torch.float64, 6, **options)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-9, atol=1e-10)
    assert ours[2:] == theirs[2:]  # (closure calls, func_evals, n_iter, state keys)


def test_converges_to_a_stationary_point():
    """(4-D Rosenbrock has a second minimum near (-0.78, 0.61, 0.38, 0.15): both libraries
    go there from this start.)"""
    losses, x, *_ = _rosenbrock(mg, mg.float64, 10, line_search_fn="strong_wolfe")
    t = mg.tensor(x, requires_grad=True)
    ((1 - t[:-1]) ** 2 + 100 * (t[1:] - t[:-1] ** 2) ** 2).sum().backward()
    assert float(t.grad.abs().max()) < 1e-4  # (stopped by tolerance_change)
    assert losses[-1] < losses[0]


def test_repr_and_checks_as_torch():
    for lib in (mg, torch):
        opt = lib.optim.LBFGS([lib.ones(2, requires_grad=True)], lr=0.5)
        assert repr(opt) == repr(torch.optim.LBFGS([torch.ones(2, requires_grad=True)],
                                                   lr=0.5))
        assert opt.defaults["max_eval"] == 25
    texts = []
    for lib in (mg, torch):
        found = []
        for call in (lambda: lib.optim.LBFGS([lib.ones(1, requires_grad=True)], lr=-1),
                     lambda: lib.optim.LBFGS([{"params": [lib.ones(1, requires_grad=True)]},
                                              {"params": [lib.ones(1, requires_grad=True)]}]),
                     lambda: lib.optim.LBFGS([lib.ones(1, requires_grad=True)],
                                             lr=lib.ones(2))):
            with pytest.raises(ValueError) as error:
                call()
            found.append(str(error.value))
        x = lib.ones(1, requires_grad=True)
        opt = lib.optim.LBFGS([x], line_search_fn="armijo")

        def closure():
            opt.zero_grad()
            loss = (x * x).sum()
            loss.backward()
            return loss

        with pytest.raises(RuntimeError) as error:
            opt.step(closure)
        found.append(str(error.value))
        texts.append(found)
    assert texts[0] == texts[1]


def _fit(lib, line_search_fn) -> list[str]:
    """PyTorch-tutorial style: a small net fitted to a curve with LBFGS and a closure;
    the printed losses."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(1, 6), lib.nn.Tanh(), lib.nn.Linear(6, 1)).double()
    x = lib.linspace(-2, 2, 24, dtype=lib.float64).unsqueeze(1)
    y = lib.sin(2 * x)
    opt = lib.optim.LBFGS(model.parameters(), lr=1, max_iter=10, history_size=8,
                          line_search_fn=line_search_fn)
    printed = []
    for _ in range(4):
        def closure():
            opt.zero_grad()
            loss = lib.nn.functional.mse_loss(model(x), y)
            loss.backward()
            return loss
        printed.append(f"{opt.step(closure).item():.5f}")
    return printed


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_an_lbfgs_fit_prints_torchs_losses(line_search_fn):
    ours, theirs = _fit(mg, line_search_fn), _fit(torch, line_search_fn)
    assert ours == theirs
    assert float(ours[-1]) < float(ours[0])
