"""ops/cumulative.py's cummax, cummin and logcumsumexp against PyTorch 2.13 and finite
differences: values (bit for bit: the running maxima are picked, logcumsumexp is PyTorch's
step in float64), the indices PyTorch picks (the later of equal values, the latest NaN),
``torch.return_types`` printing, CummaxBackward0/CumminBackward0/LogcumsumexpBackward0 and
their gradients (a running max that holds for several steps gets their gradients summed),
dtypes, ``out=``, NumPy's ``axis=``, the saved values, and the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_numerical, distinct, rand
from transcripts import assert_same

X = distinct((3, 5), seed=1)
WITH_TIES = np.round(rand((3, 6), seed=2), 0)  # (many equal values: the tie rule shows)
WIDE = rand((2, 3, 4), seed=3, low=-30, high=30)

CASES = {
    "cummax": lambda lib, x: lib.cummax(x, 1),
    "cummax dim 0": lambda lib, x: lib.cummax(x, 0),
    "cummax method, negative dim": lambda lib, x: x.cummax(-1),
    "cummin": lambda lib, x: lib.cummin(x, dim=1),
    "cummin method": lambda lib, x: x.cummin(0),
    "cummax values times x": lambda lib, x: lib.cummax(x * 2, 1).values * x,
    "logcumsumexp": lambda lib, x: lib.logcumsumexp(x, 1),
    "logcumsumexp dim 0": lambda lib, x: x.logcumsumexp(0),
    "logcumsumexp negative dim": lambda lib, x: lib.logcumsumexp(x * 3, dim=-1),
    "logcumsumexp transposed": lambda lib, x: lib.logcumsumexp(x.t(), 0) * 2,
}


@pytest.mark.parametrize("data", ["distinct", "ties"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_indices_graphs_and_gradients(name, dtype, data):
    x = (X if data == "distinct" else WITH_TIES).astype(dtype)
    check(CASES[name], x, rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda x: CASES[name](mg, x), X)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logcumsumexp_of_wide_values_bit_for_bit(dtype):
    """Values from -30 to 30 (exp overflows float32 from 89: the running form does not)."""
    check(lambda lib, x: lib.logcumsumexp(x * 4, 2), WIDE.astype(dtype), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logcumsumexp_bits_on_many_elements(dtype):
    rng = np.random.default_rng(7)
    x = rng.uniform(-20, 20, (200, 50)).astype(dtype)
    ours = mg.logcumsumexp(mg.tensor(x), 1).numpy()
    theirs = torch.logcumsumexp(torch.tensor(x), 1).numpy()
    np.testing.assert_array_equal(ours, theirs)


def test_double_backward():
    def fn(lib, x):
        y = lib.logcumsumexp(x, 1) + lib.cummax(x, 1).values * x
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        return g
    check(fn, X.astype("float64"), rtol=1e-12, atol=1e-12)


def test_a_training_step_with_a_running_max():
    """A model whose loss reads a running maximum and a logcumsumexp learns as torch's."""
    w0 = rand((4, 6), seed=9)

    def train(lib):
        w = lib.tensor(w0.copy(), requires_grad=True)
        opt = lib.optim.SGD([w], lr=0.1)
        for _ in range(5):
            loss = lib.cummax(w, 1).values.mean() + lib.logcumsumexp(w, 0)[-1].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        return w.detach().numpy()

    np.testing.assert_allclose(train(mg), train(torch), rtol=1e-6, atol=1e-6)


