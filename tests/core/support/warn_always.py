"""PyTorch gives some warnings once per process (TORCH_WARN_ONCE: meshgrid without
``indexing``, ``backward(create_graph=True)``, the deprecated ``torch.lu``, ...), and
minigrad gives them once as well. A test that compares such a warning in-process then
depends on which test ran before it in the same xdist worker: the one time may be spent.

``warn_always()`` makes both libraries give them every time inside the block (which
leaves each library's one time unspent, as PyTorch's ``set_warn_always`` does), and
restores each library's previous setting on the way out.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import torch

import minigrad


@contextmanager
def warn_always() -> Iterator[None]:
    """``set_warn_always(True)`` on torch and minigrad for the block; each library's
    previous setting back afterwards."""
    was = torch.is_warn_always_enabled(), minigrad.is_warn_always_enabled()
    torch.set_warn_always(True)
    minigrad.set_warn_always(True)
    try:
        yield
    finally:
        torch.set_warn_always(was[0])
        minigrad.set_warn_always(was[1])
