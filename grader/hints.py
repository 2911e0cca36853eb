"""What a wrong gradient most likely got wrong, told from its numbers.

A hand-derived gradient that disagrees with autograd's usually has one of a few classic
mistakes, and the numbers show which: the shape of what the tensor was broadcast to (a
sum forgotten), the summed dimension dropped (``keepdim=True`` forgotten), a sum over the
other dimension, a transposed matrix product, the batch size's division forgotten or
done twice, a flipped sign. ``gradient_hint`` names the first that fits, or returns
``""``. The notebook widget ``BackwardCheck`` tells learners the same things; this is
the grader's own copy of the idea (the grader imports nothing of ``widgets``), for
``check()`` and the feedback of assignment 5.

    >>> gradient_hint("db2", (3,), np.ones((4, 3)), np.full(3, 4.0), {"n": 4})
    ' — db2 has the shape of what the tensor was broadcast to, (4, 3): the gradient of a broadcast is a sum (here over dim 0)'
"""

from __future__ import annotations

import itertools

import numpy as np

from .i18n import _

__all__ = ["gradient_hint"]


def _close(a, b) -> bool:
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-7, atol=1e-10))


def _shape(shape) -> str:
    return str(tuple(int(n) for n in shape))


def gradient_hint(name: str, shape: tuple, got: np.ndarray, expected: np.ndarray,
                  sizes: dict, uses: tuple = ()) -> str:
    """A hint for the answer ``name`` (the gradient of a tensor of ``shape``), ``got``
    where autograd gives ``expected``; ``sizes`` names the numbers (``{"n": 32, ...}``)
    that a factor may be (``n``: the batch, averaged over); ``uses``: where the tensor is
    used, when more than once. A factor is looked for among the sizes alone, in their order,
    then two at once (``1/(n·w)``). Starts with " — ", or is empty."""
    got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    shape = tuple(shape)
    if got.shape != shape:
        return _shape_hint(name, shape, got, expected)
    found = _value_hint(name, got, expected, sizes)
    if not found and len(uses) > 1:
        return _(" — the tensor is used {count} times ({uses}): the gradients from every use "
                 "add up").format(count=len(uses), uses=", ".join(uses))
    return found


def _shape_hint(name, shape, got, expected) -> str:
    said = {"name": name, "shape": _shape(shape), "yours": _shape(got.shape)}
    if got.size == expected.size and _close(got.reshape(shape), expected):
        if [n for n in got.shape if n != 1] == [n for n in shape if n != 1]:
            return _(" — the right numbers, but the summed dimension is gone: keep it with "
                     "sum(..., keepdim=True)")
        return _(" — the right numbers in the wrong shape {yours}: reshape them to "
                 "{shape}").format(**said)
    if got.ndim == 2 and got.shape == shape[::-1] and _close(got.T, expected):
        return _(" — transposed: yours is the gradient's transpose; swap the factors of the "
                 "matrix product (the shapes tell the order) or add .T").format(**said)
    lead = got.ndim - len(shape)
    if lead >= 0:
        try:
            stretched = np.broadcast_shapes(shape, got.shape) == got.shape
        except ValueError:
            stretched = False
        if stretched:
            dims = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                        if n == 1 and got.shape[lead + i] != 1]
            if dims:
                summed = got.sum(axis=tuple(dims), keepdims=True).reshape(shape)
                said["dims"] = ", ".join(map(str, dims))
                if _close(summed, expected):
                    return _(" — {name} has the shape of what the tensor was broadcast to, "
                             "{yours}: the gradient of a broadcast is a sum (here over dim "
                             "{dims})").format(**said)
                return _(" — {name} has the shape {yours} of what the tensor was broadcast "
                         "to: a gradient has the shape of its tensor, {shape}; sum over dim "
                         "{dims}").format(**said)
    if got.ndim == len(shape) and sorted(got.shape) != sorted(shape) and got.ndim >= 1:
        return _(" — a sum over the wrong dimension? {name} must have the shape of its "
                 "tensor, {shape}: sum over the dimension the tensor was broadcast along"
                 ).format(**said)
    return _(" — a gradient has the shape of its tensor, {shape}").format(**said)


def _value_hint(name, got, expected, sizes) -> str:
    if not np.all(np.isfinite(got)):
        return _(" — yours has inf or nan: a division by zero, or the log of 0?")
    if not expected.any():
        return ""
    if _close(-got, expected):
        return _(" — the sign is flipped (a minus sign lost, or one too many)")
    large = np.abs(expected) > 1e-12
    ratios = got[large] / expected[large]
    factor = float(np.median(ratios)) if ratios.size else 0.0
    if factor and abs(abs(factor) - 1) > 1e-6 and _close(got, factor * expected):
        named = {size: float(value) for size, value in sizes.items()
                 if float(value) not in (0.0, 1.0)}
        found = _one_size(factor, named) or _two_sizes(factor, named)
        return found or _(" — yours is {factor} times autograd's everywhere: a constant "
                          "factor is off").format(factor=f"{factor:.4g}")
    if got.ndim == 2 and got.shape[0] == got.shape[1] and _close(got.T, expected):
        return _(" — transposed: swap the factors of the matrix product")
    return ""


def _same(factor: float, value: float) -> bool:
    return abs(factor - value) < 1e-6 * abs(value)


def _one_size(factor: float, sizes: dict) -> str:
    """Yours is autograd's times one of ``sizes`` (a division forgotten), or divided by it."""
    for size, value in sizes.items():
        if size == "n" and _same(factor, value):
            return _(" — yours is n times autograd's: a division by n forgotten (the mean "
                     "over the batch divides every gradient by n)?")
        if _same(factor, value):
            return _(" — yours is {size} times autograd's: a division by {size} "
                     "missing, or a factor {size} too many?").format(size=size)
        if _same(factor, 1 / value):
            return _(" — yours is autograd's divided by {size}: a factor {size} "
                     "missing, or a division by {size} too many?").format(size=size)
    return ""


def _two_sizes(factor: float, sizes: dict) -> str:
    """Yours is autograd's times two of ``sizes`` at once: ``1/(n·w)`` when lesson 10's
    ``-1/n`` is copied for a summed loss weighted by w."""
    for (a, x), (b, y) in itertools.combinations(sizes.items(), 2):
        for text, value in ((f"{a}·{b}", x * y), (f"{a}/{b}", x / y), (f"{b}/{a}", y / x),
                            (f"1/({a}·{b})", 1 / (x * y))):
            if _same(factor, value):
                return _(" — yours is {expression} times autograd's: look at the factors "
                         "{first} and {second} (each one missing, or one too many?)").format(
                    expression=text, first=a, second=b)
    return ""
