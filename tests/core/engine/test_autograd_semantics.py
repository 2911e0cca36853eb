"""Autograd semantics, each checked against PyTorch 2.13 doing the same thing:
retain_graph, accumulation, retain_grad, hooks, errors, grad mode, leaves."""

import re
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg


def both(fn):
    """Run ``fn(lib)`` with minigrad and with torch; return both results."""
    return fn(mg), fn(torch)


def error_of(fn):
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - we compare whatever is raised
        return type(error).__name__, str(error)
    return None


def same_error(fn):
    """``fn(lib)`` raises the same exception type and text in both libraries."""
    ours, theirs = both(lambda lib: error_of(lambda: fn(lib)))
    assert theirs is not None, "torch did not raise: the test is wrong"
    assert ours == theirs


def test_second_backward_through_saved_values_fails_like_torch():
    def run(lib):
        x = lib.ones(2, 2, requires_grad=True)
        s = (x * 2).sum()
        s.backward()
        s.backward()
    same_error(run)


def test_second_backward_without_saved_values_is_allowed_like_torch():
    def run(lib):
        x = lib.ones(2, 2, requires_grad=True)
        s = (x + 2).sum()
        s.backward()
        s.backward()
        return x.grad.tolist()
    ours, theirs = both(run)
    assert ours == theirs == [[2.0, 2.0], [2.0, 2.0]]


def test_retain_graph_allows_a_second_backward():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * x
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        return x.grad.tolist()
    ours, theirs = both(run)
    assert ours == theirs == [4.0, 4.0]


def test_saved_tensors_are_freed_after_backward():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * x
        y.sum().backward()
        return y.grad_fn._saved_self
    same_error(run)


def test_implicit_gradient_only_for_one_element():
    same_error(lambda lib: (lib.ones(2, 2, requires_grad=True) * 2).backward())


def test_one_element_non_scalar_gets_implicit_gradient():
    def run(lib):
        x = lib.ones(1, 1, requires_grad=True)
        (x * 3).backward()
        return x.grad.tolist()
    ours, theirs = both(run)
    assert ours == theirs == [[3.0]]


@pytest.mark.parametrize("shape", [(3,), (2, 1), (4, 2)])
def test_gradient_shape_mismatch(shape):
    same_error(lambda lib: (lib.ones(2, 2, requires_grad=True) * 2).backward(lib.ones(*shape)))


def test_backward_on_tensor_without_grad():
    same_error(lambda lib: lib.ones(2).sum().backward())


def test_integer_tensor_cannot_require_grad():
    same_error(lambda lib: lib.ones(2, dtype=lib.long, requires_grad=True))
    same_error(lambda lib: lib.ones(2, dtype=lib.long).requires_grad_())
    same_error(lambda lib: lib.tensor([1, 2], requires_grad=True))


def test_requires_grad_false_on_non_leaf():
    same_error(lambda lib: (lib.ones(2, requires_grad=True) * 2).requires_grad_(False))


def test_inplace_on_leaf_that_requires_grad():
    same_error(lambda lib: lib.ones(2, requires_grad=True).add_(1))

    def augmented(lib):
        x = lib.ones(2, requires_grad=True)
        x += 1
    same_error(augmented)


def test_inplace_on_view_of_leaf():
    same_error(lambda lib: lib.ones(4, requires_grad=True)[1:].add_(1))


def test_inplace_under_no_grad_updates_parameters():
    def run(lib):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        (w * w).sum().backward()
        with lib.no_grad():
            w -= 0.1 * w.grad
            w.grad.zero_()
        return w.tolist(), w.grad.tolist(), w.requires_grad, w.is_leaf
    ours, theirs = both(run)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert ours[1:] == theirs[1:]


def test_modified_output_saved_for_backward():
    def run(lib):
        x = lib.ones(2, 2, requires_grad=True)
        e = (x * 1).exp()
        e.mul_(2)
        e.sum().backward()
    same_error(run)


def test_modified_leaf_saved_for_backward():
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        z = x * x
        with lib.no_grad():
            x.mul_(2)
        z.sum().backward()
    same_error(run)


def test_inplace_on_non_leaf_is_recorded():
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.add_(1)
        name = y.grad_fn.name()
        y.mul_(2)
        (y * y).sum().backward()
        return name, y.grad_fn.name(), x.grad.tolist()
    ours, theirs = both(run)
    assert ours == theirs


def test_gradients_accumulate_across_backward_calls():
    def run(lib):
        x = lib.tensor([1.0, -2.0], requires_grad=True)
        for _ in range(3):
            (x * x).sum().backward()
        return x.grad.tolist()
    ours, theirs = both(run)
    assert ours == theirs == [6.0, -12.0]


def test_seed_gradient_is_not_aliased_by_grad():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        g = lib.tensor([1.0, 2.0])
        (x + 2).backward(g)
        x.grad.zero_()
        return g.tolist()
    ours, theirs = both(run)
    assert ours == theirs == [1.0, 2.0]


