"""unbind, split (a size or a list of sizes), split_with_sizes and chunk, as functions and
methods, compared with PyTorch 2.13 at test time: values, the views they return (shared
memory, version counter, strides, ``_base``, ``output_nr``), the one node behind every
output (``UnbindBackward0``, ``SplitBackward0``, ``SplitWithSizesBackward0``), its saved
values, gradients when only some outputs are used, derivatives of the second and third
order, printing, the refusal to change an output in place, and argument errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from programs import assert_same_run
from torch_compare import check, outcome

CALLS = {
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

X = np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 - 2


@pytest.mark.parametrize("call", list(CALLS))
def test_values_graph_and_gradients_are_torchs(call):
    check(lambda lib, x: CALLS[call](lib, x * 1), X)


@pytest.mark.parametrize("call", list(CALLS))
def test_views_and_saved_values_are_torchs(call):
    def program(lib, rec):
        x = rec.leaf(X) * 1
        outputs = CALLS[call](lib, x)
        rec.show("outputs", outputs)
        rec.show("type", type(outputs).__name__)
        rec.show("one node", all(o.grad_fn is outputs[0].grad_fn for o in outputs))
        rec.show("layout", [(o.stride(), o.storage_offset(), o.is_contiguous(), o.output_nr,
                             o._version, o._base is x, o.is_leaf) for o in outputs])
        node = outputs[0].grad_fn
        rec.show("saved", sorted((name, getattr(node, name)) for name in dir(node)
                                 if name.startswith("_saved_")))
        with lib.no_grad():
            x.mul_(2)  # (a view shares memory and the version counter)
        rec.show("after x.mul_(2)", [(o._version, o.detach()) for o in outputs])
    assert_same_run(program)


@pytest.mark.parametrize("call", ["x.unbind(1)", "x.split(3, 1)", "x.split([1, 3], 1)",
                                  "x.chunk(3)"])
@pytest.mark.parametrize("used", [(0,), (-1,), (1,), (0, -1)], ids=str)
def test_gradients_when_only_some_outputs_are_used_are_torchs(call, used):
    def program(lib, rec):
        a = rec.leaf(X)
        outputs = CALLS[call](lib, a * 1)
        loss = sum(((k + 2) * outputs[k] * outputs[k]).sum() for k in used)
        g, = lib.autograd.grad(loss, a, create_graph=True)
        rec.show("first order", g)
        h, = lib.autograd.grad((g * g.detach().cos()).sum(), a, create_graph=True)
        rec.show("second order", h)
        (h * h).sum().backward()
        rec.show("third order", a.grad)
    assert_same_run(program)


@pytest.mark.parametrize("call", ["x.unbind(0)", "x.split(2, 1)", "x.chunk(2)"])
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
                                  "x.chunk(2, 1)"])
@pytest.mark.parametrize("change", list(CHANGES))
def test_changing_an_output_in_place_is_torchs(change, call, base):
    def program(lib, rec):
        x = BASES[base](rec)
        outputs = CALLS[call](lib, x)
        CHANGES[change](lib, outputs[-1])
        rec.show("changed", outputs)
        rec.show("base", x)
    assert_same_run(program)


@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("call", ["x.unbind(0)", "x.split(2, 1)"])
def test_changing_the_base_then_reading_an_output_is_torchs(call, base):
    def program(lib, rec):
        x = BASES[base](rec)
        y = x * 1 if x.requires_grad else x
        outputs = CALLS[call](lib, y)
        y.add_(rec.leaf([1.0, 2.0, 3.0, 4.0]))
        for k in (0, -1):
            try:
                rec.show(f"grad_fn of {k}", outputs[k].grad_fn.name())
            except RuntimeError as error:
                rec.show(f"grad_fn of {k} raised", str(error))
        rec.show("printed", repr(outputs[0]))
    assert_same_run(program)


@pytest.mark.parametrize("call", ["x.unbind(0)", "x.split(2, 1)", "x.chunk(2)"])
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


@pytest.mark.parametrize("call", ["x.unbind(1)", "x.split(3, 1)", "x.chunk(2)"])
def test_empty_and_single_element_cases_are_torchs(call):
    for shape in [(0, 4), (3, 0), (1, 4), (3, 1)]:
        check(lambda lib, x: CALLS[call](lib, x * 1) if x.shape[1] or "unbind" not in call
              else x.unbind(1), np.zeros(shape, np.float32))


def test_chunks_of_an_empty_dim_are_torchs():
    check(lambda lib, x: x.chunk(3), np.zeros((0, 2), np.float32))
    check(lambda lib, x: x.split(0), np.zeros((0, 2), np.float32))


def test_one_dim_and_float64_are_torchs():
    check(lambda lib, x: x.unbind(), np.array([1.5, -2.0, 3.0]))
    check(lambda lib, x: x.split([2, 1]), np.array([1.5, -2.0, 3.0]))
    check(lambda lib, x: lib.stack(x.chunk(3)[::-1]), np.array([1.5, -2.0, 3.0]))


ERRORS = [
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


@pytest.mark.parametrize("call", ERRORS)
def test_arguments_and_their_errors_are_torchs(call):
    def run(lib):
        x = lib.ones(3, 2)
        return eval(call, {"torch": lib, "x": x, "np": np})  # noqa: S307 - our own strings
    assert outcome(run, mg) == outcome(run, torch)


def test_gradients_match_finite_differences():
    from torch_compare import check_numerical

    check_numerical(lambda x: [o * (k + 1) for k, o in enumerate(x.split([1, 3], 1))], X)
    check_numerical(lambda x: x.unbind(1)[2] * x.chunk(3)[0][0, :3], X)
