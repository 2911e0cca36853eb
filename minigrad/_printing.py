"""Printing tensors exactly as PyTorch does (the rules of torch/_tensor_str.py).

* One format for the whole tensor, chosen from its nonzero finite values:
  whole numbers print as ``27.``; otherwise ``precision`` (4) decimals; and
  scientific notation (``5.1200e+01``) when max/min > 1000, max > 1e8 or
  min < 1e-4. Every element is padded to the widest one.
* Past ``threshold`` (1000) elements only ``edgeitems`` (3) are shown at each
  end of every dimension, with ``...`` between.
* Rows wrap at ``linewidth`` (80) characters.
* Suffixes: ``dtype=`` when not float32/int64/bool, then ``grad_fn=<...>``
  or ``requires_grad=True``, then a dual tensor's ``tangent=...``; a suffix
  that would pass ``linewidth`` goes on a new line.

The functions below follow torch's own (``_Formatter``, ``_vector_str``,
``_tensor_str``, ``_add_suffixes``) so the two can be read side by side.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math

import numpy as np

from . import dtypes
from .autograd import forward_ad
from .kernels.meta import MetaArray

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "tensor_repr",
           "PRINT_OPTS", "builtin_method"]


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()

_PROFILES = {  # (precision, threshold, edgeitems, linewidth)
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """Change how tensors print (same arguments as ``torch.set_printoptions``).

    ``profile`` is ``"default"``, ``"short"`` or ``"full"`` (like torch, any
    other name is ignored). ``sci_mode`` is reset on every call: ``None``
    lets each tensor choose.

    >>> import minigrad
    >>> minigrad.set_printoptions(precision=2)
    >>> minigrad.tensor([1.12345])
    tensor([1.12])
    >>> minigrad.set_printoptions(profile="default")
    """
    if profile in _PROFILES:
        (PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems,
         PRINT_OPTS.linewidth) = _PROFILES[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict:
    """The current options, as keyword arguments for ``set_printoptions``."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Change the print options inside a ``with`` block only."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Chooses one format (whole, fixed or scientific) and one width for all
    elements of a tensor."""

    def __init__(self, values: np.ndarray):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating:  # ints and bools print as Python prints them
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if nonzero_finite.size == 0:
            return  # only zeros, inf and nan: whole-number mode, whatever sci_mode says
        magnitudes = np.abs(nonzero_finite)
        # Python floats: high / low overflows to inf silently, as torch's doubles do.
        low, high = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = bool(high / low > 1000.0 or high > 1.0e8 or low < 1.0e-4)
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        precision = PRINT_OPTS.precision
        for value in nonzero_finite.tolist():
            if self.sci_mode:
                text = f"{value:.{precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}."  # the dot says "this is a float"
            else:
                text = f"{value:.{precision}f}"
            self.max_width = max(self.max_width, len(text))

    def format(self, value) -> str:
        """One element, right-aligned to the common width."""
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
    """Only the elements a summarised print shows (to choose the format from)."""
    edge = PRINT_OPTS.edgeitems
    if data.ndim == 0:
        return data
    if data.ndim == 1:
        # torch takes data[:edge] and data[-edge:]; with edge == 0 the latter is everything.
        if data.shape[0] > 2 * edge:
            return np.concatenate([data[:edge], data[-edge:]])
        return data
    if not edge:
        return data[(slice(0, 0),) * data.ndim]
    if data.shape[0] > 2 * edge:
        data = np.concatenate([data[:edge], data[-edge:]])
    return np.stack([_summarized(row) for row in data])


def _vector_str(data: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    element_length = formatter.max_width + 2  # with ", "
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and data.shape[0] > 2 * edge:
        items = ([formatter.format(v) for v in data[:edge].tolist()] + [" ..."]
                 + [formatter.format(v) for v in data[-edge:].tolist()])
    else:
        items = [formatter.format(v) for v in data.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(data: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Nested brackets; a d-dim tensor separates its rows by d-1 newlines."""
    if data.ndim == 0:
        return formatter.format(data.item())
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, formatter)
    edge = PRINT_OPTS.edgeitems
    if summarize and data.shape[0] > 2 * edge:
        slices = ([_tensor_str(data[i], indent + 1, summarize, formatter)
                   for i in range(edge)]
                  + ["..."]
                  + [_tensor_str(data[i], indent + 1, summarize, formatter)
                     for i in range(len(data) - edge, len(data))])
    else:
        slices = [_tensor_str(row, indent + 1, summarize, formatter) for row in data]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` pieces; one that would pass linewidth starts a new line."""
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


def format_data(data: np.ndarray, indent: int) -> str:
    """The bracketed values, e.g. ``[[1., 1.],\\n        [1., 1.]]``."""
    if data.size == 0:
        return "[]"
    summarize = data.size > PRINT_OPTS.threshold
    formatter = _Formatter(_summarized(data) if summarize else data)
    return _tensor_str(data, indent, summarize, formatter)


def tensor_repr(tensor) -> str:
    """``tensor([...], dtype=..., grad_fn=<...>)``, as ``repr`` of a torch tensor."""
    prefix = "tensor("
    indent = len(prefix)
    data, dtype = tensor._data, tensor.dtype
    suffixes = []
    if type(data) is MetaArray:  # (a shape and a dtype, no numbers)
        suffixes.append("device='meta'")
        suffixes.append(f"size={tuple(data.shape)}")
        if dtype is not dtypes.get_default_dtype():
            suffixes.append(f"dtype={dtype!r}")
        body = "..."
    elif data.size == 0:
        if data.ndim != 1:  # the shape cannot be read from "[]"
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype is not dtypes.get_default_dtype():  # nor the dtype
            suffixes.append(f"dtype={dtype!r}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype not in (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool):
            suffixes.append(f"dtype={dtype!r}")
        body = format_data(data, indent)
    try:
        node_name = type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else None
    except RuntimeError:  # (a view made under no_grad and changed since: as torch prints it)
        node_name = "Invalid"
    if node_name is not None:
        suffixes.append(f"grad_fn=<{node_name}>")
    elif tensor.requires_grad:
        suffixes.append("requires_grad=True")
    tangent = forward_ad.tangent_of(tensor) if forward_ad.active else None
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)


class builtin_method:
    """Decorator for a Tensor method whose bound form prints like PyTorch's
    (written in C): ``<built-in method all of Tensor object at 0x...>``.

    A learner who forgets the parentheses (``print(x.eq(y).all)``) then sees
    what PyTorch shows. Calling it works as usual; on the class
    (``Tensor.all``) it is the plain function.
    """

    def __init__(self, function):
        self.function = function
        self.__doc__ = function.__doc__
        self.__name__ = function.__name__

    def __get__(self, tensor, owner=None):
        if tensor is None:
            return self.function
        return _BoundBuiltinMethod(self.function, tensor)


class _BoundBuiltinMethod:
    __slots__ = ("__func__", "__self__")

    def __init__(self, function, tensor):
        self.__func__ = function
        self.__self__ = tensor

    def __call__(self, *args, **kwargs):
        return self.__func__(self.__self__, *args, **kwargs)

    @property
    def __name__(self) -> str:
        return self.__func__.__name__

    @property
    def __doc__(self):
        return self.__func__.__doc__

    def __repr__(self) -> str:
        owner = type(self.__self__).__name__
        return (f"<built-in method {self.__func__.__name__} of {owner} object "
                f"at {hex(id(self.__self__))}>")
