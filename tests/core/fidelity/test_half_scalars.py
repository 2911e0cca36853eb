"""float16 with a scalar, against PyTorch 2.13 bit for bit: torch's CPU kernels multiply
and divide a half tensor by a scalar given second (a Python number or a 0-dim tensor)
in float32, with the scalar's own value, and round once to half (``x * 0.1``); they add
and subtract in half, and a scalar given first is rounded to half first. The same holds
inside backward formulas (their gradients), with and without ``create_graph``."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

NUMBERS = [0.1, 2.123456789, 3.3, 1 / 3, 1e-3, 123.456, 7.0, -0.7, 3, True]
SCALAR_TENSORS = ["float64", "float32", "float16", "int64"]


def _halves(size=400, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(size) * rng.choice([1.0, 10.0, 0.01], size)).astype(np.float16)


OPS = {
    "x * s": lambda x, s: x * s, "x / s": lambda x, s: x / s, "x + s": lambda x, s: x + s,
    "x - s": lambda x, s: x - s, "s - x": lambda x, s: s - x, "s / x": lambda x, s: s / x,
    "s * x": lambda x, s: s * x, "torch.mul(x, s)": lambda x, s: x.mul(s),
    "torch.div(x, s)": lambda x, s: x.div(s),
}


def _bits(tensor) -> bytes:
    return tensor.detach().numpy().tobytes()


def _outcome(call, lib):
    """The dtype and bits of what ``call(lib)`` returns, or its error (True - x raises)."""
    try:
        result = call(lib)
    except RuntimeError as error:
        return str(error)
    return str(result.dtype), _bits(result)


@pytest.mark.parametrize("number", NUMBERS, ids=str)
@pytest.mark.parametrize("op", list(OPS))
def test_a_half_tensor_with_a_number(op, number):
    values = _halves()

    def run(lib):
        return OPS[op](lib.tensor(values), number)
    assert _outcome(run, mg) == _outcome(run, torch)


@pytest.mark.parametrize("first", [False, True], ids=["scalar second", "scalar first"])
@pytest.mark.parametrize("dtype", SCALAR_TENSORS)
@pytest.mark.parametrize("op", ["*", "/", "+", "-"])
def test_a_half_tensor_with_a_0_dim_tensor(op, dtype, first):
    values = _halves(seed=1)

    def run(lib):
        x, s = lib.tensor(values), lib.tensor(2.123456789 if dtype != "int64" else 3,
                                              dtype=getattr(lib, dtype))
        a, b = (s, x) if first else (x, s)
        return {"*": a * b, "/": a / b, "+": a + b, "-": a - b}[op]
    ours, theirs = run(mg), run(torch)
    assert str(ours.dtype) == str(theirs.dtype)
    assert _bits(ours) == _bits(theirs)


@pytest.mark.parametrize("number", [0.1, 3.3, 1e-3])
@pytest.mark.parametrize("op", ["x * s", "x / s", "s / x", "x - s"])
def test_gradients_of_every_order(op, number):
    values, upstream = _halves(50, seed=2), _halves(50, seed=3)

    def run(lib):
        x = lib.tensor(values, requires_grad=True)
        y = OPS[op](x * x, number)  # (x * x: the gradient depends on x)
        g, = lib.autograd.grad(y, x, lib.tensor(upstream), create_graph=True)
        (g * g).sum().backward()
        plain = lib.tensor(values, requires_grad=True)
        OPS[op](plain, number).backward(lib.tensor(upstream))
        return [_bits(y), _bits(g), g.grad_fn and g.grad_fn.name(), _bits(x.grad),
                _bits(plain.grad)]
    assert run(mg) == run(torch)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", ["*", "/"])
def test_a_0_dim_operand_that_requires_grad(op, dtype):
    values, upstream = _halves(30, seed=4), _halves(30, seed=5)

    def run(lib):
        x = lib.tensor(values, requires_grad=True)
        s = lib.tensor(0.37, dtype=getattr(lib, dtype), requires_grad=True)
        y = x * s if op == "*" else x / s
        y.backward(lib.tensor(upstream))
        return _bits(y), _bits(x.grad), str(s.grad.dtype), float(s.grad)
    ours, theirs = run(mg), run(torch)
    assert ours[:3] == theirs[:3]
    assert ours[3] == pytest.approx(theirs[3], rel=2e-3)  # (a half sum of 30 products)


@pytest.mark.parametrize("op", ["mul_", "div_"])
def test_in_place(op):
    values = _halves(seed=6)

    def run(lib):
        x = lib.tensor(values)
        getattr(x, op)(0.1)
        y = lib.tensor(values).requires_grad_()
        z = getattr(y * 1, op)(3.3)
        z.backward(lib.ones_like(z))
        return _bits(x), _bits(z), _bits(y.grad)
    assert run(mg) == run(torch)


def test_mean_and_a_scalar_overload_inside_a_formula():
    """mean's gradient divides by the count (DivBackward1 when recorded)."""
    values = _halves(37, seed=7)

    def run(lib):
        x = lib.tensor(values, requires_grad=True)
        g, = lib.autograd.grad((x * x * 1.7).mean(), x, create_graph=True)
        g2, = lib.autograd.grad((g * 0.3).sum(), x)
        return _bits(g), g.grad_fn.name(), _bits(g2)
    assert run(mg) == run(torch)
