"""The LU factorization (ops/linalg_lu.py, kernels/linalg.py's getrf steps, rules/linalg.py)
against PyTorch 2.13, live: ``torch.linalg.lu_factor``, ``lu_factor_ex``, ``lu``,
``lu_solve`` and ``torch.lu_unpack`` on square, wide, tall and batched matrices: pivots
(1-based int32) equal, values to float rounding (and how many bits agree), gradients of
every output (LinalgLuFactorExBackward0, LinalgLuBackward0, LuUnpackBackward0,
LinalgLuSolveBackward0 with left/adjoint), printed results, errors, finite differences, and a
program that factors once and solves many times inside a fitting loop."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch

import minigrad
from minigrad.autograd import gradcheck
from tests.core.support.torch_compare import graph_of, outcome

SHAPES = [(4, 4), (2, 5), (5, 3), (3, 4, 4), (2, 3, 2, 5)]


def _matrix(shape, seed=0, dtype="float64"):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _close(ours, theirs, dtype):
    tolerance = 1e-12 if dtype == "float64" else 2e-5
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=tolerance,
                               atol=tolerance)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
def test_lu_factor_values_pivots_and_gradient(shape, dtype):
    found = []
    for lib in (minigrad, torch):
        A = lib.tensor(_matrix(shape, 1, dtype), requires_grad=True)
        LU, pivots, info = lib.linalg.lu_factor_ex(A)
        weights = lib.linspace(-1, 2, LU.numel(), dtype=LU.dtype).reshape(LU.shape)
        (LU * weights).sum().backward()
        found.append((LU.detach().numpy(), pivots.numpy(), info.numpy(), A.grad.numpy(),
                      type(LU.grad_fn).__name__, str(pivots.dtype), pivots.requires_grad,
                      sorted(a for a in dir(LU.grad_fn) if a.startswith("_saved"))))
    ours, theirs = found
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[2], theirs[2])
    assert ours[4:] == theirs[4:]
    _close(ours[0], theirs[0], dtype)
    _close(ours[3], theirs[3], dtype)


@pytest.mark.parametrize("shape", SHAPES)
def test_lu_and_lu_unpack_outputs_and_gradients(shape):
    found = []
    for lib in (minigrad, torch):
        A = lib.tensor(_matrix(shape, 2), requires_grad=True)
        P, L, U = lib.linalg.lu(A)
        LU, pivots = lib.linalg.lu_factor(A)
        P2, L2, U2 = lib.lu_unpack(LU, pivots)
        loss = (L * L.detach()).sum() + (U ** 2).sum() + (L2 * 3).sum() + U2.sum()
        loss.backward()
        found.append(([t.detach().numpy() for t in (P, L, U, P2, L2, U2)], A.grad.numpy(),
                      [type(t.grad_fn).__name__ for t in (P, L, U, P2, L2, U2)],
                      graph_of([L, U2], [A]), P.requires_grad))
    ours, theirs = found
    assert ours[2:] == theirs[2:]
    np.testing.assert_array_equal(ours[0][0], theirs[0][0])  # (P: ones and zeros)
    for a, b in zip(ours[0][1:], theirs[0][1:]):
        _close(a, b, "float64")
    _close(ours[1], theirs[1], "float64")


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("batched", [False, True])
def test_lu_solve_values_and_gradients(left, adjoint, batched):
    a_shape = (2, 4, 4) if batched else (4, 4)
    b_shape = (2, 4, 3) if left else (2, 3, 4)
    found = []
    for lib in (minigrad, torch):
        A = lib.tensor(_matrix(a_shape, 3), requires_grad=True)
        B = lib.tensor(_matrix(b_shape if batched else b_shape[1:], 4), requires_grad=True)
        LU, pivots = lib.linalg.lu_factor(A)
        X = lib.linalg.lu_solve(LU, pivots, B, left=left, adjoint=adjoint)
        weights = lib.linspace(-1, 2, X.numel(), dtype=X.dtype).reshape(X.shape)
        (X * weights).sum().backward()
        found.append((X.detach().numpy(), A.grad.numpy(), B.grad.numpy(), graph_of([X], [A, B]),
                      X.grad_fn._saved_left, X.grad_fn._saved_adjoint))
    ours, theirs = found
    assert ours[3:] == theirs[3:]
    for a, b in zip(ours[:3], theirs[:3]):
        _close(a, b, "float64")


def test_broadcast_right_hand_sides_and_empty_matrices():
    for call in (lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3) * 2),
                                                 lib.ones(2, 3, 1)),
                 lambda lib: lib.linalg.lu_factor(lib.zeros(0, 0)),
                 lambda lib: lib.linalg.lu_factor(lib.zeros(2, 0, 3)),
                 lambda lib: lib.lu_unpack(*lib.linalg.lu_factor(lib.eye(2)), unpack_data=False,
                                           unpack_pivots=False),
                 lambda lib: lib.linalg.lu_factor_ex(lib.zeros(2, 2)),
                 lambda lib: lib.linalg.lu(lib.tensor([[0.0, 1.0], [2.0, 3.0]]))):
        assert outcome(call, minigrad) == outcome(call, torch)


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3)])
def test_gradients_against_finite_differences(shape):
    A = minigrad.tensor(_matrix(shape, 5), requires_grad=True)
    assert gradcheck(lambda a: minigrad.linalg.lu_factor(a).LU, (A,))
    assert gradcheck(lambda a: minigrad.linalg.lu(a)[1:], (A,))
    if shape[0] == shape[1]:
        B = _matrix((4, 2), 6)
        for left, adjoint in ((True, False), (True, True), (False, False), (False, True)):
            rhs = minigrad.tensor(B if left else B.T.copy(), requires_grad=True)

            def solve(a, b):
                return minigrad.linalg.lu_solve(*minigrad.linalg.lu_factor(a), b, left=left,
                                                adjoint=adjoint)
            assert gradcheck(solve, (A, rhs))


def test_values_bits_agreement_is_measured():
    """getrf's unblocked steps (minigrad) against MKL's blocked getrf (PyTorch): pivots
    always equal on random matrices; most LU values bit-equal, the rest within rounding."""
    equal = total = 0
    for seed in range(40):
        A = _matrix((6, 6), 100 + seed)
        ours = minigrad.linalg.lu_factor(minigrad.tensor(A))
        theirs = torch.linalg.lu_factor(torch.tensor(A))
        np.testing.assert_array_equal(ours.pivots.numpy(), theirs.pivots.numpy())
        equal += int((ours.LU.numpy() == theirs.LU.numpy()).sum())
        total += A.size
        _close(ours.LU.numpy(), theirs.LU.numpy(), "float64")
    assert equal / total > 0.5


BAD = {
    "1-d": lambda lib: lib.linalg.lu_factor(lib.ones(3)),
    "1-d, ex": lambda lib: lib.linalg.lu_factor_ex(lib.ones(3)),
    "1-d, lu": lambda lib: lib.linalg.lu(lib.ones(3)),
    "no pivoting": lambda lib: lib.linalg.lu_factor(lib.ones(3, 3), pivot=False),
    "no pivoting, lu": lambda lib: lib.linalg.lu(lib.ones(3, 3), pivot=False),
    "integers": lambda lib: lib.linalg.lu_factor(lib.ones(3, 3, dtype=lib.long)),
    "half": lambda lib: lib.linalg.lu(lib.ones(3, 3, dtype=lib.float16)),
    "singular": lambda lib: lib.linalg.lu_factor(lib.zeros(2, 2)),
    "singular wide": lambda lib: lib.linalg.lu_factor(lib.zeros(2, 3)),
    "singular in a batch": lambda lib: lib.linalg.lu_factor(lib.stack([lib.eye(2),
                                                                       lib.zeros(2, 2)])),
    "check_errors": lambda lib: lib.linalg.lu_factor_ex(lib.zeros(2, 2), check_errors=True),
    "unpack 1-d": lambda lib: lib.lu_unpack(lib.ones(3), lib.ones(3, dtype=lib.int32)),
    "unpack int64 pivots": lambda lib: lib.lu_unpack(lib.eye(3), lib.ones(3, dtype=lib.long)),
    "solve non-square": lambda lib: lib.linalg.lu_solve(lib.zeros(2, 3), lib.ones(2, dtype=lib.int32),
                                                        lib.zeros(2, 1)),
    "solve rows": lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)), lib.zeros(2, 1)),
    "solve columns": lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)),
                                                     lib.zeros(2, 2), left=False),
    "solve pivots dtype": lambda lib: lib.linalg.lu_solve(lib.linalg.lu_factor(lib.eye(3))[0],
                                                          lib.ones(3, dtype=lib.long), lib.zeros(3, 1)),
    "solve dtypes": lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)),
                                                    lib.zeros(3, 1, dtype=lib.float64)),
    "solve 1-d B": lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(lib.eye(3)), lib.zeros(3)),
    "solve pivots count": lambda lib: lib.linalg.lu_solve(lib.eye(3), lib.ones(2, dtype=lib.int32),
                                                          lib.zeros(3, 1)),
    "solve integer LU": lambda lib: lib.linalg.lu_solve(lib.ones(3, 3, dtype=lib.long),
                                                        lib.ones(3, dtype=lib.int32),
                                                        lib.ones(3, 1, dtype=lib.long)),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_errors_as_pytorchs(name):
    assert outcome(BAD[name], minigrad) == outcome(BAD[name], torch)


def test_printed_results_as_pytorchs():
    for call in (lambda lib: lib.linalg.lu_factor(lib.tensor([[1.0, 2.0], [3.0, 4.0]])),
                 lambda lib: lib.linalg.lu_factor_ex(lib.tensor([[1.0, 2.0], [3.0, 4.0]])),
                 lambda lib: lib.linalg.lu(lib.tensor([[1.0, 2.0, 0.5], [3.0, 4.0, 1.0]])),
                 lambda lib: lib.lu_unpack(*lib.linalg.lu_factor(lib.tensor([[1.0, 2.0],
                                                                            [3.0, 4.0]])))):
        assert outcome(call, minigrad) == outcome(call, torch)


def test_factor_once_solve_many_in_a_fitting_loop():
    """A program: the parameters of a linear map W are fitted so that W's solves of fixed
    right-hand sides hit targets, the LU taken once per step and reused for two solves
    (A X = B and A^T Y = C); Adam from the same start both ways (float64)."""
    rng = np.random.default_rng(7)
    W0 = np.eye(4) * 3 + rng.standard_normal((4, 4)) * 0.3
    B, C, target = (rng.standard_normal((4, 2)) for _ in range(3))
    losses = []
    for lib in (minigrad, torch):
        W = lib.tensor(W0, requires_grad=True)
        opt = lib.optim.Adam([W], lr=0.05)
        found = []
        for _ in range(10):
            LU, pivots = lib.linalg.lu_factor(W)
            X = lib.linalg.lu_solve(LU, pivots, lib.tensor(B))
            Y = lib.linalg.lu_solve(LU, pivots, lib.tensor(C), adjoint=True)
            loss = ((X - lib.tensor(target)) ** 2).sum() + (Y ** 2).sum() * 0.1
            opt.zero_grad()
            loss.backward()
            opt.step()
            found.append(loss.item())
        losses.append(found)
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-11)
    assert losses[0][-1] < losses[0][0]


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3)])
def test_second_derivatives_as_pytorchs(shape):
    """create_graph=True: the gradients are recorded (with minigrad's ops) and differentiate
    again to PyTorch's values."""
    found = []
    for lib in (minigrad, torch):
        A = lib.tensor(_matrix(shape, 8), requires_grad=True)
        P, L, U = lib.linalg.lu(A)
        LU, pivots = lib.linalg.lu_factor(A)
        loss = (L ** 3).sum() + (U ** 3).sum() + (LU ** 3).sum()
        if shape[0] == shape[1]:
            loss = loss + (lib.linalg.lu_solve(LU, pivots, A, adjoint=True) ** 2).sum()
        grad, = lib.autograd.grad(loss, A, create_graph=True)
        second, = lib.autograd.grad((grad ** 2).sum(), A)
        found.append((grad.detach().numpy(), second.numpy()))
    for a, b in zip(*found):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)


