"""Inference mode (``torch.inference_mode``): grad mode off, and the tensors made
inside are *inference tensors*, which PyTorch keeps out of autograd for good.

Every tensor made in the mode (except a view of a normal tensor), and every view of an
inference tensor (in the mode or not), is remembered here, by id, with a weak reference
that forgets it when the tensor dies (a ``WeakSet`` would compare tensors with ``==``,
which is elementwise). Outside the mode, such a tensor may not be saved for backward
(``autograd/saved.py``), changed in place (``ops/inplace.py``) or made to require grad
(``Tensor.requires_grad_``): PyTorch's errors, ``errors.INFERENCE_*``.
"""

from __future__ import annotations

import functools
import weakref

from .. import errors
from . import grad_mode

__all__ = ["inference_mode", "is_inference_mode_enabled", "is_inference", "mark_inference",
           "forget_inference", "data_assigned", "is_versionless", "check_version"]

enabled = False
inference_tensors: dict = {}  # id(tensor) -> weak reference to it
# Of those, the ones with a version counter of their own (id -> weak reference):
# ``detach()`` and ``.data`` of an inference tensor, made outside the mode, which torch
# lets be changed in place.
versioned: dict = {}


# Inference tensors given a normal tensor's values (``t.data = t.data * 2``): PyTorch then
# reports them normal, but they have no version counter, so making a view of one, printing
# it or asking its ``_version`` raises its INFERENCE_VERSION (id -> weak reference).
versionless: dict = {}


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()``."""
    return enabled


def is_inference(tensor) -> bool:
    """True for a tensor made in inference mode (``Tensor.is_inference()``)."""
    if not inference_tensors:
        return False
    ref = inference_tensors.get(id(tensor))
    return ref is not None and ref() is tensor


def has_no_version(tensor) -> bool:
    """An inference tensor without a version counter: it may not be changed in place
    outside the mode, nor asked its ``_version`` (torch's errors)."""
    if not is_inference(tensor):
        return False
    ref = versioned.get(id(tensor))
    return ref is None or ref() is not tensor


def keep_version(tensor) -> None:
    """``tensor`` (``detach()`` or ``.data`` of an inference tensor, outside the mode)
    counts its versions, as torch's does."""
    _remember(versioned, tensor)


def mark_inference(tensor, base=None) -> None:
    """Remember ``tensor`` as an inference tensor when it is one: made in inference
    mode (``base`` None), or a view of an inference tensor ``base`` (in the mode or
    not; a view of a normal tensor stays normal)."""
    if not (enabled if base is None else is_inference(base)):
        return
    _remember(inference_tensors, tensor)


def _remember(table: dict, tensor) -> None:
    key = id(tensor)

    def forget(ref):
        if table.get(key) is ref:
            del table[key]
    table[key] = weakref.ref(tensor, forget)


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
        global enabled
        self._previous = (grad_mode._asked, enabled)
        enabled = bool(self.mode)
        grad_mode._set_inference(enabled)
        grad_mode._set_enabled(not self.mode)

    def __exit__(self, *exc_info) -> None:
        global enabled
        grad_enabled, enabled = self._previous
        grad_mode._set_inference(enabled)
        grad_mode._set_enabled(grad_enabled)

    def __call__(self, func):
        """Use as a decorator: run ``func`` in this mode on every call."""
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return func(*args, **kwargs)
        return wrapper


def data_assigned(tensor, value) -> None:
    """``tensor.data = value``: as PyTorch's set_data, ``tensor`` takes ``value``'s kind,
    an inference tensor's, or a normal one's without a version counter (``versionless``)."""
    if not (inference_tensors or versionless):
        return
    if is_inference(value):
        if not (is_inference(tensor) or is_versionless(tensor)):
            keep_version(tensor)  # (torch's set_data keeps the tensor's own counter)
        _remember(inference_tensors, tensor)
        versionless.pop(id(tensor), None)
    elif is_inference(tensor):
        forget_inference(tensor)
        _remember(versionless, tensor)


def is_versionless(tensor) -> bool:
    ref = versionless.get(id(tensor))
    return ref is not None and ref() is tensor


def check_version(tensor) -> None:
    """PyTorch's error where a ``versionless`` tensor's version counter is read."""
    if is_versionless(tensor):
        raise RuntimeError(errors.INFERENCE_VERSION)


def forget_inference(tensor) -> None:
    """``tensor`` is not an inference tensor (a wrapped number shared by every graph)."""
    inference_tensors.pop(id(tensor), None)
    versioned.pop(id(tensor), None)
