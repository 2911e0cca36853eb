"""``torch.cuda`` as on a machine without a GPU: ``is_available()`` is False.

The usual guard ``device = "cuda" if torch.cuda.is_available() else "cpu"``
picks the CPU. Seeding is accepted and does nothing (as in PyTorch, where it
waits for a GPU that never comes); asking for a GPU raises PyTorch's error.
"""

from __future__ import annotations

from .. import errors

__all__ = ["is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all",
           "current_device", "get_device_name", "synchronize", "is_bf16_supported"]


def is_available() -> bool:
    """False: minigrad computes on the CPU only."""
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Seeds nothing: there is no GPU generator (``torch.manual_seed`` seeds the CPU's)."""


def manual_seed_all(seed: int) -> None:
    """Seeds nothing: there is no GPU generator."""


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """False: there is no GPU."""
    return False


def current_device() -> int:
    raise AssertionError(errors.not_compiled("cuda"))


def get_device_name(device=None) -> str:
    raise AssertionError(errors.not_compiled("cuda"))


def synchronize(device=None) -> None:
    raise AssertionError(errors.not_compiled("cuda"))
