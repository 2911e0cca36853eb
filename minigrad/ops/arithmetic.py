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
from ..autograd.tensor_base import TensorBase, is_tensor, make

__all__ = ["add", "sub", "rsub", "mul", "div", "neg", "pow", "rpow", "reciprocal", "power",
           "scalar_op"]


_NO_PARAMS: dict = {}  # (shared: never changed)


def _binary(node_cls, a, b, op: str, float_only: bool = False, params: dict = _NO_PARAMS):
    """Promote dtypes, check the shapes broadcast, and apply ``node_cls`` (with
    ``params``, the keyword arguments of its ``forward``). Either operand may
    be a Python number (``torch.add(2, x)``)."""
    a_is_tensor, b_is_tensor = isinstance(a, TensorBase), isinstance(b, TensorBase)
    if a_is_tensor and b_is_tensor:
        a_data, b_data = a._data, b._data
        if a_data.shape != b_data.shape and a_data.ndim and b_data.ndim:
            broadcast_shapes(a_data.shape, b_data.shape)  # (a 0-dim one always fits)
        if a.dtype is b.dtype and (not float_only or a.dtype.is_floating_point):
            # The common case, kept quick: one dtype, nothing to convert.
            result = apply_to_arrays(node_cls, (a, b), (a_data, b_data), params,
                                     a_data.shape == b_data.shape and a_data.ndim > 0)
        else:
            dtype = dtypes.result_type(a, b)
            if float_only:
                dtype = float_dtype_for(dtype)
            if dtype is _HALF and not b_data.ndim and node_cls in _HALF_WITH_SCALAR:
                result = apply_to_arrays(node_cls, (a, b), (_as_half(a_data), _opmath(b_data)),
                                         params)
            else:
                result = node_cls.apply(a, b, cast_to=dtype, **params)
        # Operands of different layouts, an empty result: torch's layout (see with_iterator_layout).
        if (result._data.ndim > 1 and not (a_data.flags.c_contiguous and b_data.flags.c_contiguous)
                or not result._data.size):  # (NumPy's strides for an empty result are 0)
            with_iterator_layout(result, a_data, b_data)
        return result
    tensor, number = (a, b) if a_is_tensor else (b, a)
    quick = type(number) in (float, int) and tensor.dtype.is_floating_point
    if quick:
        dtype = tensor.dtype  # x * 0.5, x + 1 on a float tensor, kept quick
    else:
        if type(number) not in (int, float, bool):  # (a NumPy scalar, None, a list, ...)
            return _other_operand(node_cls, a, b, number, a_is_tensor, op, float_only, params)
        dtype = dtypes.result_type(a, b)
        if float_only:
            dtype = float_dtype_for(dtype)
    if grad_mode._in_formula and node_cls in _SCALAR_OVERLOADS and (
            a_is_tensor or node_cls is not DivBackward0):
        # Inside a backward formula (create_graph=True): tensor op number is
        # C++'s Scalar overload, as in PyTorch's formulas.
        return _scalar_overload(_SCALAR_OVERLOADS[node_cls], tensor, number, dtype, params)
    if quick and dtype is _HALF and a_is_tensor and node_cls in _HALF_WITH_SCALAR:
        constant, array = _number_operand(number, dtypes.float32)
        result = apply_to_arrays(node_cls, (a, constant), (a._data, array), params)
    elif quick:  # (the number's tensor and its array in the tensor's dtype, made once)
        constant, array = _number_operand(number, dtype)
        inputs, arrays = ((a, constant), (a._data, array)) if a_is_tensor else \
            ((constant, b), (array, b._data))
        result = apply_to_arrays(node_cls, inputs, arrays, params, tensor._data.ndim > 0)
    elif a_is_tensor and dtype is _HALF and node_cls in _HALF_WITH_SCALAR:
        constant, array = _number_operand(b, dtypes.float32)  # (a bool or an int times a half)
        result = apply_to_arrays(node_cls, (a, constant), (_as_half(a._data), array), params)
    elif a_is_tensor:
        result = node_cls.apply(a, _wrapped(b), cast_to=dtype, **params)
    else:
        result = node_cls.apply(_wrapped(a), b, cast_to=dtype, **params)
    if (result._data.ndim > 1 or not result._data.size) and result._data.strides != tensor._data.strides:
        with_number_layout(result, tensor._data)  # (see there: only then can it differ)
    return result


