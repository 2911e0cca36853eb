"""Dual tensors as a learner meets them (``torch.autograd.forward_ad``): levels and their
errors, ``make_dual``/``unpack_dual`` and their errors, how a dual tensor prints, in-place
ops on duals and on views of duals, grad mode, custom Functions' ``jvp``; each compared
with PyTorch live (a program run under both libraries, its outcome compared)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from printed_twins import same


# ---- levels ------------------------------------------------------------------------------

def test_make_dual_outside_a_level():
    said = same(lambda L: L.autograd.forward_ad.make_dual(L.ones(2), L.ones(2)))
    assert said.startswith("RuntimeError: Trying to create a dual Tensor")


def test_nested_levels_are_refused():
    def program(L):
        AD = L.autograd.forward_ad
        with AD.dual_level():
            with AD.dual_level():
                pass
    assert "Nested forward mode AD" in same(program)


def test_enter_and_exit_by_hand():
    def program(L):
        AD, said = L.autograd.forward_ad, []
        said.append(AD.enter_dual_level())
        for call in (lambda: AD.exit_dual_level(level=3), AD.exit_dual_level,
                     AD.exit_dual_level):
            try:
                said.append(call())
            except RuntimeError as error:
                said.append(str(error))
        return said
    assert same(program).count("not") >= 1


def test_tangents_end_with_their_level():
    def program(L):
        AD = L.autograd.forward_ad
        with AD.dual_level() as level:
            x = AD.make_dual(L.tensor([1., 2.]), L.tensor([3., 4.]))
            y = x * x
            inside = AD.unpack_dual(y)
        return level, inside, AD.unpack_dual(y), repr(y), type(inside).__name__
    assert "tangent=tensor([ 6., 16.])" in same(program)


# ---- make_dual and unpack_dual -------------------------------------------------------------

@pytest.mark.parametrize("primal,tangent", [
    ("ones(3)", "ones(2)"), ("ones(3, dtype=L.int64)", "ones(3)"),
    ("ones(3)", "ones(3, dtype=L.int64)"), ("ones(2, 2)", "ones(4)"),
])
def test_make_dual_errors(primal, tangent):
    def program(L):
        AD = L.autograd.forward_ad
        make = lambda text: eval("L." + text, {"L": L})  # noqa: E731
        with AD.dual_level():
            return AD.make_dual(make(primal), make(tangent))
    assert "Error" in same(program)


def test_make_dual_twice_and_at_another_level():
    def program(L):
        AD, said = L.autograd.forward_ad, []
        with AD.dual_level():
            x = AD.make_dual(L.ones(2), L.ones(2))
            for call in (lambda: AD.make_dual(x, L.ones(2)),
                         lambda: AD.make_dual(L.ones(2), L.ones(2), level=2)):
                try:
                    call()
                except RuntimeError as error:
                    said.append(str(error))
        return said
    assert "already has a forward gradient" in same(program)


def test_the_dual_is_a_view_and_the_tangent_is_kept_as_given():
    def program(L):
        AD = L.autograd.forward_ad
        p, t = L.randn(3, 3), L.randn(3, 3)
        with AD.dual_level():
            x = AD.make_dual(p, t)
            y = AD.make_dual(L.randn(3, 3), t.T)
            return (x is p, x._base is p, AD.unpack_dual(x).tangent is t,
                    AD.unpack_dual(x).primal is p, AD.unpack_dual(y).tangent is t.T,
                    AD.unpack_dual(p).tangent)
    assert same(program) == "(False, True, True, False, False, None)"


def test_unpack_of_a_non_tensor():
    def program(L):
        with L.autograd.forward_ad.dual_level():
            return L.autograd.forward_ad.unpack_dual(3)
    assert same(program).startswith("TypeError")


# ---- printing ----------------------------------------------------------------------------

@pytest.mark.parametrize("code", [
    "AD.make_dual(L.tensor([1., 2., 3.]), L.tensor([.5, .1, .2]))",
    "AD.make_dual(L.tensor(2.), L.tensor(3.))",
    "AD.make_dual(L.arange(6.).reshape(2, 3).double(), L.ones(2, 3, dtype=L.float64))",
    "AD.make_dual(L.ones(3, requires_grad=True), L.tensor([.5, .1, .2]))",
    "AD.make_dual(L.ones(3, requires_grad=True), L.tensor([.5, .1, .2])).exp()",
    "AD.make_dual(L.linspace(-3, 3, 12).reshape(3, 4), L.ones(3, 4)).sin()",
    "AD.unpack_dual(AD.make_dual(L.ones(2), L.ones(2)) * 3)",
])
def test_a_dual_tensor_prints_as_in_pytorch(code):
    def program(L):
        AD = L.autograd.forward_ad
        with AD.dual_level():
            value = eval(code, {"L": L, "AD": AD})
            return repr(value) + "\n" + str(value)
    assert "tangent" in same(program)


def test_grad_fn_of_a_dual_result():
    def program(L):
        AD = L.autograd.forward_ad
        with AD.dual_level():
            x = AD.make_dual(L.ones(2), L.ones(2))
            q = AD.make_dual(L.ones(2, requires_grad=True), L.ones(2))
            return (x * 2).grad_fn, type(q.grad_fn).__name__, (q * x).grad_fn.name()
    same(program)


# ---- tangents through the forward pass ---------------------------------------------------

def test_no_grad_and_detach():
    """Forward AD is not grad mode: no_grad keeps tangents; detach() drops them."""
    def program(L):
        AD = L.autograd.forward_ad
        with AD.dual_level():
            x = AD.make_dual(L.tensor([1., 2.]), L.tensor([1., -1.]))
            with L.no_grad():
                kept = AD.unpack_dual(x * 3).tangent
            return kept, AD.unpack_dual(x.detach()).tangent, AD.unpack_dual(x.long()), \
                AD.unpack_dual(x > 1).tangent, x.argmax()
    same(program)


def test_in_place_ops_on_duals_and_their_views():
    def program(L):
        AD, said = L.autograd.forward_ad, []
        with AD.dual_level():
            p = L.tensor([1., 2., 3.])
            x = AD.make_dual(p, L.tensor([.5, .1, .2]))
            y = x.clone()
            y.mul_(2)
            said.append(y)
            x.add_(1)
            said += [x, AD.unpack_dual(p).tangent, p]
            z = L.zeros(3)
            z[1:] = x[1:]
            said.append(z)
            w = L.zeros(2, 3)
            w[0].copy_(x)
            w[1].exp_()
            said.append(w)
            v = L.ones(3)
            v.mul_(x)
            said.append(v)
            u = x.clone().unsqueeze_(0).t_()
            said.append(u)
            return str(said)
    assert "tangent" in same(program)


def test_several_outputs_and_indices():
    def program(L):
        AD = L.autograd.forward_ad
        with AD.dual_level():
            x = AD.make_dual(L.tensor([[1., 5., 2.], [4., 0., 3.]]), L.arange(6.).reshape(2, 3))
            values, indices = x.max(dim=1)
            a, b = x.unbind(1)[:2]
            s, m = L.std_mean(x, dim=0)
            return str((values, indices, a, b, s, m, x.sort(1).values, x.topk(2).values))
    assert "tangent" in same(program)


# ---- custom Functions ----------------------------------------------------------------------

def test_custom_function_jvp():
    def program(L):
        AD, seen = L.autograd.forward_ad, []

        class Scale(L.autograd.Function):
            @staticmethod
            def forward(ctx, x, y, k):
                seen.append(AD.unpack_dual(x).tangent)  # (forward sees no tangent)
                ctx.k = k
                return x * y * k

            @staticmethod
            def jvp(ctx, x_t, y_t, k_t):
                seen.append((x_t, y_t, k_t))
                return x_t * 2 * ctx.k

        with AD.dual_level():
            x = AD.make_dual(L.tensor([1., 2.]), L.tensor([3., 4.]))
            out = Scale.apply(x, L.ones(2), 3.)
            return str((out, seen))

    same(program)


def test_custom_function_without_jvp():
    def program(L):
        class Twice(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

        AD = L.autograd.forward_ad
        with AD.dual_level():
            return Twice.apply(AD.make_dual(L.ones(2), L.ones(2)))
    assert same(program).startswith("NotImplementedError: You must implement the jvp")


# ---- a program: directional derivatives of a small network -----------------------------------

def test_directional_derivative_of_a_network_matches_pytorch_and_finite_differences():
    def program(L):
        L.manual_seed(0)
        AD = L.autograd.forward_ad
        net = L.nn.Sequential(L.nn.Linear(4, 8), L.nn.Tanh(), L.nn.Linear(8, 3),
                              L.nn.Softmax(dim=1)).double()
        x, t = L.randn(5, 4, dtype=L.float64), L.randn(5, 4, dtype=L.float64)
        with AD.dual_level():
            out = net(AD.make_dual(x, t))
            loss = L.nn.functional.cross_entropy(out, L.tensor([0, 1, 2, 1, 0]))
            _, jvp = AD.unpack_dual(loss)
        h = 1e-6
        with L.no_grad():
            diff = (L.nn.functional.cross_entropy(net(x + h * t), L.tensor([0, 1, 2, 1, 0]))
                    - L.nn.functional.cross_entropy(net(x - h * t), L.tensor([0, 1, 2, 1, 0])))
        return jvp.item(), (diff / (2 * h)).item()

    (mine_jvp, mine_fd), (theirs_jvp, _) = program(mg), program(torch)
    assert np.isclose(mine_jvp, theirs_jvp, rtol=1e-12)
    assert np.isclose(mine_jvp, mine_fd, rtol=1e-6)


def test_a_tangent_has_a_graph_where_pytorch_gives_it_one():
    """With a primal that requires grad, a tangent is recorded as PyTorch's formulas
    record it (an input without a tangent counting with a zero one): not for x + 1 or a
    view, but for exp(x), x @ W, x * w and a Linear layer's output."""
    def program(L):
        AD = L.autograd.forward_ad
        p, w = L.ones(2, requires_grad=True), L.ones(2, requires_grad=True)
        layer = L.nn.Linear(2, 3)
        with AD.dual_level():
            x = AD.make_dual(p, L.ones(2))
            z = AD.make_dual(L.ones(2), L.ones(2))
            results = [x + 1, x.sum(), x.view(2), -x, x[:1], x.exp(), x @ L.ones(2, 2), z * w,
                       z + w, layer(z)]
            return [AD.unpack_dual(r).tangent.requires_grad for r in results]
    assert same(program) == str([False] * 5 + [True] * 3 + [False, True])


