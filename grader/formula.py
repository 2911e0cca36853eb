"""Answers written as formulas: read and evaluated as data, never run as code.

A "by hand" answer is a formula in a string, ``df = "3*x**2 - 2"``. The
grader reads it with Python's parser (``ast.parse``, which only builds a
syntax tree), accepts a small grammar and evaluates the tree itself with
NumPy in float64. No student text is ever passed to ``eval``, and nothing a
formula names can reach autograd, the notebook's functions or the grader:

* numbers, the question's variables (``x``, ``y``, ...), ``pi`` and ``e``;
* ``+ - * / **``, unary ``-`` and ``+``, parentheses;
* calls of the functions the question allows (``sin``, ``exp``, ...), with
  positional arguments; ``torch.sin``, ``np.sin`` and ``math.sin`` are read
  as ``sin``.

    >>> formula = parse("3*x**2 - 2", variables=("x",))
    >>> formula.evaluate(x=[0.0, 1.0, 2.0]).tolist()
    [-2.0, 1.0, 10.0]
    >>> parse("exp(x) * (sin(x) + cos(x))", ("x",), ELEMENTARY).evaluate(x=0.0).item()
    1.0
    >>> parse("f(x)", ("x",))
    Traceback (most recent call last):
    ...
    grader.formula.FormulaError: the formula 'f(x)' calls f, which is not allowed here; write the derivative with +, -, *, /, ** only
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

import numpy as np


__all__ = ["Formula", "FormulaError", "parse", "ELEMENTARY", "REDUCTIONS", "MAX_LENGTH"]

MAX_LENGTH = 300  # characters; the kit's answers need fewer than 60
MAX_NODES = 200

ELEMENTARY = {
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "exp": np.exp, "log": np.log,
    "sqrt": np.sqrt, "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "abs": np.abs,
}
REDUCTIONS = {"sum": np.sum, "mean": np.mean}  # over every element: a number
CONSTANTS = {"pi": math.pi, "e": math.e}
NAMESPACES = ("torch", "np", "numpy", "math")  # torch.sin(x) reads as sin(x)
OPERATORS = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply,
             ast.Div: np.divide, ast.Pow: np.power}
SYMBOLS = {ast.BitXor: "^ (write powers as **)", ast.FloorDiv: "//", ast.Mod: "%",
           ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.LShift: "<<",
           ast.RShift: ">>"}
KINDS = {"Attribute": "an attribute (x.something)", "Subscript": "an index (x[...])",
         "List": "a list", "Tuple": "a tuple", "Compare": "a comparison",
         "IfExp": "a conditional (... if ... else ...)", "Lambda": "a lambda",
         "BoolOp": "and/or", "NamedExpr": "an assignment (:=)"}


class FormulaError(ValueError):
    """A formula that cannot be read; the message says what to write instead."""


@dataclass(frozen=True)
class Formula:
    """A checked formula: its text, its tree and what it may use."""

    text: str
    tree: ast.expr
    variables: tuple
    functions: dict

    def evaluate(self, **values) -> np.ndarray:
        """The formula's value (float64; NumPy broadcasting between the variables)."""
        arrays = {name: np.asarray(values[name], dtype=np.float64) for name in self.variables}
        with np.errstate(all="ignore"):
            return np.asarray(self._value(self.tree, arrays), dtype=np.float64)

    def constants(self) -> list[float]:
        """The numbers the formula holds, with constant parts worked out (``1/10**5``: 1e-05)."""
        found: list[float] = []
        with np.errstate(all="ignore"):
            self._constants(self.tree, found)
        return found

    def _value(self, node, arrays):
        if isinstance(node, ast.Constant):
            return np.float64(node.value)
        if isinstance(node, ast.Name):
            return arrays[node.id] if node.id in arrays else np.float64(CONSTANTS[node.id])
        if isinstance(node, ast.UnaryOp):
            value = self._value(node.operand, arrays)
            return np.negative(value) if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp):
            return OPERATORS[type(node.op)](self._value(node.left, arrays),
                                            self._value(node.right, arrays))
        function = self.functions[_function_name(node.func)]
        return function(*(self._value(arg, arrays) for arg in node.args))

    def _constants(self, node, found: list) -> bool:
        """Collect the largest variable-free parts; True if ``node`` holds a variable."""
        if isinstance(node, ast.Name) and node.id in self.variables:
            return True
        children = list(ast.iter_child_nodes(node))
        if isinstance(node, ast.Call):
            children = node.args
        flags = [self._constants(child, []) for child in children]
        if not any(flags):
            if isinstance(node, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name)):
                found.append(float(self._value(node, {})))
            return False
        for child, has_variable in zip(children, flags):
            if has_variable:
                self._constants(child, found)
            elif isinstance(child, ast.expr):
                found.append(float(self._value(child, {})))
        return True


