"""More elementwise math: logarithms in base 10 and 2, log1p and expm1, rsqrt; rounding
(floor, ceil, trunc, round, frac); and the division family (``//``, ``%``, fmod, div
with a rounding mode). Each class is a formula and what it saves, as in pointwise.py.

Rounding is flat almost everywhere, so its derivative is 0 (PyTorch's convention at the
jumps too). ``//`` has no derivative in PyTorch at all: its node, ``NotImplemented``,
raises when backward reaches it, and so does the node of ``number % tensor``."""

from __future__ import annotations

import builtins
import numpy as np

from .. import dtypes, errors
from ..autograd.broadcast import broadcast_shapes
from ..autograd.engine import RefusingNode
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, Param, RESULT
from ..autograd.tensor_base import is_tensor, make
from ..kernels import rounding as kernels, special as special_kernels
from ..kernels.arithmetic import times
from ..rules import promotion
from ..rules.layout import with_unary_layout
from ..rules.promotion import python_number
from . import arithmetic, fn
from ..rules.return_types import return_type

__all__ = ["ldexp", "frexp", "log10", "log2", "log1p", "expm1", "rsqrt", "square", "floor", "ceil", "trunc",
           "round", "frac", "remainder", "fmod", "floor_divide", "div_rounding"]

_LN10, _LN2 = 2.3025850929940456, 0.6931471805599453


