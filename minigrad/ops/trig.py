"""Trigonometry beyond sin and cos: tan, the inverse functions (asin, acos, atan, atan2),
the hyperbolic ones and their inverses, hypot, sinc, and degrees to radians and back.
Each class is a formula and what it saves, as in pointwise.py; each backward is the
formula of PyTorch's derivatives.yaml, in its order of operations (so the gradients have
PyTorch's bits wherever the forward values have them)."""

from __future__ import annotations

import math

from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..kernels import special as kernels
from ..kernels.arithmetic import times
from ..rules import math_dtypes, promotion
from . import fn

__all__ = ["tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh", "atanh",
           "asinh_", "acosh_", "atanh_", "hypot", "sinc", "deg2rad", "rad2deg", "angle"]

_PI_OVER_180 = math.pi / 180  # (M_PI / 180 in C++: a double, cast to the tensor's dtype)
_180_OVER_PI = 180 / math.pi


class TanBackward0(Node):
    formula = Formula("y", "tan(x)", d={"x": "1 + tan(x)**2 = 1 + y**2"})
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.tan(x)

    def backward(self, saved, grad):
        return grad * (1 + fn.pow(saved.result, 2))


class AsinBackward0(Node):
    formula = Formula("y", "asin(x)", d={"x": "1 / sqrt(1 - x**2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.asin(x)

    def backward(self, saved, grad):
        x = saved.self
        return grad * fn.rsqrt(-x * x + 1)


class AcosBackward0(Node):
    formula = Formula("y", "acos(x)", d={"x": "-1 / sqrt(1 - x**2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.acos(x)

    def backward(self, saved, grad):
        x = saved.self
        return grad * -fn.rsqrt(-x * x + 1)


class AtanBackward0(Node):
    formula = Formula("y", "atan(x)", d={"x": "1 / (1 + x**2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.atan(x)

    def backward(self, saved, grad):
        x = saved.self
        return grad / (x * x + 1)


class Atan2Backward0(Node):
    formula = Formula("z", "atan2(self, other): the angle of the point (other, self)",
                      d={"self": "other / (self**2 + other**2)",
                         "other": "-self / (self**2 + other**2)"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.atan2(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        b_squared = b * b  # (first: C++ evaluates the right operand first)
        recip = fn.reciprocal(a * a + b_squared)
        recip = fn.masked_fill(recip, fn.isinf(recip), 0)  # (at the origin: 0, not nan)
        grad_a = grad * b * recip if self.needs_input_grad[0] else None
        grad_b = grad * -a * recip if self.needs_input_grad[1] else None
        return grad_a, grad_b


class SinhBackward0(Node):
    formula = Formula("y", "sinh(x)", d={"x": "cosh(x)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.sinh(x)

    def backward(self, saved, grad):
        return grad * fn.cosh(saved.self)


class CoshBackward0(Node):
    formula = Formula("y", "cosh(x)", d={"x": "sinh(x)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.cosh(x)

    def backward(self, saved, grad):
        return grad * fn.sinh(saved.self)


class AsinhBackward0(Node):
    formula = Formula("y", "asinh(x)", d={"x": "1 / sqrt(x**2 + 1)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.asinh(x)

    def backward(self, saved, grad):
        return grad * fn.rsqrt(fn.pow(saved.self, 2) + 1)


class AcoshBackward0(Node):
    formula = Formula("y", "acosh(x)", d={"x": "1 / sqrt(x**2 - 1)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.acosh(x)

    def backward(self, saved, grad):
        x = saved.self
        return grad * fn.rsqrt(x * x - 1)


class AtanhBackward0(Node):
    formula = Formula("y", "atanh(x)", d={"x": "1 / (1 - x**2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.atanh(x)

    def backward(self, saved, grad):
        denominator = fn.number_minus(1, fn.pow(saved.self, 2))  # (first, as C++)
        return grad * 1 / denominator


class _InplaceNotImplemented(Node):
    """``x.asinh_()``: PyTorch records another node, whose backward raises."""

    def backward(self, saved, grad):
        raise NotImplementedError(f"the derivative for 'inplace version of {self.function}' "
                                  f"is not implemented.")


class AsinhBackward1(_InplaceNotImplemented):
    formula, function = Formula("y", "asinh(x), in place", note="no derivative"), "asinh"

    def forward(self, x):
        return kernels.asinh(x)


class AcoshBackward1(_InplaceNotImplemented):
    formula, function = Formula("y", "acosh(x), in place", note="no derivative"), "acosh"

    def forward(self, x):
        return kernels.acosh(x)


class AtanhBackward1(_InplaceNotImplemented):
    formula, function = Formula("y", "atanh(x), in place", note="no derivative"), "atanh"

    def forward(self, x):
        return kernels.atanh(x)


class HypotBackward0(Node):
    formula = Formula("z", "sqrt(self**2 + other**2)",
                      d={"self": "self / z", "other": "other / z"})
    saves = {"self": Input(0), "other": Input(1), "result": RESULT}

    def forward(self, a, b):
        return kernels.hypot(a, b)

    def backward(self, saved, grad):
        a, b, z = saved.self, saved.other, saved.result  # (other's first, as torch)
        grad_b = grad * b / z if self.needs_input_grad[1] else None
        grad_a = grad * a / z if self.needs_input_grad[0] else None
        return grad_a, grad_b


class SincBackward0(Node):
    formula = Formula("y", "sin(pi x) / (pi x), 1 at x = 0",
                      d={"x": "(pi x cos(pi x) - sin(pi x)) / (pi x**2), 0 at x = 0"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.sinc(x)

    def backward(self, saved, grad):
        x = saved.self
        x_pi, x_squared_pi = times(x, math.pi), times(x * x, math.pi)  # (a half's in float)
        sine = fn.sin(x_pi)  # (first: C++ evaluates the right operand first)
        slope = grad * ((x_pi * fn.cos(x_pi) - sine) / x_squared_pi)
        return fn.where(x_squared_pi == 0, fn.zeros((), grad), slope)


class Deg2RadBackward0(Node):
    formula = Formula("y", "x pi / 180", d={"x": "pi / 180"})

    def forward(self, x):
        return kernels.times_constant(x, factor=_PI_OVER_180)

    def backward(self, saved, grad):
        return times(grad, _PI_OVER_180)  # (a half's in float, as torch)


class Rad2DegBackward0(Node):
    formula = Formula("y", "x 180 / pi", d={"x": "180 / pi"})

    def forward(self, x):
        return kernels.times_constant(x, factor=_180_OVER_PI)

    def backward(self, saved, grad):
        return times(grad, _180_OVER_PI)  # (a half's in float, as torch)


class AngleBackward0(Node):
    formula = Formula("y", "the angle of x in the complex plane: pi for x < 0, else 0 (nan: nan)",
                      d={"x": "0 everywhere it exists"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.angle(x)

    def backward(self, saved, grad):
        return fn.zeros(grad.shape, grad)


# ---- the entry functions ---------------------------------------------------------


def tan(x):
    return promotion.unary(TanBackward0, x)


def asin(x):
    return promotion.unary(AsinBackward0, x)


def acos(x):
    return promotion.unary(AcosBackward0, x)


def atan(x):
    return promotion.unary(AtanBackward0, x)


def atan2(a, b):
    """The angle of the point (b, a) (``atan2(y, x)``), in (-pi, pi]."""
    return promotion.binary(Atan2Backward0, a, b, "atan2", float_only=True)


def sinh(x):
    return promotion.unary(SinhBackward0, x)


def cosh(x):
    return promotion.unary(CoshBackward0, x)


def asinh(x):
    return promotion.unary(AsinhBackward0, x)


def acosh(x):
    return promotion.unary(AcoshBackward0, x)


def atanh(x):
    return promotion.unary(AtanhBackward0, x)


def asinh_(x):
    """What ``x.asinh_()`` computes (on a copy of x; see ops.inplace), as AsinhBackward1."""
    return promotion.unary(AsinhBackward1, x)


def acosh_(x):
    return promotion.unary(AcoshBackward1, x)


def atanh_(x):
    return promotion.unary(AtanhBackward1, x)


def hypot(a, b):
    """sqrt(a**2 + b**2) without overflow; floats only, as PyTorch."""
    math_dtypes.check_floating("hypot_cpu", a, b)
    return promotion.binary(HypotBackward0, a, b, "hypot")


def sinc(x):
    return promotion.unary(SincBackward0, x)


def deg2rad(x):
    return promotion.unary(Deg2RadBackward0, x)


def rad2deg(x):
    return promotion.unary(Rad2DegBackward0, x)


def angle(x):
    return promotion.unary(AngleBackward0, x)
