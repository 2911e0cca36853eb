"""Every lesson keeps its promise: it runs with real PyTorch.

Each lesson is run in a fresh kernel with its one line ``import minigrad as
torch`` replaced by ``import torch``, and nothing else changed. Cells tagged
``minigrad-only`` (a cell truly about minigrad itself, such as reading its
source) are left out; they are few, and the markdown before each says why.
Every other cell must run without error, and what it prints must be what
minigrad printed (the stored output), random numbers included: minigrad draws
PyTorch's numbers for the same seed, as the lessons say. So must its warnings
(stderr): lesson 6 says that reading a non-leaf's ``.grad`` warns with
"PyTorch's exact message".
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

REPO = Path(__file__).resolve().parents[2]
LESSONS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
IMPORT = "import minigrad as torch"
MINIGRAD_ONLY = "minigrad-only"
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")
KERNEL_CELL = re.compile(r"/tmp/ipykernel_\d+/\d+\.py")  # the kernel's file for a cell
# Where minigrad still prints more than PyTorch (reported on the coordination
# board): PyTorch's text must be the start of minigrad's, and the entry must go
# once both print the same.
PRINTS_MORE = {}


def tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def stdout(cell, name: str = "stdout") -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", [])
                   if o.get("output_type") == "stream" and o.get("name") == name)


def stderr(cell) -> str:
    return KERNEL_CELL.sub("KERNEL_CELL.py", stdout(cell, "stderr"))


def under_torch(path: Path):
    """The lesson as a learner would run it with PyTorch: the import swapped, the
    minigrad-only cells left out. Returns the notebook and, per kept cell, the
    stdout minigrad stored."""
    notebook = nbformat.read(path, as_version=4)
    kept, expected, imports = [], [], 0
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        if MINIGRAD_ONLY in tags(cell):
            continue
        source = cell.source
        imports += source.count(IMPORT)
        source = source.replace(IMPORT, "import torch")
        assert "minigrad" not in source, (
            f"{path.name}: a cell not tagged {MINIGRAD_ONLY} names minigrad beyond "
            f"the import line:\n{cell.source}")
        expected.append((stdout(cell), stderr(cell)))
        kept.append(nbformat.v4.new_code_cell(source))
    assert imports == 1, f"{path.name} should import minigrad as torch exactly once"
    notebook.cells = kept
    return notebook, expected


def test_every_lesson_is_checked():
    assert len(LESSONS) >= 7, [p.name for p in LESSONS]


def test_minigrad_only_cells_are_few_and_explained():
    for path in LESSONS:
        notebook = nbformat.read(path, as_version=4)
        code = [c for c in notebook.cells if c.cell_type == "code"]
        only = [i for i, c in enumerate(notebook.cells) if MINIGRAD_ONLY in tags(c)]
        assert len(only) <= max(1, len(code) // 5), f"{path.name}: too many {MINIGRAD_ONLY} cells"
        for i in only:
            before = notebook.cells[i - 1]
            assert before.cell_type == "markdown" and "minigrad" in before.source and (
                "PyTorch" in before.source), (
                f"{path.name} cell {i}: the markdown before a {MINIGRAD_ONLY} cell says why "
                "it is minigrad's alone")


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_runs_with_real_pytorch(path, tmp_path):
    pytest.importorskip("torch")
    notebook, expected = under_torch(path)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
        failure = None
    except CellExecutionError as error:
        failure = error
    if failure is not None:
        cell = next(c for c in notebook.cells
                    if any(o.get("output_type") == "error" for o in c.get("outputs", [])))
        pytest.fail(f"{path.name} fails under `import torch` in the cell\n{cell.source}\n"
                    f"with {failure.ename}: {failure.evalue}", pytrace=False)
    for cell, (want, warned) in zip(notebook.cells, expected):
        assert stderr(cell) == warned, (
            f"{path.name}: PyTorch warns otherwise than minigrad for\n{cell.source}")
        got = ADDRESS.sub(" at ADDRESS>", stdout(cell))
        want = ADDRESS.sub(" at ADDRESS>", want)
        more = [why for (stem, code), why in PRINTS_MORE.items()
                if stem == path.stem and code in cell.source]
        if more:
            assert got != want, f"both now print the same: drop {more} from PRINTS_MORE"
            assert want.startswith(got.rstrip("\n")), (more, got, want)
            continue
        assert got == want, (
            f"{path.name}: PyTorch prints something else than minigrad for\n{cell.source}")
