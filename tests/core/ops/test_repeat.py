"""Copies side by side (``minigrad/ops/repeat.py``) against PyTorch 2.13: repeat
(RepeatBackward0), tile, and repeat_interleave, which PyTorch writes with other ops (an
expand and a copy for a number of repeats, index_select for a tensor of them): the same
graphs node for node, values, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run
from torch_compare import check_double_backward, check_numerical, outcome

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)
V = rng.standard_normal((4,)).astype(np.float32)

CASES = [
    case(lambda lib, x: x.repeat(2, 1), X, id="repeat"),
    case(lambda lib, x: x.repeat((2, 1, 3)), X, id="repeat-new-dims"),
    case(lambda lib, x: x.tile(2), X, id="tile-fewer-dims"),
    case(lambda lib, x: lib.tile(x, (2, 1, 1)), X, id="torch.tile"),
    case(lambda lib, x: x.repeat_interleave(2), X, id="repeat_interleave-flat"),
    case(lambda lib, x: x.repeat_interleave(2, dim=0), X, id="repeat_interleave-dim"),
    case(lambda lib, x: lib.repeat_interleave(x, 3, dim=-1), X, id="torch.repeat_interleave"),
    case(lambda lib, x: x.repeat_interleave(lib.tensor([1, 0, 2]), dim=0), X, id="counts"),
    case(lambda lib, x: x.repeat_interleave(lib.tensor([1, 0, 2, 1])), V, id="counts-flat"),
    case(lambda lib, x: x.repeat_interleave(lib.tensor(2)), V, id="one-count-tensor"),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_repeat_ops(fn, arrays, options):
    run(fn, arrays, options)


@pytest.mark.parametrize("fn", [lambda x: x.repeat(2, 1, 2), lambda x: x.tile(3),
                                lambda x: x.repeat_interleave(2, 1),
                                lambda x: x.repeat_interleave(mg.tensor([2, 0, 1]), 0)],
                         ids=["repeat", "tile", "interleave", "interleave-counts"])
def test_gradients_against_finite_differences(fn):
    check_numerical(fn, X)


def test_second_derivative_of_repeat_is_torchs():
    check_double_backward(lambda lib, x: x.repeat(2, 3) ** 2, X.astype(np.float64))


@pytest.mark.parametrize("call", [
    lambda lib: lib.tensor([1, 2]).repeat(2, 2),
    lambda lib: lib.repeat_interleave(lib.tensor([1, 2]), 2),
    lambda lib: lib.repeat_interleave(lib.tensor([2, 0, 1])),
    lambda lib: lib.tensor(3.).repeat_interleave(2),
    lambda lib: lib.ones(2, 3, requires_grad=True).repeat(1, 2),
    lambda lib: lib.ones(2, 3).repeat(2),
    lambda lib: lib.ones(3).repeat(-1),
    lambda lib: lib.ones(3).repeat_interleave(-1),
    lambda lib: lib.ones(3).repeat_interleave(lib.tensor([1, 2])),
    lambda lib: lib.ones(3).repeat_interleave(lib.tensor([1, -2, 1])),
], ids=["int", "int-interleave", "counts-only", "0dim", "printed", "fewer-repeats",
        "negative", "negative-interleave", "counts-size", "negative-count"])
def test_calls_print_and_fail_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)


def test_repeat_interleave_of_0_dim_and_empty_tensors_follows_torch():
    """A 0-dim tensor with a dim: torch's unsqueeze(dim + 1) refuses it ("got 1"); an empty
    tensor along either dim is repeated (flatten of an empty tensor has no -1 to guess)."""
    cases = [((), 0), ((), -1), ((), 5), ((), None), ((2, 0), 0), ((2, 0), 1), ((2, 0), None),
             ((0,), 0), ((0, 3), -1)]
    for shape, dim in cases:
        def call(lib, shape=shape, dim=dim):
            y = lib.zeros(shape, requires_grad=True).repeat_interleave(2, dim=dim)
            return y.shape, y.stride(), type(y.grad_fn).__name__, y.flatten(0, -1).shape
        assert outcome(call, mg) == outcome(call, torch)
