"""+ - * / ** and negation (``minigrad/ops/arithmetic.py``) against PyTorch 2.13: values,
dtype, shape, the graph (node names and ``next_functions``), the gradient of every input,
and the errors for bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries (see
``torch_compare.py``; the shared arrays are in ``op_cases.py``)."""

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run, X, Y, POS, ROW, COL, SCALAR, X3, COL3
from torch_compare import chain, check, check_bits, check_error, outcome, rand


ARITHMETIC = [
    case(lambda lib, x, y: x + y, X, Y, id="add"),
    case(lambda lib, x, y: x - y, X, Y, id="sub"),
    case(lambda lib, x, y: x * y, X, Y, id="mul"),
    case(lambda lib, x, y: x / y, X, POS, id="div"),
    case(lambda lib, x, y: x ** y, POS, Y, id="pow-tensor"),
    case(lambda lib, x: x ** x, POS, id="pow-self"),
    case(lambda lib, x, y: x + y, X, ROW, id="add-broadcast-row"),
    case(lambda lib, x, y: x * y, X, COL, id="mul-broadcast-col"),
    case(lambda lib, x, y: x / y, COL, POS, id="div-broadcast-lhs"),
    case(lambda lib, x, y: x - y, X3, COL3, id="sub-broadcast-3d"),
    case(lambda lib, x, y: x ** y, POS, ROW, id="pow-broadcast"),
    case(lambda lib, x, y: x * y, X, SCALAR, id="mul-0dim"),
    case(lambda lib, x: x + 2, X, id="add-int"),
    case(lambda lib, x: 2 + x, X, id="radd-int"),
    case(lambda lib, x: x + 2.5, X, id="add-float"),
    case(lambda lib, x: x + True, X, id="add-bool"),
    case(lambda lib, x: x - 2, X, id="sub-int"),
    case(lambda lib, x: 2 - x, X, id="rsub-int"),
    case(lambda lib, x: 2.5 - x, X, id="rsub-float"),
    case(lambda lib, x: x * 3, X, id="mul-int"),
    case(lambda lib, x: 3.5 * x, X, id="rmul-float"),
    case(lambda lib, x: x / 2, X, id="div-int"),
    case(lambda lib, x: 2 / x, POS, id="rdiv-int"),
    case(lambda lib, x: 1.5 / x, POS, id="rdiv-float"),
    case(lambda lib, x: x ** 2, X, id="pow-2"),
    case(lambda lib, x: x ** 3.0, X, id="pow-3.0"),
    case(lambda lib, x: x ** 0.5, POS, id="pow-half"),
    case(lambda lib, x: x ** -1, POS, id="pow-neg"),
    case(lambda lib, x: x ** 0, X, id="pow-0"),
    case(lambda lib, x: x ** 1, X, id="pow-1"),
    case(lambda lib, x: 2 ** x, X, id="rpow-int"),
    case(lambda lib, x: 0.5 ** x, X, id="rpow-float"),
    case(lambda lib, x: -x, X, id="neg"),
    case(lambda lib, x: x.neg(), X, id="neg-method"),
    case(lambda lib, x, y: x.add(y, alpha=2), X, Y, id="add-alpha"),
    case(lambda lib, x, y: x.sub(y, alpha=0.5), X, Y, id="sub-alpha"),
    case(lambda lib, x: x.add(3, alpha=2), X, id="add-scalar-alpha"),
    case(lambda lib, x: lib.rsub(x, 3), X, id="torch.rsub-number"),
    case(lambda lib, x: lib.rsub(x, 2.5, alpha=0.5), X, id="torch.rsub-number-alpha"),
    case(lambda lib, x, y: lib.rsub(x, y), X, Y, id="torch.rsub"),
    case(lambda lib, x, y: lib.rsub(x, y, alpha=2), X, Y, id="torch.rsub-alpha"),
    case(lambda lib, x, y: lib.add(x > 0, y > 0, alpha=2), X, Y, id="add-bool-alpha"),
    case(lambda lib, x, y: lib.add(x > 0, y > 0, alpha=0), X, Y, id="add-bool-alpha-0"),
    case(lambda lib, x, y: lib.add(x, (y > 0).long(), alpha=2.5), X, Y, id="add-float-alpha"),
    case(lambda lib, x, y: lib.add(x, y), X, Y, id="torch.add"),
    case(lambda lib, x: lib.add(2, x), X, id="torch.add-number-first"),
    case(lambda lib, x: lib.sub(2, x), X, id="torch.sub-number-first"),
    case(lambda lib, x: lib.mul(2, x), X, id="torch.mul-number-first"),
    case(lambda lib, x: lib.div(2, x), POS, id="torch.div-number-first"),
    case(lambda lib, x: lib.pow(2, x), X, id="torch.pow-number-first"),
    case(lambda lib, x: lib.pow(x, 2), X, id="torch.pow"),
    case(lambda lib, x, y: lib.mul(x, y), X, Y, id="torch.mul"),
    case(lambda lib, x, y: lib.div(x, y), X, POS, id="torch.div"),
    case(lambda lib, x: x.reciprocal(), POS, id="reciprocal"),
    case(lambda lib, x, y: x * y, X, Y, requires_grad=[True, False], id="mul-one-grad"),
    case(lambda lib, x, y: x / y, X, POS, requires_grad=[False, True], id="div-other-grad"),
    case(lambda lib, x, y: x ** y, POS, Y, requires_grad=[False, True], id="pow-exp-grad"),
    case(lambda lib, x: x * x, X, id="mul-same-input-twice"),
    case(lambda lib, x: (x * 2 + 1) * (x - 3) / (x * x + 1), X, id="composite"),
]


