"""gradcheck and gradgradcheck against PyTorch: the same verdict on right and wrong
(double) backward formulas, and the same texts: the failure (with both Jacobians, drawn
from PyTorch's random grad_outputs after manual_seed), the float32 warning, and the
argument errors."""

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

X = np.array([0.5, -1.5, 2.0])
M = np.array([[0.3, -0.2, 1.1], [0.7, 0.4, -0.9]])


def functions(lib):
    """Custom Functions a learner writes: right ones, and ones wrong only in their
    second derivative (a backward that detaches what it must differentiate)."""

    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 3 * x ** 2

    class CubeDetached(Cube):  # right first derivative, wrong second (zero)
        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 3 * x.detach() ** 2

    class CubeWrongFirst(Cube):
        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 2 * x ** 2

    class Ignores(Cube):  # does not multiply by grad
        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return 3 * x ** 2 + grad * 0

    return {"cube": Cube.apply, "cube-detached": CubeDetached.apply,
            "cube-wrong-first": CubeWrongFirst.apply, "ignores-grad": Ignores.apply,
            "tanh": lib.tanh, "sigmoid": lambda x: x.sigmoid(), "pow": lambda x: x ** 3,
            "mlp": lambda w: (lib.tensor(M, dtype=lib.float64) @ w).tanh().sum(),
            "two-outputs": lambda x: (x.exp(), (x * x).sum())}


def outcome(lib, check, name, *arrays, seed=0, **options):
    lib.manual_seed(seed)
    tensors = tuple(lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = getattr(lib.autograd, check)(functions(lib)[name], tensors, **options)
        except Exception as error:  # noqa: BLE001
            result = (type(error).__name__, str(error).replace("minigrad", "torch"))
    return result, [str(w.message) for w in caught]


CASES = [("cube", (X,)), ("cube-detached", (X,)), ("cube-wrong-first", (X,)),
         ("ignores-grad", (X,)), ("tanh", (X,)), ("sigmoid", (X,)), ("pow", (X,)),
         ("mlp", (M.T.copy(),)), ("two-outputs", (X,))]


@pytest.mark.parametrize("check", ["gradcheck", "gradgradcheck"])
@pytest.mark.parametrize("name,arrays", CASES, ids=[c[0] for c in CASES])
def test_verdict_and_text_are_torchs(check, name, arrays):
    ours = outcome(mg, check, name, *arrays)
    theirs = outcome(torch, check, name, *arrays)
    assert ours == theirs


def test_a_wrong_second_derivative_fails_only_gradgradcheck():
    assert outcome(mg, "gradcheck", "cube-detached", X)[0] is True
    result, _ = outcome(mg, "gradgradcheck", "cube-detached", X)
    assert result[0] == "GradcheckError"
    assert result[1].startswith("Jacobian mismatch for output 0 with respect to input 0,")
    assert outcome(mg, "gradgradcheck", "cube-detached", X, raise_exception=False)[0] is False


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_random_grad_outputs_are_torchs(seed):
    # a wrong second derivative shows the numerical Jacobian 6 x g, g the random
    # grad_outputs drawn: the same text means the same draws
    ours = outcome(mg, "gradgradcheck", "cube-detached", X, seed=seed)
    assert ours == outcome(torch, "gradgradcheck", "cube-detached", X, seed=seed)
    assert ours[0][0] == "GradcheckError"


@pytest.mark.parametrize("check", ["gradcheck", "gradgradcheck"])
def test_float32_inputs_warn_as_torch(check):
    def run(lib):
        lib.manual_seed(0)
        x = lib.tensor(X, dtype=lib.float32, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = getattr(lib.autograd, check)(lambda t: t * t, (x,), atol=1e-2,
                                                      rtol=1e-2)
            except Exception as error:  # noqa: BLE001
                result = type(error).__name__
        return result, sorted({str(w.message) for w in caught})
    assert run(mg) == run(torch)
    assert run(mg)[1]


ERRORS = {
    "no-input-requires-grad": lambda lib: lib.autograd.gradcheck(
        lambda t: t * 2, (lib.tensor(X, dtype=lib.float64),)),
    "stride-0-input": lambda lib: lib.autograd.gradcheck(
        lambda t: t * 2, (lib.tensor([1.0], dtype=lib.float64).expand(3).requires_grad_(),)),
    "gradgrad-neither-mode": lambda lib: lib.autograd.gradgradcheck(
        lambda t: t * 2, (lib.tensor(X, dtype=lib.float64, requires_grad=True),),
        check_rev_over_rev=False),
    "gradgrad-undefined-without-rev": lambda lib: lib.autograd.gradgradcheck(
        lambda t: t * 2, (lib.tensor(X, dtype=lib.float64, requires_grad=True),),
        check_rev_over_rev=False, check_fwd_over_rev=True),
    "output-changes-shape": lambda lib: lib.autograd.gradcheck(
        lambda t: t[: int(t[0].item() > 0.5 - 1e-7) + 1] * 1,
        (lib.tensor([0.5, 1.0], dtype=lib.float64, requires_grad=True),)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_argument_errors_are_torchs(name):
    def run(lib):
        try:
            ERRORS[name](lib)
        except Exception as error:  # noqa: BLE001
            return type(error).__name__, str(error).replace("minigrad", "torch")
        return None
    theirs = run(torch)
    assert theirs is not None
    assert run(mg) == theirs


def test_given_grad_outputs_and_an_input_without_grad():
    def run(lib):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        w = lib.tensor(X[::-1].copy(), dtype=lib.float64)  # a constant
        g = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64, requires_grad=True)
        return lib.autograd.gradgradcheck(lambda x, w: (x * w).sin(), (x, w), (g,))
    assert run(mg) is True and run(torch) is True


def test_check_forward_ad_as_pytorch():
    def run(lib):
        class WrongJvp(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.exp()

            @staticmethod
            def jvp(ctx, t):
                return t * 2

        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        passed = lib.autograd.gradcheck(lambda t: (t * t).sin().cumsum(0), (x,),
                                        check_forward_ad=True)
        try:
            lib.autograd.gradcheck(WrongJvp.apply, (x,), check_forward_ad=True,
                                   check_backward_ad=False, check_undefined_grad=False)
        except RuntimeError as error:  # (GradcheckError)
            return passed, str(error)
    assert run(mg) == run(torch)


def test_minigrad_says_what_it_cannot_check():
    x = mg.tensor(X, dtype=mg.float64, requires_grad=True)
    with pytest.raises(NotImplementedError, match="vmap"):
        mg.autograd.gradgradcheck(lambda t: t * t, (x,), check_batched_grad=True)
