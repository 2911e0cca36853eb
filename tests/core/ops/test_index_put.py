"""index_put/index_put_ (accumulate=True too), masked_scatter/masked_scatter_ and
fill_diagonal_ (wrap=) against PyTorch 2.13 and finite differences: values, the nodes
(IndexPutBackward0, MaskedScatterBackward0, fill_diagonal_'s CopySlices), gradients of
self and of the values written, broadcasting, repeated indices, bool masks, the in-place
forms, printing, and the errors with PyTorch's texts."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

from torch_compare import check, check_numerical, rand
from transcripts import assert_same

X = rand((4, 3), seed=1)
V = rand((2, 3), seed=2)
SOURCE = rand((12,), seed=3)


def _long(lib, values):
    return lib.tensor(values, dtype=lib.int64)


CASES = {
    "index_put rows": lambda lib, x, v, s: x.index_put((_long(lib, [2, 0]),), v),
    "index_put elements": lambda lib, x, v, s: (x * 2).index_put(
        (_long(lib, [0, 3, 1]), _long(lib, [2, 2, 0])), v[0]),
    "index_put broadcast value": lambda lib, x, v, s: x.index_put((_long(lib, [1, 3]),), v[1, :1]),
    "index_put accumulate repeated": lambda lib, x, v, s: x.index_put(
        (_long(lib, [1, 1]),), v, accumulate=True),
    "index_put accumulate elements": lambda lib, x, v, s: lib.index_put(
        x, (_long(lib, [0, 0, 3]), _long(lib, [1, 1, 2])), v[0] * 3, True),
    "index_put mask": lambda lib, x, v, s: x.index_put((x > 0,), s[:1] * 2),
    "index_put mask and long": lambda lib, x, v, s: x.index_put(
        (lib.tensor([True, False, True, False]), _long(lib, [2, 0])), v[0, :2]),
    "index_put_ on a result": lambda lib, x, v, s: (x * 1).index_put_(
        (_long(lib, [3, 0]),), v * v, accumulate=True),
    "index_put_ method": lambda lib, x, v, s: (x + 1).index_put_((_long(lib, [1]),), v[:1]),
    "masked_scatter": lambda lib, x, v, s: x.masked_scatter(x > 0.5, s),
    "masked_scatter broadcast mask": lambda lib, x, v, s: lib.masked_scatter(
        x, lib.tensor([True, False, True]), s * 2),
    "masked_scatter broadcast self": lambda lib, x, v, s: v[0].masked_scatter(
        lib.tensor([[True, False, True], [False, True, True]]), s),
    "masked_scatter_": lambda lib, x, v, s: (x * 1).masked_scatter_(x < 0, s.sin()),
    "fill_diagonal_": lambda lib, x, v, s: (x * v.sum()).fill_diagonal_(0.5),
    "fill_diagonal_ wrap": lambda lib, x, v, s: lib.cat([x, x, x]).mul(2).fill_diagonal_(-1, wrap=True),
    "fill_diagonal_ cube": lambda lib, x, v, s: (s[:8].reshape(2, 2, 2) * 1).fill_diagonal_(3),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_graphs_and_gradients(name, dtype):
    check(CASES[name], X.astype(dtype), V.astype(dtype), SOURCE.astype(dtype), rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda x, v, s: CASES[name](mg, x, v, s), X, V, SOURCE)


def test_double_backward():
    def fn(lib, x, v):
        y = x.index_put((_long(lib, [1, 1]),), v * v, accumulate=True).masked_scatter(
            x > 0, (v * x[:2]).reshape(-1).repeat(2))
        (g,) = lib.autograd.grad((y * y).sum(), v, create_graph=True)
        return g
    check(fn, X.astype("float64"), V.astype("float64"))


PROGRAMS = [
    # printing and graphs
    "x = torch.zeros(3, 4, requires_grad=True)\ny = x.index_put((torch.tensor([0, 2]), torch.tensor([1, 3])), "
    "torch.tensor([5.0, 6.0]))\nshow(y)\ngfn(y)\ny.sum().backward()\nshow(x.grad)",
    "x = torch.ones(5)\nx.index_put_((torch.tensor([0, 0, 4]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)\nshow(x)",
    "x = torch.zeros(2, 3, dtype=torch.long)\nshow(x.index_put_((torch.tensor([1]),), torch.tensor([7, 8, 9])))",
    "x = torch.arange(6.0).reshape(2, 3)\nshow(x.index_put((torch.tensor([[True, False, True], [False, True, False]]),), torch.tensor(-1.0)))",
    "x = torch.arange(6.0).reshape(2, 3)\nshow(x.index_put((torch.tensor([1], dtype=torch.int32),), torch.tensor(0.5)))",
    "x = torch.zeros(2, 3, requires_grad=True)\ns = torch.arange(6.0, requires_grad=True)\n"
    "y = torch.masked_scatter(x, torch.tensor([[True, False, True], [False, False, True]]), s)\nshow(y)\ngfn(y)\n"
    "y.backward(torch.arange(6.0).reshape(2, 3))\nshow(x.grad, s.grad)",
    "x = torch.zeros(2, 3)\nx.masked_scatter_(torch.tensor([False, True, True]), torch.tensor([1.0, 2.0, 3.0, 4.0]))\nshow(x)",
    "x = torch.zeros(5, 2)\nshow(x.fill_diagonal_(1.5, wrap=True), torch.zeros(2, 5).fill_diagonal_(2, True))",
    "x = torch.zeros(7, 3)\nshow(x.fill_diagonal_(5, wrap=True), torch.zeros(3, 3, dtype=torch.long).fill_diagonal_(2.5))",
    "x = torch.ones(3, 3, requires_grad=True)\ny = x * 2\ny.fill_diagonal_(torch.tensor(0.0))\nshow(y)\ngfn(y)\ny.sum().backward()\nshow(x.grad)",
    "x = torch.ones(4, 4)[:, 1:]\nshow(x.fill_diagonal_(0), x.stride())",
    # errors
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([5]),), torch.tensor(9.0))",
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([0.0]),), torch.tensor(9.0))",
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([0]),), torch.tensor(9.0, dtype=torch.float64))",
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([0]),), torch.ones(2))",
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([0]),), 1.0)",
    "x = torch.ones(2, 3)\nx.index_put(torch.tensor([0]), torch.ones(3))",
    "x = torch.ones(2, 3)\nx.index_put_([torch.tensor([0]), None], torch.ones(1))",
    "x = torch.ones(2, 3)\ntorch.index_put(x, [None], torch.ones(1))",
    "x = torch.ones(2, 3)\ntorch.index_put(x, 1, torch.ones(1))",
    "x = torch.ones(2, 3)\ntorch.index_put(x, (torch.tensor([0]),), 2.0)",
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([0]), torch.tensor([0]), torch.tensor([0])), torch.ones(1))",
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([True, False, True]),), torch.ones(1))",
    "x = torch.ones(2, 3)\nx.index_put((torch.tensor([0, 1]), torch.tensor([0, 1, 2])), torch.ones(1))",
    "x = torch.ones(2, 3)\nx.index_put_((torch.tensor([0]),), torch.ones(3, dtype=torch.long))",
    "x = torch.ones(2, 3)\nx.masked_scatter(torch.tensor([1, 0, 1]), torch.arange(10.0))",
    "x = torch.ones(2, 3)\nx.masked_scatter(torch.tensor([True, False, True]), torch.arange(10, dtype=torch.float64))",
    "x = torch.ones(2, 3)\nx.masked_scatter(torch.tensor([True, False, True]), torch.arange(3.0))",
    "x = torch.ones(2, 3)\nx.masked_scatter(torch.ones(2, dtype=torch.bool), torch.ones(6))",
    "x = torch.ones(2, 3)\nx.masked_scatter(torch.ones(3, dtype=torch.bool), [1.0])",
    "x = torch.ones(2, 3)\nx.masked_scatter_(torch.ones(2, 2, 3, dtype=torch.bool), torch.arange(12.0))",
    "x = torch.ones(2, 3)\nx.masked_scatter_(torch.ones(2, dtype=torch.bool), torch.ones(6))",
    "x = torch.ones(2, 3)\ntorch.masked_scatter(x, torch.ones(3, dtype=torch.bool), 1.0)",
    "torch.zeros(3).fill_diagonal_(5)", "torch.zeros(2, 3, 4).fill_diagonal_(5)",
    "torch.zeros(2, 2).fill_diagonal_('a')",
    "x = torch.ones(2, 2, requires_grad=True)\nx.fill_diagonal_(0)",
    "x = torch.ones(2, 2, requires_grad=True)\nx.index_put_((torch.tensor([0]),), torch.ones(2))",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)


def test_a_training_loop_writing_rows_of_an_embedding_table():
    """Rows written into a table with index_put and a mask with masked_scatter, trained
    with SGD: the same weights as torch's."""
    import torch

    table0, rows0 = rand((5, 3), seed=5), rand((2, 3), seed=6)

    def train(lib):
        table = lib.tensor(table0.copy(), requires_grad=True)
        rows = lib.tensor(rows0.copy(), requires_grad=True)
        opt = lib.optim.SGD([table, rows], lr=0.05)
        for _ in range(4):
            out = table.index_put((lib.tensor([4, 1]),), rows * 2, accumulate=True)
            out = out.masked_scatter(out < 0, rows.reshape(-1).repeat(3))
            loss = (out ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        return table.detach().numpy(), rows.detach().numpy()

    for ours, theirs in zip(train(mg), train(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
