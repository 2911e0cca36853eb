"""Printing tensors exactly as PyTorch does (the rules of torch/_tensor_str.py).

* One format for the whole tensor, chosen from its nonzero finite values:
  whole numbers print as ``27.``; otherwise ``precision`` (4) decimals; and
  scientific notation (``5.1200e+01``) when max/min > 1000, max > 1e8 or
  min < 1e-4. Every element is padded to the widest one.
* Past ``threshold`` (1000) elements only ``edgeitems`` (3) are shown at each
  end of every dimension, with ``...`` between.
* Rows wrap at ``linewidth`` (80) characters.
* Suffixes: ``dtype=`` when not float32/int64/bool, then ``grad_fn=<...>``
  or ``requires_grad=True``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import dtypes

__all__ = ["set_printoptions", "tensor_repr", "PRINT_OPTS"]


@dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """Change how tensors print (same arguments as ``torch.set_printoptions``).

    ``profile`` is ``"default"``, ``"short"`` or ``"full"``.
    """
    if profile is not None:
        presets = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80),
                   "full": (4, math.inf, 3, 80)}
        if profile not in presets:
            raise ValueError(f"profile must be one of {sorted(presets)}, got {profile!r}")
        (PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems,
         PRINT_OPTS.linewidth) = presets[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """Chooses one format (int, fixed or scientific) and width for all elements."""

    def __init__(self, values: np.ndarray, floating: bool):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        precision = PRINT_OPTS.precision
        flat = values.reshape(-1)
        if not floating:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(str(value)))
        else:
            finite = flat[np.isfinite(flat) & (flat != 0)]
            if finite.size:
                magnitudes = np.abs(finite).astype(np.float64)
                low, high = magnitudes.min(), magnitudes.max()
                as_python = finite.astype(np.float64).tolist()
                self.int_mode = bool(np.all(finite == np.ceil(finite)))
                if self.int_mode:
                    if high / low > 1000.0 or high > 1.0e8:
                        self.sci_mode = True
                        width = max(len(f"{v:.{precision}e}") for v in as_python)
                    else:
                        width = max(len(f"{v:.0f}") + 1 for v in as_python)
                else:
                    if high / low > 1000.0 or high > 1.0e8 or low < 1.0e-4:
                        self.sci_mode = True
                        width = max(len(f"{v:.{precision}e}") for v in as_python)
                    else:
                        width = max(len(f"{v:.{precision}f}") for v in as_python)
                self.max_width = max(self.max_width, width)
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    def format(self, value) -> str:
        precision = PRINT_OPTS.precision
        if self.floating:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{precision}f}"
        else:
            text = f"{value}"
        return (self.max_width - len(text)) * " " + text


def _summarized(data: np.ndarray) -> np.ndarray:
    """Only the edge items of each dimension (what a summarised print shows)."""
    edge = PRINT_OPTS.edgeitems
    if data.ndim == 0:
        return data
    if data.shape[0] > 2 * edge:
        data = np.concatenate([data[:edge], data[-edge:]])
    if data.ndim == 1:
        return data
    return np.stack([_summarized(row) for row in data]) if len(data) else data


def _vector_str(data, indent, summarize, formatter) -> str:
    element_length = formatter.max_width + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    edge = PRINT_OPTS.edgeitems
    if summarize and data.shape[0] > 2 * edge:
        items = ([formatter.format(v) for v in data[:edge].tolist()] + [" ..."]
                 + [formatter.format(v) for v in data[-edge:].tolist()])
    else:
        items = [formatter.format(v) for v in data.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(data, indent, summarize, formatter) -> str:
    if data.ndim == 0:
        return formatter.format(data.item())
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, formatter)
    edge = PRINT_OPTS.edgeitems
    if summarize and data.shape[0] > 2 * edge:
        slices = ([_tensor_str(data[i], indent + 1, summarize, formatter) for i in range(edge)]
                  + ["..."]
                  + [_tensor_str(data[i], indent + 1, summarize, formatter)
                     for i in range(len(data) - edge, len(data))])
    else:
        slices = [_tensor_str(row, indent + 1, summarize, formatter) for row in data]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text: str, suffixes: list, indent: int) -> str:
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def format_data(data: np.ndarray, dtype: dtypes.dtype, indent: int) -> str:
    """The bracketed values, e.g. ``[[1., 1.],\\n        [1., 1.]]``."""
    if data.size == 0:
        return "[]"
    summarize = data.size > PRINT_OPTS.threshold
    if dtype is dtypes.float16:
        data = data.astype(np.float32)
    formatter = _Formatter(_summarized(data) if summarize else data,
                           dtype.is_floating_point)
    return _tensor_str(data, indent, summarize, formatter)


def tensor_repr(tensor) -> str:
    prefix = "tensor("
    indent = len(prefix)
    data, dtype = tensor._data, tensor.dtype
    suffixes = []
    default = dtype in (dtypes.float32, dtypes.int64, dtypes.bool)
    if data.size == 0:
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype is not dtypes.float32:
            suffixes.append(f"dtype={dtype!r}")
        body = "[]"
    else:
        if not default:
            suffixes.append(f"dtype={dtype!r}")
        body = format_data(data, dtype, indent)
    if tensor.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(tensor.grad_fn).__name__}>")
    elif tensor.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
