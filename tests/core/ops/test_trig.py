"""ops/trig.py and ops/special.py against PyTorch 2.13 and finite differences: tan, asin,
acos, atan, atan2, sinh, cosh, asinh, acosh, atanh, hypot, sinc, deg2rad, rad2deg, erf,
erfc, erfinv, exp2, logit, xlogy, entr, lerp, logaddexp, logaddexp2, copysign, nextafter,
float_power, heaviside and ``torch.special``: values in float32 and float64, node names
and graphs, gradients, integer and bool inputs, the in-place variants, ``out=``, the
errors, a small training program; and how often the last bit differs from PyTorch's
CPU kernels, forward and backward (the README's figures)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import chain, check, check_bits, check_numerical, outcome, rand
from transcripts import assert_same

ANY = rand((3, 4), seed=1, low=-3.0, high=3.0, away_from=[0], gap=0.05)
UNIT = rand((3, 4), seed=2, low=-0.95, high=0.95)
PROBABILITY = rand((3, 4), seed=3, low=0.02, high=0.98)
ABOVE_ONE = rand((3, 4), seed=4, low=1.05, high=6.0)
POSITIVE = rand((3, 4), seed=5, low=0.1, high=4.0)
OTHER = rand((3, 4), seed=6, low=-3.0, high=3.0, away_from=[0], gap=0.05)

UNARY = {  # name: (function, input)
    "tan": (lambda lib, x: lib.tan(x), UNIT),
    "tan method": (lambda lib, x: (x * 1.3).tan(), UNIT),
    "asin": (lambda lib, x: lib.asin(x), UNIT),
    "arcsin": (lambda lib, x: lib.arcsin(x), UNIT),
    "acos": (lambda lib, x: x.acos(), UNIT),
    "atan": (lambda lib, x: lib.atan(x), ANY),
    "arctan method": (lambda lib, x: x.arctan(), ANY),
    "sinh": (lambda lib, x: lib.sinh(x), ANY),
    "cosh": (lambda lib, x: x.cosh(), ANY),
    "asinh": (lambda lib, x: lib.asinh(x), ANY),
    "acosh": (lambda lib, x: lib.acosh(x), ABOVE_ONE),
    "arccosh method": (lambda lib, x: x.arccosh(), ABOVE_ONE),
    "atanh": (lambda lib, x: lib.atanh(x), UNIT),
    "sinc": (lambda lib, x: lib.sinc(x), ANY),
    "deg2rad": (lambda lib, x: lib.deg2rad(x * 90), ANY),
    "rad2deg": (lambda lib, x: x.rad2deg(), ANY),
    "angle": (lambda lib, x: lib.angle(x) * x, ANY),
    "erf": (lambda lib, x: lib.erf(x), ANY),
    "erfc": (lambda lib, x: x.erfc(), ANY),
    "erfinv": (lambda lib, x: lib.erfinv(x), UNIT),
    "exp2": (lambda lib, x: lib.exp2(x), ANY),
    "logit": (lambda lib, x: lib.logit(x), PROBABILITY),
    "logit eps": (lambda lib, x: x.logit(eps=0.2), PROBABILITY),
    "logit outside": (lambda lib, x: lib.logit(x), UNIT),
    "entr": (lambda lib, x: lib.special.entr(x), POSITIVE),
    "expit": (lambda lib, x: lib.special.expit(x), ANY),
    "ndtr": (lambda lib, x: lib.special.ndtr(x), ANY),
    "special.erf": (lambda lib, x: lib.special.erf(x) + lib.special.erfc(x), ANY),
    "special.logit": (lambda lib, x: lib.special.logit(x, eps=0.1), PROBABILITY),
    "special.sinc": (lambda lib, x: lib.special.sinc(x), ANY),
    "special.exp2": (lambda lib, x: lib.special.exp2(x) * lib.special.expm1(x), ANY),
    "special.log1p": (lambda lib, x: lib.special.log1p(x), POSITIVE),
    "special.round": (lambda lib, x: lib.special.round(x) * x, ANY),
    "special.softmax": (lambda lib, x: lib.special.softmax(x, 1), ANY),
    "special.log_softmax": (lambda lib, x: lib.special.log_softmax(x, dim=0), ANY),
    "special.logsumexp": (lambda lib, x: lib.special.logsumexp(x, 1), ANY),
    "special.erfinv": (lambda lib, x: lib.special.erfinv(x), UNIT),
    "float_power number": (lambda lib, x: lib.float_power(x, 2), ANY),
    "float_power of a number": (lambda lib, x: lib.float_power(2, x), ANY),
    "xlogy number": (lambda lib, x: lib.xlogy(x, 3.0), ANY),
    "xlogy number first": (lambda lib, x: lib.xlogy(2, x), POSITIVE),
    "special.xlog1py number": (lambda lib, x: lib.special.xlog1py(x, 3.0), ANY),
    "special.xlog1py number first": (lambda lib, x: lib.special.xlog1py(2, x), POSITIVE),
    "special.xlog1py number below -1": (lambda lib, x: lib.special.xlog1py(x * (x > 0), -1.5),
                                        ANY),
    "copysign number": (lambda lib, x: lib.copysign(x, -1.0), ANY),
    "copysign method": (lambda lib, x: x.copysign(2), ANY),
    "lerp number weight": (lambda lib, x: lib.lerp(x, x * x, 0.3), ANY),
    "lerp big weight": (lambda lib, x: x.lerp(x.sin(), 0.8), ANY),
    "neg": (lambda lib, x: lib.neg(x), ANY),
    "reciprocal": (lambda lib, x: x.reciprocal(), ANY),
    "sgn": (lambda lib, x: x.sgn() * x, ANY),
    "remainder": (lambda lib, x: lib.remainder(x, 0.7), ANY),
    "fmod": (lambda lib, x: x.fmod(-0.7), ANY),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(UNARY))
def test_unary_values_graphs_and_gradients(name, dtype):
    fn, x = UNARY[name]
    ours, theirs = check(fn, x.astype(dtype))
    assert chain(ours) == chain(theirs)


BINARY = {
    "atan2": lambda lib, a, b: lib.atan2(a, b),
    "arctan2": lambda lib, a, b: lib.arctan2(a, b),
    "atan2 method, broadcast": lambda lib, a, b: a.atan2(b[:1]),
    "hypot": lambda lib, a, b: lib.hypot(a, b),
    "hypot method": lambda lib, a, b: a.hypot(b[:, :1]),
    "logaddexp": lambda lib, a, b: lib.logaddexp(a, b),
    "logaddexp2": lambda lib, a, b: a.logaddexp2(b),
    "xlogy": lambda lib, a, b: lib.xlogy(a, b.abs()),
    "special.xlogy": lambda lib, a, b: lib.special.xlogy(a, b * b),
    "special.xlog1py": lambda lib, a, b: lib.special.xlog1py(a, b.abs() - 0.5),
    "special.xlog1py at -1": lambda lib, a, b: lib.special.xlog1py(a * (a > 0), b.clamp(-1, 1)),
    "copysign": lambda lib, a, b: lib.copysign(a, b),
    "nextafter": lambda lib, a, b: lib.nextafter(a, b),
    "nextafter method, broadcast": lambda lib, a, b: a.nextafter(b[:1]),
    "float_power": lambda lib, a, b: lib.float_power(a.abs(), b),
    "lerp tensor weight": lambda lib, a, b: lib.lerp(a, b, a.sigmoid()),
    "lerp method, broadcast": lambda lib, a, b: a.lerp(b[:1], b.cos()),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(BINARY))
def test_binary_values_graphs_and_gradients(name, dtype):
    ours, theirs = check(BINARY[name], ANY.astype(dtype), OTHER.astype(dtype))
    assert chain(ours) == chain(theirs)


@pytest.mark.parametrize("name", [n for n in UNARY if not n.startswith("special.")
                                  and n not in ("logit outside", "sgn")])
def test_unary_gradients_against_finite_differences(name):
    fn, x = UNARY[name]
    check_numerical(lambda x: fn(mg, x), x)


@pytest.mark.parametrize("name", [n for n in BINARY if n != "special.xlog1py at -1"])
def test_binary_gradients_against_finite_differences(name):  # (log1p's pole: not smooth)
    check_numerical(lambda a, b: BINARY[name](mg, a, b), ANY, OTHER)


def test_second_derivatives_follow_torch():
    """create_graph=True: the backward formulas are recorded with PyTorch's nodes."""
    for fn in (lambda lib, x: lib.tan(x), lambda lib, x: lib.asin(x * 0.5),
               lambda lib, x: lib.erf(x), lambda lib, x: lib.atan2(x, x * x + 1),
               lambda lib, x: lib.logit(x.sigmoid()), lambda lib, x: lib.hypot(x, x + 2)):
        xs = [lib.tensor(ANY, requires_grad=True) for lib in (mg, torch)]
        firsts = [lib.autograd.grad(fn(lib, x).sum(), x, create_graph=True)[0]
                  for lib, x in zip((mg, torch), xs)]
        assert type(firsts[0].grad_fn).__name__ == type(firsts[1].grad_fn).__name__
        seconds = [lib.autograd.grad(g.sum(), x)[0] for lib, g, x in zip((mg, torch), firsts, xs)]
        np.testing.assert_allclose(seconds[0].numpy(), seconds[1].numpy(), rtol=1e-4, atol=1e-5)


