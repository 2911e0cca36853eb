"""Flag suspicious code in a submission, for the teacher to look at.

The scan is a reason to hold points for review, not the defence: answers given as data
are read from the text and never run, and code answers run in a sandbox where what the
skill replaces does not exist (``grade.py``). What the scan reads is the code of a
code question's run: its data comes from that process, so code that could forge it is
**tampering**: patching libraries, reaching into IPython, into the grader (its modules,
a function's ``__globals__``), into the interpreter (frames, tracing, ``gc``, a
namespace by name), running code handed over as data (``exec``, ``eval``, ``pickle``,
``marshal``, ``timeit``, ``code``, ``runpy``, ``print.__self__``) or looking up names
built from strings (``__import__``, ``importlib``, ``pydoc.locate``, ``mock.patch``,
``getattr`` with a computed name), and an assignment's own rules. A question with a
tampering flag is held back for the teacher's review. Other findings (code that can stop
the process, run programs, redefine a locked name) are reported and hold nothing back.
A new spelling can always slip past a scan: that is why it is not the defence.
``examine(code)`` reads the code's syntax tree; it never runs it.

    >>> scan("import numpy as np\\nnp.allclose = lambda *a, **k: True")
    ['replaces numpy.allclose (a patched library can make in-kernel tests pass)']
    >>> [s.tampering for s in examine("import os\\nos._exit(0)")]
    [False]
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass

from .i18n import N_, _
from .ipython_text import UNREADABLE, as_python, plain_python_tree, python_tree

__all__ = ["scan", "examine", "Suspicion", "defined_names", "defines_code", "GRADER",
           "strict_findings"]

GRADER = __name__.rpartition(".")[0]  # this package, as a notebook imports it

PATCH = N_("a patched library can make in-kernel tests pass")
IPYTHON = N_("reaches into IPython (input transformers and events can rewrite later cells)")
RISKY = {
    "sys.modules": N_("edits sys.modules (swaps imported modules)"),
    "builtins": N_("changes Python's builtins"),
    "__builtins__": N_("changes Python's builtins"),
    "get_ipython": IPYTHON,
    "IPython.get_ipython": IPYTHON,
    "os._exit": N_("can kill the kernel"), "os.kill": N_("can kill the kernel"),
    "os.abort": N_("can kill the kernel"), "signal": N_("handles or sends signals"),
    "sys.exit": N_("can stop the kernel"), "exit": N_("can stop the kernel"),
    "quit": N_("can stop the kernel"),
    "ctypes": N_("uses ctypes (can change memory directly)"),
    "gc.get_objects": N_("searches the interpreter's objects"),
    "gc.get_referrers": N_("searches the interpreter's objects"),
    "sys._getframe": N_("inspects the caller's frames"),
    "inspect.stack": N_("inspects the caller's frames"),
    "inspect.currentframe": N_("inspects the caller's frames"),
    "inspect": N_("inspects the interpreter's objects (modules, frames, functions)"),
    "gc": N_("searches the interpreter's objects"),
    "pkgutil": N_("imports by a string"), "runpy": N_("runs code built from a string"),
    "sys.meta_path": N_("changes how modules are imported"),
    "sys.path_hooks": N_("changes how modules are imported"),
    "sys.settrace": N_("traces code as it runs"), "sys.setprofile": N_("traces code as it runs"),
    "threading.settrace": N_("traces code as it runs"),
    "exec": N_("runs code built from a string"), "eval": N_("runs code built from a string"),
    "compile": N_("runs code built from a string"), "__import__": N_("imports by a string"),
    "importlib": N_("imports by a string"),
    "sys.monitoring": N_("traces code as it runs"), "threading.setprofile": N_("traces code as it runs"),
    "sys.addaudithook": N_("traces code as it runs"),
    "IPython.core.interactiveshell": N_("reaches into IPython (input transformers and events can "
                                     "rewrite later cells)"),
    "IPython.display.clear_output": N_("clears a cell's output (it can hide the grader's data)"),
    "subprocess": N_("runs other programs"), "os.system": N_("runs other programs"),
    "os.popen": N_("runs other programs"), "socket": N_("opens network connections"),
    "pickle": N_("runs code handed over as data"),
    "dill": N_("runs code handed over as data"),
    "cloudpickle": N_("runs code handed over as data"),
    "shelve": N_("runs code handed over as data"),
    "copyreg": N_("runs code handed over as data"),
    "marshal": N_("runs code handed over as data"),
    "types.CodeType": N_("runs code handed over as data"),
    "types.FunctionType": N_("runs code handed over as data"),
    "timeit": N_("runs code built from a string"), "code": N_("runs code built from a string"),
    "codeop": N_("runs code built from a string"), "pdb": N_("runs code built from a string"),
    "pydoc": N_("imports by a string"), "unittest.mock": N_("imports by a string"),
    "mock": N_("imports by a string"), "vars": N_("reaches a namespace by name"),
    "globals": N_("reaches a namespace by name"), "locals": N_("reaches a namespace by name"),
    "breakpoint": N_("runs code built from a string"), "os.fork": N_("runs other programs"),
    "multiprocessing": N_("runs other programs"), "os.write": N_("writes to a file descriptor "
                                                          "(the grader's pipe)"),
    "os.dup2": N_("writes to a file descriptor (the grader's pipe)"),
}
# Reported, but holding nothing back: none of these can change the data a test cell hands back.
HARMLESS = ("can kill the kernel", "can stop the kernel", "handles or sends signals",
            "runs other programs", "opens network connections", "runs a shell command",
            "redefines ")
# Attribute names that lead into IPython's machinery or the interpreter's internals.
ATTRIBUTES = {
    "InteractiveShell": IPYTHON, "events": IPYTHON, "input_transformers_cleanup": IPYTHON,
    "input_transformers_post": IPYTHON, "ast_transformers": IPYTHON, "display_pub": IPYTHON,
    "display_formatter": IPYTHON, "displayhook": IPYTHON, "register_magic_function": IPYTHON,
    "clear_output": N_("clears a cell's output (it can hide the grader's data)"),
    "__globals__": N_("reaches a function's globals (the grader's, through check)"),
    "__closure__": N_("reaches into a function's internals"), "__code__":
        N_("reaches into a function's internals"), "__wrapped__": N_("reaches into a function's "
                                                               "internals"),
    "f_globals": N_("inspects the caller's frames"), "f_locals": N_("inspects the caller's frames"),
    "f_back": N_("inspects the caller's frames"), "tb_frame": N_("inspects the caller's frames"),
    "gi_frame": N_("inspects the caller's frames"), "__subclasses__": N_("searches the interpreter's "
                                                                  "objects"),
    "kernel_side": N_("reaches grader internals"), "__loader__": N_("reaches grader internals"),
    "__spec__": N_("reaches grader internals"), "runner": N_("reaches grader internals"),
    "__self__": N_("reaches a builtin's module (print.__self__: builtins)"),
    "__class__": N_("searches the interpreter's objects"), "__bases__": N_("searches the "
                                                                   "interpreter's objects"),
    "__base__": N_("searches the interpreter's objects"), "__mro__": N_("searches the interpreter's "
                                                                "objects"),
    "__dict__": N_("reaches a namespace by name"), "__reduce__": N_("runs code handed over as data "
                                                               "(pickle)"),
    "__reduce_ex__": N_("runs code handed over as data (pickle)"),
    "__builtins__": N_("changes Python's builtins"), "f_code": N_("inspects the caller's frames"),
    "co_code": N_("reaches into a function's internals"), "__func__": N_("reaches into a "
                                                                 "function's internals"),
    "__defaults__": N_("reaches into a function's internals"),
}
# Text that only code aiming at the grader's own step writes (module, call, MIME type).
GRADER_WORDS = ("kernel_side", "_minigrad_kit", "minigrad-kit")
COMPUTED = N_("looks up an attribute or a name by a computed string")
BY_NAME = {"getattr", "setattr", "delattr", "hasattr", "__getattribute__", "__getattr__",
           "__setattr__", "__delattr__", "attrgetter", "methodcaller"}


@dataclass(frozen=True)
class Suspicion:
    """One reason to look at a cell; ``tampering``: it could forge the data graded."""

    text: str
    tampering: bool
    rule: tuple | None = None  # an assignment's rule: the questions it is about (() for all)

BUILTIN_RISKY = {"exec", "eval", "compile", "__import__", "exit", "quit", "get_ipython",
                 "__builtins__", "vars", "globals", "locals", "breakpoint"}
LIBRARIES = ("numpy", "minigrad", "builtins", "sys", "math", "IPython", "widgets", "grader",
             "json", "os", "warnings", "random")
PUBLIC_API = {"check", "check_all", "start"}  # what a notebook imports from grader
# Names the locked first cells bind (import minigrad as torch, ...).
KNOWN = {"np": "numpy", "numpy": "numpy", "torch": "minigrad", "minigrad": "minigrad",
         "Function": "minigrad.autograd.Function", "gradcheck": "minigrad.autograd.gradcheck",
         "check": "grader.check", "check_all": "grader.check_all",
         "start": "grader.start"}
SETUP_NAMES = {name: "setup" for name in ("torch", "check", "check_all", "start")}


def scan(code: str, *, protected: dict | None = None, rules: tuple = ()) -> list[str]:
    """Reasons ``code`` (one cell) looks suspicious, most important first (see ``examine``)."""
    return [s.text for s in examine(code, protected=protected, rules=rules)]


def examine(code: str, *, protected: dict | None = None, rules: tuple = ()
            ) -> list[Suspicion]:
    """Reasons ``code`` (one cell) looks suspicious, most important first.

    ``protected``: name -> the locked cell that defines it (redefining it is
    flagged); ``rules``: ``(regex, why)`` or ``(regex, why, questions)``, the
    assignment's own (e.g. "uses autograd in a by-hand answer"), applied to the
    code without its comments and to the code with ``getattr(t, "name")``
    written as ``t.name``. A rule that matches is tampering.
    """
    found: list[Suspicion] = []
    bare = _without_comments(code)
    tree = _tree(code)
    if tree is not None and any(isinstance(node, ast.Call) and _callee(node.func) == "getattr"
                                for node in ast.walk(tree)):
        # (spelling out changes the tree, which is shared: a tree of its own, parsed again,
        # only for a cell that calls getattr)
        tree = _own_tree(code)
    plain = _attributes_spelled_out(tree) if tree is not None else ""
    for pattern, why, *questions in rules:
        if re.search(pattern, bare) or re.search(pattern, plain):
            found.append(Suspicion(why, True, tuple(questions[0]) if questions else ()))
    texts: list[str] = []
    # (a line's own indentation, [ \t]*: "^\s*" also crossed the newlines after every line
    # start, and a cell of 100,000 of them held the grader for a minute, quadratic)
    if re.search(r"^[ \t]*!|^[ \t]*%%?(system|sx|bash|sh|script)\b", code, re.MULTILINE):
        texts.append("runs a shell command")
    if tree is not None:
        aliases = dict(KNOWN)
        for node in ast.walk(tree):
            texts += _imports(node, aliases)
        protected = {**SETUP_NAMES, **(protected or {})}
        literal_calls, internals = _literal_lookups(tree), []
        for node in ast.walk(tree):
            texts += _patches(node, aliases) + _risky(node, aliases)
            texts += _grader_attributes(node, aliases) + _computed_names(node, literal_calls)
            texts += _redefinitions(node, protected)
            internals += _internals(node)
        texts += internals
        if "get_ipython" not in code:  # IPython's own translation of %magics calls it
            texts = [t for t in texts if not t.endswith("(get_ipython)")]
    found += [Suspicion(text, not text.startswith(HARMLESS)) for text in texts]
    return [Suspicion(_said(s.text), s.tampering, s.rule) for s in _unique(found)]


def _said(text: str) -> str:
    """A finding in the reader's language: its reason translated, the code named kept."""
    if text.startswith("replaces "):
        what, _sep, why = text[len("replaces "):].rpartition(" (")
        return _("replaces {what} ({why})").format(what=what, why=_(why[:-1]))
    if text.startswith("redefines "):
        name, _sep, cell = text[len("redefines "):].partition(", which the locked cell ")
        return _("redefines {name}, which the locked cell {cell} defines").format(
            name=name, cell=cell[:-len(" defines")])
    reason, sep, detail = text.rpartition(" (")
    if sep and reason in _REASONS():
        return _(reason) + sep + detail
    return _(text)


