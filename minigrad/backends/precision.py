"""Global switches PyTorch's kernels read and minigrad's need not, kept so that the code
setting and reading them runs, with PyTorch's checks: ``torch.set_flush_denormal`` and
``torch.set_num_interop_threads`` (the tuning guide's), ``torch.get_float32_matmul_precision``
/ ``set_float32_matmul_precision`` (TF32 on GPUs; minigrad's float32 matmuls are float32)
and ``torch.use_deterministic_algorithms`` with its debug mode (minigrad's kernels are
deterministic whatever it says; the DCGAN tutorial turns it on)."""

from __future__ import annotations

import builtins
import os
import warnings

__all__ = ["set_flush_denormal", "get_num_interop_threads", "set_num_interop_threads",
           "get_float32_matmul_precision", "set_float32_matmul_precision",
           "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "get_deterministic_debug_mode"]

_PRECISION = ["highest"]


def set_flush_denormal(mode) -> bool:
    """``torch.set_flush_denormal``: True, as on any x86 CPU, which can flush denormal
    floats to zero. minigrad's NumPy arithmetic does not flush them (a result that
    underflows below 1.2e-38 in float32 keeps its denormal value, where PyTorch's gives 0
    after ``set_flush_denormal(True)``)."""
    if not isinstance(mode, bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    return True


_INTEROP = {"threads": None}  # (set once, as PyTorch allows)


def get_num_interop_threads() -> int:
    """The threads PyTorch runs independent ops on (one per core until set); minigrad
    runs ops one after another, whatever it says."""
    return _INTEROP["threads"] or os.cpu_count() or 1


def set_num_interop_threads(int) -> None:  # noqa: A002  (the parameter's name is PyTorch's)
    if type(int) is not builtins.int:
        raise RuntimeError(f"set_num_interop_threads expects an int, but got "
                           f"{type(int).__name__}")
    if int <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    if _INTEROP["threads"] is not None:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _INTEROP["threads"] = int


def get_float32_matmul_precision() -> str:
    return _PRECISION[0]


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      f"setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _PRECISION[0] = precision


_DETERMINISTIC = {"mode": False, "warn_only": False}
_DEBUG_MODES = ("default", "warn", "error")


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must "
                        f"be bool, not {type(mode).__name__}")
    _DETERMINISTIC.update(mode=mode, warn_only=warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _DETERMINISTIC["mode"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _DETERMINISTIC["warn_only"]


def set_deterministic_debug_mode(debug_mode) -> None:
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, "
                               f"`warn`, `error`, but got {debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    elif debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    if not _DETERMINISTIC["mode"]:
        return 0
    return 1 if _DETERMINISTIC["warn_only"] else 2
