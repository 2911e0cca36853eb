"""Grad mode: whether operations are recorded in the graph.

``no_grad``, ``enable_grad`` and ``set_grad_enabled`` save the previous mode
on entry and restore it on exit, so they nest; each also works as a
decorator. Results computed while grad mode is off are leaves with
``requires_grad=False``.
"""

from __future__ import annotations

import functools

__all__ = ["is_grad_enabled", "grad_mode_setting", "no_grad", "enable_grad", "set_grad_enabled"]

_enabled = True  # recording: grad mode on, outside inference mode
_asked = True  # grad mode as set (``torch.is_grad_enabled()``)
_inference = False  # inside inference_mode(): nothing is recorded, whatever grad mode says
# True while a built-in backward formula runs on Tensors (create_graph=True):
# PyTorch's formulas are C++, where ``grad * 2`` multiplies by a Scalar and is
# recorded as MulBackward1 (``x * 2`` in Python records MulBackward0).
_in_formula = False
# True while torch.vmap's loop (func/vmap.py) has examples still to run: it calls the
# function once per example where PyTorch calls it once on the batch, so a backward inside
# (``vmap(lambda v: autograd.grad(y, x, v))(I)``, vmap's docstring) keeps the graph for the
# examples to come, as PyTorch's one batched backward frees it once, after the last.
graphs_kept_for_vmap = False


def is_grad_enabled() -> bool:
    """True when new operations are being recorded for backward."""
    return _enabled


def grad_mode_setting() -> bool:
    """Grad mode as set (the public ``torch.is_grad_enabled()``): True inside
    ``inference_mode()`` + ``enable_grad()`` too, where nothing is recorded."""
    return _asked


def _set_enabled(mode: bool) -> None:
    global _enabled, _asked
    _asked = mode
    _enabled = mode and not _inference


def _set_inference(mode: bool) -> None:
    global _inference
    _inference = mode


class _GradModeContext:
    """Base: a context manager that sets grad mode and restores the old one."""

    _mode: bool

    def __enter__(self) -> None:
        self._previous = _asked
        _set_enabled(self._mode)

    def __exit__(self, *exc_info) -> None:
        _set_enabled(self._previous)

    def __call__(self, func):
        """Use as a decorator: run ``func`` in this grad mode on every call."""
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            previous = _asked
            _set_enabled(mode)
            try:
                return func(*args, **kwargs)
            finally:
                _set_enabled(previous)
        return wrapper


class _NoParameters(_GradModeContext):
    """A mode that takes no argument, so it may decorate bare: ``@no_grad`` as well as
    ``@no_grad()`` (torch's _NoParamDecoratorContextManager)."""

    def __new__(cls, function=None):
        if function is None:
            return super().__new__(cls)
        return cls()(function)


class no_grad(_NoParameters):
    """Disable recording: ``with no_grad(): w -= lr * w.grad`` (or ``@no_grad()``)."""

    _mode = False


class enable_grad(_NoParameters):
    """Re-enable recording inside a ``no_grad`` block."""

    _mode = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode to ``mode``. Like torch's, it takes effect at once (so a
    bare ``set_grad_enabled(False)`` call works) and, used with ``with``,
    restores the previous mode on exit."""

    def __init__(self, mode: bool) -> None:
        self._previous = _asked
        self._mode = bool(mode)
        _set_enabled(self._mode)

    def __enter__(self) -> None:
        pass  # already set by __init__; __exit__ restores

    def __call__(self, func):
        _set_enabled(self._previous)  # as a decorator it must not stay switched
        return super().__call__(func)
