"""torch.tril / torch.triu, their methods and in-place forms, against PyTorch 2.13 at test
time: values (any diagonal, batches, integer and bool tensors, a transposed input),
graphs (TrilBackward0, TriuBackward0) and the diagonal they save, gradients, finite
differences, second derivatives, strides and the error texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from torch_compare import check, check_double_backward, check_error, check_numerical, rand

SHAPES = [(3, 3), (2, 4), (4, 2), (2, 3, 5), (0, 3)]


@pytest.mark.parametrize("name", ["tril", "triu"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("diagonal", [0, 1, -1, 3, -5])
@pytest.mark.parametrize("form", ["function", "method", "keyword"])
def test_tril_triu_as_torch(name, shape, diagonal, form):
    def op(lib, x):
        if form == "function":
            return getattr(lib, name)(x, diagonal)
        if form == "keyword":
            return getattr(lib, name)(x, diagonal=diagonal)
        return getattr(x, name)(diagonal)
    ours, theirs = check(op, rand(shape, seed=3))
    assert ours.stride() == theirs.stride()
    assert ours.grad_fn._saved_diagonal == theirs.grad_fn._saved_diagonal


@pytest.mark.parametrize("name", ["tril", "triu"])
@pytest.mark.parametrize("dtype", ["int64", "bool", "float64"])
def test_tril_triu_keep_the_dtype(name, dtype):
    values = np.arange(12).reshape(3, 4) % 3
    ours = getattr(mg, name)(mg.tensor(values.astype(dtype)), -1)
    theirs = getattr(torch, name)(torch.tensor(values.astype(dtype)), -1)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name", ["tril", "triu"])
def test_tril_triu_of_a_transposed_input_is_contiguous(name):
    ours = getattr(mg, name)(mg.arange(12.).reshape(4, 3).t(), 1)
    theirs = getattr(torch, name)(torch.arange(12.).reshape(4, 3).t(), 1)
    assert repr(ours) == repr(theirs) and ours.stride() == theirs.stride()


@pytest.mark.parametrize("name", ["tril_", "triu_"])
@pytest.mark.parametrize("diagonal", [0, -1, 2])
def test_in_place_forms_as_torch(name, diagonal):
    def op(lib, x):
        y = x * 1
        out = getattr(y, name)(diagonal)
        assert out is y
        return y
    ours, theirs = check(op, rand((3, 4), seed=4))
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__


def test_the_lecture_mask_as_torch():
    """Karpathy's GPT lecture: masked_fill(tril[:T, :T] == 0, -inf), then softmax."""
    def op(lib, x):
        tril = lib.tril(lib.ones(5, 5))
        return lib.nn.functional.softmax(x.masked_fill(tril[:4, :4] == 0, float('-inf')), dim=-1)
    ours, theirs = check(op, rand((2, 4, 4), seed=6))
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name", ["tril", "triu"])
def test_tril_triu_finite_differences_and_second_derivatives(name):
    check_numerical(lambda x: getattr(mg, name)(x, -1) * x, rand((3, 4), seed=8))
    check_double_backward(lambda lib, x: getattr(lib, name)(x, 1) * x,
                          rand((3, 4), seed=9, dtype="float64"))


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.tril(x[0]),
    lambda lib, x: x[0].triu_(),
    lambda lib, x: lib.tril(x, 1.5),
    lambda lib, x: x.triu(1.0),
    lambda lib, x: lib.triu(x[0, 0], 0),
], ids=["1-D", "1-D in place", "float diagonal", "float diagonal method", "0-D"])
def test_tril_triu_errors_as_torch(call):
    check_error(call, rand((3, 4)))
