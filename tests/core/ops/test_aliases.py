"""ops/aliases.py and the other names of existing ops, against PyTorch 2.13: concat,
concatenate, true_divide, negative, absolute, positive, swapaxes/swapdims, moveaxis/movedim
(PermuteBackward0), unflatten (ViewBackward0), ravel, msort (SortBackward0), byte/short/char,
is_signed, is_complex, is_floating_point, asarray. Values bit for bit (the same kernels
run), graphs, gradients (and finite differences in float64), printed results, integer
dtypes, in-place variants and the errors for bad dims and sizes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_error, check_numerical, outcome, rand

X = rand((2, 3, 4), seed=0)
Y = rand((2, 3, 4), seed=1, low=0.5, high=2.0)
M = rand((3, 4), seed=2)
INTS = np.array([[3, -1, 4], [-1, 5, -9]], np.int64)

CASES = {  # name: (function, inputs)
    "concat": (lambda lib, x, y: lib.concat([x, y], 1), (X, Y)),
    "concat dim=": (lambda lib, x, y: lib.concat((x, y), dim=-1), (X, Y)),
    "concat axis=": (lambda lib, x, y: lib.concat((x, y), axis=1), (X, Y)),
    "concatenate": (lambda lib, x, y: lib.concatenate([x, y]), (X, Y)),
    "concatenate axis=": (lambda lib, x, y: lib.concatenate([x, y], axis=2), (X, Y)),
    "true_divide": (lambda lib, x, y: lib.true_divide(x, y), (X, Y)),
    "true_divide number": (lambda lib, x, y: lib.true_divide(x, 3), (X, Y)),
    "Tensor.true_divide": (lambda lib, x, y: x.true_divide(y), (X, Y)),
    "negative": (lambda lib, x: lib.negative(x), (X,)),
    "Tensor.negative": (lambda lib, x: x.negative() * x, (X,)),
    "absolute": (lambda lib, x: lib.absolute(x), (X,)),
    "Tensor.absolute": (lambda lib, x: x.absolute(), (X,)),
    "positive": (lambda lib, x: lib.positive(x * 2), (X,)),
    "Tensor.positive": (lambda lib, x: (x * 2).positive(), (X,)),
    "swapaxes": (lambda lib, x: lib.swapaxes(x, 0, 2), (X,)),
    "Tensor.swapaxes": (lambda lib, x: x.swapaxes(-1, 1), (X,)),
    "swapdims": (lambda lib, x: lib.swapdims(x, 0, 1), (X,)),
    "Tensor.swapdims": (lambda lib, x: x.swapdims(dim0=1, dim1=2), (X,)),
    "movedim int": (lambda lib, x: lib.movedim(x, 0, 2), (X,)),
    "movedim tuple": (lambda lib, x: lib.movedim(x, (0, 1), (2, 0)), (X,)),
    "movedim negative": (lambda lib, x: lib.movedim(x, -1, 0), (X,)),
    "movedim same": (lambda lib, x: lib.movedim(x, 1, 1), (X,)),
    "movedim empty": (lambda lib, x: lib.movedim(x, (), ()), (X,)),
    "moveaxis list": (lambda lib, x: lib.moveaxis(x, [2, 0], [0, 1]), (X,)),
    "Tensor.movedim": (lambda lib, x: x.movedim(source=0, destination=-1), (X,)),
    "Tensor.moveaxis": (lambda lib, x: x.moveaxis((1,), (0,)), (X,)),
    "unflatten": (lambda lib, x: lib.unflatten(x, 2, (2, 2)), (X,)),
    "unflatten -1": (lambda lib, x: x.unflatten(-1, (-1, 2)), (X,)),
    "unflatten Size": (lambda lib, x: x.unflatten(1, lib.Size([3, 1])), (X,)),
    "unflatten transposed": (lambda lib, x: x.transpose(0, 2).unflatten(0, [2, 2]), (X,)),
    "ravel": (lambda lib, x: lib.ravel(x), (X,)),
    "ravel transposed": (lambda lib, x: x.transpose(0, 1).ravel(), (X,)),
    "ravel 0-dim": (lambda lib, x: x.sum().ravel(), (X,)),
    "msort": (lambda lib, m: lib.msort(m), (M,)),
    "Tensor.msort": (lambda lib, x: x.msort(), (X,)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch_bit_for_bit(name):
    fn, inputs = CASES[name]
    check(fn, *inputs, rtol=0, atol=0)
    ours, theirs = outcome(lambda lib: fn(lib, *mirror_of(lib, inputs)), mg), \
        outcome(lambda lib: fn(lib, *mirror_of(lib, inputs)), torch)
    assert ours == theirs  # the printed result, grad_fn=<...> included


def mirror_of(lib, inputs):
    return [lib.tensor(np.array(a), requires_grad=True) for a in inputs]


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_against_finite_differences(name):
    fn, inputs = CASES[name]
    check_numerical(lambda *xs: fn(mg, *xs), *inputs)


INTEGER = {
    "true_divide ints": lambda lib, a: lib.true_divide(a, 2),
    "Tensor.true_divide ints": lambda lib, a: a.true_divide(a),
    "negative ints": lambda lib, a: lib.negative(a),
    "absolute ints": lambda lib, a: a.absolute(),
    "positive ints": lambda lib, a: lib.positive(a),
    "msort ints": lambda lib, a: lib.msort(a),
    "movedim ints": lambda lib, a: a.movedim(0, 1),
    "concat ints and floats": lambda lib, a: lib.concat([a, a.float()]),
    "byte": lambda lib, a: (a * 100).byte(),
    "char": lambda lib, a: (a * 100).char(),
    "short": lambda lib, a: (a * 10000).short(),
    "byte of floats": lambda lib, a: (a * 97.5).float().byte(),
    "char of floats": lambda lib, a: (a * 97.5).double().char(),
    "short of bools": lambda lib, a: (a > 0).short(),
    "is_signed": lambda lib, a: [a.is_signed(), a.byte().is_signed(), a.char().is_signed(),
                                 (a > 0).is_signed(), a.float().is_signed()],
    "is_complex": lambda lib, a: [lib.is_complex(a), a.float().is_complex()],
    "is_floating_point": lambda lib, a: [lib.is_floating_point(a),
                                         lib.is_floating_point(a.half())],
    "negative_": lambda lib, a: a.clone().negative_(),
    "absolute_": lambda lib, a: a.clone().absolute_(),
    "swapaxes_": lambda lib, a: a.clone().swapaxes_(0, 1),
    "swapdims_": lambda lib, a: a.clone().swapdims_(0, 1),
    "true_divide_": lambda lib, a: a.float().true_divide_(4),
}


@pytest.mark.parametrize("name", list(INTEGER))
def test_integer_and_bool_inputs(name):
    def program(lib):
        return INTEGER[name](lib, lib.tensor(INTS))
    assert outcome(program, mg) == outcome(program, torch)


ERRORS = {
    "movedim lengths": lambda lib, x: lib.movedim(x, (0, 1), (0,)),
    "movedim repeated source": lambda lib, x: lib.movedim(x, (0, -3), (1, 2)),
    "movedim repeated destination": lambda lib, x: x.movedim((0, 1), (1, 1)),
    "movedim out of range": lambda lib, x: lib.movedim(x, 5, 0),
    "moveaxis destination out of range": lambda lib, x: lib.moveaxis(x, 0, -4),
    "movedim float": lambda lib, x: lib.movedim(x, 0.5, 0),
    "Tensor.moveaxis float": lambda lib, x: x.moveaxis(0.5, 0),
    "unflatten sizes": lambda lib, x: x.unflatten(2, (3, 2)),
    "unflatten empty": lambda lib, x: lib.unflatten(x, 2, ()),
    "unflatten dim": lambda lib, x: x.unflatten(3, (2, 2)),
    "swapaxes dim": lambda lib, x: x.swapaxes(0, 3),
    "swapdims dim": lambda lib, x: lib.swapdims(x, -4, 0),
    "positive bool": lambda lib, x: lib.positive(x > 0),
    "negative bool": lambda lib, x: lib.negative(x > 0),
    "absolute bool": lambda lib, x: (x > 0).absolute(),
    "true_divide_ of ints": lambda lib, x: x.long().true_divide_(2),
    "concat empty": lambda lib, x: lib.concat([]),
    "concatenate empty": lambda lib, x: lib.concatenate([]),
    "concat dims": lambda lib, x: lib.concat([x, x[0, 0]]),
    "concat shapes": lambda lib, x: lib.concat([x, x[:, :2]], 2),
    "is_floating_point of a list": lambda lib, x: lib.is_floating_point([1.0]),
    "msort out of floats into ints": lambda lib, x: lib.msort(x, out=lib.zeros(2, 3, 4).long()),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    check_error(ERRORS[name], X)


def test_out_variants():
    def program(lib):
        x = lib.tensor(M)
        results = []
        for fn in (lambda out: lib.concat([x, x], out=out), lambda out: lib.concatenate([x, x], 1, out=out),
                   lambda out: lib.true_divide(x, 2, out=out), lambda out: lib.negative(x, out=out),
                   lambda out: lib.absolute(x, out=out), lambda out: lib.msort(x, out=out)):
            out = lib.empty(0)
            returned = fn(out)
            results.append((returned is out, repr(out)))
        return results
    assert outcome(program, mg) == outcome(program, torch)


def test_unflatten_errors_begin_as_torchs():
    """PyTorch's own text goes on with its C++ stack; minigrad's is its first two lines."""
    for call in (lambda lib: lib.ones(2, 4).unflatten(1, (-1, -1)),
                 lambda lib: lib.tensor(1.0).unflatten(0, (1,))):
        with pytest.raises(RuntimeError) as theirs:
            call(torch)
        with pytest.raises(RuntimeError) as ours:
            call(mg)
        assert str(theirs.value).startswith(str(ours.value))


# ---- asarray -----------------------------------------------------------------------


ASARRAY = {
    "ints": lambda lib, a: lib.asarray([1, 2]),
    "floats": lambda lib, a: lib.asarray([[1.0, 2], [3, 4]]),
    "dtype": lambda lib, a: lib.asarray([1, 2], dtype=lib.float64),
    "int8": lambda lib, a: lib.asarray([[1, 2], [3, 4]], dtype=lib.int8),
    "requires_grad": lambda lib, a: lib.asarray([1.0, 2], requires_grad=True),
    "number": lambda lib, a: lib.asarray(3.5),
    "bool": lambda lib, a: lib.asarray(True),
    "numpy scalar": lambda lib, a: lib.asarray(np.float64(2.5)),
    "list of tensors": lambda lib, a: lib.asarray([lib.tensor(1.0), lib.tensor(2.0)]),
    "numpy shares": lambda lib, a: _changed_after(lib.asarray(a), a),
    "numpy copy": lambda lib, a: _changed_after(lib.asarray(a, copy=True), a),
    "numpy converted": lambda lib, a: _changed_after(lib.asarray(a, dtype=lib.float32), a),
    "numpy same dtype": lambda lib, a: _changed_after(lib.asarray(a, dtype=lib.float64), a),
    "numpy requires_grad": lambda lib, a: lib.asarray(a, requires_grad=True),
    "tensor itself": lambda lib, a: _same(lib, lambda t: lib.asarray(t, requires_grad=False)),
    "tensor converted": lambda lib, a: _same(lib, lambda t: lib.asarray(t, dtype=lib.float64)),
    "tensor copied": lambda lib, a: _same(lib, lambda t: lib.asarray(t, copy=True)),
    "tensor copied, no grad": lambda lib, a: _same(
        lib, lambda t: lib.asarray(t, copy=True, requires_grad=False)),
    "tensor made to require grad": lambda lib, a: _same(
        lib, lambda t: lib.asarray(t.detach(), requires_grad=True)),
    "result of an op, requires_grad=False": lambda lib, a: _same(
        lib, lambda t: lib.asarray(t * 2, requires_grad=False)),
    "an op's result asked for no grad keeps its own graph": lambda lib, a: _source_after(
        lib, lambda b: lib.asarray(b, requires_grad=False)),
    "an op's result asked for grad is itself": lambda lib, a: _source_after(
        lib, lambda b: lib.asarray(b, requires_grad=True)),
    "copy=False into another dtype": lambda lib, a: lib.asarray(a, copy=False, dtype=lib.float32),
    "copy=False of a list": lambda lib, a: lib.asarray([1, 2], copy=False),
    "tensor copy=False into another dtype": lambda lib, a: lib.asarray(
        lib.ones(2), copy=False, dtype=lib.int64),
    "ints requiring grad": lambda lib, a: lib.asarray([1, 2], requires_grad=True),
    "bad dtype": lambda lib, a: lib.asarray([1, 2], dtype="float"),
}


def _changed_after(tensor, array):
    array[0] = 9.0
    return tensor


def _same(lib, call):
    t = lib.tensor([1.0, 2.0], requires_grad=True)
    result = call(t)
    return (repr(result), result is t, result.requires_grad, result.is_leaf,
            t.requires_grad, type(result.grad_fn).__name__)


def _source_after(lib, call):
    """(torch.asarray's docstring: ``c = asarray(b, requires_grad=False)`` leaves ``b``'s
    grad_fn, as ``d = asarray(b, requires_grad=True)`` then shows.)"""
    b = lib.tensor([1.0, 2.0], requires_grad=True) + 2
    result = call(b)
    return repr(result), result is b, result.is_leaf, repr(b), result.data_ptr() == b.data_ptr()


@pytest.mark.parametrize("name", list(ASARRAY))
def test_asarray_as_torch(name):
    def program(lib):
        return ASARRAY[name](lib, np.arange(3.0))
    assert outcome(program, mg) == outcome(program, torch)


def test_asarray_warns_once_as_torch():
    """Unspecified requires_grad on a tensor that requires grad: PyTorch's warning, once
    per process (checked in a fresh interpreter for each library)."""
    import subprocess
    import sys
    code = ("import warnings\nwarnings.simplefilter('always')\nimport {lib} as t\n"
            "x = t.ones(2, requires_grad=True)\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    t.asarray(t.ones(2)); t.asarray(x); t.asarray(x, dtype=t.float64)\n"
            "print([(str(i.message), i.category.__name__) for i in w])\n")
    seen = [subprocess.run([sys.executable, "-c", code.format(lib=lib)], capture_output=True,
                           text=True, check=True).stdout for lib in ("torch", "minigrad")]
    assert seen[0] == seen[1] and "asarray" in seen[0]


# ---- a program -----------------------------------------------------------------------


def test_program_with_the_other_names():
    """Image-like batches moved between NCHW and NHWC, flattened and unflattened, joined
    and normalised with the other names, a small model trained on them; every step's
    printed value and the gradients compared with PyTorch's."""
    def program(lib):
        lib.manual_seed(0)
        images = lib.asarray(rand((4, 2, 3, 3), seed=5), dtype=lib.float32)
        w = lib.randn(18, 1, requires_grad=True)
        steps = []
        for _ in range(3):
            nhwc = lib.movedim(images, 1, -1)  # N, H, W, C
            back = nhwc.moveaxis(-1, 1)
            flat = back.ravel().unflatten(0, (4, -1))
            joined = lib.concat([flat[:, :9], flat[:, 9:]], dim=1)
            scaled = lib.true_divide(joined, joined.absolute().amax(1, keepdim=True))
            out = lib.negative(scaled.swapaxes(0, 1).swapdims(0, 1) @ w).positive()
            loss = out.msort()[0].sum() + out.pow(2).mean()
            loss.backward()
            with lib.no_grad():
                w -= 0.1 * w.grad
                w.grad.zero_()
            steps.append((repr(loss), type(out.grad_fn).__name__, repr(nhwc)))
        return steps, repr(w)
    assert outcome(program, mg) == outcome(program, torch)


