"""torch.cholesky (the older name: CholeskyBackward0, PyTorch's deprecation warning once),
torch.cholesky_solve (CholeskySolveBackward0) and torch.cholesky_inverse
(CholeskyInverseBackward0), functions and methods, against PyTorch 2.13 and finite
differences: values (two triangular solves where PyTorch calls LAPACK's potrs and potri:
float rounding apart), gradients, graphs, saved names, batches, ``upper``, errors; and a
Gaussian-process regression written the way tutorials write it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import chain, check, check_double_backward, check_numerical, outcome, rand


def _spd(n, seed, batch=()):
    a = rand(batch + (n, n), seed=seed, dtype="float64")
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _factor(lib, a, upper=False):
    return lib.linalg.cholesky(a, upper=upper)


CALLS = {
    "solve": lambda lib, b, a: lib.cholesky_solve(b, _factor(lib, a)),
    "solve upper": lambda lib, b, a: lib.cholesky_solve(b, _factor(lib, a, True), upper=True),
    "solve method": lambda lib, b, a: b.cholesky_solve(_factor(lib, a)) * b,
    "inverse": lambda lib, b, a: lib.cholesky_inverse(_factor(lib, a)) @ b,
    "inverse upper method": lambda lib, b, a: _factor(lib, a, True).cholesky_inverse(True) @ b,
    "old cholesky": lambda lib, b, a: lib.cholesky(a) @ b,
    "old cholesky upper": lambda lib, b, a: a.cholesky(upper=True) @ b,
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", CALLS)
def test_values_gradients_and_graphs_are_torchs(name, dtype):
    a, b = _spd(4, 1).astype(dtype), rand((4, 3), seed=2, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch.cholesky's deprecation: tested below)
        tolerance = dict(rtol=2e-4, atol=1e-5) if dtype == "float32" else dict(rtol=1e-10,
                                                                             atol=1e-12)
        ours, theirs = check(CALLS[name], b, a, **tolerance)
    assert chain(ours) == chain(theirs)


@pytest.mark.parametrize("name", CALLS)
def test_gradients_against_finite_differences(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_numerical(lambda b, a: CALLS[name](mg, b, (a + a.mT) / 2), rand((3, 2), seed=3, dtype="float64"),
                        _spd(3, 4))


@pytest.mark.parametrize("name", ["solve", "inverse"])
def test_second_derivatives_are_torchs(name):
    # (against torch; finite differences would move one element of A, the factor reads a triangle)
    check_double_backward(CALLS[name], rand((3, 2), seed=5, dtype="float64"), _spd(3, 6),
                          numerical=False)


def test_batches_broadcast_as_torch():
    a, b = _spd(3, 7, batch=(2, 1)), rand((4, 3, 2), seed=8, dtype="float64")
    ours = mg.cholesky_solve(mg.tensor(b), mg.linalg.cholesky(mg.tensor(a)))
    theirs = torch.cholesky_solve(torch.tensor(b), torch.linalg.cholesky(torch.tensor(a)))
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-12)


def test_saved_names_and_the_deprecation_warning_once_as_torch():
    found = {}
    for lib in (mg, torch):
        a = lib.tensor(_spd(3, 9), requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = [lib.cholesky(a), a.cholesky(upper=True), lib.cholesky(a)]
        factor = lib.linalg.cholesky(a)
        solved = lib.cholesky_solve(lib.ones(3, 1, dtype=lib.float64), factor)
        nodes = [old[0].grad_fn, solved.grad_fn, lib.cholesky_inverse(factor).grad_fn,
                 factor.grad_fn]
        found[lib] = ([(w.category.__name__, str(w.message)) for w in caught][:1],
                      [(type(n).__name__, sorted(k for k in dir(n) if k.startswith("_saved")))
                       for n in nodes], old[1].grad_fn._saved_upper)
    # (PyTorch warns once a process: so does minigrad, here the first call in this test's
    # process; if another test called torch.cholesky first, neither warns again)
    assert found[mg][1:] == found[torch][1:]
    assert len(found[mg][0]) <= 1 and len(found[torch][0]) <= 1
    if found[mg][0] and found[torch][0]:
        assert found[mg][0] == found[torch][0]


ERRORS = {
    "b 1-d": lambda lib: lib.cholesky_solve(lib.ones(3, dtype=lib.float64),
                                            lib.eye(3, dtype=lib.float64)),
    "A not square": lambda lib: lib.cholesky_solve(lib.ones(2, 1), lib.ones(2, 3)),
    "A 1-d": lambda lib: lib.cholesky_solve(lib.ones(2, 1), lib.ones(2)),
    "dtypes differ": lambda lib: lib.cholesky_solve(lib.ones(3, 1), lib.eye(3, dtype=lib.float64)),
    "integers": lambda lib: lib.cholesky_solve(lib.ones(3, 1, dtype=lib.int32),
                                               lib.eye(3, dtype=lib.int32)),
    "half": lambda lib: lib.cholesky_solve(lib.ones(3, 1, dtype=lib.float16),
                                           lib.eye(3, dtype=lib.float16)),
    "sizes": lambda lib: lib.cholesky_solve(lib.ones(4, 2), lib.eye(3)),
    "batches": lambda lib: lib.cholesky_solve(lib.ones(2, 3, 2), lib.eye(3).expand(3, 3, 3)),
    "inverse 1-d": lambda lib: lib.cholesky_inverse(lib.ones(3)),
    "inverse not square": lambda lib: lib.cholesky_inverse(lib.ones(2, 3)),
    "inverse integers": lambda lib: lib.cholesky_inverse(lib.eye(3, dtype=lib.int32)),
    "inverse half": lambda lib: lib.cholesky_inverse(lib.eye(3, dtype=lib.float16)),
    "old not positive-definite": lambda lib: lib.cholesky(lib.tensor([[1.0, 2.0], [2.0, 1.0]])),
    "old 1-d": lambda lib: lib.cholesky(lib.ones(3)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_torchs(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(ERRORS[name], mg) == outcome(ERRORS[name], torch)


def test_gaussian_process_regression_as_tutorials_write_it():
    """An RBF kernel, its Cholesky factor, the posterior mean and variance by
    cholesky_solve, and the log marginal likelihood optimised over the length scale:
    the same numbers printed, the same steps."""
    x_train = np.linspace(-3, 3, 12)[:, None]
    y_train = np.sin(x_train[:, 0]) + 0.1 * np.cos(5 * x_train[:, 0])
    x_test = np.linspace(-3, 3, 7)[:, None]
    printed = {}
    for lib in (mg, torch):
        X, y, Xs = (lib.tensor(v) for v in (x_train, y_train, x_test))
        log_scale = lib.tensor(0.0, dtype=lib.float64, requires_grad=True)
        optimizer = lib.optim.Adam([log_scale], lr=0.1)
        lines = []

        def rbf(a, b):
            return lib.exp(-0.5 * lib.cdist(a, b) ** 2 / lib.exp(log_scale) ** 2)

        for _ in range(5):
            optimizer.zero_grad()
            K = rbf(X, X) + 1e-2 * lib.eye(len(X), dtype=lib.float64)
            L = lib.linalg.cholesky(K)
            alpha = lib.cholesky_solve(y.unsqueeze(1), L)
            nll = 0.5 * (y.unsqueeze(1) * alpha).sum() + L.diagonal().log().sum()
            nll.backward()
            optimizer.step()
            lines.append(f"{nll.item():.6f} {log_scale.item():.6f}")
        with lib.no_grad():
            Ks = rbf(X, Xs)
            mean = Ks.T @ alpha
            var = rbf(Xs, Xs).diagonal() - (Ks * lib.cholesky_solve(Ks, L)).sum(0)
        lines.append(repr(mean.squeeze(1)))
        lines.append(repr(var))
        printed[lib] = lines
    assert printed[mg] == printed[torch]
