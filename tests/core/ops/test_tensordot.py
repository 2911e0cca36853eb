"""tensordot against PyTorch 2.13 and finite differences: PyTorch writes it as permute,
reshape and one matrix product, and so does minigrad, so the graph (ViewBackward0,
MmBackward0, ReshapeAliasBackward0 or UnsafeViewBackward0 of a clone), the values and the
gradients are PyTorch's; dims as an int, as two lists, as a tensor; size-1 dims summed
first; ``out=``; the errors with PyTorch's texts."""

from __future__ import annotations

import pytest

import minigrad as mg

from torch_compare import check, check_numerical, rand
from transcripts import assert_same

A = rand((2, 3, 4), seed=1)
B = rand((4, 3, 5), seed=2)
M = rand((3, 4), seed=3)

CASES = {
    "two lists": lambda lib, a, b, m: lib.tensordot(a, b, dims=([1, 2], [1, 0])),
    "int": lambda lib, a, b, m: lib.tensordot(a, b, dims=1),
    "default 2": lambda lib, a, b, m: lib.tensordot(a, b.permute(1, 0, 2)),
    "0: an outer product": lambda lib, a, b, m: lib.tensordot(m, m[0], 0),
    "matrix and its transpose": lambda lib, a, b, m: lib.tensordot(m, m, dims=([1], [1])),
    "list of lists": lambda lib, a, b, m: lib.tensordot(a, m, dims=[[1, 2], [0, 1]]),
    "size 1 summed first": lambda lib, a, b, m: lib.tensordot(a[:, :1], b, dims=([1, 2], [1, 0])),
    "tensor dims": lambda lib, a, b, m: lib.tensordot(m, a, dims=lib.tensor(0)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_graphs_and_gradients(name, dtype):
    check(CASES[name], A.astype(dtype), B.astype(dtype), M.astype(dtype))


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda a, b, m: CASES[name](mg, a, b, m), A, B, M)


PROGRAMS = [
    "a = torch.arange(6.0).reshape(2, 3).requires_grad_()\ny = torch.tensordot(a, a, dims=([1], [1]))\nshow(y)\ngfn(y)\n"
    "y.sum().backward()\nshow(a.grad)",
    "a = torch.arange(6).reshape(2, 3)\nshow(torch.tensordot(a, a.t(), 1), torch.tensordot(a, a, 2))",
    "a = torch.ones(2, 3)\ny = torch.empty(2, 2)\ntorch.tensordot(a, a.t(), 1, out=y)\nshow(y)",
    "a = torch.ones(2, 3)\ntorch.tensordot(a, a, dims=-1)",
    "a = torch.ones(2, 3)\ntorch.tensordot(a, a.double(), dims=1)",
    "a = torch.ones(2, 3)\ntorch.tensordot(a, a, dims=([0], [1]))",
    "a = torch.ones(2, 3)\ntorch.tensordot(a, a, dims=([0, 1], [1]))",
    "a = torch.ones(2, 3)\ntorch.tensordot(a, a, dims=1.5)",
    "a = torch.ones(2, 3)\ntorch.tensordot(a, a, dims=3)",
    "a = torch.ones(2, 3, 4)\ntorch.tensordot(a, a, dims=1)",  # (a's dims named -1, -2, ...)
    "a = torch.ones(2, 3, 4)\ntorch.tensordot(a, a, dims=2)",
    "a = torch.ones(2, 3, 4)\ntorch.tensordot(a, a, dims=([-1], [-3]))",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)
