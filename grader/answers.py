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

from .data import Missing, Other

__all__ = ["written_answers", "MAX_CHARACTERS"]

MAX_CHARACTERS = 20_000  # of one literal's source; answers are a line or two


def written_answers(sources: list[str], names: tuple) -> dict:
    """``name -> value`` (str, number, nested lists), ``Other`` (not a literal) or ``Missing``."""
    found: dict = {name: Missing(name) for name in names}
    for source in sources:
        try:
            text = _as_python(source)
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            for name, value in _bindings(node, text):
                if name in found:
                    found[name] = value
    return found


def _bindings(node, source: str) -> list[tuple]:
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = _literal(node.value, source)
        return [(t.id, value) for t in targets if isinstance(t, ast.Name)]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [(node.name, Other("function", "a function, not a formula in quotes"))]
    if isinstance(node, ast.ClassDef):
        return [(node.name, Other("class", "a class"))]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [((a.asname or a.name).split(".")[0], Other("import", "an import"))
                for a in node.names]
    return []


def _literal(node, source: str):
    # (the node's own characters; not ast.get_source_segment, which splits the whole cell
    # in a Python loop at every call: minutes for a cell of a few megabytes)
    start = _offset(source, node.lineno, node.col_offset)
    text = source[start:_offset(source, node.end_lineno, node.end_col_offset)]
    if len(text) > MAX_CHARACTERS:
        return Other("value too long to be an answer", text[:60])
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return Other("value computed by code", text[:60])
    return _plain(value)


def _offset(source: str, line: int, column: int) -> int:
    """The index in ``source`` of (line, UTF-8 byte column), as the ast gives them."""
    start = 0
    for _line in range(line - 1):
        start = source.index("\n", start) + 1
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


def _as_python(code: str) -> str:
    from IPython.core.inputtransformer2 import TransformerManager
    return TransformerManager().transform_cell(code)
