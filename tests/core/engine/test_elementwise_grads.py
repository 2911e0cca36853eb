"""Elementwise nodes whose inputs have the result's shape and dtype (``x * w``,
``x + 1``, ``x.tanh()``: the usual case) send their gradients on unchecked
(``Node.elementwise``; issue 11's speed). Against PyTorch 2.13: the gradients
keep their inputs' dtype, shape and strides in every such case and next to the
cases that are still checked (broadcasting, 0-dim, mixed dtypes), at first and
second order, through in-place changes of a view, and after a result's shape
changes under the graph (``y.data = ...``, ``out=`` or ``t_()`` under no_grad),
where PyTorch's invalid-gradient error must still come."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_double_backward, rand

BINARY = {
    "mul": lambda a, b: a * b, "add": lambda a, b: a + b, "sub": lambda a, b: a - b,
    "div": lambda a, b: a / b, "add alpha": lambda a, b: a.add(b, alpha=2.5),
    "sub alpha": lambda a, b: a.sub(b, alpha=-0.5),
}
WITH_NUMBER = {
    "x * 3": lambda x: x * 3, "2.5 * x": lambda x: 2.5 * x, "x + 1": lambda x: x + 1,
    "1 - x": lambda x: 1 - x, "x - 0.5": lambda x: x - 0.5, "x / 4": lambda x: x / 4,
}
UNARY = {name: (lambda x, name=name: getattr(x, name)())
         for name in ["exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos"]}
LAYOUTS = {  # what each operand is made of (the gradients must still be as torch's)
    "1-D": lambda lib, t: t, "2-D": lambda lib, t: t.reshape(2, 3),
    "transposed": lambda lib, t: t.reshape(3, 2).t(), "every other": lambda lib, t: t[::2],
}
DTYPES = {"float16": dict(rtol=2e-3, atol=2e-3), "float32": {}, "float64": {}}


def _positive(shape, seed, dtype):
    return rand(shape, seed=seed, dtype=dtype, low=0.5, high=2.0)  # (log, sqrt, div)


def _assert_grads_as_torchs(ours, theirs) -> None:
    for k, (o, t) in enumerate(zip(ours, theirs)):
        assert (o.grad is None) == (t.grad is None), k
        if t.grad is not None:
            assert type(o.grad._data) is np.ndarray, k  # (not a NumPy scalar)
            assert (str(o.grad.dtype), o.grad.shape, o.grad.stride()) == \
                (str(t.grad.dtype), t.grad.shape, t.grad.stride()), k


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("op", list(BINARY))
def test_two_tensors_of_one_shape(op, layout, dtype):
    count = 12 if layout == "every other" else 6
    arrays = _positive((count,), 1, dtype), _positive((count,), 2, dtype)
    check(lambda lib, a, b: BINARY[op](LAYOUTS[layout](lib, a), LAYOUTS[layout](lib, b)),
          *arrays, **DTYPES[dtype])
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    BINARY[op](LAYOUTS[layout](mg, ours[0]), LAYOUTS[layout](mg, ours[1])).sum().backward()
    BINARY[op](LAYOUTS[layout](torch, theirs[0]), LAYOUTS[layout](torch, theirs[1])).sum().backward()
    _assert_grads_as_torchs(ours, theirs)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("op", [*WITH_NUMBER, *UNARY])
def test_one_tensor(op, layout, dtype):
    call = WITH_NUMBER.get(op) or UNARY[op]
    array = _positive((12 if layout == "every other" else 6,), 3, dtype)
    check(lambda lib, x: call(LAYOUTS[layout](lib, x)), array, **DTYPES[dtype])
    ours, theirs = mg.tensor(array, requires_grad=True), torch.tensor(array, requires_grad=True)
    call(LAYOUTS[layout](mg, ours)).sum().backward()
    call(LAYOUTS[layout](torch, theirs)).sum().backward()
    _assert_grads_as_torchs([ours], [theirs])


@pytest.mark.parametrize("shapes", [((2, 3), (3,)), ((2, 1), (1, 3)), ((), (4,)), ((4,), ()),
                                    ((), ()), ((1, 3), (2, 3))])
@pytest.mark.parametrize("op", ["mul", "add", "sub", "div"])
def test_shapes_that_are_still_checked(op, shapes):
    """Broadcast operands and 0-dim ones (NumPy gives 0-dim results as scalars) go
    through the check: their gradients are summed back and made arrays."""
    arrays = [_positive(shape, k, "float32") for k, shape in enumerate(shapes)]
    check(lambda lib, a, b: BINARY[op](a, b), *arrays)
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    BINARY[op](*ours).sum().backward()
    BINARY[op](*theirs).sum().backward()
    _assert_grads_as_torchs(ours, theirs)


@pytest.mark.parametrize("op", list(UNARY) + ["x * 3", "x + 1"])
def test_zero_dim_tensors(op):
    call = WITH_NUMBER.get(op) or UNARY[op]
    check(lambda lib, x: call(x), _positive((), 4, "float32"))
    ours, theirs = mg.tensor(1.25, requires_grad=True), torch.tensor(1.25, requires_grad=True)
    call(ours).backward()
    call(theirs).backward()
    _assert_grads_as_torchs([ours], [theirs])


@pytest.mark.parametrize("pair", [("float32", "float64"), ("float16", "float32"),
                                  ("float64", "int64")])
def test_operands_of_two_dtypes(pair):
    """Promoted operands: the gradient of each comes back in its own dtype."""
    a, b = _positive((2, 3), 5, pair[0]), _positive((2, 3), 6, "float32").astype(pair[1])
    for op in ["mul", "add", "div"]:
        check(lambda lib, x, y: BINARY[op](x, y), a, b, requires_grad=[True, pair[1] != "int64"],
              rtol=2e-3, atol=2e-3)


def test_a_program_of_every_op_at_first_and_second_order():
    def program(lib, x, w):
        h = x
        for _ in range(3):
            h = ((h * w + 1).tanh() - w / 2).sigmoid() * 2.5
        h = (h.exp() + h.sqrt() - (h + 1).log()).sin() + h.cos() - 0.5 * h
        return h.sum(dim=1)

    arrays = _positive((2, 3), 7, "float64"), _positive((2, 3), 8, "float64")
    check(program, *arrays, rtol=1e-10, atol=1e-12)
    check_double_backward(program, *arrays, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("op", ["mul", "div", "add alpha"])
def test_second_order_of_two_tensors(op):
    check_double_backward(lambda lib, a, b: BINARY[op](a, b).tanh(),
                          _positive((2, 3), 9, "float64"), _positive((2, 3), 10, "float64"))


def test_in_place_ops_through_views():
    """``x[1:3].mul_(w)``: the base's CopySlices takes the elementwise node's
    other inputs with their shapes."""
    def program(lib, a, w, v):
        x = a * 1
        x[1:3].mul_(w)
        x[:2].add_(v, alpha=2)
        x[2:4].div_(v)
        x[0:2].exp_()  # (its saved result is the view: changed later, backward would fail)
        return x * 1

    check(program, _positive((4,), 11, "float32"), _positive((2,), 12, "float32"),
          _positive((2,), 13, "float32"))


def _shape_changed(lib, change):
    x = lib.ones(2, requires_grad=True)
    y = x * 2
    change(lib, y)
    (y * 1).sum().backward()
    return x.grad


CHANGES = {
    "y.data = 3 elements": lambda lib, y: setattr(y, "data", lib.ones(3)),
    "y.data = float64": lambda lib, y: setattr(y, "data", lib.ones(2, dtype=lib.float64)),
    "y.data = same shape": lambda lib, y: setattr(y, "data", lib.full((2,), 3.0)),
}


def _out_under_no_grad(lib, y):
    with lib.no_grad():
        lib.add(lib.ones(3), lib.ones(3), out=y)


CHANGES["out= of 3 elements, under no_grad"] = _out_under_no_grad


def _in_place_view_op_under_no_grad(op):
    def change(lib, y):
        with lib.no_grad():
            op(y)
    return change


CHANGES.update({  # (y, of shape (2,), seen as another shape by an in-place view op)
    "y.unsqueeze_(0) under no_grad": _in_place_view_op_under_no_grad(lambda y: y.unsqueeze_(0)),
    "y.unsqueeze_(1) under no_grad": _in_place_view_op_under_no_grad(lambda y: y.unsqueeze_(1)),
    "y[None].t_() under no_grad": _in_place_view_op_under_no_grad(
        lambda y: y.unsqueeze_(0).t_()),
    "y.unsqueeze_(0).transpose_(0, 1) under no_grad": _in_place_view_op_under_no_grad(
        lambda y: y.unsqueeze_(0).transpose_(0, 1)),
})


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_result_whose_shape_changed_under_the_graph(change):
    """The node's gradients are checked against what its result was: PyTorch's
    invalid-gradient error, or the gradient in the input's dtype."""
    def outcome(lib):
        try:
            grad = _shape_changed(lib, CHANGES[change])
        except RuntimeError as error:
            return str(error)
        return str(grad.dtype), grad.tolist()

    assert outcome(mg) == outcome(torch)


def test_the_quick_path_is_taken_where_it_may_be():
    """(What the tests above prove correct, pinned: which nodes skip the check.)"""
    x, w = mg.rand(2, 3, requires_grad=True), mg.rand(2, 3, requires_grad=True)
    skipped = [x * w, x + 1, x - w, x.tanh(), x.exp(), (x * w).sigmoid(), x / w]
    checked = [x * w[0], x[:, :1] + w, mg.tensor(2.0, requires_grad=True) * 3, x.pow(2),
               x * w.double(), x.relu()]
    assert all(t.grad_fn._input_meta is None for t in skipped)
    assert all(t.grad_fn._input_meta is not None for t in checked)
