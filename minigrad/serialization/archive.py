"""PyTorch's file: a zip archive of records, as ``torch.save`` has written since PyTorch 1.6.

All records sit in one folder named after the file (``model.pt`` -> ``model/``; a file
object: ``archive/``), stored uncompressed, each record's data starting at a multiple of 64
bytes (PyTorch pads the local headers with an extra field, "FB", so that a tensor's bytes
can be used in place)::

    model/data.pkl               the pickled object; each tensor's storage is a persistent id
    model/.format_version        "1"
    model/.storage_alignment     "64"
    model/byteorder              "little"
    model/data/0, data/1, ...    the storages' raw bytes
    model/version                "3"
    model/.data/serialization_id a random number

Writing is atomic: a path is written to a temporary file beside it, moved into place only
when complete; a file object gets the archive's bytes in one write at the end. Reading
checks that the archive is whole before anything is unpickled.
"""

from __future__ import annotations

import io
import os
import secrets
import struct
import tempfile
import zipfile

__all__ = ["write", "Archive", "CORRUPT_ZIP", "NOT_A_ZIP"]

ALIGNMENT = 64
_PADDING_ID = b"FB"  # (PyTorch's name for the extra field that pads a local header)

_MINIZ_NOTE = (". This is an internal miniz error. If you are seeing this error, there is a high "
               "likelihood that your checkpoint file is corrupted. This can happen if the "
               "checkpoint was not saved properly, was transferred incorrectly, or the file was "
               "modified after saving.")
CORRUPT_ZIP = ("PytorchStreamReader failed reading zip archive: failed finding central directory"
               + _MINIZ_NOTE)
NOT_A_ZIP = "PytorchStreamReader failed reading zip archive: not a ZIP archive" + _MINIZ_NOTE


def archive_name(f) -> str:
    """The folder of the records: the file's name without its extension, or "archive"."""
    if isinstance(f, (str, os.PathLike)):
        name = os.path.splitext(os.path.basename(os.fspath(f)))[0]
        return name or "archive"
    return "archive"


def write(f, folder: str, pickled: bytes, storages: list) -> None:
    """Write PyTorch's archive: ``pickled`` (data.pkl) and ``storages`` (the bytes of
    storage 0, 1, ...) into ``f`` (a path, a path-like or a file object opened for
    writing)."""
    records = [("data.pkl", pickled), (".format_version", b"1"),
               (".storage_alignment", str(ALIGNMENT).encode()), ("byteorder", b"little")]
    records += [(f"data/{key}", data) for key, data in enumerate(storages)]
    records += [("version", b"3\n"),
                (".data/serialization_id", str(secrets.randbits(128)).zfill(40).encode())]
    if isinstance(f, (str, os.PathLike)):
        _write_atomically(os.fspath(f), folder, records)
    else:
        buffer = io.BytesIO()
        _write_zip(buffer, folder, records)
        f.write(buffer.getvalue())


def _write_atomically(path: str, folder: str, records: list) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".minigrad-save-", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            _write_zip(stream, folder, records)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _write_zip(stream, folder: str, records: list) -> None:
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, data in records:
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            # the local header is 30 bytes, then the name, then this extra field, then data
            start = stream.tell() + 30 + len(info.filename.encode())
            padding = -(start + 4) % ALIGNMENT
            info.extra = _PADDING_ID + struct.pack("<H", padding) + b"Z" * padding
            archive.writestr(info, bytes(data))


class Archive:
    """The records of a PyTorch file, read from a path or a file object."""

    def __init__(self, f) -> None:
        data = _read_all(f)
        if not data.startswith(b"PK") or len(data) < 22:  # (22: a zip's end record)
            raise _not_a_zip(data)
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile:
            raise RuntimeError(CORRUPT_ZIP) from None
        pickles = [n for n in self._zip.namelist() if n.endswith("/data.pkl") or n == "data.pkl"]
        if not pickles:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
        self.folder = pickles[0][:-len("data.pkl")]
        bad = self._zip.testzip()  # (every record's checksum: a damaged file fails here)
        if bad is not None:
            raise RuntimeError(f"PytorchStreamReader failed reading file {bad}: invalid header or "
                               "archive is corrupted")

    def has(self, name: str) -> bool:
        try:
            self._zip.getinfo(self.folder + name)
        except KeyError:
            return False
        return True

    def read(self, name: str) -> bytes:
        try:
            return self._zip.read(self.folder + name)
        except KeyError:
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not "
                               "found") from None


def _read_all(f) -> bytes:
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as stream:
            return stream.read()
    if not hasattr(f, "read"):
        raise AttributeError(f"'{type(f).__name__}' object has no attribute 'read'")
    return f.read()


def _not_a_zip(data: bytes) -> Exception:
    """What a file that is no zip archive is, as clearly as its first bytes tell."""
    if data[:2] == b"\x80\x02" or data[:1] == b"\x80":
        return RuntimeError(
            "this file is in PyTorch's old format (from before PyTorch 1.6: a plain pickle), "
            "which minigrad does not read. In PyTorch, load it and save it again: "
            "torch.save(torch.load(path, weights_only=True), path)")
    if not data:
        return RuntimeError("the file is empty: it holds nothing torch.save wrote")
    return RuntimeError(NOT_A_ZIP)