def _other_operand(node_cls, a, b, number, a_is_tensor, op, float_only, params):
    """``tensor op value`` for a value that is neither a tensor nor a Python number: a
    NumPy scalar counts as its Python number (torch's parser reads it so); anything else
    gives NotImplemented, as torch's operators do, so that Python asks the other operand
    and words the error itself ("unsupported operand type(s) for +: 'NoneType' and
    'Tensor'"); ``x + [1]`` and ``x + np.ones(2)`` go to list's and NumPy's own operators."""
    value = python_number(number)
    if value is None:
        return NotImplemented
    a, b = (a, value) if a_is_tensor else (value, b)
    return _binary(node_cls, a, b, op, float_only, params)


def _as_half(array: np.ndarray) -> np.ndarray:
    return array if array.dtype == np.float16 else array.astype(np.float16)


def _opmath(scalar: np.ndarray) -> np.ndarray:
    """A scalar operand of a float16 ``*`` or ``/`` as torch's CPU kernel takes it: its own
    value (not first rounded to half) as a float32 (see _HALF_WITH_SCALAR)."""
    return scalar if scalar.dtype == np.float32 else scalar.astype(np.float32)


def _wrapped(value):
    """A Python number as the 0-dim tensor torch wraps it in (int64, float64 or bool:
    ``(x * 0.1).grad_fn._saved_other`` is ``tensor(0.1000, dtype=torch.float64)``).
    The promotion above already treated it as a number; the op casts it."""
    return _number_operand(value, None)[0]


def _number_operand(value, dtype) -> tuple:
    """A number operand: its wrapped tensor (see ``_wrapped``) and the array the
    op computes with, that tensor's value as ``dtype`` (a minigrad dtype; None:
    as wrapped). Made once per value and dtype: ``x * 2`` in a loop reuses one
    tensor(2), and one array of 2 in x's dtype."""
    key = (value, type(value), dtype)  # (1 == 1.0 == True, but they wrap differently)
    if value == 0:
        key += (math.copysign(1.0, value),)  # (and 0.0 == -0.0, but x * -0.0 is -0.)
    operand = _NUMBERS.get(key)
    if operand is None:
        if dtype is not None:
            constant = _wrapped(value)
            data = constant._data
            if data.dtype != dtype.numpy:
                data = data.astype(dtype.numpy)
                data.flags.writeable = False
        else:
            if isinstance(value, (bool, np.bool_)):
                np_dtype = np.bool_
            elif isinstance(value, (int, np.integer)):
                np_dtype = np.int64
            else:
                np_dtype = np.float64
            data = np.array(value, np_dtype)
            data.flags.writeable = False  # shared between graphs: nobody may change it
            constant = make(data)
        operand = _NUMBERS[key] = (constant, data)
        if len(_NUMBERS) > 128:  # values that change every step (Adam's) must not pile up
            _NUMBERS.pop(next(iter(_NUMBERS)))
    return operand


# (value, type, dtype) -> (wrapped tensor, its value as dtype): the numbers seen lately
_NUMBERS: dict = {}


def _is_bool(value) -> bool:
    if is_tensor(value):
        return value.dtype is dtypes.bool
    return isinstance(value, bool)  # (np.bool_: torch's parser reads it as a float)


def _is_operand(value) -> bool:
    """A tensor or a number (else the operator gives NotImplemented: see _other_operand)."""
    return is_tensor(value) or python_number(value) is not None


