"""``torch.testing.assert_close``: are two tensors (or numbers, or sequences and mappings
of them) close, with PyTorch's default tolerances for each dtype and its failure
messages ("Tensor-likes are not close! ... Greatest absolute difference: ... at index
(1,) (up to 1e-05 allowed)"). Written on the public API, as a user would write it."""

from __future__ import annotations

import collections.abc
import math
import numbers

import minigrad

__all__ = ["assert_close"]

# dtype -> (rtol, atol), PyTorch's defaults; integers and bools compare exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def assert_close(actual, expected, *, allow_subclasses: bool = True, rtol=None, atol=None,
                 equal_nan: bool = False, check_device: bool = True, check_dtype: bool = True,
                 check_layout: bool = True, check_stride: bool = False, msg=None) -> None:
    _compare(actual, expected, [], dict(rtol=rtol, atol=atol, equal_nan=equal_nan,
                                        check_dtype=check_dtype, msg=msg))


def _compare(actual, expected, path: list, options: dict) -> None:
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            raise AssertionError(f"The keys of the mappings do not match:\n{set(actual)} != "
                                 f"{set(expected)}")
        for key in expected:
            _compare(actual[key], expected[key], path + [key], options)
        return
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise AssertionError(f"The length of the sequences mismatch: {len(actual)} != "
                                 f"{len(expected)}")
        for index, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, path + [index], options)
        return
    both_tensors = isinstance(actual, minigrad.Tensor) and isinstance(expected, minigrad.Tensor)
    both_numbers = isinstance(actual, numbers.Number) and isinstance(expected, numbers.Number)
    if not (both_tensors or both_numbers):
        raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} "
                        f"and {type(expected)}.")
    if (options["rtol"] is None) != (options["atol"] is None):
        missing = "atol" if options["atol"] is None else "rtol"
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {missing}." + _where(path))
    message = _tensors(actual, expected, options) if both_tensors else \
        _numbers(actual, expected, options)
    if message is None:
        return
    custom = options["msg"]
    message = custom if isinstance(custom, str) else custom(message) if custom else message
    raise AssertionError(message if isinstance(custom, str) else message + _where(path))


def _where(path: list) -> str:
    """PyTorch's note naming the item of a sequence or mapping that failed."""
    return f"\n\nThe failure occurred for item {''.join(f'[{p!r}]' for p in path)}" if path \
        else ""


def _is_sequence(value) -> bool:
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


def _tolerances(dtypes, options) -> tuple:
    """The given tolerances, else the larger defaults of the two dtypes."""
    if options["rtol"] is not None:
        return options["rtol"], options["atol"]
    pairs = [_TOLERANCES.get(str(dtype).split(".")[-1], (0.0, 0.0)) for dtype in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _tensors(actual, expected, options):
    """None if close, else PyTorch's message."""
    for name in ("shape", "dtype") if options["check_dtype"] else ("shape",):
        mine, theirs = getattr(actual, name), getattr(expected, name)
        if mine != theirs:
            return f"The values for attribute '{name}' do not match: {mine} != {theirs}."
    actual, expected = actual.detach(), expected.detach()
    rtol, atol = _tolerances((actual.dtype, expected.dtype), options)
    if actual.dtype == expected.dtype == minigrad.bool:
        actual, expected = actual.long(), expected.long()
    if actual.dtype != expected.dtype:
        common = minigrad.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    if actual.dim() == 0:
        return _numbers(actual.item(), expected.item(), options, (rtol, atol))
    exact = not (actual.dtype.is_floating_point or rtol or atol)
    if exact:
        close = actual == expected
    else:
        close = (actual == expected) | ((actual - expected).abs() <= atol + rtol * expected.abs())
        if options["equal_nan"]:
            close = close | (actual.isnan() & expected.isnan())
    mismatches, total = int((~close).sum()), actual.numel()
    if mismatches == 0:
        return None
    abs_diff = (actual - expected).abs()
    rel_diff = abs_diff / expected.abs()
    shape = tuple(actual.shape)
    lines = [f"Tensor-likes are not {'equal' if exact else 'close'}!", "",
             f"Mismatched elements: {mismatches} / {total} ({mismatches / total:.1%})"]
    for what, diff, allowed in (("absolute", abs_diff, atol), ("relative", rel_diff, rtol)):
        value, flat = diff.flatten().max(0)
        index = _unravel(int(flat), shape)
        line = f"Greatest {what} difference: {value.item()} at index {index}"
        lines.append(line if exact else f"{line} (up to {allowed} allowed)")
    return "\n".join(lines)


def _unravel(flat: int, shape: tuple) -> tuple:
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _numbers(actual, expected, options, tolerances=None):
    """Two numbers (or 0-dim tensors' values): None if close, else PyTorch's message.
    Python floats are compared as float64, ints exactly."""
    if tolerances is None:
        kinds = [minigrad.float64 if isinstance(v, float) else minigrad.int64
                 for v in (actual, expected)]
        tolerances = _tolerances(kinds, options)
    rtol, atol = tolerances
    both_nan = options["equal_nan"] and actual != actual and expected != expected
    difference = abs(actual - expected)
    if both_nan or actual == expected or difference <= atol + rtol * abs(expected):
        return None
    relative = difference / abs(expected) if expected else math.inf
    exact = not (rtol or atol)
    return (f"Scalars are not {'equal' if exact else 'close'}!\n\nExpected {expected} but got "
            f"{actual}.\nAbsolute difference: {difference}"
            + ("" if exact else f" (up to {atol} allowed)")
            + f"\nRelative difference: {relative}" + ("" if exact else f" (up to {rtol} allowed)"))
