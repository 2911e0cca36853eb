"""A cell's text as IPython reads it, in time linear in its length.

The answers given as data (``answers.py``) and the scan (``scan.py``) read a cell as a
notebook runs it: ``%matplotlib inline`` or ``!ls`` on a line of its own does not hide
the ``df = "..."`` below it. IPython's own reader (``TransformerManager.transform_cell``)
re-tokenizes the whole cell once for every escape it rewrites, and gives up with a
``RuntimeError`` after 500: 2,000 characters of ``x?`` lines took 9 s, 96,000 characters
of plain ``x = 1`` lines 40 s, and 30,000 ``x?`` lines raised, which stopped the grading of
the submission (no timeout applies in the grader's own process: a handful of such cells
would hold a grading worker for hours, and the class behind it).

So IPython's reader is applied in two parts: its cell-wide clean-ups (prompts, leading
indentation, a ``%%`` cell magic: each one pass over the lines), then its rewriting of
escapes **line by line**, only on the lines that start as an escape (``%``, ``!``,
``name = %...``, ``name = !...``) or end in ``?`` (help), each at most ``MAX_LINE``
characters, at most ``MAX_ESCAPES`` of them in a cell (a cell with more is left as
written, unreadable), and only when the cell is not Python as it stands. Each rewrite sees one line,
so the whole costs one pass. (A line inside a string that spans lines and looks like an
escape is rewritten too, where IPython would leave it: such a cell is not Python without
IPython, and reading it differently can only change what that student's own answer
says.) Whatever IPython raises leaves the line as written; nothing here raises.
"""

from __future__ import annotations

import ast
import functools
import re

__all__ = ["as_python", "python_tree", "plain_python_tree", "UNREADABLE", "MAX_LINE",
           "MAX_ESCAPES"]

MAX_LINE = 2_000  # characters of one line rewritten (an escape is a short command)
MAX_ESCAPES = 200  # lines rewritten in one cell (about 0.1 ms each); past that, as written
ESCAPE = re.compile(r"^[ \t]*(?:[%!]|[\w.]+[ \t]*=[ \t]*[%!])|\?[ \t]*$")


@functools.lru_cache(maxsize=64)
def as_python(code: str) -> str:
    """``code`` with IPython's syntax rewritten as Python (see the module docstring)."""
    from IPython.core.inputtransformer2 import TransformerManager

    manager = TransformerManager()
    try:
        lines = (code if code.endswith("\n") else code + "\n").splitlines(keepends=True)
        for transform in manager.cleanup_transforms + manager.line_transforms:
            lines = transform(lines)
    except Exception:  # noqa: BLE001 (IPython's reader on any text)
        return code
    text = "".join(lines)
    if _is_python(text):
        return text
    if sum(1 for line in lines if ESCAPE.search(line)) > MAX_ESCAPES:
        return text  # (not Python: read as unreadable, as any cell Python cannot read)
    return "".join(_line(manager, line) for line in lines)


def _line(manager, line: str) -> str:
    if len(line) > MAX_LINE or not ESCAPE.search(line):
        return line
    indent = line[:len(line) - len(line.lstrip(" \t"))]
    try:
        rewritten = manager.transform_cell(line.lstrip(" \t"))
    except Exception:  # noqa: BLE001 (IPython's reader on any text)
        return line
    return "".join(indent + part for part in rewritten.splitlines(keepends=True))


# What Python's parser raises for text it cannot read: a syntax error, a null byte
# (ValueError), nesting beyond its limits (RecursionError, MemoryError: "-" * 20_000 + "1").
UNREADABLE = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)


@functools.lru_cache(maxsize=32)
def python_tree(text: str) -> ast.Module | None:
    """The syntax tree of ``text`` (None: Python cannot read it), parsed once for all who
    read it: the tree is shared, so it is read and never changed (copy it first). Python
    3.11's parser takes time quadratic in the fields of one f-string: 100,000 characters
    of ``{x}`` cost a second a parse (measured), and a grading read each answer cell four
    times (``as_python``, the answers given as data, the scan, the code run's check)."""
    try:
        return ast.parse(text)
    except UNREADABLE:
        return None


def plain_python_tree(code: str) -> ast.Module | None:
    """The tree of ``code`` as Python reads it without IPython's rewriting (a code run
    compiles it so): ``python_tree`` of it with the final newline ``as_python`` gives it,
    which changes nothing Python reads, so that the two share one parse."""
    return python_tree(code if code.endswith("\n") else code + "\n")


def _is_python(text: str) -> bool:
    return python_tree(text) is not None
