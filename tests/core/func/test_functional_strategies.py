"""``torch.autograd.functional`` with the options that name forward mode and vmap
(``strategy="forward-mode"``, ``vectorize=True``, ``outer_jacobian_strategy``): the same
values as PyTorch's, bit for bit in float64 on these functions, and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg


def results(L):
    F = L.autograd.functional
    L.manual_seed(0)
    x, v = L.randn(3, dtype=L.float64), L.randn(3, dtype=L.float64)
    f = lambda x: (x.sin() * x.roll(1)).cumsum(0)  # noqa: E731
    s = lambda x: (x.exp() * x).sum() * x.tanh().sum()  # noqa: E731
    return [F.jacobian(f, x, vectorize=True, strategy="forward-mode"),
            F.jacobian(f, x, vectorize=True),
            F.jvp(f, x, v)[1], F.hvp(s, x, v)[1], F.vhp(s, x, v)[1],
            F.hessian(s, x, vectorize=True, outer_jacobian_strategy="forward-mode"),
            F.jacobian(lambda a, b: a * b.exp(), (x, v), strategy="forward-mode",
                       vectorize=True)[1]]


def test_values_as_pytorch():
    for mine, theirs in zip(results(mg), results(torch)):
        assert tuple(mine.shape) == tuple(theirs.shape)
        np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(),
                                   rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("kwargs", [dict(strategy="forward-mode"),
                                    dict(strategy="forward-mode", vectorize=True, create_graph=True),
                                    dict(strategy="sideways")])
def test_errors_as_pytorch(kwargs):
    said = []
    for lib in (mg, torch):
        with pytest.raises((RuntimeError, ValueError, AssertionError)) as error:
            lib.autograd.functional.jacobian(lambda x: x * 2, lib.ones(2), **kwargs)
        said.append((type(error.value).__name__, str(error.value)))
    assert said[0] == said[1]
