"""ops/view_scatter.py against PyTorch 2.13: select_scatter, slice_scatter, diagonal_scatter
(SelectScatterBackward0, SliceScatterBackward0, DiagonalScatterBackward0): values bit for
bit, graphs, saved values, gradients (and finite differences in float64, and twice),
the size errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_double_backward, check_error, check_numerical, rand

X = rand((3, 4, 5), seed=0)
CASES = {
    "select_scatter": (lambda lib, x, s: lib.select_scatter(x, s[0] * 2, 1, 2),
                       (X, rand((3, 5), seed=1)[None].repeat(1, 0))),
    "select_scatter negative": (lambda lib, x, s: x.select_scatter(s[0], -1, -1),
                                (X, rand((1, 3, 4), seed=2))),
    "slice_scatter": (lambda lib, x, s: lib.slice_scatter(x, s, 2, 1, 5, 2),
                      (X, rand((3, 4, 2), seed=3))),
    "slice_scatter default": (lambda lib, x, s: x.slice_scatter(s), (X, rand((3, 4, 5), seed=4))),
    "slice_scatter start": (lambda lib, x, s: lib.slice_scatter(x, s, dim=0, start=1),
                            (X, rand((2, 4, 5), seed=5))),
    "diagonal_scatter": (lambda lib, x, s: lib.diagonal_scatter(x, s), (X, rand((5, 3), seed=6))),
    "diagonal_scatter offset dims": (lambda lib, x, s: x.diagonal_scatter(s, 1, 1, 2),
                                     (X, rand((3, 4), seed=7))),
    "diagonal_scatter below": (lambda lib, x, s: lib.diagonal_scatter(x[0], s[0, :3], -1),
                               (X, rand((1, 3), seed=8))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch_bit_for_bit(name):
    fn, inputs = CASES[name]
    check(fn, *inputs, rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    fn, inputs = CASES[name]
    check_numerical(lambda *xs: fn(mg, *xs), *inputs)


@pytest.mark.parametrize("name", ["select_scatter", "slice_scatter", "diagonal_scatter"])
def test_second_derivatives(name):
    fn, inputs = CASES[name]
    check_double_backward(lambda lib, x, s: fn(lib, x, s) ** 2,
                          *(a.astype(np.float64) for a in inputs))


def test_saved_values_as_torch():
    saved = []
    for lib in (mg, torch):
        x = lib.tensor(X, requires_grad=True)
        nodes = [lib.select_scatter(x, x[:, 0] * 1, 1, 0).grad_fn,
                 lib.slice_scatter(x, x[:, :, 1:4:2] * 1, 2, 1, 4, 2).grad_fn,
                 lib.diagonal_scatter(x, x[:, 0, :4] * 1, 1, 1, 2).grad_fn]
        saved.append([(type(n).__name__, sorted((a, getattr(n, a)) for a in dir(n)
                       if a.startswith("_saved_"))) for n in nodes])
    assert saved[0] == saved[1]


ERRORS = {
    "select size": lambda lib, x: lib.select_scatter(x, x[0, 0], 0, 1),
    "select index": lambda lib, x: lib.select_scatter(x, x[0], 0, 5),
    "slice size": lambda lib, x: lib.slice_scatter(x, x, 2, 0, 4, 2),
    "diagonal size": lambda lib, x: lib.diagonal_scatter(x, x[0]),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    check_error(ERRORS[name], X)
