"""torch.linalg (ops/linalg_module.py, rules/linalg.py, kernels/linalg.py) against PyTorch 2.13
and finite differences: vector, matrix and dispatching norms; inv, inv_ex, solve, det,
slogdet, logdet and the torch.* / Tensor names; lstsq, svd, svdvals, qr, eigh, cholesky,
pinv, matrix_power, cross, matmul, diagonal. Values (NumPy's LAPACK is OpenBLAS, PyTorch's
MKL: compared at tight tolerances, measured below), gradients, grad_fn names and graphs,
printed results (named tuples), and the errors with PyTorch's texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import (chain, check, check_double_backward, check_error, check_numerical,
                           mirror, outcome, rand)

F64 = dict(rtol=1e-12, atol=1e-12)
F32 = dict(rtol=1e-5, atol=1e-5)
TOLERANCE = {"float32": F32, "float64": F64}


def _well_conditioned(n, seed, batch=()):
    """A random n x n matrix with its diagonal lifted (condition number of a few)."""
    return rand(batch + (n, n), seed=seed, dtype="float64") + 3 * np.eye(n)


def _spd(n, seed, batch=()):
    a = rand(batch + (n, n), seed=seed, dtype="float64")
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _first(result):
    """The first output of a named tuple (the tensor its graph starts from)."""
    return result[0] if isinstance(result, tuple) else result


# ---- norms ---------------------------------------------------------------------------------

X = rand((3, 4), seed=1, away_from=[0])
VECTOR_NORMS = {
    "vector_norm": lambda lib, x: lib.linalg.vector_norm(x),
    "ord 1": lambda lib, x: lib.linalg.vector_norm(x, 1),
    "ord inf": lambda lib, x: lib.linalg.vector_norm(x, float("inf")),
    "ord -inf": lambda lib, x: lib.linalg.vector_norm(x, float("-inf")),
    "ord 0": lambda lib, x: lib.linalg.vector_norm(x, 0) * x.sum(),
    "ord 3 dim": lambda lib, x: lib.linalg.vector_norm(x, 3, dim=1),
    "ord 0.5 keepdim": lambda lib, x: lib.linalg.vector_norm(x, 0.5, dim=0, keepdim=True),
    "ord -2 dims": lambda lib, x: lib.linalg.vector_norm(x, -2, dim=(0, 1)),
    "ord inf dim -1": lambda lib, x: lib.linalg.vector_norm(x, float("inf"), dim=-1),
    "dtype float64": lambda lib, x: lib.linalg.vector_norm(x, dtype=lib.float64),
    "norm": lambda lib, x: lib.linalg.norm(x),
    "norm dim": lambda lib, x: lib.linalg.norm(x, dim=1),
    "norm ord dim": lambda lib, x: lib.linalg.norm(x, 1, dim=0),
    "norm fro": lambda lib, x: lib.linalg.norm(x, "fro"),
    "norm nuc": lambda lib, x: lib.linalg.norm(x, "nuc"),
    "norm 2": lambda lib, x: lib.linalg.norm(x, 2),
    "norm -2": lambda lib, x: lib.linalg.norm(x, -2),
    "norm 1": lambda lib, x: lib.linalg.norm(x, 1),
    "norm -1": lambda lib, x: lib.linalg.norm(x, -1),
    "norm inf": lambda lib, x: lib.linalg.norm(x, float("inf")),
    "norm -inf": lambda lib, x: lib.linalg.norm(x, float("-inf")),
    "norm of a vector with ord": lambda lib, x: lib.linalg.norm(x[0], 3),
    "norm dim pair": lambda lib, x: lib.linalg.norm(x, dim=(1, 0)),
    "matrix_norm": lambda lib, x: lib.linalg.matrix_norm(x),
    "matrix_norm nuc dims swapped": lambda lib, x: lib.linalg.matrix_norm(x, "nuc", dim=(1, 0)),
    "matrix_norm 2 keepdim": lambda lib, x: lib.linalg.matrix_norm(x, 2, keepdim=True),
    "matrix_norm 1 keepdim": lambda lib, x: lib.linalg.matrix_norm(x, 1, keepdim=True),
    "matrix_norm -inf dims": lambda lib, x: lib.linalg.matrix_norm(x, float("-inf"), dim=(1, 0)),
    "batched matrix_norm": lambda lib, x: lib.linalg.matrix_norm(x.reshape(2, 3, 2), "nuc"),
    "batched matrix_norm 1": lambda lib, x: lib.linalg.matrix_norm(x.reshape(2, 3, 2), -1,
                                                                  dim=(0, 2)),
    "Tensor.norm still": lambda lib, x: x.norm(dim=1),
    "Tensor.norm nuc": lambda lib, x: x.norm(p="nuc"),
    "torch.norm nuc dims": lambda lib, x: lib.norm(x, "nuc", dim=(1, 0), keepdim=True),
    "torch.norm fro": lambda lib, x: lib.norm(x, "fro", dim=(0, 1)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(VECTOR_NORMS))
def test_norms_against_torch(name, dtype):
    ours, theirs = check(VECTOR_NORMS[name], X.astype(dtype), **TOLERANCE[dtype])
    assert chain(ours) == chain(theirs)
    if dtype == "float64":
        check_numerical(lambda x: VECTOR_NORMS[name](mg, x), X)


def test_vector_norm_saves_what_torch_saves():
    ours, theirs = mirror([X])
    for lib, x in ((mg, ours[0]), (torch, theirs[0])):
        node = lib.linalg.vector_norm(x, float("inf"), dim=-1).grad_fn
        assert (node._saved_ord, node._saved_dim, node._saved_keepdim) == \
            (float("inf"), (2**64 - 1,), False)


@pytest.mark.parametrize("ord", [2, 1, 3, 0.5, float("inf"), float("-inf")])
def test_the_zero_vector_has_gradient_zero(ord):
    """PyTorch's subgradient at 0: the zero vector's gradient is 0, not nan."""
    ours, theirs = mirror([np.zeros(3, np.float32)])
    for lib, x in ((mg, ours[0]), (torch, theirs[0])):
        lib.linalg.vector_norm(x, ord).backward()
    assert np.array_equal(ours[0].grad._data, theirs[0].grad.numpy(), equal_nan=True)
    assert repr(ours[0].grad) == repr(theirs[0].grad)


def test_gradient_clipping_by_the_global_norm():
    """torch.nn.utils.clip_grad_norm_'s arithmetic, written as a lesson writes it."""
    def clip(lib, w, b):
        loss = ((w * 3).sum() + (b ** 2).sum())
        grads = lib.autograd.grad(loss, [w, b])
        total = lib.linalg.vector_norm(lib.stack([lib.linalg.vector_norm(g) for g in grads]))
        return [g * (1.0 / (total + 1e-6)).clamp(max=1.0) for g in grads]
    ours, theirs = mirror([rand((3, 2), seed=4), rand((2,), seed=5)])
    for o, t in zip(clip(mg, *ours), clip(torch, *theirs)):
        assert repr(o) == repr(t)


