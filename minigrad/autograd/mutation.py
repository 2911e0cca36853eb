"""``torch.autograd.graph.allow_mutation_on_saved_tensors()``: inside the block, a tensor
saved for backward may be changed in place afterwards. Its saved value is kept through
``saved_tensors_hooks`` (a handle per tensor and version), and the first in-place write
into its memory (``before_write``, which ``ops/inplace.rebase`` calls before writing)
copies the value first, so backward reads what the tensor was when saved, as PyTorch's
dispatch mode clones an argument before an op writes into it. Backward must run inside
the same block: the copies are dropped when it ends."""

from __future__ import annotations

import collections
import contextlib
import weakref

from ..kernels.layout import preserved_copy, storage_owner
from .packing import SAVED_TENSORS_HOOKS
from .tensor_base import make

__all__ = ["allow_mutation_on_saved_tensors", "before_write"]

OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
           "in which the graph was originally recorded.")
_OPEN: list = []  # the block's state while one is open


class _Handle:
    """What a node keeps of a saved tensor inside the block (weakly referenced: dropped
    with the graph)."""


class _AllowMutationOnSavedContext:
    """The block's state: the saved tensors by handle, their copies once changed, and
    the handles by the memory they look into."""

    def __init__(self) -> None:
        self.original = weakref.WeakKeyDictionary()
        self.cloned = weakref.WeakKeyDictionary()
        self.handles = weakref.WeakValueDictionary()  # (id, version) -> handle
        self.by_memory = collections.defaultdict(weakref.WeakSet)

    def clear(self) -> None:
        for table in (self.original, self.cloned, self.handles, self.by_memory):
            table.clear()

    def pack(self, tensor) -> _Handle:
        key = (id(tensor), tensor._version_counter.value)
        handle = self.handles.get(key)
        if handle is None:
            handle = self.handles[key] = _Handle()
            self.original[handle] = tensor
        self.by_memory[id(storage_owner(tensor._data))].add(handle)
        return handle

    def unpack(self, handle: _Handle):
        if not _OPEN or (handle not in self.cloned and handle not in self.original):
            raise AssertionError(OUTSIDE)
        return self.cloned[handle] if handle in self.cloned else self.original[handle]


def before_write(x) -> None:
    """About to change ``x`` in place: inside the block, the saved tensors sharing its
    memory are copied as they are now (once each)."""
    if not _OPEN:
        return
    context = _OPEN[-1]
    for handle in list(context.by_memory.get(id(storage_owner(x._data)), ())):
        if handle not in context.cloned and handle in context.original:
            context.cloned[handle] = make(preserved_copy(context.original.pop(handle)._data))


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Inside the block, tensors saved for backward are copied when first changed in
    place, so backward (which must run inside the same block) reads their old values.

    >>> import minigrad as torch
    >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
    ...     a = torch.ones(2, 3, requires_grad=True)
    ...     b = a.clone()
    ...     out = (b**2).sum()
    ...     b.sin_()
    ...     out.sum().backward()
    tensor([[0.8415, 0.8415, 0.8415],
            [0.8415, 0.8415, 0.8415]], grad_fn=<SinBackward0>)
    """
    context = _AllowMutationOnSavedContext()
    SAVED_TENSORS_HOOKS.append((context.pack, context.unpack))
    try:
        if _OPEN:
            raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        _OPEN.append(context)
        yield context
    finally:
        context.clear()
        _OPEN.clear()
        SAVED_TENSORS_HOOKS.remove((context.pack, context.unpack))
