"""Sums added up in PyTorch's order (minigrad/summation.py), compared bit for bit
with PyTorch 2.13 at test time: ``x.sum()`` and ``x.mean()`` of contiguous float32
and float64 tensors of up to 32,767 elements, the gradient of a 0-dim operand (a
sum of the broadcast gradient), and the higher derivatives of reductions whose
formulas sum (prod, std, norm, cumprod, logsumexp) to the fifth order. NumPy's
pairwise sums differ from these in the last bits for most sizes of 5 and more."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

SIZES = [1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 127, 255, 256, 257, 511, 527, 528,
         1055, 1056, 4095, 4096, 4097, 8193, 20000, 32767]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", SIZES)
def test_sum_and_mean_have_torchs_bits(size, dtype):
    rng = np.random.default_rng(size)
    for scale in (1e-3, 1.0, 1e4):
        data = (rng.standard_normal(size) * scale).astype(dtype)
        for shape in [(size,), (1, size)] + ([(size // 3, 3)] if size % 3 == 0 else []):
            ours, theirs = mg.tensor(data.reshape(shape)), torch.tensor(data.reshape(shape))
            assert ours.sum().numpy().tobytes() == theirs.sum().numpy().tobytes(), (shape, scale)
            assert ours.mean().numpy().tobytes() == theirs.mean().numpy().tobytes(), (shape, scale)


@pytest.mark.parametrize("size", [5, 17, 100, 1000])
def test_the_gradient_of_a_0_dim_operand_has_torchs_bits(size):
    def run(lib):
        rng = np.random.default_rng(size)
        x = lib.tensor(rng.standard_normal(size))
        w = lib.tensor(0.75, dtype=lib.float64, requires_grad=True)
        (x * w).backward(lib.tensor(rng.standard_normal(size)))
        return w.grad.numpy().tobytes()
    assert run(mg) == run(torch)


PROGRAMS = {
    "prod": lambda lib, x: x.prod(), "prod(0)": lambda lib, x: x.prod(0),
    "prod(1)": lambda lib, x: x.prod(1), "std": lambda lib, x: x.std(),
    "norm": lambda lib, x: x.norm(), "cumprod(1)": lambda lib, x: x.cumprod(1),
    "logsumexp(1)": lambda lib, x: x.logsumexp(1),
}
DATA = {"plain": [[0.7, -1.3, 2.1], [0.4, 1.1, -0.6]], "a zero": [[0.7, 0.0, 2.1], [0.4, 1.1, -0.6]],
        "two zeros": [[0.0, 0.0, 2.1], [0.4, 0.0, -0.6]]}


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("seed", ["sum", "weighted"])
def test_higher_derivatives_of_reductions_have_torchs_bits(name, data, seed):
    def run(lib):
        x = lib.tensor(DATA[data], dtype=lib.float64, requires_grad=True)
        g = PROGRAMS[name](lib, x)
        out = []
        for _ in range(5):
            if seed == "sum" or g.numel() == 1:
                total = g.sum()
            else:
                total = (g * lib.tensor(np.linspace(0.3, 1.7, g.numel()).reshape(tuple(g.shape)))).sum()
            if not total.requires_grad:
                break
            g, = lib.autograd.grad(total, x, create_graph=True)
            out.append(g.detach().numpy().tobytes())
        return out
    assert run(mg) == run(torch)
