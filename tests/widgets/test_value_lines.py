"""The values in a drawing's boxes are written as PyTorch writes them: every value of a
tensor with the same number of decimals, and no space before a comma or a bracket.

NumPy's default wrote lesson 9's bias as ``[-0.045 ,  0.0973]`` and lesson 4's ``x`` as
``[ 1.541 , -0.2934, -2.1788]`` (a shorter value padded with spaces to line up with
the others), which reads like a typo in a box; PyTorch prints ``-0.0450``. A gradient of
1e-05 beside one of 3 was written ``0.`` (NumPy's ``suppress_small``), where PyTorch writes
``1.0000e-05``; and a summary's two ends were written apart (``-0.215 to 0.2499``).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import minigrad
from widgets import draw_graph
from widgets.text import value_lines

torch = pytest.importorskip("torch")

VALUES = [[-0.045, 0.0973], [1.541, -0.2934, -2.1788], [0.25, 4.5], [-4.0, 0.5],
          [[-0.4594, -0.6426], [-0.251, 0.6953]], [3.0, 2.0], [[1.0, 1.0], [1.0, 1.0]],
          [1e-05, 3.0], [1e-09, 0.5], [123456.0, 0.5], [2000.0, 1.0]]
NUMBER = re.compile(r"-?\d+\.\d*(?:e[+-]\d+)?")


def _decimals(number: str) -> int:
    return len(number.split(".")[1].split("e")[0])


@pytest.mark.parametrize("values", VALUES, ids=str)
def test_values_read_as_pytorch_prints_them(values):
    """The numbers PyTorch prints (to its 4 decimals), each with as many decimals as the
    others (PyTorch always writes 4 when one is not whole; the boxes write no more than
    the values need), and no padding inside the brackets."""
    written = " ".join(line.strip() for line in value_lines(minigrad.tensor(values)))
    printed = str(torch.tensor(values))[len("tensor("):-1]
    assert [float(n) for n in NUMBER.findall(written)] == [
        float(n) for n in NUMBER.findall(printed)]
    assert len({_decimals(n) for n in NUMBER.findall(written)}) == 1, written
    assert ("e" in written) == ("e" in printed), (written, printed)
    assert not re.search(r"\d +[,\]]", written), written


@pytest.mark.parametrize("ends", [[-0.215, 0.2499], [-0.7, 0.69], [1e-05, 3.0], [-2.0, 3.0],
                                  [0.5, 123456.0], [-0.0123, 0.5]], ids=str)
def test_a_summarys_two_ends_are_written_alike(ends):
    """Past ``max_values`` a box says ``16 values from -0.2150 to 0.2499``: the two ends are
    PyTorch's numbers for them, with as many decimals as each other."""
    (line,) = value_lines(minigrad.tensor(ends + [ends[0]] * 10))
    low, high = re.fullmatch(r"12 values from (\S+) to (\S+)", line).groups()
    printed = NUMBER.findall(str(torch.tensor(ends)))
    assert [float(low), float(high)] == [float(n) for n in printed], (line, printed)
    assert _decimals(low) == _decimals(high) and ("e" in low) == ("e" in printed[0]), line


@pytest.mark.parametrize("values", [[1e-05, 2e-05], [1e-05, 3.0], [1e-08, 0.0], [1e-05],
                                    [[2e-05, 1.0], [3.0, 4e-06]], [1e-05] * 11 + [3.0]], ids=str)
def test_scientific_notation_has_pytorchs_four_decimals(values):
    """BackwardCheck's boxes wrote a gradient of 1e-05 as ``1.e-05`` (the fewest digits the
    values need), where PyTorch prints ``1.0000e-05``: in scientific notation every number
    is written as PyTorch writes it, character for character."""
    written = " ".join(value_lines(minigrad.tensor(values)))
    printed = str(torch.tensor(values))
    if len(values) > 8:  # summarised: its two ends, as PyTorch prints them
        printed = str(torch.tensor([min(values), max(values)]))
    assert NUMBER.findall(written) == NUMBER.findall(printed), (written, printed)
    assert ".e" not in written, written


def test_no_box_of_lesson_4s_graph_pads_a_value():
    minigrad.manual_seed(0)
    x = minigrad.randn(3, requires_grad=True)
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    y.backward(minigrad.tensor([0.1, 1.0, 0.0001]))
    text = draw_graph(y, names={"x": x, "y": y}).text
    assert "1.5410, -0.2934, -2.1788" in text, text
    assert not re.search(r"\d +[,\]]", text), text
    assert np.isfinite(x.grad.numpy()).all()


def test_an_operations_saved_numbers_are_listed_with_commas():
    """draw_graph(..., show_saved=True).text ran an op's saved numbers together:
    '(alpha = 1 beta = 1 mat1_sym_sizes = (4, 3) ...)'."""
    x = torch.ones(4, 3, requires_grad=True)
    loss = torch.nn.functional.linear(x, torch.ones(2, 3, requires_grad=True),
                                      torch.ones(2, requires_grad=True)).sum()
    op = next(line for line in draw_graph(loss, show_saved=True).text.splitlines()
              if "AddmmBackward0:" in line)
    assert "(alpha = 1, beta = 1, mat1_sym_sizes = (4, 3), " in op, op
