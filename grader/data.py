"""The data a kernel hands back: plain JSON, and the objects the judges read.

``encode`` runs in the student's kernel and turns what the student made into
JSON (no pickles: nothing the grader loads can run code). ``decode`` runs in
the grader and turns it back into ``TensorData``, NumPy arrays, ``Missing``
and ``Raised``. ``check()`` sends its data through the same round trip, so a
student sees exactly what the grader would judge.

    >>> import minigrad as torch
    >>> t = decode(encode(torch.ones(2, requires_grad=True) * 3))
    >>> t.shape, t.values.tolist(), t.grad_fn, t.requires_grad
    ((2,), [3.0, 3.0], 'MulBackward0', True)
"""

from __future__ import annotations

import json
import math
import sys
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["encode", "decode", "roundtrip", "attempt", "read", "TensorData", "Missing",
           "Raised", "Other", "MAX_VALUES", "TOO_MANY"]

MAX_VALUES = 10_000  # per tensor or array; more is cut (no question needs that many)


@dataclass
class TensorData:
    """A minigrad tensor as the grader sees it."""

    shape: tuple
    dtype: str
    values: np.ndarray  # float64, in ``shape`` (empty when there were too many)
    requires_grad: bool
    is_leaf: bool
    grad_fn: str | None  # "MulBackward0", or None for a leaf
    grad: "TensorData | None"
    retains_grad: bool = False  # retain_grad() was called on it (a tensor made by an op)


@dataclass
class Missing:
    """A name the student has not defined (yet)."""

    name: str


@dataclass
class Raised:
    """The student's code raised ``kind: message``."""

    kind: str
    message: str
    where: str = ""  # the last line of the traceback in the student's code


@dataclass
class Other:
    """Something that is not a tensor, array or number (type and a short repr)."""

    kind: str
    text: str


# --- the kernel side ---------------------------------------------------------------------

def read(namespace: dict, name: str):
    """``namespace[name]``, or ``Missing(name)``."""
    return namespace[name] if name in namespace else Missing(name)


def attempt(function, *args):
    """``function(*args)``, or ``Raised`` when it raises (nothing escapes)."""
    if isinstance(function, Missing):
        return function
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function(*args)
    except BaseException as error:  # noqa: BLE001 (KeyboardInterrupt: the student's too)
        return Raised(_plain(type(error).__name__), _plain(str(error))[:500], _where(error))


def _where(error: BaseException) -> str:
    """The line of the student's own code that raised (library frames skipped)."""
    libraries = (sys.prefix, sys.base_prefix, str(Path(__file__).resolve().parents[1]))
    frames = [f for f in traceback.extract_tb(error.__traceback__)[1:]
              if not f.filename.startswith(libraries)]
    if not frames:
        return ""
    # (200 characters of it, as a cell's error says its line, runner._said: a line of a
    # 100,000-character cell was quoted whole in every finding of every call that raised)
    line = (frames[-1].line or "").strip()[:200]
    return f"line {frames[-1].lineno}" + (f": {line}" if line else "")


# NumPy's own number types (a scalar of any of its dtypes); never a class made from one
NUMPY_NUMBERS = frozenset(np.dtype(code).type for code in "bhilqpBHILQPefdg")


def encode(value, depth: int = 0):
    """JSON for ``value``: tensors (minigrad's, or ``forward_only``'s), arrays, numbers,
    strings, lists, dicts, each of exactly its own type; anything else, a subclass of
    one of them too, is described (``other``) and never read through its own methods.

    (A class made in a run, ``type("S", (str,), {"__getitem__": ...})``, passed
    ``isinstance(value, str)``, and its ``value[:2000]``, the student's own method, handed
    back a forged tensor's record at the extract step: "x has shape (3, 6), requires grad,
    is a leaf" of a string, with ``--lenient``, unflagged; red team 18.)"""
    import minigrad

    from . import forward_only

    kind = type(value)
    if depth > 6:
        return {"other": {"kind": _plain(kind.__name__), "text": "(nested too deep)"}}
    if value is None or kind is bool:
        return value
    if kind is str:
        return value[:2000]
    if kind in (int, float) or kind in NUMPY_NUMBERS:
        return _number(value)
    if _exact_tensor(value):
        return {"tensor": _tensor(value, depth)}
    if kind is np.ndarray and value.dtype.kind in "biuf":
        return {"array": {"shape": list(value.shape), "values": _values(value)}}
    if kind is Missing:
        return {"missing": _plain(value.name)}
    if kind is Raised:
        return {"raised": {"kind": _plain(value.kind), "message": _plain(value.message),
                           "where": _plain(value.where)}}
    if kind is Other:
        return {"other": {"kind": _plain(value.kind), "text": _plain(value.text)}}
    if kind in (list, tuple, getattr(minigrad, "Size", tuple), forward_only.Size):
        return [encode(item, depth + 1) for item in list(value)[:MAX_VALUES]]
    if kind is dict:
        return {"dict": {_plain(key) if type(key) is str else _short_repr(key):
                         encode(item, depth + 1)
                         for key, item in list(dict.items(value))[:100]}}
    return {"other": {"kind": _plain(kind.__name__), "text": _short_repr(value)}}


