"""Adafactor against torch.optim.Adafactor: 20 steps bit for bit (float32 and float64, the
single-tensor and the foreach rule), its state (factored row and column variances for
2-D and more), state_dict, printed repr, argument errors, and a small MLP trained both
ways."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from tests.core.support.torch_compare import check_error, rand

OPTIONS = [{}, {"lr": 0.1, "weight_decay": 0.1}, {"maximize": True, "d": 2.0, "eps": (1e-10, 1e-2)},
           {"beta2_decay": -0.5, "eps": (1e-30, 1e-3)}, {"foreach": True},
           {"foreach": True, "weight_decay": 0.1, "beta2_decay": -0.5, "maximize": True}]
SHAPES = [(30, 20), (50,), (), (3, 4, 5), (1, 6)]


def _bits(ours, theirs) -> bool:
    a, b = np.atleast_1d(ours.detach().numpy()), np.atleast_1d(theirs.detach().numpy())
    return a.shape == b.shape and bool((a.view(np.uint8) == b.view(np.uint8)).all())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_adafactor_steps_match_torch_bit_for_bit(options, dtype):
    """20 steps from the same start with the same gradients: every parameter (a matrix, a
    vector, a scalar, a 3-d stack of matrices) bit for bit, the state's keys and shapes
    (``step``, ``row_var``/``col_var`` or ``variance``), param groups and repr."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(dtype) for s in SHAPES]
    ours = [mg.nn.Parameter(mg.tensor(a)) for a in arrays]
    theirs = [torch.nn.Parameter(torch.tensor(a)) for a in arrays]
    opt, topt = mg.optim.Adafactor(ours, **options), torch.optim.Adafactor(theirs, **options)
    for _ in range(20):
        for p, q in zip(ours, theirs):
            g = rng.standard_normal(tuple(q.shape)).astype(dtype)
            p.grad, q.grad = mg.tensor(g), torch.tensor(g)
        opt.step()
        topt.step()
    assert all(_bits(p, q) for p, q in zip(ours, theirs))
    state, tstate = opt.state_dict(), topt.state_dict()
    assert state["param_groups"] == tstate["param_groups"]
    for key, values in tstate["state"].items():
        assert list(state["state"][key]) == list(values)
        assert all(_bits(state["state"][key][name], value) for name, value in values.items())
    assert repr(opt) == repr(topt)


def _mlp(lib, seed):
    lib.manual_seed(seed)
    return lib.nn.Sequential(lib.nn.Linear(4, 16), lib.nn.Tanh(), lib.nn.Linear(16, 3))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_an_mlp_stepped_with_torchs_gradients_stays_bit_equal(dtype):
    """A small MLP's parameters stepped 20 times by each library's Adafactor from the
    gradients torch's twin computes (so only the optimisers differ), with a StepLR, and the
    state_dict saved midway loaded into a fresh optimiser: every weight bit for bit."""
    x = rand((32, 4), seed=1).astype(dtype)
    y = np.random.default_rng(2).integers(0, 3, 32)
    model = _mlp(torch, 0).to(getattr(torch, dtype))
    ours = [mg.nn.Parameter(mg.tensor(p.detach().numpy().copy())) for p in model.parameters()]
    opts = [mg.optim.Adafactor(ours, lr=0.05, weight_decay=0.01),
            torch.optim.Adafactor(model.parameters(), lr=0.05, weight_decay=0.01)]
    schedulers = [lib.optim.lr_scheduler.StepLR(o, 5, gamma=0.5) for lib, o in zip((mg, torch), opts)]
    for step in range(20):
        for o in opts:
            o.zero_grad()
        torch.nn.functional.cross_entropy(model(torch.tensor(x)), torch.tensor(y)).backward()
        for p, q in zip(ours, model.parameters()):
            p.grad = mg.tensor(q.grad.numpy().copy())
        for o, scheduler in zip(opts, schedulers):
            o.step()
            scheduler.step()
        if step == 9:  # (a fresh optimiser, its state and settings loaded)
            saved = [o.state_dict() for o in opts]
            opts = [type(o)(params) for o, params in zip(opts, (ours, list(model.parameters())))]
            for o, state in zip(opts, saved):
                o.load_state_dict(state)
            assert opts[0].param_groups[0]["lr"] == opts[1].param_groups[0]["lr"] == 0.0125
        assert all(_bits(p, q) for p, q in zip(ours, model.parameters()))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_small_mlp_trains_the_same_both_ways(dtype):
    """A classifier trained 30 steps with Adafactor in both libraries, each on its own
    gradients: the same losses to float rounding (the float32 forward and backward differ
    from torch's in the last bits, README: matrix products, softmax), and it learns."""
    x = rand((32, 4), seed=1).astype(dtype)
    y = np.random.default_rng(2).integers(0, 3, 32)
    results = []
    for lib in (mg, torch):
        model = _mlp(lib, 0).to(getattr(lib, dtype))
        opt = lib.optim.Adafactor(model.parameters(), lr=0.05)
        losses = []
        for _ in range(30):
            opt.zero_grad()
            loss = lib.nn.functional.cross_entropy(model(lib.tensor(x)), lib.tensor(y))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        results.append(losses)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5 if dtype == "float32" else 1e-12)
    assert results[0][-1] < 0.7 * results[0][0]


def test_tensor_lr_and_grad_free_parameters():
    """A one-element tensor lr works as a number; a parameter without a gradient is left
    alone and gets no state, as in torch."""
    arrays = [rand((5, 3), seed=3), rand((3,), seed=4)]
    ours = [mg.nn.Parameter(mg.tensor(a)) for a in arrays]
    theirs = [torch.nn.Parameter(torch.tensor(a)) for a in arrays]
    opt = mg.optim.Adafactor(ours, lr=mg.tensor(0.02))
    topt = torch.optim.Adafactor(theirs, lr=torch.tensor(0.02))
    for _ in range(3):
        ours[0].grad, theirs[0].grad = mg.tensor(arrays[0] * 2), torch.tensor(arrays[0] * 2)
        opt.step()
        topt.step()
    assert all(_bits(p, q) for p, q in zip(ours, theirs))
    assert list(opt.state_dict()["state"]) == list(topt.state_dict()["state"]) == [0]


@pytest.mark.parametrize("make", [
    lambda lib, p: lib.optim.Adafactor(p, lr=-1.0),
    lambda lib, p: lib.optim.Adafactor(p, beta2_decay=0.5),
    lambda lib, p: lib.optim.Adafactor(p, eps=(-1.0, 1e-3)),
    lambda lib, p: lib.optim.Adafactor(p, eps=(None, -1e-3)),
    lambda lib, p: lib.optim.Adafactor(p, d=0.5),
    lambda lib, p: lib.optim.Adafactor(p, weight_decay=-0.1),
    lambda lib, p: lib.optim.Adafactor(p, lr=lib.tensor([0.1, 0.2])),
    lambda lib, p: lib.optim.Adafactor([]),
    lambda lib, p: lib.optim.Adafactor(p, momentum=0.9),
], ids=["lr", "beta2_decay", "eps1", "eps2", "d", "weight_decay", "tensor-lr", "empty",
        "unknown-argument"])
def test_adafactor_errors(make):
    check_error(lambda lib, x: make(lib, [lib.nn.Parameter(x)]), rand((2,)))
