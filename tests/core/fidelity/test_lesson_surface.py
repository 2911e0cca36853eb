"""Small parts of PyTorch's surface that the lessons use, compared with torch 2.13:
``torch.equal``, calling a graph node, and gradcheck's mismatch message."""

import pytest
import torch

import minigrad as mg


def outcome(fn):
    """What ``fn()`` gives, or the error it raises (type name and text)."""
    try:
        value = fn()
    except Exception as error:  # noqa: BLE001 - the error is the outcome compared
        return "raises", type(error).__name__, str(error)
    return "gives", value


EQUAL_CASES = {
    "same values": lambda t: t.equal(t.tensor([1.0, 2.0]), t.tensor([1.0, 2.0])),
    "one value differs": lambda t: t.equal(t.tensor([1.0, 2.0]), t.tensor([1.0, 2.5])),
    "int vs float, same values": lambda t: t.equal(t.tensor([1, 2]), t.tensor([1.0, 2.0])),
    "bool vs int": lambda t: t.equal(t.tensor([True, False]), t.tensor([1, 0])),
    "[1] vs 0-dim": lambda t: t.equal(t.tensor([1.0]), t.tensor(1.0)),
    "(2, 3) vs (3, 2)": lambda t: t.equal(t.ones(2, 3), t.ones(3, 2)),
    "NaN": lambda t: t.equal(t.tensor([float("nan")]), t.tensor([float("nan")])),
    "empty": lambda t: t.equal(t.zeros(0), t.zeros(0)),
    "method": lambda t: t.tensor([[1.0, 2.0]]).equal(t.tensor([[1.0, 2.0]])),
    "method, a list": lambda t: t.tensor([1.0]).equal([1.0]),
    "input a list": lambda t: t.equal([1.0], t.tensor([1.0])),
    "other an int": lambda t: t.equal(t.tensor([1.0]), 3),
    "requires grad": lambda t: t.equal(t.tensor([1.0], requires_grad=True) * 2,
                                       t.tensor([2.0])),
}


@pytest.mark.parametrize("case", sorted(EQUAL_CASES))
def test_equal_is_torchs(case):
    ours, theirs = outcome(lambda: EQUAL_CASES[case](mg)), outcome(lambda: EQUAL_CASES[case](torch))
    assert ours == theirs
    if ours[0] == "gives":
        assert type(ours[1]) is bool


NODE_CALLS = {
    "exp (one input)": lambda t, a: a.exp().grad_fn(t.ones(2)),
    "sum (one input)": lambda t, a: a.sum().grad_fn(t.tensor(3.0)),
    "mul by a constant (two inputs)": lambda t, a: (a * 2).grad_fn(t.ones(2)),
    "mul of two tensors": lambda t, a: (a * a.detach()).grad_fn(t.ones(2)),
    "AccumulateGrad": lambda t, a: a.exp().grad_fn.next_functions[0][0](t.ones(2)),
}


def shown(value):
    """A node call's result, as comparable data: tensors as (type, values)."""
    if isinstance(value, tuple):
        return ("tuple", tuple(shown(v) for v in value))
    if value is None:
        return None
    return ("Tensor", [round(v, 5) for v in value.reshape(-1).tolist()])  # float32 exp: 1 ulp


@pytest.mark.parametrize("case", sorted(NODE_CALLS))
def test_calling_a_node_gives_what_torch_gives(case):
    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        return shown(NODE_CALLS[case](lib, a))
    assert run(mg) == run(torch)


def test_gradcheck_mismatch_message_is_torchs():
    def broken(lib):
        class Cube(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            def backward(ctx, grad_output):
                x, = ctx.saved_tensors
                return grad_output * 2 * x ** 2  # should be 3 x^2

        x = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
        return outcome(lambda: lib.autograd.gradcheck(Cube.apply, (x,)))

    ours, theirs = broken(mg), broken(torch)
    assert ours[0] == "raises" and ours[2] == theirs[2]
    assert theirs[1] == "GradcheckError" == ours[1]


def _own_attributes(lib):
    """fastai course22p2's 03_backprop keeps each hand-written gradient in ``x.g``: a
    tensor takes attributes of its own, as PyTorch's do; ``deepcopy`` keeps them, while
    ``clone``, ``detach``, views and a deep-copied Parameter do not."""
    import copy
    x = lib.ones(2, 3, requires_grad=True)
    x.g = lib.zeros(2, 3)
    x.note = "hand-made"
    y = copy.deepcopy(x)
    p = lib.nn.Parameter(lib.ones(2))
    p.g = 3
    return (repr(x.g), sorted(vars(x)), repr(y.g), y.note, hasattr(x.clone(), "g"),
            hasattr(x.detach(), "g"), hasattr(x[0], "g"), hasattr(copy.deepcopy(p), "g"),
            vars(lib.zeros(1)), p.g)


def test_tensors_take_attributes_of_their_own():
    assert outcome(lambda: _own_attributes(mg)) == outcome(lambda: _own_attributes(torch))