# ---- broadcast_to, broadcast_tensors, atleast_*, hsplit/vsplit/dsplit, take_along_dim, diff

V = rand((4,), seed=3)
C = rand((2, 3, 4), seed=4)
ALONG = np.array([[0, 3], [1, 1], [2, 0]], np.int64)

COMPOSED = {  # name: (function, inputs)
    "broadcast_to": (lambda lib, v: lib.broadcast_to(v, (3, 4)), (V,)),
    "Tensor.broadcast_to": (lambda lib, v: v.broadcast_to((2, -1)) * 2, (V,)),
    "broadcast_tensors": (lambda lib, m, v: lib.broadcast_tensors(m, v), (M, V)),
    "broadcast_tensors three": (lambda lib, m, v: lib.broadcast_tensors(v, m[:1], m[:, :1]),
                                (M, V)),
    "atleast_1d 0-dim": (lambda lib, v: lib.atleast_1d(v.sum()), (V,)),
    "atleast_2d vector": (lambda lib, v: lib.atleast_2d(v), (V,)),
    "atleast_3d vector": (lambda lib, v: lib.atleast_3d(v), (V,)),
    "atleast_3d matrix": (lambda lib, m: lib.atleast_3d(m), (M,)),
    "atleast_3d 0-dim": (lambda lib, v: lib.atleast_3d(v.sum()), (V,)),
    "atleast_2d several": (lambda lib, m, v: lib.atleast_2d(m, v, v.sum()), (M, V)),
    "atleast_1d list": (lambda lib, m, v: lib.atleast_1d([m, v.sum()]), (M, V)),
    "hsplit": (lambda lib, m: lib.hsplit(m, 2), (M,)),
    "hsplit vector": (lambda lib, v: lib.hsplit(v, [1, 3]), (V,)),
    "Tensor.vsplit": (lambda lib, m: m.vsplit([1]), (M,)),
    "vsplit": (lambda lib, m: lib.vsplit(m, 3), (M,)),
    "dsplit": (lambda lib, c: lib.dsplit(c, 2), (C,)),
    "Tensor.dsplit indices": (lambda lib, c: c.dsplit([1, 1, 3]), (C,)),
    "take_along_dim": (lambda lib, m: lib.take_along_dim(m, lib.tensor(ALONG), 1), (M,)),
    "take_along_dim broadcast": (
        lambda lib, m: lib.take_along_dim(m, lib.tensor([[2, 0]]), dim=1), (M,)),
    "take_along_dim flat": (lambda lib, m: m.take_along_dim(lib.tensor([0, 5, 11, 5])), (M,)),
    "take_along_dim argsort": (
        lambda lib, m: lib.take_along_dim(m, m.argsort(dim=0), dim=0), (M,)),
    "diff": (lambda lib, m: lib.diff(m), (M,)),
    "diff n=2 dim=0": (lambda lib, c: lib.diff(c, n=2, dim=0), (C,)),
    "diff prepend append": (lambda lib, m, v: m.diff(prepend=m[:, :1] * 2, append=v[:3, None]),
                            (M, V)),
    "diff n past the size": (lambda lib, v: lib.diff(v, 6), (V,)),
}


