"""How PyTorch shows the ints a node saved.

A node's ``_saved_dim`` (``_saved_index``, ``_saved_start``, ...) is the argument as
the op was given it, before it was wrapped: ``x.sum(-1).grad_fn._saved_dim`` is
``(18446744073709551615,)``, because C++ keeps it as an int64 and Python reads it back
as an unsigned 64-bit number. Formulas use the wrapped dim, saved under a name
starting with ``_`` (``_saved__dim``), which ``dir(node)`` does not list.
"""

from __future__ import annotations

__all__ = ["as_shown"]


def as_shown(value):
    """An int, a tuple of ints or None as torch's node shows it saved (a negative int
    as the unsigned 64-bit number C++ stores)."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return tuple(int(v) % 2**64 for v in value)
    return int(value) % 2**64