def test_angle_of_real_numbers_follows_torch():
    """angle of a real tensor: pi for negative numbers, nan for nan, else 0 (-0.0 too);
    integers and bools give float32, a half stays half; its gradient is zero."""
    for values, dtype in [([-1.5, 0.0, -0.0, 2.0, float("nan"), -float("inf")], "float32"),
                          ([-1.5, 2.0], "float64"), ([-1.5, 2.0], "float16"),
                          ([-3, 0, 2], "int64"), ([True, False], "bool"), (-2.0, "float32")]:
        results = []
        for lib in (mg, torch):
            x = lib.tensor(values, dtype=getattr(lib, dtype))
            y = x.angle()
            results.append((repr(y), y.dtype is getattr(lib, y.dtype.__repr__().split(".")[-1]),
                            tuple(y.shape), repr(lib.angle(x, out=lib.empty(0, dtype=y.dtype)))))
        assert results[0][0].replace("minigrad", "torch") == results[1][0]
        assert results[0][2:] == results[1][2:]
    grads = []
    for lib in (mg, torch):
        x = lib.tensor([[-1.0, 2.0], [3.0, -4.0]], requires_grad=True)
        y = x.t().angle()
        (y * x).sum().backward()
        grads.append((x.grad.tolist(), type(y.grad_fn).__name__, y.stride(), x.layout == lib.strided,
                      x.dtype.is_complex, x.is_sparse, x.is_quantized, x.is_meta, x.is_pinned()))
    assert grads[0] == grads[1]


