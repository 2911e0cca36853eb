"""Answers written as formulas: read and evaluated as data, never run as code.

A "by hand" answer is a formula in a string: ``df = "3*x**2 - 2"``, or, over tensors,
``dlogits = "(softmax(logits, 1) - one_hot(Y, C)) / n"``. The grader reads it with
Python's parser (``ast.parse`` only builds a syntax tree), accepts a small grammar and
evaluates the tree itself, on values of its own. Nothing a formula names can reach
autograd, the notebook's functions or the grader:

* numbers, the question's variables (``x``, ``grad_output``, ``W1``, ...), ``pi``, ``e``;
* ``+ - * / ** @``, unary ``-`` and ``+``, parentheses, and one comparison
  (``x > 0`` is 1 where it holds, else 0; ``logits == logit_maxes`` marks each row's
  largest entry);
* ``t.T`` (the dimensions reversed, as PyTorch's ``.T``) and ``t[...]`` with whole
  numbers, slices of them, ``None``, ``...``, a variable of labels and ``range(n)``;
* calls of the functions the question allows, as functions or as methods:
  ``sum(t, 1, keepdim=True)`` is ``t.sum(1, keepdim=True)``; ``torch.exp``,
  ``np.exp``, ``F.softmax`` and ``math.exp`` read as ``exp``;
* ``t.view(n, -1)`` (or ``reshape``): the same numbers in another shape, the sizes whole
  numbers or formulas of the question's size variables (``n * block``).

Broadcasting, ``dim`` and ``keepdim`` mean what they mean in PyTorch; ``max(t, dim)``
is the values alone (``.values`` may follow). One tree is evaluated three ways:
``Formula.evaluate`` in float64 with NumPy, ``Formula.exact`` at ``DIGITS`` digits with
mpmath (``exact.py``: is it the derivative, or an approximation?), and
``Formula.on_tensors`` with minigrad's or PyTorch's own operations (a notebook builds
a working ``Function`` from a backward written as a formula).

    >>> formula = parse("3*x**2 - 2", variables=("x",))
    >>> formula.evaluate(x=[0.0, 1.0, 2.0]).tolist()
    [-2.0, 1.0, 10.0]
    >>> parse("exp(x) * (sin(x) + cos(x))", ("x",), ELEMENTARY).evaluate(x=0.0).item()
    1.0
    >>> parse("y * (g - sum(g * y, -1, keepdim=True))", ("y", "g"), TENSOR).evaluate(
    ...     y=[[0.25, 0.75]], g=[[1.0, 0.0]]).tolist()
    [[0.1875, -0.1875]]
    >>> parse("f(x)", ("x",))
    Traceback (most recent call last):
    ...
    grader.formula.FormulaError: the formula 'f(x)' calls f, which is not allowed here; write it with +, -, *, /, ** only
"""

from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass

import numpy as np

from .i18n import _

__all__ = ["Formula", "FormulaError", "parse", "ELEMENTARY", "REDUCTIONS", "TENSOR",
           "MAX_LENGTH", "MAX_ELEMENTS", "names_in"]

MAX_LENGTH = 300  # characters; the kit's answers need fewer than 70
MAX_NODES = 200
MAX_ELEMENTS = 1_000_000  # of any value a formula computes (a broadcast cannot blow up)
MAX_CLASSES = 10_000  # one_hot's number of classes

# The functions a question may allow, by kind (a question names those it allows).
ELEMENTWISE = ("sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "sinh", "cosh", "abs",
               "sigmoid", "relu")
