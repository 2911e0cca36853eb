"""The optimiser hooks against torch: step pre/post hooks (each optimiser's and every
optimiser's, in PyTorch's order; a pre-hook's new arguments; its error for a bad return;
removal), state_dict and load_state_dict hooks (``prepend``, a returned dict replacing
the one built or loaded), and ``dir(optimizer)``'s public names (fastai's 12_accel_sgd
prints them)."""

from __future__ import annotations

import importlib

import pytest
import torch

import minigrad as mg


def _step_story(lib):
    hooks = importlib.import_module(f"{lib.__name__}.optim.optimizer")
    calls = []
    p = lib.nn.Parameter(lib.ones(2))
    opt = lib.optim.SGD([p], lr=0.1)
    handles = [
        hooks.register_optimizer_step_pre_hook(lambda o, a, k: calls.append(("global pre", len(a), sorted(k)))),
        hooks.register_optimizer_step_post_hook(lambda o, a, k: calls.append(("global post", len(a), sorted(k)))),
        opt.register_step_post_hook(lambda o, a, k: calls.append(("post", type(o).__name__))),
        opt.register_step_pre_hook(lambda o, a, k: calls.append(("pre", o is opt))),
    ]
    p.grad = lib.ones(2)
    opt.step()
    closure = lambda: lib.tensor(3.0)  # noqa: E731
    replaced = opt.register_step_pre_hook(lambda o, a, k: ((o,), {"closure": closure}))
    loss = opt.step()
    calls.append(("loss", loss.item()))
    replaced.remove()
    for handle in handles:
        handle.remove()
    opt.step()
    opt.register_step_pre_hook(lambda o, a, k: 5)
    try:
        opt.step()
    except RuntimeError as error:
        calls.append(("error", str(error).split(" must return")[1]))
    return calls, p.detach().tolist()


def test_step_hooks_run_as_torchs():
    assert _step_story(mg) == _step_story(torch)


def _state_dict_story(lib):
    calls = []
    p = lib.nn.Parameter(lib.ones(2))
    opt = lib.optim.Adam([p], lr=0.1)
    p.grad = lib.ones(2)
    opt.step()
    opt.register_state_dict_pre_hook(lambda o: calls.append("pre 1"))
    opt.register_state_dict_pre_hook(lambda o: calls.append("pre 0"), prepend=True)
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "note": "added"})
    saved = opt.state_dict()
    calls.append(sorted(saved))
    opt.register_load_state_dict_pre_hook(
        lambda o, sd: calls.append(("load pre", sorted(sd))) or
        {"state": sd["state"], "param_groups": [dict(sd["param_groups"][0], lr=0.5)]})
    opt.register_load_state_dict_post_hook(lambda o: calls.append(("load post", o.param_groups[0]["lr"])))
    handle = opt.register_load_state_dict_post_hook(lambda o: calls.append("first"), prepend=True)
    opt.load_state_dict(saved)
    handle.remove()
    opt.load_state_dict(saved)
    return calls, sorted(saved), opt.param_groups[0]["lr"]


def test_state_dict_hooks_run_as_torchs():
    assert _state_dict_story(mg) == _state_dict_story(torch)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "LBFGS", "Adagrad"])
def test_an_optimisers_public_names_are_torchs(name):
    def names(lib):
        opt = getattr(lib.optim, name)([lib.nn.Parameter(lib.ones(2))], lr=0.1)
        return [n for n in dir(opt) if not n.startswith("_")]
    assert names(mg) == names(torch)


def test_adagrad_share_memory_returns_as_torchs():
    def story(lib):
        p = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.Adagrad([p], lr=0.1)
        shared = opt.state[p]["sum"]
        return opt.share_memory(), shared.share_memory_() is shared
    assert story(mg) == story(torch)
