"""Comparisons: ==, !=, <, <=, >, >= (and eq, ne, ...), isclose, allclose.

They return bool tensors and are not differentiable: a comparison's output
is piecewise constant, so its derivative is zero wherever it exists.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.broadcast import broadcast_shapes
from ._common import is_tensor

__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "isclose", "allclose"]


def _compare(ufunc, a, b):
    from ..tensor import Tensor

    if is_tensor(b):
        broadcast_shapes(a.shape, b.shape)
        dtype = dtypes.result_type(a, b)
        return Tensor._make(np.asarray(ufunc(a._data.astype(dtype.numpy, copy=False),
                                             b._data.astype(dtype.numpy, copy=False))))
    if isinstance(b, (int, float, bool, np.number, np.bool_)):
        return Tensor._make(np.asarray(ufunc(a._data, b)))
    return NotImplemented


def eq(a, b):
    return _compare(np.equal, a, b)


def ne(a, b):
    return _compare(np.not_equal, a, b)


def lt(a, b):
    return _compare(np.less, a, b)


def le(a, b):
    return _compare(np.less_equal, a, b)


def gt(a, b):
    return _compare(np.greater, a, b)


def ge(a, b):
    return _compare(np.greater_equal, a, b)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b|, elementwise."""
    from ..tensor import Tensor

    b_data = b._data if is_tensor(b) else b
    return Tensor._make(np.asarray(np.isclose(a._data, b_data, rtol, atol, equal_nan)))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """True when every element of ``a`` is close to ``b`` (see ``isclose``)."""
    if is_tensor(b) and a.dtype is not b.dtype:
        raise RuntimeError(
            f"{dtypes.SCALAR_NAMES[a.dtype]} did not match {dtypes.SCALAR_NAMES[b.dtype]}"
        )
    return bool(isclose(a, b, rtol, atol, equal_nan)._data.all())
