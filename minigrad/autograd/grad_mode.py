"""Grad mode: whether operations are recorded in the graph.

``no_grad``, ``enable_grad`` and ``set_grad_enabled`` save the previous mode
on entry and restore it on exit, so they nest; each also works as a
decorator. Results computed while grad mode is off are leaves with
``requires_grad=False``.
"""

from __future__ import annotations

import functools
import weakref

__all__ = ["is_grad_enabled", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_inference_mode_enabled", "is_inference", "mark_inference",
           "forget_inference"]

_enabled = True
# Inference mode (``torch.inference_mode``): grad mode off, and every tensor made
# (not a view of a normal tensor) is an inference tensor, remembered here by id with a
# weak reference that removes it when the tensor dies (a WeakSet would compare tensors
# with ==, which is elementwise).
# Outside the mode such a tensor may not be saved for backward, changed in place or
# made to require grad (errors.INFERENCE_*).
_inference = False
inference_tensors: dict = {}
# True while a built-in backward formula runs on Tensors (create_graph=True):
# PyTorch's formulas are C++, where ``grad * 2`` multiplies by a Scalar and is
# recorded as MulBackward1 (``x * 2`` in Python records MulBackward0).
_in_formula = False


def is_grad_enabled() -> bool:
    """True when new operations are being recorded for backward."""
    return _enabled


def _set_enabled(mode: bool) -> None:
    global _enabled
    _enabled = mode


class _GradModeContext:
    """Base: a context manager that sets grad mode and restores the old one."""

    _mode: bool

    def __enter__(self) -> None:
        self._previous = _enabled
        _set_enabled(self._mode)

    def __exit__(self, *exc_info) -> None:
        _set_enabled(self._previous)

    def __call__(self, func):
        """Use as a decorator: run ``func`` in this grad mode on every call."""
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            previous = _enabled
            _set_enabled(mode)
            try:
                return func(*args, **kwargs)
            finally:
                _set_enabled(previous)
        return wrapper


class no_grad(_GradModeContext):
    """Disable recording: ``with no_grad(): w -= lr * w.grad`` (or ``@no_grad()``)."""

    _mode = False


class enable_grad(_GradModeContext):
    """Re-enable recording inside a ``no_grad`` block."""

    _mode = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode to ``mode``. Like torch's, it takes effect at once (so a
    bare ``set_grad_enabled(False)`` call works) and, used with ``with``,
    restores the previous mode on exit."""

    def __init__(self, mode: bool) -> None:
        self._previous = _enabled
        self._mode = bool(mode)
        _set_enabled(self._mode)

    def __enter__(self) -> None:
        pass  # already set by __init__; __exit__ restores

    def __call__(self, func):
        _set_enabled(self._previous)  # as a decorator it must not stay switched
        return super().__call__(func)


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return _inference


def is_inference(tensor) -> bool:
    """True for a tensor made in inference mode (``Tensor.is_inference()``)."""
    if not inference_tensors:
        return False
    ref = inference_tensors.get(id(tensor))
    return ref is not None and ref() is tensor


def mark_inference(tensor, base=None) -> None:
    """Remember ``tensor`` as an inference tensor when it is one: made in inference
    mode (``base`` None), or a view of an inference tensor ``base`` (in the mode or
    not; a view of a normal tensor stays normal)."""
    if not (_inference if base is None else is_inference(base)):
        return
    key = id(tensor)

    def forget(ref):
        if inference_tensors.get(key) is ref:
            del inference_tensors[key]
    inference_tensors[key] = weakref.ref(tensor, forget)


class inference_mode:
    """``with torch.inference_mode():`` (or ``@torch.inference_mode()``, or bare
    ``@torch.inference_mode``): grad mode off, and the tensors made inside are
    inference tensors. ``mode=False`` leaves inference mode and turns grad mode on,
    as PyTorch's ``InferenceMode(false)``. Restores both on exit."""

    def __new__(cls, mode=True):
        if callable(mode):  # (bare @inference_mode: ``mode`` is the function)
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        global _inference
        self._previous = (_enabled, _inference)
        _set_enabled(not self.mode)
        _inference = bool(self.mode)

    def __exit__(self, *exc_info) -> None:
        global _inference
        enabled, _inference = self._previous
        _set_enabled(enabled)

    def __call__(self, func):
        """Use as a decorator: run ``func`` in this mode on every call."""
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return func(*args, **kwargs)
        return wrapper


def forget_inference(tensor) -> None:
    """``tensor`` is not an inference tensor (a wrapped number shared by every graph)."""
    inference_tensors.pop(id(tensor), None)
