"""``out=``: the result written into a given tensor, compared with PyTorch 2.13 call by call.

Each case runs under torch and under minigrad; what must agree: the value returned and
whether it IS the out tensor, the out tensor's printed value (dtype and shape included,
so a resize shows), how far its version counter moved, the warnings (without torch's
"(Triggered internally at <C++ file>)" suffix) and, for a refused call, the error's type
and text.
"""

from __future__ import annotations

import re
import warnings

import pytest
import torch

import minigrad

A = [[1.0, -2.0], [3.0, 0.5]]
B = [[0.5, 1.0], [-1.0, 2.0]]


def _ab(lib, requires_grad=False):
    return lib.tensor(A, requires_grad=requires_grad), lib.tensor(B)


# name: (make the out tensor(s), the call given the library and out)
CASES = {
    "add": (lambda L: L.empty(2, 2), lambda L, o: L.add(*_ab(L), alpha=2, out=o)),
    "sub": (lambda L: L.empty(2, 2), lambda L, o: L.sub(*_ab(L), out=o)),
    "mul": (lambda L: L.empty(2, 2), lambda L, o: L.mul(*_ab(L), out=o)),
    "div": (lambda L: L.empty(2, 2), lambda L, o: L.div(*_ab(L), out=o)),
    "pow": (lambda L: L.empty(2, 2), lambda L, o: L.pow(_ab(L)[0], 2, out=o)),
    "neg": (lambda L: L.empty(2, 2), lambda L, o: L.neg(_ab(L)[0], out=o)),
    "exp": (lambda L: L.empty(2, 2), lambda L, o: L.exp(_ab(L)[0], out=o)),
    "log": (lambda L: L.empty(2, 2), lambda L, o: L.log(_ab(L)[1].abs(), out=o)),
    "sqrt": (lambda L: L.empty(2, 2), lambda L, o: L.sqrt(_ab(L)[1].abs(), out=o)),
    "tanh": (lambda L: L.empty(2, 2), lambda L, o: L.tanh(_ab(L)[0], out=o)),
    "sigmoid": (lambda L: L.empty(2, 2), lambda L, o: L.sigmoid(_ab(L)[0], out=o)),
    "abs": (lambda L: L.empty(2, 2), lambda L, o: L.abs(_ab(L)[0], out=o)),
    "sign": (lambda L: L.empty(2, 2), lambda L, o: L.sign(_ab(L)[0], out=o)),
    "sin": (lambda L: L.empty(2, 2), lambda L, o: L.sin(_ab(L)[0], out=o)),
    "cos": (lambda L: L.empty(2, 2), lambda L, o: L.cos(_ab(L)[0], out=o)),
    "clamp": (lambda L: L.empty(2, 2), lambda L, o: L.clamp(_ab(L)[0], -1, 1, out=o)),
    "clip": (lambda L: L.empty(2, 2), lambda L, o: L.clip(_ab(L)[0], max=0.7, out=o)),
    "maximum": (lambda L: L.empty(2, 2), lambda L, o: L.maximum(*_ab(L), out=o)),
    "minimum": (lambda L: L.empty(2, 2), lambda L, o: L.minimum(*_ab(L), out=o)),
    "where": (lambda L: L.empty(2, 2),
              lambda L, o: L.where(_ab(L)[0] > 0, *_ab(L), out=o)),
    "eq into bool": (lambda L: L.empty(2, 2, dtype=L.bool), lambda L, o: L.eq(*_ab(L), out=o)),
    "lt into float": (lambda L: L.empty(2, 2), lambda L, o: L.lt(*_ab(L), out=o)),
    "ge": (lambda L: L.empty(2, 2, dtype=L.bool), lambda L, o: L.ge(*_ab(L), out=o)),
    "sum dim": (lambda L: L.empty(2), lambda L, o: L.sum(_ab(L)[0], 1, out=o)),
    "sum keepdim": (lambda L: L.empty(0), lambda L, o: L.sum(_ab(L)[0], 0, True, out=o)),
    "mean": (lambda L: L.empty(()), lambda L, o: L.mean(_ab(L)[0], out=o)),
    "mean dim": (lambda L: L.empty(2), lambda L, o: L.mean(_ab(L)[0], dim=0, out=o)),
    "prod dim": (lambda L: L.empty(2), lambda L, o: L.prod(_ab(L)[0], 1, out=o)),
    "max": (lambda L: L.empty(()), lambda L, o: L.max(_ab(L)[0], out=o)),
    "max dim": (lambda L: (L.empty(2), L.empty(2, dtype=L.int64)),
                lambda L, o: L.max(_ab(L)[0], 0, out=o)),
    "min dim keepdim": (lambda L: (L.empty(0), L.empty(0, dtype=L.int64)),
                        lambda L, o: L.min(_ab(L)[0], 1, keepdim=True, out=o)),
    "argmax": (lambda L: L.empty((), dtype=L.int64), lambda L, o: L.argmax(_ab(L)[0], out=o)),
    "argmin dim": (lambda L: L.empty(2, dtype=L.int64),
                   lambda L, o: L.argmin(_ab(L)[0], 1, out=o)),
    "all": (lambda L: L.empty((), dtype=L.bool), lambda L, o: L.all(_ab(L)[0] > 0, out=o)),
    "any dim": (lambda L: L.empty(2, dtype=L.bool),
                lambda L, o: L.any(_ab(L)[0] > 0, 1, out=o)),
    "var": (lambda L: L.empty(2), lambda L, o: L.var(_ab(L)[0], 0, out=o)),
    "std": (lambda L: L.empty(2), lambda L, o: L.std(_ab(L)[0], 1, correction=0, out=o)),
    "norm": (lambda L: L.empty(()), lambda L, o: L.norm(_ab(L)[0], out=o)),
    "logsumexp": (lambda L: L.empty(2), lambda L, o: L.logsumexp(_ab(L)[0], 1, out=o)),
    "softmax": (lambda L: L.empty(2, 2), lambda L, o: L.softmax(_ab(L)[0], 0, out=o)),
    "log_softmax": (lambda L: L.empty(2, 2),
                    lambda L, o: L.log_softmax(_ab(L)[0], 1, out=o)),
    "matmul": (lambda L: L.empty(2, 2), lambda L, o: L.matmul(*_ab(L), out=o)),
    "mm": (lambda L: L.empty(2, 2), lambda L, o: L.mm(*_ab(L), out=o)),
    "mv": (lambda L: L.empty(2), lambda L, o: L.mv(_ab(L)[0], _ab(L)[1][0], out=o)),
    "dot": (lambda L: L.empty(()), lambda L, o: L.dot(_ab(L)[0][0], _ab(L)[1][0], out=o)),
    "bmm": (lambda L: L.empty(1, 2, 2),
            lambda L, o: L.bmm(_ab(L)[0].unsqueeze(0), _ab(L)[1].unsqueeze(0), out=o)),
    "cat": (lambda L: L.empty(4, 2), lambda L, o: L.cat(_ab(L), out=o)),
    "cat into float64": (lambda L: L.empty(2, 4, dtype=L.float64),
                         lambda L, o: L.cat(_ab(L), 1, out=o)),
    "stack": (lambda L: L.empty(2, 2, 2), lambda L, o: L.stack(_ab(L), 1, out=o)),
    "into itself": (lambda L: L.tensor(A), lambda L, o: L.exp(o, out=o)),
    "into a view": (lambda L: L.zeros(3, 2), lambda L, o: L.add(*_ab(L)[0], out=o[1])),
    # resizing
    "resized with a warning": (lambda L: L.empty(3), lambda L, o: L.add(*_ab(L), out=o)),
    "resized from empty": (lambda L: L.empty(0), lambda L, o: L.mul(*_ab(L), out=o)),
    "reduction resized": (lambda L: L.empty(5), lambda L, o: L.sum(_ab(L)[0], 0, out=o)),
    # dtypes
    "float into float64": (lambda L: L.empty(2, 2, dtype=L.float64),
                           lambda L, o: L.add(*_ab(L), out=o)),
    "float into int64": (lambda L: L.empty(2, 2, dtype=L.int64),
                         lambda L, o: L.add(*_ab(L), out=o)),
    "int into int32": (lambda L: L.empty(2, 2, dtype=L.int32),
                       lambda L, o: L.add(L.tensor([[1, 2], [3, 4]]), 1, out=o)),
    "int into bool": (lambda L: L.empty(2, dtype=L.bool),
                      lambda L, o: L.mul(L.tensor([1, 2]), 2, out=o)),
    "matmul into float64": (lambda L: L.empty(2, 2, dtype=L.float64),
                            lambda L, o: L.matmul(*_ab(L), out=o)),
    "argmax into float": (lambda L: L.empty(()), lambda L, o: L.argmax(_ab(L)[0], out=o)),
    "all into float": (lambda L: L.empty(()), lambda L, o: L.all(_ab(L)[0], out=o)),
    "max dim, float indices": (lambda L: (L.empty(2), L.empty(2)),
                               lambda L, o: L.max(_ab(L)[0], 0, out=o)),
    # gradients
    "input requires grad": (lambda L: L.empty(2, 2),
                            lambda L, o: L.add(*_ab(L, requires_grad=True), out=o)),
    "out requires grad": (lambda L: L.empty(2, 2, requires_grad=True),
                          lambda L, o: L.mul(*_ab(L), out=o)),
    "sum, input requires grad": (lambda L: L.empty(2),
                                 lambda L, o: L.sum(_ab(L, True)[0], 0, out=o)),
    "matmul, input requires grad": (lambda L: L.empty(2, 2),
                                    lambda L, o: L.matmul(*_ab(L, True), out=o)),
    "cat, input requires grad": (lambda L: L.empty(4, 2),
                                 lambda L, o: L.cat(_ab(L, True), out=o)),
    "max dim, input requires grad": (lambda L: (L.empty(2), L.empty(2, dtype=L.int64)),
                                     lambda L, o: L.max(_ab(L, True)[0], 0, out=o)),
    "comparison, input requires grad": (lambda L: L.empty(2, 2, dtype=L.bool),
                                        lambda L, o: L.gt(*_ab(L, True), out=o)),
    "argmax, input requires grad": (lambda L: L.empty((), dtype=L.int64),
                                    lambda L, o: L.argmax(_ab(L, True)[0], out=o)),
    "no_grad": (lambda L: L.empty(2, 2, requires_grad=True),
                lambda L, o: _no_grad(L, lambda: L.add(*_ab(L, True), out=o))),
    # bad out tensors
    "partial overlap": (lambda L: L.tensor(A), lambda L, o: L.add(o, 1, out=o.t())),
    "out is a list": (lambda L: [1], lambda L, o: L.add(*_ab(L), out=o)),
    # factories
    "zeros": (lambda L: L.empty(2), lambda L, o: L.zeros(2, out=o)),
    "ones resized": (lambda L: L.empty(5), lambda L, o: L.ones(2, 3, out=o)),
    "zeros takes out's dtype": (lambda L: L.empty(2, dtype=L.int64),
                                lambda L, o: L.zeros(2, out=o)),
    "zeros dtype differs": (lambda L: L.empty(2),
                            lambda L, o: L.zeros(2, out=o, dtype=L.float64)),
    "zeros requires_grad": (lambda L: L.empty(2),
                            lambda L, o: L.zeros((2,), out=o, requires_grad=True)),
    "empty": (lambda L: L.zeros(2), lambda L, o: L.empty(2, out=o).zero_()),
    "full": (lambda L: L.empty(2, dtype=L.float64), lambda L, o: L.full((2,), 3.5, out=o)),
    "eye": (lambda L: L.empty(0), lambda L, o: L.eye(2, 3, out=o)),
    "arange": (lambda L: L.empty(3, dtype=L.int64), lambda L, o: L.arange(3, out=o)),
    "arange resized": (lambda L: L.empty(5), lambda L, o: L.arange(3, out=o)),
    "arange into float": (lambda L: L.empty(0), lambda L, o: L.arange(0, 1, 0.25, out=o)),
    "linspace resized quietly": (lambda L: L.empty(5), lambda L, o: L.linspace(0, 1, 3, out=o)),
    "randn into int64": (lambda L: L.empty(2, dtype=L.int64), lambda L, o: L.randn(2, out=o)),
    "rand into int64": (lambda L: L.empty(2, dtype=L.int64), lambda L, o: L.rand(2, out=o)),
}

