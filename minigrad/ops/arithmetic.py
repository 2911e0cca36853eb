"""+ - * / ** and negation.

Each node's ``backward`` returns the gradient for each input at the
*broadcast* shape; the node's check of each gradient (``Node._validate``, on arrays
``_validate_array``) sums it back to the input's shape (``sum_to`` in
``autograd/broadcast.py``), so no formula here deals with broadcasting.

The classes come first, then the entry functions (``add``, ``mul``, ...): each hands
its operands to ``rules.promotion`` (PyTorch's dtype promotion and number wrapping),
which applies the class.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..kernels.arithmetic import divided, divide, multiply, mul_backward, plus_times, power, times
from ..autograd import forward_ad, grad_mode
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, Param, RESULT
from . import fn
from ..rules.layout import with_contiguous_layout, with_number_layout, with_unary_layout
from ..autograd.broadcast import broadcast_shapes
from ..rules.promotion import float_dtype_for, python_number
from ..rules import arguments, promotion
from ..rules.arguments import alpha_params
from ..rules.power import check_float_pow, unrecorded_power
from ..autograd.tensor_base import is_tensor

__all__ = ["add", "sub", "rsub", "mul", "div", "neg", "pow", "rpow", "reciprocal", "power",
           "scalar_op"]


class AddBackward0(Node):
    formula = Formula("z", "self + alpha * other", d={"self": "1", "other": "alpha"})

    saves = {"alpha": Param(1)}

    def forward(self, a, b, alpha=1):
        if alpha != 1:
            return plus_times(a, b, alpha)
        return np.add(a, b)

    def backward(self, saved, grad):
        alpha = saved.alpha
        return grad, (grad if alpha == 1 else grad * alpha)


class SubBackward0(Node):
    formula = Formula("z", "self - alpha * other", d={"self": "1", "other": "-alpha"})

    saves = {"alpha": Param(1)}

    def forward(self, a, b, alpha=1):
        return np.subtract(a, b) if alpha == 1 else plus_times(a, b, -alpha)

    def backward(self, saved, grad):
        alpha = saved.alpha
        return grad, (-grad if alpha == 1 else grad * -alpha)


class RsubBackward1(Node):
    formula = Formula("z",
                      "other - alpha * self",
                      d={"self": "-alpha"},
                      note="``2 - x``: other is a number.")

    saves = {"alpha": Param(1)}

    def forward(self, a, other, alpha=1):
        return np.subtract(other, a) if alpha == 1 else np.subtract(other, alpha * a)

    def backward(self, saved, grad):
        alpha = saved.alpha
        return -grad if alpha == 1 else grad * -alpha


class RsubBackward0(Node):
    formula = Formula("z",
                      "other - alpha * self",
                      d={"self": "-alpha", "other": "1"},
                      note="``torch.rsub`` of two tensors.")

    saves = {"alpha": Param(1)}

    def forward(self, a, other, alpha=1):
        return np.subtract(other, a) if alpha == 1 else plus_times(other, a, -alpha)

    def backward(self, saved, grad):
        alpha = saved.alpha
        return (-grad if alpha == 1 else grad * -alpha), grad


class MulBackward0(Node):
    formula = Formula("z", "self * other", d={"self": "other", "other": "self"})
    # (each input is kept for the other's gradient only)
    saves = {"other": Input(1, for_grad_of=0), "self": Input(0, for_grad_of=1)}
    fused_backward = staticmethod(mul_backward)  # (speed only: big arrays, both in one pass)

    def forward(self, a, b):
        return multiply(a, b)

    def backward(self, saved, grad):
        needs_self, needs_other = self.needs_input_grad
        grad_other = grad * saved.self if needs_other else None  # (first, as in torch)
        grad_self = grad * saved.other if needs_self else None
        return grad_self, grad_other


# The ...Backward1 nodes below take a Python number as ``other``.
_SCALAR_OVERLOAD = ("other is a number (C++'s Scalar overload, as recorded inside backward "
                    "formulas).")


class AddBackward1(Node):
    formula = Formula("z", "self + alpha * other", d={"self": "1"},
                      note=_SCALAR_OVERLOAD)

    def forward(self, a, other, alpha=1):
        return np.add(a, other if alpha == 1 else alpha * other)

    def backward(self, saved, grad):
        return grad


class SubBackward1(Node):
    formula = Formula("z", "self - alpha * other", d={"self": "1"},
                      note=_SCALAR_OVERLOAD)

    def forward(self, a, other, alpha=1):
        return np.subtract(a, other if alpha == 1 else alpha * other)

    def backward(self, saved, grad):
        return grad


class MulBackward1(Node):
    formula = Formula("z", "self * other", d={"self": "other"},
                      note=_SCALAR_OVERLOAD)

    def forward(self, a, other):
        self.save(other=other)
        return times(a, other)

    def backward(self, saved, grad):
        return times(grad, saved.other)


class DivBackward1(Node):
    formula = Formula("z", "self / other", d={"self": "1 / other"},
                      note="other is a number (C++'s Scalar overload: mean's backward "
                           "divides by the count this way).")

    def forward(self, a, other):
        self.save(other=other)
        return divided(a, other)

    def backward(self, saved, grad):
        return divided(grad, saved.other)


class DivBackward0(Node):
    formula = Formula("z", "self / other", d={"self": "1 / other", "other": "-self / other**2"})
    saves = {"self": Input(0, for_grad_of=1), "other": Input(1)}

    def forward(self, a, b):
        return divide(a, b)

    def backward(self, saved, grad):
        # As torch computes it, in its order: the divisor's gradient first (torch's
        # generated backward takes the inputs by name, alphabetically: other before
        # self), the quotient before the sign (C++ evaluates the right operand of
        # ``-grad * (...)`` first). With create_graph=True the order is that of the
        # nodes recorded, and a later backward runs the latest first: it decides in
        # which order gradients reaching one tensor are added up.
        other = saved.other
        grad_a = grad_b = None
        if self.needs_input_grad[1]:
            ratio = (saved.self / other) / other
            grad_b = -grad * ratio
        if self.needs_input_grad[0]:
            grad_a = grad / other
        return grad_a, grad_b


class NegBackward0(Node):
    formula = Formula("z", "-self", d={"self": "-1"})
    float_errors = False  # (a sign flip: NumPy reports nothing)

    def forward(self, a):
        return np.negative(a)

    def backward(self, saved, grad):
        return -grad


class ReciprocalBackward0(Node):
    formula = Formula("z", "1 / self", d={"self": "-1 / self**2 = -z**2"})
    saves = {"result": RESULT}

    def forward(self, a):
        return np.asarray(np.reciprocal(a))  # (ufuncs give 0-dim inputs back as scalars)

    def backward(self, saved, grad):
        result = saved.result
        square = result * result  # (first, as C++ evaluates -grad * (result * result))
        return -grad * square


class PowBackward0(Node):
    formula = Formula("z",
                      "self ** exponent",
                      d={"self": "exponent * self ** (exponent - 1)"},
                      note="exponent is a number.")
    saves = {"self": Input(0)}

    def forward(self, a, exponent):
        self.save(exponent=exponent)
        return power(a, exponent)

    def backward(self, saved, grad):
        exponent = float(saved.exponent)  # (torch's formula takes it as a double)
        if exponent == 0:
            return fn.zeros(grad.shape, grad)  # (torch: zeros, not grad * 0)
        return grad * times(fn.pow(saved.self, exponent - 1), exponent)  # (a half's: in float)


class PowBackward1(Node):
    formula = Formula("z",
                      "self ** exponent",
                      d={"self": "exponent * self ** (exponent - 1)",
                         "exponent": "z * log(self)"},
                      note="exponent is a tensor.")
    saves = {"self": Input(0), "exponent": Input(1), "result": RESULT}

    def forward(self, a, b):
        return np.asarray(power(a, b))

    def backward(self, saved, grad):
        # (in torch's order, its inputs by name: exponent's gradient first)
        base, exponent = saved.self, saved.exponent
        grad_a = grad_b = None
        if self.needs_input_grad[1]:
            # d/db a**b = a**b * log(a); taken as 0 where a == 0 and b >= 0
            result_log = saved.result * fn.log(base)
            grad_b = grad * fn.where((exponent >= 0) & (base == 0), 0.0, result_log)
        if self.needs_input_grad[0]:
            arguments.check_pow_base_gradient(exponent)  # (exponent - 1 refuses a bool)
            # where exponent == 0 the derivative is 0 (avoids 0 * inf at base 0)
            grad_a = fn.where(exponent == 0, 0.0, grad * (exponent * base ** (exponent - 1)))
        return grad_a, grad_b


class PowBackward2(Node):
    formula = Formula("z",
                      "self ** exponent",
                      d={"exponent": "z * log(self)"},
                      note="A number as base (``2 ** x``).")
    saves = {"exponent": Input(0), "result": RESULT}

    def forward(self, exponent, base):
        self.save(self=base)  # (a number)
        return np.asarray(power(base, exponent))

    def backward(self, saved, grad):
        base = saved.self
        if base == 0:  # d/db 0**b is taken as 0 for b >= 0 (log(0) would give nan)
            return grad * fn.where(saved.exponent >= 0, 0.0,
                                   saved.result * float("-inf"))
        log_base = float(np.log(base))
        return grad * (saved.result * log_base)


def scalar_op(a, op: str, number):
    """``a op number`` as C++'s Scalar overload records it (AddBackward1, SubBackward1,
    MulBackward1, DivBackward1): what PyTorch's ops written in C++ put in the graph
    (cross_entropy's ``(1 - e) * loss`` is MulBackward1), where Python's ``a * number``
    records MulBackward0 with the number wrapped in a tensor."""
    dtype = dtypes.result_type(a, number)
    if op == "/":
        dtype = float_dtype_for(dtype)
    return promotion.apply_scalar_overload(_SCALAR_OVERLOADS[op], a, number, dtype)


_SCALAR_OVERLOADS = {"+": AddBackward1, "-": SubBackward1, "*": MulBackward1, "/": DivBackward1}


def add(a, b, alpha=1):
    """a + alpha * b (either may be a Python number); broadcasting applies."""
    return promotion.binary(AddBackward0, a, b, "+", params=alpha_params(alpha, a, b),
                            scalar_overload=AddBackward1, elementwise=True)


def sub(a, b, alpha=1):
    arguments.check_sub(a, b)
    return promotion.binary(SubBackward0, a, b, "-", params=alpha_params(alpha, a, b),
                            scalar_overload=SubBackward1, elementwise=True)


def rsub(a, other, alpha=1):
    """other - alpha * a: ``2 - x`` (RsubBackward1), or ``torch.rsub`` of two tensors
    (RsubBackward0)."""
    if is_tensor(other):
        arguments.check_sub(a, other)
        broadcast_shapes(other.shape, a.shape)  # (PyTorch's text names other a, as other - a)
        return promotion.binary(RsubBackward0, a, other, "-", params=alpha_params(alpha, a, other),
                                elementwise=True)
    other = python_number(other)
    if other is None:  # (None, a list, ...: see promotion._other_operand)
        return NotImplemented
    arguments.check_sub(a, other)
    dtype = dtypes.result_type(a, other)
    node = RsubBackward1.apply(a, cast_to=dtype, other=promotion.wrapped_to(other, dtype),
                               **alpha_params(alpha, a, other))
    return with_number_layout(node, a._data)


def mul(a, b):
    return promotion.binary(MulBackward0, a, b, "*", scalar_overload=MulBackward1,
                            elementwise=True)


def div(a, b):
    """True division; integer inputs give a float result."""
    return promotion.binary(DivBackward0, a, b, "/", float_only=True,
                            scalar_overload=DivBackward1, elementwise=True)


def neg(a):
    if a.dtype is dtypes.bool:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return with_unary_layout(NegBackward0.apply(a), a)


def reciprocal(a):
    return with_unary_layout(ReciprocalBackward0.apply(a, cast_to=float_dtype_for(a.dtype)), a)


def pow(a, exponent):
    """a ** exponent, for a number or tensor exponent (or a number base: ``pow(2, x)``)."""
    if not is_tensor(a):
        return rpow(exponent, a)
    if is_tensor(exponent):
        dtype = dtypes.result_type(a, exponent)
        if dtype is dtypes.bool:  # (the shapes first, as torch's TensorIterator)
            broadcast_shapes(a.shape, exponent.shape)
        arguments.check_pow(dtype)  # (bool ** bool works with a Python bool exponent only)
        if exponent.dtype is dtypes.bool and dtype is not dtypes.bool:
            return promotion.binary_keeping_bool_other(PowBackward1, a, exponent)
        return promotion.binary(PowBackward1, a, exponent, "** or pow()")
    if type(exponent) in (int, float) and a.dtype.is_floating_point:
        # The common case, kept quick: a float tensor keeps its dtype.
        if (grad_mode._enabled and a.requires_grad) or forward_ad.active:
            check_float_pow(a.dtype, exponent)  # (torch's range errors)
            return with_unary_layout(PowBackward0.apply(a, exponent=exponent), a)
        return unrecorded_power(a, exponent)  # (x ** 3 on data: no node, see there)
    exponent = python_number(exponent)
    if exponent is None:  # (None, a list, ...: see promotion._other_operand)
        return NotImplemented
    dtype = dtypes.result_type(a, exponent)
    if dtype is not dtypes.bool:
        arguments.check_pow(dtype, exponent)
    return with_unary_layout(PowBackward0.apply(a, cast_to=dtype, exponent=exponent), a)


def rpow(a, base):
    """base ** a for a Python number ``base`` (``2 ** x``)."""
    base = python_number(base)
    if base is None:  # (None, a list, ...: see promotion._other_operand)
        return NotImplemented
    dtype = dtypes.result_type(a, base)
    arguments.check_pow(dtype)
    return with_contiguous_layout(PowBackward2.apply(a, cast_to=dtype,
                                                     base=promotion.wrapped_to(base, dtype)))

