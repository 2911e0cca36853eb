"""Whether ``torch.jit.trace`` is running a module or function: ``jit`` (the top floor)
sets it around its traced runs, and a tensor turned into a Python value meanwhile
(``bool(x)``, ``x.item()``, ``float(x)``, ``int(x)``, ``x.tolist()``, ``x.numpy()``)
gives PyTorch's TracerWarning, as PyTorch's tracer does: that value is a constant of the
trace."""

from __future__ import annotations

import warnings
from contextlib import contextmanager

active = False


class TracerWarning(Warning):
    """PyTorch's warning about a trace that may not generalise (``torch.jit.TracerWarning``)."""


_CONVERSION = ("Converting a tensor to a {} might cause the trace to be incorrect. We can't "
               "record the data flow of Python values, so this value will be treated as a "
               "constant in the future. This means that the trace might not generalize to "
               "other inputs!")


def warn_conversion(what: str) -> None:
    """PyTorch's TracerWarning for a tensor turned into ``what`` ("Python boolean", ...),
    pointing at the line of the traced code that did it."""
    warnings.warn(_CONVERSION.format(what), TracerWarning, stacklevel=3)


@contextmanager
def traced_run():
    """One run of the traced code (``active`` inside)."""
    global active
    before, active = active, True
    try:
        yield
    finally:
        active = before


@contextmanager
def paused():
    """A scripted or traced module's own run inside a trace: compiled code in PyTorch,
    which turns no tensor into a Python value, so nothing warns."""
    global active
    before, active = active, False
    try:
        yield
    finally:
        active = before