REDUCING = ("sum", "mean", "max", "min")
ALONG = ("softmax", "log_softmax")
ELEMENTARY = ("sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "sinh", "cosh", "abs")
REDUCTIONS = ("sum", "mean")  # sum(t): every element, a number; sum(t, dim) as PyTorch
SHAPING = ("view", "reshape")  # t.view(sizes): the same numbers in another shape
TENSOR = ("exp", "log", "tanh", "sqrt", "sigmoid", "relu", "sum", "mean", "max",
          "softmax", "log_softmax", "one_hot") + SHAPING
KNOWN = set(ELEMENTWISE + REDUCING + ALONG + SHAPING + ("one_hot",))
CONSTANTS = {"pi": math.pi, "e": math.e}
NAMESPACES = ("torch", "np", "numpy", "math", "F")  # torch.sin(x) reads as sin(x)
INDEX_RANGES = ("range", "arange")  # range(n) inside t[...] only
OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
             ast.Div: operator.truediv, ast.Pow: operator.pow, ast.MatMult: operator.matmul}
COMPARISONS = {ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Lt: operator.lt,
               ast.LtE: operator.le, ast.Eq: operator.eq}
SYMBOLS = {ast.BitXor: "^ (write powers as **)", ast.FloorDiv: "//", ast.Mod: "%",
           ast.BitAnd: "&", ast.BitOr: "|", ast.LShift: "<<", ast.RShift: ">>"}
KEYWORDS = {"dim": "dim", "axis": "dim", "keepdim": "keepdim", "keepdims": "keepdim",
            "num_classes": "classes"}


def _kinds() -> dict:
    return {"Attribute": _("an attribute (x.something)"), "Subscript": _("an index (x[...])"),
            "List": _("a list"), "Tuple": _("a tuple"), "Compare": _("a comparison"),
            "IfExp": _("a conditional (... if ... else ...)"), "Lambda": _("a lambda"),
            "BoolOp": _("and/or"), "NamedExpr": _("an assignment (:=)")}


class FormulaError(ValueError):
    """A formula that cannot be read or evaluated; the message says what to write instead."""


@dataclass(frozen=True)
class Formula:
    """A checked formula: its text, its tree and what it may use."""

    text: str
    tree: ast.expr
    variables: tuple
    functions: frozenset
    labels: tuple = ()  # variables holding whole numbers (class labels): for t[...], one_hot

    def evaluate(self, **values) -> np.ndarray:
        """The formula's value in float64 (NumPy), at ``values`` (name -> array or number)."""
        with np.errstate(all="ignore"):
            return np.asarray(_Evaluation(self, FLOAT64, values).value(self.tree),
                              dtype=np.float64)

    def exact(self, **values) -> np.ndarray:
        """The formula's value at ``exact.DIGITS`` digits (an array of mpmath numbers)."""
        from .exact import MPMATH
        return np.asarray(_Evaluation(self, MPMATH, values).value(self.tree), dtype=object)

    def on_tensors(self, module, **values):
        """The formula computed with ``module``'s operations (minigrad or torch) on its
        tensors: the value a notebook's Function returns."""
        return _Evaluation(self, _Tensors(module), values).value(self.tree)


def parse(text, variables: tuple = ("x",), functions=(), labels: tuple = ()) -> Formula:
    """Check ``text`` against the grammar (see the module docstring), or raise FormulaError.

    ``functions``: the names of the functions the formula may call (any of ``KNOWN``);
    ``labels``: variables of whole numbers, for indexing and ``one_hot``."""
    functions = frozenset(functions or ())
    if not isinstance(text, str):
        raise FormulaError(_("the answer should be a formula in quotes, not a {kind}").format(
            kind=type(text).__name__))
    shown = text if len(text) <= 80 else text[:77] + "..."
    if len(text) > MAX_LENGTH:
        raise FormulaError(_("the formula is {length} characters long; at most {limit} are "
                             "read (simplify it)").format(length=len(text), limit=MAX_LENGTH))
    if not text.strip():
        raise FormulaError(_("the formula is empty"))
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise FormulaError(_("could not read the formula {formula}: write products with * and "
                             "powers with ** (e.g. 3*x**2 - 2*x)").format(
            formula=repr(shown))) from None
    if sum(1 for _node in ast.walk(tree)) > MAX_NODES:
        raise FormulaError(_("the formula {formula} is too long (simplify it)").format(
            formula=repr(shown)))
    _Check(shown, tuple(variables), functions, tuple(labels)).expression(tree)
    return Formula(text, tree, tuple(variables), functions, tuple(labels))


