"""Pairwise distances (``minigrad/ops/distance.py``) against PyTorch 2.13: cdist for
p = 0, 1, 2, 3 and inf (CdistBackward0), and for p = 2 with more than 25 rows or
``compute_mode='use_mm_for_euclid_dist'`` the matrix-product form PyTorch switches to
(EuclideanDistBackward0 under a ViewBackward0); batched inputs; gradients against finite
differences; the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run
from torch_compare import check_numerical, outcome

rng = np.random.default_rng(0)
A = rng.standard_normal((6, 4)).astype(np.float32)
B = rng.standard_normal((5, 4)).astype(np.float32)
C = rng.standard_normal((30, 4)).astype(np.float32)
A3 = rng.standard_normal((2, 6, 4)).astype(np.float32)
B3 = rng.standard_normal((2, 5, 4)).astype(np.float32)
CLOSE = dict(rtol=1e-4, atol=1e-5)  # (PyTorch sums each distance in vector lanes)

CASES = [
    case(lambda lib, x, y: lib.cdist(x, y), A, B, id="p2", **CLOSE),
    case(lambda lib, x, y: lib.cdist(x, y, p=1), A, B, id="p1", **CLOSE),
    case(lambda lib, x, y: lib.cdist(x, y, p=3.0), A, B, id="p3", **CLOSE),
    case(lambda lib, x, y: lib.cdist(x, y, p=0), A, B, id="p0", **CLOSE),
    case(lambda lib, x, y: lib.cdist(x, y, p=float("inf")), A, B, id="p-inf", **CLOSE),
    case(lambda lib, x, y: lib.cdist(x, y), C, B, id="many-rows-by-products", **CLOSE),
    case(lambda lib, x, y: lib.cdist(x, y, compute_mode="use_mm_for_euclid_dist"), A, B,
         id="by-products-asked", **CLOSE),
    case(lambda lib, x, y: lib.cdist(x, y), A3, B3, id="batched", **CLOSE),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_cdist(fn, arrays, options):
    run(fn, arrays, options)


@pytest.mark.parametrize("fn, arrays", [
    (lambda x, y: mg.cdist(x, y), (A, B)), (lambda x, y: mg.cdist(x, y, p=3), (A, B)),
    (lambda x, y: mg.cdist(x, y, p=1), (A, B)), (lambda x, y: mg.cdist(x, y), (C, B))],
    ids=["p2", "p3", "p1", "by-products"])
def test_gradients_against_finite_differences(fn, arrays):
    check_numerical(fn, *arrays)


@pytest.mark.parametrize("call", [
    lambda lib: lib.cdist(lib.ones(3, 4), lib.ones(3, 5)),
    lambda lib: lib.cdist(lib.ones(4), lib.ones(4)),
    lambda lib: lib.cdist(lib.ones(3, 4), lib.ones(3, 4), p=-1),
], ids=["columns", "1d", "negative-p"])
def test_errors_are_torchs(call):
    assert outcome(call, mg) == outcome(call, torch)


def test_cdist_has_no_half_kernel_below_the_matrix_product_form():
    """torch's cdist kernel has no float16 (an empty input or the matrix-product form past
    25 rows does not reach it)."""
    for rows, others in [((2, 4), (2, 4)), ((2, 1, 4), (2, 3, 4)), ((30, 4), (30, 4)),
                         ((0, 4), (2, 4))]:
        for second in ("float16", "float32"):
            def call(lib, rows=rows, others=others, second=second):
                return lib.cdist(lib.ones(rows, dtype=lib.float16),
                                 lib.ones(others, dtype=getattr(lib, second))).shape
            if rows[0] == 0 and second == "float32":
                continue  # (an empty float16 x1: torch keeps its dtype, minigrad promotes)
            assert outcome(call, mg) == outcome(call, torch)


def test_cdist_of_empty_operands_has_x1s_dtype_and_batch_errors_are_torchs():
    """(random programs 550383: float32 and float64 rows of no columns gave float64 zeros,
    torch x1's dtype; 559322: batch dims that do not broadcast, NumPy's text)"""
    for a, b in [((2, 0), (2, 0)), ((0, 3), (2, 3)), ((2, 3), (0, 3)), ((3, 0), (2, 0))]:
        for d1, d2 in [("float32", "float64"), ("float64", "float32"), ("float16", "float32")]:
            def call(lib, a=a, b=b, d1=d1, d2=d2):
                y = lib.cdist(lib.zeros(a, dtype=getattr(lib, d1), requires_grad=True),
                              lib.zeros(b, dtype=getattr(lib, d2)))
                return y, type(y.grad_fn).__name__
            assert outcome(call, mg) == outcome(call, torch)
    for a, b in [((2, 3, 4), (3, 3, 4)), ((2, 1, 3, 4), (5, 3, 4)), ((2, 3, 4), (1, 2, 2, 4))]:
        def call(lib, a=a, b=b):
            return lib.cdist(lib.ones(a), lib.zeros(b)).shape
        assert outcome(call, mg) == outcome(call, torch)