LINES = [
    # nextafter: one float further, floats only, other's gradient 0
    "a = torch.tensor([1., 2., 0., -0., float('inf'), float('nan'), 3.], requires_grad=True)\n"
    "o = torch.tensor([2., 1., 1., -1., 0., 1., 3.], requires_grad=True)\n"
    "r = torch.nextafter(a, o)\n(r * torch.arange(7.)).sum().backward()\nshow(r, a.grad, o.grad)\n"
    "h = torch.zeros(2, dtype=torch.float16)\nshow(torch.nextafter(h, h + 1), torch.nextafter(h.double(), h))\n"
    "b = torch.tensor([1., 2.])\nb.nextafter_(torch.tensor(0.))\nshow(b, torch.nextafter(torch.zeros(2, 1), torch.ones(3)))",
    "torch.nextafter(torch.tensor([1, 2]), torch.tensor([2, 1]))",
    "torch.nextafter(torch.tensor([True]), torch.tensor([False]))",
    "torch.nextafter(torch.tensor([1.]), 2.)",
    "torch.nextafter(torch.zeros(2), torch.ones(3))",
    # integers and bools give float32; the two-operand ones promote first
    "i = torch.tensor([1, 0, -2])\nb = torch.tensor([True, False, True])\n"
    "show(torch.tan(i), torch.asin(b), torch.acos(i), torch.atan(i), torch.sinh(b), torch.cosh(i))\n"
    "show(torch.asinh(i), torch.acosh(b), torch.atanh(i), torch.erf(i), torch.erfc(b), torch.erfinv(i))\n"
    "show(torch.exp2(i), torch.logit(b), torch.sinc(i), torch.deg2rad(i), torch.rad2deg(b))\n"
    "show(torch.atan2(i, i), torch.atan2(b, b), torch.xlogy(i, i), torch.xlogy(b, b), torch.copysign(i, -1))\n"
    "show(torch.float_power(i, 2), torch.special.entr(i), torch.special.entr(b), torch.special.expit(i))\n"
    "show(torch.special.ndtr(i), torch.heaviside(i, i), torch.heaviside(b, b), torch.sgn(i), torch.neg(i))",
    "i = torch.tensor([1, 0, -2])\nx = torch.tensor([0.5])\nshow(torch.hypot(i, x), torch.logaddexp(i, x), torch.atan2(i, x.double()))",
    "i = torch.tensor([1, 0, -2])\ntorch.hypot(i, i)",
    "b = torch.tensor([True])\ntorch.hypot(b, b)",
    "i = torch.tensor([1, 0, -2])\ntorch.logaddexp(i, i)",
    "i = torch.tensor([1, 0, -2])\ntorch.logaddexp2(i, i)",
    "i = torch.tensor([1, 0, -2])\ntorch.lerp(i, i, 0.5)",
    "i = torch.tensor([1, 0, -2])\ntorch.lerp(i, i, i)",
    "b = torch.tensor([True])\n-b",
    # special values: infinities, NaN, the ends of the domains, signed zeros
    "x = torch.tensor([0.0, -0.0, 1.0, -1.0, 2.0, float('inf'), -float('inf'), float('nan')])\n"
    "show(x.tan(), x.asin(), x.acos(), x.atan(), x.sinh(), x.cosh(), x.asinh(), x.acosh(), x.atanh())\n"
    "show(x.erf(), x.erfc(), x.erfinv(), x.exp2(), x.logit(), x.sinc(), x.deg2rad(), x.rad2deg())\n"
    "show(torch.atan2(x, x.flip(0)), torch.hypot(x, x), torch.logaddexp(x, x), torch.logaddexp2(x, x.flip(0)))\n"
    "show(torch.xlogy(x, x), torch.xlogy(x.flip(0), x), torch.copysign(x, x.flip(0)), torch.special.entr(x))\n"
    "show(torch.heaviside(x, torch.tensor(0.5)), torch.lerp(x, x.flip(0), 0.25), torch.float_power(x, -1))",
    "h = torch.tensor([0.3, -0.7, 0.999, 2.5, 0.0], dtype=torch.float16)\n"
    "show(h.erfinv(), h.sinc(), h.logit(), h.tan(), h.erf(), h.exp2(), h.atan(), h.asinh(), torch.lerp(h, h * 3, 0.3))\n"
    "show(torch.logaddexp(h, h * 3), torch.xlogy(h, h.abs()), torch.special.entr(h), torch.atan2(h, h + 1), torch.hypot(h, h))",
    "x = torch.tensor([0.0, 0.5, 1.0, -0.1, 1.1], requires_grad=True)\ny = torch.logit(x)\ny.sum().backward()\nshow(y, x.grad)",
    "x = torch.tensor([0.0, 0.5, 1.0, -0.1, 1.1], requires_grad=True)\ny = torch.logit(x, eps=0.2)\ny.sum().backward()\nshow(y, x.grad)",
    "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\ny = torch.xlogy(x, torch.tensor([0.0, 0.0, 3.0]))\ny.sum().backward()\nshow(y, x.grad)",
    "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\ny = torch.copysign(x, -1.0)\ny.sum().backward()\nshow(y, x.grad)",
    "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\ny = torch.sinc(x)\ny.sum().backward()\nshow(y, x.grad)",
    "x = torch.tensor([0.0, 1.0, 0.0], requires_grad=True)\ny = torch.xlogy(x, -1.0)\ny.sum().backward()\nshow(y, x.grad)",
    # printing and graphs
    "x = torch.tensor([[0.25, -1.5], [2.0, 0.125]], requires_grad=True)\n"
    "y = torch.atan2(x.tan(), x.cosh()) + torch.hypot(x, x.erf()) * x.logaddexp(x.exp2())\nshow(y)\ngfn(y)",
    "x = torch.tensor([0.25, -1.5], requires_grad=True)\ny = torch.float_power(x, torch.tensor([2.0, 3.0]))\nshow(y)\ngfn(y)",
    "x = torch.tensor([0.25, -1.5], requires_grad=True)\ny = torch.special.ndtr(x) * torch.special.expit(x)\nshow(y)\ngfn(y)",
    "x = torch.tensor([0.25, -1.5], requires_grad=True)\ny = torch.heaviside(x, torch.tensor([0.5, 0.5]))\nshow(y)\ngfn(y)\ny.sum().backward()",
    "x = torch.tensor([0.25, -1.5], requires_grad=True)\nw = torch.tensor(0.5, requires_grad=True)\n"
    "y = torch.lerp(x, x * 2, w)\nshow(y)\ngfn(y)\ny.sum().backward()\nshow(w.grad, x.grad)",
    # wrong arguments: PyTorch's texts
    "x = torch.tensor([1.0])\ntorch.atan2(x, 2.0)", "x = torch.tensor([1.0])\nx.atan2(2)",
    "x = torch.tensor([1.0])\ntorch.arctan2(x, 2.0)", "x = torch.tensor([1.0])\nx.arctan2_(2.0)",
    "x = torch.tensor([1.0])\ntorch.hypot(x, 2.0)", "x = torch.tensor([1.0])\nx.hypot_(2.0)",
    "x = torch.tensor([1.0])\ntorch.logaddexp(x, 2.0)", "x = torch.tensor([1.0])\nx.logaddexp2(2.0)",
    "x = torch.tensor([1.0])\nx.heaviside(2.0)", "x = torch.tensor([1.0])\ntorch.heaviside(x, 0.5)",
    "x = torch.tensor([1.0])\ntorch.heaviside(x, torch.tensor([1.0], dtype=torch.float64))",
    "x = torch.tensor([1.0])\ntorch.lerp(x, x.double(), 0.5)",
    "x = torch.tensor([1.0])\ntorch.lerp(x, x, x.double())",
    "x = torch.tensor([1.0])\nshow(torch.lerp(x, x * 3, torch.tensor(0.5, dtype=torch.float64)))",
    "x = torch.tensor([1.0])\nx.float_power_(2)",
    "x = torch.tensor([1.0, 2.0])\ntorch.atan2(x, torch.ones(3))",
    "x = torch.tensor([1.0, 2.0])\ntorch.lerp(x, torch.ones(3), 0.5)",
    "x = torch.tensor([1.0])\ntorch.lerp(x, 2.0, 0.5)", "x = torch.tensor([1.0])\nx.lerp(2.0, 0.5)",
    "x = torch.tensor([1.0])\ntorch.lerp(x, x, 'a')", "x = torch.tensor([1.0])\nx.lerp_(x, None)",
    "x = torch.tensor([1.0])\ntorch.logit(x, 'a')", "x = torch.tensor([1.0])\nx.logit('a')",
    "x = torch.tensor([1.0])\ntorch.special.logit(x, 'a')", "torch.erf('a')", "torch.arcsin(None)",
    "x = torch.tensor([1.0])\ntorch.copysign(2.0, x)", "x = torch.tensor([1.0])\ntorch.xlogy(x, 'a')",
    "x = torch.tensor([1.0])\ntorch.special.xlogy(x, 'a')",
    "x = torch.tensor([1.0])\ntorch.special.xlog1py(x, 'a')",
    "torch.special.xlog1py(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([float('nan'), -1.0, -2.0]))",
    "torch.special.xlog1py(torch.tensor([1, 2]), torch.tensor([3, 4]))", "x = torch.tensor([1.0])\ntorch.float_power(x, 'a')",
    # in place, out=
    "a = torch.tensor([0.5, -0.25], requires_grad=True)\nx = a * 1\nx.tan_()\nx.atan_()\nx.sinh_()\nx.asinh_()\n"
    "x.erf_()\nx.erfinv_()\nx.exp2_()\nx.sinc_()\nx.deg2rad_()\nx.rad2deg_()\nshow(x)\ngfn(x)\nx.sum().backward()\nshow(a.grad)",
    "a = torch.tensor([0.5, -0.25], requires_grad=True)\nx = a * 1\nx.cosh_()\nx.acosh_()\nx.sigmoid_()\nx.logit_()\n"
    "x.atan2_(torch.tensor([2.0, 3.0]))\nx.hypot_(torch.tensor([1.0, 0.5]))\nx.xlogy_(2.0)\nx.copysign_(-1)\n"
    "x.lerp_(torch.ones(2), 0.25)\nshow(x)\ngfn(x)\nx.sum().backward()\nshow(a.grad)",
    "a = torch.tensor([0.5, -0.25], requires_grad=True)\nx = a * 1\nx.asin_()\nx.acos_()\nx.atanh_()\nx.erfc_()\n"
    "x.arcsin_()\nx.arctan_()\nx.arcsinh_()\nx.arctan2_(torch.tensor([1.0, 1.0]))\nshow(x)\ngfn(x)",
    "x = torch.tensor([0.5, 2.0], dtype=torch.float64)\nx.float_power_(3)\nx.heaviside_(torch.tensor([1.0, 1.0], dtype=torch.float64))\nshow(x)",
    "k = torch.tensor([1, 2])\nk.tan_()", "k = torch.tensor([1, 2])\nk.atan2_(k)",
    "a = torch.tensor([0.5], requires_grad=True)\na.erf_()",
    "x = torch.tensor([0.5, 2.0])\ny = torch.empty(2)\ntorch.erf(x, out=y)\ntorch.atan2(x, x, out=y)\ntorch.special.entr(x, out=y)\nshow(y)",
    "x = torch.tensor([0.5, 2.0])\ny = torch.empty(2, dtype=torch.float64)\ntorch.lerp(x, x * 2, 0.5, out=y)\nshow(y)",
    "x = torch.tensor([0.5, 2.0], requires_grad=True)\ntorch.tan(x, out=torch.empty(2))",
    "x = torch.tensor([0.5, 2.0], requires_grad=True)\ntorch.arcsin(x, out=torch.empty(2))",
    "x = torch.tensor([0.5, 2.0], requires_grad=True)\ntorch.special.expit(x, out=torch.empty(2))",
    "x = torch.tensor([0.5, 2.0], requires_grad=True)\ntorch.special.entr(x, out=torch.empty(2))",
    "x = torch.tensor([0.5, 2.0])\ntorch.erf(x, out=torch.empty(2, dtype=torch.long))",
]