@pytest.mark.parametrize("fn, arrays, options", ARITHMETIC)
def test_arithmetic(fn, arrays, options):
    run(fn, arrays, options)


def test_pow_tensor_exponent_at_zero_base():
    """d/db 0**b is taken as 0 for b >= 0 (torch masks log(0)); d/da where b == 0 is 0."""
    base = np.array([0.0, 0.0, 1.5, 2.0, 0.0], np.float32)
    exponent = np.array([2.0, 0.0, 0.0, 1.5, 3.0], np.float32)
    check(lambda lib, a, b: a ** b, base, exponent)


def test_pow_scalar_exponent_at_zero():
    check(lambda lib, x: x ** 2, np.array([0.0, 1.0, -1.0], np.float32))
    check(lambda lib, x: x ** 0, np.array([0.0, 1.0, -1.0], np.float32))


def test_division_by_zero_gives_inf_like_torch():
    check(lambda lib, x, y: x / y, np.array([1.0, -1.0, 0.0], np.float32),
          np.array([0.0, 0.0, 1.0], np.float32), requires_grad=[True, False])


def test_number_over_tensor_is_reciprocal_times_number():
    ours, theirs = check(lambda lib, x: 2 / x, POS)
    assert chain(ours) == chain(theirs) == [
        "MulBackward0", "ReciprocalBackward0", "torch::autograd::AccumulateGrad"]


OP_ERRORS = [
    case(lambda lib, x, y: x + y, X, rand((3, 2)), id="add-shapes"),
    # (alpha checked against the result's dtype, as torch's alpha_check)
    case(lambda lib, x, y: lib.add(x.long(), y.long(), alpha=2.5), X, Y, id="add-int-float-alpha"),
    case(lambda lib, x, y: lib.sub(x.long(), 1, alpha=0.5), X, Y, id="sub-int-float-alpha"),
    case(lambda lib, x, y: x.long().add(y.long(), alpha=True), X, Y, id="add-int-bool-alpha"),
    case(lambda lib, x, y: lib.add(x, y, alpha=True), X, Y, id="add-float-bool-alpha"),
    case(lambda lib, x, y: lib.add(x > 0, y > 0, alpha=1.5), X, Y, id="add-bool-float-alpha"),
    case(lambda lib, x, y: x.long().add_(y.long(), alpha=0.5), X, Y, id="add_-int-float-alpha"),
    case(lambda lib, x, y: lib.rsub(x.long(), y.long(), alpha=0.5), X, Y, id="rsub-float-alpha"),
    case(lambda lib, x, y: lib.rsub(x, y), rand((1, 3)), rand((2, 1, 4)), id="rsub-shapes"),
    case(lambda lib, x, y: x * y, X3, rand((3, 3)), id="mul-shapes"),
    case(lambda lib, x, y: x / y, X, rand((4,)), id="div-shapes"),
    case(lambda lib, x, y: x ** y, POS, rand((5,)), id="pow-shapes"),
    # bools: the shapes are compared before the missing kernel is named
    case(lambda lib, x, y: (x > 0) ** (y[:0] > 0), X, rand((2, 0)), id="pow-bool-shapes"),
    case(lambda lib, x, y: (x > 0) ** (x > 0), X, Y, id="pow-bools"),
    case(lambda lib, x, y: lib.lerp(x > 0, y > 0, 0.5), rand((2, 1, 4)), rand((3,)),
         id="lerp-bool-shapes"),
    case(lambda lib, x, y: lib.lerp(x > 0, x > 0, 0.5), X, Y, id="lerp-bools"),
    case(lambda lib, x, y: lib.lerp(x > 0, y, 0.5), X, rand((4,)), id="lerp-bool-float"),
    case(lambda lib, x: x + "a", X, id="add-str"),
    case(lambda lib, x: -(x > 0), X, id="neg-bool"),
]


