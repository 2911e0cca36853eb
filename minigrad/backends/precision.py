"""Global switches PyTorch's kernels read and minigrad's need not, kept so that the code
setting and reading them runs, with PyTorch's checks: ``torch.get_float32_matmul_precision``
/ ``set_float32_matmul_precision`` (TF32 on GPUs; minigrad's float32 matmuls are float32)
and ``torch.use_deterministic_algorithms`` with its debug mode (minigrad's kernels are
deterministic whatever it says; the DCGAN tutorial turns it on)."""

from __future__ import annotations

import warnings

__all__ = ["get_float32_matmul_precision", "set_float32_matmul_precision",
           "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "get_deterministic_debug_mode"]

_PRECISION = ["highest"]


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
