"""``torch.get_float32_matmul_precision`` / ``set_float32_matmul_precision``: a setting
PyTorch's GPU matmuls read (TF32 or not). minigrad's float32 matmuls are float32 whatever
it says; it is kept so that code setting and reading it runs."""

from __future__ import annotations

import warnings

__all__ = ["get_float32_matmul_precision", "set_float32_matmul_precision"]

_PRECISION = ["highest"]


def get_float32_matmul_precision() -> str:
    return _PRECISION[0]


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      f"setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _PRECISION[0] = precision
