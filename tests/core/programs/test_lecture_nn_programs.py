"""The ``torch.nn`` lecture programs (``lecture_nn_programs.py``: makemore part 3 with
``nn`` modules, a d2l-style BatchNorm classifier) print the same under PyTorch 2.13 and
under ``import minigrad as torch``: losses to 4 decimals, running statistics, reprs."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

from lecture_nn_programs import PROGRAMS
from test_tutorial_programs import NUMBER, printed


@pytest.fixture(autouse=True)
def same_threads():
    """BatchNorm's (N, C) statistics are added per thread, as torch's kernel adds them:
    minigrad cuts the rows for torch's thread count (the suite runs torch on one)."""
    before = minigrad.get_num_threads()
    minigrad.set_num_threads(torch.get_num_threads())
    yield
    minigrad.set_num_threads(before)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_lecture_nn_program_prints_what_pytorch_prints(program):
    mine = printed(program, minigrad)
    theirs = printed(program, torch)
    assert NUMBER.sub("#", mine) == NUMBER.sub("#", theirs)
    numbers_mine = np.array([float(n) for n in NUMBER.findall(mine)])
    numbers_theirs = np.array([float(n) for n in NUMBER.findall(theirs)])
    assert len(numbers_mine) > 20
    np.testing.assert_allclose(numbers_mine, numbers_theirs, rtol=2e-5, atol=1e-6)
    # the printed 4-decimal losses are the same text
    losses = [line for line in theirs.splitlines() if "loss" in line]
    assert losses == [line for line in mine.splitlines() if "loss" in line]
