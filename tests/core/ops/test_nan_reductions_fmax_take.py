"""nansum (NansumBackward0), nanmean (DivBackward0 over NansumBackward0), fmax/fmin
(FmaxBackward0, FminBackward0) and take (TakeBackward0) against PyTorch 2.13: values bit
for bit, graphs, gradients (also finite differences in float64, away from NaN and ties),
printed results, integer inputs and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_error, check_numerical, outcome, rand

NAN = float("nan")
X = rand((3, 4), seed=0)
WITH_NAN = X.copy()
WITH_NAN[0, 1] = WITH_NAN[2, 3] = WITH_NAN[1, 1] = np.nan
Y = rand((3, 4), seed=1)
Y_NAN = Y.copy()
Y_NAN[0, 1] = Y_NAN[1, 2] = np.nan
V = rand((4,), seed=2)
INDEX = np.array([[0, 5], [11, -1], [5, 3]], np.int64)

CASES = {
    "nansum": (lambda lib, x: lib.nansum(x), (WITH_NAN,)),
    "nansum dim": (lambda lib, x: lib.nansum(x, 1), (WITH_NAN,)),
    "nansum dims keepdim": (lambda lib, x: x.nansum((0, 1), keepdim=True), (WITH_NAN,)),
    "nansum no nan": (lambda lib, x: x.nansum(-1), (X,)),
    "nansum float64": (lambda lib, x: lib.nansum(x, 0, dtype=lib.float64), (WITH_NAN,)),
    "nanmean": (lambda lib, x: lib.nanmean(x), (WITH_NAN,)),
    "nanmean dim": (lambda lib, x: x.nanmean(dim=0), (WITH_NAN,)),
    "nanmean keepdim": (lambda lib, x: lib.nanmean(x, 1, keepdim=True), (WITH_NAN,)),
    "fmax": (lambda lib, x, y: lib.fmax(x, y), (WITH_NAN, Y_NAN)),
    "fmin": (lambda lib, x, y: lib.fmin(x, y), (WITH_NAN, Y_NAN)),
    "fmax broadcast": (lambda lib, x, v: x.fmax(v), (X, V)),
    "fmin broadcast": (lambda lib, x, v: v.fmin(x), (X, V)),
    "fmax ties": (lambda lib, x: lib.fmax(x, x.detach()), (X,)),
    "fmin ties": (lambda lib, x: lib.fmin(x.detach(), x), (X,)),
    "take": (lambda lib, x: lib.take(x, lib.tensor(INDEX)), (X,)),
    "Tensor.take repeated": (lambda lib, x: x.take(lib.tensor([1, 1, 2])), (X,)),
    "take 0-dim index": (lambda lib, x: lib.take(x.t(), lib.tensor(4)), (X,)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch(name):
    fn, inputs = CASES[name]
    check(fn, *inputs, rtol=0, atol=0)
    program = lambda lib: repr(fn(lib, *[lib.tensor(a, requires_grad=True) for a in inputs]))  # noqa: E731
    assert outcome(program, mg) == outcome(program, torch)


@pytest.mark.parametrize("name", [n for n in CASES if "ties" not in n])
def test_gradient_against_finite_differences(name):
    fn, inputs = CASES[name]
    finite = [np.nan_to_num(a, nan=0.5 - k) if "fm" in name else a for k, a in enumerate(inputs)]
    check_numerical(lambda *xs: fn(mg, *xs), *finite)


INTEGER = {
    "nansum ints": lambda lib: lib.nansum(lib.tensor([[1, 2], [3, 4]])),
    "nansum bool dim": lambda lib: lib.tensor([[True, False], [True, True]]).nansum(0),
    "fmax ints": lambda lib: lib.fmax(lib.tensor([1, 5]), lib.tensor([3, 2])),
    "fmax int and float": lambda lib: lib.fmax(lib.tensor([1, 2]), lib.tensor([1.5, NAN])),
    "fmin int8 and int64": lambda lib: lib.fmin(lib.tensor([1, 5]).char(), lib.tensor([3, 2])),
    "take ints": lambda lib: lib.take(lib.tensor([[1, 2], [3, 4]]), lib.tensor([3, 0])),
    "nanmean all nan": lambda lib: lib.nanmean(lib.tensor([NAN, NAN])),
    "nansum empty": lambda lib: lib.nansum(lib.ones(0, 3), 0),
}


@pytest.mark.parametrize("name", list(INTEGER))
def test_dtypes_as_torch(name):
    assert outcome(lambda lib: repr(INTEGER[name](lib)), mg) == \
        outcome(lambda lib: repr(INTEGER[name](lib)), torch)


ERRORS = {
    "nanmean ints": lambda lib, x: lib.nanmean(x.long()),
    "nansum dim": lambda lib, x: x.nansum(2),
    "fmax shapes": lambda lib, x: lib.fmax(x, x[:, :3]),
    "fmax number": lambda lib, x: lib.fmax(x, 2.0),
    "take float index": lambda lib, x: lib.take(x, lib.tensor([1.0])),
    "take out of range": lambda lib, x: lib.take(x, lib.tensor([20])),
    "take negative out of range": lambda lib, x: x.take(lib.tensor([0, -13])),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    check_error(ERRORS[name], X)


def test_masked_statistics_program():
    """Missing values as NaN: a model's loss is nanmean over the observed entries, the
    features clipped by fmax/fmin, a few entries picked by take; trained three steps."""
    def program(lib):
        lib.manual_seed(0)
        data = lib.tensor(WITH_NAN)
        w = lib.randn(4, 4, requires_grad=True)
        steps = []
        for _ in range(3):
            pred = lib.fmin(lib.fmax(data @ w.nan_to_num(), lib.tensor(-1.0)), lib.tensor(1.0))
            target = lib.take(data, lib.tensor([0, 4, 8, 2]))
            loss = lib.nanmean((data - 0.5) ** 2) + lib.nansum(pred * 0.01) \
                + target.nansum() * 0
            loss.backward()
            with lib.no_grad():
                w -= 0.1 * w.grad.nan_to_num()
                w.grad = None
            steps.append((repr(loss), type(loss.grad_fn).__name__))
        return steps, repr(w)
    assert outcome(program, mg) == outcome(program, torch)


# ---- var_mean, std_mean: one node, two outputs ---------------------------------------

SPREAD = {
    "var_mean": lambda lib, x: lib.var_mean(x),
    "var_mean dim": lambda lib, x: lib.var_mean(x, 1),
    "var_mean dims keepdim": lambda lib, x: lib.var_mean(x, (0, 1), keepdim=True),
    "var_mean correction=0": lambda lib, x: lib.var_mean(x, 0, correction=0),
    "var_mean unbiased=False": lambda lib, x: lib.var_mean(x, unbiased=False),
    "var_mean unbiased positional": lambda lib, x: lib.var_mean(x, True),
    "var_mean dim unbiased": lambda lib, x: lib.var_mean(x, -1, False),
    "std_mean": lambda lib, x: lib.std_mean(x),
    "std_mean dim": lambda lib, x: lib.std_mean(x, dim=0),
    "std_mean correction=2 keepdim": lambda lib, x: lib.std_mean(x, 1, correction=2,
                                                                 keepdim=True),
    "std_mean only the mean used": lambda lib, x: lib.std_mean(x, 1)[1] * 3,
    "var_mean only the var used": lambda lib, x: lib.var_mean(x, 0)[0] * 2,
}


@pytest.mark.parametrize("name", list(SPREAD))
def test_var_mean_std_mean_against_torch(name):
    check(SPREAD[name], X, rtol=0, atol=0)
    program = lambda lib: repr(SPREAD[name](lib, lib.tensor(X, requires_grad=True)))  # noqa: E731
    assert outcome(program, mg) == outcome(program, torch)


@pytest.mark.parametrize("name", list(SPREAD))
def test_var_mean_std_mean_gradient_against_finite_differences(name):
    check_numerical(lambda x: SPREAD[name](mg, x), X)


def test_var_mean_bits_on_a_bigger_tensor():
    """Both outputs accumulate in float64 and are rounded once, as PyTorch's CPU kernel."""
    big = rand((50, 70), seed=7)
    for dim in (None, 0, 1):
        ours = mg.var_mean(mg.tensor(big), dim) + mg.std_mean(mg.tensor(big), dim)
        theirs = torch.var_mean(torch.tensor(big), dim) + torch.std_mean(torch.tensor(big), dim)
        for o, t in zip(ours, theirs):
            assert np.array_equal(o._data, t.numpy())


