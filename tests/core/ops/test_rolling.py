"""Elements moved around (``minigrad/ops/rolling.py``) against PyTorch 2.13: roll
(RollBackward0), rot90 (Rot90Backward0) and Tensor.unfold's windows (UnfoldBackward0, a
view; overlapping windows add their gradients): values, graphs, saved values, gradients
(bit for bit where windows overlap), second derivatives and the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run
from torch_compare import check_double_backward, check_numerical, outcome

X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
LONG = np.random.default_rng(1).standard_normal((3, 40, 2)).astype(np.float32)

CASES = [
    case(lambda lib, x: x.roll(1), X, id="roll-flat"),
    case(lambda lib, x: x.roll(-1, 0), X, id="roll-dim"),
    case(lambda lib, x: lib.roll(x, (1, 2), (0, -1)), X, id="torch.roll-dims"),
    case(lambda lib, x: x.rot90(), X, id="rot90"),
    case(lambda lib, x: lib.rot90(x, 2, (1, 0)), X, id="torch.rot90-half-turn"),
    case(lambda lib, x: x.rot90(-1, (0, -1)), X, id="rot90-back"),
    case(lambda lib, x: x.unfold(1, 2, 2), X, id="unfold-apart"),
    case(lambda lib, x: x.unfold(1, 3, 1), X, id="unfold-overlapping"),
    case(lambda lib, x: x.unfold(-2, 2, 1), X, id="unfold-negative-dim"),
    case(lambda lib, x: x.unfold(0, 2, 2), X, id="unfold-leaving-a-row"),
    case(lambda lib, x: x.unfold(1, 0, 1), X, id="unfold-empty-windows"),
    case(lambda lib, x: x.unfold(1, 7, 2), LONG, id="unfold-float32-sums"),
    case(lambda lib, x: x.unfold(1, 2, 1).unfold(0, 2, 1), X, id="unfold-twice"),
    case(lambda lib, x: x[0, 0].unfold(0, 1, 1), X, id="unfold-0-dim"),
    case(lambda lib, x: (x * 1).unfold(1, 2, 2).mul_(2), X, id="unfold-view-in-place"),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_rolling(fn, arrays, options):
    run(fn, arrays, options)


def test_gradients_against_finite_differences():
    check_numerical(lambda x: x.rot90(3) * x.roll(2, 1).t()[:4, :3].t(), X[:, :3].copy())
    check_numerical(lambda x: x.unfold(1, 3, 1) ** 2, X)


def test_unfold_second_derivatives_are_torchs():
    check_double_backward(lambda lib, x: x.unfold(1, 3, 1) ** 3, X.astype(np.float64))


def test_unfold_overlapping_gradients_are_torchs_bits():
    gradients = []
    for lib in (torch, mg):
        x = lib.tensor(LONG, requires_grad=True)
        windows = x.unfold(1, 9, 2)
        windows.backward(lib.tensor(np.random.default_rng(2).standard_normal(
            tuple(windows.shape)).astype(np.float32)))
        gradients.append(x.grad.numpy())
    assert gradients[0].view(np.uint32).tolist() == gradients[1].view(np.uint32).tolist()


def test_unfold_is_a_view_with_torchs_strides_and_saved_values():
    for call in (lambda x: x.unfold(1, 2, 1), lambda x: x.unfold(-1, 3, 2)):
        ours, theirs = (call(lib.tensor(X, requires_grad=True)) for lib in (mg, torch))
        assert ours.stride() == theirs.stride() and ours._base is not None
        for name in ("_saved_dimension", "_saved_size", "_saved_step",
                     "_saved_self_sym_sizes"):
            assert getattr(ours.grad_fn, name) == getattr(theirs.grad_fn, name), name


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
    lambda lib: lib.ones(()).roll(1, 0),
    lambda lib: lib.arange(6).unfold(0, 4, 1),
    lambda lib: lib.ones(6).unfold(0, 7, 1),
    lambda lib: lib.ones(6).unfold(0, -1, 1),
    lambda lib: lib.ones(6).unfold(0, 2, 0),
    lambda lib: lib.ones(6).unfold(1, 2, 1),
], ids=["int-roll", "int-rot90", "misaligned", "dim-out-of-range", "no-shifts", "one-dim",
        "same-dims", "same-dims-negative", "vector", "rot-dim-out-of-range", "roll-0-dim",
        "int-unfold", "unfold-too-long", "unfold-negative-size", "unfold-zero-step",
        "unfold-dim-out-of-range"])
def test_calls_print_and_fail_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)
