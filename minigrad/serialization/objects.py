"""Whole objects, ``torch.save(model)`` and ``torch.load(path, weights_only=False)``.

What is not plain data (a whole module, an optimizer, a NumPy array, an object of the
program's own class) PyTorch pickles with Python's pickler, and reads back only when told
``weights_only=False``: then the pickle runs, importing the classes it names and calling
what it says, so such a file is opened only when it comes from a trusted source. The
same here: Python's pickler writes the object, each tensor as a ``rebuild_tensor`` call on
a storage of the archive (a persistent id, as ``pickler.py`` writes them), and Python's
unpickler reads it back, the storages from the archive. A file PyTorch saved this way
names PyTorch's classes (``torch.nn.modules.linear.Linear``), which are not minigrad's:
such a file opens only where it was written.
"""

from __future__ import annotations

import io
import pickle

import numpy as np

import minigrad

from .pickler import STORAGE_TYPES, Pickled, storage_of
from .unpickler import ALLOWED, _Lacking, _StorageType, _STORAGE_DTYPES, rebuild_tensor

__all__ = ["dump_objects", "load_objects"]


def dump_objects(obj) -> Pickled:
    """``obj`` pickled by Python's pickler (protocol 2), its tensors' memory as storages."""
    out = io.BytesIO()
    writer = _ObjectWriter(out)
    writer.dump(obj)
    return Pickled(out.getvalue(), [flat for flat, _, _ in writer.storages.values()])


def load_objects(data: bytes, persistent_load):
    """What ``data`` (a pickle) holds, by Python's unpickler: it runs the pickle."""
    return _ObjectReader(io.BytesIO(data), persistent_load).load()


class _StorageOf:
    """The memory a tensor is a view of, on its way to be a persistent id."""

    def __init__(self, owner: np.ndarray, dtype) -> None:
        self.owner, self.dtype = owner, dtype


class _ObjectWriter(pickle.Pickler):
    """Python's pickler, writing a tensor as ``rebuild_tensor(storage, offset, size,
    stride, requires_grad)`` (a parameter as ``Parameter(that tensor, requires_grad)``)."""

    def __init__(self, out) -> None:
        super().__init__(out, protocol=2)
        self.storages: dict[int, tuple[np.ndarray, str, np.ndarray]] = {}

    def reducer_override(self, obj):
        if not isinstance(obj, minigrad.Tensor):
            return NotImplemented
        if obj.dtype not in STORAGE_TYPES:
            raise TypeError(f"minigrad cannot save a tensor of dtype {obj.dtype}")
        if isinstance(obj, minigrad.nn.Parameter):
            return minigrad.nn.Parameter, (obj.detach(), obj.requires_grad)
        array = obj.detach().numpy()
        owner, offset, strides = storage_of(array)
        return rebuild_tensor, (_StorageOf(owner, obj.dtype), offset,
                                tuple(int(n) for n in array.shape), strides, obj.requires_grad)

    def persistent_id(self, obj):
        if not isinstance(obj, _StorageOf):
            return None
        if id(obj.owner) not in self.storages:
            self.storages[id(obj.owner)] = (obj.owner.reshape(-1), str(len(self.storages)),
                                            obj.owner)
        flat, key, _ = self.storages[id(obj.owner)]
        return ("storage", STORAGE_TYPES[obj.dtype], key, "cpu", flat.size)


class _ObjectReader(pickle.Unpickler):
    """Python's unpickler; PyTorch's names (``torch._utils._rebuild_tensor_v2``,
    ``torch.FloatStorage``, ...) are minigrad's, as in ``weights_only=True`` loading."""

    def __init__(self, file, persistent_load) -> None:
        super().__init__(file)
        self._storages = persistent_load

    def persistent_load(self, pid):
        if isinstance(pid, tuple) and len(pid) == 5 and isinstance(pid[1], str):
            pid = (pid[0], _StorageType(_STORAGE_DTYPES[pid[1]]), *pid[2:])
        return self._storages(pid)

    def find_class(self, module, name):
        found = ALLOWED.get(f"{'builtins' if module == '__builtin__' else module}.{name}")
        if found is None:
            return super().find_class(module, name)
        if isinstance(found, _Lacking):
            raise RuntimeError(found.message)
        return found
