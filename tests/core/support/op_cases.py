"""The cases shared by the op families' files (tests/core/ops/test_<family>.py) and
the fidelity files split from them: each case is written once as ``fn(lib, *tensors)``
and runs on both libraries (see ``torch_compare.py``); the arrays are made from fixed
seeds, so every file sees the same numbers."""

import numpy as np
import pytest

from torch_compare import check, distinct, rand

INF = float("inf")


def case(fn, *arrays, id, marks=(), **options):
    return pytest.param(fn, arrays, options, id=id, marks=marks)


def run(fn, arrays, options):
    check(fn, *arrays, **options)


X = rand((2, 3), seed=0)
Y = rand((2, 3), seed=1)
POS = rand((2, 3), seed=2, low=0.5, high=2.0)
POS2 = rand((2, 3), seed=3, low=0.5, high=2.0)
ROW = rand((3,), seed=4)
COL = rand((2, 1), seed=5)
SCALAR = np.asarray(rand((), seed=6))
X3 = rand((2, 3, 4), seed=7)
COL3 = rand((3, 1), seed=13)

# (shared by pointwise and reductions)
AWAY = rand((3, 4), seed=8, away_from=[0.0, -0.5, 0.5], gap=0.15)
D3 = distinct((2, 3, 4), seed=11)
D2 = distinct((3, 4), seed=12)
