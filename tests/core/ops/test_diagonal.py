"""Diagonals (``minigrad/ops/diagonal.py``) against PyTorch 2.13: diagonal (a view),
diag_embed, diag (DiagEmbedBackward0 for a vector, DiagonalBackward0_copy for a matrix, as
PyTorch names them) and trace: values, graphs, saved values, gradients (finite differences,
second derivatives), integer and bool inputs and the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run, X3
from torch_compare import check, check_bits, check_double_backward, check_error, check_numerical, outcome

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)
V = rng.standard_normal((4,)).astype(np.float32)
TALL = rng.standard_normal((5, 2)).astype(np.float32)  # (rows > cols + 1: a (cols + 1) step
COLUMN = rng.standard_normal((3, 1)).astype(np.float32)  # walks past the diagonal's end)

CASES = [
    case(lambda lib, x: x.diagonal(), X, id="diagonal"),
    case(lambda lib, x: x.diagonal(1), X, id="diagonal-offset"),
    case(lambda lib, x: lib.diagonal(x, -1), X, id="torch.diagonal-below"),
    case(lambda lib, x: lib.diagonal(x, 0, 2, 0), X3, id="diagonal-dims"),
    case(lambda lib, x: (x * 1).diagonal().mul_(2), X, id="diagonal-view-in-place"),
    case(lambda lib, x: lib.diag(x), V, id="diag-vector"),
    case(lambda lib, x: lib.diag(x, -1), V, id="diag-vector-offset"),
    case(lambda lib, x: lib.diag(x), X, id="diag-matrix"),
    case(lambda lib, x: x.diag(2), X, id="diag-matrix-offset"),
    case(lambda lib, x: lib.diag_embed(x), X3, id="diag_embed"),
    case(lambda lib, x: lib.diag_embed(x, 1, 0, 2), X, id="diag_embed-dims"),
    case(lambda lib, x: x.trace(), X, id="trace"),
    case(lambda lib, x: lib.trace(x.t()), X, id="torch.trace"),
    case(lambda lib, x: x.trace(), TALL, id="trace-tall"),
    case(lambda lib, x: x.trace(), COLUMN, id="trace-column"),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_diagonal_ops(fn, arrays, options):
    run(fn, arrays, options)


@pytest.mark.parametrize("fn, array", [
    (lambda x: x.diagonal(1), X), (lambda x: mg.diag(x), V), (lambda x: mg.diag(x, 1), X),
    (lambda x: mg.diag_embed(x), X), (lambda x: x.trace(), X)],
    ids=["diagonal", "diag-vector", "diag-matrix", "diag_embed", "trace"])
def test_gradients_against_finite_differences(fn, array):
    check_numerical(fn, array)


@pytest.mark.parametrize("fn, array", [
    (lambda lib, x: lib.diag(x) ** 2, V), (lambda lib, x: x.trace() ** 2, X),
    (lambda lib, x: x.diagonal(1) ** 2, X), (lambda lib, x: lib.diag_embed(x) ** 2, X)],
    ids=["diag", "trace", "diagonal", "diag_embed"])
def test_second_derivatives_are_torchs(fn, array):
    check_double_backward(fn, array.astype(np.float64))


def test_saved_values_and_views_are_torchs():
    for call in (lambda lib, x: lib.diag(x[0]), lambda lib, x: x.diagonal(-1, 1, 0),
                 lambda lib, x: lib.diag_embed(x, 1)):
        ours, theirs = (call(lib, lib.tensor(X, requires_grad=True)) for lib in (mg, torch))
        for name in ("_saved_offset", "_saved_dim1", "_saved_dim2"):
            assert getattr(ours.grad_fn, name) == getattr(theirs.grad_fn, name), name
    base = mg.ones(3, 3)
    base.diagonal().zero_()
    assert base.trace().item() == 0 and base.sum().item() == 6  # (a view: written through)


@pytest.mark.parametrize("call", [
    lambda lib: lib.tensor([[1, 2], [3, 4]]).trace(),
    lambda lib: lib.diag(lib.tensor([1, 2])),
    lambda lib: lib.tensor([[True, False], [True, True]]).trace(),
    lambda lib: lib.ones(3).trace(),
    lambda lib: lib.diag(lib.ones(2, 2, 2)),
    lambda lib: lib.ones(3, 3).diagonal(0, 1, 1),
    lambda lib: lib.ones(3, 3).diagonal(0, 0, 2),
    lambda lib: lib.diag(lib.ones(2, 3, requires_grad=True), 1),
], ids=["int-trace", "int-diag", "bool-trace", "trace-vector", "diag-3d", "same-dims",
        "dim-out-of-range", "printed"])
def test_calls_print_and_fail_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)


def test_dim_error_text():
    check_error(lambda lib, x: x.diagonal(0, 0, 2), X)


# ---- block_diag ------------------------------------------------------------------------------

S = np.asarray(rng.standard_normal(()), np.float32)


@pytest.mark.parametrize("fn, arrays", [
    (lambda lib, a, b, s: lib.block_diag(a, b, s), (X, V, S)),
    (lambda lib, a, b, s: lib.block_diag(s, a.t(), b, a), (X, V, S)),
    (lambda lib, a, b, s: lib.block_diag(a[:0], b, a[:, :0]), (X, V, S)),
    (lambda lib, a, b, s: lib.block_diag(a) * 2, (X, V, S)),
], ids=["matrix-vector-number", "transposed-repeated", "empty-blocks", "one"])
def test_block_diag_values_graph_and_gradients(fn, arrays):
    check(fn, *arrays)
    check_bits(fn, *arrays)
    check_numerical(lambda *xs: fn(mg, *xs), *arrays)


def test_block_diag_of_two_dtypes_sends_each_gradient_in_its_own_dtype():
    for lib in (mg, torch):
        a = lib.ones(2, requires_grad=True)
        b = lib.ones(1, 1, dtype=lib.float64, requires_grad=True)
        lib.block_diag(a, b).sum().backward()
        assert (a.grad.dtype, b.grad.dtype) == (lib.float32, lib.float64)


BLOCK_CALLS = {
    "empty": lambda lib: lib.block_diag(),
    "int-float": lambda lib: lib.block_diag(lib.tensor([[1, 2]]), lib.tensor([[1.5]])),
    "bool-uint8": lambda lib: lib.block_diag(lib.tensor([[True]]),
                                             lib.tensor([[2]], dtype=lib.uint8)),
    "zero-sized": lambda lib: lib.block_diag(lib.ones(0, 2), lib.ones(2, 0)),
    "int-number-and-float-vector": lambda lib: lib.block_diag(lib.tensor(1), lib.tensor([2., 3.])),
    "half-and-double": lambda lib: lib.block_diag(lib.ones(2, 2, dtype=lib.float16),
                                                  lib.ones(1, dtype=lib.float64)),
    "requires-grad": lambda lib: lib.block_diag(lib.ones(1, requires_grad=True), lib.tensor(2.)),
    "3-dims": lambda lib: lib.block_diag(lib.ones(1), lib.ones(2, 2, 2)),
    "a-list": lambda lib: lib.block_diag([lib.ones(2)]),
    "a-number": lambda lib: lib.block_diag(lib.ones(2), 3),
    "out": lambda lib: lib.block_diag(lib.ones(2), out=lib.empty(1, 2)),
}


@pytest.mark.parametrize("name", BLOCK_CALLS)
def test_block_diag_prints_and_fails_as_torch(name):
    assert outcome(BLOCK_CALLS[name], mg) == outcome(BLOCK_CALLS[name], torch)


def test_diag_of_an_empty_matrix_has_a_new_tensors_strides():
    """(random programs 565227, 567120: diag of a (2, 0) matrix had NumPy's stride 0)"""
    for shape in [(2, 0), (0, 2), (0, 0), (3, 3)]:
        for k in (0, 1, -5):
            assert mg.zeros(shape).diag(k).stride() == torch.zeros(shape).diag(k).stride()
