"""PyTorch's type promotion around an op: which dtype a result gets, and how a Python
number beside a tensor is read (``x * 2`` keeps float32; ``torch.add(x, np.float32(2))``
reads the NumPy scalar as the Python number 2.0)."""

from __future__ import annotations

import numpy as np

from .. import dtypes


NUMBER_TYPES = (int, float, bool, np.number, np.bool_)


def is_number(value) -> bool:
    return isinstance(value, NUMBER_TYPES)


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


def float_dtype_for(dtype: dtypes.dtype) -> dtypes.dtype:
    """Integer and bool inputs of float-only functions (exp, sqrt, /) give float32."""
    return dtype if dtype.is_floating_point else dtypes.get_default_dtype()