@pytest.mark.parametrize("name", list(COMPOSED))
def test_composed_against_torch(name):
    fn, inputs = COMPOSED[name]
    check(fn, *inputs, rtol=0, atol=0)
    program = lambda lib: repr(fn(lib, *mirror_of(lib, inputs)))  # noqa: E731
    assert outcome(program, mg) == outcome(program, torch)


@pytest.mark.parametrize("name", [n for n in COMPOSED if "past" not in n])
def test_composed_gradient_against_finite_differences(name):
    fn, inputs = COMPOSED[name]
    check_numerical(lambda *xs: fn(mg, *xs), *inputs)


COMPOSED_INTEGER = {
    "diff ints": lambda lib, a: lib.diff(a),
    "diff bools": lambda lib, a: lib.diff(a > 0, dim=0),
    "take_along_dim ints": lambda lib, a: lib.take_along_dim(a, lib.tensor([[2], [0]]), 1),
    "broadcast_tensors dtypes": lambda lib, a: lib.broadcast_tensors(a, lib.ones(1, 1)),
    "hsplit ints": lambda lib, a: a.hsplit(3),
}


@pytest.mark.parametrize("name", list(COMPOSED_INTEGER))
def test_composed_integer_inputs(name):
    def program(lib):
        return repr(COMPOSED_INTEGER[name](lib, lib.tensor(INTS)))
    assert outcome(program, mg) == outcome(program, torch)


