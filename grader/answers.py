"""Answers given as data: read from the notebook's text, never from the student's kernel.

A question whose answer is data (a formula in quotes, numbers, a tuple)
names the variables that hold it (``Question.answers``). The grader reads
them from the cells the student wrote, as written: the last top-level
``name = <literal>`` wins. The cells do not have to run, and no kernel,
patch or hook can change what is read. Anything else that binds the name
(a function, an expression, an import) is reported as such.

What an honest answer holds beyond a literal, and Python gives the same value
from, is read too, computed here from the text and the grader's own numbers
(``known``: the student's variant, as the grader draws it), never from a kernel:
``dk_dx, dk_dy = "...", "..."`` (one literal a name), and a formula written with
the variant's numbers, ``df = f"{3*a}*x**2 + {b}"`` or ``shape = (m, 1)``
(``_computed``: names bound to numbers or text, f-strings, ``"...".format(...)``,
``"..." % (...)``, ``str(...)``, arithmetic, all bounded). Read as "a value computed by
code" they scored 0 while ``check()``, which reads the kernel's values, said the public
checks passed.

    >>> written_answers(['df = "3*x**2 - 2"', 'x_grad = [[0.5], [1.0]]'], ("df", "x_grad"))
    {'df': '3*x**2 - 2', 'x_grad': [[0.5], [1.0]]}
    >>> written_answers(["def df(x):\\n    return 3 * x ** 2 - 2"], ("df",))["df"].kind
    'function'
"""

from __future__ import annotations

import ast
import copy
import functools
import operator
import re
import string

from .data import Missing, Other
from .ipython_text import as_python, python_tree

__all__ = ["written_answers", "MAX_CHARACTERS"]

MAX_CHARACTERS = 20_000  # of one literal's source; answers are a line or two
BUDGET = 10 * MAX_CHARACTERS  # of text computed in one reading of the cells (``_Budget``)


def written_answers(sources: list[str], names: tuple, known: dict | None = None) -> dict:
    """``name -> value`` (str, number, nested lists), ``Other`` (not a literal) or ``Missing``.
    ``known``: names the notebook's locked cells bind to numbers (the student's variant)."""
    found: dict = {name: Missing(name) for name in names}
    bound = {k: v for k, v in (known or {}).items() if _plain_value(v)}
    budget = _Budget(BUDGET)
    for source in sources:
        for name, value in _cell_bindings(source):
            if isinstance(value, _Computed):
                value = value.read(bound, budget)
            # (a name bound to anything else is no value here, and no builtin either:
            # ``def str(x): ...`` before ``str(a)``)
            bound[name] = value if _plain_value(value) else UNREAD
            if name in found:
                found[name] = copy.deepcopy(value)
    return found


UNREAD = object()  # what a name the cells bind to other than a number or a text holds


def _plain_value(value) -> bool:
    return isinstance(value, (int, float, str)) and not isinstance(value, bool)


class _Computed:
    """A value Python computes from literals and names (``_computed``), read when the
    names' values are known."""

    def __init__(self, node, text: str) -> None:
        self.node, self.text = node, text

    def read(self, bound: dict, budget: "_Budget"):
        try:
            return _plain(_computed(self.node, bound, budget))
        except (_Refused, ValueError, TypeError, ArithmeticError, LookupError,
                RecursionError, MemoryError):  # ("{1}".format(a): IndexError)
            return Other("value computed by code", self.text[:60])


class _Refused(Exception):
    pass


class _Budget:
    """The characters of text ``_computed`` may still make in one reading of the cells
    (``written_answers``), each text at most ``MAX_CHARACTERS``, counted before it is made.
    Bounded only by its result, an f-string of 6,500 ``{s}`` (s a 19,000-character literal
    bound before it) joined 120 million characters before it was refused, and four such
    lines in each answer cell held the grader's own process (outside every time limit) for
    a minute on one submission of assignment 1, read once per question (red team 12)."""

    def __init__(self, characters: int) -> None:
        self.left = characters

    def spend(self, characters: int) -> None:
        if characters > MAX_CHARACTERS or characters > self.left:
            raise _Refused
        self.left -= characters