class Log10Backward0(Node):
    formula = Formula("y", "log10(x)", d={"x": "1 / (x ln 10)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.log10(x)

    def backward(self, saved, grad):
        return grad / times(saved.self, _LN10)  # (a half times the double in float, as torch)


class Log2Backward0(Node):
    formula = Formula("y", "log2(x)", d={"x": "1 / (x ln 2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.log2(x)

    def backward(self, saved, grad):
        return grad / times(saved.self, _LN2)


class Log1PBackward0(Node):
    formula = Formula("y", "log(1 + x)", d={"x": "1 / (1 + x)"},
                      note="accurate for x near 0, where 1 + x would lose x's digits.")
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.log1p(x)

    def backward(self, saved, grad):
        return grad / (saved.self + 1)


class Expm1Backward0(Node):
    formula = Formula("y", "exp(x) - 1", d={"x": "exp(x) = y + 1"},
                      note="accurate for x near 0, where exp(x) - 1 would cancel.")
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.expm1(x)

    def backward(self, saved, grad):
        return grad * (saved.result + 1)


class RsqrtBackward0(Node):
    formula = Formula("y", "1 / sqrt(x)", d={"x": "-1 / (2 x**1.5) = -y**3 / 2"})
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.rsqrt(x)

    def backward(self, saved, grad):
        cube = fn.pow(saved.result, 3)  # (first: C++ evaluates the right operand first)
        return -0.5 * grad * cube


class _Flat(Node):
    """A step function: its derivative is 0 wherever it exists (and taken as 0 at
    the jumps)."""

    def backward(self, saved, grad):
        return fn.zeros(grad.shape, grad)


class FloorBackward0(_Flat):
    formula = Formula("y", "floor(x)", d={"x": "0"})

    def forward(self, x):
        return np.floor(x)


class CeilBackward0(_Flat):
    formula = Formula("y", "ceil(x)", d={"x": "0"})

    def forward(self, x):
        return np.ceil(x)


class TruncBackward0(_Flat):
    formula = Formula("y", "trunc(x)", d={"x": "0"}, note="rounds toward zero.")

    def forward(self, x):
        return np.trunc(x)


class RoundBackward0(_Flat):
    formula = Formula("y", "round(x)", d={"x": "0"}, note="halves round to even: 0.5 -> 0.")

    def forward(self, x):
        return np.rint(x)


class RoundBackward1(_Flat):
    formula = Formula("y", "round(x * 10**decimals) / 10**decimals", d={"x": "0"})

    def forward(self, x, decimals):
        return kernels.round_decimals(x, decimals)


class FracBackward0(Node):
    formula = Formula("y", "x - trunc(x)", d={"x": "1"})

    def forward(self, x):
        return np.subtract(x, np.trunc(x))

    def backward(self, saved, grad):
        return grad


class RemainderBackward0(Node):
    formula = Formula("z", "self - other * floor(self / other)", d={"self": "1"},
                      note="``x % 3``: other is a number.")

    def forward(self, a, other):
        return kernels.remainder(a, np.asarray(other).astype(a.dtype))  # (as C casts it)

    def backward(self, saved, grad):
        return grad


class RemainderBackward1(Node):
    formula = Formula("z", "self - other * floor(self / other)",
                      d={"self": "1", "other": "-floor(self / other)"})
    saves = {"self": Input(0, for_grad_of=1), "other": Input(1, for_grad_of=1)}

    def forward(self, a, b):
        return kernels.remainder(a, b)

    def backward(self, saved, grad):
        grad_other = None
        if self.needs_input_grad[1]:
            quotient = div_rounding(saved.self, saved.other, "floor")  # (first, as C++)
            grad_other = -grad * quotient
        return (grad if self.needs_input_grad[0] else None), grad_other


class FmodBackward0(Node):
    formula = Formula("z", "self - other * trunc(self / other)", d={"self": "1"},
                      note="``fmod(x, 3)``: other is a number; the sign of self.")

    def forward(self, a, other):
        return kernels.fmod(a, np.asarray(other).astype(a.dtype))  # (uint8: -2 is 254)

    def backward(self, saved, grad):
        return grad


class FmodBackward1(Node):
    formula = Formula("z", "self - other * trunc(self / other)",
                      d={"self": "1", "other": "-trunc(self / other)"})
    saves = {"self": Input(0, for_grad_of=1), "other": Input(1, for_grad_of=1)}

    def forward(self, a, b):
        return kernels.fmod(a, b)

    def backward(self, saved, grad):
        grad_other = None
        if self.needs_input_grad[1]:
            quotient = div_rounding(saved.self, saved.other, "trunc")  # (first, as C++)
            grad_other = -grad * quotient
        return (grad if self.needs_input_grad[0] else None), grad_other


class DivBackward2(Node):
    formula = Formula("z", "floor(self / other) or trunc(self / other)",
                      d={"self": "0", "other": "0"},
                      note="``div(self, other, rounding_mode='floor' or 'trunc')``.")
    saves = {"self": Input(0, for_grad_of=1), "other": Input(1), "rounding_mode": Param(None)}

    def forward(self, a, b, rounding_mode=None):
        if rounding_mode == "floor":
            return kernels.floor_divide(a, b)
        return kernels.trunc_divide(a, b)

    def backward(self, saved, grad):
        zeros = fn.zeros(grad.shape, grad)
        return (zeros if self.needs_input_grad[0] else None,
                zeros if self.needs_input_grad[1] else None)


class NotImplemented(RefusingNode):  # noqa: A001 (PyTorch's name for it; Python's is builtins.NotImplemented)
    formula = Formula("z", "floor(self / other)",
                      note="``a // b`` (and ``number % tensor``, ``heaviside``): PyTorch has "
                           "no derivative for it, so backward stops here with an error.")

    def forward(self, x, y=None, *more, operation, left=None, right=None, value=None):
        self.operation = operation  # (what the error names, not a saved value)
        if value is not None:  # (a derivative computed without a graph: attention's)
            return value
        if left is not None:  # (a number, then the tensor: ``7 % x``; cast as C casts it:
            x, y = np.asarray(left).astype(x.dtype), x  # uint8's -1 is 255)
        elif right is not None:
            y = np.asarray(right).astype(x.dtype)
        if operation == "heaviside":
            return special_kernels.heaviside(x, y)
        return kernels.floor_divide(x, y) if operation == "floor_divide" \
            else kernels.remainder(x, y)

    def name(self) -> str:
        return "torch::autograd::NotImplemented"

    def backward(self, saved, grad):
        raise RuntimeError(f"derivative for aten::{self.operation} is not implemented")


# ---- the entry functions ---------------------------------------------------------


def _float_unary(node_cls, x):
    return promotion.unary(node_cls, x)


class LdexpBackward0(Node):
    formula = Formula("y", "self * 2 ** other",
                      grad={"self": "G * 2 ** other", "other": "G * y * log(2)"},
                      note="2 ** other in other's dtype: an integer power wraps (2 ** 64 is 0).")
    saves = {"other": Input(1), "result": RESULT}

    def forward(self, x, other, dtype):
        return kernels.ldexp(x, other, dtype)

    def backward(self, saved, grad):
        grad_self = grad * _power_of_two(saved.other) if self.needs_input_grad[0] else None
        grad_other = grad * saved.result * _LOG2 if self.needs_input_grad[1] else None
        return grad_self, grad_other


def _power_of_two(other):
    """PyTorch's pow(2, other): in other's dtype, so integers wrap."""
    if fn.as_array(other).dtype.kind == "f":
        return fn.rpow(2.0, other)
    return fn.as_constant(kernels.integer_power_of_two(fn.as_array(other)), other)


_LOG2 = 0.6931471805599453


class FrexpBackward0(Node):
    formula = Formula("mantissa", "self / 2 ** exponent, |mantissa| in [0.5, 1)",
                      grad={"self": "G / 2 ** exponent"},
                      note="Also returns exponent (int32), which has no gradient.")

    def forward(self, x):
        mantissa, exponent = np.frexp(x)
        self.exponent = exponent.astype(np.int32)
        self.save(exponent=self.exponent)
        return mantissa

    def backward(self, saved, grad):
        # (PyTorch's exponent.exp2(): int32 to float32, so 2**-150 is 0 there and G / 0 inf)
        scale = np.exp2(fn.as_array(saved.exponent).astype(np.float32))
        return grad / fn.as_constant(scale, grad)


def ldexp(x, other):
    """x * 2 ** other (a float result; integer inputs give float32)."""
    dtype = promotion.float_dtype_for(dtypes.result_type(x, other))
    shape = broadcast_shapes(x.shape, other.shape)
    # (a float x and integer exponents: torch writes C's ldexp into a tensor like x)
    if shape != x.shape and x.numel() and x.dtype.is_floating_point and not other.is_floating_point():
        errors.warn_at_caller(errors.OUT_RESIZED.format(old=list(x.shape), new=list(shape)))
    if x.dtype.is_floating_point and other.dtype is dtypes.bool:
        raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')
    return LdexpBackward0.apply(x, other, dtype=dtype.numpy)


def frexp(x):
    """(mantissa, exponent): x = mantissa * 2 ** exponent, |mantissa| in [0.5, 1)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa = FrexpBackward0.apply(x)
    exponent = (mantissa.grad_fn.exponent if mantissa.grad_fn is not None
                else np.frexp(x._data)[1].astype(np.int32))
    return FrexpResult(mantissa, make(exponent))


FrexpResult = return_type("frexp", ["mantissa", "exponent"])


def log10(x):
    return _float_unary(Log10Backward0, x)


def log2(x):
    return _float_unary(Log2Backward0, x)


def log1p(x):
    return _float_unary(Log1PBackward0, x)


def expm1(x):
    return _float_unary(Expm1Backward0, x)


def rsqrt(x):
    return _float_unary(RsqrtBackward0, x)


def square(x):
    """x * x, recorded as PyTorch records it: ``pow(x, 2)`` (PowBackward0); a bool
    tensor squares to int64."""
    return arithmetic.pow(x.long() if x.dtype is dtypes.bool else x, 2)


def _rounding(node_cls, x, kernel_name, **params):
    if x.dtype is dtypes.bool or (params and not x.dtype.is_floating_point):
        raise NotImplementedError(f'"{kernel_name}" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[x.dtype]}'")
    if not x.dtype.is_floating_point:  # (an integer is its own floor: a copy)
        return with_unary_layout(make(x._data.copy()), x)
    return with_unary_layout(node_cls.apply(x, **params), x)


def floor(x):
    return _rounding(FloorBackward0, x, "floor_vml_cpu")


def ceil(x):
    return _rounding(CeilBackward0, x, "ceil_vml_cpu")


def trunc(x):
    return _rounding(TruncBackward0, x, "trunc_vml_cpu")


def round(x, decimals=None):  # noqa: A001 (PyTorch's name)
    """Round to the nearest integer, halves to even (RoundBackward0), or to ``decimals``
    digits after the point (RoundBackward1, even for ``decimals=0``, as PyTorch)."""
    if decimals is None:
        return _rounding(RoundBackward0, x, "round_vml_cpu")
    return _rounding(RoundBackward1, x, "round_cpu", decimals=decimals)


def frac(x):
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f'"frac_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[x.dtype]}'")
    return with_unary_layout(FracBackward0.apply(x), x)


def _division(name, a, b):
    """The operands of ``a op b`` as (a, b, dtype), either a number; bool refused as
    PyTorch's kernels refuse it. None when ``b`` is neither a tensor nor a number."""
    kernel = {"remainder": "remainder_cpu", "fmod": "fmod_cpu", "floor_divide": "div_floor_cpu",
              "floor": "div_floor_cpu", "trunc": "div_trunc_cpu"}[name]
    if not is_tensor(a):
        a = python_number(a)
    if not is_tensor(b):
        b = python_number(b)
    if a is None or b is None:
        return None
    promotion.check_python_int(a)  # (a C++ Scalar, read first: an int past 64 bits refused)
    promotion.check_python_int(b)
    if is_tensor(a) and is_tensor(b):  # (the shapes first, as torch's TensorIterator)
        broadcast_shapes(a.shape, b.shape)
    dtype = dtypes.result_type(a, b)
    if dtype is dtypes.bool:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
    return a, b, dtype


def _tensor_and_number(node_cls, a, b, dtype, **params):
    tensor = a if is_tensor(a) else b
    return promotion.apply_scalar_overload(node_cls, tensor, b if is_tensor(a) else a,
                                           dtype, params)


def remainder(a, b):
    """a % b: the remainder with the sign of b (Python's ``%``)."""
    operands = _division("remainder", a, b)
    if operands is None:
        return builtins.NotImplemented
    a, b, dtype = operands
    if is_tensor(a) and is_tensor(b):
        return promotion.binary(RemainderBackward1, a, b, "%")
    if is_tensor(a):
        return _tensor_and_number(RemainderBackward0, a, b, dtype)
    return with_unary_layout(NotImplemented.apply(b, cast_to=dtype, operation="remainder",
                                                  left=a), b)


def fmod(a, b):
    """fmod(a, b): the remainder with the sign of a (C's ``fmod``)."""
    operands = _division("fmod", a, b)
    if operands is None:
        return builtins.NotImplemented
    a, b, dtype = operands
    if is_tensor(b):
        return promotion.binary(FmodBackward1, a, b, "fmod")
    return _tensor_and_number(FmodBackward0, a, b, dtype)


def floor_divide(a, b):
    """a // b: the quotient rounded down. PyTorch has no derivative for it."""
    operands = _division("floor_divide", a, b)
    if operands is None:
        return builtins.NotImplemented
    a, b, dtype = operands
    if is_tensor(a) and is_tensor(b):
        return promotion.binary(NotImplemented, a, b, "//",
                                params={"operation": "floor_divide"})
    tensor = a if is_tensor(a) else b
    side = {"right": b} if is_tensor(a) else {"left": a}
    return with_unary_layout(NotImplemented.apply(tensor, cast_to=dtype,
                                                  operation="floor_divide", **side), tensor)


def div_rounding(a, b, rounding_mode):
    """``div(a, b, rounding_mode='floor' or 'trunc')``: DivBackward2, zero gradients
    (arrays inside a backward formula: the kernel alone)."""
    if not is_tensor(a) and not is_tensor(b):
        return kernels.floor_divide(a, b) if rounding_mode == "floor" \
            else kernels.trunc_divide(a, b)
    _division(rounding_mode, a, b)
    return promotion.binary(DivBackward2, a, b, "div", params={"rounding_mode": rounding_mode})
