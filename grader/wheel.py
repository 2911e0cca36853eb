"""The kit as a wheel, to install on another machine with nothing to download of the kit:
``kit_wheel(folder)`` (what ``minigrad-kit gradescope`` and ``prairielearn`` put inside).

* The kit installed from a wheel or a package index (pip's ``RECORD`` lists its files):
  the same wheel again, made from the files pip installed. Each file is checked against
  the hash pip recorded, so a changed installation is refused rather than handed on.
* The kit installed in development mode (``pip install -e``, ``make``) or run from a
  clone: built from its source tree with setuptools, as ``pip wheel`` builds it, in a
  copy of the tree (no stale ``build/`` folder can slip old files in).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

__all__ = ["kit_wheel", "WheelError", "DISTRIBUTION"]

DISTRIBUTION = "minigrad-kit"
NOT_COPIED = ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")  # pip's, not the wheel's
SOURCE_PARTS = ("pyproject.toml", "README.md", "LICENSE", "minigrad", "widgets", "grader",
                "kit_i18n", "notebooks")
ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # the same bytes for the same files


class WheelError(RuntimeError):
    """The kit's wheel could not be made (the message says why and what to do)."""


def _installed() -> metadata.Distribution | None:
    """The kit as pip installed it from a wheel (not editable, not a source tree's
    egg-info), or None."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    if dist.read_text("RECORD") is None:
        return None  # a source tree's egg-info
    direct = json.loads(dist.read_text("direct_url.json") or "{}")
    if direct.get("dir_info", {}).get("editable"):
        return None
    return dist


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
        b"=").decode()


def _from_record(dist: metadata.Distribution, folder: Path) -> Path:
    files = {}
    for entry in dist.files or []:
        name = entry.as_posix()
        if (name.startswith("../") or "__pycache__" in entry.parts or name.endswith(".pyc")
                or (".dist-info/" in name and entry.name in NOT_COPIED)):
            continue
        data = entry.locate().read_bytes()
        if entry.hash and _digest(data) != f"{entry.hash.mode}={entry.hash.value}":
            raise WheelError(f"{entry.locate()} is not the file pip installed (its hash "
                             "differs from pip's record); reinstall the kit from its wheel "
                             f"(pip install --force-reinstall {_wheel_name(dist.version)}) "
                             "before making a wheel of it")
        files[name] = data
    info = next(n.split("/")[0] for n in files if n.endswith(".dist-info/WHEEL"))
    tags = [line.split(":", 1)[1].strip() for line in files[f"{info}/WHEEL"].decode()
            .splitlines() if line.startswith("Tag:")]
    target = folder / f"{info[:-len('.dist-info')]}-{tags[0]}.whl"
    record = io.StringIO()
    rows = csv.writer(record, lineterminator="\n")
    for name, data in sorted(files.items()):
        rows.writerow([name, _digest(data), len(data)])
    rows.writerow([f"{info}/RECORD", "", ""])
    files[f"{info}/RECORD"] = record.getvalue().encode()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items(), key=lambda pair: (".dist-info/" in pair[0],
                                                                  pair[0])):
            item = zipfile.ZipInfo(name, ZIP_TIME)
            item.compress_type, item.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            archive.writestr(item, data)
    return target


def _wheel_name(version: str) -> str:
    """The file name of the kit's wheel: what a teacher installs (the kit is not on PyPI:
    ``pip install minigrad-kit`` would find nothing there, or someone else's package)."""
    return f"{DISTRIBUTION.replace('-', '_')}-{version}-py3-none-any.whl"


def _source_tree() -> Path:
    root = Path(__file__).resolve().parents[1]
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file() or f'name = "{DISTRIBUTION}"' not in pyproject.read_text(
            encoding="utf-8"):
        raise WheelError("the kit is neither installed from a wheel nor run from its source "
                         f"tree (no pyproject.toml beside {root / 'grader'}): install it from "
                         f"its wheel (pip install {_wheel_name('*')}) or its repository, then "
                         "try again")
    return root


def _from_source(folder: Path) -> Path:
    root = _source_tree()
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-wheel-") as temporary:
        copy = Path(temporary) / "source"
        for part in SOURCE_PARTS:
            path = root / part
            if path.is_dir():
                shutil.copytree(path, copy / part, ignore=shutil.ignore_patterns(
                    "__pycache__", "*.pyc", ".ipynb_checkpoints"))
            elif path.is_file():
                copy.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, copy / part)
        built = Path(temporary) / "dist"
        done = subprocess.run(
            [sys.executable, "-c", "import sys, setuptools.build_meta as backend; "
             "print(backend.build_wheel(sys.argv[1]))", str(built)],
            cwd=copy, capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise WheelError(f"the kit's wheel could not be built from {root} ({last}); it "
                             "needs setuptools 77 or newer here (pip install "
                             "'setuptools>=77'), or install the kit from its wheel")
        name = done.stdout.strip().splitlines()[-1]
        folder.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy2(built / name, folder / name))


def kit_wheel(folder) -> Path:
    """Write the kit's wheel into ``folder``; its path (see the module docstring)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    dist = _installed()
    return _from_record(dist, folder) if dist is not None else _from_source(folder)
