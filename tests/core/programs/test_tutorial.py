"""The tutorial itself as a test.

Every code cell of the five tutorial copies (``tutorial_cells.py``) runs in
order in one namespace, as in a notebook, twice: once after
``import minigrad as torch`` and once with PyTorch. What each cell prints must
be identical, line for line, once object addresses (``0x7ff097d40a58``) are
masked. Random numbers are made identical by drawing them from minigrad's
seeded generator in both runs (PyTorch's ``randn``/``rand`` are replaced by
functions that return minigrad's numbers as torch tensors).

Where a copy shows its own output and that output is deterministic, it is
asserted too (``SEED_OUTPUTS``).
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import warnings

import pytest
import torch

import minigrad
from tutorial_cells import TUTORIALS

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
IMPORT_TORCH = re.compile(r"^import torch[ \t]*$", re.MULTILINE)

DEFAULT_SEED = 0  # of minigrad's generator (SEEDS below for two tutorials)


def run_cell(source: str, namespace: dict) -> None:
    """Run a cell like Jupyter: the value of a final expression is displayed."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
        if value is not None:
            print(repr(value))


def warning_text(record: warnings.WarningMessage) -> str:
    """Category and message, without torch's "(Triggered internally at ...)" note."""
    message = str(record.message).split(" (Triggered internally at")[0]
    return f"{record.category.__name__}: {message}"


def run_tutorial(cells: list[str], library, seed: int) -> list[tuple[str, list[str]]]:
    """(printed text, warnings) of each cell, run in order in one namespace."""
    minigrad.manual_seed(seed)
    namespace: dict = {}
    results = []
    for source in cells:
        if library is minigrad:
            source = IMPORT_TORCH.sub("import minigrad as torch", source)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run_cell(source, namespace)
        results.append((printed.getvalue(), [warning_text(w) for w in caught]))
    return results


def masked(text: str) -> str:
    return ADDRESS.sub("0x...", text)


@pytest.fixture
def torch_draws_minigrads_numbers(monkeypatch):
    """torch.randn / torch.rand return minigrad's random numbers (as torch tensors)."""

    def from_minigrad(minigrad_function):
        def random_tensor(*size, dtype=None, requires_grad=False):
            values = minigrad_function(*size).numpy()
            return torch.tensor(values, dtype=dtype or torch.float32,
                                requires_grad=requires_grad)
        return random_tensor

    monkeypatch.setattr(torch, "randn", from_minigrad(minigrad.randn))
    monkeypatch.setattr(torch, "rand", from_minigrad(minigrad.rand))


def loop_doublings(seed: int) -> int:
    """How often seed 000/003's while loop doubles y under ``seed`` (cells 1-8 draw
    randn(2, 2) then randn(3)); x.grad is then gradients * 2 ** doublings."""
    minigrad.manual_seed(seed)
    minigrad.randn(2, 2)
    x = minigrad.randn(3)
    y, doublings = x * 2, 1
    while y.norm() < 1000:
        y, doublings = y * 2, doublings + 1
    return doublings


def first_seed_with(doublings: int) -> int:
    return next(s for s in range(10_000) if loop_doublings(s) == doublings)


# For 000 and 003, a seed under which the `while y.data.norm() < 1000` loop doubles
# as often as in the copy's recorded run, so that its printed x.grad can be compared too.
SEEDS = {
    "000_3f329d1011cdc670": first_seed_with(9),  # printed 5.1200e+01 = 0.1 * 2**9
    "003_814d55b543067124": first_seed_with(10),  # printed 1.0240e+02 = 0.1 * 2**10
}


@pytest.mark.parametrize("name, cells", TUTORIALS, ids=[name for name, _ in TUTORIALS])
def test_every_cell_prints_what_pytorch_prints(name, cells, torch_draws_minigrads_numbers):
    seed = SEEDS.get(name, DEFAULT_SEED)
    ours = run_tutorial(cells, minigrad, seed)
    theirs = run_tutorial(cells, torch, seed)
    for index, (source, (our_text, our_warnings), (torch_text, torch_warnings)) in enumerate(
            zip(cells, ours, theirs)):
        where = f"{name}, cell {index}:\n{source}"
        assert masked(our_text).splitlines() == masked(torch_text).splitlines(), where
        assert our_warnings == torch_warnings, where


def test_the_harness_captures_prints_displayed_values_and_warnings():
    cells = ["import torch\nx = torch.ones(2, requires_grad=True)", "print(x.all)",
             "x.sum()", "y = x * 2\ny.grad"]
    results = run_tutorial(cells, minigrad, DEFAULT_SEED)
    assert [masked(text) for text, _ in results] == [
        "", "<built-in method all of Tensor object at 0x...>\n",
        "tensor(2., grad_fn=<SumBackward0>)\n", ""]
    assert [len(caught) for _, caught in results] == [0, 0, 0, 1]
    assert results[3][1][0].startswith("UserWarning: The .grad attribute of a Tensor that is not")


# ---- the copies' own outputs ----------------------------------------------------

MATRIX_OF_ONES = "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)\n"
Y = "tensor([[3., 3.],\n        [3., 3.]], grad_fn=<AddBackward0>)\n"
Z_AND_OUT = ("tensor([[27., 27.],\n        [27., 27.]], grad_fn=<MulBackward0>) "
             "tensor(27., grad_fn=<MeanBackward0>)\n")
GRAD = "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"
NO_GRAD = "True\nTrue\nFalse\n"

