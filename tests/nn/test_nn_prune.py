"""``nn.utils.prune`` (minigrad/nn/utils/prune.py) against PyTorch's: the same masks after
the same seed, the same reparametrisation (``weight_orig``, ``weight_mask``, the hook), the
same gradients through a pruned layer, the same errors. Each case runs under both
libraries and must give the same text."""

from __future__ import annotations

import importlib
import re

import pytest
import torch

import minigrad


def _prune(t):
    return importlib.import_module(t.__name__ + ".nn.utils.prune")


def _linear(t, seed=0):
    t.manual_seed(seed)
    return t.nn.Linear(4, 3)


def masks_after_each_method(t):
    p = _prune(t)
    conv = (t.manual_seed(1), t.nn.Conv2d(2, 4, 3))[1]
    p.random_structured(conv, "weight", amount=1, dim=1)
    first = conv.weight_mask.clone()
    p.random_unstructured(conv, "weight", amount=0.25)
    p.ln_structured(conv, "weight", amount=1, n=1, dim=-1)
    p.l1_unstructured(conv, "bias", amount=0.5, importance_scores=t.tensor([4., 1., 3., 2.]))
    p.identity(conv, "bias")
    hook_kinds = [type(h).__name__ for h in conv._forward_pre_hooks.values()]
    inner = [type(m).__name__ for m in next(iter(conv._forward_pre_hooks.values()))]
    return first, conv.weight_mask, conv.bias_mask, hook_kinds, inner


def gradients_through_a_pruned_layer(t):
    p = _prune(t)
    layer = _linear(t)
    p.l1_unstructured(layer, "weight", amount=5)
    p.custom_from_mask(layer, "bias", mask=t.tensor([1, 0, 1]))
    x = t.linspace(-1, 1, 8).reshape(2, 4)
    layer(x).pow(2).sum().backward()
    names = [n for n, _ in layer.named_parameters()]
    return names, layer.weight_orig.grad, layer.bias_orig.grad, layer.weight.grad_fn.name()


def a_training_step_then_remove(t):
    p = _prune(t)
    layer = _linear(t, 3)
    p.random_unstructured(layer, "weight", amount=0.5)
    opt = t.optim.SGD(layer.parameters(), lr=0.5)
    for _ in range(2):
        opt.zero_grad()
        layer(t.ones(2, 4)).sum().backward()
        opt.step()
    before = layer.weight.clone()
    p.remove(layer, "weight")
    return (before, layer.weight, type(layer.weight).__name__, layer.weight.requires_grad,
            list(layer.state_dict()), list(layer._forward_pre_hooks.values()), p.is_pruned(layer))


def state_dict_round_trip(t):
    p = _prune(t)
    pruned = _linear(t)
    p.l1_unstructured(pruned, "weight", amount=0.5)
    other = _linear(t, 5)
    p.identity(other, "weight")
    other.load_state_dict(pruned.state_dict())
    other(t.ones(1, 4))  # (the hook recomputes weight from the loaded orig and mask)
    return other.weight, list(pruned.state_dict())


def the_prune_method_on_a_tensor(t):
    p = _prune(t)
    x = t.tensor([[3., -1., 2.], [0.5, -4., 1.]])
    return (p.L1Unstructured(amount=2).prune(x),
            p.LnStructured(amount=1, n=2, dim=0).prune(x),
            p.RandomUnstructured(amount=0.5).prune(x, default_mask=t.tensor([[1., 0, 1], [1, 1, 0]])))


def _error(call):
    try:
        call()
        return "no error"
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return f"{type(error).__name__}: {error}"


def errors(t):
    p = _prune(t)
    found = [
        _error(lambda: p.l1_unstructured(_linear(t), "weight", amount="a")),
        _error(lambda: p.l1_unstructured(_linear(t), "weight", amount=1.5)),
        _error(lambda: p.l1_unstructured(_linear(t), "weight", amount=-1)),
        _error(lambda: p.l1_unstructured(_linear(t), "weight", amount=13)),
        _error(lambda: p.ln_structured(_linear(t), "bias", amount=1, n=2, dim=0)),
        _error(lambda: p.random_structured(_linear(t), "weight", amount=1, dim=2)),
        _error(lambda: p.remove(t.nn.ReLU(), "weight")),
        _error(lambda: p.global_unstructured(3, pruning_method=p.L1Unstructured, amount=1)),
        _error(lambda: p.global_unstructured([(_linear(t), "weight")],
                                             pruning_method=p.RandomStructured, amount=1)),
        _error(lambda: p.l1_unstructured(_linear(t), "weight", amount=1,
                                         importance_scores=t.ones(2))),
    ]
    layer = _linear(t)
    found.append(_error(lambda: p.l1_unstructured(layer, "weight", amount=20)))
    found.append([n for n, _ in layer.named_parameters()])  # (nothing changed by the failure)
    return found


CASES = [masks_after_each_method, gradients_through_a_pruned_layer, a_training_step_then_remove,
         state_dict_round_trip, the_prune_method_on_a_tensor, errors]


def _text(value, library) -> str:
    text = re.sub(r" at 0x[0-9a-f]+", "", str(value))
    return text.replace(library.__name__ + ".", "torch.")


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_pruning_as_pytorch(case):
    assert _text(case(minigrad), minigrad) == _text(case(torch), torch)