NORM_ERRORS = {
    "integer": lambda lib, x: lib.linalg.vector_norm(x.long()),
    "integer norm": lambda lib, x: lib.linalg.norm(x.long()),
    "integer matrix_norm": lambda lib, x: lib.linalg.matrix_norm(x.long()),
    "matrix_norm of a vector": lambda lib, x: lib.linalg.matrix_norm(x[0]),
    "fro of a 3-D input": lambda lib, x: lib.linalg.norm(x.reshape(2, 3, 2), "fro"),
    "2 of a 3-D input": lambda lib, x: lib.linalg.norm(x.reshape(2, 3, 2), 2),
    "fro of a vector": lambda lib, x: lib.linalg.norm(x[0], "fro"),
    "nuc with one dim": lambda lib, x: lib.linalg.norm(x, "nuc", dim=0),
    "matrix order 3": lambda lib, x: lib.linalg.matrix_norm(x, 3),
    "norm order 3": lambda lib, x: lib.linalg.norm(x, 3),
    "str ord in vector_norm": lambda lib, x: lib.linalg.vector_norm(x, "fro"),
    "three dims": lambda lib, x: lib.linalg.norm(x.reshape(2, 3, 2), dim=(0, 1, 2)),
    "same dims": lambda lib, x: lib.linalg.matrix_norm(x, dim=(0, 0)),
    "repeated dims": lambda lib, x: lib.linalg.vector_norm(x, dim=(0, 0)),
    "inf of empty": lambda lib, x: lib.linalg.vector_norm(x[:0], float("inf")),
    "inf of an empty dim": lambda lib, x: lib.linalg.vector_norm(x[:0], float("inf"), dim=0),
    "-inf of empty": lambda lib, x: lib.linalg.vector_norm(x[:0], float("-inf")),
    "integer dtype": lambda lib, x: lib.linalg.vector_norm(x, dtype=lib.int64),
    "narrowing dtype": lambda lib, x: lib.linalg.vector_norm(x.double(), dtype=lib.float32),
    "dim out of range": lambda lib, x: lib.linalg.vector_norm(x, 2, dim=2),
    "torch.norm nuc of 3 dims": lambda lib, x: lib.norm(x.reshape(2, 3, 2), "nuc"),
    "torch.norm unknown p": lambda lib, x: x.norm(p="max"),
}


@pytest.mark.parametrize("name", list(NORM_ERRORS))
def test_norm_errors(name):
    check_error(NORM_ERRORS[name], X)


# ---- inverse, solve, det --------------------------------------------------------------------

A3 = _well_conditioned(3, seed=2)
B3 = rand((3, 2), seed=3, dtype="float64")
BATCH = _well_conditioned(3, seed=4, batch=(2,))
SQUARE = {
    "linalg.inv": lambda lib, a: lib.linalg.inv(a),
    "inv_ex": lambda lib, a: lib.linalg.inv_ex(a),
    "torch.inverse": lambda lib, a: lib.inverse(a),
    "Tensor.inverse": lambda lib, a: a.inverse(),
    "linalg.det": lambda lib, a: lib.linalg.det(a),
    "torch.det": lambda lib, a: lib.det(a),
    "Tensor.det": lambda lib, a: a.det(),
    "slogdet": lambda lib, a: lib.linalg.slogdet(a),
    "torch.slogdet": lambda lib, a: lib.slogdet(a),
    "Tensor.slogdet": lambda lib, a: a.slogdet(),
    "logdet": lambda lib, a: lib.logdet(a @ a.mT),
    "Tensor.logdet": lambda lib, a: (a @ a.mT).logdet(),
    "matrix_power 0": lambda lib, a: lib.linalg.matrix_power(a, 0),
    "matrix_power 1": lambda lib, a: lib.linalg.matrix_power(a, 1),
    "matrix_power 3": lambda lib, a: lib.linalg.matrix_power(a, 3),
    "matrix_power 6": lambda lib, a: lib.matrix_power(a, 6),
    "matrix_power -2": lambda lib, a: a.matrix_power(-2),
    "pinv": lambda lib, a: lib.linalg.pinv(a),
    "cholesky": lambda lib, a: lib.linalg.cholesky(a @ a.mT),
    "cholesky upper": lambda lib, a: lib.linalg.cholesky(a @ a.mT, upper=True),
    "cholesky_ex": lambda lib, a: lib.linalg.cholesky_ex(a @ a.mT),
    "eigvalsh": lambda lib, a: lib.linalg.eigvalsh(a + a.mT),
    "svdvals": lambda lib, a: lib.linalg.svdvals(a),
    "diagonal": lambda lib, a: lib.linalg.diagonal(a, offset=1),
    "linalg.matrix_exp": lambda lib, a: lib.linalg.matrix_exp(a),
    "torch.matrix_exp": lambda lib, a: lib.matrix_exp(a / 8),
    "Tensor.matrix_exp": lambda lib, a: (a / 40).matrix_exp(),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(SQUARE))
def test_square_matrix_functions(name, dtype):
    tolerance = TOLERANCE[dtype] if dtype == "float32" else dict(rtol=1e-11, atol=1e-12)
    ours, theirs = check(SQUARE[name], A3.astype(dtype), **tolerance)
    assert chain(_first(ours)) == chain(_first(theirs))
    if dtype == "float64":
        check_numerical(lambda a: SQUARE[name](mg, a), A3)


@pytest.mark.parametrize("name", ["linalg.inv", "linalg.det", "slogdet", "logdet", "pinv",
                                  "cholesky", "svdvals", "matrix_power 3", "eigvalsh",
                                  "linalg.matrix_exp", "torch.matrix_exp"])
def test_batched(name):
    check(SQUARE[name], BATCH, rtol=1e-11, atol=1e-12)
    check_numerical(lambda a: SQUARE[name](mg, a), BATCH)


SOLVE = {
    "matrix": lambda lib, a, b: lib.linalg.solve(a, b),
    "vector": lambda lib, a, b: lib.linalg.solve(a, b[:, 0]),
    "left=False": lambda lib, a, b: lib.linalg.solve(a, b.mT, left=False),
    "batched A, one B": lambda lib, a, b: lib.linalg.solve(a.expand(2, 3, 3) * 1.0, b),
    "batched vectors": lambda lib, a, b: lib.linalg.solve(a.expand(4, 3, 3) * 1.0,
                                                          b[:, 0].expand(4, 3) * 1.0),
    "solve_ex": lambda lib, a, b: lib.linalg.solve_ex(a, b, check_errors=True),
    "lstsq solution": lambda lib, a, b: lib.linalg.lstsq(a, b).solution,
    "lstsq vector": lambda lib, a, b: lib.linalg.lstsq(a, b[:, 0]).solution,
    "lstsq tall": lambda lib, a, b: lib.linalg.lstsq(lib.cat([a, b.mT]), lib.cat([b, b[:2]])
                                                     ).solution,
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(SOLVE))
def test_solve_and_lstsq(name, dtype):
    tolerance = TOLERANCE[dtype] if dtype == "float32" else dict(rtol=1e-11, atol=1e-12)
    ours, theirs = check(SOLVE[name], A3.astype(dtype), B3.astype(dtype), **tolerance)
    assert chain(_first(ours)) == chain(_first(theirs))
    if dtype == "float64":
        check_numerical(lambda a, b: SOLVE[name](mg, a, b), A3, B3)


def test_the_inverse_is_an_inverse_and_its_gradient_reads_as_the_derivative():
    a, = mirror([A3])[0]
    inverse = mg.linalg.inv(a)
    assert np.allclose(inverse._data @ A3, np.eye(3), atol=1e-14)
    weights = rand((3, 3), seed=9, dtype="float64")
    (inverse * mg.tensor(weights)).sum().backward()
    expected = -np.linalg.inv(A3).T @ weights @ np.linalg.inv(A3).T
    np.testing.assert_allclose(a.grad._data, expected, rtol=1e-12)


