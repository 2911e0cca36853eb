"""Elements moved around (``minigrad/ops/rolling.py``) against PyTorch 2.13: roll
(RollBackward0) and rot90 (Rot90Backward0): values, graphs, saved values, gradients and
the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run
from torch_compare import check_numerical, outcome

X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)

CASES = [
    case(lambda lib, x: x.roll(1), X, id="roll-flat"),
    case(lambda lib, x: x.roll(-1, 0), X, id="roll-dim"),
    case(lambda lib, x: lib.roll(x, (1, 2), (0, -1)), X, id="torch.roll-dims"),
    case(lambda lib, x: x.rot90(), X, id="rot90"),
    case(lambda lib, x: lib.rot90(x, 2, (1, 0)), X, id="torch.rot90-half-turn"),
    case(lambda lib, x: x.rot90(-1, (0, -1)), X, id="rot90-back"),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_rolling(fn, arrays, options):
    run(fn, arrays, options)


def test_gradients_against_finite_differences():
    check_numerical(lambda x: x.rot90(3) * x.roll(2, 1).t()[:4, :3].t(), X[:, :3].copy())


def test_saved_values_are_torchs():
    for call in (lambda x: x.roll(1), lambda x: x.roll((1, -1), (0, -1)),
                 lambda x: x.rot90(1, (0, -1))):
        ours, theirs = (call(lib.tensor(X, requires_grad=True)).grad_fn for lib in (mg, torch))
        for name in ("_saved_dims", "_saved_shifts", "_saved_k"):
            assert getattr(ours, name, None) == getattr(theirs, name, None), name


@pytest.mark.parametrize("call", [
    lambda lib: lib.arange(6).roll(2),
    lambda lib: lib.arange(6).reshape(2, 3).rot90(),
    lambda lib: lib.ones(2, 3).roll((1, 2), (0,)),
    lambda lib: lib.ones(2, 3).roll(1, 2),
    lambda lib: lib.ones(2, 3).roll(()),
    lambda lib: lib.ones(2, 3).rot90(1, (0,)),
    lambda lib: lib.ones(2, 3).rot90(1, (0, 0)),
    lambda lib: lib.ones(2, 3).rot90(1, (0, -2)),
    lambda lib: lib.ones(3).rot90(),
    lambda lib: lib.ones(2, 3).rot90(1, (0, 2)),
], ids=["int-roll", "int-rot90", "misaligned", "dim-out-of-range", "no-shifts", "one-dim",
        "same-dims", "same-dims-negative", "vector", "rot-dim-out-of-range"])
def test_calls_print_and_fail_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)