def parse(text, variables: tuple = ("x",), functions: dict | None = None) -> Formula:
    """Check ``text`` against the grammar (see the module docstring), or raise FormulaError."""
    functions = dict(functions or {})
    if not isinstance(text, str):
        raise FormulaError(f"the answer should be a formula in quotes, like \"3*x**2 - 2\", "
                           f"not a {type(text).__name__}")
    shown = text if len(text) <= 80 else text[:77] + "..."
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"the formula is {len(text)} characters long; at most {MAX_LENGTH} "
                           "are read (simplify it)")
    if not text.strip():
        raise FormulaError("the formula is empty")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise FormulaError(f"could not read the formula {shown!r}: write products with * and "
                           "powers with ** (e.g. 3*x**2 - 2*x)") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise FormulaError(f"the formula {shown!r} is too long (simplify it)")
    _check(tree, shown, tuple(variables), functions)
    return Formula(text, tree, tuple(variables), functions)


def _check(node, shown: str, variables: tuple, functions: dict) -> None:
    """Raise FormulaError at the first part of the tree outside the grammar."""
    allowed = ", ".join(variables + tuple(CONSTANTS))
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise FormulaError(f"the formula {shown!r} holds {node.value!r}; only numbers, "
                               f"{allowed} and functions can appear in it")
        return
    if isinstance(node, ast.Name):
        if node.id not in variables and node.id not in CONSTANTS:
            raise FormulaError(f"the formula {shown!r} uses {node.id!r}; it may use {allowed}")
        return
    if isinstance(node, ast.BinOp):
        if type(node.op) not in OPERATORS:
            raise FormulaError(f"the formula {shown!r} uses {SYMBOLS.get(type(node.op), '?')}; "
                               "use + - * / ** and parentheses")
        _check(node.left, shown, variables, functions)
        _check(node.right, shown, variables, functions)
        return
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            raise FormulaError(f"the formula {shown!r} uses an operator that is not allowed; "
                               "use + - * / ** and parentheses")
        _check(node.operand, shown, variables, functions)
        return
    if isinstance(node, ast.Call):
        name = _function_name(node.func)
        if name not in functions:
            known = ", ".join(functions) if functions else None
            raise FormulaError(f"the formula {shown!r} calls {name or 'something'}, which is "
                               "not allowed here; "
                               + (f"it may use {known}" if known else
                                  "write the derivative with +, -, *, /, ** only"))
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args) \
                or len(node.args) != 1:
            raise FormulaError(f"the formula {shown!r} calls {name} with other than one "
                               f"argument; write {name}(...) with one")
        _check(node.args[0], shown, variables, functions)
        return
    what = KINDS.get(type(node).__name__, "Python that is not arithmetic")
    raise FormulaError(f"the formula {shown!r} holds {what}; write it with numbers, {allowed}, "
                       "+ - * / ** and functions")


def _function_name(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id in NAMESPACES:
        return node.attr
    return None