BIGGEST = 10 ** 30  # of a whole number computed (a shape, a constant: a few digits)
SPEC = re.compile(r"[<>^=+\- #0,_.]*[0-9]{0,2}(\.[0-9]{1,2})?[a-zA-Z%]?")  # ".3f", "", ">8"
# printf-style conversions (``"%d*x" % a``): flags, two digits of width and precision at most,
# no ``*`` (a width taken from the values) and no ``%(name)s``
PRINTF = re.compile(r"%[-+ #0]*[0-9]{0,2}(?:\.[0-9]{0,2})?[diouxXeEfFgGcrsa%]")
NUMBER_TEXT = {"str": str, "repr": repr}  # str(3*a), as a formula's part
OPERATIONS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
              ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
              ast.Pow: operator.pow}


def _computed(node, bound: dict, budget: _Budget):
    """The value of ``node``: literals, names in ``bound``, f-strings, + - * / // % ** of
    numbers, + of texts, tuples and lists of these; anything else is refused. Every value
    stays small: numbers below ``BIGGEST``, powers of small exponents, texts of at most
    ``MAX_CHARACTERS`` (and all of them within ``budget``, counted before each is made),
    format specifications of two digits."""
    if isinstance(node, ast.Constant) and (_plain_value(node.value) or
                                           isinstance(node.value, bool)):
        return node.value
    if isinstance(node, ast.Name) and node.id in bound and bound[node.id] is not UNREAD:
        return bound[node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [_computed(e, bound, budget) for e in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _computed(node.operand, bound, budget)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise _Refused
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.JoinedStr):
        parts = [_computed(part, bound, budget) for part in node.values]
        budget.spend(sum(len(part) for part in parts))
        return "".join(parts)
    if isinstance(node, ast.FormattedValue):
        spec = "" if node.format_spec is None else _computed(node.format_spec, bound, budget)
        if node.conversion not in (-1, ord("s"), ord("r")) or not SPEC.fullmatch(spec):
            raise _Refused
        value = _computed(node.value, bound, budget)
        if isinstance(value, list):  # (a tuple, read as a list: it would print otherwise)
            raise _Refused
        text = format(value, spec) if node.conversion == -1 else \
            NUMBER_TEXT["str" if node.conversion == ord("s") else "repr"](value)
        budget.spend(len(text))  # (a value's text, padded to at most two digits' width)
        return text
    if isinstance(node, ast.Call):
        return _called(node, bound, budget)
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATIONS:
        left, right = _computed(node.left, bound, budget), _computed(node.right, bound, budget)
        if isinstance(left, str) and isinstance(right, str) and isinstance(node.op, ast.Add):
            budget.spend(len(left) + len(right))
            return left + right
        if isinstance(left, str) and isinstance(node.op, ast.Mod):  # "%d*x**2" % (3*a)
            values = tuple(right) if isinstance(node.right, ast.Tuple) else (right,)
            conversions = PRINTF.findall(left)
            if left.count("%") != sum(c.count("%") for c in conversions) or any(
                    isinstance(v, list) for v in values):
                raise _Refused
            budget.spend(_formatted_bound(left, len(conversions), values))
            return left % (tuple(right) if isinstance(node.right, ast.Tuple) else right)
        numbers = [v for v in (left, right)
                   if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(numbers) != 2 or (isinstance(node.op, ast.Pow) and abs(right) > 64):
            raise _Refused
        value = OPERATIONS[type(node.op)](left, right)
        if isinstance(value, complex) or abs(value) > BIGGEST:
            raise _Refused
        return value
    raise _Refused


def _called(node: ast.Call, bound: dict, budget: _Budget) -> str:
    """``"...".format(...)`` of numbers and texts, its fields plain (``{}``, ``{0}``,
    ``{name}``, a format specification of two digits), or ``str(value)``, ``repr(value)``
    of a number or a text: Python's own text of them, counted before it is made."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords):
        raise _Refused
    args = [_computed(a, bound, budget) for a in node.args]
    keywords = {k.arg: _computed(k.value, bound, budget) for k in node.keywords}
    values = args + list(keywords.values())
    if any(isinstance(v, list) for v in values):
        raise _Refused
    function = node.func
    if isinstance(function, ast.Name) and function.id in NUMBER_TEXT and function.id not in \
            bound and len(args) == 1 and not keywords:
        budget.spend(_formatted_bound("", 1, values))
        return NUMBER_TEXT[function.id](args[0])
    if not (isinstance(function, ast.Attribute) and function.attr == "format"):
        raise _Refused
    text = _computed(function.value, bound, budget)
    if not isinstance(text, str):
        raise _Refused
    fields = [(name, spec, conversion) for _literal, name, spec, conversion
              in string.Formatter().parse(text) if name is not None]
    if any(not (name == "" or name.isdigit() or name.isidentifier())
           or conversion not in (None, "s", "r") or not SPEC.fullmatch(spec or "")
           for name, spec, conversion in fields):
        raise _Refused
    budget.spend(_formatted_bound(text, len(fields), values))
    return text.format(*args, **keywords)


def _formatted_bound(text: str, fields: int, values: list) -> int:
    """The most characters ``text`` with ``fields`` fields of ``values`` can format to: each
    value's longest text, and what a field of two digits can add to it (a float's 309
    digits before the point and 99 after it, ``{:.99f}`` of 1e308)."""
    longest = max((len(repr(v)) for v in values), default=0)
    return len(text) + fields * (longest + 310 + 99)


@functools.lru_cache(maxsize=256)
def _cell_bindings(source: str) -> tuple:
    """Every top-level binding of one cell, in order (read once per cell: a grading reads
    the same cells for each question)."""
    # (lines end in "\n" only, as ast and the line starts below count them alike)
    text = as_python(source).replace("\r\n", "\n").replace("\r", "\n")
    tree = python_tree(text)  # (shared with the scan: read only)
    if tree is None:
        return ()
    starts = [0] + [found.end() for found in re.finditer("\n", text)]
    return tuple(binding for node in tree.body for binding in _bindings(node, text, starts))


def _bindings(node, source: str, starts: list) -> list[tuple]:
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = _literal(node.value, source, starts)
        found = []
        for target in targets:
            if isinstance(target, ast.Name):
                found.append((target.id, value))
            elif isinstance(target, (ast.Tuple, ast.List)):  # a, b = "...", "..."
                names = [t.id for t in target.elts if isinstance(t, ast.Name)]
                parts = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) \
                    else None
                if parts is not None and len(names) == len(target.elts) == len(parts):
                    found += [(n, _literal(p, source, starts)) for n, p in zip(names, parts)]
                else:
                    shown = value.text if isinstance(value, _Computed) else repr(value)
                    found += [(n, Other("value computed by code", shown[:60]))
                              for n in names]
        return found
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
        # (``dk_dx += " + ..."`` binds what ``dk_dx = dk_dx + " + ..."`` binds, and is read
        # so: the first part alone was read, and scored 0, while check() judged the whole)
        text = _segment(node, source, starts)
        if len(text) > MAX_CHARACTERS:
            return [(node.target.id, Other("value too long to be an answer", text[:60]))]
        grown = ast.BinOp(left=ast.Name(id=node.target.id, ctx=ast.Load()), op=node.op,
                          right=node.value)
        return [(node.target.id, _Computed(grown, text))]
    if isinstance(node, ast.Delete):  # (del df: no longer defined, as in the kernel)
        return [(t.id, Missing(t.id)) for t in node.targets if isinstance(t, ast.Name)]
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
    text = _segment(node, source, starts)
    if len(text) > MAX_CHARACTERS:
        return Other("value too long to be an answer", text[:60])
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _Computed(node, text)
    return _plain(value)


def _segment(node, source: str, starts: list) -> str:
    """The node's own characters in ``source``."""
    start = _offset(source, starts, node.lineno, node.col_offset)
    return source[start:_offset(source, starts, node.end_lineno, node.end_col_offset)]


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
