"""The pickle inside a PyTorch file (``data.pkl``), written as ``torch.save`` writes it.

It holds exactly what ``torch.load(..., weights_only=True)`` reads back: tensors and
parameters (as calls of ``torch._utils._rebuild_tensor_v2`` on a storage, which is a
persistent id naming a record of the archive), containers (dict, OrderedDict, Counter,
list, tuple, set), numbers, strings, bytes, None, ``torch.Size``, ``torch.device`` and
dtypes. The opcodes are written here one by one (protocol 2, as PyTorch's default), so
that the names in the file are PyTorch's (``torch._utils``, ``torch.FloatStorage``) even
where PyTorch is not installed. An object met twice is written once and referred to after
(so a tensor saved under two names loads as one tensor, as in PyTorch).
"""

from __future__ import annotations

import collections
import struct

import numpy as np

import minigrad

__all__ = ["Pickled", "dump", "NotPlain", "STORAGE_TYPES", "storage_of"]

# minigrad's dtypes and the names of PyTorch's storage classes that hold them
STORAGE_TYPES = {
    minigrad.float32: "FloatStorage", minigrad.float64: "DoubleStorage",
    minigrad.float16: "HalfStorage", minigrad.int64: "LongStorage", minigrad.int32: "IntStorage",
    minigrad.int16: "ShortStorage", minigrad.int8: "CharStorage", minigrad.uint8: "ByteStorage",
    minigrad.bool: "BoolStorage",
}

_BATCH = 1000  # items per APPENDS / SETITEMS, as pickle batches them


class Pickled:
    """What ``dump`` made: the pickle's bytes and the storages it names, in order."""

    def __init__(self, data: bytes, storages: list) -> None:
        self.data, self.storages = data, storages


def dump(obj) -> Pickled:
    """``obj`` as PyTorch's data.pkl; raises NotPlain for a value
    ``torch.load(weights_only=True)`` could not read back."""
    writer = _Writer()
    writer.out += b"\x80\x02"  # PROTO 2
    writer.save(obj)
    writer.out += b"."  # STOP
    return Pickled(bytes(writer.out), [flat for flat, _, _ in writer.storages.values()])


class NotPlain(TypeError):
    """A value ``torch.load(weights_only=True)`` could not read back (a whole module, an
    optimizer, a NumPy array, an object of the program's own class): ``save`` pickles it
    with Python's pickler instead (``objects.py``)."""


