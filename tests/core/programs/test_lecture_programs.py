"""Programs in the style of d2l, the makemore lectures and "PyTorch basics" tours
(``lecture_programs.py``) run unchanged under PyTorch 2.13 and under
``import minigrad as torch`` and print the same text: seeded by ``manual_seed(0)`` (and
their own generators), so with the same random numbers, nothing patched. The numbers are
compared to float32 precision, the text around them exactly."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad

from lecture_programs import PROGRAMS
from test_tutorial_programs import NUMBER, printed


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_lecture_program_prints_what_pytorch_prints(program):
    mine = printed(program, minigrad)
    theirs = printed(program, torch)
    assert NUMBER.sub("#", mine) == NUMBER.sub("#", theirs)
    numbers_mine = np.array([float(n) for n in NUMBER.findall(mine)])
    numbers_theirs = np.array([float(n) for n in NUMBER.findall(theirs)])
    assert len(numbers_mine) > 5
    np.testing.assert_allclose(numbers_mine, numbers_theirs, rtol=2e-5, atol=1e-6)
