"""Reads and writes at an index tensor's places (``minigrad/ops/scatter.py``) against
PyTorch 2.13: index_select, index_add, index_fill, index_copy, scatter (of a number or of
a tensor) and scatter_add, as functions, methods and in-place methods. Values, graphs
(IndexSelectBackward0, IndexAddBackward0, IndexFillBackward0, IndexCopyBackward0,
ScatterBackward0/1, ScatterAddBackward0), gradients (also against finite differences and
second derivatives) and PyTorch's error texts, which differ from op to op."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run, X3
from torch_compare import check, check_double_backward, check_error, check_numerical, outcome

X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
S = np.random.default_rng(1).standard_normal((2, 4)).astype(np.float32)

CASES = [
    case(lambda lib, x: x.index_select(0, lib.tensor([2, 0, 2])), X, id="index_select"),
    case(lambda lib, x: lib.index_select(x, 1, lib.tensor([3, 1])), X, id="torch.index_select"),
    case(lambda lib, x: x.index_select(-1, lib.tensor(2)), X3, id="index_select-0dim-index"),
    case(lambda lib, x: x[0, 0].index_select(0, lib.tensor([0])), X, id="index_select-of-0dim"),
    case(lambda lib, x: x[0, 0].index_select(-1, lib.tensor(0)), X, id="index_select-of-0dim-0dim"),
    case(lambda lib, x: x.index_select(0, lib.tensor([1, 0], dtype=lib.int32)), X, id="int32"),
    case(lambda lib, x, s: x.index_add(0, lib.tensor([2, 2]), s), X, S, id="index_add-repeats"),
    case(lambda lib, x, s: lib.index_add(x, 0, lib.tensor([0, 2]), s, alpha=2.0), X, S,
         id="torch.index_add-alpha"),
    case(lambda lib, x, s: (x * 1).index_add_(0, lib.tensor([0, 2]), s), X, S, id="index_add_"),
    case(lambda lib, x: x.index_fill(1, lib.tensor([0, -1]), -1.0), X, id="index_fill"),
    case(lambda lib, x: (x * 1).index_fill_(1, lib.tensor([0, 2]), 2.0), X, id="index_fill_"),
    case(lambda lib, x, s: x.index_copy(0, lib.tensor([0, 2]), s), X, S, id="index_copy"),
    case(lambda lib, x, s: (x * 1).index_copy_(0, lib.tensor([2, 1]), s), X, S, id="index_copy_"),
    case(lambda lib, x: x.scatter(1, lib.tensor([[0], [1], [3]]), 5.0), X, id="scatter-value"),
    case(lambda lib, x, s: x.scatter(1, lib.tensor([[0, 1, 2, 3], [3, 2, 1, 0]]), s), X, S,
         id="scatter-src"),
    case(lambda lib, x, s: (x * 1).scatter_(0, lib.tensor([[0, 1, 2, 0]]), s[:1]), X, S,
         id="scatter_"),
    case(lambda lib, x: lib.zeros(3, 4).scatter_(1, lib.tensor([[0], [1], [3]]), 1.0), X,
         id="one-hot-by-scatter_"),
    case(lambda lib, x, s: x.scatter_add(0, lib.tensor([[0, 1, 2, 0], [0, 0, 0, 0]]), s), X, S,
         id="scatter_add"),
    case(lambda lib, x: lib.scatter(x, 1, lib.tensor([[0]], dtype=lib.int32), 1.0), X,
         id="torch.scatter-int32"),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_index_ops(fn, arrays, options):
    run(fn, arrays, options)


@pytest.mark.parametrize("fn", [
    lambda x, s: x.index_select(1, mg.tensor([3, 0, 3])),
    lambda x, s: x.index_add(0, mg.tensor([1, 1]), s, alpha=3.0),
    lambda x, s: x.index_copy(0, mg.tensor([2, 0]), s),
    lambda x, s: x.scatter(1, mg.tensor([[3, 1], [0, 2]]), s[:, :2]),
    lambda x, s: x.scatter_add(0, mg.tensor([[2, 2, 0, 1]]), s[:1]),
    lambda x, s: x.index_fill(0, mg.tensor([1]), 0.5) * x],
    ids=["index_select", "index_add", "index_copy", "scatter", "scatter_add", "index_fill"])
def test_gradients_against_finite_differences(fn):
    check_numerical(fn, X, S)


@pytest.mark.parametrize("fn", [
    lambda lib, x, s: x.index_select(1, lib.tensor([3, 0, 3])) ** 2,
    lambda lib, x, s: x.index_add(0, lib.tensor([1, 1]), s) ** 2,
    lambda lib, x, s: x.scatter(1, lib.tensor([[3, 1], [0, 2]]), s[:, :2]) ** 2,
    lambda lib, x, s: x.scatter_add(0, lib.tensor([[2, 2, 0, 1]]), s[:1]) ** 2],
    ids=["index_select", "index_add", "scatter", "scatter_add"])
def test_second_derivatives_are_torchs(fn):
    check_double_backward(fn, X.astype(np.float64), S.astype(np.float64))


ERRORS = [
    case(lambda lib, x: x.index_select(0, lib.tensor([3])), X, id="select-dim0-out-of-range"),
    case(lambda lib, x: x.index_select(1, lib.tensor([5, -1])), X, id="select-out-of-range"),
    case(lambda lib, x: x.index_select(1, lib.tensor([-1])), X, id="select-negative"),
    case(lambda lib, x: x.index_select(0, lib.tensor([0.0])), X, id="select-float-index"),
    case(lambda lib, x: x.index_select(0, lib.tensor([[0]])), X, id="select-2d-index"),
    case(lambda lib, x: x.index_select(2, lib.tensor([0])), X, id="select-dim-out-of-range"),
    case(lambda lib, x: x.index_select(0, [0]), X, id="select-list-index"),
    case(lambda lib, x: x[0, 0].index_select(0, lib.tensor([0, 0])), X, id="select-0dim-two"),
    case(lambda lib, x: x[0, 0].index_select(0, lib.tensor([1])), X, id="select-0dim-outside"),
    case(lambda lib, x: x.index_add(0, lib.tensor([-1]), x[:1]), X, id="add-negative"),
    case(lambda lib, x: x.index_add(0, lib.tensor([0.0]), x[:1]), X, id="add-float-index"),
    case(lambda lib, x: x.index_add(0, lib.tensor([0, 1]), x[:1]), X, id="add-count"),
    case(lambda lib, x: x.index_fill(0, lib.tensor([-4]), 1.0), X, id="fill-out-of-range"),
    case(lambda lib, x: x.index_fill(0, lib.tensor([[0]]), 1.0), X, id="fill-2d-index"),
    case(lambda lib, x: x.index_fill(0, lib.tensor([0.0]), 1.0), X, id="fill-float-index"),
    case(lambda lib, x: x.index_copy(0, lib.tensor([5]), x[:1]), X, id="copy-out-of-range"),
    case(lambda lib, x: x.index_copy(0, lib.tensor([0], dtype=lib.int32), x[:1]), X,
         id="copy-int32-index"),
    case(lambda lib, x: x.scatter(1, lib.tensor([[4]]), 1.0), X, id="scatter-out-of-range"),
    case(lambda lib, x: x.scatter(1, lib.tensor([[-1]]), 1.0), X, id="scatter-negative"),
    case(lambda lib, x: x.scatter(1, lib.tensor([0]), 1.0), X, id="scatter-dims"),
    case(lambda lib, x: x.scatter(1, lib.tensor([[0.0]]), 1.0), X, id="scatter-float-index"),
    case(lambda lib, x: x.scatter_add(1, lib.tensor([[0]]), x.double()), X, id="add-dtype"),
    case(lambda lib, x: x.scatter(1, lib.tensor([[0, 1], [2, 3]]), lib.ones(2, 4) * x.sum())
         .sum().backward(), X, id="scatter-src-larger-backward"),
    case(lambda lib, x: x.index_add_(0, lib.tensor([0]), x[:1]), X, id="leaf-in-place"),
    case(lambda lib, x: (x * 1).scatter_add_(1, lib.tensor([[0, 0], [1, 1]]), x[:2])
         .sum().backward(), X, id="scatter_add-src-larger-backward"),
]


@pytest.mark.parametrize("fn, arrays, options", ERRORS)
def test_errors_are_torchs(fn, arrays, options):
    check_error(fn, *arrays)


def test_printed_and_integer_results_are_torchs():
    calls = [lambda lib: lib.arange(6).reshape(2, 3).index_select(1, lib.tensor([2, 0])),
             lambda lib: lib.zeros(2, 3, dtype=lib.long).scatter_(1, lib.tensor([[2], [0]]), 7),
             lambda lib: lib.zeros(5).index_add_(0, lib.tensor([1, 1, 4]), lib.ones(3)),
             lambda lib: lib.ones(2, 2, requires_grad=True).index_fill(0, lib.tensor([1]), 0.),
             lambda lib: lib.zeros(3).scatter_add_(0, lib.tensor([0, 0, 2]), lib.ones(3))]
    for call in calls:
        assert outcome(call, mg) == outcome(call, torch)


def test_index_add_and_index_copy_take_only_a_source_of_self_dtype():
    """torch refuses a source of another dtype (after the index's checks, before the
    count of indices), where minigrad cast it (found by a wide random program)."""
    cases = [("index_add_", (4,), (1,), "bool"), ("index_add_", (4,), (1,), "float64"),
             ("index_add", (4,), (1,), "int64"), ("index_add_", (0,), (2, 0), "float16"),
             ("index_copy_", (4,), (1,), "int64"), ("index_copy", (4,), (1,), "float32"),
             ("index_add_", (4,), (2,), "float32"), ("index_add", (1,), (3, 1), "float32")]
    for name in ("scatter", "scatter_add"):  # (the source's dtype: before the index's dims)
        for index_shape, src_dtype in [((1,), "bool"), ((2, 1), "bool"), ((2, 1), "float32")]:
            def call(lib, name=name, index_shape=index_shape, src_dtype=src_dtype):
                src = lib.ones(index_shape, dtype=getattr(lib, src_dtype))
                return getattr(lib.ones(2, 3), name)(-1, lib.zeros(index_shape, dtype=lib.long),
                                                     src)
            assert outcome(call, mg) == outcome(call, torch)
    for name, shape, source_shape, dtype in cases:
        def call(lib, name=name, shape=shape, source_shape=source_shape, dtype=dtype):
            x = lib.ones(shape)
            return getattr(x, name)(0, lib.tensor([0]), lib.ones(source_shape,
                                                                  dtype=getattr(lib, dtype)))
        assert outcome(call, mg) == outcome(call, torch)


def test_index_add_checks_the_source_shape_as_torch():
    for shape, dim, index, source in [((1,), 0, [0, 0, 0], (3, 1)), ((2, 3), 0, [0], (1, 4)),
                                      ((2, 3), 1, [0], (3, 1)), ((2, 3), 1, [0], (2,)),
                                      ((2, 3), 1, [0, 2], (2, 2)), ((), 0, [0], ())]:
        def call(lib, shape=shape, dim=dim, index=index, source=source):
            return lib.ones(shape).index_add(dim, lib.tensor(index), lib.ones(source))
        assert outcome(call, mg) == outcome(call, torch)


def test_scatter_checks_the_index_shape_against_self_and_src_as_torch():
    """torch's scatter_shape_check: the index no larger than self apart from dim, and no
    larger than a source tensor; minigrad raised NumPy's IndexError (found by wide random
    program 20016: ``x.scatter_add(-1, zeros(2, 3, 4), src)`` with x of shape (2, 1, 4))."""
    for name, shape, dim, index, src in [
            ("scatter_add", (2, 1, 4), -1, (2, 3, 4), (2, 3, 4)),
            ("scatter_add", (2, 1, 4), 1, (2, 3, 5), (2, 3, 4)),
            ("scatter", (2, 1, 4), 1, (2, 3, 5), (2, 3, 4)),
            ("scatter", (2, 1, 4), -1, (2, 3, 4), None), ("scatter", (2, 3), 0, (3, 3), None),
            ("scatter", (2, 3), 1, (2, 2), (2, 1)), ("scatter_add", (2, 3), 1, (1, 2), (1, 2)),
            ("scatter_add", (), 0, (), ()), ("scatter_add", (), 0, (), (1,)),
            ("scatter_add", (3,), 0, (0,), (2, 2))]:
        def call(lib, name=name, shape=shape, dim=dim, index=index, src=src):
            source = 1.5 if src is None else lib.ones(src)
            return getattr(lib.zeros(shape), name)(dim, lib.zeros(index, dtype=lib.long), source)
        assert outcome(call, mg) == outcome(call, torch), (name, shape, index, src)

    def reduced(lib):
        return lib.zeros(2, 1).scatter_reduce(1, lib.zeros(2, 2, dtype=lib.long),
                                              lib.ones(2, 2), "amax")
    assert outcome(reduced, mg) == outcome(reduced, torch)


def test_index_add_into_a_0dim_tensor_has_torchs_gradients():
    """(wide random program 20725: the backward read the 0-dim gradient at index [0])"""
    check(lambda lib, x, s: (x * 1).index_add_(0, lib.tensor([0]), s), np.float64(1.5),
          np.float64(2.5))
    check(lambda lib, x, s: x.index_add(-1, lib.tensor([0]), s, alpha=3.0), np.float32(1.5),
          np.float32(2.5))


def test_index_add_out_of_range_is_torchs_error_for_each_rank():
    """A 0-dim or 1-d self: ATen's 1-d path, IndexError 'index out of range in self'
    (minigrad gave the N-d text: deep random programs 270, 491); N-d: RuntimeError."""
    for shape, dim, index, source in [((0,), 0, [0, -1, 0], (3,)), ((3,), 0, [5], (1,)),
                                      ((3,), 0, [-1], (1,)), ((), 0, [1], ()), ((), 0, [-1], ()),
                                      ((3, 2), 1, [5], (3, 1)), ((3, 2), 0, [3], (1, 2)),
                                      ((3, 2), 1, [-1], (3, 1))]:
        for name in ("index_add", "index_add_"):
            def call(lib, shape=shape, dim=dim, index=index, source=source, name=name):
                return getattr(lib.zeros(shape), name)(dim, lib.tensor(index), lib.ones(source))
            assert outcome(call, mg) == outcome(call, torch)


ZERO_DIM_INDEX = {
    # pytorch/tutorials basics/transforms_tutorial.py's one-hot target_transform
    "scatter_ value=1": lambda t, s: t.zeros(10, dtype=t.float).scatter_(0, t.tensor(3), value=1),
    "scatter a 0-dim src": lambda t, s: t.zeros(4).scatter(0, t.tensor(2), s),
    "scatter_add": lambda t, s: t.zeros(3).scatter_add(0, t.tensor(1), s),
    "scatter_reduce sum": lambda t, s: t.ones(3).scatter_reduce(0, t.tensor(0), s, "sum"),
    "scatter_reduce amax": lambda t, s: t.ones(3).scatter_reduce(0, t.tensor(2), s, "amax"),
    "2-d self still refused": lambda t, s: t.zeros(2, 3).scatter(1, t.tensor(1), 5.),
}


@pytest.mark.parametrize("name", ZERO_DIM_INDEX)
def test_a_0_dim_index_counts_as_one_element_of_a_1_dim_tensor_as_in_torch(name):
    def run_on(lib):
        src = lib.tensor(2.5, requires_grad=True)
        try:
            out = ZERO_DIM_INDEX[name](lib, src)
        except RuntimeError as e:
            return str(e)
        if out.requires_grad:
            (out * lib.arange(1., out.numel() + 1)).sum().backward()
        return repr(out).replace("minigrad", "torch"), repr(src.grad)
    assert run_on(mg) == run_on(torch)


ZERO_DIM_SCATTERS = {
    "scatter_add into 0-dim, 1-d index": lambda lib: (lib.tensor(2.0, requires_grad=True) * 1).scatter_add(
        -1, lib.zeros(1, dtype=lib.long), lib.ones(1)),
    "scatter_add, 0-dim index": lambda lib: (lib.tensor(2.0) * 1).scatter_add(0, lib.zeros((), dtype=lib.long), lib.ones(1)),
    "scatter_add, repeated": lambda lib: (lib.tensor(2.0) * 1).scatter_add(0, lib.zeros(2, dtype=lib.long), lib.ones(2)),
    "scatter of a tensor": lambda lib: (lib.tensor(2.0, requires_grad=True) * 1).scatter(
        0, lib.zeros(1, dtype=lib.long), lib.tensor([5.], requires_grad=True)),
    "scatter of a longer tensor": lambda lib: (lib.tensor(2.0) * 1).scatter(0, lib.zeros(1, dtype=lib.long), lib.tensor([5., 6.])),
    "scatter of a number": lambda lib: (lib.tensor(2.0) * 1).scatter(0, lib.zeros(1, dtype=lib.long), 7.0),
    "1-d, 0-dim index": lambda lib: lib.ones(3).scatter_add(0, lib.zeros((), dtype=lib.long), lib.tensor(4.)),
    "2-d, 1-d index": lambda lib: lib.zeros(2, 2).scatter_add(0, lib.zeros(1, dtype=lib.long), lib.ones(1)),
}


@pytest.mark.parametrize("name", sorted(ZERO_DIM_SCATTERS))
def test_scatter_into_zero_dim_as_torch(name):
    """A 0-dim tensor counts as 1-d in scatter's dims check (torch's ensure_nonempty_dim):
    minigrad refused a 1-d index into a 0-dim tensor (session 12's random programs)."""
    seen = []
    for lib in (torch, mg):
        try:
            y = ZERO_DIM_SCATTERS[name](lib)
            seen.append(repr(y).replace("minigrad", "torch"))
            if y.requires_grad:
                y.sum().backward()
        except RuntimeError as error:
            seen.append(str(error))
    assert seen[0] == seen[1]


def test_float16_scatter_add_adds_up_in_float32_as_torch():
    """PyTorch's CPU scatter_add (and gather's backward, a scatter_add) adds float16 in
    float32 and rounds once; minigrad added in float16 step by step (the wide random
    programs, seed 41965). Bit for bit on repeated indices along either dim."""
    rs = np.random.default_rng(0)
    for _ in range(20):
        src = rs.standard_normal((3, 8)).astype(np.float16)
        x = rs.standard_normal((3, 8)).astype(np.float16)
        index, picks = rs.integers(0, 3, (3, 8)), rs.integers(0, 8, (2, 5))
        seen = []
        for lib in (torch, mg):
            y = lib.tensor(x, requires_grad=True).scatter_add(-1, lib.tensor(index), lib.tensor(src))
            z = lib.tensor(x).scatter_add(0, lib.tensor(index), lib.tensor(src))
            g = lib.tensor(x, requires_grad=True)
            (g.gather(1, lib.tensor(picks)) * lib.tensor(src[:2, :5])).sum().backward()
            seen.append([y.detach().numpy(), z.numpy(), g.grad.numpy()])
        for ours, theirs in zip(seen[1], seen[0]):
            np.testing.assert_array_equal(ours, theirs)


INDEX_COPY_SHAPES = [  # (x, dim, index, source): PyTorch's checks in its order
    ((3, 4, 5), 0, [0, 1], (2, 3, 5)), ((3, 4, 5), 1, [0, 1], (2, 2, 5)),
    ((3, 4), 1, [0, 1], (3, 3)), ((3, 4), 0, [0, 1], (2, 4, 1)), ((3,), 0, [0, 1], (3,)),
    ((3,), 0, [0, 1], ()), ((3,), 0, 1, ()), ((3,), 0, [1], ()), ((), 0, 0, ()),
    ((3, 2), 0, 1, (2,)), ((3, 2), 0, 1, (1, 2)), ((3, 2), 0, [1], (2,)),
    ((3, 2), 0, [[1]], (1, 2)), ((3, 2), 0, [5], (1, 2)), ((3, 2), -1, [1, 0], (3, 2)),
    ((3, 2), 0, [1, 0], (2, 3)), ((3, 2), 0, [1, 0], (3, 3)),
]


@pytest.mark.parametrize("shape, dim, index, source_shape", INDEX_COPY_SHAPES, ids=str)
def test_index_copy_checks_the_shapes_as_pytorch(shape, dim, index, source_shape):
    """PyTorch's texts for a source of other slice shapes, another count of indices or
    another number of dims (minigrad gave NumPy's broadcast error), as function, method
    and in-place method."""
    for form in ("method", "in-place", "function"):
        def call(lib, form=form):
            x, source = lib.zeros(shape), lib.ones(source_shape)
            if form == "function":
                return lib.index_copy(x, dim, lib.tensor(index), source)
            method = x.index_copy_ if form == "in-place" else x.index_copy
            return method(dim, lib.tensor(index), source)
        assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("shape, index, dim", [
    ((0, 0), [0], 0), ((0, 0), [0], 1), ((0, 3), [0], 0), ((0, 3), [0], 1), ((2, 0), [1], 0),
    ((2, 0), [1], 1), ((0, 0), [], 0), ((0,), [0], 0), ((3, 0), [], 1), ((0, 2, 0), [0], 2)])
def test_index_select_along_an_empty_dim_as_torch(shape, index, dim):
    """An empty tensor of 2 dims or more indexed along a dim of size 0 with indices
    (float seed 42337): torch's 'self indexing axis dim should be positive'."""
    def seen(lib):
        try:
            return tuple(lib.zeros(shape).index_select(dim, lib.tensor(index, dtype=lib.long)).shape)
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            return type(error).__name__, str(error)
    assert seen(mg) == seen(torch)
