"""A node's own hooks (``torch.autograd.graph.Node``'s ``register_prehook`` and
``register_hook``), as both walks run them around the node's backward.

For one node, PyTorch's engine runs, in this order: the tensor hooks of its outputs
(``tensor.register_hook``, then ``retain_grad``; ``engine.run_tensor_hooks``), the
node's pre-hooks ``hook(grad_outputs)``, its backward, and its post-hooks
``hook(grad_inputs, grad_outputs)``. A hook returns None (nothing changes) or a tuple
that replaces the gradients it was given, each of the same dtype and shape.

Every hook registration (a tensor's, a node's, a module's) returns the one
``RemovableHandle`` defined here (``torch.utils.hooks.RemovableHandle``; it lives on this
floor so that both the tensors and ``nn`` can use it).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict

import numpy as np

from .. import errors
from . import grad_mode
from .tensor_base import TensorBase, make

__all__ = ["RemovableHandle", "add_hook", "UnattachedHooks", "NodeHooks", "run_prehooks",
           "run_posthooks"]


class RemovableHandle:
    """What registering a hook returns (a tensor's, a node's or a module's hook), as
    ``torch.utils.hooks.RemovableHandle``: the hook is kept in an ``OrderedDict`` under
    the handle's ``id`` (one counter for all handles), and ``handle.remove()``, or the
    end of a ``with handle:`` block, takes it out (again: nothing happens). The handle
    holds the dict weakly; ``extra_dict``: more dicts (or one) whose entry under ``id``
    goes with it (a module's "this hook takes kwargs")."""

    id: int
    next_id: int = 0

    def __init__(self, hooks_dict, *, extra_dict=None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        self.extra_dict_ref: tuple = ()
        if isinstance(extra_dict, dict):
            self.extra_dict_ref = (weakref.ref(extra_dict),)
        elif isinstance(extra_dict, list):
            self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            hooks = ref()
            if hooks is not None and self.id in hooks:
                del hooks[self.id]

    def __getstate__(self) -> tuple:  # (copy and pickle: the dicts themselves, not refs)
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state: tuple) -> None:
        hooks = OrderedDict() if state[0] is None else state[0]  # (None: a dead reference)
        self.hooks_dict_ref, self.id = weakref.ref(hooks), state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        extra = state[2] if len(state) > 2 and state[2] is not None else ()
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra)

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()


def add_hook(hooks, hook) -> RemovableHandle:
    """Keep ``hook`` in ``hooks`` (an ``OrderedDict``) under a new handle's id."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


class UnattachedHooks(OrderedDict):
    """The hooks of a tensor whose ``register_hook`` was refused by its ``grad_fn`` (a
    multi-output view changed in place): PyTorch makes the tensor's hook dict before it
    asks for ``grad_fn``, so a second call finds the dict and adds to it without asking
    (no error); no node holds that dict, so nothing runs those hooks."""


# register_post_accumulate_grad_hook: id(leaf) -> (weak reference to it, {handle id: hook})
post_accumulate: dict = {}


def add_post_accumulate_hook(tensor, hook) -> RemovableHandle:
    """Call ``hook(tensor)`` each time a backward has added into ``tensor.grad``."""
    key = id(tensor)
    entry = post_accumulate.get(key)
    if entry is None or entry[0]() is not tensor:
        def forget(ref, table=post_accumulate):  # (the table kept: at interpreter exit
            if table.get(key, (None,))[0] is ref:  # module globals may be None already)
                del table[key]
        entry = post_accumulate[key] = (weakref.ref(tensor, forget), OrderedDict())
    return add_hook(entry[1], hook)


def run_post_accumulate_hooks(tensor, create_graph: bool = False) -> None:
    """Call ``tensor``'s post-accumulate hooks (grad mode on only with ``create_graph``,
    as torch's engine runs them). Each returns None or the tensor it was given (an
    in-place step's result: ``p.add_(p.grad, alpha=-lr)``, the docstring's SGD); another
    tensor of its shape is passed to the next hooks, and then refused, as torch's
    ``_call_hooks``."""
    entry = post_accumulate.get(id(tensor))
    if entry is not None and entry[0]() is tensor:
        current = tensor
        with grad_mode.set_grad_enabled(create_graph):
            for hook in tuple(entry[1].values()):
                result = hook(current)
                if result is not None and result is not current:
                    current = _checked(getattr(hook, "__name__", "<unknown>"), current,
                                       result, False)
        if current is not tensor:
            raise RuntimeError(errors.POST_ACCUMULATE_HOOK_RETURNED)


class NodeHooks:
    """A node's own hooks and the tensor hooks kept on it: the part of ``Node`` that
    registers them (``Node`` inherits it; the walks run them, below)."""

    __slots__ = ()

    def register_prehook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before this node's backward runs (after the
        tensor hooks of its outputs); a tuple it returns replaces ``grad_outputs``.

        >>> import minigrad as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> y = x * 3
        >>> handle = y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        >>> y.sum().backward(); x.grad
        tensor([30., 30.])
        """
        return self._add_node_hook(0, fn)

    def register_hook(self, fn) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after this node's backward ran:
        ``grad_inputs`` are the gradients it computed, one per ``next_functions``
        edge (None where none flows), ``grad_outputs`` those it received; a tuple it
        returns replaces ``grad_inputs``."""
        return self._add_node_hook(1, fn)

    def _add_node_hook(self, kind: int, fn) -> RemovableHandle:
        if self._node_hooks is None:
            self._node_hooks = (OrderedDict(), OrderedDict())
        return add_hook(self._node_hooks[kind], fn)

    def _add_tensor_pre_hook(self, output_nr: int, hook) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        return add_hook(self._tensor_pre_hooks.setdefault(output_nr, OrderedDict()), hook)

    def _retain_grad_of(self, tensor) -> None:
        if self._retains_grad is None:
            self._retains_grad = {}
        self._retains_grad[tensor._output_nr] = weakref.ref(tensor)


def run_prehooks(node, grad_outputs: tuple, on_arrays: bool) -> tuple:
    """``grad_outputs`` after ``node``'s pre-hooks (each sees what the one before returned)."""
    hooks = node._node_hooks
    if hooks is None or not hooks[0]:
        return grad_outputs
    return _run(hooks[0], _padded(node, grad_outputs), (), on_arrays)


