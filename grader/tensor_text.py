"""A tensor's text as PyTorch prints it, for ``forward_only``'s tensors.

Code answers graded without autograd run on ``forward_only`` tensors, in the sandbox (where
neither minigrad nor PyTorch exists) and in a student's ``check()``. A student who prints
one there compares it with what PyTorch printed in the lesson, so it must read the same:
``tensor([0.3333])``, never NumPy's ``[0.33333334]``. These are the rules of PyTorch's
``torch/_tensor_str.py`` at its default print options (minigrad's ``_printing.py`` follows
the same rules with all of PyTorch's options; this module cannot import it):

* one format for all the elements shown, chosen from the nonzero finite ones: whole
  numbers as ``27.``, else 4 decimals, and ``1.0000e-05`` when the largest over the
  smallest passes 1000, the largest passes 1e8 or (not whole) the smallest is under 1e-4;
  every element padded to the widest;
* past 1000 elements, 3 at each end of every dimension, ``...`` between;
* rows wrapped at 80 characters; ``dtype=`` (and for an empty tensor ``size=``) after the
  values, on a new line if it would pass 80.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["tensor_text"]

PRECISION, THRESHOLD, EDGE, LINEWIDTH = 4, 1000, 3, 80
PREFIX = "tensor("


class _Format:
    """The format and the width of every element of one tensor."""

    def __init__(self, shown: np.ndarray) -> None:
        self.floating = shown.dtype.kind == "f"
        self.whole, self.scientific, self.width = True, False, 1
        flat = shown.reshape(-1)
        if not self.floating:  # integers and bools as Python writes them
            self.width = max([1] + [len(f"{v}") for v in flat.tolist()])
            return
        values = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if not values.size:
            return
        sizes = np.abs(values)
        smallest, largest = float(sizes.min()), float(sizes.max())
        self.whole = bool(np.all(values == np.ceil(values)))
        self.scientific = (largest / smallest > 1000.0 or largest > 1.0e8
                           or (not self.whole and smallest < 1.0e-4))
        self.width = max(len(self._text(v)) for v in values.tolist())

    def _text(self, value: float) -> str:
        if not self.floating:
            return f"{value}"
        if self.scientific:
            return f"{value:.{PRECISION}e}"
        if self.whole:  # the dot says it is a float (not after inf or nan)
            return f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        return f"{value:.{PRECISION}f}"

    def __call__(self, value) -> str:
        return self._text(value).rjust(self.width)


def _shown(data: np.ndarray) -> np.ndarray:
    """The elements a summarised text shows (its format is chosen from them alone)."""
    if data.ndim == 0 or data.shape[0] <= 2 * EDGE:
        return data if data.ndim <= 1 else np.stack([_shown(row) for row in data])
    ends = list(range(EDGE)) + list(range(len(data) - EDGE, len(data)))
    return data[ends] if data.ndim == 1 else np.stack([_shown(data[i]) for i in ends])


def _values(data: np.ndarray, indent: int, summarize: bool, form: _Format) -> str:
    if data.ndim == 0:
        return form(data.item())
    cut = summarize and data.shape[0] > 2 * EDGE
    if data.ndim == 1:
        items = ([form(v) for v in data[:EDGE].tolist()] + [" ..."]
                 + [form(v) for v in data[-EDGE:].tolist()]) if cut else \
            [form(v) for v in data.tolist()]
        per_line = max(1, (LINEWIDTH - indent) // (form.width + 2))
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = ([_values(data[i], indent + 1, summarize, form) for i in range(EDGE)] + ["..."]
            + [_values(data[i], indent + 1, summarize, form)
               for i in range(len(data) - EDGE, len(data))]) if cut else \
        [_values(row, indent + 1, summarize, form) for row in data]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def tensor_text(data: np.ndarray, dtype_name: str) -> str:
    """``repr`` of a tensor holding ``data``, of the dtype PyTorch calls ``torch.<dtype_name>``.

    >>> tensor_text(np.array([1 / 3, 2.0], np.float32), "float32")
    'tensor([0.3333, 2.0000])'
    >>> tensor_text(np.zeros((2, 0)), "float64")
    'tensor([], size=(2, 0), dtype=torch.float64)'
    """
    suffixes = []
    if data.size == 0:
        if data.ndim != 1:  # (the shape cannot be read from "[]")
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype_name != "float32":
            suffixes.append(f"dtype=torch.{dtype_name}")
        text = PREFIX + "[]"
    else:
        if dtype_name not in ("float32", "int64", "bool"):
            suffixes.append(f"dtype=torch.{dtype_name}")
        summarize = data.size > THRESHOLD
        form = _Format(_shown(data) if summarize else data)
        text = PREFIX + _values(data, len(PREFIX), summarize, form)
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > LINEWIDTH:
            text += ",\n" + " " * len(PREFIX) + suffix
            last_line = len(PREFIX) + len(suffix)
        else:
            text += ", " + suffix
            last_line += len(suffix) + 2
    return text + ")"
