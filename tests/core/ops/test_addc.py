"""ops/special.py's addcmul and addcdiv against PyTorch 2.13 and finite differences: the
function, the method and the in-place method, ``value=``, ``out=``; values bit for bit
(PyTorch's kernel computes ``self + value * t1 * t2`` with its last multiply and the add
fused, and ``self + value * t1 / t2`` step by step), broadcasting, dtypes (integers, bool,
mixed, float16), AddcmulBackward0 and AddcdivBackward0 with their gradients, the errors,
and Adam written by hand with them, step for step against torch's."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_numerical, outcome, rand
from transcripts import assert_same

A = rand((3, 4), seed=1)
B = rand((3, 4), seed=2)
C = rand((3, 4), seed=3, low=0.5, high=2.0) * np.where(rand((3, 4), seed=4) > 0, 1, -1)

CASES = {
    "addcmul": lambda lib, a, b, c: lib.addcmul(a, b, c),
    "addcmul value": lambda lib, a, b, c: lib.addcmul(a, b, c, value=-0.37),
    "addcmul method": lambda lib, a, b, c: a.addcmul(b, c, value=3),
    "addcmul broadcast": lambda lib, a, b, c: lib.addcmul(a[:1], b[:, :1], c, value=0.5),
    "addcdiv": lambda lib, a, b, c: lib.addcdiv(a, b, c),
    "addcdiv value": lambda lib, a, b, c: lib.addcdiv(a, b, c, value=-0.001),
    "addcdiv method": lambda lib, a, b, c: a.addcdiv(b, c, value=2.5),
    "addcdiv broadcast": lambda lib, a, b, c: lib.addcdiv(a[0], b[:, :1], c, value=0.5),
    "addcdiv of results": lambda lib, a, b, c: lib.addcdiv(a * 2, b * b, c.abs() + 1),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_values_bit_for_bit_graphs_and_gradients(name, dtype):
    check(CASES[name], A.astype(dtype), B.astype(dtype), C.astype(dtype), rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda a, b, c: CASES[name](mg, a, b, c), A, B, C)


@pytest.mark.parametrize("grads", [(True, False, True), (False, True, False), (False, False, True)])
@pytest.mark.parametrize("name", ["addcmul value", "addcdiv value"])
def test_only_the_inputs_that_require_grad(name, grads):
    check(CASES[name], A, B, C, requires_grad=list(grads), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
def test_the_last_bits_are_torchs_on_many_elements(op, dtype):
    """50,000 elements (the vectorised loop and its tail): every bit the same."""
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal(50_003).astype(dtype) for _ in range(3)]
    upstream = rng.standard_normal(50_003).astype(dtype)
    results = []
    for lib in (mg, torch):
        inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
        y = getattr(lib, op)(*inputs, value=0.123)
        y.backward(lib.tensor(upstream))
        results.append([y.detach().numpy()] + [x.grad.numpy() for x in inputs])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


def test_double_backward():
    def fn(lib, a, b, c):
        y = lib.addcdiv(a, b, c, value=0.7) + lib.addcmul(a, b, c, value=-2)
        (g,) = lib.autograd.grad(y.sum(), c, create_graph=True)
        return g
    check(fn, A.astype("float64"), B.astype("float64"), C.astype("float64"))


PROGRAMS = [
    # dtypes: integers (the value cast to them), mixed, bool, float16
    "i = torch.tensor([1, -2, 3])\nshow(torch.addcmul(i, i, i, value=2), torch.addcmul(i, i, i, value=2.7))",
    "i = torch.tensor([1, -2, 3])\nf = torch.tensor([0.5, 1.5, 2.0])\n"
    "show(torch.addcmul(i, f, i), torch.addcmul(f, f.double(), f), torch.addcdiv(i, f, f))",
    "f = torch.tensor([0.5, 1.5])\nshow(torch.addcmul(f, torch.tensor(2.0, dtype=torch.float64), f))",
    "i = torch.tensor([1, -2, 3])\ntorch.addcdiv(i, i, i)",
    "i = torch.tensor([1, -2, 3])\nf = torch.tensor([0.5, 1.5, 2.0])\ntorch.addcdiv(f, i, i)",
    "b = torch.tensor([True, False])\ntorch.addcmul(b, b, b)",
    "b = torch.tensor([True, False])\nf = torch.tensor([0.5, 1.5])\n"
    "show(torch.addcmul(f, b, b), torch.addcdiv(b, f, f))",
    "b = torch.tensor([True, False])\ntorch.addcdiv(torch.ones(2), b, b)",
    "h = torch.tensor([1.0, 0.3, -2.5, 1000.0], dtype=torch.float16)\n"
    "show(torch.addcmul(h, h * 3, h, value=0.1), torch.addcdiv(h, h * 3, h + 1, value=-0.3))",
    "x = torch.tensor([0.0, float('inf'), float('nan'), 1.0])\n"
    "show(torch.addcmul(x, x, x.flip(0)), torch.addcdiv(x, x, x.flip(0) - 1))",
    # printing and graphs
    "x = torch.tensor([[0.25, -1.5], [2.0, 0.125]], requires_grad=True)\n"
    "y = torch.addcmul(x, x.exp(), x, value=0.5)\nshow(y)\ngfn(y)\ny.sum().backward()\nshow(x.grad)",
    "x = torch.tensor([0.25, -1.5], requires_grad=True)\ny = x.addcdiv(x * 2, x.cos(), value=-1)\n"
    "show(y)\ngfn(y)\ny.sum().backward()\nshow(x.grad)",
    # in place
    "a = torch.tensor([0.5, -0.25], requires_grad=True)\nx = a * 1\nx.addcmul_(a, a, value=0.5)\n"
    "x.addcdiv_(a, a + 2)\nshow(x)\ngfn(x)\nx.sum().backward()\nshow(a.grad)",
    "x = torch.ones(3)\nx.addcmul_(torch.ones(2, 3), x)",
    "i = torch.tensor([1, 2])\ni.addcmul_(torch.ones(2), torch.ones(2))",
    "i = torch.tensor([1, 2])\ni.addcmul_(i, i, value=3)\nshow(i)",
    "a = torch.tensor([0.5], requires_grad=True)\na.addcmul_(a, a)",
    # out=
    "x = torch.tensor([0.5, 2.0])\ny = torch.empty(2, dtype=torch.float64)\n"
    "torch.addcmul(x, x, x, value=2, out=y)\nshow(y)\ntorch.addcdiv(x, x, x + 1, out=y)\nshow(y)",
    "x = torch.tensor([0.5, 2.0], requires_grad=True)\ntorch.addcmul(x, x, x, out=torch.empty(2))",
    "x = torch.tensor([0.5, 2.0])\ntorch.addcmul(x, x, x, out=torch.empty(2, dtype=torch.long))",
    # wrong arguments: PyTorch's texts
    "x = torch.ones(3)\ntorch.addcmul(x, x, torch.ones(2))",
    "x = torch.ones(3)\ntorch.addcdiv(torch.ones(2, 1), x, torch.ones(2))",
    "x = torch.ones(3)\ntorch.addcmul(x, x, 2)", "x = torch.ones(3)\ntorch.addcmul(x, x, x, 2)",
    "x = torch.ones(3)\ntorch.addcmul([1.0], x, x)", "x = torch.ones(3)\ntorch.addcmul(x, tensor1=x, tensor2=3)",
    "x = torch.ones(3)\ntorch.addcmul(x, x, x, value='a')", "x = torch.ones(3)\ntorch.addcdiv(x, x, x, value=None)",
    "x = torch.ones(3)\nx.addcmul(x, 2)", "x = torch.ones(3)\nx.addcdiv(x, [1.0])",
    "x = torch.ones(3)\nx.addcmul(x, x, 2)", "x = torch.ones(3)\nx.addcmul_(x, x, value='a')",
    "x = torch.ones(3)\nshow(torch.addcmul(x, x, x, value=torch.tensor(2.0)), torch.addcdiv(x, x, x, value=True))",
    "x = torch.ones(3)\ntorch.addcmul(x, x, x, foo=1)",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_programs_print_and_fail_as_torch(src):
    assert_same(src)


def test_adam_written_by_hand_steps_as_torchs_optimizer():
    """The tutorials' Adam (exp_avg.lerp_, exp_avg_sq.mul_().addcmul_, p.addcdiv_) trains
    a small model step for step as torch.optim.Adam does; its weights bit for bit."""
    rng = np.random.default_rng(0)
    data, target = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    w0 = rng.standard_normal(5).astype(np.float32)

    def train(lib):
        w = lib.tensor(w0.copy(), requires_grad=True)
        x, y = lib.tensor(data, dtype=lib.float32), lib.tensor(target, dtype=lib.float32)
        m, v = lib.zeros_like(w), lib.zeros_like(w)
        beta1, beta2, lr, eps = 0.9, 0.999, 0.01, 1e-8
        for step in range(1, 21):
            loss = ((x * w - y) ** 2).sum(0)  # (one loss per weight)
            w.grad = None
            loss.backward(lib.ones_like(loss))
            with lib.no_grad():
                m.mul_(beta1).add_(w.grad, alpha=1 - beta1)
                v.mul_(beta2).addcmul_(w.grad, w.grad, value=1 - beta2)
                denom = (v / (1 - beta2 ** step)).sqrt().add_(eps)
                w.addcdiv_(m, denom, value=-lr / (1 - beta1 ** step))
        return w.detach().numpy(), loss.detach().numpy()

    (ours, our_loss), (theirs, their_loss) = train(mg), train(torch)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(our_loss, their_loss)


@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
def test_shapes_are_checked_before_the_bool_kernel_and_after_the_integer_division(name):
    """torch's order: addcdiv's integer-division error, the shapes, then no bool kernel
    (a random program met bool tensors of shapes (2, 0) and (2, 3))."""
    from torch_compare import outcome
    for shapes in [((2, 0), (2, 0), (2, 3)), ((2, 3), (2, 3), (3, 3)), ((2, 3),) * 3]:
        for dtype in ["bool", "int64", "float32"]:
            def call(lib, shapes=shapes, dtype=dtype):
                ts = [lib.zeros(s, dtype=getattr(lib, dtype)) for s in shapes]
                return getattr(lib, name)(*ts, value=2)
            assert outcome(call, mg) == outcome(call, torch)


def test_float64_addcmul_keeps_a_negative_zero_as_torch():
    """(random program 538312: a float64 -0. plus -0. times a positive float32 printed 0.)"""
    for dtype in ("float64", "float32"):
        def call(lib, dtype=dtype):
            a = lib.tensor([[-0.0, 0.0, -0.0, 1.5]], dtype=getattr(lib, dtype))
            b = lib.tensor([[0.5], [-0.5]])
            return lib.addcmul(a, a, b, value=0.5), (a * 1).addcmul_(a, b[:1], value=-2)
        assert outcome(call, mg) == outcome(call, torch)
