"""What a node shows of the numbers it saved (``_saved_dim``, ``_saved_index``,
``_saved_start``, ``_saved_ord``, ``_saved_correction``, ...), compared with PyTorch 2.13
at test time: the arguments as the op was given them, a negative int as the unsigned
64-bit number C++ keeps (``x.sum(-1).grad_fn._saved_dim`` is 18446744073709551615),
dims in the order given, a slice without an end as the largest int64; and the
gradients, which use the wrapped values, stay torch's."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check

CALLS = {
    "max(-1)": lambda lib, x: x.max(-1).values,
    "max(1, keepdim=True)": lambda lib, x: x.max(1, keepdim=True).values,
    "min(-2)": lambda lib, x: x.min(-2).values,
    "prod(-1)": lambda lib, x: x.prod(-1), "prod(1)": lambda lib, x: x.prod(1),
    "logsumexp(-1)": lambda lib, x: x.logsumexp(-1),
    "logsumexp((0, -1))": lambda lib, x: x.logsumexp((0, -1)),
    "norm()": lambda lib, x: x.norm(), "norm(dim=-1)": lambda lib, x: x.norm(dim=-1),
    "norm(dim=(2, 0))": lambda lib, x: x.norm(dim=(2, 0)),
    "norm(p=1, dim=1)": lambda lib, x: x.norm(p=1, dim=1), "norm(2.0)": lambda lib, x: x.norm(2.0),
    "norm(p=3)": lambda lib, x: x.norm(p=3), "norm(inf)": lambda lib, x: x.norm(float("inf")),
    "norm('fro', dim=1)": lambda lib, x: x.norm("fro", dim=1),
    "norm(1, -1, True)": lambda lib, x: x.norm(1, -1, True),
    "var()": lambda lib, x: x.var(), "var(unbiased=False)": lambda lib, x: x.var(unbiased=False),
    "var(-1)": lambda lib, x: x.var(-1), "var((2, 0))": lambda lib, x: x.var((2, 0)),
    "var(-1, True)": lambda lib, x: x.var(-1, True),
    "var(correction=1)": lambda lib, x: x.var(correction=1),
    "var(-1, correction=0)": lambda lib, x: x.var(-1, correction=0),
    "var(0, False)": lambda lib, x: x.var(0, False), "var(False)": lambda lib, x: x.var(False),
    "std()": lambda lib, x: x.std(), "std(-1)": lambda lib, x: x.std(-1),
    "std(1, keepdim=True)": lambda lib, x: x.std(1, keepdim=True),
    "std(correction=2)": lambda lib, x: x.std(correction=2),
    "softmax(-1)": lambda lib, x: x.softmax(-1), "log_softmax(-2)": lambda lib, x: x.log_softmax(-2),
    "softmax(1)": lambda lib, x: x.softmax(1),
    "softmax(-1, dtype)": lambda lib, x: x.softmax(-1, dtype=lib.float64),
    "F.softmax(x, -1)": lambda lib, x: lib.nn.functional.softmax(x, -1),
    "cumsum(-1)": lambda lib, x: x.cumsum(-1), "cumprod(-2)": lambda lib, x: x.cumprod(-2),
    "unsqueeze(-1)": lambda lib, x: x.unsqueeze(-1),
    "squeeze(-1)": lambda lib, x: x[..., :1].squeeze(-1),
    "squeeze((0, -1))": lambda lib, x: x[:1, :, :1].squeeze((0, -1)),
    "transpose(-1, 0)": lambda lib, x: x.transpose(-1, 0), "mT": lambda lib, x: x.mT,
    "select(-1, -1)": lambda lib, x: x.select(-1, -1), "select(-1, 2)": lambda lib, x: x.select(-1, 2),
    "x[-1]": lambda lib, x: x[-1], "x[:, -2]": lambda lib, x: x[:, -2], "x[..., 1]": lambda lib, x: x[..., 1],
    "narrow(-1, -3, 2)": lambda lib, x: x.narrow(-1, -3, 2),
    "narrow(-1, 1, 2)": lambda lib, x: x.narrow(-1, 1, 2),
    "x[:, 1:]": lambda lib, x: x[:, 1:], "x[:, -2:]": lambda lib, x: x[:, -2:],
    "x[:, :-1]": lambda lib, x: x[:, :-1], "x[:, 1:10]": lambda lib, x: x[:, 1:10],
    "x[:, ::2]": lambda lib, x: x[:, ::2], "x[..., 1:3]": lambda lib, x: x[..., 1:3],
    "x[:, -10:2]": lambda lib, x: x[:, -10:2], "x[1:1]": lambda lib, x: x[1:1],
    "flip(-1)": lambda lib, x: x.flip(-1), "flip((0, -1))": lambda lib, x: x.flip((0, -1)),
    "cat(-1)": lambda lib, x: lib.cat([x, x], -1), "stack(-1)": lambda lib, x: lib.stack([x, x], -1),
    "permute(-1, 0, 1)": lambda lib, x: x.permute(-1, 0, 1),
    "transpose_(-1, 0)": lambda lib, x: (x * 1).transpose_(-1, 0),
    "unsqueeze_(-1)": lambda lib, x: (x * 1).unsqueeze_(-1),
    "squeeze_(-1)": lambda lib, x: (x[..., :1] * 1).squeeze_(-1),
    "squeeze_((0, -1))": lambda lib, x: (x[:1, :, :1] * 1).squeeze_((0, -1)),
    "sum(-1)": lambda lib, x: x.sum(-1), "mean((-1, 0))": lambda lib, x: x.mean((-1, 0)),
    "flatten(-2)": lambda lib, x: x.flatten(-2),
    "unbind(-1)": lambda lib, x: x.unbind(-1)[0], "split(2, -1)": lambda lib, x: x.split(2, -1)[0],
    # (a matrix product keeps an input's strides only for that input's gradient)
    "x[0] @ c": lambda lib, x: x[0] @ lib.ones(4, 2), "c @ x[0]": lambda lib, x: lib.ones(2, 3) @ x[0],
    "x[0] @ x[1].T": lambda lib, x: x[0] @ x[1].T,
    "linear(x[0], c, c)": lambda lib, x: lib.nn.functional.linear(x[0], lib.ones(2, 4), lib.ones(2)),
    "linear(c, x[0], c)": lambda lib, x: lib.nn.functional.linear(lib.ones(2, 4), x[0], lib.ones(3)),
    # (a loss's reduction as torch's enum: 0 'none', 1 'mean', 2 'sum')
    **{f"{loss}({reduction!r})": (lambda loss, reduction: lambda lib, x: getattr(
        lib.nn.functional, loss)(x, (x * 0 + 0.5).detach(), reduction=reduction))(loss, reduction)
       for loss in ("mse_loss", "binary_cross_entropy_with_logits")
       for reduction in ("none", "mean", "sum")},
}

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7 + 0.1


def _shown(node) -> dict:
    saved = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            saved[name] = "a tensor" if isinstance(value, (mg.Tensor, torch.Tensor)) else value
    return saved


@pytest.mark.parametrize("call", list(CALLS))
def test_saved_numbers_are_shown_as_torch_shows_them(call):
    ours = CALLS[call](mg, mg.tensor(X, requires_grad=True))
    theirs = CALLS[call](torch, torch.tensor(X, requires_grad=True))
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    assert _shown(ours.grad_fn) == _shown(theirs.grad_fn)


@pytest.mark.parametrize("call", list(CALLS))
def test_gradients_use_the_wrapped_numbers(call):
    check(lambda lib, x: CALLS[call](lib, x), X, rtol=1e-4, atol=1e-5)


def _cube_with_derivative(lib):
    """extending.rst's MyCube: (x ** 3, 3 * x ** 2), the second marked non-differentiable
    and saved for backward."""
    class MyCube(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x ** 3, 3 * x ** 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output[1])
            ctx.mark_non_differentiable(output[1])

        @staticmethod
        def backward(ctx, grad_output, grad_dx):
            x, dx = ctx.saved_tensors
            seen.append((dx.requires_grad, type(dx.grad_fn).__name__))
            return grad_output * dx

    seen = []
    return MyCube, seen


def test_a_saved_output_marked_non_differentiable_comes_back_without_a_graph():
    """PyTorch unpacks a saved output marked non-differentiable as a tensor without
    grad_fn (it was a leaf that needs no grad when saved), so a derivative through it is
    not recorded: the gradient of extending.rst's MyCube has no grad_fn, and gradgradcheck
    finds its second derivative zero."""
    results = []
    for lib in (mg, torch):
        MyCube, seen = _cube_with_derivative(lib)
        x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        grad, = lib.autograd.grad(MyCube.apply(x)[0].sum(), x, create_graph=True)
        try:
            lib.autograd.gradgradcheck(lambda t: MyCube.apply(t)[0], (x,))
            verdict = None
        except Exception as error:  # (the analytical second derivative: zeros)
            verdict = (type(error).__name__, str(error).split("analytical:")[1])
        results.append((grad.tolist(), grad.requires_grad, grad.grad_fn, seen[0], verdict))
    assert results[0] == results[1]
    assert results[1][3] == (False, "NoneType")


def _raw_saved_hooks(lib):
    """docs/source/notes/autograd.md, "Registering hooks for a saved tensor":
    ``y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)``: pack runs at
    once on a detached tensor, unpack at each reading and in backward; one pair only, none
    once freed; an output's handle (exp's result), unpack's wrong result, dir()."""
    lib.manual_seed(0)
    said = []
    x = lib.randn(3, requires_grad=True)
    y = x.pow(2)

    def pack_hook(t):
        said.append(("pack", t.requires_grad, t.grad_fn is None, t is x, repr(t)))
        return t * 2

    def unpack_hook(t):
        said.append(("unpack", repr(t)))
        return t / 2

    y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
    said.append(repr(y.grad_fn._saved_self))
    for call in (lambda: y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook),
                 lambda: y.grad_fn._raw_saved_exponent, lambda: x.sum(0).grad_fn._raw_saved_dim):
        try:
            call()
        except (RuntimeError, AttributeError) as error:
            said.append(f"{type(error).__name__}: {error}")
    said.append([name for name in dir(y.grad_fn) if "saved_" in name and name != "saved_values"])
    y.sum().backward()
    said.append(repr(x.grad))
    try:
        y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
    except RuntimeError as error:
        said.append(str(error))
    z = x.exp()
    z.grad_fn._raw_saved_result.register_hooks(lambda t: t.tolist(), lambda t: lib.tensor(t))
    said.append(repr(z.grad_fn._saved_result))
    z.sum().backward()
    said.append(repr(x.grad))
    w = x.sin()
    w.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: 5)
    try:
        w.sum().backward()
    except TypeError as error:
        said.append(str(error))
    return said


def test_raw_saved_tensor_hooks_as_torch():
    assert _raw_saved_hooks(mg) == _raw_saved_hooks(torch)
