"""One ``RemovableHandle`` for every hook, as PyTorch has one
(``torch.utils.hooks.RemovableHandle``): what a tensor's, a node's and a module's
``register_*hook`` return, compared with PyTorch 2.13 at test time: the class and
where it is found, ids counting up by one across kinds, ``remove()`` twice (the second
does nothing), the ``with`` block, ``extra_dict``, a hook that removes itself while the
hooks run (the next one still runs), and copying a handle."""

from __future__ import annotations

import copy
from collections import OrderedDict

import pytest
import torch

import minigrad as mg


def _handles(lib) -> list:
    """A handle of each kind, in the order they were made."""
    x = lib.ones(2, requires_grad=True)
    y = x * 2
    return [x.register_hook(lambda g: None), y.register_hook(lambda g: None),
            y.grad_fn.register_hook(lambda gi, go: None),
            y.grad_fn.register_prehook(lambda go: None),
            lib.nn.Linear(2, 2).register_forward_hook(lambda m, a, o: None),
            lib.nn.Linear(2, 2).register_forward_pre_hook(lambda m, a: None, with_kwargs=True),
            lib.nn.Linear(2, 2).register_full_backward_hook(lambda m, gi, go: None),
            lib.nn.Linear(2, 2).register_full_backward_pre_hook(lambda m, go: None)]


def test_one_class_for_every_hook_where_torch_has_it():
    for lib in (mg, torch):
        handles = _handles(lib)
        assert {type(h) for h in handles} == {lib.utils.hooks.RemovableHandle}
        assert lib.autograd.graph.RemovableHandle is lib.utils.hooks.RemovableHandle
        assert [h.id - handles[0].id for h in handles] == list(range(len(handles)))
        assert handles[-1].id + 1 == lib.utils.hooks.RemovableHandle.next_id


def _removals(lib) -> list:
    seen = []
    x = lib.ones(2, requires_grad=True)
    y = x * 2
    handles = {}

    def removes_itself(name):
        def hook(*args):
            seen.append(name)
            handles[name].remove()
        return hook

    def stays(name):
        return lambda *args: seen.append(name)

    handles["leaf"] = x.register_hook(removes_itself("leaf"))
    x.register_hook(stays("leaf, after"))
    handles["tensor"] = y.register_hook(removes_itself("tensor"))
    y.register_hook(stays("tensor, after"))
    handles["node"] = y.grad_fn.register_hook(removes_itself("node"))
    y.grad_fn.register_hook(stays("node, after"))
    handles["pre"] = y.grad_fn.register_prehook(removes_itself("pre"))
    y.grad_fn.register_prehook(stays("pre, after"))
    for run in range(2):
        seen.append(f"backward {run}")
        y.sum().backward(retain_graph=True)
    for handle in handles.values():
        handle.remove()  # (a second time: nothing happens)
    net = lib.nn.Linear(2, 2)
    with net.register_forward_hook(stays("module")) as handle:
        net(lib.ones(1, 2))
    handle.remove()
    net(lib.ones(1, 2))
    kwargs = net.register_forward_pre_hook(stays("with kwargs"), with_kwargs=True)
    net(lib.ones(1, 2))
    kwargs.remove()
    kwargs.remove()
    seen.append(len(net._forward_pre_hooks))
    return seen


def test_remove_twice_with_block_and_hooks_removed_while_running_are_torchs():
    assert _removals(mg) == _removals(torch)


@pytest.mark.parametrize("extra", ["one dict", "a list of dicts"])
def test_extra_dict_goes_with_the_hook(extra):
    def run(lib):
        hooks, more, other = OrderedDict(), OrderedDict(), OrderedDict()
        handle = lib.utils.hooks.RemovableHandle(
            hooks, extra_dict=more if extra == "one dict" else [more, other])
        hooks[handle.id] = more[handle.id] = other[handle.id] = "hook"
        kept = dict(hooks), dict(more), dict(other)
        handle.remove()
        handle.remove()
        return [sorted(d.values()) for d in (*kept, hooks, more, other)]
    assert run(mg) == run(torch)


def test_a_copied_handle_removes_from_the_copied_dict():
    def run(lib):
        hooks = OrderedDict()
        handle = lib.utils.hooks.RemovableHandle(hooks)
        hooks[handle.id] = "hook"
        twin = copy.deepcopy(handle)
        twin.remove()
        after_twin = len(hooks)
        handle.remove()
        return after_twin, len(hooks), twin.id == handle.id
    assert run(mg) == run(torch)
