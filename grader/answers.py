"""Answers given as data: read from the notebook's text, never from the student's kernel.

A question whose answer is data (a formula in quotes, numbers, a tuple)
names the variables that hold it (``Question.answers``). The grader reads
them from the cells the student wrote, as written: the last top-level
``name = <literal>`` wins. The cells do not have to run, and no kernel,
patch or hook can change what is read. Anything else that binds the name
(a function, an expression, an import) is reported as such.

    >>> written_answers(['df = "3*x**2 - 2"', 'x_grad = [[0.5], [1.0]]'], ("df", "x_grad"))
    {'df': '3*x**2 - 2', 'x_grad': [[0.5], [1.0]]}
    >>> written_answers(["def df(x):\\n    return 3 * x ** 2 - 2"], ("df",))["df"].kind
    'function'
"""

from __future__ import annotations

import ast
import copy
import functools
import re

from .data import Missing, Other
from .ipython_text import as_python

__all__ = ["written_answers", "MAX_CHARACTERS"]

MAX_CHARACTERS = 20_000  # of one literal's source; answers are a line or two


def written_answers(sources: list[str], names: tuple) -> dict:
    """``name -> value`` (str, number, nested lists), ``Other`` (not a literal) or ``Missing``."""
    found: dict = {name: Missing(name) for name in names}
    for source in sources:
        for name, value in _cell_bindings(source):
            if name in found:
                found[name] = copy.deepcopy(value)
    return found


@functools.lru_cache(maxsize=256)
def _cell_bindings(source: str) -> tuple:
    """Every top-level binding of one cell, in order (read once per cell: a grading reads
    the same cells for each question)."""
    # (lines end in "\n" only, as ast and the line starts below count them alike)
    text = as_python(source).replace("\r\n", "\n").replace("\r", "\n")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return ()
    starts = [0] + [found.end() for found in re.finditer("\n", text)]
    return tuple(binding for node in tree.body for binding in _bindings(node, text, starts))


def _bindings(node, source: str, starts: list) -> list[tuple]:
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = _literal(node.value, source, starts)
        return [(t.id, value) for t in targets if isinstance(t, ast.Name)]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [(node.name, Other("function", "a function, not a formula in quotes"))]
    if isinstance(node, ast.ClassDef):
        return [(node.name, Other("class", "a class"))]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [((a.asname or a.name).split(".")[0], Other("import", "an import"))
                for a in node.names]
    return []


def _literal(node, source: str, starts: list):
    # (the node's own characters; not ast.get_source_segment, which splits the whole cell
    # in a Python loop at every call: minutes for a cell of a few megabytes; and the
    # lines' starts found once per cell: found again for each assignment, 16,000 lines of
    # `x = 1` cost two minutes of the grader's own process)
    start = _offset(source, starts, node.lineno, node.col_offset)
    text = source[start:_offset(source, starts, node.end_lineno, node.end_col_offset)]
    if len(text) > MAX_CHARACTERS:
        return Other("value too long to be an answer", text[:60])
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return Other("value computed by code", text[:60])
    return _plain(value)


def _offset(source: str, starts: list, line: int, column: int) -> int:
    """The index in ``source`` of (line, UTF-8 byte column), as the ast gives them
    (``starts``: where each line of ``source`` starts)."""
    start = starts[line - 1]
    end = source.find("\n", start)
    text = source[start:] if end < 0 else source[start:end]
    return start + len(text.encode("utf-8")[:column].decode("utf-8", errors="ignore"))


def _plain(value):
    """Tuples as lists, as the kernel's data would have them; no sets, bytes or dicts."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, float, str)):
        return value
    return Other(type(value).__name__, repr(value)[:60])
