"""``torch.finfo`` and ``torch.iinfo``: the limits of a floating-point or integer dtype
(``torch.finfo(torch.float32).eps``, ``torch.iinfo(torch.int64).max``), with PyTorch's
attributes, printing and errors."""

from __future__ import annotations

import numpy as np

from . import dtypes

__all__ = ["finfo", "iinfo"]

# bfloat16 (a name only in minigrad): 8 exponent bits as float32, 7 mantissa bits
_BFLOAT16 = {"bits": 16, "eps": 2.0 ** -7, "max": 3.3895313892515355e+38,
             "tiny": 1.1754943508222875e-38, "resolution": 0.01}


class finfo:  # noqa: N801 (PyTorch's name)
    """Machine limits of a floating-point dtype (the default dtype if none is given)."""

    _cache: dict = {}

    def __new__(cls, type=None):  # noqa: A002 (PyTorch's parameter name)
        type = dtypes.get_default_dtype() if type is None else type
        if not (isinstance(type, dtypes.dtype) and type.is_floating_point):
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        if type.name not in cls._cache:
            info = object.__new__(cls)
            if type.name == "bfloat16":
                limits = _BFLOAT16
            else:
                np_info = np.finfo(type.numpy)
                limits = {"bits": int(np_info.bits), "eps": float(np_info.eps),
                          "max": float(np_info.max), "tiny": float(np_info.tiny),
                          "resolution": 10.0 ** -int(np_info.precision)}
            info.bits, info.eps, info.max = limits["bits"], limits["eps"], limits["max"]
            info.min, info.tiny = -limits["max"], limits["tiny"]
            info.smallest_normal, info.resolution = limits["tiny"], limits["resolution"]
            info.dtype = type.name
            cls._cache[type.name] = info
        return cls._cache[type.name]

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:  # noqa: N801 (PyTorch's name)
    """Machine limits of an integer dtype."""

    _cache: dict = {}

    def __new__(cls, type):  # noqa: A002 (PyTorch's parameter name)
        if isinstance(type, dtypes.dtype) and type is dtypes.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if not (isinstance(type, dtypes.dtype) and type.is_integer):
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        if type.name not in cls._cache:
            info = object.__new__(cls)
            np_info = np.iinfo(type.numpy)
            info.bits, info.max, info.min = int(np_info.bits), int(np_info.max), int(np_info.min)
            info.dtype = type.name
            cls._cache[type.name] = info
        return cls._cache[type.name]

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"

    __str__ = __repr__