class _Writer:
    """Python's pickler, protocol 2, for the values torch.save's files hold: the same
    opcodes and the same memo (every string, tuple, container and call result is given
    a number when first written, and written as that number after), so the data.pkl is
    PyTorch's byte for byte."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.memo: dict[int, tuple[int, object]] = {}  # id(obj) -> (number, obj kept alive)
        # id(owner) -> (its memory, flat; its key; the owner, kept alive so its id stays its)
        self.storages: dict[int, tuple[np.ndarray, str, np.ndarray]] = {}

    # ---- the memo ----

    def memoize(self, obj) -> None:
        index = len(self.memo)
        self.memo[id(obj)] = (index, obj)
        self.out += b"q" + bytes([index]) if index < 256 else b"r" + struct.pack("<I", index)

    def memoized(self, obj) -> bool:
        """Write a reference to ``obj`` if it was written before."""
        if id(obj) not in self.memo:
            return False
        index = self.memo[id(obj)][0]
        self.out += b"h" + bytes([index]) if index < 256 else b"j" + struct.pack("<I", index)
        return True

    # ---- values ----

    def save(self, obj) -> None:
        if self.memoized(obj):
            return
        kind = type(obj)
        if obj is None:
            self.out += b"N"
        elif kind is bool:
            self.out += b"\x88" if obj else b"\x89"
        elif kind is int:
            self.integer(obj)
        elif kind is float:
            self.out += b"G" + struct.pack(">d", obj)
        elif kind is str:
            data = obj.encode("utf-8", "surrogatepass")
            self.out += b"X" + struct.pack("<I", len(data)) + data
            self.memoize(obj)
        elif kind is bytes:
            self.call(_Global("_codecs", "encode"), (obj.decode("latin1"), "latin1"), obj)
        elif kind is bytearray:
            self.call(_Global("__builtin__", "bytearray"), (bytes(obj),), obj)
        elif kind is complex:
            self.call(_Global("__builtin__", "complex"), (obj.real, obj.imag), obj)
        elif isinstance(obj, minigrad.Tensor):
            self.tensor(obj)
        elif kind is minigrad.Size:
            self.call(_Global("torch", "Size"), (tuple(obj),), obj)
        elif isinstance(obj, minigrad.dtype):
            self.global_(_Global("torch", str(obj).split(".")[1]))
        elif isinstance(obj, minigrad.device):  # (its type a new string, as PyTorch's is)
            kind = "".join(obj.type)
            self.call(_Global("torch", "device"), (kind,) if obj.index is None else
                      (kind, obj.index), obj)
        elif kind is dict:
            self.out += b"}"
            self.memoize(obj)
            self.setitems(obj)
        elif kind is collections.OrderedDict:
            self.call(_Global("collections", "OrderedDict"), (), obj)
            self.setitems(obj)
            if getattr(obj, "__dict__", None):  # (a state_dict's _metadata: BUILD sets it)
                self.save(dict(obj.__dict__))
                self.out += b"b"
        elif kind is collections.Counter:
            self.call(_Global("collections", "Counter"), (dict(obj),), obj)
        elif kind is list:
            self.out += b"]"
            self.memoize(obj)
            self.appends(obj)
        elif kind is tuple:
            self.tuple_(obj)
        elif kind is set:
            self.call(_Global("__builtin__", "set"), (list(obj),), obj)
        else:
            raise NotPlain(f"{type(obj).__qualname__} is not plain data")

    def integer(self, value: int) -> None:
        if 0 <= value < 256:
            self.out += b"K" + bytes([value])
        elif 0 <= value < 65536:
            self.out += b"M" + struct.pack("<H", value)
        elif -2**31 <= value < 2**31:
            self.out += b"J" + struct.pack("<i", value)
        else:
            data = value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True)
            self.out += b"\x8a" + bytes([len(data)]) + data  # LONG1

    def tuple_(self, items: tuple) -> None:
        if not items:
            self.out += b")"
            return
        if len(items) > 3:
            self.out += b"("
        for item in items:
            self.save(item)
        self.out += b"t" if len(items) > 3 else b"\x85\x86\x87"[len(items) - 1:len(items)]
        self.memoize(items)

    def appends(self, values: list) -> None:
        for start in range(0, len(values), _BATCH):
            batch = values[start:start + _BATCH]
            if len(batch) == 1:
                self.save(batch[0])
                self.out += b"a"  # APPEND
                continue
            self.out += b"("
            for value in batch:
                self.save(value)
            self.out += b"e"  # APPENDS

    def setitems(self, mapping) -> None:
        pairs = list(mapping.items())
        for start in range(0, len(pairs), _BATCH):
            batch = pairs[start:start + _BATCH]
            if len(batch) == 1:
                self.save(batch[0][0])
                self.save(batch[0][1])
                self.out += b"s"  # SETITEM
                continue
            self.out += b"("
            for key, value in batch:
                self.save(key)
                self.save(value)
            self.out += b"u"  # SETITEMS

    def global_(self, name: "_Global") -> None:
        if self.memoized(name):
            return
        self.out += b"c" + f"{name.module}\n{name.name}\n".encode()
        self.memoize(name)

    def call(self, function: "_Global", args: tuple, result) -> None:
        """``function(*args)`` (GLOBAL, the arguments as a tuple, REDUCE), remembered as
        ``result``."""
        self.global_(function)
        self.tuple_(args)
        self.out += b"R"
        self.memoize(result)

    def tensor(self, tensor) -> None:
        """``_rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)``, and
        for a Parameter ``_rebuild_parameter(that of its data, requires_grad, hooks)``."""
        if tensor.dtype not in STORAGE_TYPES:
            raise TypeError(f"minigrad cannot save a tensor of dtype {tensor.dtype}")
        array = tensor.detach().numpy()
        if not isinstance(tensor, minigrad.nn.Parameter):
            if vars(tensor):  # (attributes of its own, x.g = ...: PyTorch keeps them so)
                self.global_(_Global("torch._tensor", "_rebuild_from_type_v2"))
                self.out += b"("
                self.global_(_Global("torch._utils", "_rebuild_tensor_v2"))
                self.global_(_Global("torch", "Tensor"))
                self._tensor_arguments(array, tensor.dtype, tensor.requires_grad)
                self.save(dict(vars(tensor)))
                self.out += b"t"
                self.memoize(object())  # (the arguments' tuple)
                self.out += b"R"
                self.memoize(tensor)
                return
            self._rebuilt_tensor(array, tensor.dtype, tensor.requires_grad, result=tensor)
            return
        self.global_(_Global("torch._utils", "_rebuild_parameter"))
        self._rebuilt_tensor(array, tensor.dtype, False, result=object())  # (its .data)
        self.save(tensor.requires_grad)
        self.call(_Global("collections", "OrderedDict"), (), object())  # (its hooks)
        self.out += b"\x87"  # TUPLE3
        self.memoize(object())  # (the arguments' tuple)
        self.out += b"R"
        self.memoize(tensor)

    def _rebuilt_tensor(self, array: np.ndarray, dtype, requires_grad: bool, result) -> None:
        self.global_(_Global("torch._utils", "_rebuild_tensor_v2"))
        self._tensor_arguments(array, dtype, requires_grad)
        self.out += b"R"
        self.memoize(result)

    def _tensor_arguments(self, array: np.ndarray, dtype, requires_grad: bool) -> None:
        """The tuple ``_rebuild_tensor_v2`` is called with (storage, offset, size, stride,
        requires_grad, backward hooks)."""
        owner, offset, strides = storage_of(array)
        self.out += b"("
        self.storage(owner, dtype)
        self.integer(offset)
        self.tuple_(tuple(int(n) for n in array.shape))
        self.tuple_(strides)
        self.save(bool(requires_grad))
        self.call(_Global("collections", "OrderedDict"), (), object())  # (backward hooks)
        self.out += b"t"
        self.memoize(object())  # (the arguments' tuple)

    def storage(self, owner: np.ndarray, dtype) -> None:
        """The persistent id ('storage', torch.XStorage, key, 'cpu', number of elements),
        one key per storage: tensors that share memory share it."""
        if id(owner) not in self.storages:
            self.storages[id(owner)] = (owner.reshape(-1), str(len(self.storages)), owner)
        flat, key, _ = self.storages[id(owner)]
        self.out += b"("
        self.save("storage")
        self.global_(_Global("torch", STORAGE_TYPES[dtype]))
        self.save(key)
        self.save("cpu")
        self.integer(flat.size)
        self.out += b"t"
        self.memoize(object())  # (the persistent id's tuple)
        self.out += b"Q"  # BINPERSID


class _Global:
    """A name the pickle calls or refers to (``torch._utils._rebuild_tensor_v2``): one
    object per name, so that the memo writes each once."""

    _made: dict = {}

    def __new__(cls, module: str, name: str):
        key = (module, name)
        if key not in cls._made:
            made = super().__new__(cls)
            made.module, made.name = module, name
            cls._made[key] = made
        return cls._made[key]


def storage_of(array: np.ndarray) -> tuple[np.ndarray, int, tuple]:
    """The memory ``array`` is a view of (its storage: the array that owns it), the offset
    of its first element there and its strides, in elements; or, where that memory cannot
    be named (not an array of the same dtype, negative strides), a copy of its own."""
    owner = array
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    itemsize = array.itemsize
    start = array.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    if (owner.dtype == array.dtype and owner.flags.c_contiguous and start % itemsize == 0
            and all(s >= 0 and s % itemsize == 0 for s in array.strides)):
        return owner, start // itemsize, tuple(s // itemsize for s in array.strides)
    copy = np.ascontiguousarray(array)
    return copy, 0, tuple(s // itemsize for s in copy.strides)
