"""torch.linalg.tensorinv and tensorsolve (ops/linalg_tensor.py, rules/linalg.py) against
PyTorch 2.13 and finite differences: values, gradients, the graph below the final reshape,
``dims``, ``out=``, and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_error, check_numerical, graph_of, mirror, rand


def _invertible(shape, seed, ind=2):
    n = int(np.prod(shape[:ind]))
    a = rand((n, n), seed=seed, dtype="float64") + 3 * np.eye(n)
    return a.reshape(shape)


@pytest.mark.parametrize("shape, ind", [((4, 6, 8, 3), 2), ((6, 2, 3), 1), ((2, 3, 6), 2),
                                        ((5, 5), 1)])
def test_tensorinv_as_torch(shape, ind):
    """Values and gradients, and the graph under the last node. That node is PyTorch's
    ReshapeAliasBackward0 (LAPACK's inverse is column-major, and the reshape of it a
    strided view) where minigrad's is ViewBackward0 (its inverse is row-major): known, see
    the README of this session's report."""
    a = _invertible(shape, len(shape) + ind, ind)
    for dtype, tolerance in (("float64", 1e-10), ("float32", 1e-4)):
        ours_in, theirs_in = mirror([a.astype(dtype)])
        ours, theirs = (lib.linalg.tensorinv(x, ind=ind) for lib, x in
                        ((mg, ours_in[0]), (torch, theirs_in[0])))
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(),
                                   rtol=tolerance, atol=tolerance)
        assert ours.shape == theirs.shape and ours.dtype.itemsize == theirs.dtype.itemsize
        assert graph_of([ours], ours_in)[1:] == graph_of([theirs], theirs_in)[1:]
        grad = np.random.default_rng(0).standard_normal(tuple(ours.shape)).astype(dtype)
        ours.backward(mg.tensor(grad)), theirs.backward(torch.tensor(grad))
        np.testing.assert_allclose(ours_in[0].grad.numpy(), theirs_in[0].grad.numpy(),
                                   rtol=tolerance, atol=tolerance)
    check_numerical(lambda x: mg.linalg.tensorinv(x, ind=ind), a)


def test_tensorinv_is_the_inverse_of_tensordot():
    """The docstring's identity: tensordot(tensorinv(A), A, ind) is the identity."""
    def program(lib, x):
        inverse = lib.linalg.tensorinv(x, ind=2)
        return lib.tensordot(inverse, x, dims=2), inverse.grad_fn.next_functions[0][0].name()
    a = _invertible((4, 6, 8, 3), 1)
    (ours, ours_name), (theirs, theirs_name) = program(mg, mg.tensor(a, requires_grad=True)), \
        program(torch, torch.tensor(a, requires_grad=True))
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(ours.detach().numpy(), np.eye(24).reshape(8, 3, 8, 3), atol=1e-12)
    assert ours_name == theirs_name == "LinalgInvExBackward0"


@pytest.mark.parametrize("shape, other, dims", [((6, 4, 2, 3, 4), (6, 4), None),
                                                ((6, 4, 4, 3, 2), (4, 3, 2), (0, 2)),
                                                ((6, 4, 4, 3, 2), (4, 3, 2), [2, 0]),
                                                ((3, 3), (3,), None)])
def test_tensorsolve_as_torch(shape, other, dims):
    n = int(np.prod(other))
    a = (rand((n, n), seed=2, dtype="float64") + 3 * np.eye(n)).reshape(shape)
    b = rand(other, seed=3, dtype="float64")
    check(lambda lib, x, y: lib.linalg.tensorsolve(x, y, dims=dims), a, b, rtol=1e-10,
          atol=1e-10)
    check_numerical(lambda x, y: mg.linalg.tensorsolve(x, y, dims=dims), a, b)


def test_out_as_torch():
    a = _invertible((2, 2, 2, 2), 4)
    check(lambda lib, x: lib.linalg.tensorinv(x, ind=2, out=lib.empty(0, dtype=lib.float64)),
          a, backward=False, graph=False, requires_grad=False)
    check(lambda lib, x: lib.linalg.tensorsolve(x.reshape(4, 4), lib.ones(4, dtype=lib.float64),
                                                out=lib.empty(0, dtype=lib.float64)),
          a, backward=False, graph=False, requires_grad=False)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.linalg.tensorinv(x, ind=0),
    lambda lib, x: lib.linalg.tensorinv(x, ind=-1),
    lambda lib, x: lib.linalg.tensorinv(x, ind=1),
    lambda lib, x: lib.linalg.tensorinv(x, ind=5),
    lambda lib, x: lib.linalg.tensorinv(lib.zeros(2, 2), ind=1),
    lambda lib, x: lib.linalg.tensorinv(lib.ones(2, 2, dtype=lib.int64), ind=1),
    lambda lib, x: lib.linalg.tensorinv(lib.ones(3), ind=1),
    lambda lib, x: lib.linalg.tensorsolve(x, lib.ones(5)),
    lambda lib, x: lib.linalg.tensorsolve(x, lib.ones(3, 2), dims=(0, 9)),
    lambda lib, x: lib.linalg.tensorsolve(x, lib.ones(3, 2), dims=(0, 0)),
    lambda lib, x: lib.linalg.tensorsolve(lib.zeros(2, 2), lib.ones(2)),
])
def test_errors_as_torch(call):
    # (torch.linalg.LinAlgError is its own class in each library: compared by name and text)
    check_error(call, _invertible((4, 6, 8, 3), 5), match_type=False)
