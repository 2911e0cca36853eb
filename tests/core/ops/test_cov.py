"""cov and corrcoef against PyTorch 2.13 and finite differences: PyTorch writes them with
other ops (centred rows, one matrix product, a division; corrcoef then divides by the
square roots of the diagonal and clips to [-1, 1]), and so does minigrad: its graphs,
gradients; the values to float precision (the matrix product adds its terms in another
order than PyTorch's BLAS, and corrcoef's float32 ``sqrt`` rounds otherwise than SLEEF's
in about a sixth of values); one row, integers, ``correction=``, the warning and the
errors."""

from __future__ import annotations

import pytest

import minigrad as mg

from torch_compare import check, check_numerical, rand
from transcripts import assert_same

M = rand((3, 6), seed=1)

CASES = {
    "cov": (lambda lib, m: lib.cov(m), True),
    "cov correction=0": (lambda lib, m: m.cov(correction=0), True),
    "cov of one row": (lambda lib, m: lib.cov(m[0]), True),
    "cov of the transpose": (lambda lib, m: lib.cov(m.t() * 2), True),
    "corrcoef": (lambda lib, m: lib.corrcoef(m), False),
    "corrcoef method": (lambda lib, m: m.corrcoef() * m[:, :3], False),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_graphs_and_gradients(name, dtype):
    fn, _ = CASES[name]
    tolerance = dict(rtol=1e-12, atol=1e-14) if dtype == "float64" else {}
    check(fn, M.astype(dtype), **tolerance)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda m: CASES[name][0](mg, m), M)


PROGRAMS = [
    "x = torch.tensor([[1.0, 2.0, 4.0], [2.0, 1.0, 0.0]], requires_grad=True)\nc = torch.cov(x)\nshow(c)\ngfn(c)\n"
    "c.sum().backward()\nshow(x.grad)\nr = torch.corrcoef(x)\nshow(r)\ngfn(r)",
    "i = torch.tensor([[1, 2, 4], [2, 1, 0]])\nshow(torch.cov(i), torch.corrcoef(i), torch.cov(torch.arange(4)), torch.corrcoef(torch.arange(4.0)))",
    "show(torch.cov(torch.ones(3, 1)), torch.cov(torch.ones(2, 3), correction=5), torch.corrcoef(torch.ones(2, 3)))",
    "torch.cov(torch.ones(2, 2, 2))", "torch.cov(torch.ones(2, 3).bool())",
    "torch.corrcoef(torch.ones(2, 2, 2))",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)


def test_the_degrees_of_freedom_warning():
    import warnings
    import torch
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.cov(lib.ones(2, 1))
        assert any("degrees of freedom is <= 0" in str(w.message) for w in caught), lib