def names_in(text: str) -> set[str]:
    """The names a formula's text mentions (empty if it cannot be read)."""
    try:
        return {n.id for n in ast.walk(ast.parse(str(text).strip(), mode="eval"))
                if isinstance(n, ast.Name)}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()


# --- reading: the grammar ---------------------------------------------------------------------

class _Check:
    """Raises FormulaError at the first part of a tree outside the grammar."""

    def __init__(self, shown: str, variables: tuple, functions: frozenset, labels: tuple):
        self.shown, self.variables, self.functions = repr(shown), variables, functions
        self.labels = labels

    def fail(self, message: str, **values):
        raise FormulaError(message.format(formula=self.shown, **values))

    def allowed(self) -> str:
        return ", ".join(self.variables + self.labels + tuple(CONSTANTS))

    def expression(self, node) -> None:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                self.fail(_("the formula {formula} holds {value}; only numbers, {allowed} and "
                            "functions can appear in it"), value=repr(node.value),
                          allowed=self.allowed())
        elif isinstance(node, ast.Name):
            if node.id not in self.variables + self.labels and node.id not in CONSTANTS:
                self.fail(_("the formula {formula} uses {name}; it may use {allowed}"),
                          name=repr(node.id), allowed=self.allowed())
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in OPERATORS:
                self.fail(_("the formula {formula} uses {symbol}; use + - * / ** @ and "
                            "parentheses"), symbol=SYMBOLS.get(type(node.op), "?"))
            self.expression(node.left)
            self.expression(node.right)
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, (ast.USub, ast.UAdd)):
                self.fail(_("the formula {formula} uses an operator that is not allowed; use "
                            "+ - * / ** and parentheses"))
            self.expression(node.operand)
        elif isinstance(node, ast.Compare):
            if len(node.ops) != 1 or type(node.ops[0]) not in COMPARISONS:
                self.fail(_("the formula {formula} holds a comparison other than one of "
                            "< <= > >= == between two values"))
            self.expression(node.left)
            self.expression(node.comparators[0])
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.Attribute) and node.attr == "T":
            self.expression(node.value)
        elif isinstance(node, ast.Attribute) and node.attr == "values" \
                and isinstance(node.value, ast.Call) and _function(node.value) in ("max", "min"):
            self.call(node.value)
        elif isinstance(node, ast.Subscript):
            self.expression(node.value)
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for part in parts:
                self.index(part)
        else:
            what = _kinds().get(type(node).__name__, _("Python that is not arithmetic"))
            self.fail(_("the formula {formula} holds {what}; write it with numbers, {allowed}, "
                        "+ - * / ** and functions"), what=what, allowed=self.allowed())

    def call(self, node: ast.Call) -> None:
        name = _function(node)
        if name not in self.functions or name not in KNOWN:
            known = ", ".join(sorted(self.functions)) if self.functions else None
            self.fail(_("the formula {formula} calls {name}, which is not allowed here; "
                        "it may use {known}") if known else
                      _("the formula {formula} calls {name}, which is not allowed here; write "
                        "it with +, -, *, /, ** only"),
                      name=name or _("something"), known=known)
        arguments = _arguments(node)
        if any(isinstance(a, ast.Starred) for a in arguments) or \
                any(k.arg is None for k in node.keywords):
            self.fail(_("the formula {formula} calls {name} with * or **; write its arguments "
                        "out"), name=name)
        first, rest = arguments[0] if arguments else None, arguments[1:]
        keywords = {}
        for keyword in node.keywords:
            if KEYWORDS.get(keyword.arg) is None or KEYWORDS[keyword.arg] in keywords:
                self.fail(_("the formula {formula} calls {name} with {keyword}=, which it does "
                            "not take"), name=name, keyword=keyword.arg)
            keywords[KEYWORDS[keyword.arg]] = keyword.value
        if first is None:
            self.fail(_("the formula {formula} calls {name} with nothing to work on"),
                      name=name)
        if name in ELEMENTWISE:
            if rest or keywords:
                self.fail(_("the formula {formula} calls {name} with other than one argument; "
                            "write {name}(...) with one"), name=name)
        elif name in REDUCING:
            self.dims(name, rest, keywords, required=False)
        elif name in ALONG:
            self.dims(name, rest, keywords, required=True)
        elif name == "one_hot":
            classes = rest[0] if rest else keywords.get("classes")
            if not isinstance(first, ast.Name) or first.id not in self.labels \
                    or classes is None or len(rest) > 1 or set(keywords) - {"classes"} \
                    or (rest and "classes" in keywords):
                self.fail(_("the formula {formula} calls one_hot other than as one_hot(labels, "
                            "number of classes), with labels one of {labels}"),
                          labels=", ".join(self.labels) or "-")
            self.expression(classes)
            return
        elif name in SHAPING:
            sizes = _sizes(rest)
            if keywords or not sizes:
                self.fail(_("the formula {formula} calls {name} other than as {name}(sizes), "
                            "e.g. t.{name}(n, -1)"), name=name)
            for size in sizes:
                self.expression(size)
        self.expression(first)

    def dims(self, name: str, rest: list, keywords: dict, required: bool) -> None:
        dim = rest[0] if rest else keywords.get("dim")
        keepdim = rest[1] if len(rest) > 1 else keywords.get("keepdim")
        too_many = len(rest) > (1 if required else 2) or (rest and "dim" in keywords) or \
            (len(rest) > 1 and "keepdim" in keywords) or (required and "keepdim" in keywords)
        if too_many or (required and dim is None) or (dim is not None and _dims(dim) is None) \
                or (keepdim is not None and not (isinstance(keepdim, ast.Constant)
                                                 and isinstance(keepdim.value, bool))):
            self.fail(_("the formula {formula} calls {name} with arguments it does not take; "
                        "write {usage}"), name=name,
                      usage=f"{name}(t, dim)" if required else
                      f"{name}(t), {name}(t, dim) {_('or')} {name}(t, dim, keepdim=True)")

    def index(self, part) -> None:
        if _whole_number(part) is not None or (isinstance(part, ast.Constant)
                                               and part.value in (None, Ellipsis)):
            return
        if isinstance(part, ast.Slice) and all(p is None or _whole_number(p) is not None
                                               for p in (part.lower, part.upper, part.step)):
            return
        if isinstance(part, ast.Name) and part.id in self.labels:
            return
        if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) \
                and part.func.id in INDEX_RANGES and len(part.args) == 1 and not part.keywords:
            count = part.args[0]
            if _whole_number(count) is not None or (isinstance(count, ast.Name)
                                                    and count.id in self.variables):
                return
        self.fail(_("the formula {formula} indexes with something other than whole numbers, "
                    "slices, None, range(n) or the labels {labels}"),
                  labels=", ".join(self.labels) or "-")


