"""Reading ``data.pkl`` without running anything the file asks for.

A pickle is a small program: its opcodes build values, and two of them (GLOBAL, then
REDUCE) call any function of any module by name. That is how a pickled ``Linear`` comes
back, and how a malicious file runs code. PyTorch's ``weights_only=True`` reads pickles
with an interpreter of its own that calls only what it allows; this one does the same:
each opcode is carried out here, and the only names a file may call are those of
``ALLOWED`` (PyTorch's names, mapped to what minigrad makes from them: tensors, the
containers, numbers, strings, bytes, ``torch.Size``, ``torch.device``, dtypes). A tensor's
numbers are read from the archive's records (``persistent_load``), checked to lie inside
their storage.
"""

from __future__ import annotations

import codecs
import collections
import pickle
import struct

import numpy as np

import minigrad

from .pickler import STORAGE_TYPES

__all__ = ["load_pickle", "UnpicklingError"]


class UnpicklingError(pickle.UnpicklingError, RuntimeError):
    """A pickle this reader refuses (PyTorch: pickle.UnpicklingError, "Weights only load
    failed"), or one that is damaged: ``except pickle.UnpicklingError`` catches it, as
    PyTorch's."""


_STORAGE_DTYPES = {name: dtype for dtype, name in STORAGE_TYPES.items()}


class _Storage:
    """A storage of the file: its dtype, and its elements once read (a flat array)."""

    __slots__ = ("dtype", "array")

    def __init__(self, dtype, array) -> None:
        self.dtype, self.array = dtype, array

    def cpu(self) -> "_Storage":  # (what a map_location function calls on it)
        return self


class _StorageType:
    """A name such as ``torch.FloatStorage``: only a dtype for a persistent id."""

    def __init__(self, dtype) -> None:
        self.dtype = dtype


def rebuild_tensor(storage, offset, size, stride, requires_grad=False, hooks=None,
                   metadata=None):
    """``torch._utils._rebuild_tensor_v2``: a view of the storage, checked to lie in it."""
    if not isinstance(storage, _Storage):
        raise UnpicklingError("a tensor's storage is not one of the file's storages")
    size, stride = _ints(size, "size"), _ints(stride, "stride")
    offset = _ints((offset,), "storage offset")[0]
    if len(size) != len(stride) or any(n < 0 for n in size) or any(s < 0 for s in stride):
        raise UnpicklingError(f"a tensor of size {size} and stride {stride} cannot be read")
    array = storage.array
    if 0 not in size:
        last = offset + sum((n - 1) * s for n, s in zip(size, stride))
        if offset < 0 or last >= array.size:
            raise UnpicklingError(
                f"a tensor of size {size}, stride {stride} and offset {offset} reaches beyond "
                f"its storage of {array.size} elements: the file is damaged")
    itemsize = array.itemsize
    view = np.lib.stride_tricks.as_strided(array[offset:] if 0 not in size else array[:0],
                                           shape=size, strides=[s * itemsize for s in stride])
    tensor = minigrad.from_numpy(view)
    if requires_grad:
        if not tensor.dtype.is_floating_point:
            raise UnpicklingError("only tensors of floating point dtype can require gradients")
        tensor.requires_grad_(True)
    return tensor


def _ints(values, what: str) -> tuple:
    if not isinstance(values, (tuple, list)) or not all(
            type(v) is int for v in values):
        raise UnpicklingError(f"a tensor's {what} is not a tuple of integers")
    return tuple(values)


def rebuild_parameter(data, requires_grad, hooks=None, state=None):
    """``torch._utils._rebuild_parameter`` (and ``_with_state``: state left aside)."""
    if not isinstance(data, minigrad.Tensor) or not isinstance(requires_grad, bool):
        raise UnpicklingError("a parameter's data is not a tensor")
    return minigrad.nn.Parameter(data, requires_grad)


