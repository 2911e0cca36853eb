"""Ops PyTorch writes with other ops (``minigrad/ops/combine.py``) against PyTorch 2.13:
hstack, vstack, row_stack, dstack, column_stack, outer/ger, kron, meshgrid and einsum.
Their graphs are compared node for node (einsum's too: PyTorch's operand alignment and
its batched-product pairing are followed step by step), with values, gradients, the
meshgrid warning and the errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run
from torch_compare import check_double_backward, check_numerical, outcome
from warn_always import warn_always

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)
V = rng.standard_normal((4,)).astype(np.float32)
W = rng.standard_normal((3,)).astype(np.float32)
Y = rng.standard_normal((4, 5)).astype(np.float32)
Q = rng.standard_normal((3, 3)).astype(np.float32)
B1 = rng.standard_normal((2, 3, 4)).astype(np.float32)
B2 = rng.standard_normal((2, 4, 5)).astype(np.float32)

CASES = [
    case(lambda lib, x, y: lib.hstack([x, y]), X, X, id="hstack"),
    case(lambda lib, x, y: lib.hstack((x, y)), V, V, id="hstack-vectors"),
    case(lambda lib, x, y: lib.vstack([x, y]), V, V, id="vstack-vectors"),
    case(lambda lib, x, y: lib.vstack([x, y]), X, X, id="vstack"),
    case(lambda lib, x, y: lib.row_stack([x, y]), V, V, id="row_stack"),
    case(lambda lib, x, y: lib.dstack([x, y]), V, V, id="dstack-vectors"),
    case(lambda lib, x, y: lib.dstack([x, y]), X, X, id="dstack"),
    case(lambda lib, x, y: lib.column_stack([x, y]), V, V, id="column_stack"),
    case(lambda lib, x, y: lib.column_stack([x, y]), X, W, id="column_stack-mixed"),
    case(lambda lib, x, y: lib.outer(x, y), V, W, id="outer"),
    case(lambda lib, x, y: x.ger(y), V, W, id="ger"),
    case(lambda lib, x, y: lib.kron(x, y), V, W, id="kron-vectors"),
    case(lambda lib, x, y: x.kron(y), X, Q, id="kron"),
    case(lambda lib, x, y: lib.meshgrid(x, y, indexing="ij"), V, W, id="meshgrid-ij"),
    case(lambda lib, x, y: lib.meshgrid([x, y], indexing="xy"), V, W, id="meshgrid-xy"),
    case(lambda lib, x, y: lib.einsum("ij,jk->ik", x, y), X, Y, id="einsum-matmul"),
    case(lambda lib, x, y: lib.einsum("ij,jk", x, y), X, Y, id="einsum-implicit"),
    case(lambda lib, x, y: lib.einsum("i,i->", x, y), V, V, id="einsum-dot"),
    case(lambda lib, x: lib.einsum("ii", x), Q, id="einsum-trace"),
    case(lambda lib, x: lib.einsum("ii->i", x), Q, id="einsum-diagonal"),
    case(lambda lib, x: lib.einsum("ij->ji", x), X, id="einsum-transpose"),
    case(lambda lib, x: lib.einsum("ij->j", x), X, id="einsum-sum"),
    case(lambda lib, x: lib.einsum("ij->", x), X, id="einsum-sum-all"),
    case(lambda lib, x, y: lib.einsum("i,j->ij", x, y), V, W, id="einsum-outer"),
    case(lambda lib, x, y: lib.einsum("i,j->", x, y), V, W, id="einsum-sums-apart"),
    case(lambda lib, x, y: lib.einsum("ij,ij->ij", x, y), X, X, id="einsum-hadamard"),
    case(lambda lib, x, y: lib.einsum("ij,ij->", x, y), X, X, id="einsum-hadamard-sum"),
    case(lambda lib, x, y: lib.einsum("bij,bjk->bik", x, y), B1, B2, id="einsum-bmm"),
    case(lambda lib, x, y: lib.einsum("ij,j->i", x, y), X, V, id="einsum-mv"),
    case(lambda lib, x, y: lib.einsum("...ij,...jk->...ik", x, y), B1, B2, id="einsum-ellipsis"),
    case(lambda lib, x, y, z: lib.einsum("ij,jk,kl->il", x, y, z), X, Y, Y.T.copy(),
         id="einsum-three"),
    case(lambda lib, x, y: lib.einsum("bij,bkj->bik", x, y), B1, B1, id="einsum-attention"),
    case(lambda lib, x, y: lib.einsum("ij,jk->ikj", x, y), X, Y, id="einsum-no-sum"),
    case(lambda lib, x, y: lib.einsum("i j , j k -> i k", x, y), X, Y, id="einsum-spaces"),
    case(lambda lib, x, y: lib.einsum("ij,jk->ik", [x, y]), X, Y, id="einsum-list"),
    case(lambda lib, x, y: lib.einsum("ij,kj->", x, y), X, V[None, :], id="einsum-size-1-label"),
    case(lambda lib, x, y: lib.einsum("ij,ij->ij", x, y), X, V[None, :], id="einsum-broadcast"),
    case(lambda lib, x, y: lib.einsum("bij,jk", x, y), B1, Y, id="einsum-batch-implicit"),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_combined_ops(fn, arrays, options):
    run(fn, arrays, options)


@pytest.mark.parametrize("fn, arrays", [
    (lambda x, y: mg.einsum("ij,jk->ik", x, y), (X, Y)),
    (lambda x, y: mg.einsum("bij,bkj->bik", x, y), (B1, B1)),
    (lambda x: mg.einsum("ii->i", x), (Q,)),
    (lambda x, y: mg.kron(x, y), (X, Q)),
    (lambda x, y: mg.outer(x, y), (V, W)),
    (lambda x, y: mg.meshgrid(x, y, indexing="xy"), (V, W))],
    ids=["einsum", "einsum-batched", "einsum-diagonal", "kron", "outer", "meshgrid"])
def test_gradients_against_finite_differences(fn, arrays):
    check_numerical(fn, *arrays)


def test_second_derivative_of_einsum_is_torchs():
    check_double_backward(lambda lib, x, y: lib.einsum("ij,jk->ik", x, y) ** 2,
                          X.astype(np.float64), Y.astype(np.float64))


def test_meshgrid_without_indexing_warns_as_torch():
    # (PyTorch gives this warning once per process: another test's meshgrid in the same
    # worker would have used it up. warn_always makes both libraries give it each time.)
    with warn_always():
        with warnings.catch_warnings(record=True) as ours:
            warnings.simplefilter("always")
            grids = mg.meshgrid(mg.tensor(V), mg.tensor(W))
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            expected = torch.meshgrid(torch.tensor(V), torch.tensor(W))
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
    assert [w.category for w in ours] == [w.category for w in theirs]
    assert ours[0].filename == __file__  # (pointing at the caller's line)
    for a, b in zip(grids, expected):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("call", [
    lambda lib: lib.outer(lib.ones(2, 3), lib.ones(3)),
    lambda lib: lib.outer(lib.ones(3), lib.ones(2, 3)),
    lambda lib: lib.outer(lib.tensor([1, 2]), lib.tensor([1., 2.])),
    lambda lib: lib.meshgrid(),
    lambda lib: lib.meshgrid(lib.ones(3), lib.ones(2), indexing="foo"),
    lambda lib: lib.meshgrid(lib.tensor(1.), lib.ones(3), indexing="ij"),
    lambda lib: lib.hstack([]),
    lambda lib: lib.vstack([]),
    lambda lib: lib.hstack([lib.tensor(1), lib.tensor(2)]),
    lambda lib: lib.column_stack([lib.tensor([1, 2]), lib.tensor([[3], [4]])]),
    lambda lib: lib.einsum("ij,jk->ik", lib.ones(2, 3), lib.ones(2, 3)),
    lambda lib: lib.einsum("ij,jk", lib.ones(2, 3)),
    lambda lib: lib.einsum("ij->ij", lib.ones(3)),
    lambda lib: lib.einsum("ii->i", lib.ones(2, 3)),
    lambda lib: lib.einsum("ij->k", lib.ones(2, 3)),
    lambda lib: lib.einsum("ij->jj", lib.ones(2, 3)),
    lambda lib: lib.einsum("i,i->i", lib.tensor([1, 2]), lib.tensor([3, 4])),
    lambda lib: lib.kron(lib.tensor([[1, 2]]), lib.tensor([1, 10])),
    lambda lib: lib.vstack([lib.ones(2, requires_grad=True), lib.zeros(2)]),
], ids=["outer-self-2d", "outer-vec2-2d", "outer-promotes", "meshgrid-empty",
        "meshgrid-indexing", "meshgrid-0dim", "hstack-empty", "vstack-empty", "hstack-0dim",
        "column_stack-int", "einsum-sizes", "einsum-few-operands", "einsum-subscripts",
        "einsum-repeated-sizes", "einsum-unknown-output", "einsum-repeated-output",
        "einsum-int", "kron-int", "printed"])
def test_calls_print_and_fail_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("equation, shapes", [
    ("...i,...i->...", [(2, 3), (3, 1)]), ("...i,...i->...", [(), (1,)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 3, 2)]), ("ij,jk->ik", [(2, 3), (2, 2)]),
    ("i...j,j...->i...", [(2, 4, 3), (3, 5)]), ("i...j,j...->i...", [(2, 4, 3), (3, 1)]),
    ("...,...->...", [(2, 4), (3, 1, 1)]), ("ab...c,c->ab...", [(2, 3), (3,)]),
    ("...ii->...i", [(2, 2, 2)])])
def test_einsum_checks_the_ellipsis_as_torch(equation, shapes):
    """torch's texts for an ellipsis over too few dims and for ellipsis dims that do not
    broadcast (checked operand after operand, dim after dim, as the labels')."""
    def call(lib):
        return lib.einsum(equation, *[lib.ones(s) for s in shapes])
    assert outcome(call, mg) == outcome(call, torch)


def test_kron_of_a_tensor_that_cannot_be_viewed_fails_as_torch():
    """torch's kron views its product laid out as x (_unsafe_view): a permuted x, or one
    whose product another dtype lays out anew, cannot be viewed (wide random programs)."""
    cases = ["lib.kron(lib.ones(2, 3, 4).permute(2, 0, 1), lib.ones(1, 3))",
             "lib.kron(lib.ones(2, 3, 4), lib.ones(1, 3))",
             "lib.kron(lib.ones(4, 3, 2).permute(2, 1, 0), lib.ones(4, dtype=lib.bool))",
             "lib.kron(lib.ones(3, 1).t(), lib.ones(2, 1, 4, dtype=lib.bool))",
             "lib.kron(lib.ones(3, 2).t(), lib.ones(2, 2))"]
    for text in cases:
        def call(lib, text=text):
            return eval(text, {"lib": lib})
        assert outcome(call, mg) == outcome(call, torch), text


@pytest.mark.parametrize("call", [
    lambda lib, a, b, c: lib.einsum(a, [0, 1], b, [1, 2], [0, 2]),
    lambda lib, a, b, c: lib.einsum(a, [0, 1], b, [1, 2]),
    lambda lib, a, b, c: lib.einsum(a, [30, 1], b, [1, 51], [51, 30]),
    lambda lib, a, b, c: lib.einsum(c, [..., 0, 1], a, [..., 1], [...]),
    lambda lib, a, b, c: lib.einsum(a, [0, 1], a, [0, 1]),
    lambda lib, a, b, c: lib.einsum(a, [0, 52]),
    lambda lib, a, b, c: lib.einsum(a),
    lambda lib, a, b, c: lib.einsum(a, [0, 1], b, [0, 2])],
    ids=["output", "implicit output", "lower case", "ellipsis", "all summed", "out of range",
         "no sublist", "sizes"])
def test_einsum_sublist_format_as_torch(call):
    """torch.einsum's docstring: operands each followed by their subscripts as ints
    (``...`` an ellipsis), the output's last; values, gradients and errors as torch's."""
    def program(lib):
        lib.manual_seed(0)
        a = lib.randn(2, 3, requires_grad=True)
        b, c = lib.randn(3, 4), lib.randn(4, 2, 3)
        result = call(lib, a, b, c)
        result.sum().backward()
        return result, a.grad
    assert outcome(program, mg) == outcome(program, torch)


@pytest.mark.parametrize("kwargs", [
    "fweights=fw", "aweights=aw", "fweights=fw, aweights=aw", "fweights=fw, correction=0",
    "aweights=aw, correction=2", "fweights=fw, aweights=aw, correction=3",
    "fweights=lib.tensor([1.0, 2, 3, 1])", "aweights=lib.tensor([1, 2, 3, 1])",
    "fweights=lib.tensor([[1, 2, 3, 1]])", "aweights=lib.tensor([1.0, 2])",
    "fweights=lib.tensor([1, -2, 3, 1])", "aweights=lib.tensor([0.0, 0, 0, 0])",
    "aweights=aw, correction=9"])
def test_cov_with_weights_as_torch(kwargs):
    """torch.cov's docstring: fweights (counts) and aweights (weights) and their product,
    the normalization with aweights, PyTorch's errors and its degrees-of-freedom warning;
    values, graph and gradients."""
    def program(lib):
        lib.manual_seed(0)
        x = lib.randn(3, 4, dtype=lib.float64, requires_grad=True)
        fw, aw = lib.randint(1, 10, (4,)), lib.rand(4, dtype=lib.float64)
        c = eval(f"lib.cov(x, {kwargs})", {"lib": lib, "x": x, "fw": fw, "aw": aw})
        c.sum().backward()
        return c, x.grad
    assert outcome(program, mg) == outcome(program, torch)


def test_cov_of_one_observation_with_weights_as_torch():
    """PyTorch's corner cases of one observation (its centred input zero, its
    normalization 0 with aweights alone): the same values (NaN) and warning."""
    def program(lib):
        return [lib.cov(lib.tensor([[3.0], [1.0]]), aweights=lib.tensor([2.0])),
                lib.cov(lib.tensor([[3], [1]]), fweights=lib.tensor([2])),
                lib.cov(lib.tensor([[3.0]]), fweights=lib.tensor([2]), aweights=lib.tensor([0.5]))]
    assert outcome(program, mg) == outcome(program, torch)


MESHGRID_REFUSED = ["L.tensor([[0.3, 1.5], [2., -1.]])", "L.tensor([[1e-5, 3.], [2., 1e6]])",
                    "L.tensor([[123456., 2.5]])", "L.tensor([[float('nan'), float('inf')], [1, 2]])",
                    "L.ones(2, 2, 2)", "L.zeros(0, 3)", "L.zeros(2, 0, 3)", "L.tensor([[0.001, 0.002]])",
                    "L.tensor([[1e10, 2]])", "L.arange(30.).reshape(1, 30) / 7", "L.tensor([[-0.0, 0.0]])",
                    "L.arange(24.).reshape(2, 3, 4) / 3", "L.arange(24.).reshape(2, 3, 2, 2) * 1000.5",
                    "L.arange(40.).reshape(2, 1, 20) / 7", "L.tensor([[1234567., 2]])",
                    "L.tensor([[1e-300, 1e300]], dtype=L.float64)", "L.tensor([[1, 2]])",
                    "L.tensor([[True, False]])", "L.tensor([[0.5]], dtype=L.float16)",
                    "L.tensor([[float('-inf'), 0.5]])", "L.tensor([[0.00001234, 0.00005]])"]


@pytest.mark.parametrize("made", MESHGRID_REFUSED)
@pytest.mark.parametrize("indexing", ["ij", "xy", "bad"])
def test_meshgrid_refuses_a_tensor_of_2_or_more_dims_with_torchs_text(made, indexing):
    """torch.meshgrid refuses a tensor of 2 or more dims (after the dtypes and the
    indexing), and its message prints the tensor as C++'s operator<< does (ATen's
    Formatting.cpp: one width, whole numbers, 4 decimals, a scale or e-notation, column
    blocks of 80 characters, ``[ torch.FloatTensor{2,2} ]``); minigrad made grids of it."""
    def call(lib):
        t = eval(made, {"L": lib})
        return lib.meshgrid(t, lib.ones(2, dtype=t.dtype), indexing=indexing)
    assert outcome(call, mg) == outcome(call, torch)
