"""nn.utils.parametrizations.orthogonal against PyTorch 2.13: every orthogonal_map
(matrix_exp, cayley, householder, the default) with and without use_trivialization, on
square, tall and wide weights: the module's print, the orthogonal weight, its grad_fn, a
few SGD steps of a small program trained both ways, assigning a new weight, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from tests.core.support.torch_compare import outcome


def _program(lib, shape, orthogonal_map, use_trivialization):
    lib.manual_seed(0)
    layer = lib.nn.Linear(*shape).double()
    lib.nn.utils.parametrizations.orthogonal(layer, orthogonal_map=orthogonal_map,
                                             use_trivialization=use_trivialization)
    x = lib.randn(4, shape[0], dtype=lib.float64)
    opt = lib.optim.SGD(layer.parameters(), lr=0.1)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = layer(x).pow(2).sum()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    W = layer.weight
    gram = W.mT @ W if shape[1] >= shape[0] else W @ W.mT
    return repr(layer), type(W.grad_fn).__name__, W.detach().numpy(), gram.detach().numpy(), losses


@pytest.mark.parametrize("use_trivialization", [True, False])
@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder", None])
@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5)], ids=str)
def test_orthogonal_trains_as_torch(shape, orthogonal_map, use_trivialization):
    ours = _program(mg, shape, orthogonal_map, use_trivialization)
    theirs = _program(torch, shape, orthogonal_map, use_trivialization)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours[3], np.eye(len(ours[3])), atol=1e-12)
    np.testing.assert_allclose(ours[4], theirs[4], rtol=1e-10)


@pytest.mark.parametrize("call", [
    lambda lib: _assign(lib, "householder", False),
    lambda lib: _assign(lib, "matrix_exp", True),
    lambda lib: _assign(lib, "cayley", False),
    lambda lib: lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(3, 3), "bias"),
    lambda lib: lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(3, 3), "nothing"),
    lambda lib: lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(3, 3),
                                                         orthogonal_map="qr"),
    lambda lib: _assign(lib, "householder", True, shape=(2, 2)),
], ids=["assign-householder", "assign-trivialized", "assign-cayley-refused", "vector",
        "missing", "unknown-map", "wrong-shape"])
def test_assignment_and_errors(call):
    assert outcome(call, mg) == outcome(call, torch)


def _assign(lib, orthogonal_map, use_trivialization, shape=(4, 3)):
    """module.weight = Q: right_inverse stores what makes Q (geqrf's signs, or a base)."""
    lib.manual_seed(1)
    layer = lib.nn.Linear(3, 4).double()
    lib.nn.utils.parametrizations.orthogonal(layer, orthogonal_map=orthogonal_map,
                                             use_trivialization=use_trivialization)
    Q = lib.linalg.qr(lib.randn(*shape, dtype=lib.float64)).Q
    layer.weight = Q
    return [round(v, 10) for v in layer.weight.detach().reshape(-1).tolist()]
