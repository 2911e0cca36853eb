"""Pairwise distances (``minigrad/ops/distance.py``) against PyTorch 2.13: cdist for
p = 0, 1, 2, 3 and inf (CdistBackward0), and for p = 2 with more than 25 rows or
``compute_mode='use_mm_for_euclid_dist'`` the matrix-product form PyTorch switches to
(EuclideanDistBackward0 under a ViewBackward0); batched inputs; gradients against finite
differences; the errors; pdist (PdistBackward0) bit for bit for every p, its recorded
backward (PdistBackwardBackward0, whose derivative PyTorch refuses) and its errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run
from torch_compare import check_numerical, outcome
from transcripts import assert_same

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


# ---- pdist: the distances of each pair of rows i < j -------------------------------------

PDIST_PS = [2, 1, 0, 1.5, 0.5, 3, float("inf")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("p", PDIST_PS)
def test_pdist_has_torchs_bits_forward_and_backward(p, dtype):
    """Random shapes (2-12 rows, 1-60 columns: rows shorter and longer than a vector),
    repeated rows (distance 0), a random gradient: values and gradients bit for bit for
    p = 0, 1, 2 and inf (the sums in PyTorch's vector lanes, the gradient's terms added
    row by row as its kernel adds them); other p within float rounding."""
    draw = np.random.default_rng(int(10 * p) if p != float("inf") else 99)
    for _ in range(25):
        n, m = draw.integers(2, 13), draw.integers(1, 61)
        x = draw.standard_normal((n, m)).astype(dtype)
        x[draw.integers(n)] = x[0]  # (a repeated row: a distance of 0)
        grad = draw.standard_normal(n * (n - 1) // 2).astype(dtype)
        results = []
        for lib in (torch, mg):
            t = lib.tensor(x, requires_grad=True)
            d = lib.pdist(t, p)
            d.backward(lib.tensor(grad))
            results.append((d.detach().numpy(), t.grad.numpy(), type(d.grad_fn).__name__))
        (ours, our_grad, our_node), (theirs, their_grad, their_node) = results[1], results[0]
        assert our_node == their_node == "PdistBackward0"
        if p in (0, 1, 2, float("inf")):
            np.testing.assert_array_equal(ours, theirs)
            np.testing.assert_array_equal(our_grad, their_grad)
        else:  # (PyTorch raises |x_i - x_j| to p with SLEEF's vectorised pow: an ulp or two)
            rtol = 1e-5 if dtype == np.float32 else 1e-13  # (the gradient's sums cancel:
            np.testing.assert_allclose(ours, theirs, rtol=rtol)  # an error of its terms' size)
            np.testing.assert_allclose(our_grad, their_grad, rtol=rtol,
                                       atol=rtol * np.abs(their_grad).max())


PDIST_LINES = [
    "x = torch.tensor([[0., 1.], [2., 4.], [5., 5.], [2., 4.]], requires_grad=True)\n"
    "d = torch.pdist(x)\nshow(d, torch.nn.functional.pdist(x, 1.5), d.grad_fn._saved_p)\n"
    "g, = torch.autograd.grad(d.sum(), x, create_graph=True)\nshow(g)\ng.sum().backward()",
    "torch.pdist(torch.ones(3, dtype=torch.long).reshape(3, 1))",
    "torch.pdist(torch.ones(3))",
    "torch.pdist(torch.ones(3, 2, dtype=torch.float16))",
    "torch.pdist(torch.ones(3, 2), p=-1)",
    "show(torch.pdist(torch.ones(1, 3)), torch.pdist(torch.ones(0, 3)), torch.pdist(torch.ones(3, 0)))\n"
    "show(torch.pdist(torch.ones(1, 2, dtype=torch.float16)), torch.pdist(torch.ones(3, 4).t()))",
]


@pytest.mark.parametrize("src", PDIST_LINES)
def test_pdist_prints_and_fails_as_torch(src):
    assert_same(src)


def test_pdist_gradients_against_finite_differences():
    check_numerical(lambda x: mg.pdist(x, 3.0), A.astype(np.float64))
    check_numerical(lambda x: mg.pdist(x), A.astype(np.float64))