@pytest.mark.parametrize("fn, arrays, options", OP_ERRORS)
def test_op_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)



SIGNED = [-np.inf, -3.0, -2.5, -1.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, np.inf,
          np.nan]
POWERS = [-np.inf, -4.0, -2.0, -1.0, -0.25, -0.0, 0.0, 0.25, 1.0, 4.0, 16.0, np.inf, np.nan]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda lib, x: x ** 0, lambda lib, x: x ** 0.0, lambda lib, x: x ** 1, lambda lib, x: x ** 2,
    lambda lib, x: x ** 3, lambda lib, x: x ** -1, lambda lib, x: x ** -2, lambda lib, x: x ** 0.5,
    lambda lib, x: x ** -0.5, lambda lib, x: x ** 1.5, lambda lib, x: 0.0 ** x,
    lambda lib, x: 1.0 ** x, lambda lib, x: lib.pow(x, x.flip(0)), lambda lib, x: lib.pow(x * 0, x),
], ids=["pow0", "pow0.", "pow1", "pow2", "pow3", "pow-1", "pow-2", "pow.5", "pow-.5", "pow1.5",
        "zero-to-x", "one-to-x", "pow-tensors", "zero-to-tensor"])
def test_pow_at_zero_has_torchs_bits(fn, dtype):
    """0 ** 0 = 1 (gradient 0), 0 ** -1 = inf, a negative base to a fractional power is
    NaN, and pow's backward at base 0 (0 where the exponent is 0: torch masks it), at
    -0., +-inf and NaN too. (Bases whose powers are exact: PyTorch's vectorised pow
    rounds some others otherwise.)"""
    check_bits(fn, np.array(POWERS, dtype=dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda lib, x: x.remainder(1.5), lambda lib, x: x.remainder(-1.5), lambda lib, x: x % 2.0,
    lambda lib, x: x.fmod(1.5), lambda lib, x: x.fmod(-1.5), lambda lib, x: x.remainder(0.0),
    lambda lib, x: x.remainder(x.flip(0)), lambda lib, x: x.fmod(x.flip(0)),
    lambda lib, x: lib.div(x, 2.0, rounding_mode="floor"),
    lambda lib, x: lib.div(x, -2.0, rounding_mode="trunc"),
], ids=["remainder", "remainder-neg", "mod", "fmod", "fmod-neg", "remainder-zero",
        "remainder-tensors", "fmod-tensors", "div-floor", "div-trunc"])
def test_remainders_at_zeros_have_torchs_bits(fn, dtype):
    """remainder's and fmod's signs (the divisor's, the dividend's; -0. kept), by 0, at
    +-inf and NaN, and their gradients."""
    check_bits(fn, np.array(SIGNED, dtype=dtype))


def test_out_with_a_tensor_requiring_grad_is_refused_before_the_shapes_are_checked():
    """torch's autograd refuses out= before the op runs (found by a wide random program)."""
    import torch
    import minigrad as mg
    from torch_compare import outcome
    for name in ("add", "sub", "mul", "div", "true_divide"):
        for shapes in [((2, 1, 4), (3,)), ((2, 1, 4), (4,))]:
            for needs in (True, False):
                def call(lib, name=name, shapes=shapes, needs=needs):
                    a = lib.ones(shapes[0], requires_grad=needs)
                    return getattr(lib, name)(a, lib.ones(shapes[1]), out=lib.empty(0)).shape
                assert outcome(call, mg) == outcome(call, torch)
    for name in ("add", "sub"):  # (the shapes before alpha, after sub's bool check)
        for dtype, shapes in [("long", ((2, 3, 4), (2, 4))), ("bool", ((2, 3), (3, 3))),
                              ("long", ((2, 3), (2, 3)))]:
            def call(lib, name=name, dtype=dtype, shapes=shapes):
                a, b = (lib.ones(s, dtype=getattr(lib, dtype)) for s in shapes)
                return getattr(lib, name)(a, b, alpha=0.5)
            assert outcome(call, mg) == outcome(call, torch)


