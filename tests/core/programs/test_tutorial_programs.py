"""Programs in the style of "Learning PyTorch with Examples" (``tutorial_programs.py``)
run unchanged under PyTorch 2.13 and under ``import minigrad as torch``, and print the
same text with the same numbers to float32 precision.

The two libraries draw different random numbers for a seed, so during the PyTorch run
``torch.randn``, ``torch.rand`` and ``torch.randint`` hand out minigrad's numbers (and
``torch.manual_seed`` seeds minigrad's generator): both runs start from the same weights
and data.
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


def _drawn_by_minigrad(name):
    def draw(*args, dtype=None, device=None, requires_grad=False, **kwargs):
        mg_dtype = None if dtype is None else getattr(minigrad, str(dtype).split(".")[1])
        values = getattr(minigrad, name)(*args, dtype=mg_dtype, **kwargs).numpy()
        return torch.tensor(values, device=device, requires_grad=requires_grad)
    return draw


def printed(program, library) -> str:
    """What ``program`` prints, and the warnings it raises."""
    minigrad.manual_seed(0)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        program(library)
    text = out.getvalue() + "".join(f"{w.category.__name__}: {w.message}\n" for w in caught)
    return ADDRESS.sub("0x", text)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_prints_what_pytorch_prints(program, monkeypatch):
    mine = printed(program, minigrad)
    for name in ("randn", "rand", "randint"):
        monkeypatch.setattr(torch, name, _drawn_by_minigrad(name))
    monkeypatch.setattr(torch, "manual_seed", minigrad.manual_seed)
    theirs = printed(program, torch)
    assert NUMBER.sub("#", mine) == NUMBER.sub("#", theirs)  # the same text around the numbers
    numbers_mine = np.array([float(n) for n in NUMBER.findall(mine)])
    numbers_theirs = np.array([float(n) for n in NUMBER.findall(theirs)])
    assert len(numbers_mine) > 5
    np.testing.assert_allclose(numbers_mine, numbers_theirs, rtol=2e-5, atol=1e-6)
