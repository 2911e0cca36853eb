"""``torch.utils.hooks``: ``RemovableHandle``, what registering any hook returns (a
tensor's, a node's, a module's): ``handle.remove()``, ``with handle:``, ``handle.id``.
The class lives in ``autograd/hooks.py``, below both the tensors and ``nn``, which use it."""

from __future__ import annotations

from ..autograd.hooks import RemovableHandle

__all__ = ["RemovableHandle"]
