"""The op-level bisector (tests/core/support/op_bisect.py) finds the op whose bits differ:
a program of ops with PyTorch's bits reports none, and one minigrad op made an ulp off
(forward, or its backward) is reported first, by name, with its shapes and ulps."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.ops import pointwise

from op_bisect import bisect, ulps


def _program(torch):
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 8 - 0.5
    x.requires_grad_(True)
    y = (x * 2 + 1).relu().exp()
    y.sum().backward()
    print(y)
    return {"x": x}


def _one_ulp_up(array):
    array = np.asarray(array)
    return np.nextafter(array, np.inf).astype(array.dtype)


def test_bit_equal_ops_report_nothing():
    found = bisect(_program)
    assert found.findings == []
    assert {"Tensor.mul", "Tensor.add", "Tensor.relu", "Tensor.exp", "Tensor.sum"} <= \
        set(found.compared)


def test_an_op_an_ulp_off_is_reported_first(monkeypatch):
    exp = pointwise.ExpBackward0.forward
    monkeypatch.setattr(pointwise.ExpBackward0, "forward",
                        lambda self, x: _one_ulp_up(exp(self, x)))
    found = bisect(_program)
    first = found.findings[0]
    assert (first.phase, first.name, first.call) == ("forward", "Tensor.exp", "float32[3, 4]")
    assert first.detail == (12, 12, 1.0)


def test_a_backward_an_ulp_off_is_reported(monkeypatch):
    backward = pointwise.ReluBackward0.backward
    monkeypatch.setattr(pointwise.ReluBackward0, "backward",
                        lambda self, saved, grad: _one_ulp_up(backward(self, saved, grad)))
    found = bisect(_program)
    assert [(f.phase, f.name) for f in found.findings] == [("backward", "Tensor.relu")]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_ulps_count_the_floats_between(dtype):
    a = np.array([1.0, -0.0, -1.0, np.nan, 2.0], dtype)
    b = np.array([np.nextafter(np.nextafter(a[0], 2), 2), 0.0, np.nextafter(a[2], 0), np.nan,
                  2.0], dtype)
    assert ulps(a, b).tolist() == [2.0, 0.0, 1.0, 0.0, 0.0]
    tiny = np.nextafter(np.zeros(1, dtype), np.ones(1, dtype))
    assert ulps(np.array([-0.0], dtype), tiny).tolist() == [1.0]
