"""Special functions and the two-operand helpers tutorials reach for: erf, erfc, erfinv,
exp2, logit, xlogy, entr, lerp, addcmul, addcdiv, lgamma, digamma, polygamma, logaddexp,
logaddexp2, copysign, float_power, heaviside,
and torch.special's expit (the sigmoid) and ndtr (made of erf). Each class is a formula and what it saves, as in pointwise.py; each backward is the
formula of PyTorch's derivatives.yaml, in its order of operations."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, Param, RESULT
from ..autograd.broadcast import broadcast_shapes
from ..autograd.tensor_base import is_tensor
from ..kernels import special as kernels
from ..kernels.arithmetic import times
from ..rules import math_dtypes as rules, promotion
from ..rules.conversion import check_opmath_scalars
from ..rules.layout import with_iterator_layout, with_unary_layout
from . import arithmetic, fn, pointwise, rounding, shape

__all__ = ["erf", "erfc", "erfinv", "exp2", "logit", "xlogy", "entr", "lerp", "addcmul",
           "addcdiv", "lgamma", "digamma", "polygamma", "polygamma_", "logaddexp", "logaddexp2",
           "copysign", "float_power", "heaviside", "expit", "ndtr", "i0", "special_i1",
           "special_i0e", "special_i1e", "xlog1py"]

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)  # (the doubles of C++'s 2.0 / sqrt(M_PI), ...)
_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)
_LN2 = 0.6931471805599453
_SQRT1_2 = math.sqrt(0.5)


class ErfBackward0(Node):
    formula = Formula("y", "erf(x) = 2/sqrt(pi) * integral of exp(-t**2) from 0 to x",
                      d={"x": "2/sqrt(pi) exp(-x**2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.erf(x)

    def backward(self, saved, grad):  # (a half times the double in float, as torch)
        return times(fn.exp(-fn.pow(saved.self, 2)), _TWO_OVER_SQRT_PI) * grad


class ErfcBackward0(Node):
    formula = Formula("y", "erfc(x) = 1 - erf(x)", d={"x": "-2/sqrt(pi) exp(-x**2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.erfc(x)

    def backward(self, saved, grad):
        return times(fn.exp(-fn.pow(saved.self, 2)), -_TWO_OVER_SQRT_PI) * grad


class ErfinvBackward0(Node):
    formula = Formula("y", "erfinv(x): erf(y) = x", d={"x": "sqrt(pi)/2 exp(erfinv(x)**2)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.erfinv(x)

    def backward(self, saved, grad):
        return _HALF_SQRT_PI * fn.exp(fn.pow(fn.erfinv(saved.self), 2)) * grad


class Exp2Backward0(Node):
    formula = Formula("y", "2**x", d={"x": "2**x ln 2 = y ln 2"})
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.exp2(x)

    def backward(self, saved, grad):
        return times(grad * saved.result, _LN2)


class LogitBackward0(Node):
    formula = Formula("y", "log(x / (1 - x))", d={"x": "1 / (x (1 - x))"},
                      note="with eps, x is first clamped to [eps, 1 - eps] (gradient 0 "
                           "outside); without, the gradient is NaN outside [0, 1].")
    saves = {"self": Input(0), "eps": Param(None)}

    def forward(self, x, eps=None):
        return kernels.logit(x, eps)

    def backward(self, saved, grad):
        return fn.logit_backward(grad, saved.self, saved.eps)


class XlogyBackward0(Node):
    formula = Formula("z", "self log(other), 0 where self = 0",
                      d={"self": "log(other)", "other": "self / other"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.xlogy(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        grad_a = grad_b = None
        if self.needs_input_grad[1]:  # (other's first, as torch)
            grad_b = grad * a / b
        if self.needs_input_grad[0]:
            grad_a = fn.masked_fill(fn.xlogy(grad, b), (a == 0) & (b <= 0), 0)
        return grad_a, grad_b


class XlogyBackward1(Node):
    formula = Formula("z", "self log(other), self a number", d={"other": "self / other"})
    saves = {"other": Input(0)}

    def forward(self, b, number):
        self.save(self=number)  # (PyTorch's name for the number: ``_saved_self``)
        return kernels.xlogy(b.dtype.type(number), b)

    def backward(self, saved, grad):
        return grad * saved.self / saved.other


class XlogyBackward2(Node):
    formula = Formula("z", "self log(other), other a number", d={"self": "log(other)"})
    saves = {"self": Input(0), "other": Param(None)}

    def forward(self, a, other=None):
        return kernels.xlogy(a, a.dtype.type(other))

    def backward(self, saved, grad):
        result = fn.xlogy(grad, saved.other)
        return result if saved.other > 0 else fn.masked_fill(result, saved.self == 0, 0)


class SpecialEntrBackward0(Node):
    formula = Formula("y", "-x log(x)", d={"x": "-(1 + log(x))"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.entr(x)

    def backward(self, saved, grad):
        return grad * -(1 + fn.log(saved.self))


class I0Backward0(Node):
    formula = Formula("y", "I0(x), the modified Bessel function of the first kind, order 0",
                      d={"x": "I1(x)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.i0(x)

    def backward(self, saved, grad):
        return grad * fn.special_i1(saved.self)


class SpecialI1Backward0(Node):
    formula = Formula("y", "I1(x), the modified Bessel function of the first kind, order 1",
                      d={"x": "I0(x) - I1(x) / x (1/2 at x = 0)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return kernels.i1(x)

    def backward(self, saved, grad):
        return i1_backward(grad, saved.self, saved.result)


def i1_backward(grad, x, result):
    """grad (I0(x) - I1(x) / x), with x replaced by eps where |x| <= eps and 1/2 put
    there (PyTorch's i1_backward: the formula is 0/0 at 0)."""
    if not is_tensor(grad):
        return kernels.i1_backward(grad, x, result)
    eps = float(np.finfo(x.dtype.numpy).eps)
    not_tiny = fn.abs(x) > eps
    safe = fn.where(not_tiny, x, eps)
    scaled = result * fn.reciprocal(safe)  # (made before i0, as PyTorch's compiled order)
    return grad * fn.where(not_tiny, fn.i0(safe) - scaled, 0.5)


class SpecialI0EBackward0(Node):
    formula = Formula("y", "exp(-|x|) I0(x)", d={"x": "i1e(x) - sgn(x) y"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return kernels.i0e(x)

    def backward(self, saved, grad):
        scaled = fn.sgn(saved.self) * saved.result  # (made first, as PyTorch's compiled order)
        return grad * (fn.special_i1e(saved.self) - scaled)


class SpecialI1EBackward0(Node):
    formula = Formula("y", "exp(-|x|) I1(x)",
                      d={"x": "i0e(x) - y (sgn(x) + 1 / x) (1/2 at x = 0)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return kernels.i1e(x)

    def backward(self, saved, grad):
        return i1e_backward(grad, saved.self, saved.result)


def i1e_backward(grad, x, result):
    """grad (i0e(x) - i1e(x) (sgn(x) + 1 / x)), with x replaced by eps where |x| <= eps
    and 1/2 put there (PyTorch's i1e_backward)."""
    if not is_tensor(grad):
        return kernels.i1e_backward(grad, x, result)
    eps = float(np.finfo(x.dtype.numpy).eps)
    not_tiny = fn.abs(x) > eps
    safe = fn.where(not_tiny, x, eps)
    inverse = fn.reciprocal(safe)  # (then sgn, then i0e: PyTorch's compiled order)
    scaled = result * (fn.sgn(safe) + inverse)
    return grad * fn.where(not_tiny, fn.special_i0e(safe) - scaled, 0.5)


class SpecialXlog1PyBackward0(Node):
    formula = Formula("z", "self log1p(other), 0 where self = 0",
                      d={"self": "log1p(other)", "other": "self / (other + 1)"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.xlog1py(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        grad_a = grad_b = None
        if self.needs_input_grad[1]:  # (other's first, and other + 1 first in it, as torch)
            shifted = b + 1
            grad_b = grad * a / shifted
        if self.needs_input_grad[0]:
            grad_a = fn.masked_fill(fn.xlog1py(grad, b), (a == 0) & (b <= -1), 0)
        return grad_a, grad_b


class SpecialXlog1PyBackward1(Node):
    formula = Formula("z", "self log1p(other), self a number", d={"other": "self / (other + 1)"})
    saves = {"other": Input(0)}

    def forward(self, b, number):
        self.save(self=number)  # (PyTorch's name for the number: ``_saved_self``)
        return kernels.xlog1py(b.dtype.type(number), b)

    def backward(self, saved, grad):
        shifted = saved.other + 1  # (made first, as PyTorch's compiled order)
        return grad * saved.self / shifted


class SpecialXlog1PyBackward2(Node):
    formula = Formula("z", "self log1p(other), other a number", d={"self": "log1p(other)"})
    saves = {"self": Input(0), "other": Param(None)}

    def forward(self, a, other=None):
        return kernels.xlog1py(a, a.dtype.type(other))

    def backward(self, saved, grad):
        result = fn.xlog1py(grad, saved.other)
        return result if saved.other > -1 else fn.masked_fill(result, saved.self == 0, 0)


class LerpBackward0(Node):
    formula = Formula("z", "self + weight (end - self), weight a number",
                      d={"self": "1 - weight", "end": "weight"})
    saves = {"weight": Param(None)}

    def forward(self, start, end, weight=None):
        return kernels.lerp(start, end, weight)

    def backward(self, saved, grad):
        weight = saved.weight
        # (times: a half gradient times the number in float32, rounded once, as torch)
        grad_end = times(grad, weight) if self.needs_input_grad[1] else None
        grad_start = times(grad, 1 - float(weight)) if self.needs_input_grad[0] else None
        return grad_start, grad_end


class LerpBackward1(Node):
    formula = Formula("z", "self + weight (end - self)",
                      d={"self": "1 - weight", "end": "weight", "weight": "end - self"})
    saves = {"self": Input(0, for_grad_of=2), "end": Input(1, for_grad_of=2),
             "weight": Input(2)}

    def forward(self, start, end, weight):
        return kernels.lerp(start, end, weight)

    def backward(self, saved, grad):
        weight, (needs_start, needs_end, needs_weight) = saved.weight, self.needs_input_grad
        # (in torch's order: end's, self's, then weight's)
        grad_end = grad * weight if needs_end else None
        grad_start = grad * fn.number_minus(1, weight) if needs_start else None
        grad_weight = grad * (saved.end - saved.self) if needs_weight else None
        return grad_start, grad_end, grad_weight


class LgammaBackward0(Node):
    formula = Formula("y", "log |gamma(x)|", d={"x": "digamma(x)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.lgamma(x)

    def backward(self, saved, grad):
        return grad * fn.digamma(saved.self)


class DigammaBackward0(Node):
    formula = Formula("y", "digamma(x) = d/dx log gamma(x)", d={"x": "polygamma(1, x)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.digamma(x)

    def backward(self, saved, grad):
        return grad * fn.trigamma(saved.self)


class PolygammaBackward0(Node):
    formula = Formula("y", "polygamma(n, x): the n-th derivative of digamma(x)",
                      d={"x": "polygamma(n + 1, x)"})
    saves = {"n": Param(1), "self": Input(0)}

    def forward(self, x, n=1):
        return kernels.polygamma(n, x)

    def backward(self, saved, grad):
        return grad * fn.polygamma(saved.n + 1, saved.self)


class PolygammaBackward1(PolygammaBackward0):
    pass  # (x.polygamma_(n): PyTorch's node for the in-place form)


class AddcmulBackward0(Node):
    formula = Formula("z", "self + value * tensor1 * tensor2",
                      d={"self": "1", "tensor1": "value * tensor2", "tensor2": "value * tensor1"})
    saves = {"tensor1": Input(1, for_grad_of=2), "tensor2": Input(2, for_grad_of=1),
             "value": Param(1)}

    def forward(self, x, tensor1, tensor2, value=1):
        return kernels.addcmul(x, tensor1, tensor2, value)

    def backward(self, saved, grad):
        _, needs_1, needs_2 = self.needs_input_grad
        grad_1 = grad * (saved.tensor2 * saved.value) if needs_1 else None
        grad_2 = grad * (saved.tensor1 * saved.value) if needs_2 else None
        return grad, grad_1, grad_2


class AddcdivBackward0(Node):
    formula = Formula("z", "self + value * tensor1 / tensor2",
                      d={"self": "1", "tensor1": "value / tensor2",
                         "tensor2": "-value * tensor1 / tensor2**2"})
    saves = {"tensor1": Input(1, for_grad_of=2), "tensor2": Input(2), "value": Param(1)}

    def forward(self, x, tensor1, tensor2, value=1):
        return kernels.addcdiv(x, tensor1, tensor2, value)

    def backward(self, saved, grad):
        (_, needs_1, needs_2), value, t2 = self.needs_input_grad, saved.value, saved.tensor2
        grad_1 = grad_2 = None
        if needs_1:
            grad_1 = grad * fn.number_over(value, t2)
        if needs_2:
            square = t2 * t2  # (C++ records each operator's right operand first)
            factor = value * saved.tensor1 / square
            grad_2 = -grad * factor
        return grad, grad_1, grad_2


class LogaddexpBackward0(Node):
    formula = Formula("z", "log(exp(self) + exp(other))",
                      d={"self": "1 / (1 + exp(other - self))",
                         "other": "1 / (1 + exp(self - other))"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.logaddexp(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        grad_b = grad / (1 + fn.exp(a - b)) if self.needs_input_grad[1] else None
        grad_a = grad / (1 + fn.exp(b - a)) if self.needs_input_grad[0] else None
        return grad_a, grad_b


class Logaddexp2Backward0(Node):
    formula = Formula("z", "log2(2**self + 2**other)",
                      d={"self": "1 / (1 + 2**(other - self))",
                         "other": "1 / (1 + 2**(self - other))"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.logaddexp2(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        grad_b = grad / (1 + fn.rpow(2, a - b)) if self.needs_input_grad[1] else None
        grad_a = grad / (1 + fn.rpow(2, b - a)) if self.needs_input_grad[0] else None
        return grad_a, grad_b


class NextafterBackward0(Node):
    formula = Formula("z", "the float next to self toward other",
                      d={"self": "1 (0 where self = other)", "other": "0"})
    saves = {"self": Input(0, for_grad_of=0), "other": Input(1, for_grad_of=0)}

    def forward(self, a, b):
        return kernels.nextafter(a, b)

    def backward(self, saved, grad):
        grad_b = fn.zeros(grad.shape, grad) if self.needs_input_grad[1] else None
        return fn.where(saved.self != saved.other, grad, 0), grad_b


class CopysignBackward0(Node):
    formula = Formula("z", "|self| with the sign of other",
                      d={"self": "z / self (0 where self = 0)", "other": "0"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, a, b):
        return kernels.copysign(a, b)

    def backward(self, saved, grad):
        grad_b = fn.zeros(grad.shape, grad) if self.needs_input_grad[1] else None
        grad_a = fn.copysign_backward(grad, saved.self, saved.result) \
            if self.needs_input_grad[0] else None
        return grad_a, grad_b


class CopysignBackward1(Node):
    formula = Formula("z", "|self| with the sign of other, other a number",
                      d={"self": "z / self (0 where self = 0)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, a, other=None):
        return kernels.copysign(a, a.dtype.type(other))

    def backward(self, saved, grad):
        return fn.copysign_backward(grad, saved.self, saved.result)


# ---- the entry functions ---------------------------------------------------------


def erf(x):
    return promotion.unary(ErfBackward0, x)


def erfc(x):
    return promotion.unary(ErfcBackward0, x)


def erfinv(x):
    return promotion.unary(ErfinvBackward0, x)


def exp2(x):
    return promotion.unary(Exp2Backward0, x)


def expit(x):
    """``torch.special.expit``: the logistic sigmoid (SigmoidBackward0)."""
    return pointwise.sigmoid(x)


def logit(x, eps=None):
    """log(x / (1 - x)), the inverse of the sigmoid; ``eps`` clamps x first."""
    dtype = promotion.float_dtype_for(x.dtype)
    return with_unary_layout(LogitBackward0.apply(x, cast_to=dtype, eps=eps), x)


def xlogy(a, b):
    """a log(b), and 0 where a is 0 (unless b is NaN); either may be a number."""
    if is_tensor(a) and is_tensor(b):
        return promotion.binary(XlogyBackward0, a, b, "xlogy", float_only=True)
    number = b if is_tensor(a) else a
    if promotion.python_number(number) is None and not isinstance(number, np.ndarray):
        # (neither a tensor nor a number: the caller's error)
        return NotImplemented
    dtype = promotion.float_dtype_for(dtypes.result_type(a, b))
    if is_tensor(a):
        return with_unary_layout(XlogyBackward2.apply(a, cast_to=dtype, other=number), a)
    return with_unary_layout(XlogyBackward1.apply(b, cast_to=dtype, number=number), b)


def xlog1py(a, b):
    """a log1p(b), and 0 where a is 0 (unless b is NaN); either may be a number."""
    if is_tensor(a) and is_tensor(b):
        return promotion.binary(SpecialXlog1PyBackward0, a, b, "special_xlog1py",
                                float_only=True)
    number = b if is_tensor(a) else a
    dtype = promotion.float_dtype_for(dtypes.result_type(a, b))
    if is_tensor(a):
        return with_unary_layout(SpecialXlog1PyBackward2.apply(a, cast_to=dtype, other=number), a)
    return with_unary_layout(SpecialXlog1PyBackward1.apply(b, cast_to=dtype, number=number), b)


def entr(x):
    return promotion.unary(SpecialEntrBackward0, x)


def lerp(start, end, weight):
    """start + weight (end - start): LerpBackward0 for a number weight, 1 for a tensor."""
    dtype = rules.check_lerp(start, end, weight)
    if is_tensor(weight):
        arrays = (start._data, end._data, weight._data)
        broadcast_shapes(*(a.shape for a in arrays))
        return with_iterator_layout(LerpBackward1.apply(start, end, weight, cast_to=dtype),
                                    *arrays)
    check_opmath_scalars(dtype, weight)
    return promotion.binary(LerpBackward0, start, end, "lerp", params={"weight": weight})


def lgamma(x):
    return promotion.unary(LgammaBackward0, x)


def i0(x):
    return promotion.unary(I0Backward0, x)


def special_i1(x):
    return promotion.unary(SpecialI1Backward0, x)


def special_i0e(x):
    return promotion.unary(SpecialI0EBackward0, x)


def special_i1e(x):
    return promotion.unary(SpecialI1EBackward0, x)


def digamma(x):
    return promotion.unary(DigammaBackward0, x)


def polygamma(n, x, node_cls=PolygammaBackward0):
    """The n-th derivative of digamma (PolygammaBackward0; n = 0 is digamma itself)."""
    rules.check_polygamma(n)
    return with_unary_layout(node_cls.apply(x, cast_to=promotion.float_dtype_for(
        x.dtype), n=n), x)


def polygamma_(x, n):
    """What ``x.polygamma_(n)`` computes (on a copy of x; see ops.inplace): PolygammaBackward1."""
    return polygamma(n, x, PolygammaBackward1)


def addcmul(x, tensor1, tensor2, value=1):
    """x + value * tensor1 * tensor2, broadcast (AddcmulBackward0)."""
    return _addc(AddcmulBackward0, "addcmul", x, tensor1, tensor2, value)


def addcdiv(x, tensor1, tensor2, value=1):
    """x + value * tensor1 / tensor2, broadcast (AddcdivBackward0)."""
    return _addc(AddcdivBackward0, "addcdiv", x, tensor1, tensor2, value)


def _addc(node_cls, name, x, tensor1, tensor2, value):
    value = value.item() if is_tensor(value) else promotion.python_number(value)
    dtype = dtypes.result_type(x, tensor1, tensor2)
    rules.check_addc(name, dtype, tensor1, tensor2)
    check_opmath_scalars(dtype, value)
    arrays = (x._data, tensor1._data, tensor2._data)
    broadcast_shapes(*(a.shape for a in arrays))
    rules.check_addc_kernel(name, dtype)
    return with_iterator_layout(node_cls.apply(x, tensor1, tensor2, cast_to=dtype, value=value),
                                *arrays, cast_to=dtype.numpy)


def logaddexp(a, b):
    rules.check_floating("logaddexp_cpu", a, b)
    return promotion.binary(LogaddexpBackward0, a, b, "logaddexp")


def logaddexp2(a, b):
    rules.check_floating("logaddexp2_cpu", a, b)
    return promotion.binary(Logaddexp2Backward0, a, b, "logaddexp2")


def nextafter(a, b):
    """The float next to ``a`` toward ``b``; floats only, as PyTorch's kernel."""
    rules.check_floating("nextafter_cpu", a, b)
    return promotion.binary(NextafterBackward0, a, b, "nextafter")


def copysign(a, b):
    """|a| with the sign of b (a number or a tensor); integers give floats."""
    if is_tensor(b):
        return promotion.binary(CopysignBackward0, a, b, "copysign", float_only=True)
    if promotion.python_number(b) is None and not isinstance(b, np.ndarray):
        # (neither a tensor nor a number: the caller's error)
        return NotImplemented
    dtype = promotion.float_dtype_for(dtypes.result_type(a, b))
    return with_unary_layout(CopysignBackward1.apply(a, cast_to=dtype, other=b), a)


def float_power(base, exponent):
    """base ** exponent in float64, as PyTorch: both converted to float64 (ToCopyBackward0
    where they were not), then ``pow``."""
    if is_tensor(base):
        base = shape.to_dtype(base, dtypes.float64)
    if is_tensor(exponent):
        exponent = shape.to_dtype(exponent, dtypes.float64)
    return arithmetic.pow(base, float(exponent) if not is_tensor(exponent) else exponent)


def ndtr(x):
    """The standard normal CDF, as PyTorch composes it: (1 + erf(x * sqrt(1/2))) * 0.5
    (C++'s Scalar overloads: MulBackward1, AddBackward1)."""
    x_sqrt_2 = arithmetic.scalar_op(x, "*", _SQRT1_2)
    return arithmetic.scalar_op(arithmetic.scalar_op(erf(x_sqrt_2), "+", 1), "*", 0.5)


def heaviside(x, values):
    """0 where x < 0, 1 where x > 0, ``values`` where x is 0. PyTorch has no derivative
    for it (its node is ``NotImplemented``)."""
    rules.check_heaviside(x, values)
    return promotion.binary(rounding.NotImplemented, x, values, "heaviside",
                            params={"operation": "heaviside"})