def test_integer_power_to_the_most_negative_exponent_is_torchs():
    """-2**63 (what ``long()`` makes of nan and inf) as an integer exponent: 1 ** it is 1,
    (-1) ** it 1, others 0, as any negative exponent; NumPy's abs(-2**63) stayed negative
    and raised (wide random program 20336: ``a.long() ** b.long().abs()``)."""
    def call(lib):
        exponent = lib.tensor([float("nan"), float("inf"), -float("inf"), -3.0, 2.0]).long()
        base = lib.tensor([1, -1, 0, -1, 3])
        return (base ** exponent.abs(), base ** exponent, base.to(lib.uint8) ** exponent,
                lib.pow(base.int(), exponent))
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("how", ["**", "pow_", "0-dim", "create_graph", "no grad needed"])
def test_a_bool_tensor_exponent_refuses_the_bases_gradient_as_torch(how):
    """``a ** mask``: the forward is a ** 0 or a ** 1 (PowBackward1, the mask saved as it
    is); PyTorch's gradient for ``a`` takes ``mask - 1``, so backward refuses it with
    subtraction's text (minigrad gave the gradient as if the mask were 0 and 1)."""
    def call(lib):
        a = lib.tensor([[1.5, -2.0], [0.0, 3.0]], requires_grad=how != "no grad needed")
        mask = lib.tensor(True) if how == "0-dim" else lib.tensor([True, False])
        y = a.clone().pow_(mask) if how == "pow_" else a ** mask
        shown = (repr(y), y.stride(), repr(y.grad_fn._saved_exponent) if y.grad_fn else None)
        if how == "create_graph":
            return shown, lib.autograd.grad(y.sum(), a, create_graph=True)
        if y.requires_grad:
            y.sum().backward()
        return shown, a.grad
    assert outcome(call, mg) == outcome(call, torch)
    assert how == "no grad needed" or outcome(call, torch)[0] == "error"


@pytest.mark.parametrize("op", ["//", "%", "**", "&", "|", "^", "<<", ">>", "+", "*"])
def test_integer_tensors_meet_python_ints_out_of_their_range_as_torch(op):
    """A reflected ``v ** t``, ``v << t``, ``v >> t`` casts v to t's dtype as C++ does
    (2**40 as uint8 is 0, -3 is 253; NumPy raised OverflowError: deep random program 615);
    ``t ** v`` past the dtype's range is torch's overflow error."""
    outcomes = {}
    for lib in (torch, mg):
        seen = []
        for v in (2**40, -3, 300, 2.5, True, 255, -300, 2**63 - 1):
            for dtype in ("uint8", "int8", "int32", "int64"):
                for expr in (f"lib.tensor(7, dtype=lib.{dtype}) {op} v",
                             f"v {op} lib.tensor(7, dtype=lib.{dtype})",
                             f"lib.tensor([7, 2], dtype=lib.{dtype}) {op} v",
                             f"v {op} lib.tensor([3, 1], dtype=lib.{dtype})"):
                    seen.append(outcome(lambda lib, expr=expr, v=v: eval(expr), lib))
        outcomes[lib] = seen
    assert outcomes[mg] == outcomes[torch]


