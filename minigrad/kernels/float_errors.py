"""NumPy's floating-point warnings, silenced while minigrad computes.

PyTorch computes ``inf`` and ``nan`` silently; NumPy would warn ("overflow
encountered in multiply", "invalid value encountered in log", ...). So
minigrad turns NumPy's floating-point error reporting off once per
top-level call: around each operation's forward (``Node.apply``) and once
around a whole backward pass, never for the user's own NumPy code. An op
whose NumPy calls report no error for any input (``np.tanh``, a sign flip)
says ``float_errors = False`` on its node class and runs without it.

This is ``np.errstate(all="ignore")``, set through the context variable that
``np.errstate`` itself uses (entering ``np.errstate`` costs about as much as
a small operation; setting the variable costs a tenth of that).
"""

from __future__ import annotations

import contextlib
import functools

import numpy as np

__all__ = ["silence", "restore", "silenced"]

try:  # NumPy >= 2: errstate is a context variable holding an "extobj"
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

    _IGNORE = _make_extobj(all="ignore")

    # silence(): turn NumPy's floating-point warnings off; returns what restore(token)
    # needs to put back the state it replaced. (The context variable's own methods,
    # bound: no Python frame per call, as this runs twice per operation.)
    silence = functools.partial(_extobj_contextvar.set, _IGNORE)
    restore = _extobj_contextvar.reset

except ImportError:  # another NumPy: the public, slower way
    def silence():
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def restore(token) -> None:
        token.__exit__(None, None, None)


@contextlib.contextmanager
def silenced():
    """``silence()`` and ``restore()`` around a block (where a block reads better)."""
    token = silence()
    try:
        yield
    finally:
        restore(token)
