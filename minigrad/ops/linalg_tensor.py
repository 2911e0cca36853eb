"""``torch.linalg.tensorinv`` and ``tensorsolve``: a tensor seen as a square matrix, then
``inv`` or ``solve``, written with other ops as PyTorch writes them (``LinearAlgebra.cpp``),
so that their nodes are those ops' (``LinalgInvExBackward0`` under a reshape's,
``LinalgSolveExBackward0`` under a view's).

tensorinv(A, ind): A's first ``ind`` dims are the rows, the rest the columns; the inverse
has the columns' shape then the rows', so that ``tensordot(tensorinv(A), A, ind)`` is the
identity. tensorsolve(A, B, dims): X with ``tensordot(A, X, X.ndim) == B``, after ``dims``
of A are moved to its end."""

from __future__ import annotations

import math

from ..rules import linalg as rules
from . import aliases, linalg_module, shape


def tensorinv(A, ind: int = 2):
    rows, columns = rules.check_tensorinv(A.shape, ind)
    # (linalg.inv's checks; a singular matrix named as torch.inverse names it)
    inverse, info = linalg_module.inv_ex(shape.reshape(A, math.prod(rows), math.prod(columns)),
                                         name="linalg.inv")
    rules.check_info("inverse", "inv", info._data)
    return shape.reshape(inverse, *columns, *rows)


def tensorsolve(A, B, dims=None):
    if dims is not None:  # (moved to A's end, in their order)
        dims = list(dims)
        A = aliases.movedim(A, dims, list(range(A.ndim - len(dims), A.ndim)))
    result_shape = rules.check_tensorsolve(A.shape, B.ndim, B.numel())
    n = math.prod(result_shape)
    X = linalg_module.solve(shape.reshape(A, n, n), shape.flatten(B))
    return shape.reshape(X, *result_shape)