def _function(node: ast.Call) -> str | None:
    """``f(...)``, ``torch.f(...)`` -> "f"; ``t.f(...)`` (a method) -> "f"."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _arguments(node: ast.Call) -> list:
    """The positional arguments, the receiver of a method call first."""
    func = node.func
    if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name)
                                                and func.value.id in NAMESPACES):
        return [func.value] + list(node.args)
    return list(node.args)


def _whole_number(node) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _sizes(rest: list) -> list:
    """``view``'s sizes, written out (``t.view(n, -1)``) or as one tuple (``t.view((n, -1))``)."""
    return list(rest[0].elts) if len(rest) == 1 and isinstance(rest[0], ast.Tuple) else rest


def _dims(node):
    """A dim (whole number) or a tuple of them, else None."""
    if isinstance(node, ast.Tuple):
        found = [_whole_number(e) for e in node.elts]
        return tuple(found) if found and None not in found else None
    return _whole_number(node)


# --- evaluating -------------------------------------------------------------------------------

class _Evaluation:
    """One evaluation of a formula's tree with a backend, at given values."""

    def __init__(self, formula: Formula, backend, values: dict) -> None:
        self.formula, self.backend = formula, backend
        missing = [n for n in formula.variables + formula.labels if n not in values]
        if missing:
            raise FormulaError(_("the formula {formula} needs a value for {names}").format(
                formula=repr(formula.text), names=", ".join(missing)))
        self.values = {n: backend.labels(values[n]) for n in formula.labels}
        self.values.update({n: backend.array(values[n]) for n in formula.variables})

    def fail(self, message: str, **values):
        raise FormulaError(message.format(formula=repr(self.formula.text), **values))

    def value(self, node):
        backend = self.backend
        if isinstance(node, ast.Constant):
            return backend.number(node.value)
        if isinstance(node, ast.Name):
            if node.id in self.values:
                return self.values[node.id]
            return backend.constant(node.id)
        if isinstance(node, ast.UnaryOp):
            value = self.value(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp):
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(node.op, ast.MatMult):
                self.matmul_shape(backend.shape(left), backend.shape(right))
            else:
                self.broadcast(backend.shape(left), backend.shape(right))
            return backend.binary(OPERATORS[type(node.op)], left, right)
        if isinstance(node, ast.Compare):
            left, right = self.value(node.left), self.value(node.comparators[0])
            self.broadcast(backend.shape(left), backend.shape(right))
            return backend.compare(COMPARISONS[type(node.ops[0])], left, right)
        if isinstance(node, ast.Attribute):
            if node.attr == "values":
                return self.value(node.value)
            return backend.transpose(self.value(node.value))
        if isinstance(node, ast.Subscript):
            return self.index(node)
        return self.call(node)

    def call(self, node: ast.Call):
        backend, name = self.backend, _function(node)
        arguments = _arguments(node)
        keywords = {KEYWORDS[k.arg]: k.value for k in node.keywords}
        if name == "one_hot":
            classes = arguments[1] if len(arguments) > 1 else keywords["classes"]
            count = self.count(self.value(classes), "one_hot")
            if not 1 <= count <= MAX_CLASSES:
                self.fail(_("the formula {formula} asks one_hot for {count} classes"),
                          count=count)
            labels = self.values[arguments[0].id]
            self.size(backend.shape(labels) + (count,))
            return backend.one_hot(labels, count)
        value = self.value(arguments[0])
        if name in ELEMENTWISE:
            return backend.elementwise(name, value)
        if name in SHAPING:
            return self.reshape(name, value, [self.count(self.value(size), name)
                                              for size in _sizes(arguments[1:])])
        dim = arguments[1] if len(arguments) > 1 else keywords.get("dim")
        dim = None if dim is None else _dims(dim)
        shape = backend.shape(value)
        for d in (dim if isinstance(dim, tuple) else () if dim is None else (dim,)):
            if not -max(len(shape), 1) <= d < max(len(shape), 1):
                self.fail(_("the formula {formula}: {name} over dim {dim}, but the value has "
                            "shape {shape}"), name=name, dim=d, shape=_shape_text(shape))
        if name in ALONG:
            return backend.along(name, value, dim)
        keepdim = arguments[2] if len(arguments) > 2 else keywords.get("keepdim")
        return backend.reduce(name, value, dim, bool(keepdim is not None and keepdim.value))

    def index(self, node: ast.Subscript):
        value = self.value(node.value)
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        key = []
        for part in parts:
            number = _whole_number(part)
            if number is not None:
                key.append(number)
            elif isinstance(part, ast.Constant):
                key.append(part.value)
            elif isinstance(part, ast.Slice):
                key.append(slice(*(None if p is None else _whole_number(p)
                                   for p in (part.lower, part.upper, part.step))))
            elif isinstance(part, ast.Name):
                key.append(self.values[part.id])
            else:
                counted = part.args[0]
                count = _whole_number(counted)
                count = count if count is not None else self.count(self.value(counted), "range")
                if not 0 <= count <= MAX_ELEMENTS:
                    self.fail(_("the formula {formula} asks for range({count})"), count=count)
                key.append(self.backend.labels(np.arange(count)))
        try:
            return self.backend.index(value, tuple(key))
        except (IndexError, ValueError, TypeError, RuntimeError) as error:
            self.fail(_("the formula {formula} indexes a value of shape {shape} wrongly "
                        "({error})"), shape=_shape_text(self.backend.shape(value)),
                      error=str(error).split("\n")[0][:120])

    def reshape(self, name: str, value, sizes: list):
        shape = self.backend.shape(value)
        known = math.prod(n for n in sizes if n != -1)
        whole = math.prod(shape)
        if any(n < -1 for n in sizes) or sizes.count(-1) > 1 or (
                whole != known if -1 not in sizes else (known == 0 or whole % known)):
            self.fail(_("the formula {formula}: {name} cannot make shape {sizes} of a value of "
                        "shape {shape}"), name=name, shape=_shape_text(shape),
                      sizes=str(tuple(sizes)))
        return self.backend.reshape(value, tuple(sizes))

    def count(self, value, name: str) -> int:
        number = self.backend.scalar(value)
        if number is None or number != int(number):
            self.fail(_("the formula {formula} gives {name} something other than a whole "
                        "number"), name=name)
        return int(number)

    def broadcast(self, left: tuple, right: tuple) -> None:
        try:
            shape = np.broadcast_shapes(left, right)
        except ValueError:
            self.fail(_("in the formula {formula}, values of shapes {left} and {right} cannot be "
                        "broadcast together"), left=_shape_text(left), right=_shape_text(right))
        self.size(shape)

    def matmul_shape(self, left: tuple, right: tuple) -> None:
        if not left or not right or left[-1] != (right[-2] if len(right) > 1 else right[0]):
            self.fail(_("in the formula {formula}, @ cannot multiply shapes {left} and {right}"),
                      left=_shape_text(left), right=_shape_text(right))
        try:
            batch = np.broadcast_shapes(left[:-2], right[:-2])
        except ValueError:
            self.fail(_("in the formula {formula}, @ cannot multiply shapes {left} and {right}"),
                      left=_shape_text(left), right=_shape_text(right))
        self.size(batch + left[-2:-1] + right[-1:] + (left[-1],))

    def size(self, shape: tuple) -> None:
        if math.prod(shape) > self.backend.limit:
            self.fail(_("the formula {formula} makes a value of shape {shape}, too large to "
                        "be a gradient here"), shape=_shape_text(shape))


