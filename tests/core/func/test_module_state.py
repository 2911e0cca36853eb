"""``torch.func.functional_call`` and ``stack_module_state`` (minigrad/func/module_state.py):
a module run with other tensors for its parameters and buffers (then given its own back),
tied weights, strict checking and PyTorch's texts, and models stacked for vmap; values
against PyTorch live, and a small training loop that steps the stacked parameters."""

from __future__ import annotations

import numpy as np
import torch

import minigrad as mg

from printed_twins import same


def test_functional_call_uses_the_tensors_given_and_restores_the_module():
    def program(L):
        L.manual_seed(0)
        net = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.BatchNorm1d(4), L.nn.ReLU(), L.nn.Linear(4, 2))
        x = L.randn(5, 3)
        zeros = {name: L.zeros_like(p) for name, p in net.named_parameters()}
        swapped = L.func.functional_call(net, zeros, (x,))
        one = L.func.functional_call(net, {"3.bias": L.ones(2)}, x)
        state = {**dict(net.named_parameters()), **dict(net.named_buffers())}
        with_buffers = L.func.functional_call(net, state, (x,), {})
        return swapped, one, with_buffers, net(x), net[1].running_mean, net[3].bias
    same(program)


def test_tied_weights():
    def program(L):
        L.manual_seed(0)
        net = L.nn.Sequential(L.nn.Linear(2, 2, bias=False), L.nn.Linear(2, 2, bias=False))
        net[1].weight = net[0].weight
        x = L.ones(1, 2)
        given = {"0.weight": L.eye(2) * 2}
        return (L.func.functional_call(net, given, (x,)),
                L.func.functional_call(net, given, (x,), tie_weights=False))
    same(program)


def test_strict_and_repeated_keys():
    def program(L):
        net = L.nn.Linear(2, 2)
        said = []
        for call in (lambda: L.func.functional_call(net, {"foo": L.zeros(1)}, (L.ones(1, 2),), strict=True),
                     lambda: L.func.functional_call(net, {"bias": L.zeros(2)}, (L.ones(1, 2),), strict=True),
                     lambda: L.func.functional_call(net, ({"weight": L.zeros(2, 2)}, {"weight": L.zeros(2, 2)}), (L.ones(1, 2),))):
            try:
                call()
            except (RuntimeError, ValueError) as error:
                said.append(f"{type(error).__name__}: {error}")
        return said
    assert "Missing key(s)" in same(program)


def test_stack_module_state_and_its_errors():
    def program(L):
        L.manual_seed(0)
        models = [L.nn.Sequential(L.nn.Linear(2, 3), L.nn.BatchNorm1d(3)) for _ in range(3)]
        params, buffers = L.func.stack_module_state(models)
        said = [{k: (tuple(v.shape), v.requires_grad, v.is_leaf) for k, v in params.items()},
                {k: (tuple(v.shape), v.requires_grad) for k, v in buffers.items()}, params["0.bias"]]
        models[1].eval()
        for call in (lambda: L.func.stack_module_state([]), lambda: L.func.stack_module_state(models),
                     lambda: L.func.stack_module_state([L.nn.Linear(1, 1), L.nn.ReLU()])):
            try:
                call()
            except RuntimeError as error:
                said.append(str(error))
        return said
    same(program)


def test_an_ensemble_trained_as_one_batched_model():
    """Program level: three models stacked, run with vmap over functional_call, their
    summed loss differentiated with torch.func.grad and the stacked parameters stepped."""
    def program(L):
        L.manual_seed(0)
        models = [L.nn.Sequential(L.nn.Linear(4, 8), L.nn.Tanh(), L.nn.Linear(8, 3)) for _ in range(3)]
        params, buffers = L.func.stack_module_state(models)
        base = models[0]
        x, y = L.randn(10, 4), L.randint(0, 3, (10,))

        def loss_of(params, buffers):
            out = L.func.functional_call(base, (params, buffers), (x,))
            return L.nn.functional.cross_entropy(out, y)

        losses = []
        for _ in range(5):
            per_model = L.vmap(L.func.grad_and_value(loss_of))(params, buffers)
            grads, loss = per_model
            params = {k: (p - 0.5 * grads[k]).detach() for k, p in params.items()}
            losses.append(loss)
        return L.stack(losses), params["2.weight"]

    mine, theirs = program(mg), program(torch)
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=2e-5, atol=2e-6)


def test_replace_all_batch_norm_modules_():
    def program(L):
        net = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.BatchNorm1d(3), L.nn.Sequential(L.nn.BatchNorm1d(3)))
        out = L.func.replace_all_batch_norm_modules_(net)
        return (out is net, net[1].running_mean, net[2][0].track_running_stats,
                dict(net.named_buffers()), net(L.ones(4, 2)).shape)
    same(program)
