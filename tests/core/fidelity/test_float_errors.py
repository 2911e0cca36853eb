"""NumPy's floating-point error reporting never shows through minigrad: inf and nan
come silently, as in PyTorch, whatever ``np.errstate`` the user set (even ``all="raise"``),
and the user's state is left as it was. The ops that run without silencing it
(``float_errors = False`` on their node class) are checked on the inputs where a
floating-point error could come from: infinities, nan, the largest and the subnormal
numbers.

And the values themselves: NaN and inf through reductions, comparisons and pointwise ops
give what PyTorch 2.13 gives (values, graph, gradients; ``torch_compare.check``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad.autograd.node import Node
from op_cases import INF
from torch_compare import check

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


# ---- NaN and inf as PyTorch gives them ----------------------------------------

NAN = np.array([[1.0, np.nan, 3.0], [-1.0, 2.0, np.nan]], np.float32)
NON_FINITE = {
    "max": lambda lib, t: t.max(), "max-dim": lambda lib, t: t.max(1),
    "min-dim": lambda lib, t: t.min(0), "argmax": lambda lib, t: t.argmax(1),
    "argmin": lambda lib, t: t.argmin(), "maximum": lambda lib, t: lib.maximum(t, t * 0),
    "minimum": lambda lib, t: lib.minimum(t, t * 0 + 1), "clamp": lambda lib, t: t.clamp(0, 2),
    "clamp-tensor": lambda lib, t: t.clamp(min=t * 0), "relu": lambda lib, t: t.relu(),
    "abs": lambda lib, t: t.abs(), "sign": lambda lib, t: t.sign(),
    "sigmoid": lambda lib, t: t.sigmoid(), "softmax": lambda lib, t: t.softmax(1),
    "log_softmax": lambda lib, t: t.log_softmax(1), "logsumexp": lambda lib, t: t.logsumexp(1),
    "norm": lambda lib, t: t.norm(dim=1), "norm-inf": lambda lib, t: t.norm(INF, dim=1),
    "sum": lambda lib, t: t.sum(), "var": lambda lib, t: t.var(1), "std": lambda lib, t: t.std(),
    "prod": lambda lib, t: t.prod(1), "prod-all": lambda lib, t: t.prod(),
    "where": lambda lib, t: lib.where(t > 0, t, 0.0), "eq": lambda lib, t: t == t,
    "inf-max": lambda lib, t: (t * INF).max(1), "inf-softmax": lambda lib, t: (t * INF).softmax(1),
    "inf-exp": lambda lib, t: (t * 100).exp(), "inf-tanh": lambda lib, t: (t * INF).tanh(),
}


@pytest.mark.parametrize("fn", list(NON_FINITE.values()), ids=list(NON_FINITE))
def test_nan_and_inf_like_torch(fn):
    check(fn, NAN)