def test_det_gradient_at_a_singular_matrix_is_torchs_zero():
    """PyTorch 2.13 computes det's gradient as det(A) A^{-T}: 0 where det is exactly 0 (the
    true derivative, the cofactor matrix, is not: finite differences would say so)."""
    # ([[1, 2, 3], [4, 5, 6], [7, 8, 9]] is not such a case here: MKL's LU rounds its last
    # pivot to 0, the LU here to 1.1e-16, so det and its gradient are not 0; README)
    for singular in (np.array([[1.0, 2.0], [2.0, 4.0]]), np.zeros((3, 3)),
                     np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])):
        ours, _ = check(lambda lib, a: lib.linalg.det(a), singular, rtol=0, atol=1e-15)
        assert not ours.grad_fn.next_functions[0][0].variable.grad._data.any()


PRINTED = {
    "inv_ex": lambda lib, a: lib.linalg.inv_ex(a),
    "slogdet": lambda lib, a: lib.linalg.slogdet(a),
    "torch.slogdet": lambda lib, a: lib.slogdet(a),
    "slogdet negative": lambda lib, a: lib.linalg.slogdet(a * lib.tensor([[1.0], [-1.0]])),
    "logdet negative": lambda lib, a: lib.logdet(a * lib.tensor([[1.0], [-1.0]])),
    "det": lambda lib, a: lib.linalg.det(a),
    "inv": lambda lib, a: lib.linalg.inv(a),
    "solve": lambda lib, a: lib.linalg.solve(a, a[:, 0]),
    "solve_ex": lambda lib, a: lib.linalg.solve_ex(a, a[:, 0] + 1, left=True),
    "svd": lambda lib, a: lib.linalg.svd(a),
    "qr": lambda lib, a: lib.linalg.qr(a),
    "eigh": lambda lib, a: lib.linalg.eigh(a),
    "lstsq": lambda lib, a: lib.linalg.lstsq(a, a[:, :1] * 0.5 + 1),
    "cholesky": lambda lib, a: lib.linalg.cholesky(a),
    "matrix_power": lambda lib, a: lib.linalg.matrix_power(a, 5),
    "norms": lambda lib, a: [lib.linalg.norm(a, o) for o in (None, "nuc", 2, 1, -1)],
}


@pytest.mark.parametrize("name", list(PRINTED))
def test_printed_results(name):
    ours, theirs = mirror([np.array([[2.0, 1.0], [1.0, 3.0]])])
    assert repr(PRINTED[name](mg, ours[0])) == repr(PRINTED[name](torch, theirs[0]))


SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)
SINGULAR3 = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], np.float32)
SQUARE_ERRORS = {
    "singular": lambda lib, a: lib.linalg.inv(a),
    "inverse singular": lambda lib, a: lib.inverse(a),
    "inv_ex check_errors": lambda lib, a: lib.linalg.inv_ex(a, check_errors=True),
    "singular in a batch": lambda lib, a: lib.linalg.inv(lib.stack([lib.eye(2), a])),
    "zeros": lambda lib, a: lib.linalg.inv(lib.zeros(3, 3)),
    "not square": lambda lib, a: lib.linalg.inv(lib.ones(2, 3)),
    "integer": lambda lib, a: lib.linalg.inv(a.long()),
    "a vector": lambda lib, a: lib.linalg.inv(a[0]),
    "half": lambda lib, a: lib.linalg.inv(a.half()),
    "det not square": lambda lib, a: lib.linalg.det(lib.ones(2, 3)),
    "det integer": lambda lib, a: lib.det(a.long()),
    "det vector": lambda lib, a: lib.linalg.det(a[0]),
    "det half": lambda lib, a: lib.linalg.det(a.half()),
    "slogdet integer": lambda lib, a: lib.linalg.slogdet(a.long()),
    "logdet integer": lambda lib, a: lib.logdet(a.long()),
    "slogdet not square": lambda lib, a: lib.linalg.slogdet(lib.ones(2, 3)),
    "solve singular": lambda lib, a: lib.linalg.solve(a, lib.ones(2)),
    "solve singular in a batch": lambda lib, a: lib.linalg.solve(lib.stack([lib.eye(2), a]),
                                                                 lib.ones(2)),
    "solve_ex check_errors": lambda lib, a: lib.linalg.solve_ex(lib.stack([lib.eye(2), a]),
                                                                lib.ones(2), check_errors=True),
    "solve not square": lambda lib, a: lib.linalg.solve(lib.ones(2, 3), lib.ones(2)),
    "solve integer": lambda lib, a: lib.linalg.solve(a.long(), a.long()),
    "solve shapes": lambda lib, a: lib.linalg.solve(lib.eye(2), lib.ones(3)),
    "solve matrix shapes": lambda lib, a: lib.linalg.solve(lib.eye(2), lib.ones(3, 2)),
    "solve left=False shapes": lambda lib, a: lib.linalg.solve(lib.eye(2), lib.ones(2, 3),
                                                               left=False),
    "solve dtypes": lambda lib, a: lib.linalg.solve(lib.eye(2), a[0].double()),
    "cholesky": lambda lib, a: lib.linalg.cholesky(a),
    "cholesky negative": lambda lib, a: lib.linalg.cholesky(-lib.eye(3)),
    "cholesky batch": lambda lib, a: lib.linalg.cholesky(lib.stack([lib.eye(2), -lib.eye(2)])),
    "cholesky vector": lambda lib, a: lib.linalg.cholesky(a[0]),
    "cholesky_ex check_errors": lambda lib, a: lib.linalg.cholesky_ex(
        lib.stack([lib.eye(2), a]), check_errors=True),
    "eigh not square": lambda lib, a: lib.linalg.eigh(lib.ones(2, 3)),
    "eigh UPLO": lambda lib, a: lib.linalg.eigh(a, UPLO="X"),
    "eigh half": lambda lib, a: lib.linalg.eigh(a.half()),
    "svd integer": lambda lib, a: lib.linalg.svd(a.long()),
    "svd vector": lambda lib, a: lib.linalg.svd(a[0]),
    "qr integer": lambda lib, a: lib.linalg.qr(a.long()),
    "qr mode": lambda lib, a: lib.linalg.qr(a, mode="x"),
    "lstsq rows": lambda lib, a: lib.linalg.lstsq(a, lib.ones(3, 1)),
    "lstsq vector": lambda lib, a: lib.linalg.lstsq(a[0], a[0]),
    "lstsq dtypes": lambda lib, a: lib.linalg.lstsq(a, a.double()),
    "matrix_power not square": lambda lib, a: lib.linalg.matrix_power(lib.ones(2, 3), 2),
    "matrix_power -1 integer": lambda lib, a: lib.linalg.matrix_power(a.long(), -1),
    "pinv integer": lambda lib, a: lib.linalg.pinv(a.long()),
    "pinv vector": lambda lib, a: lib.linalg.pinv(a[0]),
    "vecdot integer": lambda lib, a: lib.linalg.vecdot(a.long(), a.long()),
    "vecdot dtypes": lambda lib, a: lib.linalg.vecdot(a, a.double()),
    "matrix_exp vector": lambda lib, a: lib.linalg.matrix_exp(a[0]),
    "matrix_exp not square": lambda lib, a: lib.matrix_exp(lib.ones(2, 3)),
    "matrix_exp integer": lambda lib, a: a.long().matrix_exp(),
    "matrix_exp bool": lambda lib, a: lib.linalg.matrix_exp(a > 0),
}


