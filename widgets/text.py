"""How numbers and tensors are written in the drawings and sentences."""

from __future__ import annotations

import re

import numpy as np

from .adapter import to_numpy
from .i18n import _

__all__ = ["number", "numbers_apart", "shape_text", "value_lines", "short", "has_values", "unbroken_numbers"]


def array_of(value) -> np.ndarray:
    """The NumPy data of a tensor (or anything array-like), without autograd."""
    return to_numpy(value)


def number(x) -> str:
    """4 significant digits: 0.25, 4.5, 1.333, 1e-08."""
    return f"{float(x):.4g}"


def numbers_apart(a, b) -> tuple[str, str]:
    """``a`` and ``b`` with 4 significant digits, or as many more as it takes to see that they
    differ: ``("6.00002", "6")``, not ``("6", "6")`` (audit 21: a verdict said "yours 6,
    autograd's 6" of 6.00002 and 6). Equal numbers keep 4 digits."""
    a, b = float(a), float(b)
    for digits in range(4, 18):  # 17 significant digits tell any two doubles apart
        shown = f"{a:.{digits}g}", f"{b:.{digits}g}"
        if a == b or shown[0] != shown[1]:
            return shown
    return shown


# a number in scientific notation: Chromium may break a line after its hyphen ("1e-" over "08")
_EXPONENT = re.compile(r"-?\d+(?:\.\d*)?e[+-]\d+")


def unbroken_numbers(markup: str) -> str:
    """HTML text (already escaped) with every number in scientific notation kept on one
    line: ``atol=1e-08`` is not cut into ``atol=1e-`` and ``08`` at the panel's edge."""
    return _EXPONENT.sub(lambda m: f'<span style="white-space:nowrap">{m.group()}</span>', markup)


def shape_text(tensor) -> str:
    """``[2, 2]`` (and the dtype when it is not float32)."""
    text = _("scalar") if tensor.dim() == 0 else str(list(tensor.shape))
    dtype = str(tensor.dtype).replace("torch.", "")
    return text if dtype == "float32" else f"{text} {dtype}"


def has_values(value) -> bool:
    """False for a tensor on the meta device (minigrad's or torch's): a shape and a
    dtype without values, drawn as such."""
    return getattr(value, "is_meta", False) is not True


def value_lines(value, max_values: int = 8) -> list[str]:
    """The values as printed lines; past ``max_values`` values, one line that
    summarises them (``16 values from -0.7 to 0.69``)."""
    if not has_values(value):
        return [_("a meta tensor (no values)")]
    data = array_of(value)
    if data.size > max_values:
        if data.dtype.kind not in "biuf" or not np.all(np.isfinite(data)):
            return [_("{count} values").format(count=data.size)]
        # the two ends written alike, as in one tensor ("-0.2150 to 0.2499", not "-0.215")
        low, high = _printed(np.array([data.min(), data.max()]))[1:-1].split(", ")
        return [_("{count} values from {low} to {high}").format(
            count=data.size, low=low.strip(), high=high.strip())]
    if data.ndim == 0:
        return [number(data)]
    return _printed(data).splitlines()


def _printed(data: np.ndarray) -> str:
    """Every value with the same number of decimals, as PyTorch prints them (NumPy's default
    pads a shorter one with spaces instead: "[-0.045 ,  0.0973]", "[0.25, 4.5 ]"), at most 4,
    and in scientific notation where PyTorch's is (the largest over the smallest past 1000, or
    the smallest under 1e-4: NumPy's rule without ``suppress_small``, which wrote 1e-05 as 0).
    In scientific notation every value has PyTorch's 4 decimals (``1.0000e-05``: the fewest
    digits the values need wrote ``1.e-05``, a dot that reads like a typo)."""
    text = np.array2string(data, precision=4, separator=", ", max_line_width=48,
                           floatmode="maxprec_equal")
    if data.dtype.kind == "f" and "e" in text:
        text = np.array2string(data, precision=4, separator=", ", max_line_width=48,
                               floatmode="fixed")
    return text


def short(value) -> str:
    """One short line: ``0.25``, ``0.25 each``, ``[1, 2]``, or a summary."""
    if not has_values(value):
        return _("a meta tensor (no values)")
    data = array_of(value)
    if data.size == 1:
        return number(data.reshape(()))
    flat = data.reshape(-1)
    if data.size and np.all(flat == flat[0]):
        return _("{value} each").format(value=number(flat[0]))
    if data.size <= 6:
        return _nested(data)
    return _("a {shape} tensor (largest magnitude {largest})").format(
        shape=list(data.shape), largest=number(np.abs(data).max()))


def _nested(data: np.ndarray) -> str:
    """``[[1, 0.5], [2, 3]]``: compact, like a Python list."""
    if data.ndim == 0:
        return number(data)
    return "[" + ", ".join(_nested(row) for row in data) + "]"
