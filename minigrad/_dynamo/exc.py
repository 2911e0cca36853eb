"""``torch._dynamo.exc``: the errors ``torch.compile`` raises before it runs anything."""

from __future__ import annotations

__all__ = ["TorchDynamoException", "InvalidBackend"]


class TorchDynamoException(RuntimeError):
    """Base class of torch.compile's errors (a RuntimeError, as PyTorch's)."""


class InvalidBackend(TorchDynamoException):
    """``backend=`` names no backend (``torch._dynamo.list_backends()`` lists them)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` for "
                         "available backends.")
