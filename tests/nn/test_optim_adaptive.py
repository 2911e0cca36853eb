"""Adadelta, Adamax, NAdam and RAdam against torch over 20 steps: parameters, state
keys, param groups, reprs and argument errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from nn_twins import bits_share
from tests.core.support.torch_compare import check_error, rand


OPTIMIZERS = [
    ("Adadelta", {}), ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1}),
    ("Adadelta", {"maximize": True, "eps": 1e-4}),
    ("Adamax", {}), ("Adamax", {"lr": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {}), ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.01}),
    ("NAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {}), ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("RAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True, "betas": (0.8, 0.9)}),
]


@pytest.mark.parametrize("name, options", OPTIMIZERS)
def test_optimizer_matches_torch(name, options):
    """20 steps from the same start with the same gradients: within 1e-6 of torch (Adamax
    bit-equal; the others take a float32 sqrt, which torch rounds otherwise in about a
    fifth of the values), the same state keys, param groups and repr."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in [(30, 20), (50,), ()]]
    ours = [mg.nn.Parameter(mg.tensor(a)) for a in arrays]
    theirs = [torch.nn.Parameter(torch.tensor(a)) for a in arrays]
    opt = getattr(mg.optim, name)(ours, **options)
    topt = getattr(torch.optim, name)(theirs, **options)
    for _ in range(20):
        for p, q in zip(ours, theirs):
            g = rng.standard_normal(tuple(q.shape)).astype(np.float32)
            p.grad, q.grad = mg.tensor(g), torch.tensor(g)
        opt.step()
        topt.step()
    for p, q in zip(ours, theirs):  # (torch's float32 sqrt is not correctly rounded
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(),  # everywhere)
                                   rtol=1e-6, atol=1e-6)
    if name == "Adamax":
        assert all(bits_share(p, q) == 1.0 for p, q in zip(ours, theirs))
    state, tstate = opt.state_dict(), topt.state_dict()
    assert state["param_groups"] == tstate["param_groups"]
    assert list(state["state"][0]) == list(tstate["state"][0])
    assert repr(opt) == repr(topt)


@pytest.mark.parametrize("make", [
    lambda lib, p: lib.optim.Adadelta(p, rho=1.5), lambda lib, p: lib.optim.Adamax(p, lr=-1),
    lambda lib, p: lib.optim.NAdam(p, momentum_decay=-1.0),
    lambda lib, p: lib.optim.RAdam(p, betas=(0.9, 1.0)), lambda lib, p: lib.optim.NAdam(p, eps=-1),
])
def test_optimizer_errors(make):
    check_error(lambda lib, x: make(lib, [lib.nn.Parameter(x)]), rand((2,)))