def rebuild_from_type(function, new_type, args, state):
    """``torch._tensor._rebuild_from_type_v2``: a tensor (or parameter) rebuilt by an
    allowed function, then given the Python attributes it carried (``x.g = ...``), as
    PyTorch's ``_set_obj_state`` gives them: ``state`` a dict, or a (dict, slots) pair."""
    if function not in (rebuild_tensor, rebuild_parameter) or not isinstance(args, tuple):
        raise UnpicklingError("a tensor rebuilt by a function minigrad does not allow")
    result = function(*args)
    parts = state if isinstance(state, tuple) else (state,)
    if len(parts) > 2 or any(part is not None and not isinstance(part, dict) for part in parts):
        raise UnpicklingError(f"Invalid serialized state: {state}")
    for part in parts:
        for name, value in (part or {}).items():
            # (a name minigrad's tensors use themselves, _data or grad, is not taken from a file)
            if not isinstance(name, str) or hasattr(type(result), name):
                raise UnpicklingError(f"a tensor's attribute {name!r} cannot be set from a file")
            setattr(result, name, value)
    return result


def _encode(text, encoding):
    if encoding not in ("latin1", "latin-1") or not isinstance(text, str):
        raise UnpicklingError("bytes in this pickle are not encoded as PyTorch encodes them")
    return codecs.encode(text, "latin1")


def _counter(counts=()):
    return collections.Counter(counts)


class _Lacking:
    """A name of PyTorch's for a dtype or storage minigrad lacks: an error when read."""

    def __init__(self, what: str) -> None:
        self.message = (
            f"this file holds a {what}, which minigrad does not have (its dtypes: float32, "
            "float64, float16, int64, int32, int16, int8, uint8, bool). In PyTorch, convert it "
            "before saving (tensor.float(), or .to(torch.float32)) and save again")


# PyTorch's names (``module.name``, as GLOBAL gives them) -> what minigrad calls or uses.
ALLOWED = {
    "collections.OrderedDict": collections.OrderedDict,
    "collections.Counter": _counter,
    "torch._utils._rebuild_tensor_v2": rebuild_tensor,
    "torch._utils._rebuild_parameter": rebuild_parameter,
    "torch._utils._rebuild_parameter_with_state": rebuild_parameter,
    "torch._tensor._rebuild_from_type_v2": rebuild_from_type,
    "torch.nn.parameter.Parameter": minigrad.nn.Parameter,
    "torch.Tensor": minigrad.Tensor,
    "torch.Size": minigrad.Size,
    "torch.device": minigrad.device,
    "_codecs.encode": _encode,
    "builtins.set": set,
    "builtins.bytes": bytes,  # (PyTorch pickles b"" as bytes())
    "builtins.bytearray": bytearray,
    "builtins.complex": complex,
}
ALLOWED.update({f"torch.{name}": _StorageType(dtype) for name, dtype in _STORAGE_DTYPES.items()})
ALLOWED.update({f"torch.{str(dtype).split('.')[1]}": dtype for dtype in STORAGE_TYPES})
for _name in ("BFloat16Storage", "ComplexFloatStorage", "ComplexDoubleStorage", "QInt8Storage",
              "QUInt8Storage", "QInt32Storage", "QUInt4x2Storage", "QUInt2x4Storage",
              "UntypedStorage"):
    ALLOWED[f"torch.{_name}"] = _Lacking(f"tensor stored as torch.{_name}")
for _name in ("bfloat16", "complex32", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2",
              "uint16", "uint32", "uint64"):
    ALLOWED[f"torch.{_name}"] = _Lacking(f"dtype torch.{_name}")
# what REDUCE may call (the rest of ALLOWED are values: types, dtypes, storage types)
_CALLABLE = (rebuild_tensor, rebuild_parameter, rebuild_from_type, _encode, _counter, set,
             bytes, bytearray, complex, collections.OrderedDict, minigrad.Size, minigrad.device,
             minigrad.nn.Parameter)


def _refused(module: str, name: str) -> UnpicklingError:
    full = f"{module}.{name}"
    if module.startswith("torch.nn.modules") or module.startswith("torch.optim"):
        return UnpicklingError(
            f"this file holds a whole pickled object ({full}), saved with torch.save(model) or "
            "torch.save(optimizer). torch.load(weights_only=True) loads tensors and state dicts "
            "only, never code from a file; weights_only=False runs the pickle (only for a file "
            "you trust, and here it names PyTorch's classes, not minigrad's). Better, save "
            "model.state_dict() instead and load it with model.load_state_dict(torch.load(path))")
    return UnpicklingError(
        f"Weights only load failed: Unsupported global: GLOBAL {full} was not an allowed "
        "global. With weights_only=True minigrad loads tensors, dicts, lists, tuples, sets, "
        "numbers, strings, bytes, torch.Size, torch.device and dtypes, and never runs code from "
        "a file; weights_only=False runs the pickle (only for a file you trust)")


