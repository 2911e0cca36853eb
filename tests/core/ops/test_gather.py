"""torch.gather / Tensor.gather compared with PyTorch 2.13 at test time: values,
graphs (GatherBackward0, and ScatterAddBackward0 -> GatherBackward0 when the
backward is recorded), every saved value (the dim as given, the index tensor,
sparse_grad), gradients (repeated places add up), finite differences, second
derivatives, strides and the error texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from torch_compare import check, check_double_backward, check_error, check_numerical, rand

X = rand((3, 4), seed=5)
INDEX_CASES = {
    "dim 1, repeats": (1, [[0, 2, 2], [1, 0, 0]]),
    "dim -1": (-1, [[3, 3], [0, 1], [2, 2]]),
    "dim 0, larger along dim": (0, [[2, 0, 1, 1], [0, 0, 0, 0], [1, 1, 1, 2], [2, 2, 2, 2]]),
    "dim -2, smaller elsewhere": (-2, [[1], [2]]),
    "empty": (1, np.zeros((0, 2), dtype=np.int64)),
}


def _index(lib, values, dtype="int64"):
    return lib.tensor(np.asarray(values, dtype=dtype))


@pytest.mark.parametrize("case", list(INDEX_CASES))
@pytest.mark.parametrize("form", ["method", "function", "int32 index"])
def test_gather_as_torch(case, form):
    dim, values = INDEX_CASES[case]

    def op(lib, x):
        index = _index(lib, values, "int32" if form == "int32 index" else "int64")
        return lib.gather(x, dim, index) if form == "function" else x.gather(dim, index)
    ours, theirs = check(op, X)
    assert ours.stride() == theirs.stride()


def _saved(node) -> dict:
    shown = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            shown[name] = (tuple(value.shape), value.tolist()) if hasattr(value, "shape") \
                else value
    return shown


@pytest.mark.parametrize("case", list(INDEX_CASES))
def test_gather_saves_what_torch_shows_at_every_order(case):
    dim, values = INDEX_CASES[case]

    def run(lib):
        x = lib.tensor(X.astype(np.float64), requires_grad=True)
        y = x.gather(dim, _index(lib, values))
        upstream = lib.ones(tuple(y.shape), dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad(y, x, upstream, create_graph=True)
        g2, = lib.autograd.grad(g, upstream, lib.full(tuple(g.shape), 2.0, dtype=lib.float64,
                                                      requires_grad=True), create_graph=True)
        return [(t.grad_fn.name(), _saved(t.grad_fn), t.tolist(),
                 [n and n.name() for n, _ in t.grad_fn.next_functions]) for t in (y, g, g2)]
    assert run(mg) == run(torch)


@pytest.mark.parametrize("case", ["dim 1, repeats", "dim 0, larger along dim"])
def test_gather_gradients_numerically_and_to_second_order(case):
    dim, values = INDEX_CASES[case]

    def op(lib, x):
        return (x.gather(dim, _index(lib, values)) ** 2) * 1.5
    check_numerical(lambda x: op(mg, x), X.astype(np.float64))
    check_double_backward(op, X.astype(np.float64))


def test_gather_of_0_dim_tensors_as_torch():
    def op(lib, x):
        row = x[0]
        return (row[1].gather(0, lib.tensor(0)), row.gather(0, lib.tensor(2)),
                row[1].gather(0, lib.tensor([0, 0])))
    check(op, X)


def test_gather_with_an_empty_index_of_other_dims_as_torch():
    def op(lib, x):  # (torch checks the index's dims only when it holds something)
        empty = lib.zeros(2, 0, dtype=lib.int64)
        return x.gather(1, empty), x[0].gather(0, empty), x.gather(0, lib.zeros(0, dtype=lib.int64))
    check(op, X)


def test_a_changed_index_is_found_at_backward_as_in_torch():
    def op(lib, x):
        index = _index(lib, [[0, 2, 2], [1, 0, 0]])
        y = x.gather(1, index)
        index.add_(1)
        y.sum().backward()
    check_error(op, X)


@pytest.mark.parametrize("call", [
    "x.gather(1, i[0])", "x.gather(0, lib.tensor([[5]]))", "x.gather(2, i)",
    "x.gather(1, lib.zeros(4, 4, dtype=lib.int64))", "x.gather(1, i.float())",
    "x.gather(1, lib.tensor([[-1]]))", "lib.gather(x, 1, i, out=lib.empty(2, 3))",
    "x.gather(1, i.to(lib.int16))", "x.gather(1, i.bool())", "x.gather(1, [[0]])",
    "x.gather(1, lib.tensor([[0, 1]]), sparse_grad=True).sum().backward()",
])
def test_gather_errors_as_torch(call):
    def op(lib, x):
        i = _index(lib, [[0, 2, 2], [1, 0, 0]])
        return eval(call, {"x": x, "i": i, "lib": lib})  # noqa: S307 - the calls above
    if "sparse_grad" in call:  # (torch makes a sparse gradient; minigrad says it has none)
        with pytest.raises(NotImplementedError, match="no sparse tensors"):
            op(mg, mg.tensor(X, requires_grad=True))
        op(torch, torch.tensor(X, requires_grad=True))
        return
    check_error(op, X)


def test_an_empty_index_is_not_checked_against_the_input_size():
    """torch checks gather's index sizes only when it has elements (random program 509371)."""
    from torch_compare import outcome
    for shape, index_shape, dim in [((0, 2), (2, 0), 1), ((0, 2), (2, 0), 0), ((2, 2), (3, 0), 1),
                                    ((2, 2), (3, 1), 1), ((0, 2), (1, 1), 1), ((2, 3), (0, 5), 1)]:
        def call(lib, shape=shape, index_shape=index_shape, dim=dim):
            y = lib.zeros(shape, requires_grad=True).gather(dim, lib.zeros(index_shape,
                                                                          dtype=lib.long))
            return y.shape, y.stride(), lib.take_along_dim(lib.zeros(shape), lib.zeros(
                index_shape, dtype=lib.long), dim=dim).shape
        assert outcome(call, mg) == outcome(call, torch)