# Random factories: the same seed, so the same samples (and the rest) in both libraries.
RANDOM_CASES = {
    "randn": (lambda L: L.empty(0), lambda L, o: L.randn(2, 3, out=o)),
    "rand": (lambda L: L.empty(2, 3, dtype=L.float64), lambda L, o: L.rand(2, 3, out=o)),
    "randint": (lambda L: L.empty(4, dtype=L.int32), lambda L, o: L.randint(0, 5, (4,), out=o)),
}


def _no_grad(lib, call):
    with lib.no_grad():
        return call()


def _versions(out):
    return tuple(t._version for t in (out if isinstance(out, tuple) else (out,))
                 if hasattr(t, "_version"))


_TRIGGERED = re.compile(r" \(Triggered internally at .*\)$", re.S)


def _run(lib, case, describe=repr):
    make_out, call = case
    out = make_out(lib)
    before = _versions(out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = call(lib, out)
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            outcome = ("error", type(error).__name__, str(error))
        else:
            if isinstance(out, tuple):
                same = isinstance(result, tuple) and all(r is o for r, o in zip(result, out))
            else:
                same = result is out
            outcome = ("result", describe(result), same, describe(out),
                       [b - a for a, b in zip(before, _versions(out))])
    messages = [_TRIGGERED.sub("", str(w.message)) for w in caught]
    return outcome, messages


@pytest.mark.parametrize("name", list(CASES))
def test_out_is_torchs(name):
    assert _run(minigrad, CASES[name]) == _run(torch, CASES[name])


def _shape_and_dtype(value):
    if isinstance(value, tuple):
        return tuple(_shape_and_dtype(v) for v in value)
    return (tuple(value.shape), str(value.dtype), value.requires_grad)


@pytest.mark.parametrize("name", list(RANDOM_CASES))
def test_random_factories_write_into_out(name):
    minigrad.manual_seed(0)
    mine = _run(minigrad, RANDOM_CASES[name])
    torch.manual_seed(0)
    assert mine == _run(torch, RANDOM_CASES[name])
    assert mine[0][0] == "result"


# Ops PyTorch has no derivative for (a NotImplemented node): out= with an input that
# requires grad is taken, and out becomes the node's output (refused if out requires grad).
def _then_backward(lib, result):
    result.sum().backward()


NO_DERIVATIVE_CASES = {
    "floor_divide by a number": (lambda L: L.empty(2, 2),
                                 lambda L, o: L.floor_divide(_ab(L, True)[0], 2, out=o)),
    "floor_divide of a number": (lambda L: L.empty(2, 2),
                                 lambda L, o: L.floor_divide(_ab(L)[1], _ab(L, True)[0], out=o)),
    "heaviside": (lambda L: L.empty(2, 2), lambda L, o: L.heaviside(*_ab(L, True), out=o)),
    "into a view": (lambda L: L.zeros(3, 2), lambda L, o: (L.floor_divide(_ab(L, True)[0][0], 2,
                                                                         out=o[1]), o)[1]),
    "resized": (lambda L: L.empty(5), lambda L, o: L.floor_divide(_ab(L, True)[0], 2, out=o)),
    "into an int out": (lambda L: L.empty(2, 2, dtype=L.int64),
                        lambda L, o: L.floor_divide(_ab(L, True)[0], 2, out=o)),
    "into an out that requires grad": (lambda L: L.empty(2, 2, requires_grad=True),
                                       lambda L, o: L.floor_divide(_ab(L, True)[0], 2, out=o)),
    "no input requires grad": (lambda L: L.empty(2, 2, requires_grad=True),
                               lambda L, o: L.floor_divide(_ab(L)[0], 2, out=o)),
    "then backward": (lambda L: L.empty(2, 2), lambda L, o: _then_backward(
        L, L.floor_divide(_ab(L, True)[0], 2, out=o))),
}


@pytest.mark.parametrize("name", list(NO_DERIVATIVE_CASES))
def test_out_of_an_op_without_derivative_is_recorded_as_torchs(name):
    assert _run(minigrad, NO_DERIVATIVE_CASES[name]) == _run(torch, NO_DERIVATIVE_CASES[name])


def test_a_view_given_as_out_writes_into_its_base():
    base = minigrad.zeros(2, 2)
    minigrad.add(minigrad.ones(2), 1, out=base[0])
    expected = torch.zeros(2, 2)
    torch.add(torch.ones(2), 1, out=expected[0])
    assert repr(base) == repr(expected)
    assert base._version == expected._version


EMPTY_RESIZES = {  # (an out resized to an empty shape: torch's resize_ gives it row-major strides)
    "add of (0, 3) ints": lambda L: L.add(L.zeros((0, 3), dtype=L.int64), 1,
                                          out=L.empty(0, dtype=L.int64)),
    "mul of (0, 3)": lambda L: L.mul(L.zeros(0, 3), L.zeros(0, 3), out=L.empty(0)),
    "exp of (2, 0, 3)": lambda L: L.exp(L.zeros(2, 0, 3), out=L.empty(0)),
    "neg of a transposed (3, 0)": lambda L: L.neg(L.zeros(0, 3).t(), out=L.empty(0)),
    "sum over dim 0 of (2, 0, 3)": lambda L: L.sum(L.zeros(2, 0, 3), 0, out=L.empty(0)),
    "cumsum of (0, 3)": lambda L: L.cumsum(L.zeros(0, 3), 0, out=L.empty(0)),
}


@pytest.mark.parametrize("name", list(EMPTY_RESIZES))
def test_an_out_resized_to_an_empty_shape_has_torchs_strides(name):
    """(meet seeds 30724, 31484: minigrad's strides were all 0, NumPy's for an empty array)"""
    def strides(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = EMPTY_RESIZES[name](lib)
        return tuple(result.shape), result.stride(), result.is_contiguous()
    assert strides(minigrad) == strides(torch)


OUT_RESIZED = {
    "add": lambda L, x: L.add(x, 1, out=L.empty(0)),
    "mul": lambda L, x: L.mul(x, x, out=L.empty(0)),
    "exp": lambda L, x: L.exp(x, out=L.empty(0)),
    "clamp": lambda L, x: L.clamp(x, 0, 1, out=L.empty(0)),
    "where": lambda L, x: L.where(x > 0.2, x, x, out=L.empty(0)),
    "eq": lambda L, x: L.eq(x, x, out=L.empty(0, dtype=L.bool)),
    "lerp": lambda L, x: L.lerp(x, x, 0.5, out=L.empty(0)),
    "sub into another shape": lambda L, x: L.sub(x, 1, out=L.empty(2, 2)),
    "add of longs": lambda L, x: L.add(x.long(), 1, out=L.empty(0, dtype=L.int64)),
    "sum (row-major)": lambda L, x: L.sum(x, 0, keepdim=True, out=L.empty(0)),
    "cumsum (row-major)": lambda L, x: L.cumsum(x, 0, out=L.empty(0)),
    "matmul (row-major)": lambda L, x: L.matmul(x, x.t(), out=L.empty(0)),
}


@pytest.mark.parametrize("name", sorted(OUT_RESIZED))
def test_an_elementwise_out_resized_takes_the_results_strides(name):
    """An out= that an elementwise op (PyTorch's TensorIterator) resizes takes the
    strides the iterator gives the result: a transposed input's (1, 3); the other ops'
    resized outs stay row-major (meet seeds 40924, 41036: torch.add(x, 1, out=empty(0))
    of a transposed x)."""
    seen = []
    for lib in (torch, minigrad):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x = lib.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]).t()
            result = OUT_RESIZED[name](lib, x)
        seen.append((result.stride(), result.tolist()))
    assert seen[1] == seen[0]
