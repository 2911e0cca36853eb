"""ops/differences.py against PyTorch 2.13: torch.gradient with no spacing, a number, a
number per dim, coordinates (evenly and unevenly spaced), a dim or a list of them,
edge_order 1 and 2, integer input; values bit for bit, graphs (CatBackward0 and the slices
and arithmetic under it), gradients (and finite differences in float64), its docstring's
Examples, and the error texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_error, check_numerical, outcome, rand

X = rand((3, 5), seed=0)
T = rand((4, 3, 6), seed=1)
COORDS = np.array([0.0, 0.5, 1.5, 1.75, 3.0], np.float32)


def _coordinates(lib, *sizes):
    return tuple(lib.tensor(np.cumsum(np.linspace(0.5, 1.5, n)).astype(np.float32)) for n in sizes)


CASES = {
    "all dims": lambda lib, x: lib.gradient(x),
    "a number": lambda lib, x: lib.gradient(x, spacing=0.5),
    "a number per dim": lambda lib, x: lib.gradient(x, spacing=[2.0, 0.25]),
    "a dim": lambda lib, x: lib.gradient(x, dim=1),
    "negative dim, edge 2": lambda lib, x: lib.gradient(x, dim=-1, edge_order=2),
    "dims and a number": lambda lib, x: lib.gradient(x, spacing=3, dim=[1, 0]),
    "dims and numbers, edge 2": lambda lib, x: lib.gradient(x, spacing=(2.0, 1.5), dim=(0, 1),
                                                            edge_order=2),
    "coordinates": lambda lib, x: lib.gradient(x, spacing=_coordinates(lib, 3, 5)),
    "coordinates, edge 2": lambda lib, x: lib.gradient(x, spacing=_coordinates(lib, 3, 5),
                                                       edge_order=2),
    "coordinates of a dim": lambda lib, x: lib.gradient(x, spacing=(lib.tensor(COORDS),), dim=1,
                                                        edge_order=2),
    "coordinates evenly": lambda lib, x: lib.gradient(x, spacing=(lib.arange(3.) * 2,
                                                                  lib.arange(5.))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch_bit_for_bit(name):
    check(CASES[name], X, rtol=0, atol=0)


@pytest.mark.parametrize("name", ["all dims", "negative dim, edge 2", "coordinates, edge 2"])
def test_three_dims_against_torch(name):
    fn = CASES[name]
    if name.startswith("coordinates"):
        def fn(lib, x):
            return lib.gradient(x, spacing=_coordinates(lib, 4, 3, 6), edge_order=2)
    check(fn, T, rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda x: CASES[name](mg, x), X)


CALLS = {
    # (torch.gradient's docstring Examples)
    "docstring coordinates": lambda lib: lib.gradient(
        lib.tensor([4., 1., 1., 16.]), spacing=(lib.tensor([-2., -1., 1., 4.]),)),
    "docstring values": lambda lib: lib.gradient(lib.tensor([[1, 2, 4, 8], [10, 20, 40, 80]])),
    "docstring spacing 2": lambda lib: lib.gradient(
        lib.tensor([[1, 2, 4, 8], [10, 20, 40, 80]]), spacing=2.0),
    "docstring spacing per dim": lambda lib: lib.gradient(
        lib.tensor([[1, 2, 4, 8], [10, 20, 40, 80]]), spacing=[3., 2.]),
    "docstring coordinates 2-D": lambda lib: lib.gradient(
        lib.tensor([[1, 2, 4, 8], [10, 20, 40, 80]]),
        spacing=(lib.tensor([0, 1.]), lib.tensor([0, 2., 3, 4]))),
    "docstring dim": lambda lib: lib.gradient(lib.tensor([[1, 2, 4, 8], [10, 20, 40, 80]]),
                                              dim=1),
    "int spacing": lambda lib: lib.gradient(lib.tensor([1, 2, 4, 8]), spacing=2),
    "float64": lambda lib: lib.gradient(lib.tensor([1., 2, 4, 8], dtype=lib.float64),
                                        edge_order=2),
    "0-dim": lambda lib: lib.gradient(lib.tensor(1.)),
    "long coordinates": lambda lib: lib.gradient(lib.tensor([[1., 2, 4], [3, 2, 1]]),
                                                 spacing=(lib.tensor([0., 1, 2]),
                                                          lib.tensor([0., 2, 3, 7]))),
    "uint8": lambda lib: lib.gradient(lib.tensor([1, 2, 4], dtype=lib.uint8)),
    "edge order 3": lambda lib: lib.gradient(lib.ones(3, 4), edge_order=3),
    "spacing too long": lambda lib: lib.gradient(lib.ones(2, 4), spacing=[1., 2., 3.]),
    "spacing and a dim": lambda lib: lib.gradient(lib.ones(2, 4), spacing=[1., 2., 3.], dim=1),
    "spacing and dims": lambda lib: lib.gradient(lib.ones(2, 4), dim=[0, 1], spacing=[1.]),
    "too short for edge 2": lambda lib: lib.gradient(lib.ones(2, 4), edge_order=2),
    "too short": lambda lib: lib.gradient(lib.ones(1, 4), dim=1),
    "dim out of range": lambda lib: lib.gradient(lib.ones(2, 4), dim=2),
    "dims out of range": lambda lib: lib.gradient(lib.ones(2, 4), dim=[0, 3]),
    "a dim twice": lambda lib: lib.gradient(lib.ones(2, 4), dim=(0, 0)),
    "2-D coordinates": lambda lib: lib.gradient(lib.ones(2, 4), spacing=(
        lib.tensor([[0., 1.]]), lib.tensor([0., 2, 3, 7]))),
    "bool": lambda lib: lib.gradient(lib.tensor([True, False, True])),
    "spacing by position": lambda lib: lib.gradient(lib.ones(3), 1),
    "method": lambda lib: lib.ones(3).gradient(),
}


@pytest.mark.parametrize("name", CALLS)
def test_calls_give_what_torch_gives(name):
    assert outcome(CALLS[name], mg) == outcome(CALLS[name], torch)


def test_an_error_changes_nothing():
    check_error(lambda lib, x: lib.gradient(x, dim=[0, 0]), X)
