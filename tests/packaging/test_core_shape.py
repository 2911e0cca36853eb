"""The core's shape, measured from its source (issue 28's targets): what a learner
opens stays short, and the layers import one way without tricks.

- every op node class (a ``Node`` subclass defined in ``ops/``) is at most 30 lines,
  and their median at most 14; ``MulBackward0``, the reading map's example, at most 14;
- no op ``backward`` branches on float16, sizes or threads (that goes in kernels/rules);
- no minigrad module is imported inside a function (``importlib``/``__import__`` too)
  or below the first definition of a module;
- the layers import one way: ``kernels/`` < ``autograd/`` < ``rules/`` < ``ops/`` <
  the face and what is built on it; the ground floors import only lower floors and the
  two modules every floor may use (``dtypes.py``, ``errors.py``, which import none);
- ``autograd/node.py`` is at most 400 lines, and no function of ``autograd/engine.py``
  is longer than 30.
"""

from __future__ import annotations

import ast
import inspect
import pkgutil
import re
import statistics
import textwrap
from pathlib import Path

import pytest

import minigrad
from minigrad.autograd.node import Node

CORE = Path(minigrad.__file__).parent
SOURCES = sorted(CORE.rglob("*.py"))


def op_classes() -> list:
    """Every Node subclass defined in a module of minigrad/ops, with its source."""
    found = []
    for info in pkgutil.iter_modules([str(CORE / "ops")]):
        module = __import__(f"minigrad.ops.{info.name}", fromlist=["_"])
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, Node) \
                    and value.__module__ == module.__name__:
                found.append(value)
    return found


OPS = op_classes()


def lines_of(cls) -> int:
    return len(inspect.getsource(cls).splitlines())


def test_there_are_op_classes_to_measure():
    assert len(OPS) > 200  # (the measure below is not of an empty list)


@pytest.mark.parametrize("cls", OPS, ids=lambda cls: cls.__name__)
def test_an_op_class_is_at_most_30_lines(cls):
    assert lines_of(cls) <= 30


def test_the_median_op_class_is_at_most_14_lines():
    assert statistics.median(lines_of(cls) for cls in OPS) <= 14


def test_mul_backward_is_at_most_14_lines():
    assert lines_of(minigrad.ops.arithmetic.MulBackward0) <= 14


@pytest.mark.parametrize("cls", [cls for cls in OPS if "backward" in vars(cls)],
                         ids=lambda cls: cls.__name__)
def test_no_op_backward_branches_on_float16_size_or_threads(cls):
    source = textwrap.dedent(inspect.getsource(vars(cls)["backward"]))
    tests = [ast.get_source_segment(source, node.test) for node in ast.walk(ast.parse(source))
             if isinstance(node, (ast.If, ast.IfExp, ast.While))]
    assert not [test for test in tests
                if re.search(r"float16|half|\.size\b|nbytes|thread|BIG|dtype", test)], tests


def _imports_minigrad(node) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").startswith("minigrad")
    if isinstance(node, ast.Import):
        return any(alias.name.startswith("minigrad") for alias in node.names)
    if isinstance(node, ast.Call):  # importlib.import_module(...), __import__(...)
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        return name in ("import_module", "__import__")
    return False


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(CORE)))
def test_no_minigrad_import_inside_a_function_or_at_the_bottom(path):
    tree = ast.parse(path.read_text())
    inner = [sub.lineno for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
             for sub in ast.walk(node) if _imports_minigrad(sub)]
    first_definition = next((stmt.lineno for stmt in tree.body
                             if isinstance(stmt, (ast.FunctionDef, ast.ClassDef))), None)
    bottom = [stmt.lineno for stmt in tree.body if _imports_minigrad(stmt)
              and first_definition is not None and stmt.lineno > first_definition]
    assert (inner, bottom) == ([], [])


def test_node_py_is_at_most_400_lines():
    assert len((CORE / "autograd/node.py").read_text().splitlines()) <= 400


def test_no_function_of_the_engine_is_longer_than_30_lines():
    tree = ast.parse((CORE / "autograd/engine.py").read_text())
    lengths = {node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(tree)
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    assert max(lengths.values()) <= 30, sorted(lengths.items(), key=lambda kv: -kv[1])[:3]


FLOORS = ["kernels", "autograd", "rules", "ops"]  # bottom first
GROUND = {"minigrad.dtypes", "minigrad.errors"}  # (they import no minigrad module)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(CORE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> set:
    """The minigrad modules (or packages) a module imports, relative imports resolved."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - max(node.level - 1, 0)]
            target = ".".join(base + [node.module]) if node.level and node.module else \
                ".".join(base) if node.level else node.module or ""
            for alias in node.names:  # (``from .. import errors`` imports a module,
                module = f"{target}.{alias.name}"  # ``from ..errors import X`` a name)
                is_module = (CORE.parent / module.replace(".", "/")).with_suffix(".py").exists() \
                    or (CORE.parent / module.replace(".", "/")).is_dir()
                found.add(module if is_module else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {module for module in found if module.startswith("minigrad")}


def _floor(module: str):
    parts = module.split(".")
    return FLOORS.index(parts[1]) if len(parts) > 1 and parts[1] in FLOORS else None


# torch.autograd.functional is written on the public API, as nn is: a top-floor module
# that lives in autograd/ because PyTorch's name puts it there (its docstring says so)
TOP_FLOOR_IN_AUTOGRAD = {"minigrad.autograd.functional"}


@pytest.mark.parametrize("path", [path for path in SOURCES
                                  if _floor(_module_name(path)) is not None
                                  and _module_name(path) not in TOP_FLOOR_IN_AUTOGRAD],
                         ids=lambda path: str(path.relative_to(CORE)))
def test_a_floor_imports_only_floors_below_it_and_the_ground(path):
    floor = _floor(_module_name(path))
    upward = [module for module in _imported(path) if module not in GROUND
              and (_floor(module) is None or _floor(module) > floor)]
    assert upward == []


def test_the_ground_imports_no_minigrad_module():
    assert [module for module in GROUND
            if _imported(CORE.parent / (module.replace(".", "/") + ".py"))] == []
