"""Programs in the style of "Learning PyTorch with Examples" (``tutorial_programs.py``)
run unchanged under PyTorch 2.13 and under ``import minigrad as torch``, and print the
same text with the same numbers to float32 precision.

Both runs are seeded with ``manual_seed(0)``; minigrad draws PyTorch's random numbers, so
both start from the same weights and data with nothing patched.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings

import numpy as np
import pytest
import torch

import minigrad

from tutorial_programs import PROGRAMS

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def printed(program, library) -> str:
    """What ``program`` prints, and the warnings it raises."""
    library.manual_seed(0)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        program(library)
    text = out.getvalue() + "".join(f"{w.category.__name__}: {w.message}\n" for w in caught)
    return ADDRESS.sub("0x", text)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_prints_what_pytorch_prints(program):
    mine = printed(program, minigrad)
    theirs = printed(program, torch)
    assert NUMBER.sub("#", mine) == NUMBER.sub("#", theirs)  # the same text around the numbers
    numbers_mine = np.array([float(n) for n in NUMBER.findall(mine)])
    numbers_theirs = np.array([float(n) for n in NUMBER.findall(theirs)])
    assert len(numbers_mine) > 5
    np.testing.assert_allclose(numbers_mine, numbers_theirs, rtol=2e-5, atol=1e-6)