def test_out_arguments_as_pytorchs():
    def run(lib):
        A = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        LU, pivots = lib.empty(0), lib.empty(0, dtype=lib.int32)
        P, L, U, X = lib.empty(0), lib.empty(0), lib.empty(0), lib.empty(0)
        shown = [lib.linalg.lu_factor(A, out=(LU, pivots)), LU, pivots,
                 lib.linalg.lu(A, out=(P, L, U)), P,
                 lib.linalg.lu_solve(LU, pivots, lib.ones(2, 1), out=X), X,
                 lib.lu_unpack(LU, pivots, out=(P, L, U))]
        return [repr(value) for value in shown]
    assert run(minigrad) == run(torch)


def test_deprecated_lu_and_lu_solve_as_pytorchs():
    """torch.lu, Tensor.lu, torch.lu_solve and Tensor.lu_solve: the same results (plain tuples,
    or _lu_with_info's with get_infos; no error for a singular A) and PyTorch's warnings,
    each once a process (the check runs each in a new process)."""
    program = (
        "import sys, warnings\ntorch = __import__(sys.argv[1])\n"
        "A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    print(A.lu(), torch.lu(A), torch.lu(A, get_infos=True), A.lu(get_infos=True))\n"
        "    LU, piv = torch.linalg.lu_factor(A)\n"
        "    print(torch.ones(2, 1).lu_solve(LU, piv), torch.lu_solve(torch.ones(2, 1), LU, piv))\n"
        "    print(torch.lu(torch.zeros(2, 2), get_infos=True), torch.zeros(2, 2).lu())\n"
        "for x in w: print(repr(str(x.message)), x.category.__name__)\n")
    outputs = [subprocess.run([sys.executable, "-c", program, name], capture_output=True,
                              text=True, check=True).stdout for name in ("minigrad", "torch")]
    assert outputs[0] == outputs[1]
    assert outputs[0].count("UserWarning") == 2


@pytest.mark.parametrize("used", ["L", "U"])
@pytest.mark.parametrize("shape", [(4, 4), (2, 5), (5, 3)])
def test_gradient_through_one_factor(shape, used):
    """Only L or only U reaches the loss (the other's gradient None), through linalg.lu and
    lu_unpack: PyTorch's zero blocks."""
    found = []
    for lib in (minigrad, torch):
        A = lib.tensor(_matrix(shape, 9), requires_grad=True)
        P, L, U = lib.linalg.lu(A)
        _, L2, U2 = lib.lu_unpack(*lib.linalg.lu_factor(A))
        chosen = (L, L2) if used == "L" else (U, U2)
        ((chosen[0] ** 2).sum() + (chosen[1] * 3).sum()).backward()
        found.append(A.grad.numpy())
    _close(found[0], found[1], "float64")
