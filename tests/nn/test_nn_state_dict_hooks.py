"""``Module``'s state-dict hooks (``register_state_dict_pre_hook``/``_post_hook``,
``_register_state_dict_hook``, ``register_load_state_dict_pre_hook``/``_post_hook``) and
the older ``nn.utils.spectral_norm`` built on them, against PyTorch 2.13: what the hooks
are called with and in which order, what they may change, their errors; spectral norm's
parameters, buffers, values and gradients through training steps, eval mode, its state
dict (with its version in the metadata), loading an old one, and its removal."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad


def _same(ours, theirs, exact=True):
    if exact:
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    else:
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(),
                                   rtol=1e-5, atol=1e-6)


def _hooked(lib):
    """A two-level model whose hooks write down what they were called with."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.Sequential(lib.nn.Linear(3, 1)))
    calls = []

    def pre(module, prefix, keep_vars):
        calls.append(("pre", type(module).__name__, prefix, keep_vars))

    def post(module, state_dict, prefix, local_metadata):
        calls.append(("post", type(module).__name__, prefix, sorted(state_dict),
                      dict(local_metadata)))
        state_dict[prefix + "note"] = lib.tensor(1.0)

    def load_pre(module, state_dict, prefix, local_metadata, strict, missing, unexpected,
                 errors):
        calls.append(("load_pre", type(module).__name__, prefix, sorted(state_dict),
                      dict(local_metadata), strict))
        state_dict.pop(prefix + "note", None)
        if prefix + "old_weight" in state_dict:  # (a renamed key, as checkpoints migrate)
            state_dict[prefix + "weight"] = state_dict.pop(prefix + "old_weight")

    def load_post(module, incompatible):
        calls.append(("load_post", type(module).__name__, list(incompatible.missing_keys),
                      list(incompatible.unexpected_keys)))

    for module in (model, model[0], model[1][0]):
        module.register_state_dict_pre_hook(pre)
        module.register_state_dict_post_hook(post)
        module.register_load_state_dict_pre_hook(load_pre)
        module.register_load_state_dict_post_hook(load_post)
    return model, calls


def test_state_dict_and_load_hooks_are_called_as_pytorchs():
    found = {}
    for lib in (minigrad, torch):
        model, calls = _hooked(lib)
        state = model.state_dict()
        keys = list(state)
        state["0.old_weight"] = state.pop("0.weight")
        result = model.load_state_dict(state)
        found[lib] = (calls, keys, repr(result), sorted(state))
    assert found[minigrad] == found[torch]


def test_hook_results_and_errors_are_pytorchs():
    for lib in (minigrad, torch):
        layer = lib.nn.Linear(2, 2)
        layer._register_state_dict_hook(lambda m, sd, p, meta: {"replaced": lib.tensor(0.0)})
        assert list(layer.state_dict()) == ["replaced"]  # (the private hook's dict, at the root)
    outcomes = {}
    for lib in (minigrad, torch):
        layer, got = lib.nn.Linear(2, 2), []

        def public(module, state_dict, prefix, local_metadata):
            return {}
        layer.register_state_dict_post_hook(public)
        for call in (layer.state_dict, lambda: layer._register_state_dict_hook(public)):
            with pytest.raises(RuntimeError) as error:
                call()
            got.append(str(error.value))
        other = lib.nn.Linear(2, 2)
        other.register_load_state_dict_post_hook(lambda module, keys: 1)
        with pytest.raises(AssertionError) as error:
            other.load_state_dict(other.state_dict())
        got.append(str(error.value))
        quiet = lib.nn.Linear(2, 2)  # (a post-hook that clears the unexpected keys: strict passes)
        quiet.register_load_state_dict_post_hook(lambda module, keys: keys.unexpected_keys.clear())
        got.append(repr(quiet.load_state_dict({**quiet.state_dict(), "extra": lib.zeros(1)})))
        outcomes[lib] = got
    assert outcomes[minigrad] == outcomes[torch]


@pytest.mark.parametrize("kind", ["linear", "conv", "conv_transpose"])
def test_spectral_norm_trains_as_pytorchs(kind):
    found = {}
    for lib in (minigrad, torch):
        lib.manual_seed(1)
        layer = {"linear": lambda: lib.nn.Linear(6, 4),
                 "conv": lambda: lib.nn.Conv2d(2, 3, 3),
                 "conv_transpose": lambda: lib.nn.ConvTranspose2d(2, 3, 3)}[kind]()
        layer = lib.nn.utils.spectral_norm(layer, n_power_iterations=2)
        shape = (5, 6) if kind == "linear" else (2, 2, 5, 5)
        x = lib.randn(*shape)
        optimizer = lib.optim.SGD(layer.parameters(), lr=0.1)
        outputs = []
        for _ in range(3):
            optimizer.zero_grad()
            y = layer(x)
            (y * y).mean().backward()
            optimizer.step()
            outputs.append(y)
        layer.eval()
        outputs.append(layer(x))
        found[lib] = (outputs, layer.weight_u, layer.weight_v, layer.weight_orig,
                      sorted(n for n, _ in layer.named_parameters()),
                      sorted(n for n, _ in layer.named_buffers()), repr(layer))
    ours, theirs = found[minigrad], found[torch]
    assert ours[4:] == theirs[4:]
    for a, b in zip(ours[0] + list(ours[1:4]), theirs[0] + list(theirs[1:4])):
        _same(a, b, exact=False)  # (mv, dot and the layers' sums: BLAS's order, close)


def test_spectral_norm_state_dicts_as_pytorchs():
    found = {}
    for lib in (minigrad, torch):
        lib.manual_seed(2)
        # (4 outputs of 3 inputs: W^T W, which loading an old state dict inverts, is full rank)
        layer = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4))
        layer(lib.randn(2, 3))
        state = layer.state_dict()
        fresh = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4))
        loaded = repr(fresh.load_state_dict(state))
        # a state dict from before version 1: weight saved, no weight_v (solved on loading)
        old = {k: v for k, v in state.items() if k != "weight_v"}
        old["weight"] = layer.weight.detach()
        older = lib.nn.utils.spectral_norm(lib.nn.Linear(3, 4))
        older.load_state_dict(old)
        lib.nn.utils.remove_spectral_norm(layer)
        with pytest.raises(RuntimeError) as error:  # (PyTorch's own slip: its load hook stays)
            layer.load_state_dict(layer.state_dict())
        found[lib] = (list(state), dict(state._metadata), loaded, fresh.weight_v, older.weight_v,
                      str(error.value), layer.weight, sorted(n for n, _ in layer.named_buffers()))
    ours, theirs = found[minigrad], found[torch]
    assert ours[:3] == theirs[:3] and ours[5] == theirs[5] and ours[7] == theirs[7]
    for a, b in zip(ours[3:5] + ours[6:7], theirs[3:5] + theirs[6:7]):
        _same(a, b, exact=False)  # (mv, dot, a pseudo-inverse: BLAS's and LAPACK's rounding)


def test_spectral_norm_errors_are_pytorchs():
    calls = [
        lambda lib: lib.nn.utils.spectral_norm(lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2))),
        lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2), n_power_iterations=0),
        lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2, bias=False), name="bias"),
        lambda lib: lib.nn.utils.remove_spectral_norm(lib.nn.Linear(2, 2)),
    ]
    for call in calls:
        messages = []
        for lib in (minigrad, torch):
            with pytest.raises(Exception) as error:
                call(lib)
            messages.append((type(error.value).__name__,
                             str(error.value).replace("minigrad", "torch")))
        assert messages[0] == messages[1]