# (tutorial, cell index) -> the output the copy shows, addresses as recorded.
SEED_OUTPUTS = {
    ("000_3f329d1011cdc670", 0): MATRIX_OF_ONES,
    ("000_3f329d1011cdc670", 1): Y,
    ("000_3f329d1011cdc670", 2): "<AddBackward0 object at 0x7ff097d40a58>\n",
    ("000_3f329d1011cdc670", 3): Z_AND_OUT,
    ("000_3f329d1011cdc670", 4): "False\nTrue\n<SumBackward0 object at 0x7ff096ce4978>\n",
    ("000_3f329d1011cdc670", 5): "",
    ("000_3f329d1011cdc670", 6): GRAD,
    ("000_3f329d1011cdc670", 8): "tensor([5.1200e+01, 5.1200e+02, 5.1200e-02])\n",
    ("000_3f329d1011cdc670", 9): NO_GRAD,
    ("001_8f444aa5be2ed95d", 0): "",
    ("001_8f444aa5be2ed95d", 1): MATRIX_OF_ONES,
    ("001_8f444aa5be2ed95d", 2): Y,
    ("001_8f444aa5be2ed95d", 3): "<AddBackward0 object at 0x7fd2f194da20>\n",
    ("001_8f444aa5be2ed95d", 4): Z_AND_OUT,
    ("001_8f444aa5be2ed95d", 5): "",
    ("001_8f444aa5be2ed95d", 6): "False\nTrue\n<SumBackward0 object at 0x7fd2f04ea9b0>\n",
    ("001_8f444aa5be2ed95d", 7): "",
    ("001_8f444aa5be2ed95d", 8): GRAD,
    ("001_8f444aa5be2ed95d", 9): NO_GRAD,
    ("001_8f444aa5be2ed95d", 10):
        "True\nFalse\n<built-in method all of Tensor object at 0x7fd2f1915fc0>\n",
    # Seed 002 is a web page that lost leading spaces (compared without them, below),
    # and it was made with an older PyTorch: it shows MeanBackward1 where 2.13
    # prints MeanBackward0, so the expectation here says MeanBackward0.
    ("002_ac8f57969690b9d3", 1): MATRIX_OF_ONES,
    ("002_ac8f57969690b9d3", 2): "tensor([[1., 1.],\n[1., 1.]])\n",
    ("002_ac8f57969690b9d3", 3): "None\n",
    ("002_ac8f57969690b9d3", 4): "None\n",
    ("002_ac8f57969690b9d3", 5): Y,
    ("002_ac8f57969690b9d3", 6): "<AddBackward0 object at 0x7f82b901b748>\n",
    ("002_ac8f57969690b9d3", 7): Z_AND_OUT,
    ("002_ac8f57969690b9d3", 8): "False\nTrue\n<SumBackward0 object at 0x7f82b912f828>\n",
    ("002_ac8f57969690b9d3", 9): GRAD,
    ("002_ac8f57969690b9d3", 10): "tensor([[1., 1.],\n[1., 1.]])\n",
    ("002_ac8f57969690b9d3", 11): "tensor([[9., 9.],\n[9., 9.]], grad_fn=<MulBackward0>)\n",
    ("002_ac8f57969690b9d3", 13): NO_GRAD,
    ("003_814d55b543067124", 1): MATRIX_OF_ONES,
    ("003_814d55b543067124", 2): Y + "<AddBackward0 object at 0x000001EF8A3D7160>\n",
    ("003_814d55b543067124", 3): Z_AND_OUT,
    ("003_814d55b543067124", 4): "False\nTrue\n<SumBackward0 object at 0x000001EF8A3D7F98>\n",
    ("003_814d55b543067124", 6): GRAD,
    ("003_814d55b543067124", 8): "tensor([1.0240e+02, 1.0240e+03, 1.0240e-01])\n",
    ("003_814d55b543067124", 9): NO_GRAD,
}


def comparable(name: str, text: str) -> list[str]:
    lines = masked(text).splitlines()
    if name.startswith("002"):  # the page lost every line's leading spaces
        lines = [line.lstrip() for line in lines]
    return lines


@pytest.mark.parametrize("name, cells", TUTORIALS[:4], ids=[name for name, _ in TUTORIALS[:4]])
def test_cells_print_what_the_copy_shows(name, cells):
    outputs = run_tutorial(cells, minigrad, SEEDS.get(name, DEFAULT_SEED))
    expected = {index: text for (tutorial, index), text in SEED_OUTPUTS.items()
                if tutorial == name}
    assert expected, name
    for index, text in expected.items():
        assert comparable(name, outputs[index][0]) == comparable(name, text), \
            f"{name}, cell {index}:\n{cells[index]}"


def test_seed_004_runs_and_prints_the_tutorial_values():
    """Seed 004 was saved without outputs; its deterministic cells print the
    same values as the other copies."""
    name, cells = TUTORIALS[4]
    outputs = [text for text, _ in run_tutorial(cells, minigrad, DEFAULT_SEED)]
    assert outputs[1] == MATRIX_OF_ONES
    assert outputs[4] == ("tensor([[27., 27.],\n        [27., 27.]], grad_fn=<MulBackward0>)\n"
                          "tensor(27., grad_fn=<MeanBackward0>)\n")
    assert outputs[6] == GRAD
    assert re.fullmatch(r"tensor\(\[[-0-9. e+,]+\], grad_fn=<MulBackward0>\)\n", outputs[7])
