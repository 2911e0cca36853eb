"""A node's own hooks (``torch.autograd.graph.Node``'s ``register_prehook`` and
``register_hook``), as both walks run them around the node's backward.

For one node, PyTorch's engine runs, in this order: the tensor hooks of its outputs
(``tensor.register_hook``, then ``retain_grad``; ``engine.run_tensor_hooks``), the
node's pre-hooks ``hook(grad_outputs)``, its backward, and its post-hooks
``hook(grad_inputs, grad_outputs)``. A hook returns None (nothing changes) or a tuple
that replaces the gradients it was given, each of the same dtype and shape.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import errors
from . import grad_mode
from .tensor_base import TensorBase, make

__all__ = ["RemovableHandle", "NodeHooks", "run_prehooks", "run_posthooks"]


class RemovableHandle:
    """What ``register_hook`` returns: ``handle.remove()`` unregisters the hook
    (again: nothing happens)."""

    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks: list, hook) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        for index, hook in enumerate(self._hooks):
            if hook is self._hook:
                del self._hooks[index]
                return

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()


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
            self._node_hooks = ([], [])
        self._node_hooks[kind].append(fn)
        return RemovableHandle(self._node_hooks[kind], fn)

    def _add_tensor_pre_hook(self, output_nr: int, hook) -> None:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        self._tensor_pre_hooks.setdefault(output_nr, []).append(hook)

    def _retain_grad_of(self, tensor) -> None:
        if self._retains_grad is None:
            self._retains_grad = {}
        self._retains_grad[tensor._output_nr] = weakref.ref(tensor)


def run_prehooks(node, grad_outputs: tuple, on_arrays: bool) -> tuple:
    """``grad_outputs`` after ``node``'s pre-hooks (each sees what the one before returned)."""
    hooks = node._node_hooks
    if hooks is None or not hooks[0]:
        return grad_outputs
    return _run(hooks[0], grad_outputs, (), on_arrays)


def run_posthooks(node, grads: tuple, grad_outputs: tuple, needed, on_arrays: bool) -> tuple:
    """``grads`` (what ``node``'s backward returned, one per edge) after its post-hooks,
    which also see the ``grad_outputs`` it received. A hook sees None along an edge
    where no gradient flows (to no node, or to one that does not run: ``needed``)."""
    hooks = node._node_hooks
    if hooks is None or not hooks[1]:
        return grads
    grads = tuple([None if next_node is None or (needed is not None and next_node not in needed)
                   else grad for (next_node, _), grad in zip(node.next_functions, grads)])
    return _run(hooks[1], grads, (_tensors(grad_outputs, on_arrays),), on_arrays)


def _run(hooks: list, grads: tuple, extra: tuple, on_arrays: bool) -> tuple:
    """Call each hook on the gradients as Tensors (with grad mode off on arrays, as
    the tensor hooks) and check what it returns, as PyTorch does."""
    previous = grad_mode._enabled
    if on_arrays:
        grad_mode._set_enabled(False)
    try:
        for hook in list(hooks):
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
