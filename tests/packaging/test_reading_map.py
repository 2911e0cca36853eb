"""minigrad/README.md, the learners' reading map, stays true: every file and folder it
names exists, the sizes it gives are within a quarter of the truth, and the parts of the
path it promises free of PyTorch's speed and fidelity layers are free of them."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "minigrad"
MAP = (CORE / "README.md").read_text()
ROW = re.compile(r"^\|(?: \d+ \|)? (?P<names>`[^|]+) \| (?P<lines>[\d,]+) \|", re.M)


def lines_of(name: str) -> int:
    path = CORE / name
    files = path.rglob("*.py") if path.is_dir() else [path]
    return sum(len(f.read_text().splitlines()) for f in files)


def rows():
    found = [(re.findall(r"`([^`]+)`", row["names"]), int(row["lines"].replace(",", "")))
             for row in ROW.finditer(MAP)]
    assert len(found) >= 12, "the map's tables are no longer found"
    return found


@pytest.mark.parametrize("names,size", rows(), ids=lambda v: str(v))
def test_each_named_file_exists_and_has_about_its_size(names, size):
    for name in names:
        assert (CORE / name.rstrip("/")).exists(), name
    actual = sum(lines_of(name.rstrip("/")) for name in names)
    assert 0.75 * actual <= size <= 1.25 * actual, (names, size, actual)


def definition(path: str, qualname: str):
    """The syntax tree of a top-level function, a class or a class's method."""
    node = ast.parse((CORE / path).read_text())
    for part in qualname.split("."):
        node = next(n for n in ast.iter_child_nodes(node)
                    if getattr(n, "name", None) == part)
    return node


def source_of(path: str, qualname: str) -> str:
    return ast.get_source_segment((CORE / path).read_text(), definition(path, qualname))


PATH = [("ops/arithmetic.py", "mul"), ("ops/arithmetic.py", "MulBackward0"),
        ("autograd/node.py", "Node.apply"), ("autograd/node.py", "Node._link"),
        ("autograd/node.py", "Node.run_formula"), ("autograd/node.py", "Node._validate"),
        ("autograd/record.py", "apply_to_arrays"), ("autograd/broadcast.py", "sum_to"),
        ("autograd/engine.py", "walk"), ("autograd/engine.py", "backward_steps")]


@pytest.mark.parametrize("path,qualname", PATH)
def test_the_path_from_x_times_y_to_the_walk_meets_no_speed_or_float16_rule(path, qualname):
    assert not re.search(r"float16|half|thread", source_of(path, qualname), re.I)
    assert not [node for node in ast.walk(definition(path, qualname))
                if isinstance(node, (ast.Import, ast.ImportFrom))]


def test_the_walk_is_as_long_as_the_map_says():
    walk = source_of("autograd/engine.py", "walk")
    stated = int(re.search(r"`walk`, the reference walk \((\d+) lines\)", MAP)[1])
    assert len(walk.splitlines()) == stated


def test_the_walk_meets_what_is_beside_the_math_in_one_call():
    """NumPy's float warnings, anomaly mode and the profiler: one ``with`` of one call, so
    the walk reads as HIPS autograd's backward_pass (the map says to skip it)."""
    withs = [node for node in ast.walk(definition("autograd/engine.py", "walk"))
             if isinstance(node, ast.With)]
    assert [len(node.items) for node in withs] == [1]
    assert "`quiet_and_observed`" in MAP