@pytest.mark.parametrize("name", list(SQUARE_ERRORS))
def test_errors(name):
    check_error(SQUARE_ERRORS[name], SINGULAR, match_type=False)
    ours, theirs = mirror([SINGULAR])
    for lib, a in ((mg, ours[0]), (torch, theirs[0])):
        with pytest.raises(Exception) as caught:
            SQUARE_ERRORS[name](lib, a)
        name_of = type(caught.value).__name__
        if lib is torch:
            assert name_of == mine, (name_of, mine)
        mine = name_of


def test_the_singular_3x3_names_its_third_pivot():
    check_error(lambda lib, a: lib.linalg.inv(a), SINGULAR3, match_type=False)
    assert issubclass(mg.linalg.LinAlgError, RuntimeError)


def test_integer_matrix_power_multiplies_integers():
    ours, theirs = mirror([np.array([[1, 2], [3, 4]])])
    assert repr(mg.linalg.matrix_power(ours[0], 3)) == repr(torch.linalg.matrix_power(theirs[0], 3))


# ---- factorizations: invariants, torch's signs where the same routine gives them -------------

TALL = rand((4, 3), seed=6, dtype="float64")


def _same_up_to_signs(mine, theirs, axis):
    """Singular or eigen-vectors are fixed up to a sign each (MKL and OpenBLAS may choose
    differently): equal once each vector is signed like torch's."""
    signs = np.sign(np.sum(mine * theirs, axis=axis, keepdims=True))
    np.testing.assert_allclose(mine * signs, theirs, atol=1e-11)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 4, 3)])
@pytest.mark.parametrize("full_matrices", [False, True])
def test_svd_values_and_gradients(shape, full_matrices):
    a = rand(shape, seed=7, dtype="float64")
    ours, theirs = mirror([a])
    mine = mg.linalg.svd(ours[0], full_matrices)
    yours = torch.linalg.svd(theirs[0], full_matrices)
    k = min(shape[-2:])
    np.testing.assert_allclose(mine.S._data, yours.S.detach().numpy(), rtol=1e-13)
    reconstructed = (mine.U._data[..., :k] * mine.S._data[..., None, :]) @ mine.Vh._data[..., :k, :]
    np.testing.assert_allclose(reconstructed, a, atol=1e-13)
    _same_up_to_signs(mine.U._data[..., :k], yours.U.detach().numpy()[..., :k], axis=-2)
    _same_up_to_signs(mine.Vh._data[..., :k, :], yours.Vh.detach().numpy()[..., :k, :], axis=-1)

    def loss(lib, x):  # (every term independent of the vectors' signs)
        U, S, Vh = lib.linalg.svd(x, full_matrices)
        weights = lib.arange(1.0, k + 1, dtype=lib.float64)
        return ((U[..., :k] * (S * weights).unsqueeze(-2)) @ Vh[..., :k, :] + S.sum()
                + (U[..., :k] ** 2).sum() * 0 + (Vh[..., :k, :] ** 2 * weights.unsqueeze(-1)).sum())
    # (batched: torch's batched matmul records ReshapeAliasBackward0 where minigrad's
    # ViewBackward0, ops/linalg.py's matmul, not this module)
    check(loss, a, rtol=1e-10, atol=1e-10, graph=len(shape) == 2)
    check_numerical(lambda x: loss(mg, x), a)


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 4), (2, 4, 3)])
def test_qr_values_and_gradients(shape):
    """geqrf's Householder reflections: the same Q and R as torch's (signs included)."""
    a = rand(shape, seed=8, dtype="float64")
    check(lambda lib, x: lib.linalg.qr(x), a, rtol=1e-12, atol=1e-12)
    check_numerical(lambda x: mg.linalg.qr(x), a)
    wide = shape[-2] <= shape[-1]
    check(lambda lib, x: lib.linalg.qr(x, mode="complete"), a, rtol=1e-12, atol=1e-12,
          backward=wide)


def test_qr_modes_and_their_errors():
    check(lambda lib, x: lib.linalg.qr(x, mode="r"), TALL, backward=False)
    check_error(lambda lib, x: lib.linalg.qr(x, mode="r").R.sum().backward(), TALL)
    check_error(lambda lib, x: lib.linalg.qr(x, mode="complete").Q.sum().backward(), TALL)


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eigh_values_and_gradients(uplo, dtype):
    a = _spd(4, seed=9).astype(dtype)
    ours, theirs = mirror([a])
    mine, yours = mg.linalg.eigh(ours[0], uplo), torch.linalg.eigh(theirs[0], uplo)
    tolerance = TOLERANCE[dtype]
    np.testing.assert_allclose(mine.eigenvalues._data, yours.eigenvalues.detach().numpy(),
                               **tolerance)
    signs = np.sign(np.sum(mine.eigenvectors._data * yours.eigenvectors.detach().numpy(), 0))
    np.testing.assert_allclose(mine.eigenvectors._data * signs,
                               yours.eigenvectors.detach().numpy(), atol=1e-5 if
                               dtype == "float32" else 1e-11)

    def loss(lib, x):  # (independent of the eigenvectors' signs)
        L, V = lib.linalg.eigh(x, uplo)
        return (V * L.sqrt()) @ V.mT + (V ** 3 * V).sum(0) * lib.arange(4.0, dtype=x.dtype)
    check(loss, a, **tolerance)
    if dtype == "float64":
        check_numerical(lambda x: loss(mg, (x + x.mT) / 2), a)


def test_cholesky_gradient_and_pca_reconstruction():
    a = _spd(4, seed=10)
    check(lambda lib, x: lib.linalg.cholesky(x), a, rtol=1e-12, atol=1e-12)
    data = rand((20, 3), seed=11, dtype="float64")
    for lib in (mg, torch):
        x = lib.tensor(data)
        centred = x - x.mean(0)
        U, S, Vh = lib.linalg.svd(centred, full_matrices=False)
        projected = centred @ Vh[:2].mT
        assert tuple(projected.shape) == (20, 2)
    ours = mg.linalg.svd(mg.tensor(data) - mg.tensor(data).mean(0), full_matrices=False)
    theirs = torch.linalg.svd(torch.tensor(data) - torch.tensor(data).mean(0), full_matrices=False)
    np.testing.assert_allclose(np.abs(ours.Vh._data), np.abs(theirs.Vh.numpy()), atol=1e-12)


def test_orthogonal_init_with_qr():
    """nn.init.orthogonal_'s recipe: the Q of a random matrix, signs from R's diagonal."""
    a = rand((5, 3), seed=12)
    results = []
    for lib in (mg, torch):
        q, r = lib.linalg.qr(lib.tensor(a))
        q = q * lib.sign(lib.diagonal(r, 0, -2, -1))
        results.append(q.numpy() if lib is torch else q._data)
        np.testing.assert_allclose(results[-1].T @ results[-1], np.eye(3), atol=1e-5)
    np.testing.assert_allclose(results[0], results[1], **F32)


@pytest.mark.parametrize("case", ["full", "rank 1", "rank 2 of 4x3", "atol", "rtol",
                                  "hermitian", "batch", "float32"])
def test_matrix_rank(case):
    a = {"full": A3, "rank 1": np.ones((3, 3)), "rank 2 of 4x3": TALL[:, :2] @ TALL[:2, :],
         "atol": A3, "rtol": A3, "hermitian": _spd(3, 1) - 3 * np.eye(3), "batch": BATCH,
         "float32": A3.astype(np.float32)}[case]
    keywords = {"atol": dict(atol=3.0), "rtol": dict(rtol=0.5),
                "hermitian": dict(hermitian=True)}.get(case, {})
    check(lambda lib, x: lib.linalg.matrix_rank(x, **keywords), a, backward=False)


