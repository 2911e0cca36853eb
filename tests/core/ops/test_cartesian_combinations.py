"""cartesian_prod and combinations against PyTorch 2.13 and finite differences: PyTorch
writes them with meshgrid (grids flattened, or read through a mask of i < j < ...) and
stack, and so does minigrad: the same graphs, values and gradients (an element used in
several rows gets their gradients summed); r, with_replacement, one vector, r = 0, and
the errors with PyTorch's texts."""

from __future__ import annotations

import pytest

import minigrad as mg

from torch_compare import check, check_numerical, rand
from transcripts import assert_same

U = rand((4,), seed=1)
V = rand((3,), seed=2)

CASES = {
    "cartesian_prod": lambda lib, u, v: lib.cartesian_prod(u, v),
    "cartesian_prod of three": lambda lib, u, v: lib.cartesian_prod(u, v, u[:2] * 2),
    "cartesian_prod of one": lambda lib, u, v: lib.cartesian_prod(u) * v[0],
    "combinations": lambda lib, u, v: lib.combinations(u),
    "combinations r=3": lambda lib, u, v: lib.combinations(u, r=3),
    "combinations with replacement": lambda lib, u, v: lib.combinations(v, 2, True) * v[:2],
    "combinations r=1": lambda lib, u, v: lib.combinations(v, 1),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_graphs_and_gradients(name, dtype):
    check(CASES[name], U.astype(dtype), V.astype(dtype), rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda u, v: CASES[name](mg, u, v), U, V)


PROGRAMS = [
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = torch.tensor([4.0, 5.0])\n"
    "c = torch.cartesian_prod(x, y)\nshow(c)\ngfn(c)\nc.sum().backward()\nshow(x.grad)",
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\nc = torch.combinations(x, 2)\nshow(c)\ngfn(c)\n"
    "(c[:, 0] * c[:, 1]).sum().backward()\nshow(x.grad)",
    "i = torch.tensor([1, 2, 3])\nshow(torch.combinations(i, 3, with_replacement=True), torch.combinations(i, 0), "
    "torch.combinations(i, 4), torch.cartesian_prod(i, i.bool()))",
    "x = torch.ones(2, 3)\ntorch.combinations(x)", "x = torch.ones(3)\ntorch.combinations(x, -1)",
    "x = torch.ones(3)\ntorch.cartesian_prod(x, x[None])",
    "show(torch.meshgrid(torch.ones(2), torch.ones(2).double(), indexing='xy'))",
    "show(torch.meshgrid(torch.ones(2), torch.ones(2).double(), indexing='bad'))",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)