@pytest.mark.parametrize("src", LINES)
def test_programs_print_what_torch_prints(src):
    assert_same(src)


TRAINING = """
torch.manual_seed(0)
x = torch.randn(32, 2)
target = torch.atan2(x[:, 1], x[:, 0]).unsqueeze(1)
w = torch.randn(2, 3, requires_grad=True)
v = torch.randn(3, 1, requires_grad=True)
opt = torch.optim.SGD([w, v], lr=0.1)
for step in range(10):
    h = torch.erf(x @ w)
    angle = torch.atan2(h @ v, torch.hypot(h[:, :1], h[:, 1:2]) + 0.1)
    loss = torch.logaddexp(angle - target, target - angle).mean() + torch.special.xlogy(w.abs(), w.abs() + 1).sum() * 0.01
    opt.zero_grad()
    loss.backward()
    opt.step()
    show(loss)
show(w, v)
"""


def test_a_small_model_trains_as_in_torch():
    """A loss built from atan2, hypot, erf, logaddexp and special.xlogy, 10 SGD steps:
    the printed losses and weights (4 digits) are PyTorch's."""
    assert_same(TRAINING)


# ---- the last bits, against PyTorch's CPU kernels ------------------------------------
# Percentages of 50,000 random values whose result differs from PyTorch's in any bit
# (README, "functions" row), forward, then the gradient (with a random upstream
# gradient): at most these, measured on an AVX-512 machine and on the same one with NumPy
# and PyTorch held to AVX2 (NPY_DISABLE_CPU_FEATURES, ATEN_CPU_CAPABILITY), the larger,
# rounded up: float32 is the same on both (computed in float64), float64 is not (NumPy's
# float64 loops are vectorised on AVX-512, the C library's on AVX2).
# 0 means bit for bit. The gradients inherit the forward's differences (tan's and
# exp2's read the result) and those of exp, sin and cos in their formulas.
DOMAINS = {
    "tan": (-1.5, 1.5), "asin": (-1, 1), "acos": (-1, 1), "atan": (-5, 5), "sinh": (-5, 5),
    "cosh": (-5, 5), "asinh": (-5, 5), "acosh": (1, 10), "atanh": (-1, 1), "erf": (-4, 4),
    "erfc": (-4, 4), "erfinv": (-1, 1), "exp2": (-10, 10), "logit": (0, 1), "sinc": (-5, 5),
    "deg2rad": (-360, 360), "rad2deg": (-7, 7), "special.entr": (0, 5), "special.ndtr": (-4, 4),
    "atan2": (-5, 5), "hypot": (-5, 5), "logaddexp": (-5, 5), "logaddexp2": (-5, 5),
    "xlogy": (0.01, 5), "copysign": (-5, 5), "lerp": (-5, 5),
}
DIFFERING = {  # name: {dtype: (forward %, gradient %)}; the README's figures, rounded up
    "tan": {"float32": (19, 11), "float64": (0.4, 0.25)},
    "asin": {"float32": (5.5, 0), "float64": (9, 0)},
    "acos": {"float32": (9, 0), "float64": (10.5, 0)},
    "atan": {"float32": (8, 0), "float64": (7.5, 0)},
    "sinh": {"float32": (0.2, 0.2), "float64": (27.5, 21)},
    "cosh": {"float32": (0.2, 0.2), "float64": (23, 24.5)},
    "asinh": {"float32": (0, 0), "float64": (0, 0)},
    "acosh": {"float32": (0, 0), "float64": (0, 0)},
    "atanh": {"float32": (0.1, 0), "float64": (19.5, 0)},
    "erf": {"float32": (1.7, 33), "float64": (3, 4)},
    "erfc": {"float32": (3.8, 33), "float64": (20.5, 4)},
    "erfinv": {"float32": (0.05, 30.5), "float64": (34.5, 24)},
    "exp2": {"float32": (6.3, 5.1), "float64": (9, 7)},
    "logit": {"float32": (7.4, 0), "float64": (0.2, 0)},
    "sinc": {"float32": (1.2, 14.5), "float64": (0, 0.15)},
    "deg2rad": {"float32": (0, 0), "float64": (0, 0)},
    "rad2deg": {"float32": (0, 0), "float64": (0, 0)},
    "special.entr": {"float32": (0.5, 5.2), "float64": (0.2, 0.05)},
    "special.ndtr": {"float32": (1, 29), "float64": (2.5, 4)},
    "atan2": {"float32": (2.95, 0), "float64": (9.5, 0)},
    "hypot": {"float32": (0, 0), "float64": (0.6, 0.55)},
    "logaddexp": {"float32": (1.1, 18), "float64": (2, 2.5)},
    "logaddexp2": {"float32": (11, 9.9), "float64": (11.5, 3)},
    "xlogy": {"float32": (0.45, 0.45), "float64": (0.15, 0.2)},
    "copysign": {"float32": (0, 0), "float64": (0, 0)},
    "lerp": {"float32": (0, 0), "float64": (0, 0)},
}