def test_cross_matmul_diagonal_vecdot():
    a, b = rand((4, 3), seed=13), rand((4, 3), seed=14)
    check(lambda lib, x, y: lib.linalg.vecdot(x, y), a, b)
    check(lambda lib, x, y: lib.linalg.vecdot(x, y, dim=0), a, b)
    check(lambda lib, x, y: lib.linalg.cross(x, y), a, b)
    check(lambda lib, x, y: lib.linalg.matmul(x, y.mT), a, b)
    check(lambda lib, x, y: lib.linalg.diagonal(x @ y.mT, offset=-1), a, b)


# ---- a program: least squares of a small regression, three ways ---------------------------


def test_least_squares_three_ways():
    """y = X w + noise: the normal equations with inv, with solve, and lstsq agree, in
    minigrad as in torch, and a few steps of gradient descent head to the same w."""
    rng = np.random.default_rng(0)
    features = np.c_[np.ones(30), rng.uniform(-1, 1, (30, 2))]
    targets = features @ np.array([0.5, -2.0, 3.0]) + 0.01 * rng.standard_normal(30)

    def program(lib):
        X, y = lib.tensor(features), lib.tensor(targets).unsqueeze(1)
        by_inverse = lib.linalg.inv(X.T @ X) @ X.T @ y
        by_solve = lib.linalg.solve(X.T @ X, X.T @ y)
        by_lstsq = lib.linalg.lstsq(X, y).solution
        w = lib.zeros(3, 1, dtype=lib.float64, requires_grad=True)
        for _ in range(50):
            loss = lib.linalg.vector_norm(X @ w - y) ** 2 / len(targets)
            loss.backward()
            with lib.no_grad():
                w -= 0.3 * w.grad
                w.grad.zero_()
        return by_inverse, by_solve, by_lstsq, w, loss

    ours, theirs = program(mg), program(torch)
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o.detach()._data, t.detach().numpy(), rtol=1e-10, atol=1e-12)
        assert repr(o) == repr(t)
    np.testing.assert_allclose(ours[0]._data, ours[2]._data, atol=1e-12)
    np.testing.assert_allclose(ours[1]._data, ours[2]._data, atol=1e-12)


def test_closeness_to_torch_measured():
    """The figures the README gives: the largest relative difference from PyTorch over 200
    random well-conditioned 6 x 6 float64 matrices, per function."""
    worst = {}
    for seed in range(200):
        a = _well_conditioned(6, seed=100 + seed)
        b = rand((6, 2), seed=seed, dtype="float64")
        ta, tb = torch.tensor(a), torch.tensor(b)
        pairs = {
            "inv": (mg.linalg.inv(mg.tensor(a))._data, torch.linalg.inv(ta).numpy()),
            "solve": (mg.linalg.solve(mg.tensor(a), mg.tensor(b))._data,
                      torch.linalg.solve(ta, tb).numpy()),
            "det": (mg.linalg.det(mg.tensor(a))._data, torch.linalg.det(ta).numpy()),
            "svdvals": (mg.linalg.svdvals(mg.tensor(a))._data, torch.linalg.svdvals(ta).numpy()),
            "lstsq": (mg.linalg.lstsq(mg.tensor(a), mg.tensor(b)).solution._data,
                      torch.linalg.lstsq(ta, tb).solution.numpy()),
        }
        for name, (mine, theirs) in pairs.items():
            scale = np.max(np.abs(theirs))
            worst[name] = max(worst.get(name, 0), float(np.max(np.abs(mine - theirs)) / scale))
    assert all(value < 1e-13 for value in worst.values()), worst


DOUBLE = {
    "inv": lambda lib, a, b: lib.linalg.inv(a),
    "solve": lambda lib, a, b: lib.linalg.solve(a, b),
    "det": lambda lib, a, b: lib.linalg.det(a),
    "vector_norm": lambda lib, a, b: lib.linalg.vector_norm(b, 3),
    "norm": lambda lib, a, b: lib.linalg.norm(a),
    "logdet": lambda lib, a, b: lib.logdet(a @ a.mT),
    "svdvals": lambda lib, a, b: lib.linalg.svdvals(a),
    "svd": lambda lib, a, b: (lambda u, s, vh: (u * s) @ vh)(*lib.linalg.svd(a)),
    "qr": lambda lib, a, b: lib.linalg.qr(a).R,
    "eigh eigenvalues": lambda lib, a, b: lib.linalg.eigh(a @ a.mT).eigenvalues,
    "cholesky": lambda lib, a, b: lib.linalg.cholesky(a @ a.mT),
    "lstsq": lambda lib, a, b: lib.linalg.lstsq(a, b).solution,
    "pinv": lambda lib, a, b: lib.linalg.pinv(a),
    "solve_triangular": lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=True),
    "eigh eigenvectors": lambda lib, a, b: (lambda L, V: (V * L) @ V.mT)(
        *lib.linalg.eigh(a @ a.mT)),
    "slogdet": lambda lib, a, b: lib.linalg.slogdet(a).logabsdet,
    "matrix_exp": lambda lib, a, b: lib.linalg.matrix_exp(a / 4),
}


@pytest.mark.parametrize("name", list(DOUBLE))
def test_second_derivatives(name):
    """create_graph=True: the backward formulas are recorded (they read as ops), and their
    own derivatives are torch's and the finite differences'."""
    check_double_backward(DOUBLE[name], A3, B3, rtol=1e-9, atol=1e-10)


def test_out_and_its_named_tuples():
    pair = [lib.slogdet(lib.tensor(A3), out=(lib.empty(0, dtype=lib.float64),
                                             lib.empty(0, dtype=lib.float64)))
            for lib in (mg, torch)]
    assert repr(pair[0]) == repr(pair[1])
    results = [lib.linalg.svd(lib.tensor(A3), out=tuple(lib.empty(0, dtype=lib.float64)
                                                        for _ in range(3))).S
               for lib in (mg, torch)]
    np.testing.assert_allclose(results[0]._data, results[1].numpy(), rtol=1e-13)
    results = [lib.linalg.inv(lib.tensor(A3), out=lib.empty(0, dtype=lib.float64))
               for lib in (mg, torch)]
    assert repr(results[0]) == repr(results[1])


