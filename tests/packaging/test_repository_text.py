"""Every text file the repository holds is free of unresolved merge conflicts: a README row
left between ``<<<<<<<`` and ``>>>>>>>`` once reached main with every other test green."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^(<{7}|>{7})( |$)|^={7}$", re.MULTILINE)


def test_no_file_holds_a_merge_conflict():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    conflicted = []
    for name in filter(None, listed):
        path = ROOT / name
        if not path.is_file() or path.suffix in {".png", ".svg", ".whl", ".zip"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if MARKER.search(text):
            conflicted.append(name)
    assert len(listed) > 100 and conflicted == []
