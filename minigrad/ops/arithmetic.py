"""+ - * / ** and negation.

Each node's ``backward`` returns the gradient for each input at the
*broadcast* shape; ``Node._validate`` sums it back to the input's shape
(see ``autograd/broadcast.py``), so no formula here deals with broadcasting.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.broadcast import broadcast_shapes
from ..autograd.node import Node
from ._common import check_operand, float_dtype_for, is_tensor

__all__ = ["add", "sub", "rsub", "mul", "div", "neg", "pow", "rpow", "reciprocal"]


def _binary(node_cls, a, b, op: str, float_only: bool = False, **params):
    """Promote dtypes, check the shapes broadcast, and apply ``node_cls``."""
    check_operand(op, b)
    dtype = dtypes.result_type(a, b)
    if float_only:
        dtype = float_dtype_for(dtype)
    if is_tensor(b) and a._data.shape != b._data.shape:
        broadcast_shapes(a._data.shape, b._data.shape)
    return node_cls.apply(a, b, cast_to=dtype, **params)


class AddBackward0(Node):
    """z = self + alpha * other.   dz/dself = 1,  dz/dother = alpha"""

    def forward(self, a, b, alpha=1):
        self.save(alpha=alpha)
        return np.add(a, b) if alpha == 1 else np.add(a, alpha * b)

    def backward(self, grad):
        alpha = self._saved_alpha
        return grad, (grad if alpha == 1 else grad * alpha)


class SubBackward0(Node):
    """z = self - alpha * other.   dz/dself = 1,  dz/dother = -alpha"""

    def forward(self, a, b, alpha=1):
        self.save(alpha=alpha)
        return np.subtract(a, b) if alpha == 1 else np.subtract(a, alpha * b)

    def backward(self, grad):
        alpha = self._saved_alpha
        return grad, (-grad if alpha == 1 else grad * -alpha)


class RsubBackward1(Node):
    """z = other - alpha * self (``2 - x``).   dz/dself = -alpha"""

    def forward(self, a, other, alpha=1):
        self.save(alpha=alpha)
        return np.subtract(other, a) if alpha == 1 else np.subtract(other, alpha * a)

    def backward(self, grad):
        alpha = self._saved_alpha
        return -grad if alpha == 1 else grad * -alpha


class MulBackward0(Node):
    """z = self * other.   dz/dself = other,  dz/dother = self"""

    def forward(self, a, b):
        self.save(self=a, other=b)
        return np.multiply(a, b)

    def backward(self, grad):
        grad_a = grad * self._saved_other if self.needs_input_grad[0] else None
        grad_b = grad * self._saved_self if self.needs_input_grad[1] else None
        return grad_a, grad_b


class DivBackward0(Node):
    """z = self / other.   dz/dself = 1 / other,  dz/dother = -self / other**2"""

    def forward(self, a, b):
        self.save(self=a, other=b)
        return np.true_divide(a, b)

    def backward(self, grad):
        other = self._saved_other
        grad_a = grad / other if self.needs_input_grad[0] else None
        grad_b = -grad * self._saved_self / (other * other) if self.needs_input_grad[1] else None
        return grad_a, grad_b


class NegBackward0(Node):
    """z = -self.   dz/dself = -1"""

    def forward(self, a):
        return np.negative(a)

    def backward(self, grad):
        return -grad


class ReciprocalBackward0(Node):
    """z = 1 / self.   dz/dself = -1 / self**2 = -z**2"""

    def forward(self, a):
        result = np.reciprocal(a)
        self.save(result=result)
        return result

    def backward(self, grad):
        result = self._saved_result
        return -grad * (result * result)


class PowBackward0(Node):
    """z = self ** exponent (a number).   dz/dself = exponent * self ** (exponent - 1)"""

    def forward(self, a, exponent):
        self.save(self=a, exponent=exponent)
        return np.power(a, exponent)

    def backward(self, grad):
        exponent = self._saved_exponent
        if exponent == 0:
            return grad * 0
        return grad * exponent * self._saved_self ** (exponent - 1)


class PowBackward1(Node):
    """z = self ** exponent (a tensor).
    dz/dself = exponent * self ** (exponent - 1),  dz/dexponent = z * log(self)"""

    def forward(self, a, b):
        result = np.power(a, b)
        self.save(self=a, exponent=b, result=result)
        return result

    def backward(self, grad):
        base, exponent = self._saved_self, self._saved_exponent
        grad_a = grad_b = None
        if self.needs_input_grad[0]:
            # where exponent == 0 the derivative is 0 (avoids 0 * inf at base 0)
            grad_a = (grad * exponent * base ** (exponent - 1)).masked_fill(exponent == 0, 0.0)
        if self.needs_input_grad[1]:
            # d/db a**b = a**b * log(a); taken as 0 where a == 0 and b >= 0
            log_base = base.log().masked_fill((base == 0) & (exponent >= 0), 0.0)
            grad_b = grad * self._saved_result * log_base
        return grad_a, grad_b


class PowBackward2(Node):
    """z = self ** exponent with a number as base (``2 ** x``).
    dz/dexponent = z * log(self)"""

    def forward(self, exponent, base):
        result = np.power(base, exponent)
        self.save(self=base, exponent=exponent, result=result)
        return result

    def backward(self, grad):
        return grad * self._saved_result * float(np.log(self._saved_self))


def add(a, b, alpha=1):
    """a + b (b may be a Python number); broadcasting applies."""
    if not is_tensor(a):
        a, b = b, a  # 2 + x computes x + 2, as in PyTorch
    return _binary(AddBackward0, a, b, "+", **({} if alpha == 1 else {"alpha": alpha}))


def sub(a, b, alpha=1):
    return _binary(SubBackward0, a, b, "-", **({} if alpha == 1 else {"alpha": alpha}))


def rsub(a, other):
    """other - a for a Python number ``other`` (``2 - x``)."""
    if is_tensor(other):
        return sub(other, a)
    check_operand("-", other)
    return RsubBackward1.apply(a, cast_to=dtypes.result_type(a, other), other=other)


def mul(a, b):
    if not is_tensor(a):
        a, b = b, a
    return _binary(MulBackward0, a, b, "*")


def div(a, b):
    """True division; integer inputs give a float result."""
    return _binary(DivBackward0, a, b, "/", float_only=True)


def neg(a):
    if a.dtype is dtypes.bool:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return NegBackward0.apply(a)


def reciprocal(a):
    return ReciprocalBackward0.apply(a, cast_to=float_dtype_for(a.dtype))


def pow(a, exponent):
    """a ** exponent, for a number or tensor exponent."""
    if is_tensor(exponent):
        return _binary(PowBackward1, a, exponent, "** or pow()")
    check_operand("** or pow()", exponent)
    return PowBackward0.apply(a, cast_to=dtypes.result_type(a, exponent), exponent=exponent)


def rpow(a, base):
    """base ** a for a Python number ``base`` (``2 ** x``)."""
    check_operand("** or pow()", base)
    return PowBackward2.apply(a, cast_to=dtypes.result_type(a, base), base=base)