KEYWORDS = {  # (PyTorch's parameter names, which are not always A and B)
    "vector_norm": lambda lib, a, b: lib.linalg.vector_norm(x=b, ord=3, dim=0, keepdim=True,
                                                            dtype=lib.float64),
    "matrix_norm": lambda lib, a, b: lib.linalg.matrix_norm(input=a, ord="nuc", dim=(0, 1)),
    "norm": lambda lib, a, b: lib.linalg.norm(input=a, ord=None, dim=None, keepdim=False),
    "inv": lambda lib, a, b: lib.linalg.inv(A=a),
    "inv_ex": lambda lib, a, b: lib.linalg.inv_ex(A=a, check_errors=True),
    "solve": lambda lib, a, b: lib.linalg.solve(A=a, B=b, left=True),
    "det": lambda lib, a, b: lib.linalg.det(A=a),
    "slogdet": lambda lib, a, b: lib.linalg.slogdet(A=a),
    "svd": lambda lib, a, b: lib.linalg.svd(A=a, full_matrices=False).S,
    "svdvals": lambda lib, a, b: lib.linalg.svdvals(A=a),
    "qr": lambda lib, a, b: lib.linalg.qr(A=a, mode="r"),
    "eigh": lambda lib, a, b: lib.linalg.eigh(input=a @ a.mT, UPLO="U").eigenvalues,
    "eigvalsh": lambda lib, a, b: lib.linalg.eigvalsh(input=a @ a.mT, UPLO="U"),
    "cholesky": lambda lib, a, b: lib.linalg.cholesky(input=a @ a.mT, upper=True),
    "pinv": lambda lib, a, b: lib.linalg.pinv(input=a, atol=None, rtol=None, hermitian=False),
    "pinv rcond": lambda lib, a, b: lib.linalg.pinv(a, 1e-3),
    "lstsq": lambda lib, a, b: lib.linalg.lstsq(input=a, b=b, rcond=None).solution,
    "matrix_power": lambda lib, a, b: lib.linalg.matrix_power(input=a, n=2),
    "cross": lambda lib, a, b: lib.linalg.cross(input=a, other=a, dim=0),
    "matmul": lambda lib, a, b: lib.linalg.matmul(input=a, other=b),
    "diagonal": lambda lib, a, b: lib.linalg.diagonal(A=a, offset=0, dim1=0, dim2=1),
    "matrix_rank": lambda lib, a, b: lib.linalg.matrix_rank(input=a, atol=None, rtol=None,
                                                            hermitian=False),
    "matrix_rank tol": lambda lib, a, b: lib.linalg.matrix_rank(a, 2.5, True),
    "vecdot": lambda lib, a, b: lib.linalg.vecdot(x=a, y=a, dim=0),
    "torch.inverse": lambda lib, a, b: lib.inverse(input=a),
    "torch.det": lambda lib, a, b: lib.det(input=a),
    "torch.logdet": lambda lib, a, b: lib.logdet(input=a @ a.mT),
    "torch.slogdet": lambda lib, a, b: lib.slogdet(input=a),
    "torch.matrix_power": lambda lib, a, b: lib.matrix_power(input=a, n=2),
}


@pytest.mark.parametrize("name", list(KEYWORDS))
def test_calls_by_pytorchs_keywords(name):
    check(KEYWORDS[name], A3, B3, rtol=1e-11, atol=1e-12, backward=False)


def test_unexpected_keywords_are_refused():
    for lib in (mg, torch):
        with pytest.raises(TypeError):
            lib.linalg.inv(A=lib.eye(2), upper=True)
        with pytest.raises(TypeError):
            lib.linalg.eigh(A=lib.eye(2))


LOWER = np.tril(A3)
TRIANGULAR = {
    "lower": lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=False),
    "upper": lambda lib, a, b: lib.linalg.solve_triangular(a.mT, b, upper=True),
    "reads one triangle": lambda lib, a, b: lib.linalg.solve_triangular(a + a.mT, b, upper=True),
    "unitriangular": lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=False,
                                                                   unitriangular=True),
    "left=False": lambda lib, a, b: lib.linalg.solve_triangular(a, b.mT, upper=False,
                                                                left=False),
    "upper left=False unit": lambda lib, a, b: lib.linalg.solve_triangular(
        a.mT, b.mT, upper=True, left=False, unitriangular=True),
    "batched": lambda lib, a, b: lib.linalg.solve_triangular(a.expand(2, 3, 3) * 1.0, b,
                                                             upper=False),
    "cholesky solve": lambda lib, a, b: (lambda L: lib.linalg.solve_triangular(
        L.mT, lib.linalg.solve_triangular(L, b, upper=False), upper=True))(
        lib.linalg.cholesky(a @ a.mT)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(TRIANGULAR))
def test_solve_triangular(name, dtype):
    tolerance = TOLERANCE[dtype] if dtype == "float32" else dict(rtol=1e-12, atol=1e-13)
    ours, theirs = check(TRIANGULAR[name], LOWER.astype(dtype), B3.astype(dtype), **tolerance)
    assert chain(ours) == chain(theirs)
    if dtype == "float64":
        check_numerical(lambda a, b: TRIANGULAR[name](mg, a, b), LOWER, B3)


@pytest.mark.parametrize("call", [
    lambda lib, a: lib.linalg.solve_triangular(a, lib.ones(2, 2), upper=False),
    lambda lib, a: lib.linalg.solve_triangular(a, lib.ones(2, 2), upper=False, left=False),
    lambda lib, a: lib.linalg.solve_triangular(a, lib.ones(3), upper=False),
    lambda lib, a: lib.linalg.solve_triangular(a.long(), lib.ones(3, 2).long(), upper=False),
    lambda lib, a: lib.linalg.solve_triangular(lib.ones(2, 3), lib.ones(3, 2), upper=False),
    lambda lib, a: lib.linalg.solve_triangular(a, lib.ones(3, 2)),
])
def test_solve_triangular_errors(call):
    check_error(call, LOWER.astype(np.float32))


def test_solve_triangular_with_a_zero_on_the_diagonal_gives_infinities():
    check(lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=False),
          np.zeros((3, 3)), B3, backward=False)


@pytest.mark.parametrize("matrix", [-np.eye(2), np.array([[4.0, 2.0], [2.0, -3.0]]),
                                    np.array([[4.0, 2.0, 1.0], [2.0, 5.0, 3.0], [1.0, 3.0, 1.0]]),
                                    np.stack([np.eye(2), [[1.0, 2.0], [2.0, 1.0]]])])
def test_cholesky_ex_of_matrices_that_are_not_positive_definite(matrix):
    """potrf stops at the failing column: the same partial factor and info as torch's."""
    ours, theirs = mirror([matrix], requires_grad=False)
    assert repr(mg.linalg.cholesky_ex(ours[0])) == repr(torch.linalg.cholesky_ex(theirs[0]))
    assert repr(mg.linalg.cholesky_ex(ours[0], upper=True)) == \
        repr(torch.linalg.cholesky_ex(theirs[0], upper=True))


OLDER = {
    "torch.svd": lambda lib, a: (lambda r: (r.U * r.S) @ r.V.mT)(lib.svd(a)),
    "torch.svd some=False": lambda lib, a: (lambda r: r.S.sum() + r.V[:, :3].abs().sum())(
        lib.svd(a, some=False)),
    "Tensor.svd compute_uv=False": lambda lib, a: a.svd(compute_uv=False),
    "torch.pinverse": lambda lib, a: lib.pinverse(a),
    "Tensor.pinverse rcond": lambda lib, a: a.pinverse(rcond=0.5),
}


@pytest.mark.parametrize("name", list(OLDER))
def test_the_older_names(name):
    """torch.svd (U, S, V; V = Vh^T, TransposeBackward0) and torch.pinverse."""
    ours, theirs = check(OLDER[name], TALL, rtol=1e-11, atol=1e-12)
    assert chain(_first(ours)) == chain(_first(theirs))
    if "rcond" not in name:  # (PyTorch's pinv_backward is the derivative of the full
        check_numerical(lambda a: OLDER[name](mg, a), TALL)  # pseudo-inverse, not of a cut one)


def test_torch_svd_prints_its_named_tuple():
    ours, theirs = mirror([np.array([[2.0, 1.0], [1.0, 3.0]])])
    assert repr(mg.svd(ours[0])) == repr(torch.svd(theirs[0]))
    assert repr(ours[0].svd(compute_uv=False)) == repr(theirs[0].svd(compute_uv=False))


