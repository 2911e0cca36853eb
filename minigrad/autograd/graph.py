"""``torch.autograd.graph``: the graph's public surface.

- ``Node``: the class of every ``grad_fn`` (``isinstance(y.grad_fn, Node)``), with
  ``name()``, ``next_functions``, ``metadata``, ``register_prehook`` and
  ``register_hook`` (see ``hooks.py`` for when the hooks run);
- ``saved_tensors_hooks(pack_hook, unpack_hook)``: inside the block, every tensor an
  operation saves for backward is kept as ``pack_hook(tensor)``, and backward reads it
  back as ``unpack_hook(packed)`` (see ``packing.py``);
- ``save_on_cpu()``: such a pair that keeps a copy on the CPU (on minigrad's one
  device: a copy);
- ``disable_saved_tensors_hooks(message)``: inside it, a ``saved_tensors_hooks``
  block fails with ``message`` when something is saved;
- ``allow_mutation_on_saved_tensors()``: inside it, a saved tensor changed in place is
  copied first, so backward reads its old value (``mutation.py``);
- ``register_multi_grad_hook(tensors, fn, mode="all")``: ``fn`` called once per backward
  pass with the gradients of all of ``tensors`` (None for those the pass does not reach),
  or, with ``mode="any"``, with the first of them to be computed.

>>> import minigrad as torch
>>> seen = []
>>> def pack(t):
...     seen.append(("pack", t.shape))
...     return t.detach()
>>> def unpack(t):
...     seen.append(("unpack", t.shape))
...     return t
>>> x = torch.ones(3, requires_grad=True)
>>> with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
...     y = x.exp()
>>> y.sum().backward()
>>> seen
[('pack', torch.Size([3])), ('unpack', torch.Size([3]))]
"""

from __future__ import annotations

import collections
import contextlib

from . import packing
from .mutation import allow_mutation_on_saved_tensors
from .engine import RUNNING
from .hooks import RemovableHandle
from .node import Node

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "allow_mutation_on_saved_tensors",
           "RemovableHandle", "register_multi_grad_hook", "GradientEdge", "get_gradient_edge"]


class saved_tensors_hooks:  # noqa: N801 (PyTorch's name)
    """Inside the block, a tensor saved for backward is kept as ``pack_hook(tensor)``
    and read back as ``unpack_hook(packed)``. Blocks nest; the innermost pair is used."""

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if packing.SAVED_TENSORS_HOOKS and isinstance(packing.SAVED_TENSORS_HOOKS[-1], str):
            raise RuntimeError(packing.SAVED_TENSORS_HOOKS[-1])  # (disable_saved_tensors_hooks)
        packing.SAVED_TENSORS_HOOKS.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc_info) -> None:
        packing.SAVED_TENSORS_HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 (PyTorch's name)
    """Saved tensors are kept on the CPU and brought back to their device for backward.
    minigrad has the CPU only: each is kept as a copy."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu() if not pin_memory else tensor.clone())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """Inside the block, using ``saved_tensors_hooks`` raises ``RuntimeError(error_message)``."""
    packing.SAVED_TENSORS_HOOKS.append(error_message)
    try:
        yield
    finally:
        packing.SAVED_TENSORS_HOOKS.remove(error_message)


# ---- edges: where a tensor's gradient enters the graph --------------------------------------

GradientEdge = collections.namedtuple("GradientEdge", ("node", "output_nr", "ownership_token"),
                                      defaults=(None,))
GradientEdge.__doc__ = ("The edge a tensor's gradient flows along: (node, output_nr). "
                        "autograd.grad and backward take it where they take a tensor.")


def get_gradient_edge(tensor) -> GradientEdge:
    """The GradientEdge of ``tensor``: its grad_fn (a leaf's AccumulateGrad) and output_nr."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    return GradientEdge(_get_grad_fn_or_grad_acc(tensor), tensor.output_nr)


# ---- hooks on several tensors at once ----------------------------------------------------


def _current_graph_task_id() -> int:
    """The running backward pass's number (-1 outside one), as torch._C's."""
    return RUNNING[-1].id if RUNNING else -1


def _will_engine_execute_node(node) -> bool:
    """Whether the running backward pass will run ``node``, as torch._C's."""
    if not RUNNING:
        raise RuntimeError("_get_should_execute_nodes should only be called during the "
                           "backward pass")
    return RUNNING[-1].will_run(node)


def _get_grad_fn_or_grad_acc(tensor):
    """The node a tensor's gradient reaches first: its grad_fn, or a leaf's AccumulateGrad."""
    node = tensor._gradient_edge()[0] if tensor.requires_grad else tensor.grad_fn
    if node is None:
        raise AssertionError("Expected gradient function to be set")
    return node


class _AllGrads:
    """mode="all": each tensor's gradient kept, per pass, until the last of the tensors the
    pass will reach has had its own; then ``fn`` on all of them (None for the others)."""

    def __init__(self, fn, nodes: list) -> None:
        self.fn, self.nodes = fn, nodes
        self.count: dict = {}  # pass id -> gradients seen so far
        self.buffer: dict = {}  # pass id -> one gradient (or None) per tensor
        self.calls = None  # how many gradients the pass will make, counted at its first

    def hook(self, index: int):
        def inner_hook(grad) -> None:
            task = _current_graph_task_id()
            seen = self.count.get(task, 0)
            self.count[task] = seen + 1
            self.buffer.setdefault(task, [None] * len(self.nodes))[index] = grad
            if seen == 0:
                self.calls = sum(map(_will_engine_execute_node, self.nodes))
            if seen == self.calls - 1:
                self.fn(self.buffer.pop(task))
                del self.count[task]
        return inner_hook


class _AnyGrad:
    """mode="any": ``fn`` on the first of the tensors' gradients in each pass."""

    def __init__(self, fn) -> None:
        self.fn, self.ran = fn, set()

    def __call__(self, grad) -> None:
        task = _current_graph_task_id()
        if task not in self.ran:
            self.ran.add(task)
            self.fn(grad)


class _MultiHandle(RemovableHandle):
    """The handle of a multi-grad hook: ``remove()`` removes it from every tensor."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __getstate__(self) -> tuple:
        return self.handles

    def __setstate__(self, state: tuple) -> None:
        self.handles = state


def register_multi_grad_hook(tensors, fn, *, mode: str = "all") -> RemovableHandle:
    """Call ``fn`` once per backward pass: with mode "all", on the list of the gradients of
    ``tensors`` once the last the pass computes is known (None for each one the pass does
    not reach); with "any", on the first gradient computed. Returns a handle whose
    ``remove()`` takes the hook off every tensor."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "any":
        first = _AnyGrad(fn)
        return _MultiHandle(tuple(t.register_hook(first) for t in tensors if t.requires_grad))
    all_grads = _AllGrads(fn, list(map(_get_grad_fn_or_grad_acc, tensors)))
    return _MultiHandle(tuple(t.register_hook(all_grads.hook(i))
                              for i, t in enumerate(tensors)))
