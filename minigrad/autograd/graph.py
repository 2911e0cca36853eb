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
  block fails with ``message`` when something is saved.

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

import contextlib

from . import packing
from .hooks import RemovableHandle
from .node import Node

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "RemovableHandle"]


class saved_tensors_hooks:  # noqa: N801 (PyTorch's name)
    """Inside the block, a tensor saved for backward is kept as ``pack_hook(tensor)``
    and read back as ``unpack_hook(packed)``. Blocks nest; the innermost pair is used."""

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if packing.DEFAULT_HOOKS and isinstance(packing.DEFAULT_HOOKS[-1], str):
            raise RuntimeError(packing.DEFAULT_HOOKS[-1])  # (disable_saved_tensors_hooks)
        packing.DEFAULT_HOOKS.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc_info) -> None:
        packing.DEFAULT_HOOKS.pop()


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
    packing.DEFAULT_HOOKS.append(error_message)
    try:
        yield
    finally:
        packing.DEFAULT_HOOKS.remove(error_message)