@pytest.mark.filterwarnings("ignore")
def test_0dim_tensors_meet_python_numbers_of_every_kind_as_torch():
    """0-dim tensors of six kinds with ten Python numbers under twelve operators, both
    ways round (1,440 results against torch: ``2**40 - uint8`` wraps, a half to a power past
    65504 is torch's overflow error; deep random programs 615, 8205, 8761)."""
    outcomes = {}
    for lib in (torch, mg):
        zero_dims = {"sum": lambda: lib.ones(1, 3).sum(), "int": lambda: lib.tensor(3),
                     "f64": lambda: lib.tensor(2.5, dtype=lib.float64), "bool": lambda: lib.tensor(True),
                     "u8": lambda: lib.tensor(7, dtype=lib.uint8),
                     "f16": lambda: lib.tensor(1.5, dtype=lib.float16)}
        seen = []
        for make in zero_dims.values():
            for v in (2, -3, 2.5, True, False, 0, 1e10, -0.0, 2**40, 1e300):
                for op in ["+", "-", "*", "/", "//", "%", "**", "<", "==", "&", "rsub"]:
                    for first in (True, False):
                        def call(lib, make=make, v=v, op=op, first=first):
                            if op == "rsub":
                                return lib.rsub(make(), v)
                            x, y = (make(), v) if first else (v, make())
                            return eval(f"x {op} y")
                        seen.append(outcome(call, lib))
        outcomes[lib] = seen
    assert outcomes[mg] == outcomes[torch]


@pytest.mark.parametrize("size", [5, 37, 1000, 30000])
@pytest.mark.parametrize("fn", [
    lambda lib, x, y, z: x.add(y, alpha=0.37), lambda lib, x, y, z: x.sub(y, alpha=-1.3),
    lambda lib, x, y, z: x.clone().add_(y, alpha=1e-3),
    lambda lib, x, y, z: x.addcmul(y, z, value=0.3), lambda lib, x, y, z: x.lerp(y, 0.3),
], ids=["add-alpha", "sub-alpha", "add_-alpha", "addcmul", "lerp"])
def test_float64_multiply_adds_are_fused_as_torchs(fn, size):
    """float64 a + alpha * b rounded once, as PyTorch's compiled kernel (an FMA): bit for
    bit below kernels.arithmetic.FUSED_LIMIT elements (rounded twice, about 10 % of them
    were an ulp off)."""
    rng = np.random.default_rng(size)
    arrays = [rng.standard_normal(size) for _ in range(3)]
    ours = fn(mg, *(mg.tensor(a) for a in arrays)).numpy()
    theirs = fn(torch, *(torch.tensor(a) for a in arrays)).numpy()
    np.testing.assert_array_equal(ours.view(np.int64), theirs.view(np.int64))


HALF_WITH_A_HALF_SCALAR = {
    "/": lambda lib, b, h: b / h, "*": lambda lib, b, h: b * h, "+": lambda lib, b, h: b + h,
    "-": lambda lib, b, h: b - h, "div floor": lambda lib, b, h: lib.div(b, h, rounding_mode="floor"),
    "div trunc": lambda lib, b, h: lib.div(b, h, rounding_mode="trunc"),
    "div_ into long": lambda lib, b, h: b.t().clone().div_(h),
}


@pytest.mark.parametrize("op", list(HALF_WITH_A_HALF_SCALAR))
def test_a_long_past_halfs_range_with_a_half_scalar_is_inf_without_a_warning(op):
    """int64 -2**63 with a 0-dim float16: the long becomes -inf as torch converts it,
    without NumPy's 'overflow encountered in cast' (meet seed 31961: the warning came
    before div_'s refusal)."""
    def run(lib):
        b = lib.tensor([[2, 0, -9223372036854775808]])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            half = lib.tensor(2.0, dtype=lib.float16)
            seen = outcome(lambda lib: HALF_WITH_A_HALF_SCALAR[op](lib, b, half), lib)
        return seen, [str(w.message) for w in caught]
    assert run(mg) == run(torch)


@pytest.mark.parametrize("weight", [0.3, 0.7, 0.1, 0.5, 2, -1.25])
def test_float16_lerp_gradients_multiply_by_the_weight_in_float32(weight):
    """lerp(start, end, weight)'s gradients are grad * (1 - weight) and grad * weight, a
    half times a number: computed in float32 with the number's own value, rounded once to
    half, as PyTorch's kernel (NumPy rounds the number to half first: 40 % of the
    gradients of weight 0.3 were an ulp off; meet seeds 1235, 39011, 40643)."""
    values = np.random.default_rng(0).standard_normal(2000).astype(np.float16)

    def grads(lib):
        start = lib.tensor(values, requires_grad=True)
        end = lib.tensor(values[::-1].copy(), requires_grad=True)
        grad = lib.tensor(values * 3)
        return [g.numpy().view(np.int16) for g in
                lib.autograd.grad(lib.lerp(start, end, weight), [start, end], grad)]
    for ours, theirs in zip(grads(mg), grads(torch)):
        np.testing.assert_array_equal(ours, theirs)