def test_forward_gradient_descent_trains_as_in_pytorch():
    """Program level: "gradients without backpropagation": each step draws a random
    direction for the parameters, takes the loss's directional derivative along it with dual
    tensors (functional_call), and steps along direction * derivative."""
    def program(L):
        L.manual_seed(0)
        AD, F = L.autograd.forward_ad, L.nn.functional
        model = L.nn.Sequential(L.nn.Linear(3, 8), L.nn.Tanh(), L.nn.Linear(8, 2))
        params = {k: v.detach() for k, v in model.named_parameters()}
        x, y = L.randn(16, 3), L.randint(0, 2, (16,))
        losses = []
        for _ in range(6):
            directions = {k: L.randn_like(v) for k, v in params.items()}
            with AD.dual_level():
                duals = {k: AD.make_dual(v, directions[k]) for k, v in params.items()}
                loss = F.cross_entropy(L.func.functional_call(model, duals, (x,)), y)
                value, slope = AD.unpack_dual(loss)
            params = {k: v - 0.1 * slope * directions[k] for k, v in params.items()}
            losses.append(value)
        return L.stack(losses), params["2.weight"]

    mine, theirs = program(mg), program(torch)
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_the_gradient_of_a_tangent_reverse_over_forward():
    def program(L):
        AD = L.autograd.forward_ad
        x = L.tensor([0.5, 1.0, -2.0], requires_grad=True)
        w = L.tensor([1.5, -1.0, 0.25], requires_grad=True)
        with AD.dual_level():
            d = AD.make_dual(x, L.tensor([1., 2., 3.]))
            t = AD.unpack_dual(((d.sin() * w).exp() @ w).tanh()).tangent
            t.backward()
            return x.grad, w.grad, t
    same(program)


def test_plain_backward_inside_a_level_and_forward_over_reverse():
    """A plain backward from a dual loss gives PyTorch's gradients; a recorded one
    (create_graph=True, forward over reverse) is refused, saying what to use instead."""
    def program(L):
        AD = L.autograd.forward_ad
        w = L.tensor([0.5, -1.0], requires_grad=True)
        with AD.dual_level():
            d = AD.make_dual(w, L.ones(2))
            (d.exp() * d).sum().backward()
        return w.grad
    same(program)
    with mg.autograd.forward_ad.dual_level():
        d = mg.autograd.forward_ad.make_dual(mg.ones(2, requires_grad=True), mg.ones(2))
        with pytest.raises(NotImplementedError, match="torch.func.jvp"):
            mg.autograd.grad(d.exp().sum(), d, create_graph=True)
