"""Helpers for the distribution tests: run one program on minigrad and on torch after the
same manual_seed and compare what it returns: the printed text (``same``), every tensor bit
for bit (``same_bits``) or within a tolerance (``close``), the errors' types and texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg


def outcome(call, lib):
    try:
        lib.manual_seed(0)
        return ("result", repr(call(lib)))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return ("error", type(error).__name__, str(error))


def same(call):
    """The program prints as PyTorch's (tensors to 4 decimals, shapes, reprs, errors)."""
    ours, theirs = outcome(call, mg), outcome(call, torch)
    assert ours == theirs, f"minigrad: {ours}\ntorch:    {theirs}"


def _tensors(result):
    if isinstance(result, (list, tuple)):
        return [t for item in result for t in _tensors(item)]
    if isinstance(result, (mg.Tensor, torch.Tensor)):
        return [result]
    return []


def _run(call, lib):
    lib.manual_seed(0)
    return _tensors(call(lib))


def close(call, rtol=1e-6, atol=1e-7):
    """Every tensor the program returns has PyTorch's shape and dtype, and its values
    within ``rtol``/``atol`` (``rtol=0, atol=0``: bit for bit); returns the fraction of
    elements that are bit-equal."""
    try:
        ours = _run(call, mg)
    except Exception as error:  # noqa: BLE001 - then torch must raise the same
        with pytest.raises(type(error)):
            _run(call, torch)
        return 1.0
    theirs = _run(call, torch)
    assert len(ours) == len(theirs)
    equal = total = 0
    for a, b in zip(ours, theirs):
        assert tuple(a.shape) == tuple(b.shape)
        assert str(a.dtype) == str(b.dtype)
        x, y = a.detach().numpy(), b.detach().numpy()
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
        equal += int(((x == y) | (np.isnan(x) & np.isnan(y))).sum())
        total += x.size
    return equal / max(total, 1)


def same_bits(call):
    assert close(call, rtol=0, atol=0) == 1.0
