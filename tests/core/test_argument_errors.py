"""A call that none of an overloaded function's signatures takes: PyTorch's TypeError
("sum() received an invalid combination of arguments - got (Tensor, float), but expected
one of: ..." or its error for one argument), compared with PyTorch 2.13 at test time.
Calls that are fine (``dim=None`` with ``out=``, a list of dims) are compared too."""

from __future__ import annotations

import pytest
import torch

import minigrad


def _a(lib):
    return lib.ones(2, 2)


CALLS = {
    "sum: out= without dim": lambda L: L.sum(_a(L), out=_a(L)),
    "sum: dim=None with out=": lambda L: L.sum(_a(L), None, out=L.empty(0)),
    "sum: a float dim by keyword": lambda L: L.sum(_a(L), dim=0.5),
    "sum: a str dim with keepdim": lambda L: L.sum(_a(L), "x", True),
    "sum: a float in the dims": lambda L: L.sum(_a(L), (0, 1.5)),
    "sum: a float in a dim list": lambda L: L.sum(_a(L), dim=[1, 0.5]),
    "sum: a list of dims": lambda L: L.sum(_a(L), [0]),
    "sum: dims and keepdim": lambda L: L.sum(_a(L), (0, 1), True),
    "sum: dtype a str with dim": lambda L: L.sum(_a(L), 0, dtype="x"),
    "mean: a float dim": lambda L: L.mean(_a(L), 1.5),
    "mean: a float dim with keepdim": lambda L: L.mean(_a(L), 1.5, True),
    "mean: a str dim": lambda L: L.mean(_a(L), "x"),
    "mean: dtype a str": lambda L: L.mean(_a(L), dtype="x"),
    "max: a str dim": lambda L: L.max(_a(L), "x"),
    "max: a float dim": lambda L: L.max(_a(L), 1.5),
    "max: one tensor out= with dim": lambda L: L.max(_a(L), 0, out=_a(L)),
    "max: other tensor": lambda L: L.max(_a(L), _a(L) * 2),
    "add: other a str": lambda L: L.add(_a(L), "x"),
    "add: other a str by keyword": lambda L: L.add(_a(L), other="x"),
    "add: other None": lambda L: L.add(_a(L), None),
    "add: other a list": lambda L: L.add(_a(L), [1.0, 2.0]),
    "add: input a str": lambda L: L.add("x", _a(L)),
    "add: alpha a str": lambda L: L.add(_a(L), _a(L), alpha="x"),
    "add: alpha None": lambda L: L.add(_a(L), 2, alpha=None),
    "add: a number, alpha": lambda L: L.add(_a(L), 2, alpha=3),
    "sub: other a str": lambda L: L.sub(_a(L), "x"),
    "mul: other a str": lambda L: L.mul(_a(L), "x"),
    "div: other a dict": lambda L: L.div(_a(L), {}),
}


def _outcome(call, lib):
    try:
        return ("result", repr(call(lib)))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return ("error", type(error).__name__, str(error))


@pytest.mark.parametrize("name", list(CALLS))
def test_argument_errors_are_torchs(name):
    assert _outcome(CALLS[name], minigrad) == _outcome(CALLS[name], torch)


def test_the_refused_calls_are_refused():
    refused = [name for name in CALLS if _outcome(CALLS[name], torch)[0] == "error"]
    assert len(refused) >= 20
