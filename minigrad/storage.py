"""torch.storage: ``x.storage()``, the memory under a tensor and its views, read and
written element by element (Deep Learning with PyTorch's chapter 3 prints it);
``x.untyped_storage()``, the same memory byte by byte.

PyTorch 2.13 calls this TypedStorage deprecated and warns once a process; it prints
each element on its own line, then ``[torch.storage.TypedStorage(dtype=..., device=cpu)
of size n]``.
"""

from __future__ import annotations


from .kernels import layout as memory
from . import errors

_WARNED = []  # (PyTorch warns the first time only, in a process)


def warn_typed_storage_removal():
    if not _WARNED:
        _WARNED.append(True)
        errors.warn(
            "TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
            "will be the only storage class. This should only matter to you if you are using "
            "storages directly.  To access UntypedStorage directly, use "
            "tensor.untyped_storage() instead of tensor.storage()", UserWarning, stacklevel=3)


class TypedStorage:
    """The elements of a tensor's memory, in memory order, whatever its view shows."""

    _kind = "TypedStorage"

    def __init__(self, tensor):
        self._elements = memory.storage_elements(tensor._data)
        self.dtype, self.device = tensor.dtype, tensor.device

    def __len__(self) -> int:
        return len(self._elements)

    def size(self) -> int:
        return len(self._elements)

    def element_size(self) -> int:
        return self._elements.itemsize

    def nbytes(self) -> int:
        return self._elements.nbytes

    def data_ptr(self) -> int:
        """The address of the memory's first element (the same for every view's storage)."""
        return self._elements.__array_interface__["data"][0] if len(self) else 0

    def __getitem__(self, i):
        return self._elements[i].item()

    def __setitem__(self, i, value) -> None:
        self._elements[i] = value

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def tolist(self) -> list:
        return self._elements.tolist()

    def _described(self) -> str:
        return f"dtype={self.dtype}, device={self.device}"

    def __repr__(self) -> str:
        info = f"[torch.storage.{self._kind}({self._described()}) of size {len(self)}]"
        return " " + "\n ".join(str(self[i]) for i in range(len(self))) + "\n" + info

    __str__ = __repr__


class UntypedStorage(TypedStorage):
    """The bytes of a tensor's memory, in memory order (``x.untyped_storage()``)."""

    _kind = "UntypedStorage"

    def __init__(self, tensor):
        self._elements = memory.storage_elements(tensor._data).view("uint8")
        self.device = tensor.device

    def _described(self) -> str:
        return f"device={self.device}"
