"""trapezoid (and trapz) and cumulative_trapezoid against PyTorch 2.13 and finite
differences: PyTorch writes them with other ops (a sum and the two ends times 1/2 for a
spacing dx; the pairs of neighbours times the steps of x for sample points), so their
graphs, values and gradients are those ops'; integer inputs, empty dims, printing and the
errors with PyTorch's texts."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

from torch_compare import check, check_numerical, rand
from transcripts import assert_same

Y = rand((3, 5), seed=1)
X = np.sort(rand((5,), seed=2, low=0, high=4))
X2 = np.sort(rand((3, 5), seed=3, low=0, high=4), axis=1)

CASES = {
    "trapezoid": lambda lib, y, x, x2: lib.trapezoid(y),
    "trapezoid dx": lambda lib, y, x, x2: lib.trapezoid(y, dx=0.25, dim=0),
    "trapezoid x": lambda lib, y, x, x2: lib.trapezoid(y, x),
    "trapezoid x of y's dims": lambda lib, y, x, x2: lib.trapezoid(y * 2, x2, dim=-1),
    "trapz": lambda lib, y, x, x2: lib.trapz(y, dx=2),
    "cumulative_trapezoid": lambda lib, y, x, x2: lib.cumulative_trapezoid(y),
    "cumulative_trapezoid dx": lambda lib, y, x, x2: lib.cumulative_trapezoid(y, dx=0.5, dim=0),
    "cumulative_trapezoid x": lambda lib, y, x, x2: lib.cumulative_trapezoid(y, x),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_graphs_and_gradients(name, dtype):
    check(CASES[name], Y.astype(dtype), X.astype(dtype), X2.astype(dtype), rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda y, x, x2: CASES[name](mg, y, x, x2), Y, X, X2)


PROGRAMS = [
    "y = torch.tensor([1.0, 3.0, 2.0, 5.0], requires_grad=True)\nz = torch.trapezoid(y)\nshow(z)\ngfn(z)\n"
    "z.backward()\nshow(y.grad)",
    "y = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)\nz = torch.cumulative_trapezoid(y, torch.tensor([0.0, 0.5, 2.0]))\n"
    "show(z)\ngfn(z)\nz.sum().backward()\nshow(y.grad)",
    "i = torch.arange(5)\nshow(torch.trapezoid(i), torch.trapz(i, dx=2), torch.cumulative_trapezoid(i), torch.trapezoid(i, i))",
    "show(torch.trapezoid(torch.ones(2, 0)), torch.cumulative_trapezoid(torch.ones(2, 0)), torch.trapezoid(torch.ones(3, 1)))",
    "y = torch.arange(4.0)\nshow(torch.trapezoid(y, dx=torch.tensor(0.5)), torch.trapezoid(y.double(), torch.arange(4)))",
    "y = torch.arange(4.0)\ntorch.trapezoid(y, torch.arange(3.0))",
    "torch.trapezoid(torch.tensor([True, False]))",
    "y = torch.arange(4.0)\ntorch.trapezoid(y, dim=2)",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)