def _shape_text(shape) -> str:
    return str(tuple(int(n) for n in shape))


class _NumPy:
    """Float64 arrays (``Formula.evaluate``); ``exact.py`` extends it to mpmath numbers."""

    limit = MAX_ELEMENTS
    FUNCTIONS = {"sin": np.sin, "cos": np.cos, "tan": np.tan, "exp": np.exp, "log": np.log,
                 "sqrt": np.sqrt, "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh,
                 "abs": np.abs}

    def number(self, value):
        return np.float64(value)

    def constant(self, name: str):
        """``pi`` or ``e`` at this backend's precision."""
        return self.number(CONSTANTS[name])

    def array(self, value):
        return np.asarray(value, dtype=np.float64)

    def labels(self, value):
        return np.asarray(value, dtype=np.int64)

    def shape(self, value) -> tuple:
        return tuple(np.shape(value))

    def scalar(self, value):
        return float(value) if np.size(value) == 1 else None

    def binary(self, op, left, right):
        return op(left, right)

    def compare(self, op, left, right):
        return np.asarray(op(left, right), dtype=np.float64)

    def transpose(self, value):
        return np.transpose(value)

    def index(self, value, key):
        return np.asarray(value)[key]

    def reshape(self, value, sizes: tuple):
        return np.reshape(value, sizes)

    def elementwise(self, name: str, value):
        if name == "sigmoid":
            return 1 / (1 + self.elementwise("exp", -value))
        if name == "relu":
            return np.where(np.asarray(value) > 0, value, self.number(0))
        return self.FUNCTIONS[name](value)

    def reduce(self, name: str, value, dim, keepdim: bool):
        function = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}[name]
        return function(np.asarray(value), axis=dim, keepdims=keepdim)

    def along(self, name: str, value, dim: int):
        shifted = value - np.max(value, axis=dim, keepdims=True)
        exponentials = self.elementwise("exp", shifted)
        total = np.sum(exponentials, axis=dim, keepdims=True)
        if name == "softmax":
            return exponentials / total
        return shifted - self.elementwise("log", total)

    def one_hot(self, labels, classes: int):
        found = np.zeros(labels.shape + (classes,), dtype=np.float64)
        inside = (labels >= 0) & (labels < classes)
        if not inside.all():
            raise FormulaError(_("one_hot: a label is outside 0 .. {last}").format(
                last=classes - 1))
        np.put_along_axis(found, labels[..., None], 1.0, axis=-1)
        return self.array(found)