def _exact_tensor(value) -> bool:
    """Whether ``value`` is a tensor of minigrad's own classes (or ``forward_only``'s, which
    is ``minigrad`` itself in a run without autograd)."""
    import minigrad

    from . import forward_only

    parameter = getattr(getattr(minigrad, "nn", None), "Parameter", forward_only.Tensor)
    return type(value) in (minigrad.Tensor, parameter, forward_only.Tensor)


def _plain(text) -> str:
    """``text`` as a ``str`` of exactly that type (a subclass's own methods not called)."""
    return str.__str__(text) if isinstance(text, str) else "(not a text)"


def _tensor(t, depth: int) -> dict:
    with warnings.catch_warnings():  # reading .grad of a non-leaf warns; not the student's fault
        warnings.simplefilter("ignore")
        grad = getattr(t, "grad", None) if t.requires_grad else None
    data = t.detach().numpy()
    return {
        "shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
        "values": _values(data), "requires_grad": bool(t.requires_grad),
        "is_leaf": bool(t.is_leaf),
        "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None,
        "grad": _tensor(grad, depth + 1) if _exact_tensor(grad) and depth < 2 else None,
        "retains_grad": bool(getattr(t, "retains_grad", False)),
    }


def _values(array: np.ndarray) -> list:
    flat = np.asarray(array, dtype=np.float64).reshape(-1)
    return [] if flat.size > MAX_VALUES else [_number(v) for v in flat.tolist()]


def _number(x):
    x = x.item() if hasattr(x, "item") else x
    if isinstance(x, int):
        return int(x) if abs(x) < 2**53 else _number(float(x) if abs(x) < 2**1023
                                                      else math.inf if x > 0 else -math.inf)
    # (a float, as JSON writes it: np.longdouble's item() is a longdouble, which json could
    # not write, and the run died at the extract step instead of handing back a number)
    x = float(x)
    return x if math.isfinite(x) else str(x)  # "nan", "inf": JSON has no NaN


def _short_repr(value) -> str:
    try:
        return _plain(repr(value))[:200]
    except BaseException:  # noqa: BLE001 (a student's __repr__ may raise anything)
        return "(repr failed)"


# --- the grader side ---------------------------------------------------------------------

def decode(data):
    """The objects ``encode`` described (numbers stay numbers, lists stay lists). Whatever
    JSON it is given (the pipe of a run that student code shares), it raises nothing: what
    ``encode`` cannot have written is ``Other("unreadable data")``, which no judge accepts."""
    try:
        return _decoded(data)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, RecursionError):
        return Other("unreadable data", str(data)[:60])


class _TooMany(ValueError):
    """A tensor or array sent without its values (more than ``MAX_VALUES``)."""

    def __init__(self, shape) -> None:
        super().__init__(shape)
        self.shape = tuple(int(n) for n in shape)


TOO_MANY = "too many values"  # the kind of what such a tensor or array is read as


def _decoded(data):
    if isinstance(data, list):
        return [_decoded(item) for item in data]
    if not isinstance(data, dict) or len(data) != 1:
        return data
    (kind, body), = data.items()
    # A tensor or array of more than MAX_VALUES values comes without them: it is read as
    # such (``Other``), never as a tensor whose values are an empty array, which every
    # judge would have to know to refuse: x.values.sum() of a 101 x 101 x was 0, and
    # compare() found an empty y "right" against factor * x.values, so y = x * (factor +
    # 1) over such an x scored q2 of assignment 3 with plain allowed code.
    try:
        if kind == "tensor":
            return _tensor_data(body)
        if kind == "array":
            return _array(body["values"], body["shape"])
    except _TooMany as cut:
        shape = str(cut.shape) if len(str(cut.shape)) <= 60 else str(cut.shape)[:57] + "..."
        return Other(TOO_MANY, f"shape {shape}, more than {MAX_VALUES:,} values")
    if kind == "missing":
        return Missing(str(body))
    if kind == "raised":
        return Raised(str(body.get("kind")), str(body.get("message")), str(body.get("where", "")))
    if kind == "dict":
        return {k: _decoded(v) for k, v in body.items()}
    if kind == "other":
        return Other(str(body.get("kind")), str(body.get("text")))
    return data


def _tensor_data(body: dict) -> TensorData:
    shape = tuple(int(n) for n in body["shape"])
    return TensorData(shape, str(body["dtype"]), _array(body["values"], shape),
                      bool(body["requires_grad"]), bool(body["is_leaf"]), body["grad_fn"],
                      _tensor_data(body["grad"]) if body.get("grad") else None,
                      bool(body.get("retains_grad", False)))


def _array(values: list, shape) -> np.ndarray:
    floats = np.array([float(v) for v in values], dtype=np.float64)
    if floats.size != math.prod(int(n) for n in shape):
        raise _TooMany(shape)  # (a tensor's grad too: its tensor is then not read either)
    return floats.reshape(tuple(int(n) for n in shape))


def roundtrip(value):
    """``decode(encode(value))`` through JSON text, as the grader receives it."""
    return decode(json.loads(json.dumps(encode(value))))