COMPOSED_ERRORS = {
    "broadcast_to": lambda lib, m: lib.broadcast_to(m, (2, 4)),
    "broadcast_tensors": lambda lib, m: lib.broadcast_tensors(m, lib.ones(2)),
    "hsplit 0-dim": lambda lib, m: lib.hsplit(m.sum(), 2),
    "hsplit not divisible": lambda lib, m: lib.hsplit(m, 3),
    "vsplit vector": lambda lib, m: lib.vsplit(m[0], 2),
    "vsplit not divisible": lambda lib, m: m.vsplit(2),
    "dsplit matrix": lambda lib, m: lib.dsplit(m, 2),
    "take_along_dim dims": lambda lib, m: lib.take_along_dim(m, lib.tensor([0]), 1),
    "take_along_dim int32": lambda lib, m: lib.take_along_dim(m, lib.tensor([[0]]).int(), 1),
    "take_along_dim dim": lambda lib, m: lib.take_along_dim(m, lib.tensor([[0]]), 2),
    "take_along_dim 0-dim": lambda lib, m: lib.take_along_dim(m.sum(), lib.tensor(0), -1),
    "take_along_dim from nothing": lambda lib, m: lib.take_along_dim(m[:0], lib.tensor([[0, 1]]), 0),
    "take_along_dim from nothing, broadcast": lambda lib, m: lib.take_along_dim(
        m[:, :0], lib.tensor([[0], [1]]), 1),
    "take_along_dim 0-dim dim 1": lambda lib, m: lib.take_along_dim(m.sum(), lib.tensor(0), 1),
    "diff 0-dim": lambda lib, m: lib.diff(m.sum()),
    "diff negative n": lambda lib, m: lib.diff(m, n=-1),
    "diff dim": lambda lib, m: m.diff(dim=2),
    "diff prepend dims": lambda lib, m: lib.diff(m, prepend=lib.ones(3)),
}


@pytest.mark.parametrize("name", list(COMPOSED_ERRORS))
def test_composed_errors_as_torch(name):
    check_error(COMPOSED_ERRORS[name], M)


ARGUMENT_ERRORS = {
    "unflatten sizes an int": lambda lib, m: lib.unflatten(m, 1, 2),
    "Tensor.unflatten sizes an int": lambda lib, m: m.unflatten(1, 2),
    "Tensor.unflatten dim a float": lambda lib, m: m.unflatten(1.0, (2, 2)),
    "hsplit a float": lambda lib, m: lib.hsplit(m, 2.0),
    "Tensor.vsplit a float": lambda lib, m: m.vsplit(1.5),
    "diff n a float": lambda lib, m: lib.diff(m, n=1.5),
    "Tensor.diff dim a float": lambda lib, m: m.diff(1, 0.0),
    "broadcast_to an int": lambda lib, m: lib.broadcast_to(m, 4),
    "Tensor.broadcast_to a float": lambda lib, m: m.broadcast_to((3, 4.0)),
}


@pytest.mark.parametrize("name", list(ARGUMENT_ERRORS))
def test_argument_errors_as_torch(name):
    check_error(ARGUMENT_ERRORS[name], M)