def _find(module: str, name: str):
    if module == "__builtin__":  # (protocol 2 names the builtins Python 2's way)
        module = "builtins"
    try:
        found = ALLOWED[f"{module}.{name}"]
    except KeyError:
        raise _refused(module, name) from None
    if isinstance(found, _Lacking):
        raise RuntimeError(found.message)
    return found


_MARK = object()


def load_pickle(data: bytes, persistent_load):
    """The object ``data`` (a pickle, protocols 2 to 5) holds, built by the opcodes this
    reader knows; ``persistent_load(pid)`` gives the storages."""
    stack: list = []
    marks: list = []
    memo: dict = {}
    position = 0

    def take(count: int) -> bytes:
        nonlocal position
        if position + count > len(data):
            raise UnpicklingError("pickle data was truncated")
        chunk = data[position:position + count]
        position += count
        return chunk

    def line() -> str:
        nonlocal position
        end = data.find(b"\n", position)
        if end < 0:
            raise UnpicklingError("pickle data was truncated")
        text = data[position:end].decode("utf-8")
        position = end + 1
        return text

    def pop_mark() -> list:
        if not marks:
            raise UnpicklingError("could not find MARK")
        start = marks.pop()
        items = stack[start:]
        del stack[start:]
        return items

    def top():
        if not stack:
            raise UnpicklingError("unpickling stack underflow")
        return stack[-1]

    def pop():
        if not stack:
            raise UnpicklingError("unpickling stack underflow")
        return stack.pop()

    def memo_get(key):
        try:
            return memo[key]
        except KeyError:
            raise UnpicklingError(f"Memo value not found at index {key}") from None

    while True:
        opcode = take(1)
        if opcode == b".":  # STOP
            return pop()
        if opcode == b"\x80":  # PROTO
            if take(1)[0] > 5:
                raise UnpicklingError("unsupported pickle protocol")
        elif opcode == b"\x95":  # FRAME (protocol 4: a length to skip)
            take(8)
        elif opcode == b"(":  # MARK
            marks.append(len(stack))
        elif opcode == b"}":
            stack.append({})
        elif opcode == b"]":
            stack.append([])
        elif opcode == b")":
            stack.append(())
        elif opcode == b"\x8f":  # EMPTY_SET
            stack.append(set())
        elif opcode == b"N":
            stack.append(None)
        elif opcode in (b"\x88", b"\x89"):
            stack.append(opcode == b"\x88")
        elif opcode == b"K":
            stack.append(take(1)[0])
        elif opcode == b"M":
            stack.append(struct.unpack("<H", take(2))[0])
        elif opcode == b"J":
            stack.append(struct.unpack("<i", take(4))[0])
        elif opcode in (b"\x8a", b"\x8b"):  # LONG1, LONG4
            size = take(1)[0] if opcode == b"\x8a" else struct.unpack("<i", take(4))[0]
            stack.append(int.from_bytes(take(size), "little", signed=True))
        elif opcode == b"G":
            stack.append(struct.unpack(">d", take(8))[0])
        elif opcode in (b"X", b"\x8c", b"\x8d"):  # BINUNICODE, SHORT_, 8
            size = {b"X": lambda: struct.unpack("<I", take(4))[0],
                    b"\x8c": lambda: take(1)[0],
                    b"\x8d": lambda: struct.unpack("<Q", take(8))[0]}[opcode]()
            stack.append(take(size).decode("utf-8", "surrogatepass"))
        elif opcode in (b"B", b"C", b"\x8e", b"\x96"):  # BINBYTES, SHORT_, 8, BYTEARRAY8
            size = {b"B": lambda: struct.unpack("<I", take(4))[0], b"C": lambda: take(1)[0],
                    b"\x8e": lambda: struct.unpack("<Q", take(8))[0],
                    b"\x96": lambda: struct.unpack("<Q", take(8))[0]}[opcode]()
            chunk = take(size)
            stack.append(bytearray(chunk) if opcode == b"\x96" else chunk)
        elif opcode in (b"\x85", b"\x86", b"\x87"):  # TUPLE1, 2, 3
            count = b"\x85\x86\x87".index(opcode) + 1
            if len(stack) < count:
                raise UnpicklingError("unpickling stack underflow")
            items = tuple(stack[-count:])
            del stack[-count:]
            stack.append(items)
        elif opcode == b"t":
            stack.append(tuple(pop_mark()))
        elif opcode == b"a":  # APPEND
            value = pop()
            _list(top()).append(value)
        elif opcode == b"e":  # APPENDS
            items = pop_mark()
            _list(top()).extend(items)
        elif opcode == b"s":  # SETITEM
            value, key = pop(), pop()
            _dict(top())[key] = value
        elif opcode == b"u":  # SETITEMS
            items = pop_mark()
            target = _dict(top())
            for i in range(0, len(items) - 1, 2):
                target[items[i]] = items[i + 1]
        elif opcode == b"\x90":  # ADDITEMS
            items = pop_mark()
            target = top()
            if type(target) is not set:
                raise UnpicklingError("ADDITEMS on something that is not a set")
            target.update(items)
        elif opcode in (b"q", b"r", b"\x94"):  # BINPUT, LONG_BINPUT, MEMOIZE
            key = (take(1)[0] if opcode == b"q" else struct.unpack("<I", take(4))[0]
                   if opcode == b"r" else len(memo))
            memo[key] = top()
        elif opcode in (b"h", b"j"):  # BINGET, LONG_BINGET
            key = take(1)[0] if opcode == b"h" else struct.unpack("<I", take(4))[0]
            stack.append(memo_get(key))
        elif opcode == b"c":  # GLOBAL
            module = line()
            stack.append(_find(module, line()))
        elif opcode == b"\x93":  # STACK_GLOBAL
            name, module = pop(), pop()
            if not isinstance(module, str) or not isinstance(name, str):
                raise UnpicklingError("STACK_GLOBAL requires str")
            stack.append(_find(module, name))
        elif opcode == b"R":  # REDUCE
            args, function = pop(), pop()
            if not isinstance(args, tuple) or not _callable(function):
                raise UnpicklingError(f"Unsupported call of {type(function).__name__}")
            stack.append(function(*args))
        elif opcode == b"\x81":  # NEWOBJ: only the containers may be made this way
            args, cls = pop(), pop()
            if cls not in (collections.OrderedDict, set) or not isinstance(args, tuple):
                raise UnpicklingError("Unsupported NEWOBJ")
            stack.append(cls(*args))
        elif opcode == b"b":  # BUILD: attributes of an OrderedDict (a state_dict's _metadata)
            state = pop()
            target = top()
            if type(target) is not collections.OrderedDict or not isinstance(state, dict) or \
                    not all(isinstance(k, str) and k.isidentifier() for k in state):
                raise UnpicklingError(f"Unsupported BUILD of {type(target).__name__}")
            target.__dict__.update(state)
        elif opcode == b"Q":  # BINPERSID
            stack.append(persistent_load(pop()))
        else:
            raise UnpicklingError(f"Unsupported operand {opcode[0]} in this pickle: minigrad "
                                  "reads the pickles torch.save writes")


def _callable(function) -> bool:
    return any(function is allowed for allowed in _CALLABLE)


def _list(target) -> list:
    if type(target) is not list:
        raise UnpicklingError("APPEND on something that is not a list")
    return target


def _dict(target) -> dict:
    if type(target) not in (dict, collections.OrderedDict, collections.Counter):
        raise UnpicklingError("SETITEM on something that is not a dict")
    return target


def storage_from(record: bytes, dtype, count: int, big_endian: bool) -> _Storage:
    """The storage of ``count`` elements of ``dtype`` held in ``record``."""
    numpy_dtype = np.dtype(dtype.numpy)
    if len(record) != count * numpy_dtype.itemsize:
        raise RuntimeError(f"a storage of the file holds {len(record)} bytes, not the "
                           f"{count * numpy_dtype.itemsize} its {count} elements need: the file "
                           "is damaged")
    array = np.frombuffer(record, dtype=numpy_dtype.newbyteorder(">" if big_endian else "<"))
    return _Storage(dtype, array.astype(numpy_dtype))  # (a writable copy in this machine's order)
