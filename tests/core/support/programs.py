"""Run a whole program on minigrad and on PyTorch and compare what a learner could see.

A program is written once, as ``program(lib, rec)`` where ``lib`` is ``minigrad`` or
``torch`` and ``rec`` a :class:`Recorder`. It makes its leaves with ``rec.leaf(...)`` and
shows what it wants compared with ``rec.show(label, value)``. The transcript of a run is
the list of what was shown, then the exception the program raised, if any (type and
message: a program may fail on purpose, and the failure must be the same), then the
distinct warnings it gave.

Each tensor shown is compared by its printed text (``repr``: values at four digits,
``grad_fn=<...>``, ``requires_grad``, dtype), its exact values (to ``rtol``/``atol``), its
sign bits where it is zero, its NaNs, and its graph: every node reachable through
``next_functions`` with its edges (leaves named by creation order).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import torch

import minigrad as mg

from torch_compare import graph_of
from warn_always import warn_always


class Recorder:
    """What one run of a program showed."""

    def __init__(self, lib) -> None:
        self.lib = lib
        self.leaves: list = []
        self.entries: list = []

    def leaf(self, values, requires_grad: bool = True, dtype=None):
        """A new leaf tensor (remembered, so graphs can name it)."""
        array = np.array(values, dtype=dtype or np.float32)
        tensor = self.lib.tensor(array, requires_grad=requires_grad)
        self.leaves.append(tensor)
        return tensor

    def show(self, label: str, value, graph: bool = True, zero_sign: bool = True) -> None:
        """Record ``value`` (a tensor, None, a number, or a tuple/list of them).
        ``zero_sign=False``: the sign of a zero is not compared (see below)."""
        self.entries.append((label, self._describe(value, graph, zero_sign)))

    def _describe(self, value, graph, zero_sign=True):
        if isinstance(value, (tuple, list)):
            return tuple(self._describe(v, graph, zero_sign) for v in value)
        if isinstance(value, (mg.Tensor, torch.Tensor)):
            if isinstance(value, mg.Tensor):
                data = value._data.copy()
            elif torch._is_zerotensor(value):
                # (torch's stand-in for a gradient known to be zero, from the derivative
                # of sign, say: it prints and computes as zeros, but refuses .numpy())
                data = np.zeros(tuple(value.shape), str(value.dtype).split(".")[-1])
            else:
                data = value.detach().numpy().copy()
            return {
                "repr": repr(value),
                "data": data,
                "graph": graph_of([value], self.leaves) if graph else None,
                "zero_sign": zero_sign,
            }
        if isinstance(value, (mg.dtype, torch.dtype)):
            return repr(value)
        if type(value).__name__ in ("Size",):
            return tuple(value)
        return value


_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\.\)$")


def transcript(program, lib) -> list:
    """Run ``program`` on ``lib``; what it showed, then ("raised", type, message) if it
    failed, then the distinct warnings it gave."""
    rec = Recorder(lib)
    # Both libraries give some warnings once per process (TORCH_WARN_ONCE, e.g. backward
    # with create_graph=True); warn_always makes them come every time, here only, without
    # using up the one time that other tests of the process may expect.
    with warn_always(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            program(lib, rec)
        except Exception as error:  # noqa: BLE001 - the failure is part of the transcript
            rec.entries.append(("raised", (type(error).__name__, str(error))))
    given = {(w.category.__name__, _TRIGGERED.sub("", str(w.message))) for w in caught}
    rec.entries.append(("warnings", tuple(sorted(given))))
    return rec.entries


def assert_same_run(program, rtol: float = 1e-5, atol: float = 1e-6) -> list:
    """``program`` shows and raises the same things on minigrad as on torch."""
    theirs = transcript(program, torch)
    ours = transcript(program, mg)
    ours_labels, theirs_labels = [label for label, _ in ours], [label for label, _ in theirs]
    if ours_labels != theirs_labels:
        k = next((k for k, (o, t) in enumerate(zip(ours_labels, theirs_labels)) if o != t),
                 min(len(ours), len(theirs)))
        raise AssertionError(
            f"the runs part after {ours_labels[:k][-3:]}:\n"
            f"  minigrad then showed {_summary(ours[k:k + 2])}\n"
            f"  torch then showed    {_summary(theirs[k:k + 2])}")
    for (label, o), (_, t) in zip(ours, theirs):
        _assert_same(o, t, label, rtol, atol)
    return theirs


_NEGATIVE_ZERO = re.compile(r"-0\.(?![0-9])")


def _summary(entries) -> list:
    return [entry if label == "raised" else label for label, entry in entries]


def _assert_same(ours, theirs, what, rtol, atol) -> None:
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs), f"{what}: {ours!r} != {theirs!r}"
        for k, (o, t) in enumerate(zip(ours, theirs)):
            _assert_same(o, t, f"{what}[{k}]", rtol, atol)
        return
    if not isinstance(theirs, dict):
        assert ours == theirs, f"{what}: minigrad {ours!r} != torch {theirs!r}"
        return
    assert isinstance(ours, dict), f"{what}: minigrad {ours!r}, torch has a tensor {theirs['repr']}"
    zero_sign = ours["zero_sign"] and theirs["zero_sign"]
    ours_text, theirs_text = ours["repr"], theirs["repr"]
    if not zero_sign:  # -0. and 0. print alike here
        ours_text, theirs_text = (_NEGATIVE_ZERO.sub("0.", ours_text),
                                  _NEGATIVE_ZERO.sub("0.", theirs_text))
    assert ours_text == theirs_text, (
        f"{what} prints differently:\n  minigrad: {ours['repr']}\n  torch:    {theirs['repr']}")
    o, t = ours["data"], theirs["data"]
    assert o.dtype == t.dtype and o.shape == t.shape, f"{what}: {o.dtype}{o.shape} != {t.dtype}{t.shape}"
    if np.issubdtype(t.dtype, np.floating):
        np.testing.assert_allclose(o, t, rtol=rtol, atol=atol, err_msg=what)
        # signed zeros: -0. prints as "-0." and a learner sees it
        if zero_sign:
            assert (np.signbit(o) == np.signbit(t))[t == 0].all(), \
                f"{what}: signed zeros differ: {o} vs {t}"
    else:
        np.testing.assert_array_equal(o, t, err_msg=what)
    assert ours["graph"] == theirs["graph"], (
        f"{what}: graph differs:\n  minigrad: {ours['graph']}\n  torch:    {theirs['graph']}")