FLOAT64 = _NumPy()


class _Tensors:
    """minigrad's or PyTorch's own operations, on their tensors (in a notebook)."""

    limit = MAX_ELEMENTS

    def __init__(self, module) -> None:
        self.module = module

    def number(self, value):
        return value

    def constant(self, name: str):
        return CONSTANTS[name]

    def array(self, value):
        return value if isinstance(value, self.module.Tensor) else self.module.tensor(value)

    def labels(self, value):
        return self.module.as_tensor(value).long() if not isinstance(
            value, self.module.Tensor) else value.long()

    def shape(self, value) -> tuple:
        return tuple(value.shape) if isinstance(value, self.module.Tensor) else ()

    def scalar(self, value):
        if isinstance(value, self.module.Tensor):
            return float(value.item()) if value.numel() == 1 else None
        return float(value)

    def binary(self, op, left, right):
        return op(left, right)

    def compare(self, op, left, right):
        found = op(left, right)
        return found * 1.0 if isinstance(found, self.module.Tensor) else float(found)

    def transpose(self, value):
        return value.permute(*reversed(range(value.dim()))) if value.dim() > 1 else value

    def index(self, value, key):
        return value[key]

    def reshape(self, value, sizes: tuple):
        return self.array(value).reshape(sizes)

    def elementwise(self, name: str, value):
        module = self.module
        value = self.array(value)
        if name in ("sinh", "cosh"):
            sign = -1 if name == "sinh" else 1
            return (module.exp(value) + sign * module.exp(-value)) / 2
        if name == "tan":
            return module.sin(value) / module.cos(value)
        return getattr(module, name)(value)

    def reduce(self, name: str, value, dim, keepdim: bool):
        value = self.array(value)
        if dim is None:
            return getattr(value, name)()
        if name in ("max", "min"):
            for d in sorted(dim if isinstance(dim, tuple) else (dim,), reverse=True):
                value = getattr(value, name)(d, keepdim=True).values
            return value if keepdim else value.squeeze(dim)
        return getattr(value, name)(dim=dim, keepdim=keepdim)

    def along(self, name: str, value, dim: int):
        return getattr(self.module, name)(self.array(value), dim)

    def one_hot(self, labels, classes: int):
        return self.module.eye(classes, dtype=self.module.float64)[labels]
