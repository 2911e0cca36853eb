"""ops/rounding.py against PyTorch 2.13 and finite differences: log10, log2, log1p, expm1,
rsqrt, square, floor, ceil, trunc/fix, round (decimals=), frac, ``//``, ``%``, fmod and
div(rounding_mode=): values in float32 and float64, node names and graphs, gradients,
integer and bool dtypes (with PyTorch's promotion and its ZeroDivisionError), the
in-place variants, and the errors. Where NumPy's logarithms round differently from
PyTorch's vectorised kernels, the test says by how much (README, known differences)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import chain, check, check_bits, check_numerical, rand
from transcripts import assert_same

POSITIVE = rand((3, 4), seed=0, low=0.1, high=4.0)
ANY = rand((3, 4), seed=1, low=-3.0, high=3.0, away_from=[-2, -1, 0, 1, 2], gap=0.05)
DIVISOR = rand((3, 4), seed=2, low=0.5, high=2.0) * np.where(rand((3, 4), seed=3) > 0, 1, -1)

UNARY = {  # name: (function, input, exact in float32 and float64)
    "log10": (lambda lib, x: x.log10(), POSITIVE, False),
    "torch.log10": (lambda lib, x: lib.log10(x), POSITIVE, False),
    "log2": (lambda lib, x: lib.log2(x), POSITIVE, False),
    "log1p": (lambda lib, x: x.log1p(), ANY / 4, False),
    "expm1": (lambda lib, x: lib.expm1(x), ANY, False),
    "rsqrt": (lambda lib, x: x.rsqrt(), POSITIVE, True),
    "square": (lambda lib, x: lib.square(x), ANY, True),
    "square method": (lambda lib, x: x.square(), ANY, True),
    "floor": (lambda lib, x: x.floor() * x, ANY, True),
    "ceil": (lambda lib, x: lib.ceil(x) * x, ANY, True),
    "trunc": (lambda lib, x: x.trunc() * x, ANY, True),
    "fix": (lambda lib, x: lib.fix(x) * x, ANY, True),
    "round": (lambda lib, x: (x * 2).round() * x, ANY, True),
    "round decimals": (lambda lib, x: lib.round(x, decimals=1) * x, ANY, True),
    "round decimals=0": (lambda lib, x: x.round(decimals=0) * x, ANY, True),
    "round negative decimals": (lambda lib, x: (x * 100).round(decimals=-1), ANY, True),
    "frac": (lambda lib, x: (x * 3).frac(), ANY, True),
    "remainder by a number": (lambda lib, x: x % 0.7, ANY, True),
    "remainder by a negative number": (lambda lib, x: lib.remainder(x, -0.7), ANY, True),
    "fmod by a number": (lambda lib, x: lib.fmod(x, 0.7), ANY, True),
    "fmod method": (lambda lib, x: x.fmod(-1.5), ANY, True),
    "div floor by a number": (lambda lib, x: lib.div(x, 0.7, rounding_mode="floor") + x, ANY, True),
    "div trunc": (lambda lib, x: x.div(-0.7, rounding_mode="trunc") * x, ANY, True),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(UNARY))
def test_unary_values_graphs_and_gradients(name, dtype):
    fn, x, exact = UNARY[name]
    tolerance = dict(rtol=0, atol=0) if exact else {}
    ours, theirs = check(fn, x.astype(dtype), **tolerance)
    assert chain(ours) == chain(theirs)


BINARY = {
    "remainder": lambda lib, a, b: a % b, "torch.remainder": lambda lib, a, b: lib.remainder(a, b),
    "fmod": lambda lib, a, b: lib.fmod(a, b), "remainder method": lambda lib, a, b: a.remainder(b),
    "div floor": lambda lib, a, b: lib.div(a, b, rounding_mode="floor") * b,
    "div trunc": lambda lib, a, b: a.div(b, rounding_mode="trunc") * a,
    "broadcast remainder": lambda lib, a, b: a % b[:1],
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(BINARY))
def test_binary_values_graphs_and_gradients(name, dtype):
    ours, theirs = check(BINARY[name], (ANY * 2).astype(dtype), DIVISOR.astype(dtype),
                         rtol=0, atol=0)
    assert chain(ours) == chain(theirs)


@pytest.mark.parametrize("name", ["log10", "log2", "log1p", "expm1", "rsqrt", "square",
                                  "frac", "remainder by a number", "fmod by a number"])
def test_unary_gradients_against_finite_differences(name):
    fn, x, _ = UNARY[name]
    check_numerical(lambda x: fn(mg, x), x)


@pytest.mark.parametrize("name", ["remainder", "fmod"])
def test_binary_gradients_against_finite_differences(name):
    check_numerical(lambda a, b: BINARY[name](mg, a, b), ANY * 2, DIVISOR, eps=1e-7)


def test_flat_functions_have_zero_gradients_where_the_differences_are_zero():
    for fn in (mg.floor, mg.ceil, mg.trunc, mg.round):
        check_numerical(lambda x: fn(x * 3), ANY)


LINES = [
    # integers: Python's // and %, PyTorch's promotion, division by zero
    "i = torch.tensor([-7, -3, 3, 7])\nj = torch.tensor([2, -2, 2, -2])\n"
    "show(i // j, i % j, torch.fmod(i, j), i // 2, i % 3, -7 // torch.tensor([2, -2]))\n"
    "show(i // 2.5, i % 2.5, 3 % j, 2.5 // j, torch.div(i, j, rounding_mode='trunc'))\n"
    "show(torch.floor_divide(5, j), torch.remainder(5, j), i.floor_divide(j), i.remainder(2))",
    "i = torch.tensor([5, -5])\ni // 0", "i = torch.tensor([5, -5])\ni % 0",
    "i = torch.tensor([5, -5])\ntorch.fmod(i, torch.tensor([1, 0]))",
    "i = torch.tensor([5, -5])\ni // torch.tensor([True, False])",
    "show(torch.tensor([5], dtype=torch.uint8) % 3, torch.tensor([1, 2], dtype=torch.int32) // torch.tensor([1, 2], dtype=torch.int8))",
    "show(torch.tensor([-2**63]) // -1, torch.tensor([-2**63]) % -1)",
    "b = torch.tensor([True, False])\nb // b", "b = torch.tensor([True, False])\nb % b",
    "b = torch.tensor([True, False])\ntorch.fmod(b, b)",
    "i = torch.tensor([3, -2])\nb = torch.tensor([True, False])\n"
    "show(torch.floor(i), torch.ceil(i), torch.round(i), torch.trunc(i), i.square(), b.square())\n"
    "show(torch.log10(i), torch.log2(b), torch.log1p(i), torch.expm1(b), torch.rsqrt(i))",
    "torch.frac(torch.tensor([3, -2]))", "torch.floor(torch.tensor([True]))",
    "torch.round(torch.tensor([True]))", "torch.round(torch.tensor([3]), decimals=1)",
    "torch.round(torch.tensor([True]), decimals=1)", "torch.ceil(torch.tensor([True]))",
    # floats: signed zeros, infinities, NaN, halves to even, float16
    "show(torch.tensor([-4.0, 4.0, -0.0]) % 2, torch.tensor([4.0]) % -2, torch.fmod(torch.tensor([-4.0]), 2))",
    "show(torch.tensor([1.0, -1.0, 0.0]) // 0.0, torch.tensor([5.5, -5.5]) % torch.tensor([0.0, -0.0]))",
    "show(torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5]).round(), torch.tensor([-2.5, 2.5]).frac())",
    "show(torch.round(torch.tensor([1.25, 2.675, -0.5, 1234.5]), decimals=2))",
    "show(torch.round(torch.tensor([1250.0, 1350.0]), decimals=-2), torch.tensor([2.5], dtype=torch.float16).round(decimals=1))",
    "show(torch.tensor([5.0], dtype=torch.float16) // torch.tensor([0.3], dtype=torch.float16))",
    "show(torch.tensor([7.5, -7.5], dtype=torch.float16) % 2, torch.rsqrt(torch.tensor([0.0, -1.0, 4.0])))",
    "show(torch.tensor([1e-10, -1e-10]).log1p(), torch.tensor([1e-10, -1e-10]).expm1(), torch.tensor([0.0, 1.0]).log10())",
    # no derivative: PyTorch's NotImplemented node and its error
    "x = torch.tensor([-7.0, 3.0], requires_grad=True)\ny = x // 2\nshow(y)\nshow(y.grad_fn.name())\ngfn(y)\ny.sum().backward()",
    "x = torch.tensor([-7.0, 3.0], requires_grad=True)\ny = 7.0 % x\nshow(y)\ngfn(y)\ny.sum().backward()",
    "x = torch.tensor([-7.0, 3.0], requires_grad=True)\ny = 7.0 // x\ngfn(y)\ny = torch.floor_divide(x, x)\ngfn(y)\ny.sum().backward()",
    # wrong arguments
    "x = torch.tensor([1.0])\nx % None", "x = torch.tensor([1.0])\nNone // x",
    "x = torch.tensor([1.0])\nx.remainder('a')", "x = torch.tensor([1.0])\nx.fmod('a')",
    "x = torch.tensor([1.0])\nx.floor_divide([1])", "x = torch.tensor([1.0])\nx // 'a'",
    "x = torch.tensor([1.0])\ntorch.div(x, 2, rounding_mode='up')",
    "x = torch.tensor([1.0])\nx.div(2, rounding_mode='round')",
    # bools refused by the kernel's name, after the shapes (as torch's TensorIterator)
    "b = torch.tensor([True, False])\ntorch.div(b, b, rounding_mode='trunc')",
    "b = torch.tensor([True, False])\ntorch.div(b, b, rounding_mode='floor')",
    "b = torch.tensor([True, False])\ntorch.fmod(b, torch.tensor([True, False, True]))",
    "b = torch.tensor([True, False])\ntorch.hypot(b.long(), torch.ones(3))",
    # in place
    "a = torch.tensor([-7.5, 3.25], requires_grad=True)\nx = a * 1\nx %= 2\nshow(x)\ngfn(x)\n"
    "x.floor_()\nx.ceil_()\nx.round_(decimals=1)\nx.trunc_()\nshow(x)\ngfn(x)\nx.sum().backward()\nshow(a.grad)",
    "a = torch.tensor([0.5, 3.25], requires_grad=True)\nx = a * 1\nx.log10_()\nx.expm1_()\nx.square_()\n"
    "x.log1p_()\nx.log2_()\nshow(x)\ngfn(x)\nx.sum().backward()\nshow(a.grad)",
    "a = torch.tensor([0.5, 3.25], requires_grad=True)\nx = a * 1\nx.rsqrt_()\nx.frac_()\nx.fmod_(0.3)\n"
    "x.remainder_(torch.tensor([0.2, 0.7]))\nx.fix_()\nshow(x)\ngfn(x)\nx.sum().backward()\nshow(a.grad)",
    "a = torch.tensor([0.5, 3.25], requires_grad=True)\nx = a * 1\nx //= 2\nshow(x)\ngfn(x)",
    "a = torch.tensor([0.5, 3.25], requires_grad=True)\nx = a * 1\nx.div_(2, rounding_mode='floor')\nshow(x)\ngfn(x)",
    "k = torch.tensor([5, 7])\nk //= 2\nk %= 2\nk.fmod_(3)\nk.floor_divide_(1)\nk.square_()\nshow(k)",
    "k = torch.tensor([5, 7])\nk.floor_()\nk.round_()\nshow(k)\nk.frac_()",
    "k = torch.tensor([5, 7])\nk.log10_()",
    "a = torch.tensor([0.5, 3.25], requires_grad=True)\na.floor_()",
    "x = torch.ones(2, dtype=torch.float64)\ny = torch.empty(2)\ntorch.log10(x, out=y)\ntorch.remainder(x, 0.3, out=y)\nshow(y)",
]


@pytest.mark.parametrize("src", LINES)
def test_programs_print_what_torch_prints(src):
    assert_same(src)


def test_floor_divide_and_remainder_agree_with_torch_bit_for_bit():
    """Random operands of every sign and size, zeros and infinities among them."""
    rng = np.random.default_rng(5)
    for dtype in (np.float16, np.float32, np.float64):
        a = np.clip(rng.standard_normal(4000) * 10 ** rng.uniform(-3, 6, 4000), -6e4, 6e4).astype(dtype)
        b = (rng.standard_normal(4000) * 10 ** rng.uniform(-3, 3, 4000)).astype(dtype)
        a[:10], b[:10] = [0, -0.0, 1, -1, np.inf, -np.inf, 5, -5, 7, 0], [1, -1, 0, -0.0, 2, 2, np.inf, -np.inf, 0.5, 0]
        for op in ("floor_divide", "remainder", "fmod"):
            ours = getattr(mg, op)(mg.tensor(a), mg.tensor(b)).numpy()
            theirs = getattr(torch, op)(torch.tensor(a), torch.tensor(b)).numpy()
            # (bit for bit, signed zeros too; a NaN's sign bit is not compared: it prints
            # as nan either way)
            np.testing.assert_array_equal(np.where(np.isnan(ours), np.nan, ours).view(f"u{dtype().itemsize}"),
                                          np.where(np.isnan(theirs), np.nan, theirs).view(f"u{dtype().itemsize}"),
                                          err_msg=op)
        for mode in ("floor", "trunc"):
            ours = mg.div(mg.tensor(a), mg.tensor(b), rounding_mode=mode).numpy()
            theirs = torch.div(torch.tensor(a), torch.tensor(b), rounding_mode=mode).numpy()
            np.testing.assert_array_equal(ours, theirs, err_msg=mode)
        for decimals in (-2, 0, 1, 3):
            ours = mg.round(mg.tensor(a), decimals=decimals).numpy()
            theirs = torch.round(torch.tensor(a), decimals=decimals).numpy()
            np.testing.assert_array_equal(ours, theirs)


# The last bit of log10, log2, log1p and expm1 against PyTorch's CPU kernels (SLEEF's
# vectorised ones on whole blocks, the C library's elsewhere): README, known differences.
# float32 is computed in float64 and rounded (kernels/rounding.py), so it is the same on
# every machine: at most 1 ulp, in under 1 % of values. float64 is NumPy's own, whose
# loops differ between machines (the C library's on AVX2, vectorised on AVX-512): at
# most 2 ulps for log10 and 1 for the others, in under 15 % of values, on both.
ULPS = {"log10": 2, "log2": 1, "log1p": 1, "expm1": 1}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(ULPS))
def test_logarithms_differ_from_torchs_by_at_most_the_ulps_the_readme_states(name, dtype):
    rng = np.random.default_rng(7)
    x = rng.uniform(0.001, 100, 50_000) if name in ("log10", "log2") else rng.uniform(-0.9, 5, 50_000)
    x = x.astype(dtype)
    ours = getattr(mg, name)(mg.tensor(x)).numpy()
    theirs = getattr(torch, name)(torch.tensor(x)).numpy()
    ints = np.int32 if dtype == np.float32 else np.int64
    ulps = np.abs(ours.view(ints).astype(np.int64) - theirs.view(ints).astype(np.int64))
    if dtype == np.float32:
        assert ulps.max() <= 1 and (ulps > 0).mean() < 0.01
    else:
        assert ulps.max() <= ULPS[name] and (ulps > 0).mean() < 0.15


@pytest.mark.parametrize("name", list(ULPS))
def test_float32_logarithms_are_float64s_rounded_once(name):
    """The same bits on every machine: float64's result rounded to float32 (NumPy's own
    float32 loops give other last bits on AVX2 and AVX-512 machines)."""
    x = np.random.default_rng(3).uniform(-0.5, 50, 10_000).astype(np.float32)
    ours = getattr(mg, name)(mg.tensor(x)).numpy()
    expected = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
    assert ours.dtype == np.float32 and np.array_equal(ours, expected, equal_nan=True)


SWEEP = [  # small functions the tutorials use, found missing by the sweep (README)
    "x = torch.tensor([1.0, float('nan'), float('inf'), -float('inf'), 0.0])\n"
    "show(torch.isnan(x), x.isinf(), torch.isfinite(x), x.isnan().any(), x[~x.isnan()])",
    "i = torch.tensor([1, -2])\nshow(i.isnan(), torch.isinf(i), i.isfinite(), torch.reciprocal(i))",
    "a = torch.tensor([2.0, -4.0], requires_grad=True)\ny = torch.reciprocal(a)\nshow(y)\ngfn(y)\n"
    "t = torch.tensor([1, 2]).type_as(a)\nshow(t, a.type_as(torch.tensor([1])), a.type_as(a) is a)",
]


@pytest.mark.parametrize("src", SWEEP)
def test_small_functions_found_by_the_sweep(src):
    assert_same(src)


HALVES = [-np.inf, -3.5, -2.5, -1.5, -0.75, -0.5, -0.25, -0.0, 0.0, 0.25, 0.5, 0.75, 1.5, 2.5,
          3.5, 0.05, 0.15, 0.25, 1.25, -0.05, -1.25, np.inf, np.nan]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda lib, x: x.floor(), lambda lib, x: x.ceil(), lambda lib, x: x.round(),
    lambda lib, x: x.trunc(), lambda lib, x: x.frac(), lambda lib, x: x.round(decimals=1),
    lambda lib, x: x.round(decimals=-1), lambda lib, x: lib.fix(x),
], ids=["floor", "ceil", "round", "trunc", "frac", "round-decimals", "round-tens", "fix"])
def test_rounding_at_halves_and_zeros_has_torchs_bits(fn, dtype):
    """Halves round to even (-2.5 -> -2., -0.5 -> -0.), -0. stays -0. (ceil(-0.25) is
    -0.), frac(-0.) is -0., inf and NaN kept, and the gradients (0; frac's 1)."""
    check_bits(fn, np.array(HALVES, dtype=dtype))


def test_an_integer_division_by_zero_into_an_empty_result_is_no_error():
    """torch's kernel never runs for an empty broadcast result, so no ZeroDivisionError
    (wide random program 5357); a non-empty one still raises it."""
    from torch_compare import outcome
    for text in ["a % b", "a // b", "b // a", "torch.fmod(a, b)", "a.div(b, rounding_mode='trunc')",
                 "c % torch.zeros(2, dtype=torch.long)", "torch.tensor(3) % torch.tensor(0)",
                 "torch.tensor([], dtype=torch.long) % 0", "c // 0"]:
        def call(lib, text=text):
            names = {"torch": lib, "a": lib.zeros(0, dtype=lib.long),
                     "b": lib.zeros(3, 1, dtype=lib.long), "c": lib.ones(2, dtype=lib.long)}
            return eval(text, names)
        assert outcome(call, mg) == outcome(call, torch), text


@pytest.mark.parametrize("call", [
    lambda L, x: x.floor_divide_(2), lambda L, x: x.__ifloordiv__(2),
    lambda L, x: x.floor_divide_(L.tensor([2.0, 3.0], requires_grad=True)),
    lambda L, x: x.heaviside_(L.tensor([1.0, 1.0])), lambda L, x: x // 2,
    lambda L, x: x.heaviside(L.tensor([1.0, 1.0]))])
def test_the_error_of_a_missing_derivative_names_the_in_place_op(call):
    """PyTorch's NotImplemented node of ``x.floor_divide_(2)`` names aten::floor_divide_."""
    def run(lib):
        x = lib.tensor([5.0, 7.0], requires_grad=True) * 1
        y = call(lib, x)
        with pytest.raises(RuntimeError) as error:
            y.sum().backward()
        return y.grad_fn.name(), str(error.value)
    assert run(mg) == run(torch)
