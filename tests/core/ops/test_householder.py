"""torch.geqrf (GeqrfBackward0, PyTorch's NotImplementedError for its derivative),
torch.linalg.householder_product / torch.orgqr (LinalgHouseholderProductBackward0: the
gradient by the chain rule through the reflectors, against PyTorch's and finite
differences), their printing and errors, against PyTorch 2.13."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_numerical, outcome

rng = np.random.default_rng(0)
SHAPES = [(5, 3), (4, 4), (2, 4, 4), (6, 2), (3, 1)]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_geqrf_and_householder_product_values(shape, dtype):
    """LAPACK's geqrf through NumPy's QR (raw mode): R and the reflectors within rounding
    of MKL's; their product, all reflectors or fewer, within rounding of orgqr's."""
    A = rng.standard_normal(shape).astype(dtype)
    ours, theirs = mg.geqrf(mg.tensor(A)), torch.geqrf(torch.tensor(A))
    tol = dict(rtol=1e-12, atol=1e-12) if dtype == "float64" else dict(rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.a.numpy(), theirs.a.numpy(), **tol)
    np.testing.assert_allclose(ours.tau.numpy(), theirs.tau.numpy(), **tol)
    for k in range(1, shape[-1] + 1):
        a, tau = theirs.a.numpy(), theirs.tau.numpy()[..., :k].copy()
        np.testing.assert_allclose(
            mg.linalg.householder_product(mg.tensor(a), mg.tensor(tau)).numpy(),
            torch.linalg.householder_product(torch.tensor(a), torch.tensor(tau)).numpy(), **tol)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_householder_product_gradients(shape):
    A = rng.standard_normal(shape)
    a, tau = (t.numpy() for t in torch.geqrf(torch.tensor(A)))
    for k in {1, shape[-1]}:
        taus = tau[..., :k].copy()
        check(lambda lib, a, t: lib.linalg.householder_product(a, t), a, taus,
              rtol=1e-12, atol=1e-12)
        check_numerical(lambda a, t: mg.linalg.householder_product(a, t), a, taus)
        check(lambda lib, a, t: lib.orgqr(a * 2, t) * a[..., :1], a, taus, rtol=1e-12,
              atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib: lib.geqrf(lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])),
    lambda lib: lib.tensor([[1.0, 2.0], [3.0, 4.0]]).geqrf().tau,
    lambda lib: lib.geqrf(lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)).a.sum().backward(),
    lambda lib: lib.geqrf(lib.ones(3)),
    lambda lib: lib.geqrf(lib.ones(2, 2, dtype=lib.int64)),
    lambda lib: lib.geqrf(lib.ones(2, 2, dtype=lib.float16)),
    lambda lib: lib.linalg.householder_product(lib.ones(3), lib.ones(1)),
    lambda lib: lib.linalg.householder_product(lib.ones(2, 3), lib.ones(1)),
    lambda lib: lib.linalg.householder_product(lib.ones(3, 2), lib.ones(3)),
    lambda lib: lib.linalg.householder_product(lib.ones(3, 2), lib.ones(2, 1)),
    lambda lib: lib.linalg.householder_product(lib.ones(2, 3, 2), lib.ones(3, 1)),
    lambda lib: lib.linalg.householder_product(lib.ones(3, 2), lib.ones(1, dtype=lib.float64)),
    lambda lib: lib.linalg.householder_product(lib.ones(3, 2, dtype=lib.int64),
                                               lib.ones(1, dtype=lib.int64)),
], ids=["print", "method", "no-derivative", "1-d", "long", "half", "hp-1-d", "hp-wide",
        "hp-tau-long", "hp-tau-dims", "hp-batch", "hp-dtypes", "hp-long"])
def test_printing_and_errors(call):
    assert outcome(call, mg) == outcome(call, torch)
