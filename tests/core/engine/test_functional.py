"""autograd.grad, higher-order gradients, custom Functions and gradcheck."""

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad.autograd import Function, GradcheckError, gradcheck

from warn_always import warn_always


def both(fn):
    return fn(mg), fn(torch)


def error_of(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001
        return type(error).__name__, str(error)
    return None


def test_grad_returns_gradients_without_touching_dot_grad():
    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = (x * w).exp().sum()
        gx, gw = lib.autograd.grad(y, [x, w])
        return gx.tolist(), gw.tolist(), x.grad, w.grad, gx.requires_grad
    ours, theirs = both(run)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    assert ours[2:] == theirs[2:]


def test_grad_with_grad_outputs_and_non_leaf_inputs():
    def run(lib):
        x = lib.tensor([1.0, -2.0], requires_grad=True)
        h = x * x
        y = h * 3
        gh, = lib.autograd.grad(y, h, grad_outputs=lib.tensor([1.0, 0.5]))
        return gh.tolist()
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("order", [2, 3])
def test_higher_order_derivatives(order):
    def run(lib):
        x = lib.tensor([0.3, -1.2, 2.0], requires_grad=True)
        y = (x.sin() * x ** 3).sum()
        results = []
        for _ in range(order):
            g, = lib.autograd.grad(y, x, create_graph=True)
            results.append(g.tolist())
            y = g.sum()
        return results
    ours, theirs = both(run)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5)


def test_backward_with_create_graph_makes_grad_differentiable():
    def run(lib):
        x = lib.tensor([1.5, -0.5], requires_grad=True)
        # (PyTorch warns once per process: another test in this worker may have used it up)
        with warn_always(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (x ** 3).sum().backward(create_graph=True)
        first = x.grad
        second, = lib.autograd.grad(first.sum(), x)
        return (first.requires_grad, [(w.category, str(w.message)) for w in caught]), \
            (first.tolist(), second.tolist())
    ours, theirs = both(run)
    assert ours[0] == theirs[0] and "create a reference cycle" in ours[0][1][0][1]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)


def test_unused_input_errors_unless_allowed():
    def unused(lib):
        x = lib.ones(2, requires_grad=True)
        other = lib.ones(2, requires_grad=True)
        return lib.autograd.grad((x * 2).sum(), [x, other])
    ours, theirs = both(lambda lib: error_of(lambda: unused(lib)))
    assert theirs is not None and ours == theirs

    def allowed(lib):
        x = lib.ones(2, requires_grad=True)
        other = lib.ones(2, requires_grad=True)
        gx, gother = lib.autograd.grad((x * 2).sum(), [x, other], allow_unused=True)
        return gx.tolist(), gother
    ours, theirs = both(allowed)
    assert ours == theirs


def test_input_that_does_not_require_grad():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        return lib.autograd.grad((x * 2).sum(), [lib.ones(2)])
    ours, theirs = both(lambda lib: error_of(lambda: run(lib)))
    assert theirs is not None and ours == theirs


class Cube(Function):
    """y = x ** 3;  dy/dx = 3 x ** 2"""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2


class ScaleBy(Function):
    """y = x * factor (a number);  dy/dx = factor, no gradient for the number."""

    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


def test_custom_function_builds_a_named_node():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    assert y.grad_fn.name() == "CubeBackward"
    assert repr(y).endswith("grad_fn=<CubeBackward>)")
    assert y.grad_fn.next_functions[0][0].variable is x
    assert y.grad_fn.needs_input_grad == (True,)
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 12.0]


def test_custom_function_with_a_non_tensor_argument():
    x = mg.tensor([1.0, -2.0], requires_grad=True)
    ScaleBy.apply(x, 4.0).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]
    assert ScaleBy.apply(x, 2.0).grad_fn.needs_input_grad == (True, False)


def test_custom_function_frees_saved_tensors():
    x = mg.tensor([1.0], requires_grad=True)
    y = Cube.apply(x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_custom_function_wrong_number_of_gradients():
    class Bad(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, grad):
            return grad

    a = mg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"BadBackward returned an incorrect number of "
                                           r"gradients \(expected 2, got 1\)"):
        Bad.apply(a, a).sum().backward()


@pytest.mark.parametrize("extra", ["nones", "a tensor", "none"])
def test_extra_gradients_past_the_inputs_may_be_none_as_in_torch(extra):
    """A backward may return more gradients than forward took inputs if the extra ones are
    None (they are dropped: pytorch/tutorials' fused conv-bn Function returns seven for
    three); an extra tensor is the count's error."""
    def run(t):
        class Scaled(t.autograd.Function):
            @staticmethod
            def forward(ctx, x, k=2.0):
                return x * k

            @staticmethod
            def backward(ctx, grad):
                tail = {"nones": (None, None), "a tensor": (None, t.ones(1)), "none": ()}[extra]
                return (grad * 2, None) + tail
        x = t.ones(2, requires_grad=True)
        failed = error_of(lambda: Scaled.apply(x, 2.0).sum().backward())
        return failed, x.grad.tolist() if x.grad is not None else None
    mine, theirs = both(run)
    assert mine == theirs


def test_gradcheck_passes_for_correct_and_fails_for_wrong_backward():
    x = mg.tensor(np.array([0.5, -1.5, 2.0]), requires_grad=True)
    assert gradcheck(Cube.apply, (x,))

    class WrongCube(Cube):
        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 2 * x ** 2

    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect "
                                             "to input 0"):
        gradcheck(WrongCube.apply, (x,))
    assert gradcheck(WrongCube.apply, (x,), raise_exception=False) is False


def test_gradcheck_agrees_with_torch_on_a_composite():
    def f(lib):
        def fn(a, b):
            return (a @ b).tanh().sum(0)
        rng = np.random.default_rng(3)
        a = lib.tensor(rng.standard_normal((3, 4)), requires_grad=True)
        b = lib.tensor(rng.standard_normal((4, 2)), requires_grad=True)
        return lib.autograd.gradcheck(fn, (a, b))
    assert f(mg) is True and f(torch) is True


def _dirty_function(lib, forward):
    return type("Dirty", (lib.autograd.Function,), {
        "forward": staticmethod(forward), "backward": staticmethod(lambda ctx, g: g * 2)})


def _marked_but_not_returned(ctx, x):
    x.add_(1)
    ctx.mark_dirty(x)
    return x * 1


def _marked_a_fresh_tensor(ctx, x):
    y = x.clone()
    y.add_(1)
    ctx.mark_dirty(y)
    return y


def _marked_a_fresh_view(ctx, x):
    y = x.clone()[:1]
    y.add_(1)
    ctx.mark_dirty(y)
    return y


DIRTY_FORWARDS = {"not returned": _marked_but_not_returned,
                  "not an input": _marked_a_fresh_tensor,
                  "a view not an input": _marked_a_fresh_view}


@pytest.mark.parametrize("requires_grad", [True, False])
@pytest.mark.parametrize("name", DIRTY_FORWARDS)
def test_mark_dirty_of_what_forward_did_not_take_or_return_as_torch(name, requires_grad):
    """PyTorch's checks of ctx.mark_dirty once forward has run: a tensor marked dirty but
    not returned is an error (recorded or not); one that was not an input a warning (an
    error for a view), only where the node is recorded."""
    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = lib.ones(2, requires_grad=True) * 1 if requires_grad else lib.ones(2)
            try:
                outcome = repr(_dirty_function(lib, DIRTY_FORWARDS[name]).apply(x))
            except RuntimeError as error:
                outcome = str(error)
        return outcome, [str(w.message).split(" (Triggered")[0] for w in caught]
    assert run(mg) == run(torch)
