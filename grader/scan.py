"""Flag suspicious code in a submission, for the teacher to look at.

The grader's verdicts do not depend on any of this (they are computed in its
own process), but code that patches libraries, reaches into IPython or the
grader, or stops the kernel is worth a human look. ``scan(code)`` reads the
code's syntax tree; it never runs it.

    >>> scan("import numpy as np\\nnp.allclose = lambda *a, **k: True")
    ['replaces numpy.allclose (a patched library can make in-kernel tests pass)']
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

__all__ = ["scan", "defined_names"]

PATCH = "a patched library can make in-kernel tests pass"
RISKY = {
    "sys.modules": "edits sys.modules (swaps imported modules)",
    "builtins": "changes Python's builtins",
    "__builtins__": "changes Python's builtins",
    "get_ipython": "reaches into IPython (input transformers and events can rewrite later "
                   "cells)",
    "IPython.get_ipython": "reaches into IPython (input transformers and events can rewrite "
                           "later cells)",
    "os._exit": "can kill the kernel", "os.kill": "can kill the kernel",
    "os.abort": "can kill the kernel", "signal": "handles or sends signals",
    "sys.exit": "can stop the kernel", "exit": "can stop the kernel",
    "quit": "can stop the kernel",
    "ctypes": "uses ctypes (can change memory directly)",
    "gc.get_objects": "searches the interpreter's objects",
    "gc.get_referrers": "searches the interpreter's objects",
    "sys._getframe": "inspects the caller's frames",
    "inspect.stack": "inspects the caller's frames",
    "inspect.currentframe": "inspects the caller's frames",
    "sys.settrace": "traces code as it runs", "sys.setprofile": "traces code as it runs",
    "threading.settrace": "traces code as it runs",
    "exec": "runs code built from a string", "eval": "runs code built from a string",
    "compile": "runs code built from a string", "__import__": "imports by a string",
    "importlib": "imports by a string",
    "subprocess": "runs other programs", "os.system": "runs other programs",
    "os.popen": "runs other programs", "socket": "opens network connections",
}
BUILTIN_RISKY = {"exec", "eval", "compile", "__import__", "exit", "quit", "get_ipython",
                 "__builtins__"}
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
    """Reasons ``code`` (one cell) looks suspicious, most important first.

    ``protected``: name -> the locked cell that defines it (redefining it is
    flagged); ``rules``: ``(regex, why)`` pairs applied to the code without
    its comments (the assignment's own, e.g. "uses autograd in a by-hand answer").
    """
    found: list[str] = []
    bare = _without_comments(code)
    for pattern, why in rules:
        if re.search(pattern, bare):
            found.append(why)
    if re.search(r"^\s*!|^\s*%%?(system|sx|bash|sh|script)\b", code, re.MULTILINE):
        found.append("runs a shell command")
    try:
        tree = ast.parse(_as_python(code))
    except SyntaxError:
        return _unique(found)
    aliases = dict(KNOWN)
    for node in ast.walk(tree):
        found += _imports(node, aliases)
    protected = {**SETUP_NAMES, **(protected or {})}
    for node in ast.walk(tree):
        found += _patches(node, aliases) + _risky(node, aliases)
        found += _redefinitions(node, protected)
    if "get_ipython" not in code:  # IPython's own translation of %magics calls it
        found = [f for f in found if not f.endswith("(get_ipython)")]
    return _unique(found)


def defined_names(code: str) -> set[str]:
    """Top-level names a (locked) cell defines."""
    try:
        tree = ast.parse(_as_python(code))
    except SyntaxError:
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
            if node.module == "grader" and alias.name not in PUBLIC_API:
                found.append(f"imports grader internals ({node.module}.{alias.name})")
        found += _internal(node.module)
    return found


def _internal(module: str) -> list[str]:
    if module.startswith("grader."):
        return [f"imports grader internals ({module})"]
    return []


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
    from IPython.core.inputtransformer2 import TransformerManager
    return TransformerManager().transform_cell(code)


def _without_comments(code: str) -> str:
    lines = code.splitlines(keepends=True)
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                row, col = token.start
                lines[row - 1] = lines[row - 1][:col] + lines[row - 1][token.end[1]:]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return code
    return "".join(lines)


def _unique(items: list[str]) -> list[str]:
    """One flag per reason (the first place it was seen)."""
    seen, kept = set(), []
    for item in items:
        reason = item.split(" (")[0]
        if reason not in seen:
            seen.add(reason)
            kept.append(item)
    return kept
