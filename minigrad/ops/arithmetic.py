"""+ - * / ** and negation.

Each node's ``backward`` returns the gradient for each input at the
*broadcast* shape; ``Node._validate`` sums it back to the input's shape
(see ``autograd/broadcast.py``), so no formula here deals with broadcasting.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..kernels import threads
from ..kernels.arithmetic import (divided, divide, multiply, plus_times, power, times,
                                 two_products)
from ..autograd import grad_mode
from ..kernels.float_errors import restore as restore_float_errors, silence as silence_float_errors
from ..autograd.formula import Formula
from ..autograd.node import Input, Node, apply_to_arrays
from . import fn
from ..rules.layout import (with_contiguous_layout, with_iterator_layout, with_number_layout,
                      with_unary_layout)
from ..autograd.broadcast import broadcast_shapes
from ..rules.promotion import float_dtype_for, python_number
from ..rules import arguments, promotion
from ..autograd.tensor_base import TensorBase, is_tensor, make

__all__ = ["add", "sub", "rsub", "mul", "div", "neg", "pow", "rpow", "reciprocal", "power",
           "scalar_op"]


class AddBackward0(Node):
    formula = Formula("z", "self + alpha * other", d={"self": "1", "other": "alpha"})
    elementwise = True

    saved_params = {"alpha": 1}

    def forward(self, a, b, alpha=1):
        if alpha != 1:
            return plus_times(a, b, alpha)
        return np.add(a, b)

    def backward(self, grad):
        alpha = self._saved_alpha
        return grad, (grad if alpha == 1 else grad * alpha)


class SubBackward0(Node):
    formula = Formula("z", "self - alpha * other", d={"self": "1", "other": "-alpha"})
    elementwise = True

    saved_params = {"alpha": 1}

    def forward(self, a, b, alpha=1):
        return np.subtract(a, b) if alpha == 1 else plus_times(a, b, -alpha)

    def backward(self, grad):
        alpha = self._saved_alpha
        return grad, (-grad if alpha == 1 else grad * -alpha)


class RsubBackward1(Node):
    formula = Formula("z",
                      "other - alpha * self",
                      d={"self": "-alpha"},
                      note="``2 - x``: other is a number.")

    saved_params = {"alpha": 1}

    def forward(self, a, other, alpha=1):
        return np.subtract(other, a) if alpha == 1 else np.subtract(other, alpha * a)

    def backward(self, grad):
        alpha = self._saved_alpha
        return -grad if alpha == 1 else grad * -alpha


class RsubBackward0(Node):
    formula = Formula("z",
                      "other - alpha * self",
                      d={"self": "-alpha", "other": "1"},
                      note="``torch.rsub`` of two tensors.")
    elementwise = True

    saved_params = {"alpha": 1}

    def forward(self, a, other, alpha=1):
        return np.subtract(other, a) if alpha == 1 else plus_times(other, a, -alpha)

    def backward(self, grad):
        alpha = self._saved_alpha
        return (-grad if alpha == 1 else grad * -alpha), grad


class MulBackward0(Node):
    formula = Formula("z", "self * other", d={"self": "other", "other": "self"})
    elementwise = True
    # (each input is kept for the other's gradient only)
    saved_inputs = {"other": Input(1, for_grad_of=0), "self": Input(0, for_grad_of=1)}
    writes_into_grad = True  # (big arrays: self's gradient, see two_products)

    def forward(self, a, b):
        return multiply(a, b)

    def backward(self, grad):
        # (other's gradient first, in torch's order: see DivBackward0)
        needs_a, needs_b = self.needs_input_grad
        if needs_a and needs_b and type(grad) is np.ndarray and grad.size >= BIG:
            return two_products(grad, self._saved_other, self._saved_self,
                                    self._grad_is_free)
        grad_b = grad * self._saved_self if needs_b else None
        grad_a = grad * self._saved_other if needs_a else None
        return grad_a, grad_b


BIG = threads.BIG  # (elements: from here on, a big product's two gradients in one pass)




# The ...Backward1 nodes below take a Python number as ``other``.
_SCALAR_OVERLOAD = ("other is a number (C++'s Scalar overload, as recorded inside backward "
                    "formulas).")


class AddBackward1(Node):
    formula = Formula("z", "self + alpha * other", d={"self": "1"},
                      note=_SCALAR_OVERLOAD)

    def forward(self, a, other, alpha=1):
        return np.add(a, other if alpha == 1 else alpha * other)

    def backward(self, grad):
        return grad


class SubBackward1(Node):
    formula = Formula("z", "self - alpha * other", d={"self": "1"},
                      note=_SCALAR_OVERLOAD)

    def forward(self, a, other, alpha=1):
        return np.subtract(a, other if alpha == 1 else alpha * other)

    def backward(self, grad):
        return grad


class MulBackward1(Node):
    formula = Formula("z", "self * other", d={"self": "other"},
                      note=_SCALAR_OVERLOAD)

    def forward(self, a, other):
        self.save(other=other)
        return times(a, other)

    def backward(self, grad):
        return times(grad, self._saved_other)


class DivBackward1(Node):
    formula = Formula("z", "self / other", d={"self": "1 / other"},
                      note="other is a number (C++'s Scalar overload: mean's backward "
                           "divides by the count this way).")

    def forward(self, a, other):
        self.save(other=other)
        return divided(a, other)

    def backward(self, grad):
        return divided(grad, self._saved_other)


class DivBackward0(Node):
    formula = Formula("z", "self / other", d={"self": "1 / other", "other": "-self / other**2"})
    elementwise = True
    saved_inputs = {"self": Input(0, for_grad_of=1), "other": 1}

    def forward(self, a, b):
        return divide(a, b)

    def backward(self, grad):
        # As torch computes it, in its order: the divisor's gradient first (torch's
        # generated backward takes the inputs by name, alphabetically: other before
        # self), the quotient before the sign (C++ evaluates the right operand of
        # ``-grad * (...)`` first). With create_graph=True the order is that of the
        # nodes recorded, and a later backward runs the latest first: it decides in
        # which order gradients reaching one tensor are added up.
        other = self._saved_other
        grad_a = grad_b = None
        if self.needs_input_grad[1]:
            ratio = (self._saved_self / other) / other
            grad_b = -grad * ratio
        if self.needs_input_grad[0]:
            grad_a = grad / other
        return grad_a, grad_b


class NegBackward0(Node):
    formula = Formula("z", "-self", d={"self": "-1"})
    float_errors = False  # (a sign flip: NumPy reports nothing)

    def forward(self, a):
        return np.negative(a)

    def backward(self, grad):
        return -grad


class ReciprocalBackward0(Node):
    formula = Formula("z", "1 / self", d={"self": "-1 / self**2 = -z**2"})
    saves_result = True

    def forward(self, a):
        return np.asarray(np.reciprocal(a))  # (ufuncs give 0-dim inputs back as scalars)

    def backward(self, grad):
        result = self._saved_result
        square = result * result  # (first, as C++ evaluates -grad * (result * result))
        return -grad * square


class PowBackward0(Node):
    formula = Formula("z",
                      "self ** exponent",
                      d={"self": "exponent * self ** (exponent - 1)"},
                      note="exponent is a number.")
    saved_inputs = {"self": 0}

    def forward(self, a, exponent):
        self.save(exponent=exponent)
        return power(a, exponent)

    def backward(self, grad):
        exponent = float(self._saved_exponent)  # (torch's formula takes it as a double)
        if exponent == 0:
            return fn.zeros(grad.shape, grad)  # (torch: zeros, not grad * 0)
        return grad * (exponent * fn.pow(self._saved_self, exponent - 1))


class PowBackward1(Node):
    formula = Formula("z",
                      "self ** exponent",
                      d={"self": "exponent * self ** (exponent - 1)",
                         "exponent": "z * log(self)"},
                      note="exponent is a tensor.")
    saved_inputs = {"self": 0, "exponent": 1}
    saves_result = True

    def forward(self, a, b):
        return np.asarray(power(a, b))

    def backward(self, grad):
        # (in torch's order, its inputs by name: exponent's gradient first)
        base, exponent = self._saved_self, self._saved_exponent
        grad_a = grad_b = None
        if self.needs_input_grad[1]:
            # d/db a**b = a**b * log(a); taken as 0 where a == 0 and b >= 0
            result_log = self._saved_result * fn.log(base)
            grad_b = grad * fn.where((exponent >= 0) & (base == 0), 0.0, result_log)
        if self.needs_input_grad[0]:
            # where exponent == 0 the derivative is 0 (avoids 0 * inf at base 0)
            grad_a = fn.where(exponent == 0, 0.0, grad * (exponent * base ** (exponent - 1)))
        return grad_a, grad_b


class PowBackward2(Node):
    formula = Formula("z",
                      "self ** exponent",
                      d={"exponent": "z * log(self)"},
                      note="A number as base (``2 ** x``).")
    saved_inputs = {"exponent": 0}
    saves_result = True

    def forward(self, exponent, base):
        self.save(self=base)  # (a number)
        return np.asarray(power(base, exponent))

    def backward(self, grad):
        base = self._saved_self
        if base == 0:  # d/db 0**b is taken as 0 for b >= 0 (log(0) would give nan)
            return grad * fn.where(self._saved_exponent >= 0, 0.0,
                                   self._saved_result * float("-inf"))
        log_base = float(np.log(base))
        return grad * (self._saved_result * log_base)




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


def _alpha(alpha) -> dict:
    return promotion.NO_PARAMS if alpha == 1 else {"alpha": alpha}


def add(a, b, alpha=1):
    """a + alpha * b (either may be a Python number); broadcasting applies."""
    return promotion.binary(AddBackward0, a, b, "+", params=_alpha(alpha),
                            scalar_overload=AddBackward1)


def sub(a, b, alpha=1):
    arguments.check_sub(a, b)
    return promotion.binary(SubBackward0, a, b, "-", params=_alpha(alpha),
                            scalar_overload=SubBackward1)


def rsub(a, other):
    """other - a: ``2 - x`` (RsubBackward1), or ``torch.rsub`` of two tensors (RsubBackward0)."""
    if is_tensor(other):
        arguments.check_sub(a, other)
        return promotion.binary(RsubBackward0, a, other, "-")
    other = python_number(other)
    if other is None:  # (see _other_operand)
        return NotImplemented
    arguments.check_sub(a, other)
    return with_number_layout(RsubBackward1.apply(a, cast_to=dtypes.result_type(a, other), other=other),
                              a._data)


def mul(a, b):
    return promotion.binary(MulBackward0, a, b, "*", scalar_overload=MulBackward1)


def div(a, b):
    """True division; integer inputs give a float result."""
    return promotion.binary(DivBackward0, a, b, "/", float_only=True,
                            scalar_overload=DivBackward1)


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
        arguments.check_pow(dtype)  # (bool ** bool works with a Python bool exponent only)
        return promotion.binary(PowBackward1, a, exponent, "** or pow()")
    if type(exponent) in (int, float) and a.dtype.is_floating_point:
        # The common case, kept quick: a float tensor keeps its dtype.
        if grad_mode._enabled and a.requires_grad:
            return with_unary_layout(PowBackward0.apply(a, exponent=exponent), a)
        # Nothing to record (x ** 3 on data): the value straight from ``power``,
        # without a node (issue 18: x ** 3 at the speed of two multiplications).
        token = silence_float_errors()
        try:
            return with_unary_layout(make(power(a._data, exponent)), a)
        finally:
            restore_float_errors(token)
    exponent = python_number(exponent)
    if exponent is None:  # (see _other_operand)
        return NotImplemented
    dtype = dtypes.result_type(a, exponent)
    if dtype is not dtypes.bool:
        arguments.check_pow(dtype, exponent)
    return with_unary_layout(PowBackward0.apply(a, cast_to=dtype, exponent=exponent), a)


def rpow(a, base):
    """base ** a for a Python number ``base`` (``2 ** x``)."""
    base = python_number(base)
    if base is None:  # (see _other_operand)
        return NotImplemented
    dtype = dtypes.result_type(a, base)
    arguments.check_pow(dtype)
    return with_contiguous_layout(PowBackward2.apply(a, cast_to=dtype, base=base))

