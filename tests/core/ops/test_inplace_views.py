"""In-place view ops: ``t_``, ``transpose_``, ``unsqueeze_``, ``squeeze_``, compared with
PyTorch 2.13 as whole programs (tests/core/support/programs.py): the tensor takes the view's
shape and strides, its version moves on, its node becomes the view's under the in-place
name (TBackward1, TransposeBackward1, UnsqueezeBackward1, SqueezeBackward3/4/5) whose
input is what it was; refused on a leaf that requires grad (and on a view of one);
allowed under no_grad and on detached tensors; views of it, and views it is, follow
torch's rules; a backward that saved the old tensor fails with torch's text."""

from __future__ import annotations

import pytest

from programs import assert_same_run

OPS = {
    "t_()": lambda t: t.t_(),
    "transpose_(0, 1)": lambda t: t.transpose_(0, 1),
    "transpose_(-1, 0)": lambda t: t.transpose_(-1, 0),
    "unsqueeze_(0)": lambda t: t.unsqueeze_(0),
    "unsqueeze_(-1)": lambda t: t.unsqueeze_(-1),
    "squeeze_()": lambda t: t.squeeze_(),
    "squeeze_(1)": lambda t: t.squeeze_(1),
    "squeeze_(0)": lambda t: t.squeeze_(0),
    "squeeze_((1, 0))": lambda t: t.squeeze_((1, 0)),
}

SHAPES = {"(2, 3)": (2, 3), "(2, 1, 3)": (2, 1, 3), "(3,)": (3,), "()": ()}


def _values(shape):
    count = 1
    for size in shape:
        count *= size
    return [float(k) - 1.5 for k in range(count)] if shape else 0.5


def _layout(rec, t):
    rec.show("shape, strides, version, is_leaf, requires_grad",
             (tuple(t.shape), t.stride(), t._version, t.is_leaf, t.requires_grad))


def _leaf(lib, rec, shape, requires_grad=True):
    values = _values(shape)
    return rec.leaf(values if shape else values, requires_grad=requires_grad)


def _run(op, shape, body):
    def program(lib, rec):
        body(lib, rec, OPS[op], shape)
    assert_same_run(program)


def _on_a_result(lib, rec, op, shape):
    x = _leaf(lib, rec, shape)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: rec.show("hook saw", g))
    same = op(y)
    rec.show("returns itself", same is y)
    rec.show("y", y)
    _layout(rec, y)
    (y * lib.arange(float(y.numel())).reshape(y.shape)).sum().backward()
    rec.show("x.grad", x.grad)
    rec.show("y.grad (its old node's)", y.grad)


def _twice_and_create_graph(lib, rec, op, shape):
    x = _leaf(lib, rec, shape)
    y = x * 2
    op(y)
    op(y)
    rec.show("y", y)
    _layout(rec, y)
    grad, = lib.autograd.grad((y * y).sum(), x, create_graph=True)
    rec.show("grad", grad)
    grad.sum().backward()
    rec.show("x.grad", x.grad)


def _on_a_view(lib, rec, op, shape):
    x = _leaf(lib, rec, (2, *shape))
    y = x * 2
    v = y[0]
    op(v)
    rec.show("v", v)
    _layout(rec, v)
    rec.show("y", y)
    _layout(rec, y)
    (v * lib.arange(float(v.numel())).reshape(v.shape)).sum().backward(retain_graph=True)
    rec.show("x.grad", x.grad)
    v.mul_(3)  # then a change of values through it: CopySlices on y
    rec.show("v after mul_", v)
    rec.show("y after mul_", y)
    y.sum().backward()
    rec.show("x.grad", x.grad)


def _on_a_base(lib, rec, op, shape):
    x = _leaf(lib, rec, shape)
    y = x * 2
    v = y.view(-1)
    op(y)
    rec.show("y", y)
    rec.show("its view", v)
    _layout(rec, v)
    (v * lib.arange(float(v.numel()))).sum().backward()
    rec.show("x.grad", x.grad)


def _refused_and_allowed(lib, rec, op, shape):
    for make in (lambda: _leaf(lib, rec, shape),                  # a leaf
                 lambda: _leaf(lib, rec, (2, *shape))[0],          # a view of a leaf
                 ):
        try:
            op(make())
        except RuntimeError as error:
            rec.show("refused", str(error))
    x = _leaf(lib, rec, shape)
    with lib.no_grad():
        op(x)
    rec.show("under no_grad", x)
    _layout(rec, x)
    d = x.detach()
    op(d)
    rec.show("detached", d)
    _layout(rec, d)
    rec.show("x untouched", x)
    y = x * 2
    with lib.no_grad():
        op(y)
    rec.show("a result under no_grad", y)
    _layout(rec, y)
    plain = _leaf(lib, rec, shape, requires_grad=False)
    op(plain)
    rec.show("no grad at all", plain)
    _layout(rec, plain)


def _saved_before(lib, rec, op, shape):
    x = _leaf(lib, rec, shape)
    y = x * 2
    z = y * y  # saves y
    op(y)
    z.sum().backward()


BODIES = {"on a result": _on_a_result, "twice, create_graph": _twice_and_create_graph,
          "on a view": _on_a_view, "on a base": _on_a_base,
          "refused and allowed": _refused_and_allowed, "saved before": _saved_before}


@pytest.mark.parametrize("body", list(BODIES))
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("op", list(OPS))
def test_in_place_view_ops_are_torchs(op, shape, body):
    _run(op, SHAPES[shape], BODIES[body])


@pytest.mark.parametrize("call", [
    lambda lib: (lib.ones(2, 3, 4) * 1).t_(),
    lambda lib: (lib.ones(2, 3) * 1).transpose_(0, 5),
    lambda lib: (lib.ones(2, 3) * 1).unsqueeze_(4),
    lambda lib: (lib.ones(2, 3) * 1).squeeze_(4),
    lambda lib: (lib.ones(2, 1, 3) * 1).squeeze_((1, 1)),
    lambda lib: lib.ones(3, 1, requires_grad=True).expand(3, 4).t_(),
    lambda lib: (lib.ones(3, 1, requires_grad=True) * 2).expand(3, 4).t_(),
], ids=["t_ of 3-D", "transpose_ out of range", "unsqueeze_ out of range",
        "squeeze_ out of range", "squeeze_ twice the dim", "expanded leaf", "expanded result"])
def test_in_place_view_op_errors_and_edges_are_torchs(call):
    def program(lib, rec):
        result = call(lib)
        rec.show("result", result)
        _layout(rec, result)
    assert_same_run(program)


def test_one_d_times_two_d_squeezes_in_place_as_torch():
    """matmul of 1-D @ 2-D squeezes its mm result in place (SqueezeBackward4): the
    result is not a view, and its version is 1."""
    def program(lib, rec):
        a = rec.leaf([1.0, 2.0, 3.0])
        b = rec.leaf([[1.0, 0.5], [2.0, -1.0], [0.0, 3.0]])
        out = a @ b
        rec.show("out", out)
        rec.show("is a view", out._base is not None)
        _layout(rec, out)
        out.sum().backward()
        rec.show("grads", (a.grad, b.grad))
    assert_same_run(program)
