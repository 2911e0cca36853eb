"""``autocast``: PyTorch runs some ops in a lower precision inside it. minigrad computes
in the dtypes it is given; the context manager turns itself off where PyTorch's does
(with its warnings), and CPU autocast proper, whose default dtype bfloat16 minigrad does
not have, raises a clear error."""

from __future__ import annotations

import functools
import warnings

from .. import cuda
from ..dtypes import float16

__all__ = ["autocast", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype"]

_CPU_DTYPES = ("bfloat16", "float16")


def is_autocast_available(device_type: str) -> bool:
    return device_type in ("cpu", "cuda")


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """False: nothing is ever autocast here."""
    return False


def get_autocast_dtype(device_type: str):
    raise RuntimeError("minigrad has no bfloat16, the CPU autocast dtype (nor autocast)")


class autocast:  # noqa: N801 (PyTorch's name)
    def __init__(self, device_type: str, dtype=None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device, self.fast_dtype, self._enabled = device_type, dtype, enabled
        if not enabled:
            return
        if device_type == "cuda" and not cuda.is_available():
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                          UserWarning, stacklevel=2)
            self._enabled = False
        elif device_type == "cpu" and dtype is not None and str(dtype).split(".")[-1] \
                not in _CPU_DTYPES:
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                          "torch.float16 currently.", UserWarning, stacklevel=2)
            self._enabled = False
        elif device_type == "cpu":
            raise NotImplementedError(
                f"minigrad does not autocast: it computes in the dtypes it is given (CPU "
                f"autocast would run matmuls in {dtype or 'torch.bfloat16'}). Use "
                f"autocast('cpu', enabled=False) or contextlib.nullcontext(), or cast with "
                f".to({float16}) yourself.")
        else:
            raise RuntimeError(f"User specified an unsupported autocast device_type "
                               f"'{device_type}'")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorated
