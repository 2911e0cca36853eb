"""Functions PyTorch 2 removed (minigrad/removed.py): older tutorials call them, and get
PyTorch's RuntimeError naming the torch.linalg function that replaces each."""

from __future__ import annotations

import pytest
import torch

import minigrad

CALLS = {
    "torch.solve": lambda t, m: t.solve(m, m),
    "torch.eig": lambda t, m: t.eig(m, eigenvectors=True),
    "torch.symeig": lambda t, m: t.symeig(m),
    "torch.lstsq": lambda t, m: t.lstsq(m, m),
    "torch.matrix_rank": lambda t, m: t.matrix_rank(m),
    "Tensor.solve": lambda t, m: m.solve(m),
    "Tensor.eig": lambda t, m: m.eig(),
    "Tensor.symeig": lambda t, m: m.symeig(eigenvectors=True),
    "Tensor.lstsq": lambda t, m: m.lstsq(m),
}


def _error(library, call):
    try:
        call(library, library.eye(2))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize("name", list(CALLS))
def test_a_removed_function_raises_pytorchs_error(name):
    mine = _error(minigrad, CALLS[name])
    assert mine is not None and mine == _error(torch, CALLS[name])
