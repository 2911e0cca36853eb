"""Splitting a tensor: unbind, split (a size or a list of sizes), split_with_sizes, chunk,
tensor_split (a number of sections, a list of indices, a tensor of either; any dim) and
unsafe_split / unsafe_split_with_sizes / unsafe_chunk, as functions and methods, compared
with PyTorch 2.13 at test time: values, the outputs' layout (shared memory, version
counter, strides, ``_base``, ``output_nr``), the nodes behind them (one ``UnbindBackward0``,
``SplitBackward0`` or ``SplitWithSizesBackward0`` behind every output of a view split;
one ``SliceBackward0`` per output of tensor_split; one ``UnsafeSplitBackward0`` for all
outputs of unsafe_split, which are not views), their saved values, gradients when only
some outputs are used, derivatives of the second and third order, printing, in-place
changes of an output or of the input, and argument errors. Every program runs on both
tables of calls (``SPLITS``: views; ``TENSOR_SPLITS`` and ``UNSAFE``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from programs import assert_same_run
from torch_compare import check, check_numerical, outcome

SPLITS = {
    "x.unbind()": lambda lib, x: x.unbind(),
    "x.unbind(1)": lambda lib, x: x.unbind(1),
    "x.unbind(-1)": lambda lib, x: x.unbind(-1),
    "torch.unbind(x, dim=1)": lambda lib, x: lib.unbind(x, dim=1),
    "x.split(2)": lambda lib, x: x.split(2),
    "x.split(2, 1)": lambda lib, x: x.split(2, 1),
    "x.split(5, -1)": lambda lib, x: x.split(5, -1),
    "x.split(1, dim=-2)": lambda lib, x: x.split(1, dim=-2),
    "x.split([1, 3], 1)": lambda lib, x: x.split([1, 3], 1),
    "x.split((1, 0, 2))": lambda lib, x: x.split((1, 0, 2)),
    "torch.split(x, 2, dim=1)": lambda lib, x: lib.split(x, 2, dim=1),
    "torch.split(x, [2, 2], -1)": lambda lib, x: lib.split(x, [2, 2], -1),
    "x.split_with_sizes([2, 1])": lambda lib, x: x.split_with_sizes([2, 1]),
    "torch.split_with_sizes(x, [3, 1], 1)": lambda lib, x: lib.split_with_sizes(x, [3, 1], 1),
    "x.chunk(2)": lambda lib, x: x.chunk(2),
    "x.chunk(3, 1)": lambda lib, x: x.chunk(3, 1),
    "x.chunk(4, dim=1)": lambda lib, x: x.chunk(4, dim=1),
    "torch.chunk(x, 5, -1)": lambda lib, x: lib.chunk(x, 5, -1),
    "x.unbind(0)": lambda lib, x: x.unbind(0),
    "x.split(3, 1)": lambda lib, x: x.split(3, 1),
    "x.chunk(3)": lambda lib, x: x.chunk(3),
    "x.chunk(2, 1)": lambda lib, x: x.chunk(2, 1),
    "x.t().unbind(0)": lambda lib, x: x.t().unbind(0),
    "x.t().split(2, 1)": lambda lib, x: x.t().split(2, 1),
}

TENSOR_SPLITS = {
    "x.tensor_split(3)": lambda lib, x: x.tensor_split(3),
    "x.tensor_split(2)": lambda lib, x: x.tensor_split(2),
    "x.tensor_split([1, 3])": lambda lib, x: x.tensor_split([1, 3]),
    "x.tensor_split(2, 1)": lambda lib, x: x.tensor_split(2, 1),
    "x.tensor_split(3, dim=-1)": lambda lib, x: x.tensor_split(3, dim=-1),
    "x.tensor_split(7, 1)": lambda lib, x: x.tensor_split(7, 1),
    "x.tensor_split(1)": lambda lib, x: x.tensor_split(1),
    "x.tensor_split([1, 3], 1)": lambda lib, x: x.tensor_split([1, 3], 1),
    "x.tensor_split((3, 1, 7), -1)": lambda lib, x: x.tensor_split((3, 1, 7), -1),
    "x.tensor_split([-1, -3], 1)": lambda lib, x: x.tensor_split([-1, -3], 1),
    "x.tensor_split([-9, 2])": lambda lib, x: x.tensor_split([-9, 2]),
    "x.tensor_split([])": lambda lib, x: x.tensor_split([]),
    "x.tensor_split([0, 0, 3])": lambda lib, x: x.tensor_split([0, 0, 3]),
    "x.tensor_split(indices=[2], dim=1)": lambda lib, x: x.tensor_split(indices=[2], dim=1),
    "x.tensor_split(sections=2)": lambda lib, x: x.tensor_split(sections=2),
    "x.tensor_split(tensor([1, 3]), 1)":
        lambda lib, x: x.tensor_split(lib.tensor([1, 3]), 1),
    "x.tensor_split(tensor(2), dim=1)": lambda lib, x: x.tensor_split(lib.tensor(2), dim=1),
    "x.tensor_split(tensor([[0, 2]])[0], 1)":
        lambda lib, x: x.tensor_split(lib.tensor([[0, 9, 2]])[0, ::2], 1),
    "torch.tensor_split(x, 2)": lambda lib, x: lib.tensor_split(x, 2),
    "torch.tensor_split(x, [1, 2], dim=1)": lambda lib, x: lib.tensor_split(x, [1, 2], dim=1),
    "torch.tensor_split(input=x, sections=3, dim=1)":
        lambda lib, x: lib.tensor_split(input=x, sections=3, dim=1),
    "torch.tensor_split(x, tensor_indices_or_sections=tensor([2]))":
        lambda lib, x: lib.tensor_split(x, tensor_indices_or_sections=lib.tensor([2])),
    "x.t().tensor_split(2, 1)": lambda lib, x: x.t().tensor_split(2, 1),
    "x[:, ::2].tensor_split([1], 0)": lambda lib, x: x[:, ::2].tensor_split([1], 0),
}

UNSAFE = {
    "x.unsafe_split(2)": lambda lib, x: x.unsafe_split(2),
    "x.unsafe_split(3, -1)": lambda lib, x: x.unsafe_split(3, -1),
    "torch.unsafe_split(x, 2, dim=1)": lambda lib, x: lib.unsafe_split(x, 2, dim=1),
    "x.unsafe_split_with_sizes([1, 3], 1)": lambda lib, x: x.unsafe_split_with_sizes([1, 3], 1),
    "torch.unsafe_split_with_sizes(x, (2, 1))":
        lambda lib, x: lib.unsafe_split_with_sizes(x, (2, 1)),
    "x.unsafe_chunk(2, 1)": lambda lib, x: x.unsafe_chunk(2, 1),
    "x.unsafe_chunk(2)": lambda lib, x: x.unsafe_chunk(2),
    "x.unsafe_chunk(5, -1)": lambda lib, x: x.unsafe_chunk(5, -1),
    "torch.unsafe_chunk(x, 3)": lambda lib, x: lib.unsafe_chunk(x, 3),
    "x.t().unsafe_split(2, 1)": lambda lib, x: x.t().unsafe_split(2, 1),
}

CALLS = {**SPLITS, **TENSOR_SPLITS, **UNSAFE}

X = np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 - 2



@pytest.mark.parametrize("call", list(CALLS))
def test_values_graph_and_gradients_are_torchs(call):
    check(lambda lib, x: CALLS[call](lib, x * 1), X)


def _saved(node) -> list:
    return sorted((name, getattr(node, name)) for name in dir(node) if name.startswith("_saved_"))


@pytest.mark.parametrize("call", list(CALLS))
def test_layout_nodes_and_saved_values_are_torchs(call):
    def program(lib, rec):
        x = rec.leaf(X) * 1
        outputs = CALLS[call](lib, x)
        rec.show("outputs", outputs)
        rec.show("type", type(outputs).__name__)
        rec.show("nodes", [(o.grad_fn.name(), o.output_nr, o.grad_fn is outputs[0].grad_fn,
                            _saved(o.grad_fn)) for o in outputs])
        rec.show("layout", [(o.stride(), o.storage_offset(), o.is_contiguous(), o._version,
                             o._base is x, o._base is None, o.is_leaf) for o in outputs])
        with lib.no_grad():
            x.mul_(2)  # (the same memory; a view also shares the version counter)
        rec.show("after x.mul_(2)", [(o._version, o.detach()) for o in outputs])
    assert_same_run(program)


@pytest.mark.parametrize("call", ["x.unbind(1)", "x.split(3, 1)", "x.split([1, 3], 1)",
                                  "x.chunk(3)", "x.tensor_split(3)", "x.tensor_split([1, 3], 1)",
                                  "x.unsafe_split(3, -1)", "x.unsafe_chunk(2, 1)"])
@pytest.mark.parametrize("used", [(0,), (-1,), (1,), (0, -1)], ids=str)
def test_gradients_when_only_some_outputs_are_used_are_torchs(call, used):
    def program(lib, rec):
        a = rec.leaf(X)
        outputs = CALLS[call](lib, a * 1)
        loss = sum(((k + 2) * outputs[k] * outputs[k]).sum() for k in used)
        g, = lib.autograd.grad(loss, a, create_graph=True)
        rec.show("first order", g)
        rec.show("its node", g.grad_fn.name())
        h, = lib.autograd.grad((g * g.detach().cos()).sum(), a, create_graph=True)
        rec.show("second order", h)
        (h * h).sum().backward()
        rec.show("third order", a.grad)
    assert_same_run(program)


@pytest.mark.parametrize("call", ["x.unbind(0)", "x.split(2, 1)", "x.chunk(2)",
                                  "x.tensor_split(2)", "x.unsafe_split(2)"])
def test_hooks_and_retained_gradients_of_outputs_are_torchs(call):
    def program(lib, rec):
        a = rec.leaf(X)
        outputs = CALLS[call](lib, a * 1)
        outputs[-1].retain_grad()
        outputs[0].register_hook(lambda g: g * 10)
        (outputs[0].exp().sum() + (outputs[-1] ** 2).sum()).backward()
        rec.show("a.grad", a.grad)
        rec.show("retained", outputs[-1].grad)
    assert_same_run(program)


def test_the_stepper_walks_an_output_that_is_not_output_0():
    a = mg.tensor(X, requires_grad=True)
    outputs = (a * 1).split(3, 1)
    steps = list(mg.autograd.backward_steps((outputs[-1] * 2).sum()))
    assert [s.node.name() for s in steps] == [
        "SumBackward0", "MulBackward0", "SplitBackward0", "MulBackward0",
        "torch::autograd::AccumulateGrad"]
    assert steps[2].grad_outputs[0] is None and steps[2].received[0][1] == 1
    expected = np.zeros_like(X)
    expected[:, 3:] = 2
    np.testing.assert_array_equal(steps[-1].leaf_grad._data, expected)


CHANGES = {
    "add_(1)": lambda lib, v: v.add_(1),
    "mul_(tensor)": lambda lib, v: v.mul_(lib.ones(v.shape[-1:], requires_grad=True)),
    "zero_()": lambda lib, v: v.zero_(),
    "[0] = 5": lambda lib, v: v.__setitem__(0, 5.0),
    "t_()": lambda lib, v: v.t_(),
    "through a view: [0].add_(1)": lambda lib, v: v[0].add_(1),
}

BASES = {
    "a result": lambda rec: rec.leaf(X) * 2,
    "a leaf": lambda rec: rec.leaf(X),
    "no grad": lambda rec: rec.leaf(X, requires_grad=False),
}


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("call", ["x.unbind(1)", "x.split(2)", "x.split([1, 3], 1)",
                                  "x.chunk(2, 1)", "x.tensor_split(2)",
                                  "x.tensor_split([1, 3], 1)", "x.unsafe_split(2)",
                                  "x.unsafe_chunk(2, 1)"])
@pytest.mark.parametrize("change", list(CHANGES))
def test_changing_an_output_in_place_is_torchs(change, call, base):
    def program(lib, rec):
        x = BASES[base](rec)
        outputs = CALLS[call](lib, x)
        CHANGES[change](lib, outputs[-1])
        rec.show("changed", outputs)
        rec.show("versions", [o._version for o in outputs] + [x._version])
        rec.show("base", x)
        if outputs[-1].requires_grad:
            (outputs[-1] * outputs[0].sum()).sum().backward()
            rec.show("leaf grads", [t.grad for t in rec.leaves])
    assert_same_run(program)


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("call", ["x.unbind(0)", "x.split(2, 1)", "x.tensor_split(2)",
                                  "x.unsafe_split(2)"])
def test_changing_the_input_after_a_split_is_torchs(call, base):
    def program(lib, rec):
        x = BASES[base](rec)
        y = x * 1 if x.requires_grad else x
        outputs = CALLS[call](lib, y)
        loss = (outputs[0] * outputs[0]).sum()
        y.add_(rec.leaf([1.0, 2.0, 3.0, 4.0]))
        for k in (0, -1):
            try:
                rec.show(f"grad_fn of {k}", outputs[k].grad_fn.name())
            except RuntimeError as error:
                rec.show(f"grad_fn of {k} raised", str(error))
        if loss.requires_grad:
            try:
                loss.backward()
                rec.show("leaf grads", [t.grad for t in rec.leaves])
            except RuntimeError as error:
                rec.show("backward raised", str(error))
        rec.show("printed", [repr(o) for o in outputs])
    assert_same_run(program)


@pytest.mark.parametrize("call", ["x.unbind(0)", "x.split(2, 1)", "x.chunk(2)",
                                  "x.tensor_split(2)", "x.unsafe_split(2)",
                                  "x.unsafe_chunk(2, 1)"])
def test_outputs_made_under_no_grad_or_from_detached_tensors_are_torchs(call):
    def program(lib, rec):
        a = rec.leaf(X)
        with lib.no_grad():
            outputs = CALLS[call](lib, a)
        rec.show("no_grad outputs", outputs)
        try:
            outputs[0].add_(1)
        except RuntimeError as error:
            rec.show("add_ raised", str(error))
        with lib.no_grad():
            outputs[0].add_(1)
        rec.show("a", a)
        detached = CALLS[call](lib, a.detach())
        detached[-1].add_(1)
        rec.show("a after a detached output changed", a)
    assert_same_run(program)


SMALL_SHAPES = [(0, 4), (3, 0), (1, 4), (3, 1)]


@pytest.mark.parametrize(("call", "shape"), [
    *((call, shape) for call in ["x.unbind(1)", "x.split(3, 1)", "x.chunk(2)"]
      for shape in SMALL_SHAPES),
    *((call, shape) for call in ["x.tensor_split(2)", "x.tensor_split([1, 3])", "x.unsafe_chunk(2)"]
      for shape in [*SMALL_SHAPES, (5,)]),
], ids=str)
def test_empty_and_small_cases_are_torchs(call, shape):
    # (the outputs of x.unbind(1) on a (3, 0) x: none, so nothing to differentiate)
    check(lambda lib, x: x.unbind(1) if call == "x.unbind(1)" and not x.shape[1]
          else CALLS[call](lib, x * 1), np.zeros(shape, np.float32))


def test_chunks_of_an_empty_dim_are_torchs():
    check(lambda lib, x: x.chunk(3), np.zeros((0, 2), np.float32))
    check(lambda lib, x: x.split(0), np.zeros((0, 2), np.float32))


def test_one_dim_float64_and_float16_are_torchs():
    check(lambda lib, x: x.unbind(), np.array([1.5, -2.0, 3.0]))
    check(lambda lib, x: x.split([2, 1]), np.array([1.5, -2.0, 3.0]))
    check(lambda lib, x: lib.stack(x.chunk(3)[::-1]), np.array([1.5, -2.0, 3.0]))
    check(lambda lib, x: x.tensor_split([1]), np.array([1.5, -2.0, 3.0]))
    check(lambda lib, x: lib.stack(x.unsafe_chunk(3)[::-1]), np.array([1.5, -2.0, 3.0]))
    check(lambda lib, x: x.tensor_split(2), np.array([1.5, -2.0, 3.0], np.float16),
          rtol=1e-3, atol=1e-3)


SPLIT_ERRORS = [
    "x.unbind(2)", "torch.tensor(1.).unbind()", "x.unbind(1.0)", "x.unbind(dim=1.0)",
    "x.unbind(0, 1)", "x.unbind(foo=1)", "x.unbind(None)", "torch.unbind(x, 1.0)",
    "torch.unbind()", "torch.unbind(x, dim=None)", "x.unbind(torch.tensor(1))",
    "x.split(-1)", "x.split([1, 1], 1)", "x.split([1, 1], -1)", "x.split(2, 5)",
    "x.split([1, -1, 3], 1)", "x.split(0)", "x.split()", "torch.split(x)", "x.split('a')",
    "x.split(2, dim=1, foo=1)", "torch.split(x, 2, 1, 3)", "x.split(None)", "x.split(2.5)",
    "x.split([1.5, 1.5], 1)", "x.split(2, 1.0)", "x.split(2, dim=1.0)", "x.split(2, None)",
    "x.split([2, 1], dim=1.0)", "x.split([2, 1.0])", "x.split([True, 2])", "x.split(True)",
    "x.split(np.int64(2))", "x.split([])", "x.split(torch.tensor([1, 2]))",
    "x.split(torch.tensor(1.5))", "x.split([torch.tensor(1), 2])", "torch.split(x, 2.5)",
    "torch.tensor(1.).split(1)", "torch.tensor(1.).split([1])", "torch.zeros(2, 3).split(0, 1)",
    "x.split_with_sizes(1, 3)", "x.split_with_sizes()", "x.split_with_sizes([1, 2], 2)",
    "x.chunk(0)", "x.chunk(-1)", "torch.tensor(1.).chunk(1)", "x.chunk()", "x.chunk(2, 0, 1)",
    "x.chunk(2, foo=1)", "x.chunk(2, dim=1.0)", "x.chunk(chunks=2.0)", "x.chunk(True)",
    "x.chunk(torch.tensor(2))", "x.chunk(torch.tensor(2.))", "x.chunk(2, chunks=3)",
    "x.chunk(None)", "x.chunk(2, dim=5)", "torch.chunk(x)", "torch.chunk(x, 2.0)",
    "torch.chunk(x, 2, 1.0)", "torch.chunk(input=x, chunks=2)", "torch.chunk(x, 2, 0, 1)",
    "torch.chunk(2, 2)", "torch.split(tensor=x, split_size_or_sections=2, dim=1)",
    "x.split(split_size=2, dim=1)", "x.split_with_sizes(split_sizes=[2, 1])",
]

TENSOR_SPLIT_ERRORS = [
    "x.tensor_split(0)", "x.tensor_split(-1)", "torch.tensor(1.).tensor_split(2)",
    "x.tensor_split(2, dim=2)", "x.tensor_split([1], -3)", "x.tensor_split(tensor([1., 2]))",
    "x.tensor_split(tensor([[1, 2]]))", "x.tensor_split(tensor([1, 2], dtype=torch.int32))",
    "x.tensor_split(tensor([True]))", "x.tensor_split((1.5,))", "x.tensor_split(2.0)",
    "x.tensor_split(tensor(0))", "x.tensor_split(tensor(-2))", "x.tensor_split(tensor(2.))",
    "x.tensor_split()", "x.tensor_split(2, 1, 3)", "x.tensor_split(2, dim=1.0)",
    "x.tensor_split(2, 1.0)", "x.tensor_split([1, 2], 1.0)", "x.tensor_split(tensor([1]), 1.0)",
    "x.tensor_split(2, foo=1)", "x.tensor_split(True)", "x.tensor_split(sections=True)",
    "x.tensor_split((1, 'a'))", "x.tensor_split((1, 2.5))", "x.tensor_split((True, 2))",
    "x.tensor_split((1, True))", "x.tensor_split([tensor(1), tensor(2)])",
    "x.tensor_split(None)", "x.tensor_split(np.int64(2))", "x.tensor_split(2, np.int64(1))",
    "x.tensor_split(tensor([1, 2]), dim=tensor(1))", "x.tensor_split(2, dim=tensor(1))",
    "x.tensor_split(np.array([1, 2]))", "x.tensor_split(indices=2)",
    "x.tensor_split(sections=[1])", "x.tensor_split([1], indices=[2])",
    "torch.tensor_split(x)", "torch.tensor_split(3, 2)", "torch.tensor_split(x, 2, 1, 3)",
    "torch.tensor_split(x, 2, dim=1, sections=3)", "torch.tensor_split(x, 2, 1.5)",
    "torch.tensor_split(x, indices_or_sections=2)", "torch.tensor_split(x, (1, 2), 0)",
    "torch.tensor_split(x, [1, 2.5])", "torch.tensor_split(x, 'ab')",
    "torch.tensor_split(x, tensor([2, 3]), dim=-1)",
    "x.unsafe_split(-1)", "x.unsafe_split(0)", "torch.tensor(1.).unsafe_split(1)",
    "x.unsafe_split([1, 2])", "torch.unsafe_split(x, [1, 2])", "torch.unsafe_split(x, 2.0)",
    "torch.unsafe_split(x, tensor(2))", "torch.unsafe_split(input=x, split_size=2)",
    "x.unsafe_split(split_size=2, dim=1)", "x.unsafe_split(2, 5)",
    "torch.unsafe_split_with_sizes(x, [1, 1])", "torch.unsafe_split_with_sizes(x, [-1, 4])",
    "x.unsafe_split_with_sizes((1, 2.))", "x.unsafe_split_with_sizes(split_sizes=[1, 2])",
    "torch.unsafe_chunk(x, 0)", "torch.tensor(1.).unsafe_chunk(1)", "x.unsafe_chunk(2, 5)",
    "x.unsafe_chunk(chunks=2, dim=1)", "torch.unsafe_chunk(input=x, chunks=2, dim=1)",
    "x.unsafe_chunk(2.0)", "torch.unsafe_chunk(x)",
]


@pytest.mark.parametrize("call", SPLIT_ERRORS + TENSOR_SPLIT_ERRORS)
def test_arguments_and_their_errors_are_torchs(call):
    def run(lib):
        x = lib.ones(3, 2)
        return eval(call, {"torch": lib, "x": x, "np": np,  # noqa: S307 - our own strings
                           "tensor": lib.tensor})
    assert outcome(run, mg) == outcome(run, torch)


def test_gradients_match_finite_differences():
    check_numerical(lambda x: [o * (k + 1) for k, o in enumerate(x.split([1, 3], 1))], X)
    check_numerical(lambda x: x.unbind(1)[2] * x.chunk(3)[0][0, :3], X)
    check_numerical(lambda x: [o * (k + 1) for k, o in enumerate(x.tensor_split([1, 3], 1))], X)
    check_numerical(lambda x: x.unsafe_chunk(3, 1)[1] * x.tensor_split(2)[0][0, :2], X)
