"""Shape operations (``minigrad/ops/shape.py``) against PyTorch 2.13: values, dtype, shape,
the graph (node names and ``next_functions``), the gradient of every input, and the errors
for bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries (see
``torch_compare.py``; the shared arrays are in ``op_cases.py``).

In-place view ops: ``t_``, ``transpose_``, ``unsqueeze_``, ``squeeze_``, compared with
PyTorch 2.13 as whole programs (tests/core/support/programs.py): the tensor takes the view's
shape and strides, its version moves on, its node becomes the view's under the in-place
name (TBackward1, TransposeBackward1, UnsqueezeBackward1, SqueezeBackward3/4/5) whose
input is what it was; refused on a leaf that requires grad (and on a view of one);
allowed under no_grad and on detached tensors; views of it, and views it is, follow
torch's rules; a backward that saved the old tensor fails with torch's text."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run, X, Y, ROW, COL, SCALAR, X3
from programs import assert_same_run
from torch_compare import chain, check, check_error, mirror, outcome, rand


SHAPES = [
    case(lambda lib, x: x.reshape(4, 6), X3, id="reshape"),
    case(lambda lib, x: x.reshape(-1), X3, id="reshape-flat"),
    case(lambda lib, x: x.reshape((2, -1)), X3, id="reshape-tuple"),
    case(lambda lib, x: x.reshape(2, 3, 4), X3, id="reshape-same"),
    case(lambda lib, x: lib.reshape(x, (3, 8)), X3, id="torch.reshape"),
    case(lambda lib, x: x.view(6, 4), X3, id="view"),
    case(lambda lib, x: x.view(-1, 2), X3, id="view-infer"),
    case(lambda lib, x: x.view((4, 3, 2)), X3, id="view-tuple"),
    case(lambda lib, x: x.view(()), SCALAR, id="view-0dim"),
    case(lambda lib, x: x.reshape(1, 1), SCALAR, id="reshape-0dim"),
    case(lambda lib, x: x.transpose(0, 1).reshape(6, 4), X3, id="reshape-transposed-copy"),
    case(lambda lib, x: x.transpose(0, 1).reshape(3, 2, 4), X3, id="reshape-transposed-alias"),
    case(lambda lib, x: x.t().reshape(6), X, id="reshape-t"),
    case(lambda lib, x: x[:, ::2].reshape(-1), X3, id="reshape-strided"),
    case(lambda lib, x: x.expand(2, 2, 3).reshape(4, 3), X, id="reshape-expanded"),
    case(lambda lib, x: x.transpose(1, 2).view(2, 4, 3), X3, id="view-transposed-same"),
    case(lambda lib, x, y: x.view_as(y), X, rand((3, 2)), id="view_as"),
    case(lambda lib, x, y: x.reshape_as(y), X, rand((6,)), id="reshape_as"),
    case(lambda lib, x: x.transpose(0, 2), X3, id="transpose"),
    case(lambda lib, x: x.transpose(-1, 0), X3, id="transpose-neg"),
    case(lambda lib, x: lib.transpose(x, 1, 1), X3, id="transpose-same-dim"),
    case(lambda lib, x: x.t(), X, id="t"),
    case(lambda lib, x: x.t(), ROW, id="t-1d"),
    case(lambda lib, x: lib.t(x), X, id="torch.t"),
    case(lambda lib, x: x.T, X, id="T"),
    case(lambda lib, x: x.mT, X3, id="mT"),
    case(lambda lib, x: x.permute(2, 0, 1), X3, id="permute"),
    case(lambda lib, x: x.permute((1, -1, 0)), X3, id="permute-tuple"),
    case(lambda lib, x: lib.permute(x, (0, 2, 1)), X3, id="torch.permute"),
    case(lambda lib, x: x.unsqueeze(0), X, id="unsqueeze"),
    case(lambda lib, x: x.unsqueeze(-1), X, id="unsqueeze-last"),
    case(lambda lib, x: x.unsqueeze(1).unsqueeze(-2), X, id="unsqueeze-twice"),
    case(lambda lib, x: x.unsqueeze(0), SCALAR, id="unsqueeze-0dim"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze(), X, id="squeeze"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze(2), X, id="squeeze-dim"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze(-1), X, id="squeeze-dim-not-1"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze((0, 2)), X, id="squeeze-dims"),
    case(lambda lib, x: x.reshape(1, 2, 1, 3).squeeze((1, 2)), X, id="squeeze-dims-partly"),
    case(lambda lib, x: lib.squeeze(x.reshape(1, 6)), X, id="torch.squeeze"),
    case(lambda lib, x: x.squeeze(), SCALAR, id="squeeze-0dim"),
    case(lambda lib, x: x.squeeze(0), SCALAR, id="squeeze-0dim-dim"),
    case(lambda lib, x: x.expand(4, 2, 3), X, id="expand"),
    case(lambda lib, x: x.expand(2, -1, 3), COL[None], id="expand-minus-one"),
    case(lambda lib, x: x.expand(3, 4), SCALAR, id="expand-0dim"),
    case(lambda lib, x, y: x.expand_as(y), ROW, X, id="expand_as"),
    case(lambda lib, x: x.flatten(), X3, id="flatten"),
    case(lambda lib, x: x.flatten(1), X3, id="flatten-start"),
    case(lambda lib, x: x.flatten(0, 1), X3, id="flatten-range"),
    case(lambda lib, x: x.flatten(1, 1), X3, id="flatten-one-dim"),
    case(lambda lib, x: x.flatten(), SCALAR, id="flatten-0dim"),
    case(lambda lib, x: x.transpose(0, 1).flatten(), X3, id="flatten-transposed"),
    case(lambda lib, x: lib.flatten(x, -2), X3, id="torch.flatten"),
    case(lambda lib, x, y: lib.cat([x, y]), X, Y, id="cat"),
    case(lambda lib, x, y: lib.cat([x, y], 1), X, rand((2, 5)), id="cat-dim"),
    case(lambda lib, x, y: lib.cat((x, y, x), -1), X, Y, id="cat-three"),
    case(lambda lib, x, y: lib.cat([x, y]), X, Y, requires_grad=[False, True],
         id="cat-one-grad"),
    case(lambda lib, x, y: lib.cat([x, y]), X, Y.astype(np.float64), id="cat-promote"),
    case(lambda lib, x: lib.cat([x]), X, id="cat-one"),
    case(lambda lib, e, x: lib.cat([e, x]), np.zeros(0, np.float32), X, id="cat-legacy-empty"),
    case(lambda lib, e, x: lib.cat([x, e, x], 1), np.zeros(0, np.float32), X,
         id="cat-legacy-empty-middle"),
    case(lambda lib, e: lib.cat([e, e]), np.zeros(0, np.float32), id="cat-only-empty"),
    case(lambda lib, x: x.T, X3, id="T-3d",  # (torch warns that .T on 3-D is deprecated)
         marks=pytest.mark.filterwarnings("ignore:The use of `x.T`:UserWarning")),
    case(lambda lib, x: x.T, ROW, id="T-1d"),
    case(lambda lib, x, y: lib.stack([x, y]), X, Y, id="stack"),
    case(lambda lib, x, y: lib.stack([x, y], 2), X, Y, id="stack-last"),
    case(lambda lib, x, y: lib.stack((x, y), -1), X, Y, id="stack-neg"),
    case(lambda lib, x, y: lib.stack([x, y]), SCALAR, SCALAR + 1, id="stack-0dim"),
    case(lambda lib, x, y: lib.stack([x, y], 1), X, Y, requires_grad=[True, False],
         id="stack-one-grad"),
    case(lambda lib, x: x.flip(0), X3, id="flip"),
    case(lambda lib, x: reversed(x), X3, id="reversed"),
    case(lambda lib, x: reversed(x[0, 0, 0]), X3, id="reversed-0-d"),
    case(lambda lib, x: x.flip((0, 2)), X3, id="flip-dims"),
    case(lambda lib, x: lib.flip(x, [-1]), X3, id="torch.flip"),
    case(lambda lib, x: x.fliplr(), X3, id="fliplr"),
    case(lambda lib, x: lib.flipud(x), X, id="torch.flipud"),
    case(lambda lib, x: x.narrow(1, 1, 2), X3, id="narrow"),
    case(lambda lib, x: x.narrow(-1, 0, 1), X3, id="narrow-neg"),
    case(lambda lib, x: lib.narrow(x, 0, 1, 1), X3, id="torch.narrow"),
    case(lambda lib, x: x.select(1, 2), X3, id="select"),
    case(lambda lib, x: x.select(-1, -1), X3, id="select-neg"),
    case(lambda lib, x: lib.select(x, 0, 1), X3, id="torch.select"),
    case(lambda lib, x: x.clone(), X, id="clone"),
    case(lambda lib, x: lib.clone(x), X, id="torch.clone"),
    case(lambda lib, x: x.t().contiguous(), X, id="contiguous"),
    case(lambda lib, x: x.contiguous(), X, id="contiguous-noop"),
    case(lambda lib, x: x.to(lib.float64), X, id="to-float64"),
    case(lambda lib, x: x.double().float(), X, id="double-float"),
    case(lambda lib, x: x.to(lib.int64), X, id="to-int64"),
    case(lambda lib, x: x.to(lib.float32), X, id="to-same"),
    case(lambda lib, x: x.t().t(), X, id="t-t"),
    case(lambda lib, x: x.permute(1, 0, 2).reshape(3, 8).t().unsqueeze(0).squeeze(),
         X3, id="shape-chain"),
]


@pytest.mark.parametrize("fn, arrays, options", SHAPES)
def test_shapes(fn, arrays, options):
    run(fn, arrays, options)


def test_reshape_of_a_transposed_tensor_copies_first():
    ours, theirs = check(lambda lib, x: x.t().reshape(6), X)
    assert chain(ours) == chain(theirs)
    assert chain(ours)[:2] == ["UnsafeViewBackward0", "CloneBackward0"]


def test_squeeze_node_names():
    x = rand((1, 2, 1, 3))
    for fn, name in ((lambda lib, t: t.squeeze(), "SqueezeBackward0"),
                     (lambda lib, t: t.squeeze(0), "SqueezeBackward1"),
                     (lambda lib, t: t.squeeze((0, 2)), "SqueezeBackward2")):
        ours, theirs = check(fn, x)
        assert ours.grad_fn.name() == theirs.grad_fn.name() == name


def test_views_share_memory_and_version():
    for fn in (lambda t: t.view(6), lambda t: t.t(), lambda t: t[0], lambda t: t[:, 1:],
               lambda t: t.unsqueeze(0), lambda t: t.expand(2, 2, 3), lambda t: t.permute(1, 0),
               lambda t: t.transpose(0, 1), lambda t: t.narrow(1, 0, 2),
               lambda t: t.reshape(3, 2), lambda t: t.squeeze(), lambda t: t[...]):
        ours, theirs = mirror([X], requires_grad=False)
        view_ours, view_theirs = fn(ours[0]), fn(theirs[0])
        assert (view_ours._base is ours[0]) == (view_theirs._base is theirs[0])
        with torch.no_grad(), mg.no_grad():
            ours[0].add_(1)
            theirs[0].add_(1)
        assert view_ours._version == view_theirs._version
        np.testing.assert_allclose(view_ours._data, view_theirs.numpy())


SHAPE_ERRORS = [
    case(lambda lib, x: x.t().view(6), X, id="view-non-contiguous"),
    case(lambda lib, x: x.transpose(0, 2).view(-1), X3, id="view-transposed"),
    case(lambda lib, x: x.view(5), X, id="view-size"),
    case(lambda lib, x: x.view(-1, 4), X, id="view-infer-size"),
    case(lambda lib, x: x.view(-1, -1), X, id="view-two-infers"),
    case(lambda lib, x: x.reshape(7), X, id="reshape-size"),
    case(lambda lib, x: x.reshape(-1, 5), X, id="reshape-infer-size"),
    case(lambda lib, x: x.transpose(0, 2), X, id="transpose-dim"),
    case(lambda lib, x: x.t(), X3, id="t-3d"),
    case(lambda lib, x: x.permute(1, 0), X3, id="permute-length"),
    case(lambda lib, x: x.permute(0, 1, 1), X3, id="permute-duplicate"),
    case(lambda lib, x: x.permute(0, 1, 3), X3, id="permute-dim"),
    case(lambda lib, x: x.unsqueeze(3), X, id="unsqueeze-dim"),
    case(lambda lib, x: x.unsqueeze(-4), X, id="unsqueeze-neg-dim"),
    case(lambda lib, x: x.squeeze(2), X, id="squeeze-dim"),
    case(lambda lib, x: x.expand(3, 3), X, id="expand-size"),
    case(lambda lib, x: x.expand(3), X, id="expand-too-few"),
    case(lambda lib, x: x.double().expand(3), X, id="expand-too-few-double"),
    case(lambda lib, x: (x > 0).expand(3), X, id="expand-too-few-bool"),
    case(lambda lib, x: x.long().expand(2, 2), X, id="expand-size-long"),
    case(lambda lib, x: x.expand(-1, 2, 3), X, id="expand-new-minus-one"),
    case(lambda lib, x: x.flatten(2, 1), X3, id="flatten-order"),
    case(lambda lib, x: x.flatten(0, 3), X3, id="flatten-dim"),
    case(lambda lib, x, y: lib.cat([x, y]), X, rand((2, 4)), id="cat-sizes"),
    case(lambda lib, x, y: lib.cat([x, y]), X, ROW, id="cat-ndim"),
    case(lambda lib, x, y: lib.cat([x, y], 2), X, Y, id="cat-dim"),
    case(lambda lib, x: lib.cat([]), X, id="cat-empty"),
    case(lambda lib, x: lib.cat([x[:0, :1].reshape(0, 1), x]), X, id="cat-2d-empty"),
    case(lambda lib, x, y: lib.stack([x, y]), X, rand((3, 2)), id="stack-sizes"),
    case(lambda lib, x, y: lib.stack([x, y], 3), X, Y, id="stack-dim"),
    case(lambda lib, x: lib.stack([]), X, id="stack-empty"),
    case(lambda lib, x: x.flip(3), X3, id="flip-dim"),
    case(lambda lib, x: x.flip((0, 0)), X3, id="flip-repeated"),
    case(lambda lib, x: x.narrow(1, 2, 2), X, id="narrow-past-end"),
    case(lambda lib, x: x.narrow(1, -1, 2), X, id="narrow-neg-start"),
    case(lambda lib, x: x.narrow(2, 0, 1), X, id="narrow-dim"),
    case(lambda lib, x: x.select(1, 3), X, id="select-index"),
    case(lambda lib, x: x.select(1, -4), X, id="select-neg-index"),
    case(lambda lib, x: x.select(2, 0), X, id="select-dim"),
    case(lambda lib, x: x.select(0, 0), SCALAR, id="select-0dim"),
]


@pytest.mark.parametrize("fn, arrays, options", SHAPE_ERRORS)
def test_shape_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)



# ---- in-place view ops: t_, transpose_, unsqueeze_, squeeze_ -----------------------

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

VIEW_SHAPES = {"(2, 3)": (2, 3), "(2, 1, 3)": (2, 1, 3), "(3,)": (3,), "()": ()}


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
@pytest.mark.parametrize("shape", list(VIEW_SHAPES))
@pytest.mark.parametrize("op", list(OPS))
def test_in_place_view_ops_are_torchs(op, shape, body):
    _run(op, VIEW_SHAPES[shape], BODIES[body])


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


EXPANDS = [  # (make the input, the expanded shape)
    (lambda t: t.ones(1), (1,)), (lambda t: t.ones(1, 1), (1, 1)), (lambda t: t.ones(3)[None], (1, 3)),
    (lambda t: t.ones(1).expand(3)[:1], (1,)), (lambda t: t.ones(2, 1), (2, 1)),
    (lambda t: t.zeros(()), (1,)), (lambda t: t.ones(3), (1, 3)), (lambda t: t.ones(3), (2, 3)),
    (lambda t: t.ones(2, 1), (1, 2, 1)), (lambda t: t.ones(2, 1), (1, 2, 4)),
    (lambda t: t.zeros(()), (1, 1)), (lambda t: t.ones(3)[::2], (1, 2)),
    (lambda t: t.ones(4, 1)[::2], (1, 1, 2, 1)), (lambda t: t.ones(2, 3).t(), (1, 3, 2)),
]


@pytest.mark.parametrize("case", range(len(EXPANDS)))
def test_expand_strides_as_pytorch(case):
    """torch's expand keeps a dim's stride where its size stays (NumPy's broadcast_to gives
    a size-1 dim stride 0 there), and a new leading dim of size 1 steps over the rest: the
    random programs' ``x.expand(...).contiguous().stride()`` found it."""
    make, shape = EXPANDS[case]
    mine, theirs = make(mg).expand(*shape), make(torch).expand(*shape)
    assert (mine.stride(), mine.contiguous().stride()) == (theirs.stride(), theirs.contiguous().stride())


