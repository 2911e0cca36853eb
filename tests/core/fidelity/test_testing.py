"""torch.testing.assert_close against PyTorch 2.13: passing pairs pass, failing ones raise
PyTorch's exception with its message (mismatched count, greatest absolute and relative
difference and where, the tolerances allowed), for tensors of each float dtype, integers
and bools, 0-dim tensors and Python numbers ("Scalars are not close!"), NaN with and
without equal_nan, shape and dtype mismatches, check_dtype=False, given rtol/atol (and
PyTorch's error for one without the other), msg=, and sequences and mappings (the item
named)."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from torch_compare import outcome


def T(lib, values, dtype=None):
    return lib.tensor(values, dtype=None if dtype is None else getattr(lib, dtype))


CASES = {
    "close": lambda lib: (T(lib, [1., 2., 3.]), T(lib, [1., 2., 3.])),
    "one differs": lambda lib: (T(lib, [1., 2., 3.]), T(lib, [1., 2.1, 3.])),
    "matrix": lambda lib: (T(lib, [[1., 2.], [3, 4]]), T(lib, [[1., 2.5], [3, 5]])),
    "float64": lambda lib: (T(lib, [1., 2.], "float64"), T(lib, [1., 2.1], "float64")),
    "float16": lambda lib: (T(lib, [1., 2.], "float16"), T(lib, [1., 2.01], "float16")),
    "dtypes differ": lambda lib: (T(lib, [1., 2.]), T(lib, [1., 2.], "float64")),
    "shapes differ": lambda lib: (T(lib, [1., 2.]), T(lib, [1., 2., 3.])),
    "nan": lambda lib: (T(lib, [1., float("nan")]), T(lib, [1., float("nan")])),
    "integers": lambda lib: (T(lib, [1, 2]), T(lib, [1, 3])),
    "bools": lambda lib: (T(lib, [True]), T(lib, [False])),
    "expected zero": lambda lib: (T(lib, [1., 2.]), T(lib, [0., 2.])),
    "within atol": lambda lib: (T(lib, [0., 1.]), T(lib, [1e-6, 1.])),
    "0-dim": lambda lib: (T(lib, 1.), T(lib, 1.5)),
    "one element": lambda lib: (T(lib, [1.]), T(lib, [1.5])),
    "numbers": lambda lib: (1.0, 1.5),
    "close numbers": lambda lib: (1.0, 1.0000001),
    "ints": lambda lib: (3, 4),
    "tensor and number": lambda lib: (T(lib, 1.), 1.0),
    "requires grad": lambda lib: (T(lib, [1., 2.]).requires_grad_(), T(lib, [1., 2.])),
    "a list": lambda lib: ([T(lib, 1.)], [T(lib, 1.5)]),
    "a dict": lambda lib: ({"a": T(lib, [1.])}, {"a": T(lib, [2.])}),
}
OPTIONS = {
    "defaults": {},
    "equal_nan": {"equal_nan": True},
    "check_dtype=False": {"check_dtype": False},
    "rtol and atol": {"rtol": 1e-3, "atol": 0.0},
    "rtol alone": {"rtol": 1e-3},
    "msg": {"msg": "custom"},
}


@pytest.mark.parametrize("option", list(OPTIONS))
@pytest.mark.parametrize("case", list(CASES))
def test_assert_close_as_torch(case, option):
    def program(lib):
        actual, expected = CASES[case](lib)
        lib.testing.assert_close(actual, expected, **OPTIONS[option])
    ours, theirs = outcome(program, mg), outcome(program, torch)
    if case == "tensor and number":  # (the message names each library's Tensor class)
        ours = tuple(x.replace("minigrad.Tensor", "torch.Tensor") for x in ours)
    assert ours == theirs