def test_non_leaf_grad_warns_like_torch():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = y.grad
        return value, [(w.category, str(w.message)) for w in caught]
    (ours_value, ours_warn), (theirs_value, theirs_warn) = both(run)
    assert ours_value is None and theirs_value is None
    assert len(ours_warn) == len(theirs_warn) == 1
    assert ours_warn[0][0] is theirs_warn[0][0] is UserWarning
    # torch appends "(Triggered internally at <its C++ file>)"
    assert theirs_warn[0][1].startswith(ours_warn[0][1])


def test_retain_grad_keeps_non_leaf_gradients():
    def run(lib):
        x = lib.ones(2, 2, requires_grad=True)
        y = x * 2
        y.retain_grad()
        s = y.sum()
        s.retain_grad()
        s.backward()
        return (y.retains_grad, x.retains_grad, y.grad.tolist(), s.grad.item(),
                x.grad.tolist())
    ours, theirs = both(run)
    assert ours == theirs


def test_retained_gradients_accumulate():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        y.retain_grad()
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        return y.grad.tolist()
    ours, theirs = both(run)
    assert ours == theirs


def test_hooks_see_and_replace_gradients():
    def run(lib):
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: seen.append(("x", g.tolist())))
        y = x * 3
        y.register_hook(lambda g: g * 10)
        y.retain_grad()
        handle = y.register_hook(lambda g: seen.append(("y", g.tolist())))
        y.sum().backward(retain_graph=True)
        handle.remove()
        y.sum().backward()
        return seen, x.grad.tolist(), y.grad.tolist()
    ours, theirs = both(run)
    assert ours == theirs


def test_no_grad_results_are_leaves_and_modes_nest():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        out = []
        with lib.no_grad():
            y = x * 2
            out.append((y.requires_grad, y.is_leaf, lib.is_grad_enabled()))
            with lib.enable_grad():
                out.append(((x * 2).requires_grad, lib.is_grad_enabled()))
            out.append(lib.is_grad_enabled())
        out.append(lib.is_grad_enabled())
        with lib.set_grad_enabled(False):
            out.append((x * 2).requires_grad)
        out.append((x * 2).requires_grad)
        lib.set_grad_enabled(False)
        out.append(lib.is_grad_enabled())
        lib.set_grad_enabled(True)
        return out
    ours, theirs = both(run)
    assert ours == theirs


def test_grad_mode_decorators():
    def run(lib):
        x = lib.ones(2, requires_grad=True)

        @lib.no_grad()
        def double(t):
            return t * 2

        @lib.enable_grad()
        def triple(t):
            return t * 3

        @lib.set_grad_enabled(False)
        def quadruple(t):
            return t * 4

        with lib.no_grad():
            inner = triple(x).requires_grad
        return double(x).requires_grad, inner, quadruple(x).requires_grad, \
            lib.is_grad_enabled()
    ours, theirs = both(run)
    assert ours == theirs


def test_detach_and_data_share_memory_but_not_history():
    def run(lib):
        x = lib.ones(3, requires_grad=True)
        y = x * 2
        d = y.detach()
        d[0] = 7.0
        data = x.data
        with lib.no_grad():
            data.mul_(5)
        return (d.requires_grad, d.is_leaf, y.tolist(), x.tolist(), x.data.requires_grad)
    ours, theirs = both(run)
    assert ours == theirs


def test_detach_in_place():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        y.detach_()
        return y.requires_grad, y.is_leaf, y.grad_fn is None
    ours, theirs = both(run)
    assert ours == theirs


def test_requires_grad_property_on_leaves():
    def run(lib):
        a = lib.randn(2, 2)
        b = (a * 3) / (a - 1)
        before = b.requires_grad
        b.requires_grad = True
        c = (b * b).sum()
        return before, b.requires_grad, c.grad_fn.name(), b.is_leaf
    ours, theirs = both(run)
    assert ours == theirs


def test_grad_fn_repr_and_accumulate_grad():
    x = mg.ones(2, requires_grad=True)
    y = x + 2
    assert re.fullmatch(r"<AddBackward0 object at 0x[0-9a-f]+>", repr(y.grad_fn))
    accumulate, nr = y.grad_fn.next_functions[0]
    assert nr == 0 and accumulate.variable is x
    assert accumulate.name() == torch.ones(1, requires_grad=True).add(1).grad_fn \
        .next_functions[0][0].name()
    assert type(accumulate).__name__ == "AccumulateGrad"
    assert y.grad_fn.next_functions[1] == (None, 0)
    # the same leaf always reaches the graph through the same AccumulateGrad node
    assert (x * 3).grad_fn.next_functions[0][0] is accumulate


def test_accumulation_updates_the_existing_grad_tensor():
    def run(lib):
        p = lib.ones(2, requires_grad=True)
        (p * 2).sum().backward()
        kept = p.grad
        (p * 2).sum().backward()
        return kept is p.grad, kept.tolist()
    ours, theirs = both(run)
    assert ours == theirs == (True, [4.0, 4.0])
