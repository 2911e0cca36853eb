"""``torch.accelerator``: the device-neutral way to ask for a GPU (or other
accelerator). minigrad has none, so code written as

    device = torch.accelerator.current_accelerator() or torch.device("cpu")

runs on the CPU, as it does in PyTorch on a machine without one.
"""

from __future__ import annotations

__all__ = ["is_available", "current_accelerator", "device_count"]


def is_available() -> bool:
    """False: there is no accelerator."""
    return False


def current_accelerator(check_available: bool = False):
    """None: there is no accelerator."""
    return None


def device_count() -> int:
    return 0