def _REASONS() -> set:
    return {*RISKY.values(), *ATTRIBUTES.values(), COMPUTED, IPYTHON, "imports grader internals",
            "reaches grader internals", "names the grader's own step in a string"}


N_("imports grader internals")
N_("reaches grader internals")
N_("names the grader's own step in a string")
N_("runs a shell command")


def defines_code(code: str) -> bool:
    """Whether a cell defines something that later code can call (a def, class or lambda)."""
    tree = _tree(code)
    if tree is None:
        return True  # cannot tell: treat it as if it did
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                 ast.Lambda)) for node in ast.walk(tree))


def defined_names(code: str) -> set[str]:
    """Top-level names a (locked) cell defines."""
    tree = _tree(code)
    if tree is None:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(a.asname or a.name.split(".")[0] for a in node.names)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        for target in getattr(node, "targets", []) + [getattr(node, "target", None)]:
            if isinstance(target, ast.Name):
                names.add(target.id)
    return names


def _imports(node, aliases: dict) -> list[str]:
    found = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            aliases[alias.asname or alias.name.split(".")[0]] = (
                alias.name if alias.asname else alias.name.split(".")[0])
            found += _internal(alias.name)
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        for alias in node.names:
            aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            if node.module == GRADER and alias.name not in PUBLIC_API:
                found.append(f"imports grader internals ({node.module}.{alias.name})")
        found += _internal(node.module)
    return found