MULTI_DOT = {  # (shapes chosen so that each order is the cheapest once)
    "two": [(3, 4), (4, 5)],
    "three, (AB)C": [(3, 4), (4, 5), (5, 2)],
    "three, A(BC)": [(6, 5), (5, 4), (4, 1)],
    "three, equal costs": [(2, 2), (2, 2), (2, 2)],
    "vector first and last": [(3,), (3, 4), (4, 5), (5, 2), (2,)],
    "five": [(4, 10), (10, 3), (3, 12), (12, 5), (5, 2)],
}


@pytest.mark.parametrize("name", list(MULTI_DOT))
def test_multi_dot(name):
    arrays = [rand(shape, seed=20 + k, dtype="float64") for k, shape in enumerate(MULTI_DOT[name])]
    ours, theirs = check(lambda lib, *xs: lib.linalg.multi_dot(list(xs)), *arrays,
                         rtol=1e-12, atol=1e-12)
    assert chain(ours) == chain(theirs)


@pytest.mark.parametrize("shapes", [[(3, 4)], [(3, 4), (3, 4)], [(2, 3, 4), (4, 5)],
                                    [(3, 4), (1, 4, 5)], [(3, 4), (1, 4, 5), (5, 2)]])
def test_multi_dot_errors(shapes):
    arrays = [rand(shape, seed=1) for shape in shapes]
    check_error(lambda lib, *xs: lib.linalg.multi_dot(list(xs)), *arrays)
    check_error(lambda lib, x, *xs: lib.linalg.multi_dot([x.double(), *xs]),
                rand((3, 4), seed=2), rand((4, 5), seed=3))


EDGES = {
    "det 0x0": lambda lib: lib.linalg.det(lib.zeros(0, 0)),
    "inv 0x0": lambda lib: lib.linalg.inv(lib.zeros(0, 0)),
    "det 1x1": lambda lib: lib.linalg.det(lib.tensor([[3.0]])),
    "slogdet of no matrices": lambda lib: lib.linalg.slogdet(lib.zeros(0, 2, 2)),
    "norm of nothing": lambda lib: lib.linalg.vector_norm(lib.zeros(0)),
    "norm 0-dim": lambda lib: lib.linalg.vector_norm(lib.tensor(-3.0)),
    "norm dim list": lambda lib: lib.linalg.norm(lib.ones(2, 3), dim=[1]),
    "svdvals 0x3": lambda lib: lib.linalg.svdvals(lib.zeros(0, 3)),
    "eigh 1x1": lambda lib: lib.linalg.eigh(lib.tensor([[2.0]])),
    "qr complete tall": lambda lib: lib.linalg.qr(lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                                                  mode="complete"),
    "solve no columns": lambda lib: lib.linalg.solve(lib.eye(2), lib.zeros(2, 0)),
    "matrix_power batch": lambda lib: lib.linalg.matrix_power(lib.ones(2, 2, 2), 4),
    "matrix_norm dtype": lambda lib: lib.linalg.matrix_norm(lib.ones(2, 2), dtype=lib.float64),
    "vector_norm half": lambda lib: lib.linalg.vector_norm(lib.ones(3, dtype=lib.float16)),
    "norm keepdim": lambda lib: lib.linalg.norm(lib.ones(2, 3), keepdim=True),
    "norm ord keepdim": lambda lib: lib.linalg.norm(lib.ones(2, 3), 2, keepdim=True),
    "lstsq batch": lambda lib: lib.linalg.lstsq(lib.ones(2, 3, 2) + lib.eye(3, 2),
                                                lib.ones(2, 3, 1)),
    "no graph for a detached input": lambda lib: lib.linalg.det(
        lib.eye(2, requires_grad=True).detach()),
}