def test_an_inferred_size_beside_a_zero_is_torchs_ambiguity_error():
    """(deep random programs 37, 91: ``zeros(2, 0).reshape(-1, 0)``: torch's text names
    the ambiguity; minigrad's was the element count's)"""
    for shape, new in [((0,), (-1, 0)), ((2, 0), (0, -1)), ((0,), (2, -1, 0)), ((0,), (-1,)),
                       ((0, 3), (-1, 3)), ((3,), (-1, 0)), ((0,), (-1, -1, 0))]:
        for name in ("reshape", "view"):
            def call(lib, shape=shape, new=new, name=name):
                return getattr(lib.zeros(shape), name)(*new)
            assert outcome(call, mg) == outcome(call, torch), (shape, new, name)


FLIPPED = {"expanded": lambda lib: lib.ones(1, 3).expand(2, 3),
           "expanded half": lambda lib: lib.ones(1, 3, dtype=lib.float16).expand(2, 3),
           "stepped and transposed": lambda lib: lib.ones(4, 6)[:, ::2].t(),
           "permuted and stepped": lambda lib: lib.ones(2, 3, 4).permute(2, 0, 1)[:, :, ::2],
           "transposed": lambda lib: lib.ones(3, 2).t(), "row-major": lambda lib: lib.ones(2, 3)}


@pytest.mark.parametrize("name", sorted(FLIPPED))
def test_flip_lays_out_its_result_as_torchs_clone(name):
    """flip's result is laid out as torch's clone of its input (its strides when dense,
    else row-major): NumPy's copy(order='K') of a flipped expansion put the broadcast dim
    first (meet: flip of an expanded float16); its gradient is laid out so too."""
    def seen(lib):
        x = FLIPPED[name](lib)
        leaf = x.detach().requires_grad_()
        grad, = lib.autograd.grad(leaf.flip(0), [leaf], x.flip(-1))
        return [x.flip(dims).stride() for dims in ((0,), (-1,), (0, 1))] + [grad.stride()]
    assert seen(mg) == seen(torch)