def _check_sub(a, b) -> None:
    """torch refuses - on bools (it would not be the logical operation people expect)."""
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead."
        )
    if (_is_bool(a) or _is_bool(b)) and _is_operand(a) and _is_operand(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def _check_pow(dtype, exponent=None) -> None:
    if dtype is dtypes.bool:
        raise NotImplementedError('"pow" not implemented for \'Bool\'')
    if (dtype.is_integer and isinstance(exponent, (int, np.integer))
            and not isinstance(exponent, (bool, np.bool_)) and exponent < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")


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


# float16 times (or divided by) a scalar, a Python number or a 0-dim tensor given second:
# torch's CPU kernels compute it in float32 with the scalar's own value (not first rounded
# to half) and round the product once to half (``x * 0.1``: 0.15 where half arithmetic
# gives 0.1499); +, - and a scalar given first compute in half. Forward receives the
# scalar as a float32 array, and formulas on arrays get float32 products, which the
# node's gradient check rounds to half. (Two float16 tensors: NumPy's half loops compute
# in float32 too.)
_HALF_WITH_SCALAR = ()  # (filled in below the classes)
_HALF = dtypes.float16


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


_SCALAR_OVERLOADS = {AddBackward0: AddBackward1, SubBackward0: SubBackward1,
                     MulBackward0: MulBackward1, DivBackward0: DivBackward1}


def scalar_op(a, op: str, number):
    """``a op number`` as C++'s Scalar overload records it (AddBackward1, SubBackward1,
    MulBackward1, DivBackward1): what PyTorch's ops written in C++ put in the graph
    (cross_entropy's ``(1 - e) * loss`` is MulBackward1), where Python's ``a * number``
    records MulBackward0 with the number wrapped in a tensor."""
    dtype = dtypes.result_type(a, number)
    if op == "/":
        dtype = float_dtype_for(dtype)
    return _scalar_overload(_SCALAR_OVERLOADS[_BY_OPERATOR[op]], a, number, dtype)


def _scalar_overload(node_cls, tensor, number, dtype, params: dict = _NO_PARAMS):
    """``tensor op number`` recorded as ``node_cls`` (AddBackward1, ...: C++'s Scalar
    overload), in ``dtype``, laid out as torch lays out a tensor-and-number result."""
    return with_number_layout(node_cls.apply(tensor, cast_to=dtype, other=number, **params),
                              tensor._data)


_BY_OPERATOR = {"+": AddBackward0, "-": SubBackward0, "*": MulBackward0, "/": DivBackward0}
_HALF_WITH_SCALAR = (MulBackward0, DivBackward0)


def add(a, b, alpha=1):
    """a + alpha * b (either may be a Python number); broadcasting applies."""
    return _binary(AddBackward0, a, b, "+", params=_NO_PARAMS if alpha == 1 else {"alpha": alpha})


def sub(a, b, alpha=1):
    _check_sub(a, b)
    return _binary(SubBackward0, a, b, "-", params=_NO_PARAMS if alpha == 1 else {"alpha": alpha})


def rsub(a, other):
    """other - a: ``2 - x`` (RsubBackward1), or ``torch.rsub`` of two tensors (RsubBackward0)."""
    if is_tensor(other):
        _check_sub(a, other)
        return _binary(RsubBackward0, a, other, "-")
    other = python_number(other)
    if other is None:  # (see _other_operand)
        return NotImplemented
    _check_sub(a, other)
    return with_number_layout(RsubBackward1.apply(a, cast_to=dtypes.result_type(a, other), other=other),
                              a._data)


def mul(a, b):
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
    return with_unary_layout(NegBackward0.apply(a), a)


def reciprocal(a):
    return with_unary_layout(ReciprocalBackward0.apply(a, cast_to=float_dtype_for(a.dtype)), a)


def pow(a, exponent):
    """a ** exponent, for a number or tensor exponent (or a number base: ``pow(2, x)``)."""
    if not is_tensor(a):
        return rpow(exponent, a)
    if is_tensor(exponent):
        dtype = dtypes.result_type(a, exponent)
        _check_pow(dtype)  # (bool ** bool works with a Python bool exponent only)
        return _binary(PowBackward1, a, exponent, "** or pow()")
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
        _check_pow(dtype, exponent)
    return with_unary_layout(PowBackward0.apply(a, cast_to=dtype, exponent=exponent), a)


def rpow(a, base):
    """base ** a for a Python number ``base`` (``2 ** x``)."""
    base = python_number(base)
    if base is None:  # (see _other_operand)
        return NotImplemented
    dtype = dtypes.result_type(a, base)
    _check_pow(dtype)
    return with_contiguous_layout(PowBackward2.apply(a, cast_to=dtype, base=base))