PROGRAMS = [
    # printing, ties, NaN, infinities
    "x = torch.tensor([1.0, 3.0, 3.0, 2.0, float('nan'), 5.0, float('nan'), 0.0])\n"
    "show(torch.cummax(x, 0), torch.cummin(x, 0), x.cummax(0).indices)",
    "x = torch.tensor([float('-inf'), float('-inf'), 1.0, float('inf'), float('inf'), float('nan'), 2.0])\n"
    "show(torch.logcumsumexp(x, 0), torch.cummax(x, 0), torch.cummin(-x, 0))",
    "x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)\nr = torch.cummin(x, 1)\nshow(r)\n"
    "gfn(r.values)\nshow(r.values.grad_fn._saved_dim, r.values.grad_fn._saved_indices)",
    "x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)\ny = torch.logcumsumexp(x, -1)\nshow(y)\n"
    "gfn(y)\nshow(y.grad_fn._saved_dim)\ny.sum().backward()\nshow(x.grad)",
    "x = torch.tensor([2.0, 1.0, 2.0, 0.0], requires_grad=True)\nv, i = torch.cummax(x, 0)\n"
    "v.backward(torch.tensor([1.0, 10.0, 100.0, 1000.0]))\nshow(v, i, x.grad)",
    # dtypes, 0-dim and empty tensors
    "i = torch.tensor([[1, 5, 2], [7, 7, 0]])\nshow(torch.cummax(i, 1), torch.cummin(i, 0))",
    "b = torch.tensor([True, False, True])\nshow(torch.cummax(b, 0), torch.cummin(b, 0))",
    "h = torch.tensor([1.0, 0.3, -2.5, 8.0], dtype=torch.float16)\nshow(torch.cummax(h, 0), torch.logcumsumexp(h, 0))",
    "x = torch.tensor(2.5, requires_grad=True)\nshow(torch.cummax(x, 0), torch.logcumsumexp(x, -1), x.cummin(-1))",
    "show(torch.cummax(torch.zeros(2, 0), 1), torch.logcumsumexp(torch.zeros(0, 3), 0))",
    "i = torch.tensor([1, 2])\ntorch.logcumsumexp(i, 0)",
    "b = torch.tensor([True])\nb.logcumsumexp(0)",
    # out=, NumPy's axis=
    "x = torch.tensor([1.0, 3.0, 2.0])\nv = torch.empty(3)\ni = torch.empty(3, dtype=torch.long)\n"
    "torch.cummax(x, 0, out=(v, i))\nshow(v, i)\ny = torch.empty(3)\ntorch.logcumsumexp(x, 0, out=y)\nshow(y)",
    "x = torch.tensor([1.0, 3.0, 2.0])\nshow(torch.cummax(x, axis=0), x.cummin(axis=0), torch.logcumsumexp(x, axis=0))",
    # errors
    "x = torch.ones(2)\ntorch.cummax(x, 1)", "x = torch.ones(2)\nx.cummin(-2)",
    "x = torch.ones(2)\ntorch.logcumsumexp(x, 3)", "x = torch.ones(2)\ntorch.cummax(x)",
    "x = torch.ones(2)\nx.cummin()", "x = torch.ones(2)\ntorch.logcumsumexp(x)",
    "x = torch.ones(2)\ntorch.cummax(x, 'a')", "x = torch.ones(2)\ntorch.cummin(x, 0.5)",
    "x = torch.ones(2)\nx.cummax(None)", "x = torch.ones(2)\ntorch.logcumsumexp(x, None)",
    "torch.cummax([1.0, 2.0], 0)", "x = torch.ones(2)\ntorch.logcumsumexp(x, dim=None)",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_cumsum_and_cumprod_accumulate_as_torch(op, dtype):
    """PyTorch accumulates float32 running sums and products in float64 (float16 in float32),
    rounding each output: the same bits on rows of 50 (NumPy's own float32 loop rounds 2 in 3
    otherwise)."""
    rng = np.random.default_rng(8)
    x = (1 + 0.05 * rng.standard_normal((40, 50))) if op == "cumprod" else rng.standard_normal((40, 50))
    x = x.astype(dtype)
    for dim in (0, 1):
        ours = getattr(mg, op)(mg.tensor(x), dim).numpy()
        theirs = getattr(torch, op)(torch.tensor(x), dim).numpy()
        np.testing.assert_array_equal(ours, theirs)
