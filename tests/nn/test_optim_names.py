"""torch.optim's other names against PyTorch 2.13: dir() and __all__, SparseAdam's
arguments and its refusal of dense gradients, swap_in_optimizer_params_and_state."""

from __future__ import annotations

import copy

import pytest
import torch

import minigrad as mg


def test_optim_names_are_torchs():
    """dir(minigrad.optim) lists torch.optim's names (the modules' names deleted, as
    torch does), except the ones not built yet, named here and in the README."""
    not_built = {"Muon", "_functional", "_muon"}
    assert set(dir(mg.optim)) == set(dir(torch.optim)) - not_built
    assert set(mg.optim.__all__) == set(torch.optim.__all__) - not_built


@pytest.mark.parametrize("call", [
    lambda lib, p: repr(lib.optim.SparseAdam(p, lr=0.01, betas=(0.8, 0.9))),
    lambda lib, p: lib.optim.SparseAdam(p).state_dict()["param_groups"],
    lambda lib, p: lib.optim.SparseAdam(p, lr=0.0),
    lambda lib, p: lib.optim.SparseAdam(p, eps=0.0),
    lambda lib, p: lib.optim.SparseAdam(p, betas=(1.0, 0.9)),
    lambda lib, p: lib.optim.SparseAdam(p, betas=(0.9, -0.1)),
    lambda lib, p: lib.optim.SparseAdam(p, lr=lib.tensor([0.1, 0.2])),
], ids=["repr", "state-dict", "lr", "eps", "beta0", "beta1", "tensor-lr"])
def test_sparse_adam_arguments(call):
    """SparseAdam's settings, print and argument errors as PyTorch's."""
    results = []
    for lib in (mg, torch):
        p = [lib.nn.Parameter(lib.ones(3))]
        try:
            results.append(("result", repr(call(lib, p))))
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            results.append(("error", type(error).__name__, str(error)))
    assert results[0] == results[1]


def test_sparse_adam_refuses_dense_gradients_as_torch():
    """A dense gradient (all minigrad makes; PyTorch's too without Embedding(sparse=True))
    stops step() with PyTorch's error, and a parameter without one is skipped."""
    results = []
    for lib in (mg, torch):
        p, q = lib.nn.Parameter(lib.ones(3)), lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SparseAdam([p, q])
        opt.step()  # (no gradients yet: nothing to do)
        (p * 2).sum().backward()
        with pytest.raises(RuntimeError) as error:
            opt.step()
        results.append(str(error.value))
    assert results[0] == results[1]


def _stepped(lib):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    opt = lib.optim.Adam(model.parameters(), lr=0.1)
    model(lib.ones(1, 3)).sum().backward()
    opt.step()
    return model, opt


def test_swap_in_steps_other_tensors_with_another_state():
    """Inside the block the optimiser steps the given tensors from the given state (which
    its in-place updates change), with the given settings; afterwards its own parameters,
    state and settings are as they were."""
    results = []
    for lib in (mg, torch):
        model, opt = _stepped(lib)
        saved = opt.state_dict()
        state = {"state": {k: {name: v.clone() for name, v in s.items()}
                           for k, s in saved["state"].items()},
                 "param_groups": copy.deepcopy(saved["param_groups"])}
        state["param_groups"][0]["lr"] = 0.5
        params = {n: p.detach().clone().requires_grad_() for n, p in model.named_parameters()}
        for p in params.values():
            p.grad = lib.ones_like(p)
        with lib.optim.swap_in_optimizer_params_and_state(opt, params, state):
            opt.step()
            inside = opt.param_groups[0]["lr"]
        results.append((repr(params["weight"]), repr(model.weight), repr(state["state"][0]),
                        repr(opt.state_dict()["state"][0]), inside, opt.param_groups[0]["lr"]))
    assert results[0] == results[1]


@pytest.mark.parametrize("change", [
    lambda lib, opt, state: lib.optim.SGD([lib.nn.Parameter(lib.ones(2))], lr=1),
    lambda lib, opt, state: state.pop("state") and opt,
    lambda lib, opt, state: state["param_groups"].append({}) or opt,
    lambda lib, opt, state: state["state"].update({7: {}}) or opt,
], ids=["no-state", "missing-state", "groups", "extra-key"])
def test_swap_in_errors(change):
    results = []
    for lib in (mg, torch):
        model, opt = _stepped(lib)
        state = copy.deepcopy(opt.state_dict())
        target = change(lib, opt, state)
        params = dict(model.named_parameters())
        try:
            with lib.optim.swap_in_optimizer_params_and_state(target, params, state):
                pass
            results.append("ok")
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            results.append((type(error).__name__, str(error)))
    assert results[0] == results[1]


def _named_parameters(lib):
    """docs/source/optim.md: an optimizer of named parameters keeps their names
    (``param_names``) in its groups and state dict; loading a state dict keeps them, a
    pre-hook can match states by name; mixing named and unnamed is refused."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Linear(2, 1))
    said = []
    optimizer = lib.optim.SGD(model.named_parameters(), lr=0.1, momentum=0.9)
    model(lib.ones(4, 3)).sum().backward()
    optimizer.step()
    state = optimizer.state_dict()
    said += [state["param_groups"], repr(optimizer), list(optimizer.param_groups[0])]
    other = lib.optim.Adam([("b", model[1].bias), ("w", model[1].weight)], lr=0.01)
    other.add_param_group({"params": [("first.weight", model[0].weight)], "lr": 0.5})
    said.append(other.state_dict()["param_groups"])
    for bad in (lambda: lib.optim.SGD([("w", model[0].weight), model[0].bias], lr=0.1),
                lambda: other.add_param_group({"params": [model[0].bias]}),
                lambda: lib.optim.SGD([model[0].bias], lr=0.1).add_param_group(
                    {"params": [("w", model[0].weight)]})):
        try:
            bad()
        except ValueError as error:
            said.append(str(error))
    unnamed = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    unnamed.load_state_dict(state)
    said.append(unnamed.state_dict()["param_groups"])
    renamed = lib.optim.SGD(model.named_parameters(), lr=0.3)
    renamed.load_state_dict({"state": {}, "param_groups": [
        {k: v for k, v in state["param_groups"][0].items() if k != "param_names"}]})
    said.append(renamed.state_dict()["param_groups"])
    return said


def test_named_parameters_as_torch():
    assert _named_parameters(mg) == _named_parameters(torch)