def _padded(node, grad_outputs: tuple) -> tuple:
    """One gradient per output of the node (None where none came), as hooks see them."""
    return grad_outputs + (None,) * (node._output_count - len(grad_outputs))


def run_posthooks(node, grads: tuple, grad_outputs: tuple, needed, on_arrays: bool) -> tuple:
    """``grads`` (what ``node``'s backward returned, one per edge) after its post-hooks,
    which also see the ``grad_outputs`` it received. A hook sees None along an edge
    where no gradient flows (to no node, or to one that does not run: ``needed``)."""
    hooks = node._node_hooks
    if hooks is None or not hooks[1]:
        return grads
    grads = tuple([None if next_node is None or (needed is not None and next_node not in needed)
                   else grad for (next_node, _), grad in zip(node.next_functions, grads)])
    return _run(hooks[1], grads, (_tensors(_padded(node, grad_outputs), on_arrays),), on_arrays)


def _run(hooks: dict, grads: tuple, extra: tuple, on_arrays: bool) -> tuple:
    """Call each hook on the gradients as Tensors (with grad mode off on arrays, as
    the tensor hooks) and check what it returns, as PyTorch does."""
    previous = grad_mode._asked
    if on_arrays:
        grad_mode._set_enabled(False)
    try:
        for hook in tuple(hooks.values()):
            result = hook(_tensors(grads, on_arrays), *extra)
            if result is None:
                continue
            if type(result) is not tuple:
                raise TypeError(errors.NODE_HOOK_RETURNED.format(type(result).__name__))
            name = getattr(hook, "__name__", "<unknown>")
            if len(result) != len(grads):
                raise RuntimeError(errors.NODE_HOOK_COUNT.format(name, len(result), len(grads)))
            grads = tuple([_checked(name, old, new, on_arrays)
                           for old, new in zip(grads, result)])
    finally:
        grad_mode._set_enabled(previous)
    return grads


def _tensors(grads: tuple, on_arrays: bool) -> tuple:
    if not on_arrays:
        return grads
    return tuple([None if grad is None else make(grad) for grad in grads])


def _checked(name: str, old, new, on_arrays: bool):
    """A gradient a hook returned, checked against the one it replaces."""
    if new is None:
        return None
    if not isinstance(new, TensorBase):
        raise TypeError(errors.HOOK_RETURNED.format(type(new).__name__))
    if old is not None:
        data = old if isinstance(old, np.ndarray) else old._data
        if new._data.dtype != data.dtype:
            raise RuntimeError(errors.HOOK_CHANGED_TYPE.format(name, make(data).type(),
                                                               new.type()))
        if new._data.shape != data.shape:
            raise RuntimeError(errors.HOOK_CHANGED_SIZE.format(name))
    return new._data if on_arrays else new
