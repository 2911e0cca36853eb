"""NumPy's floating-point error reporting never shows through minigrad: inf and nan
come silently, as in PyTorch, whatever ``np.errstate`` the user set (even ``all="raise"``),
and the user's state is left as it was. The ops that run without silencing it
(``float_errors = False`` on their node class) are checked on the inputs where a
floating-point error could come from: infinities, nan, the largest and the subnormal
numbers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad.autograd.node import Node

DTYPES = ["float16", "float32", "float64"]


def _specials(dtype: str) -> np.ndarray:
    info = np.finfo(dtype)
    values = [np.inf, -np.inf, np.nan, info.max, -info.max, info.tiny, info.smallest_subnormal,
              -info.smallest_subnormal, 1e-20, 0.0, -0.0, 1.0, -3.0, 20.0, 100.0, 1e4]
    with np.errstate(all="ignore"):
        return np.resize(np.array(values, dtype), 3 * 17 * len(values))  # (SIMD bodies and tails)


def _quiet_node_classes():
    found, stack = [], [Node]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if not cls.__dict__.get("float_errors", True):
            found.append(cls.__name__)
    return sorted(found)


def test_the_ops_that_skip_silencing_are_the_ones_checked_here():
    assert _quiet_node_classes() == ["NegBackward0", "TanhBackward0"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["tanh", "neg", "exp", "mul", "add", "div", "log"])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_no_numpy_warning_or_error_whatever_the_users_errstate(dtype, op, requires_grad):
    data = _specials(dtype)
    ours = mg.tensor(data, requires_grad=requires_grad)
    theirs = torch.tensor(data, requires_grad=requires_grad)
    compute = {
        "tanh": lambda t: t.tanh(), "neg": lambda t: -t, "exp": lambda t: t.exp(),
        "mul": lambda t: t * t, "add": lambda t: t + t, "div": lambda t: t / t,
        "log": lambda t: t.log(),
    }[op]
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            result = compute(ours)
            assert np.geterr() == {"divide": "raise", "over": "raise", "under": "raise",
                                   "invalid": "raise"}
        assert np.geterr() == before
    expected = compute(theirs).detach().numpy()
    # (the same infinities and nans; finite values up to exp's last bit)
    np.testing.assert_allclose(result.detach().numpy(), expected, rtol=2 * np.finfo(dtype).eps)
