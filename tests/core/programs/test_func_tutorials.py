"""PyTorch's tutorials on forward-mode AD and function transforms (``func_tutorials.py``:
forward_ad_usage, jacobians_hessians, per_sample_grads, ensembling, neural_tangent_kernels)
run under PyTorch 2.13 and under ``import minigrad as torch``: the same printed text, the
same numbers to float32 precision, and the same tensors at the end.
"""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pytest
import torch

import minigrad

from func_tutorials import PROGRAMS

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def run(program, library):
    library.manual_seed(0)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        finals = program(library)
    return out.getvalue(), {name: t.detach().numpy() for name, t in finals.items()}


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_prints_and_ends_as_pytorch(program):
    (mine, my_finals), (theirs, their_finals) = run(program, minigrad), run(program, torch)
    assert NUMBER.sub("#", mine) == NUMBER.sub("#", theirs)
    numbers_mine = np.array([float(n) for n in NUMBER.findall(mine)])
    numbers_theirs = np.array([float(n) for n in NUMBER.findall(theirs)])
    assert len(numbers_mine) > 5
    np.testing.assert_allclose(numbers_mine, numbers_theirs, rtol=2e-5, atol=1e-6)
    assert my_finals.keys() == their_finals.keys()
    for name in their_finals:
        assert my_finals[name].dtype == their_finals[name].dtype, name
        assert my_finals[name].shape == their_finals[name].shape, name
        np.testing.assert_allclose(my_finals[name], their_finals[name], rtol=1e-4, atol=1e-5)