@pytest.mark.parametrize("name", list(EDGES))
def test_edge_cases_print_as_torchs(name):
    assert outcome(EDGES[name], mg) == outcome(EDGES[name], torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matrix_exp_at_every_degree_and_with_squaring(dtype):
    """Each Taylor degree (1, 2, 4, 8, 12, 18) is chosen by the 1-norm as PyTorch chooses
    it, and beyond degree 18's range the matrix is scaled and squared: across 1-norms from
    1e-9 to 100, PyTorch's values within float rounding (the products are OpenBLAS's, not
    MKL's: about 40 % of elements bit-equal), the identity at 0, exp(a) for 1 x 1."""
    tolerance = dict(rtol=2e-6, atol=1e-7) if dtype == "float32" else dict(rtol=2e-14,
                                                                          atol=1e-15)
    relative = 2e-6 if dtype == "float32" else 2e-14  # (of the largest element)
    rng = np.random.default_rng(5)
    for scale in (1e-9, 1e-5, 1e-3, 0.03, 0.2, 0.5, 1.0, 1.4, 2.5, 5.0, 20.0):
        a = (rng.standard_normal((6, 4, 4)) * scale / 4).astype(dtype)
        mine = mg.linalg.matrix_exp(mg.tensor(a)).numpy()
        theirs = torch.linalg.matrix_exp(torch.tensor(a)).numpy()
        assert np.abs(mine - theirs).max() <= relative * np.abs(theirs).max(), scale
    for a in (np.zeros((2, 3, 3), dtype), np.full((1, 1), 0.7, dtype), np.ones((0, 0), dtype)):
        check(lambda lib, x: lib.matrix_exp(x), a, **tolerance)


def test_matrix_exp_of_a_skew_matrix_is_orthogonal_and_its_gradient_is_torchs():
    """The parametrizations tutorial's use: exp of a skew-symmetric matrix is orthogonal."""
    skew = np.triu(rand((4, 4), seed=3, dtype="float64"), 1)
    skew = skew - skew.T
    q = mg.matrix_exp(mg.tensor(skew))
    np.testing.assert_allclose((q.mT @ q).numpy(), np.eye(4), atol=1e-14)
    check(lambda lib, a: lib.linalg.matrix_exp(a) @ lib.linalg.matrix_exp(-a), skew,
          rtol=1e-13, atol=1e-14)


ONE_ELEMENT_NORMS = {
    "huge, dim -1": lambda lib: lib.tensor([[3.0e38]]).norm(dim=-1),
    "huge, vector_norm": lambda lib: lib.linalg.vector_norm(lib.tensor([[3.0e38]]), dim=-1),
    "huge 0-dim": lambda lib: lib.tensor(3.0e38).norm(),
    "huge, p=3 over both dims": lambda lib: lib.tensor([[3.0e38]]).norm(p=3, dim=(0, 1)),
    "two huge: overflows": lambda lib: lib.tensor([[3.0e38, 3.0e38]]).norm(dim=-1),
    "cosine_similarity of huge values": lambda lib: lib.nn.functional.cosine_similarity(
        lib.tensor([[3.0e38], [-3.0e38]]), lib.tensor([[3.0e38], [3.0e38]]), dim=-1),
    "p=0": lambda lib: lib.tensor([[2.0]]).norm(p=0, dim=-1),
    "nan": lambda lib: lib.tensor([[float("nan")]]).norm(dim=-1),
    "float16 p=0.5": lambda lib: lib.tensor([[-2.5]], dtype=lib.float16).norm(p=0.5, dim=-1),
}


@pytest.mark.parametrize("name", sorted(ONE_ELEMENT_NORMS))
def test_norm_of_one_element_is_its_magnitude_as_torch(name):
    """A norm over one element is |x| itself in PyTorch: no square overflows (3e38 stays
    3e38, so cosine_similarity of huge values is 1, not 0) and no power rounds (p=3 or 0.5
    give |x| exactly; minigrad's 1-element p-norms were off by an ulp in a third to a half
    of random values). Found by the random programs, seeds 605103 and deep 20091."""
    seen = [repr(ONE_ELEMENT_NORMS[name](lib)).replace("minigrad", "torch") for lib in (torch, mg)]
    assert seen[0] == seen[1]


@pytest.mark.parametrize("p", [2, 3.0, 0.5, 1.5])
def test_one_element_p_norms_are_exact_as_torch(p):
    values = np.random.default_rng(0).standard_normal((1000, 1)).astype(np.float32)
    seen = [lib.tensor(values).norm(p=p, dim=-1).numpy() for lib in (torch, mg)]
    np.testing.assert_array_equal(seen[1], seen[0])


@pytest.mark.parametrize("p", [3.0, 0.5, 1.5, 2.5, -1.0, 4.0, 1.0, 2.0, float("inf"),
                               -float("inf"), 0.0])
def test_a_0_dim_norm_over_a_dim_given_takes_torchs_powers(p):
    """A 0-dim tensor's norm over a dim given (``x.norm(p, dim=-1)``, ``vector_norm(x, p,
    dim=0)``, ``pairwise_distance`` of 0-dim tensors: ``at::norm`` over dim -1) goes
    through PyTorch's p-norm kernel, |x| ** p then ** (1 / p), not the one-element |x| of a
    1-element tensor (nnf seeds 35448, 35618: 9.999995e-07 for 1e-06); over no dim, or
    dim=(), it is |x|. With p = inf or a negative p and a dim, minigrad raised an
    IndexError (its check for an empty dim read the 0-dim shape)."""
    values = np.random.default_rng(0).standard_normal(200).astype(np.float32) * 10.0 ** \
        np.random.default_rng(1).integers(-8, 8, 200)
    seen = []
    for lib in (torch, mg):
        got = []
        for v in values.tolist() + [0.0]:
            x = lib.tensor(v)
            got += [x.norm(p, dim=-1).item(), lib.linalg.vector_norm(x, p, dim=0).item(),
                    lib.linalg.vector_norm(x, p, dim=()).item(), x.norm(p).item(),
                    lib.nn.functional.pairwise_distance(x, lib.tensor(0.25), p=p).item()]
        seen.append(got)
    assert seen[1] == seen[0]


def test_lstsq_drivers_as_torch():
    """gelsd and gelss give A's singular values and, for a tall full-rank A, the residuals,
    gels no rank, and the rank has A's own batch shape (lstsq's docstring: tensor([2]))."""
    def program(lib):
        lib.manual_seed(0)
        A, B = lib.randn(1, 3, 3), lib.randn(2, 3, 3)
        said = [lib.linalg.lstsq(A, B, driver="gelsd").singular_values]
        A[:, 0].zero_()
        said.append(lib.linalg.lstsq(A, B).rank)
        tall, rhs = lib.randn(5, 3, dtype=lib.float64), lib.randn(5, 2, dtype=lib.float64)
        said += [lib.linalg.lstsq(tall, rhs, driver="gelsd").residuals,
                 lib.linalg.lstsq(tall, rhs, driver="gels").rank]
        return [repr(x) for x in said]
    assert program(mg) == program(torch)


LSTSQ_DRIVERS = [None, "gelsy", "gels", "gelsd", "gelss"]


@pytest.mark.parametrize("driver", LSTSQ_DRIVERS)
@pytest.mark.parametrize("shapes", [((2, 5, 3), (1, 5, 2)), ((4, 3), (4,)), ((3, 5), (3, 2)),
                                    ((2, 4, 4), (1, 4, 2))], ids=["tall", "vector", "wide", "square"])
def test_lstsq_each_driver_as_torch(driver, shapes):
    """Solutions, residuals, rank and singular values, and the gradients of the solution and
    of the residuals (differentiable, where the driver gives them), in float64."""
    a, b = (np.random.default_rng(len(s)).standard_normal(s) for s in shapes)
    said = []
    for lib in (mg, torch):
        A, B = (lib.tensor(v, requires_grad=True) for v in (a, b))
        result = lib.linalg.lstsq(A, B, driver=driver)
        total = result.solution.sum() + (result.residuals * 3).sum()
        total.backward()
        said.append([result.solution.detach().numpy(), result.residuals.detach().numpy(),
                     result.rank.numpy(), result.singular_values.numpy(),
                     A.grad.numpy(), B.grad.numpy(), result.residuals.requires_grad])
    for ours, theirs in zip(*said):
        if isinstance(theirs, np.ndarray):
            assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
            np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10)
        else:
            assert ours == theirs


@pytest.mark.parametrize("driver", ["gelsd", "gelss"])
def test_lstsq_of_a_rank_deficient_matrix_as_torch(driver):
    """No residuals where a rank is short; the minimum-norm solution of the SVD drivers.
    (gelsy's rank of such a matrix is not compared: PyTorch 2.13 passes LAPACK an
    uninitialised pivot array, at::empty in apply_lstsq, pytorch/pytorch#187411, whose
    nonzero garbage fixes columns in place, so its rank varies between runs: measured, a 5x3
    matrix with a zero first column had rank 0 in 168 of 200 calls and rank 2 in 32.
    gels raises LAPACK's error for it.)"""
    a = np.random.default_rng(5).standard_normal((6, 3)).astype(np.float32)
    a[:, 1] = 0
    b = np.random.default_rng(6).standard_normal((6, 2)).astype(np.float32)
    said = []
    for lib in (mg, torch):
        result = lib.linalg.lstsq(lib.tensor(a), lib.tensor(b), driver=driver)
        said.append([result.residuals.shape, result.rank.tolist(),
                     result.singular_values.numpy().round(4).tolist(),
                     None if driver == "gels" else result.solution.numpy().round(4).tolist()])
    assert said[0] == said[1]


LSTSQ_ERRORS = {
    "driver name": lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(3, 1), driver="qr"),
    "driver type": lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(3, 1), driver=1),
    "rows": lambda lib: lib.linalg.lstsq(lib.ones(3, 2), lib.ones(4, 1), driver="gelsd"),
}


@pytest.mark.parametrize("name", LSTSQ_ERRORS)
def test_lstsq_errors_as_torch(name):
    assert outcome(LSTSQ_ERRORS[name], mg) == outcome(LSTSQ_ERRORS[name], torch)


def _conditions(lib):
    """linalg.cond in every norm: values, node, the gradient (PyTorch's own error where
    its composition modifies the inverse it saved), a singular matrix's inf."""
    lib.manual_seed(0)
    A = lib.randn(2, 3, 3, dtype=lib.float64, requires_grad=True)
    singular = lib.tensor([[1., 2.], [2., 4.]], dtype=lib.float64)
    said = []
    for p in (None, 2, -2, "fro", "nuc", float("inf"), float("-inf"), 1, -1):
        c = lib.linalg.cond(A, p)
        try:
            g = lib.autograd.grad(c.sum(), A)[0].numpy().round(6).tolist()
        except RuntimeError as error:
            g = str(error)
        said.append((p, c.detach().numpy().round(8).tolist(), c.grad_fn.name(), g,
                     lib.linalg.cond(singular, p).item() if p not in (None, 2, -2, "nuc")
                     else None))
    return said


def test_cond_as_torch():
    assert _conditions(mg) == _conditions(torch)