def test_var_mean_errors_as_torch():
    check_error(lambda lib, x: lib.var_mean(x.long()), X)
    check_error(lambda lib, x: lib.std_mean(x.long(), 0), X)
    check_error(lambda lib, x: lib.var_mean(x, 2), X)


SECOND_ORDER = {
    "var_mean": lambda lib, a: sum(t.sum() for t in lib.var_mean(a * a, 1)),
    "std_mean": lambda lib, a: sum((t * t).sum() for t in lib.std_mean(a * a, 0)),
    "nansum": lambda lib, a: (lib.nansum(a * a, 1) ** 2).sum(),
    "fmax": lambda lib, a: (lib.fmax(a * a, a.flip(0)) ** 2).sum(),
    "take": lambda lib, a: (lib.take(a * a, lib.tensor([0, 4, 4, 11])) ** 2).sum(),
}


@pytest.mark.parametrize("name", list(SECOND_ORDER))
def test_second_derivatives_as_torch(name):
    """create_graph=True: the gradient is differentiated again (torch's values)."""
    def run(lib):
        a = lib.tensor(X.astype(np.float64), requires_grad=True)
        g, = lib.autograd.grad(SECOND_ORDER[name](lib, a), a, create_graph=True)
        h, = lib.autograd.grad((g * g).sum(), a)
        return g.detach().numpy(), h.numpy()
    for ours, theirs in zip(run(mg), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", ["int32", "int16", "int64", "uint8"])
@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1)])
def test_nansum_into_an_integer_dtype_zeroes_the_nans_first_as_torch(dtype, dim):
    """fuzz14's wrong number: the NaNs were converted (to INT_MIN) before being zeroed;
    PyTorch zeroes them, then converts each element and adds."""
    values = [[float("nan"), 2.5, 1.5], [1.0, float("inf"), 2.7]]
    found = []
    for lib in (mg, torch):
        x = lib.tensor(values, requires_grad=True)
        kwargs = {"dtype": getattr(lib, dtype)}
        if dim is not None:
            kwargs["dim"] = dim
        with pytest.raises(RuntimeError) as refused:  # (an integer sum records no grad)
            x.nansum(**kwargs)
        with lib.no_grad():
            result = x.nansum(**kwargs)
        found.append((str(refused.value), str(result), result.dtype.__repr__()))
    assert found[0] == found[1]
