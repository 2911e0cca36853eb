"""``torch.strided`` and the memory formats: how a tensor's elements sit in memory.

A minigrad tensor is a NumPy array: dense and strided, so ``layout=torch.strided`` is
the only layout, and ``torch.contiguous_format`` / ``torch.preserve_format`` the memory
formats it can honour (sparse layouts and ``channels_last`` are not in minigrad).
The factories accept them as PyTorch's do, with PyTorch's errors for the rest.
"""

from __future__ import annotations


class layout:
    """A memory layout; ``torch.strided`` (dense, with strides) is the one minigrad has."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class memory_format:
    """The order of a dense tensor's elements in memory."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")


def _type_name(value) -> str:
    return "None" if value is None else type(value).__name__


def check_memory_format(function: str, value) -> None:
    """PyTorch's TypeError for a ``memory_format=`` that is not one."""
    if value is not None and not isinstance(value, memory_format):
        raise TypeError(f"{function}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {_type_name(value)}")


def check_bool(function: str, name: str, value) -> None:
    """PyTorch's TypeError for a flag (``non_blocking=``, ``pin_memory=``) that is not a bool."""
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{function}(): argument '{name}' must be bool, not {_type_name(value)}")

