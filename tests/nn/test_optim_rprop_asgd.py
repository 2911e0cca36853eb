"""Rprop and ASGD against torch over 20 steps: parameters and every state value bit for
bit (or within float32 rounding, with the share of equal bits measured), state_dict
(keys, param groups, state tensors), load_state_dict, reprs and argument errors; and a
full-batch training loop."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from nn_twins import bits_share
from tests.core.support.torch_compare import check_error, rand

OPTIMIZERS = [
    ("Rprop", {}), ("Rprop", {"lr": 0.1, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)}),
    ("Rprop", {"maximize": True}), ("Rprop", {"lr": 1e-7, "step_sizes": (1e-6, 1e-5)}),
    ("ASGD", {}), ("ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 5}),
    ("ASGD", {"weight_decay": 0.1, "t0": 0, "maximize": True}),
    ("ASGD", {"lr": 0.3, "t0": 12.5, "lambd": 0.5}),
]


def _twins(seed=0):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in [(30, 20), (50,), ()]]
    return rng, [mg.nn.Parameter(mg.tensor(a)) for a in arrays], \
        [torch.nn.Parameter(torch.tensor(a)) for a in arrays]


def _run(name, options, steps=20, repeat_signs=True):
    """Both optimisers for ``steps`` steps on the same gradients (some steps repeat the
    last gradient's signs, so Rprop's step sizes grow as well as shrink)."""
    rng, ours, theirs = _twins()
    opt = getattr(mg.optim, name)(ours, **options)
    topt = getattr(torch.optim, name)(theirs, **options)
    grads = None
    for step in range(steps):
        if grads is None or not repeat_signs or step % 3:
            grads = [rng.standard_normal(tuple(q.shape)).astype(np.float32) for q in theirs]
        else:
            grads = [np.abs(rng.standard_normal(g.shape)).astype(np.float32) * np.sign(g)
                     for g in grads]
        for p, q, g in zip(ours, theirs, grads):
            p.grad, q.grad = mg.tensor(g), torch.tensor(g)
        opt.step()
        topt.step()
    return opt, topt, ours, theirs


@pytest.mark.parametrize("name, options", OPTIMIZERS)
def test_optimizer_matches_torch_bit_for_bit(name, options):
    """20 steps from the same start with the same gradients: every parameter and every
    state tensor (step, prev, step_size; step, eta, mu, ax) bit for bit, the same state
    keys in the same order, param groups and repr."""
    opt, topt, ours, theirs = _run(name, options)
    for p, q in zip(ours, theirs):
        assert bits_share(p, q) == 1.0
    state, tstate = opt.state_dict(), topt.state_dict()
    assert state["param_groups"] == tstate["param_groups"]
    for index in tstate["state"]:
        assert list(state["state"][index]) == list(tstate["state"][index])
        for key, value in tstate["state"][index].items():
            mine = state["state"][index][key]
            assert mine.dtype.__repr__().split(".")[-1] == repr(value.dtype).split(".")[-1], key
            assert mine.numpy().tobytes() == value.numpy().tobytes(), key
    assert repr(opt) == repr(topt)


@pytest.mark.parametrize("name, options", [OPTIMIZERS[1], OPTIMIZERS[5]])
def test_state_dict_loads_into_a_new_optimizer_and_carries_on_as_torch(name, options):
    """Save after 10 steps, load into a fresh optimiser, take 10 more: as torch."""
    opt, topt, ours, theirs = _run(name, options, steps=10)
    fresh = getattr(mg.optim, name)(ours, **options)
    tfresh = getattr(torch.optim, name)(theirs, **options)
    fresh.load_state_dict(opt.state_dict())
    tfresh.load_state_dict(topt.state_dict())
    rng = np.random.default_rng(5)
    for _ in range(10):
        for p, q in zip(ours, theirs):
            g = rng.standard_normal(tuple(q.shape)).astype(np.float32)
            p.grad, q.grad = mg.tensor(g), torch.tensor(g)
        fresh.step()
        tfresh.step()
    for p, q in zip(ours, theirs):
        assert bits_share(p, q) == 1.0


@pytest.mark.parametrize("name, options", [("Rprop", {"lr": 0.05}), ("ASGD", {"lr": 0.05,
                                                                            "t0": 10})])
def test_full_batch_training_loop_is_torchs(name, options):
    """A small regression network trained for 30 full-batch steps (the use Rprop is made
    for; ASGD averaging from step 10): losses and weights as PyTorch's (to float32
    rounding of the matrix products' gradients), ASGD's averages too."""
    rng = np.random.default_rng(1)
    data = rng.standard_normal((32, 3)).astype(np.float32)
    target = (data @ np.array([[1.5], [-2.0], [0.5]], np.float32)).astype(np.float32)
    results = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(3, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
        opt = getattr(lib.optim, name)(net.parameters(), **options)
        losses = []
        for _ in range(30):
            opt.zero_grad()
            loss = lib.nn.functional.mse_loss(net(lib.tensor(data)), lib.tensor(target))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        extra = [opt.state[p]["ax"].numpy().copy() for p in net.parameters()] \
            if name == "ASGD" else []
        results.append((losses, [p.detach().numpy().copy() for p in net.parameters()], extra))
    (losses, weights, extra), (tlosses, tweights, textra) = results
    np.testing.assert_allclose(losses, tlosses, rtol=1e-5)
    assert losses[-1] < losses[0] / 2
    for ours, theirs in zip(weights + extra, tweights + textra):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda lib, p: lib.optim.Rprop(p, lr=-1), lambda lib, p: lib.optim.Rprop(p, etas=(1.5, 2.0)),
    lambda lib, p: lib.optim.Rprop(p, etas=(0.5, 0.9)), lambda lib, p: lib.optim.ASGD(p, lr=-0.1),
    lambda lib, p: lib.optim.ASGD(p, weight_decay=-1),
    lambda lib, p: lib.optim.Rprop(p, 0.1, (0.5, 1.2), (1e-6, 50), True),
])
def test_optimizer_errors(make):
    check_error(lambda lib, x: make(lib, [lib.nn.Parameter(x)]), rand((2,)))