def _internal(module: str) -> list[str]:
    if module.startswith(GRADER + "."):
        return [f"imports grader internals ({module})"]
    return []


def _grader_attributes(node, aliases: dict) -> list[str]:
    """``p.kernel_side`` where ``p`` is the grader package (however it was imported)."""
    if not isinstance(node, ast.Attribute):
        return []
    name = _dotted(node, aliases) or ""
    if name.startswith(GRADER + ".") and name.split(".")[GRADER.count(".") + 1] not in PUBLIC_API:
        return [f"reaches grader internals ({name})"]
    return []


def _internals(node) -> list[str]:
    """Attributes that lead into IPython's machinery or the interpreter's internals."""
    names = []
    if isinstance(node, ast.Attribute):
        names = [node.attr]
    elif isinstance(node, ast.Name):
        names = [node.id]
    elif isinstance(node, ast.alias):
        names = [node.name.split(".")[-1]]
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        names = [node.value]  # getattr(f, "__globals__")
        words = [w for w in GRADER_WORDS if w in node.value]
        if words:
            return [f"names the grader's own step in a string ({words[0]})"]
    return [f"{ATTRIBUTES[name]} ({name})" for name in names if name in ATTRIBUTES]


def _literal_lookups(tree) -> set[int]:
    """Calls like ``getattr(t, "grad")`` whose name is a plain string."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node.func) in BY_NAME:
            names = node.args[1:2] if _callee(node.func) in ("getattr", "setattr", "delattr",
                                                             "hasattr") else node.args[:1]
            if names and isinstance(names[0], ast.Constant) and isinstance(names[0].value, str):
                found.add(id(node.func))
    return found


def _callee(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _computed_names(node, literal_calls: set[int]) -> list[str]:
    """``getattr`` and friends with a name that is not a plain string; ``vars()[...]`` too."""
    if isinstance(node, (ast.Name, ast.Attribute)) and _callee(node) in BY_NAME \
            and id(node) not in literal_calls:
        return [f"{COMPUTED} ({_callee(node)})"]
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
        value = node.value
        if isinstance(value, ast.Call) and _callee(value.func) in ("vars", "globals", "locals"):
            return [f"{COMPUTED} ({_callee(value.func)}()[...])"]
        if isinstance(value, ast.Attribute) and value.attr == "__dict__":
            return [f"{COMPUTED} (__dict__[...])"]
    return []


class _SpellOut(ast.NodeTransformer):
    """``getattr(t, "backward")`` -> ``t.backward``, so the assignment's rules see it."""

    def visit_Call(self, node):
        self.generic_visit(node)
        if _callee(node.func) == "getattr" and len(node.args) >= 2 \
                and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str) and node.args[1].value.isidentifier():
            return ast.Attribute(value=node.args[0], attr=node.args[1].value, ctx=ast.Load())
        return node


