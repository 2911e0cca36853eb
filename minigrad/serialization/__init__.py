"""``torch.save`` and ``torch.load``, in PyTorch's own file format.

A file minigrad saves opens in PyTorch (``torch.load(path, weights_only=True)``), and a
file PyTorch saved opens in minigrad, so a model can be trained in one and carried to the
other::

    torch.save(model.state_dict(), "model.pt")         # minigrad or PyTorch
    model.load_state_dict(torch.load("model.pt"))       # the other one

Plain data is saved as PyTorch saves it, byte for byte: tensors (every dtype minigrad has;
views of one tensor stay views of one storage), parameters, state dicts of modules and
optimisers, and dicts, lists, tuples and sets of them, numbers, strings, bytes and None.
Loading it (``weights_only=True``, the default) never runs code from the file. Anything
else (a whole module, ``torch.save(model)``; an optimizer; a NumPy array) is pickled by
Python's pickler, as PyTorch does, and read back only with ``weights_only=False``, which
runs the pickle: only for a file from a trusted source, as PyTorch warns.

| module    | what lives there                                                  |
|-----------|-------------------------------------------------------------------|
| archive   | the zip archive of records, written atomically, read and checked  |
| pickler   | data.pkl written opcode by opcode, with PyTorch's names            |
| unpickler | data.pkl read by an interpreter that calls only what it allows     |
| objects   | whole objects, pickled by Python (read with weights_only=False)   |
"""

from __future__ import annotations

import os
import pickle

import minigrad

from . import archive, objects, pickler, unpickler
from .unpickler import UnpicklingError

__all__ = ["save", "load", "DEFAULT_PROTOCOL", "UnpicklingError"]

DEFAULT_PROTOCOL = 2

_CUDA_STORAGE = ("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
                 "is False. If you are running on a CPU-only machine, please use torch.load with "
                 "map_location=torch.device('cpu') to map your storages to the CPU.")


def save(obj, f, pickle_module=pickle, pickle_protocol: int = DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Save ``obj`` to ``f`` (a path, a path-like or a file object opened for writing) in
    PyTorch's format. Nothing is written unless the whole file can be: a path is
    replaced only when the new file is complete.

    >>> import io
    >>> buffer = io.BytesIO()
    >>> minigrad.save({"w": minigrad.ones(2)}, buffer)
    >>> minigrad.load(io.BytesIO(buffer.getvalue()))
    {'w': tensor([1., 1.])}
    """
    if pickle_module is not pickle:
        raise ValueError("minigrad writes PyTorch's pickle itself: pickle_module must be the "
                         "standard pickle module")
    if not 2 <= pickle_protocol <= pickle.HIGHEST_PROTOCOL:
        raise ValueError(f"pickle protocol must be 2 to {pickle.HIGHEST_PROTOCOL} (minigrad "
                         f"writes protocol 2, which every PyTorch reads), got {pickle_protocol}")
    if not _use_new_zipfile_serialization:
        raise ValueError("minigrad writes PyTorch's zip format only (the one torch.save has "
                         "written since PyTorch 1.6), not the legacy one")
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError(f"'{type(f).__name__}' object has no attribute 'write'")
    try:
        pickled = pickler.dump(obj)
    except pickler.NotPlain:  # (an error in Python's pickler, here, writes nothing)
        pickled = objects.dump_objects(obj)
    archive.write(f, archive.archive_name(f), pickled.data,
                  [memoryview(storage).cast("B") for storage in pickled.storages])


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None,
         mmap: bool | None = None, **pickle_load_args):
    """What ``save`` (minigrad's or PyTorch's) wrote to ``f`` (a path, a path-like or a
    file object opened for reading). Tensors come back on the CPU, sharing memory where
    they shared it when saved. By default (``weights_only=True``, as PyTorch's) nothing in
    the file is run: a file holding anything but tensors and plain values (a pickled
    module, say) is refused with an error saying what to save instead;
    ``weights_only=False`` runs the pickle (``torch.save(model)``'s files), as PyTorch. ``map_location`` may name the CPU
    (``"cpu"``, ``torch.device("cpu")``, a dict or a function mapping locations), the only
    device minigrad has."""
    if pickle_load_args.get("encoding", "utf-8") not in ("utf-8", "latin1", "bytes", "ASCII"):
        raise ValueError("encoding must be utf-8, latin1, bytes or ASCII")
    records = archive.Archive(f)
    big_endian = records.has("byteorder") and records.read("byteorder") == b"big"
    storages: dict[str, unpickler._Storage] = {}

    def persistent_load(pid):
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise UnpicklingError(f"a persistent id minigrad does not know: {pid!r}")
        _, storage_type, key, location, count = pid
        if not isinstance(storage_type, unpickler._StorageType) or not isinstance(key, str) \
                or type(count) is not int or count < 0:
            raise UnpicklingError(f"a storage minigrad cannot read: {pid!r}")
        if key not in storages:
            storage = unpickler.storage_from(records.read(f"data/{key}"), storage_type.dtype,
                                             count, big_endian)
            storages[key] = _mapped(storage, location, map_location)
        return storages[key]

    if weights_only is False:
        return objects.load_objects(records.read("data.pkl"), persistent_load)
    return unpickler.load_pickle(records.read("data.pkl"), persistent_load)


def _mapped(storage, location, map_location):
    """``storage`` (read from ``location``, e.g. "cpu" or "cuda:0") where ``map_location``
    puts it: minigrad has the CPU only, so anything else is PyTorch's error."""
    if callable(map_location):
        result = map_location(storage, location)
        if result is None:
            result = storage
        if not isinstance(result, unpickler._Storage):
            raise RuntimeError("map_location must return the storage it is given (or its "
                               "cpu()): minigrad has the CPU only")
        return result
    if isinstance(map_location, dict):
        location = map_location.get(location, location)
    elif map_location is not None:
        location = str(map_location)
    if isinstance(location, minigrad.device):
        location = str(location)
    if not isinstance(location, str):
        raise TypeError(f"map_location should be a string, a torch.device, a dict or a "
                        f"function, not {type(location).__name__}")
    kind = location.split(":")[0]
    if kind == "cuda":
        raise RuntimeError(_CUDA_STORAGE)
    if kind != "cpu":
        minigrad.device(location)  # (PyTorch's error for a device minigrad lacks)
        raise RuntimeError(f"minigrad has the CPU only: map_location='cpu' loads the storages "
                           f"saved on {location} there")
    return storage

