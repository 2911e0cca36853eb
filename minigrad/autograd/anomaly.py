"""Anomaly detection: which forward line made the node whose backward failed.

``torch.autograd.set_detect_anomaly(True)`` (or ``with detect_anomaly():``) does two
things, as in PyTorch:

- each node made while it is on keeps the Python stack of its forward call in
  ``node.metadata["traceback_"]``; when that node's backward step fails (its
  formula, a hook, a freed or changed saved tensor), a ``UserWarning`` shows the
  stack ("Error detected in MulBackward0. Traceback of forward call that caused
  the error: ...") before the error goes on. A node made by a backward with
  ``create_graph=True`` also keeps the node that made it (``metadata["parent_"]``),
  whose stack follows ("Previous calculation was induced by ...").
- with ``check_nan`` (the default), a node whose backward returns a NaN raises
  "Function 'PowBackward0' returned nan values in its 0th output."

Both walks call ``blame`` around a node's step and ``check_nan`` after its formula;
with the mode off that costs one flag read per backward (``fast.py``) or per node
(the reference walk).
"""

from __future__ import annotations

import os
import traceback
import warnings

import numpy as np

from .tensor_base import TensorBase
from .. import errors

__all__ = ["detect_anomaly", "set_detect_anomaly", "set_anomaly_enabled", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]

enabled = False  # anomaly mode (read by record.py's nodes and by the walks)
_check_nan = True
_current = None  # the node whose backward runs (the parent of nodes made meanwhile)

# PyTorch's warnings come from its C++ engine, and end with where they were raised.
_CAUSED = ("Error detected in {name}. Traceback of forward call that caused the error:\n"
           "{stack} (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/"
           "python_anomaly_mode.cpp:122.)")
_INDUCED = ("\n\nPrevious calculation was induced by {name}. Traceback of forward call that "
            "induced the previous calculation:\n{stack} (Triggered internally at "
            "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:129.)")
_NO_STACK = ("Error detected in {name}. No forward pass information available. Enable detect "
             "anomaly during forward pass for more information. (Triggered internally at "
             "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:100.)")
_RETURNED_NAN = "Function '{name}' returned nan values in its {index}th output."
_ENTERED = ("Anomaly Detection has been enabled. This mode will increase the runtime and "
            "should only be enabled for debugging.")


def set_anomaly_enabled(enabled_: bool, check_nan: bool = True) -> None:
    """``torch.set_anomaly_enabled``: switch anomaly mode (and its NaN check)."""
    global enabled, _check_nan
    for position, (name, value) in enumerate((("enabled", enabled_), ("check_nan", check_nan))):
        if type(value) is not bool:
            raise TypeError(f"set_anomaly_enabled(): argument '{name}' (position {position + 1}) "
                            f"must be bool, not {type(value).__name__}")
    enabled, _check_nan = enabled_, check_nan


def is_anomaly_enabled() -> bool:
    """Whether anomaly mode is on."""
    return enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly mode raises on a NaN gradient (True unless switched off)."""
    return _check_nan


class detect_anomaly:  # noqa: N801 (PyTorch's name)
    """``with detect_anomaly():`` turns anomaly mode on inside the block (and warns,
    once made, that it slows the program down), then restores the previous mode.

    >>> import minigrad as torch, warnings
    >>> with warnings.catch_warnings(record=True):
    ...     with torch.autograd.detect_anomaly():
    ...         torch.is_anomaly_enabled()
    True
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = enabled, _check_nan
        self.check_nan = check_nan
        errors.warn(_ENTERED, UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc_info) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:  # noqa: N801 (PyTorch's name)
    """Set anomaly mode on or off, at once: ``set_detect_anomaly(True, check_nan=False)``
    as a call, or ``with set_detect_anomaly(True):``, which restores the previous
    mode at the end of the block."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = enabled, _check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


# ---- what a node keeps (called by Node._link when the mode is on) ---------------

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # minigrad/
# Written on the public API, as the learner's code is: kept in the stack, as PyTorch
# keeps torch/nn/modules/linear.py's frame.
_PUBLIC = tuple(os.path.join(_HERE, name) + os.sep for name in ("nn", "optim", "utils"))


def record(node) -> None:
    """Keep the forward call's stack (up to the line outside minigrad's core that made
    ``node``) and the node whose backward is running, if any."""
    stack = traceback.extract_stack()
    while stack and _in_core(stack[-1].filename):
        stack.pop()
    metadata = node.metadata
    metadata["traceback_"] = traceback.format_list(stack)
    if _current is not None:
        metadata["parent_"] = _current


def _in_core(filename: str) -> bool:
    return filename.startswith(_HERE) and not filename.startswith(_PUBLIC)


# ---- during backward ----------------------------------------------------------

class blame:  # noqa: N801 (used as ``with anomaly.blame(node):``)
    """Around one node's step of a walk: with the mode on, the node is the parent of
    the nodes made meanwhile (``create_graph``), and an error warns with its stack."""

    __slots__ = ("node", "previous")

    def __init__(self, node) -> None:
        self.node = node

    def __enter__(self) -> None:
        global _current
        self.previous = _current
        if enabled:
            _current = self.node

    def __exit__(self, kind, error, trace) -> None:
        global _current
        _current = self.previous
        if error is not None and enabled:
            report(self.node)


def report(node) -> None:
    """The warning PyTorch gives before the error of a failed backward step: the
    stack of ``node``'s forward call, then of each node that made it."""
    metadata = node.metadata
    stack = metadata.get("traceback_")
    if stack is None:
        errors.warn(_NO_STACK.format(name=node.name()), UserWarning, stacklevel=2)
        return
    errors.warn(_CAUSED.format(name=node.name(), stack="".join(stack)), UserWarning,
                stacklevel=2)
    parent = metadata.get("parent_")
    while parent is not None:
        metadata = parent.metadata
        stack = metadata.get("traceback_")
        if stack is None:
            errors.warn(_NO_STACK.format(name=parent.name()), UserWarning, stacklevel=2)
        else:
            errors.warn(_INDUCED.format(name=parent.name(), stack="".join(stack)),
                        UserWarning, stacklevel=2)
        parent = metadata.get("parent_")


def check_nan(node, grads: tuple, needed) -> None:
    """With the mode and its NaN check on: an error naming the first gradient
    ``node`` returned (arrays or Tensors) that holds a NaN, along an edge where a
    gradient flows (to a node that runs: ``needed``)."""
    if not (enabled and _check_nan):
        return
    for index, ((next_node, _), grad) in enumerate(zip(node.next_functions, grads)):
        if next_node is None or (needed is not None and next_node not in needed):
            continue
        if isinstance(grad, TensorBase):
            grad = grad._data
        if grad is not None and np.isnan(grad).any():
            raise RuntimeError(_RETURNED_NAN.format(name=node.name(), index=index))
