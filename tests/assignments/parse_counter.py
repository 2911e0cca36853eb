"""The parses of long sources in the grading worker (``builtins.compile``, which ``ast.parse``
goes through too): ``timed`` stands for ``grader.batch._timed`` (pickled by name, so the
worker imports this module), grades with the real one and writes the lengths of the sources
of at least ``LONG`` characters it compiled meanwhile beside the submission, in
``<file>.parses`` (JSON)."""

import builtins
import json
from pathlib import Path

from grader import batch
from grader.ipython_text import python_tree

TIMED = batch._timed
LONG = 50_000


def timed(path, *arguments):
    lengths = []
    compile_ = builtins.compile

    def counted(source, *args, **kwargs):
        if isinstance(source, str) and len(source) >= LONG:
            lengths.append(len(source))
        return compile_(source, *args, **kwargs)

    python_tree.cache_clear()
    builtins.compile = counted
    try:
        return TIMED(path, *arguments)
    finally:
        builtins.compile = compile_
        Path(f"{path}.parses").write_text(json.dumps(lengths))
