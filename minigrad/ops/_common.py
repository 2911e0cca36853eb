"""Small helpers shared by the operation modules."""

from __future__ import annotations

import numpy as np

from .. import dtypes, errors
from ..autograd.broadcast import broadcast_shapes  # noqa: F401 (re-exported for the ops)

# How torch's C++ messages name dtypes ("expected ... but got: float != long int").
C_TYPE_NAMES = {
    dtypes.float16: "c10::Half", dtypes.float32: "float", dtypes.float64: "double",
    dtypes.uint8: "unsigned char", dtypes.int8: "signed char", dtypes.int16: "short int",
    dtypes.int32: "int", dtypes.int64: "long int", dtypes.bool: "bool",
}

__all__ = ["normalize_dim", "normalize_dims", "as_tensor", "is_tensor", "float_dtype_for",
           "broadcast_shapes", "is_number", "python_number"]

NUMBER_TYPES = (int, float, bool, np.number, np.bool_)


def is_number(value) -> bool:
    return isinstance(value, NUMBER_TYPES)


def is_tensor(value) -> bool:
    return isinstance(value, _tensor.Tensor)


def as_tensor(value, like=None):
    """``value`` as a Tensor (Python numbers and lists become constants)."""
    from ..tensor import Tensor

    if isinstance(value, Tensor):
        return value
    if isinstance(value, (int, float, bool, np.number, np.bool_)):
        return Tensor._scalar_operand(value) if like is None else \
            Tensor._make(np.array(value, like._data.dtype))
    from ..creation import tensor

    return tensor(value)


def python_number(value):
    """A NumPy scalar as the Python number PyTorch's parser reads it as (np.float32(2)
    is 2.0, np.int8(2) is 2, np.bool_(True) is 1.0: torch reads it as a float); a
    Python number as it is; None for anything else (None, a list, an array...)."""
    kind = type(value)
    if kind is int or kind is float or kind is bool:
        return value
    if isinstance(value, (np.floating, np.bool_)):
        return float(value)
    if isinstance(value, np.integer):
        return int(value)
    return None


def normalize_dim(dim: int, ndim: int) -> int:
    """A dimension in [0, ndim); negative counts from the end. 0-dim tensors
    accept 0 and -1, as in PyTorch."""
    dim = int(dim)
    limit = max(ndim, 1)
    if not -limit <= dim < limit:
        raise errors.dim_out_of_range(dim, ndim)
    return dim % limit


def normalize_dims(dim, ndim: int) -> tuple[int, ...]:
    """``dim`` (None, an int, or a sequence) as a sorted tuple of axes;
    None means every axis."""
    if isinstance(dim, (int, np.integer)) or is_tensor(dim):  # (a tensor: one integer)
        dim = (dim,)
    if dim is None or len(dim) == 0:  # PyTorch: an empty dim list means all of them
        return tuple(range(ndim))
    axes = tuple(sorted(normalize_dim(d, ndim) for d in dim))
    if len(set(axes)) != len(axes):
        raise RuntimeError(f"dim {axes[0]} appears multiple times in the list of dims")
    return tuple(a for a in axes if a < ndim)


def float_dtype_for(dtype: dtypes.dtype) -> dtypes.dtype:
    """Integer and bool inputs of float-only functions (exp, sqrt, /) give float32."""
    return dtype if dtype.is_floating_point else dtypes.get_default_dtype()


# At the bottom: tensor.py (the floor above) imports the ops.
from .. import tensor as _tensor  # noqa: E402