def _attributes_spelled_out(tree) -> str:
    try:
        return ast.unparse(_SpellOut().visit(tree))
    except (ValueError, RecursionError):
        return ""


def _dotted(node, aliases: dict) -> str | None:
    """``np.testing.assert_allclose`` -> "numpy.testing.assert_allclose" (None if not a name)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([aliases.get(node.id, node.id)] + parts[::-1])


def _root(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node


def _patches(node, aliases: dict) -> list[str]:
    targets = []
    if isinstance(node, (ast.Assign, ast.Delete)):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
          and node.func.id in ("setattr", "delattr") and len(node.args) >= 2):
        name = node.args[1].value if isinstance(node.args[1], ast.Constant) else "..."
        targets = [ast.Attribute(value=node.args[0], attr=str(name))]
    found = []
    for target in targets:
        root = _root(target)
        if target is root or not isinstance(root, ast.Name) or root.id not in aliases:
            continue
        module = aliases[root.id]
        if module.split(".")[0] in LIBRARIES:
            if isinstance(target, ast.Subscript):
                shown = f"an entry of {_dotted(target.value, aliases) or module}"
            else:
                shown = _dotted(target, aliases) or module
            found.append(f"replaces {shown} ({PATCH})")
    return found


def _risky(node, aliases: dict) -> list[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module:
        names = [f"{node.module}.{alias.name}" for alias in node.names]
    elif isinstance(node, ast.Attribute):
        names = [_dotted(node, aliases) or ""]
    elif isinstance(node, ast.Name) and (node.id in aliases or node.id in BUILTIN_RISKY):
        names = [aliases.get(node.id, node.id)]
    else:
        return []
    found = []
    for name in names:
        for risky, why in RISKY.items():
            if name == risky or name.startswith(risky + "."):
                found.append(f"{why} ({name})")
    return found


def _redefinitions(node, protected: dict) -> list[str]:
    names = []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        names = [node.name]
    elif isinstance(node, ast.Assign):
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
    return [f"redefines {name}, which the locked cell {protected[name]!r} defines"
            for name in names if name in protected]


def _as_python(code: str) -> str:
    return as_python(code)  # (IPython's reading, in linear time: ipython_text.py)


def _own_tree(code: str):
    """``_tree``'s tree, parsed again: the caller's own, to change."""
    try:
        return ast.parse(_as_python(code))
    except UNREADABLE:
        return None


def _tree(code: str):
    """The syntax tree of a cell as IPython reads it, or None when it cannot be read (for
    whatever reason the parser gives: a cell's text can never stop the grading). Shared
    (``python_tree``): read it, never change it."""
    return python_tree(_as_python(code))


def _without_comments(code: str) -> str:
    lines = code.splitlines(keepends=True)
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                row, col = token.start
                lines[row - 1] = lines[row - 1][:col] + lines[row - 1][token.end[1]:]
    except (tokenize.TokenError, *UNREADABLE):
        return code
    return "".join(lines)


def _unique(items: list[Suspicion]) -> list[Suspicion]:
    """One flag per reason (the first place it was seen)."""
    seen, kept = set(), []
    for item in items:
        reason = item.text.split(" (")[0]
        if reason not in seen:
            seen.add(reason)
            kept.append(item)
    return kept


# --- --strict: an allowlist for code that runs ------------------------------------------------

# A code answer under --strict may use only what an answer needs: plain Python, the public
# names of minigrad (or torch), NumPy and math, tensors' and containers' public methods.
# Everything a forger needs to reach the grader's data (another module, a dunder attribute,
# a reflective builtin, a class of its own, a name in a string) lies outside this list, so
# anything outside it holds the questions the cell could change: safe by construction,
# at the price of reviewing the rare honest answer that goes beyond.
STRICT_IMPORTS = {"minigrad", "torch", "numpy", "math"}
STRICT_MODULE_NAMES = {"nn", "optim", "autograd", "functional", "linalg", "init"}
STRICT_BUILTINS = {"abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter", "float",
                   "int", "isinstance", "len", "list", "map", "max", "min", "pow", "print",
                   "range", "reversed", "round", "set", "slice", "sorted", "str", "sum",
                   "tuple", "zip", "True", "False", "None", "Exception", "ValueError",
                   "TypeError", "RuntimeError", "NotImplementedError", "ZeroDivisionError",
                   "IndexError", "KeyError", "ArithmeticError", "StopIteration"}
# Tensor attributes an answer may set. Not .grad (but for ``x.grad = None``) or .data: they
# would put a gradient or values in place without the autograd the question is about
# (y.grad = ... instead of backward(), y.data = ... over a wrong y).
STRICT_SETTABLE = {"requires_grad"}
STRICT_NODES = (ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Name,
                ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Call,
                ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Dict, ast.Set,
                ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension,
                ast.IfExp, ast.If, ast.For, ast.While, ast.Break, ast.Continue, ast.Pass,
                ast.FunctionDef, ast.Return, ast.Lambda, ast.arguments, ast.arg, ast.keyword,
                ast.With, ast.withitem, ast.Assert, ast.Raise, ast.Try, ast.ExceptHandler,
                ast.JoinedStr, ast.FormattedValue, ast.Starred, ast.NamedExpr, ast.Import,
                ast.ImportFrom, ast.alias, ast.Delete, ast.expr_context, ast.operator,
                ast.unaryop, ast.boolop, ast.cmpop)
MINIGRAD_FILES = frozenset({"load", "save"})  # torch.load/save: files, never an answer
# Files, code handed over as callables, printing and error hooks; and what gives up NumPy's
# memory safety: ``a.resize(n, refcheck=False)`` frees memory that views of ``a`` still
# read and write (a use-after-free with allowed names); the constructors over a buffer
# (``ndarray``, ``recarray``, ``chararray``) check no lower bound on ``offset``:
# ``np.ndarray((n,), buffer=a, offset=-8000)`` reads and writes the memory before ``a``;
# ``ctypes`` and ``base`` reach raw memory and owners.
NUMPY_UNSAFE = {"load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt",
                "fromfile", "tofile", "memmap", "frompyfunc", "vectorize", "ctypes", "base",
                "fromregex", "set_printoptions", "seterrcall", "DataSource", "lookfor", "info",
                "resize", "ndarray", "recarray", "chararray"}


# Where a run has autograd, the names that write a tensor's values where autograd does not
# record it: a handle on its memory outside the graph (``.data``, ``.detach()``,
# ``.numpy()``), autograd switched off, and the in-place methods (``copy_``, ``fill_``,
# ``add_``, ...; but ``requires_grad_`` and ``zero_``, which cannot put a value in place).
# ``y.data = ...`` was held, but ``y.data.copy_(x.data * factor)`` or ``with
# torch.no_grad(): y.copy_(...)`` over a wrong y, and ``x.grad.fill_(factor)`` over a wrong
# gradient, passed --strict and the judges. A run without autograd has no graph to bypass.
# So does every hook (``register_hook``, ``register_post_accumulate_grad_hook``, a module's
# or a node's, ``saved_tensors_hooks``: any name with "hook" in it): a function autograd
# calls with a gradient and whose result replaces it. ``x.register_hook(lambda g: g *
# factor / (factor + 1))`` over a wrong y made x.grad right and scored q3 unheld.
AUTOGRAD_BYPASS = frozenset({"data", "detach", "detach_", "numpy", "no_grad", "inference_mode",
                             "set_grad_enabled", "from_numpy", "untyped_storage", "storage"})
IN_PLACE_ALLOWED = frozenset({"requires_grad_", "zero_"})


def _bypasses_autograd(name: str) -> bool:
    return name in AUTOGRAD_BYPASS or "hook" in name.lower() or (
        name.endswith("_") and not name.startswith("_") and name not in IN_PLACE_ALLOWED)


def _through_grad(node) -> bool:
    """``x.grad`` or ``x.grad[0]``: an item assignment there writes a gradient by hand."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr == "grad":
            return True
        node = node.value
    return False


def strict_findings(code: str, autograd: bool = False) -> list[str]:
    """What ``code`` uses beyond the --strict allowlist (empty: nothing); ``autograd``: it
    runs where autograd does (then ``AUTOGRAD_BYPASS`` and in-place methods are beyond)."""
    tree = plain_python_tree(code)
    if tree is None:
        return ["is not plain Python"]
    allowed, found = _strict_attributes(), []
    builtin = set(dir(__import__("builtins")))
    cleared = {id(target) for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and isinstance(node.value, ast.Constant) and node.value.value is None
               for target in node.targets}  # x.grad = None: a gradient dropped, not made
    for node in ast.walk(tree):
        if not isinstance(node, STRICT_NODES):
            found.append(type(node).__name__)
        elif isinstance(node, ast.Name) and (node.id.startswith("__") or (
                node.id in builtin and node.id not in STRICT_BUILTINS)):
            found.append(node.id)
        elif isinstance(node, ast.Attribute) and (node.attr.startswith("_")
                                                  or node.attr not in allowed
                                                  or (autograd
                                                      and _bypasses_autograd(node.attr))):
            found.append(f".{node.attr}")
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                and node.attr not in STRICT_SETTABLE \
                and not (node.attr == "grad" and id(node) in cleared):
            found.append(f".{node.attr} =")
        elif autograd and isinstance(node, ast.Subscript) \
                and isinstance(node.ctx, (ast.Store, ast.Del)) and _through_grad(node.value):
            found.append(".grad[...] =")  # (written where autograd does not see)
        elif isinstance(node, ast.Import) and any(a.name.split(".")[0] not in STRICT_IMPORTS
                                                  or any(p not in allowed
                                                         for p in a.name.split(".")[1:])
                                                  for a in node.names):
            found.append("import " + ", ".join(a.name for a in node.names))
        elif isinstance(node, ast.ImportFrom) and (
                node.level or (node.module or "").split(".")[0] not in STRICT_IMPORTS
                or any(p not in allowed for p in (node.module or "").split(".")[1:])
                or any(a.name not in allowed or (autograd and _bypasses_autograd(a.name))
                       for a in node.names)):
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and "__" in node.value:
            found.append(repr(node.value[:30]))
        elif isinstance(node, ast.FunctionDef) and (node.decorator_list
                                                    or node.name.startswith("__")):
            found.append(f"def {node.name}")
    return list(dict.fromkeys(found))


@functools.lru_cache(maxsize=1)
def _strict_attributes() -> frozenset:
    """The public, non-module names of what a code answer works with."""
    import math
    import types

    import numpy

    import minigrad
    import minigrad.autograd
    import minigrad.nn
    import minigrad.nn.functional
    import minigrad.optim

    def public(thing, skip=()):
        return {n for n in dir(thing) if not n.startswith("_") and n not in skip
                and not isinstance(getattr(thing, n, None), types.ModuleType)}
    names = set(STRICT_MODULE_NAMES) | STRICT_SETTABLE | {"values", "indices"}
    names |= public(minigrad, MINIGRAD_FILES)  # (no code answer reads or writes files)
    for thing in (minigrad.Tensor, minigrad.nn, minigrad.nn.functional, minigrad.optim,
                  minigrad.autograd, math, list, dict, tuple, str, set, int, float):
        names |= public(thing)
    names |= public(numpy, NUMPY_UNSAFE) | public(numpy.ndarray, NUMPY_UNSAFE)
    return frozenset(names)