def _function(lib, name):
    for part in name.split("."):
        lib = getattr(lib, part)
    return lib


def _differing(ours, theirs) -> float:
    same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
    return 100 * float((~same).mean())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(DIFFERING))
def test_the_last_bits_differ_from_torchs_no_more_often_than_the_readme_says(name, dtype):
    rng = np.random.default_rng(11)
    low, high = DOMAINS[name]
    arity = 1 if name in UNARY or name.startswith("special.") else 2
    arrays = [rng.uniform(low, high, 50_000).astype(dtype) for _ in range(arity)]
    upstream = rng.standard_normal(50_000).astype(dtype)
    extra = (0.3,) if name == "lerp" else ()
    results = []
    for lib in (mg, torch):
        inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
        y = _function(lib, name)(*inputs, *extra)
        y.backward(lib.tensor(upstream))
        results.append((y.detach().numpy(), [x.grad.numpy() for x in inputs]))
    (ours, our_grads), (theirs, their_grads) = results
    forward, gradient = DIFFERING[name][dtype]
    assert _differing(ours, theirs) <= forward
    for mine, torchs in zip(our_grads, their_grads):
        assert _differing(mine, torchs) <= gradient
    if forward == 0:  # (bit for bit)
        np.testing.assert_array_equal(ours, theirs)
    for mine, torchs in zip(our_grads, their_grads) if gradient == 0 else ():
        np.testing.assert_array_equal(mine, torchs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("eps", [None, 0.0, 0.5])
def test_logit_at_0_and_1_has_torchs_bits(eps, dtype):
    """logit's backward at 0, -0. and 1 is grad * inf (+inf at -0. too, where grad / (x (1
    - x)) would give -inf), NaN outside [0, 1] (0 outside [eps, 1 - eps] with eps). (Only
    values whose logs are exact: PyTorch's float32 log rounds some others otherwise.)"""
    x = np.array([-0.5, -0.0, 0.0, 0.5, 1.0, 1.5, np.nan, np.inf, -np.inf], dtype)
    check_bits(lambda lib, t: lib.logit(t, eps=eps), x)


ZERO_DIM = ["erf", "erfc", "erfinv", "lgamma", "digamma", "asinh", "acosh", "atanh"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("name", ZERO_DIM)
def test_zero_dim_inputs_as_torch(name, dtype):
    """0-dim tensors (a scalar, an element picked out, a leaf that requires grad): the
    kernels that go element by element through Python's math module gave a float, not an
    array, for them (erf of torch.tensor(0.3) raised AttributeError; found by
    Normal(0., 1.).cdf in torch.distributions)."""
    def program(lib):
        x = lib.tensor([0.3, 1.7], dtype=getattr(lib, dtype))
        leaf = lib.tensor(0.6, dtype=getattr(lib, dtype), requires_grad=True)
        fn = getattr(lib, name)
        y = fn(leaf)
        y.backward()
        return [repr(fn(lib.tensor(0.3, dtype=getattr(lib, dtype)))), repr(fn(x[1])),
                repr(y), repr(leaf.grad)]
    assert outcome(program, mg) == outcome(program, torch)


def test_lerp_promotes_with_a_0_dim_weight_tensor_as_torch():
    """end must have start's dtype, and so must a weight tensor of more than 0 dims; a 0-dim
    weight tensor of any dtype takes part in the promotion (uint8 start and end with
    tensor(0.5) give float32, 0-dim float32 ones with a float64 weight float64); the kernel
    is for floats only (wide random program 4274)."""
    from torch_compare import outcome
    cases = [(([2.0], "float32"), ([3.0], "float64"), ([0.5], "float32")),
             (([2.0], "float32"), ([3.0], "float32"), ([0.5], "float64")),
             (([2.0], "float32"), ([3.0], "float32"), (0.5, "float64")),
             ((2.0, "float32"), (3.0, "float32"), (0.5, "float64")),
             ((2, "uint8"), (3, "uint8"), (0.5, "float32")),
             (([2], "uint8"), ([3], "uint8"), (0.5, "float32")),
             ((2, "uint8"), (3, "uint8"), (1, "uint8")), ((2, "int64"), (3.0, "float32"), (0.5, "float32"))]
    for case in cases:
        def call(lib, case=case):
            start, end, weight = (lib.tensor(v, dtype=getattr(lib, d)) for v, d in case)
            y = lib.lerp(start, end, weight)
            return y, y.dtype
        assert outcome(call, mg) == outcome(call, torch)
