"""Comparisons: ==, !=, <, <=, >, >= (and eq, ne, ...), isclose, allclose, and
the logical/bitwise operators & | ^ ~ on bool and integer tensors; gcd and lcm of
integers; signbit and isin.

They are not differentiable (no graph is recorded): their outputs are
piecewise constant, so the derivative is zero wherever it exists. Only a comparison
written in place into a tensor that needs a gradient (``y.lt_(x)``: 1 or 0 in y's
dtype) is recorded, as PyTorch records it (``LtBackward1``; ``LtBackward0`` against a
number), passing on zeros.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.broadcast import broadcast_shapes
from ..autograd.formula import Formula
from ..autograd.node import Node
from ..autograd.record import converted
from ..rules.arguments import check_tensor_operands, refuse_meta
from . import fn
from ..rules.promotion import check_python_int, is_number, python_number, wrapped_to
from ..autograd.tensor_base import is_tensor, make
from ..kernels import rounding as kernels_rounding
from ..rules.layout import with_iterator_layout, with_number_layout, with_unary_layout

__all__ = ["compared_in_place", "eq", "ne", "lt", "le", "gt", "ge", "isclose", "allclose", "equal", "bitwise_and",
           "bitwise_left_shift", "bitwise_right_shift", "number_first", "bitwise_or", "bitwise_xor", "bitwise_not", "logical_and", "logical_or", "logical_xor",
           "logical_not", "bitwise_not_function", "gcd", "lcm", "signbit", "isin"]


def _compare(ufunc, a, b):
    if is_tensor(b):
        broadcast_shapes(a._data.shape, b._data.shape)
        dtype = dtypes.result_type(a, b)
        return with_iterator_layout(
            make(np.asarray(ufunc(converted(a._data, dtype.numpy),
                                  converted(b._data, dtype.numpy)))),
            a._data, b._data, cast_to=dtype.numpy)
    if isinstance(b, (int, float, bool, np.number, np.bool_)):
        check_python_int(b)  # (a C++ Scalar: an int past 64 bits refused)
        if a.dtype.is_integer and isinstance(b, (int, np.integer)) and not isinstance(b, bool):
            b = np.asarray(b).astype(a._data.dtype)  # (torch casts it to x's type: wraps)
        elif a.dtype.is_floating_point and (isinstance(b, float) or isinstance(b, int) and not
                                            isinstance(b, bool) and -2**63 <= b < 2**63):
            # (past a float16's range: inf, as torch converts it, without NumPy's warning)
            b = converted(np.asarray(b), a._data.dtype)
        return with_number_layout(make(np.asarray(ufunc(a._data, b))), a._data)
    return NotImplemented


class _ComparedInPlace(Node):
    """x compared with other (a tensor, or a number: a parameter), 1 or 0 in x's dtype,
    for ``x.lt_(other)``; its derivative is zero wherever it exists."""
    formula = Formula("y", "x < other (or ==, !=, <=, >, >=) as 1 or 0",
                      d={"x": "0", "other": "0"})
    compare = staticmethod(np.less)

    def forward(self, x, other):
        return np.asarray(self.compare(x, other)).astype(x.dtype)

    def backward(self, saved, grad):
        zeros = fn.zeros(grad.shape, grad)
        return zeros if len(self.needs_input_grad) == 1 else (zeros, zeros)


class EqBackward0(_ComparedInPlace):
    compare = staticmethod(np.equal)


class EqBackward1(EqBackward0):
    pass


class NeBackward0(_ComparedInPlace):
    compare = staticmethod(np.not_equal)


class NeBackward1(NeBackward0):
    pass


class LtBackward0(_ComparedInPlace):
    compare = staticmethod(np.less)


class LtBackward1(LtBackward0):
    pass


class LeBackward0(_ComparedInPlace):
    compare = staticmethod(np.less_equal)


class LeBackward1(LeBackward0):
    pass


class GtBackward0(_ComparedInPlace):
    compare = staticmethod(np.greater)


class GtBackward1(GtBackward0):
    pass


class GeBackward0(_ComparedInPlace):
    compare = staticmethod(np.greater_equal)


class GeBackward1(GeBackward0):
    pass


_IN_PLACE = {"eq": (EqBackward0, EqBackward1), "ne": (NeBackward0, NeBackward1),
             "lt": (LtBackward0, LtBackward1), "le": (LeBackward0, LeBackward1),
             "gt": (GtBackward0, GtBackward1), "ge": (GeBackward0, GeBackward1)}


def compared_in_place(name: str):
    """The op ``x.lt_(other)`` writes into x (``ops.inplace`` writes it): with a tensor or
    a number ``other``, x compared with it in x's dtype, recorded as PyTorch records it."""
    plain = globals()[name]

    def op(x, other):
        if is_tensor(other):
            broadcast_shapes(x._data.shape, other._data.shape)
            return _IN_PLACE[name][1].apply(x, other)
        if is_number(other):
            return _IN_PLACE[name][0].apply(x, other=python_number(other))
        return plain(x, other)
    op.__name__ = name  # (``x.lt_("a")``'s error names lt_)
    return op


def eq(a, b):
    return _compare(np.equal, a, b)


def ne(a, b):
    return _compare(np.not_equal, a, b)


def lt(a, b):
    return _compare(np.less, a, b)


def le(a, b):
    return _compare(np.less_equal, a, b)


def gt(a, b):
    return _compare(np.greater, a, b)


def ge(a, b):
    return _compare(np.greater_equal, a, b)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b|, elementwise."""
    if is_tensor(b) and a.dtype is not b.dtype:
        raise RuntimeError(
            f"{dtypes.SCALAR_NAMES[a.dtype]} did not match {dtypes.SCALAR_NAMES[b.dtype]}")
    if is_tensor(b):
        broadcast_shapes(a.shape, b.shape)  # (PyTorch's text for shapes that do not match)
    b_data = b._data if is_tensor(b) else b
    result = make(np.asarray(np.isclose(a._data, b_data, rtol, atol, equal_nan)))
    return with_iterator_layout(result, a._data, b_data) if is_tensor(b) else result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """True when every element of ``a`` is close to ``b`` (see ``isclose``)."""
    return bool(isclose(a, b, rtol, atol, equal_nan).all().item())  # (meta: item's error)


def equal(a, b, method: bool = False) -> bool:
    """True when ``a`` and ``b`` have the same shape and the same values (as
    ``torch.equal``: dtypes are promoted, NaN is never equal to itself)."""
    for position, (role, value) in enumerate((("input", a), ("other", b)), start=1):
        if method and role == "input":
            continue
        if not is_tensor(value):
            kind = type(value)
            name = f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__
            raise TypeError(f"equal(): argument '{role}' (position {position - method}) must be "
                            f"Tensor, not {name}")
    refuse_meta("equal", a, b)
    return a.shape == b.shape and bool(np.array_equal(a._data, b._data))


def _bitwise(ufunc, name, a, b, bools=True):
    """& | ^ (and the shifts, not of two bools) on bool and integer tensors (and Python
    ints/bools)."""
    if not is_tensor(b):
        b = python_number(b)  # (a NumPy scalar: as torch's parser reads it)
        if b is None:
            return NotImplemented
    if is_tensor(b):  # (shapes first, then the dtype, as torch's TensorIterator)
        broadcast_shapes(a._data.shape, b._data.shape)
    dtype = dtypes.result_type(a, b)
    if dtype.is_floating_point or (dtype is dtypes.bool and not bools):
        raise NotImplementedError(
            f'"{name}_cpu" not implemented for \'{dtypes.SCALAR_NAMES[dtype]}\'')
    # (a number cast to the result's dtype as C casts it: uint8's -2 is 254)
    other = converted(b._data, dtype.numpy) if is_tensor(b) \
        else np.asarray(b).astype(dtype.numpy)
    result = make(np.asarray(ufunc(converted(a._data, dtype.numpy), other), dtype=dtype.numpy))
    # (laid out as torch's iterator lays out the operands, converted: as_iterator_sees)
    return with_iterator_layout(result, a._data, b._data, cast_to=dtype.numpy) if is_tensor(b) \
        else with_number_layout(result, a._data)


def bitwise_and(a, b):
    return _bitwise(np.bitwise_and, "bitwise_and", a, b)


def bitwise_or(a, b):
    return _bitwise(np.bitwise_or, "bitwise_or", a, b)


def bitwise_xor(a, b):
    return _bitwise(np.bitwise_xor, "bitwise_xor", a, b)


def number_first(number, tensor):
    """``2 << x``: the number as a 0-dim tensor of the result's dtype (PyTorch's Scalar
    overload), or NotImplemented for what is not a number."""
    value = number if is_tensor(number) else python_number(number)
    if value is None:
        return NotImplemented
    if is_tensor(value):
        return value
    dtype = dtypes.result_type(tensor, value)
    return make(np.array(wrapped_to(value, dtype), dtype=dtype.numpy))


def bitwise_left_shift(a, b):
    """``a << b``: integers (a bool with an int promotes to int64)."""
    return _bitwise(kernels_rounding.left_shift, "lshift", a, b, bools=False)


def bitwise_right_shift(a, b):
    """``a >> b``: integers, the sign kept."""
    return _bitwise(kernels_rounding.right_shift, "rshift", a, b, bools=False)


def bitwise_not(a):
    """``~a``: logical not for bool tensors, bitwise not for integers."""
    if a.dtype.is_floating_point:
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return with_unary_layout(make(np.asarray(np.invert(a._data))), a)


def bitwise_not_function(a):
    """``torch.bitwise_not(a)``, ``a.bitwise_not()``: as ``~a``, with the kernel's error
    for a float tensor (the operator's is a TypeError)."""
    if a.dtype.is_floating_point:
        raise NotImplementedError(
            f'"bitwise_not_cpu" not implemented for \'{dtypes.SCALAR_NAMES[a.dtype]}\'')
    return bitwise_not(a)


def _logical(ufunc, name, a, b):
    """and/or/xor of "is nonzero", elementwise: a bool tensor (either may be any dtype)."""
    check_tensor_operands(name, a, b)
    broadcast_shapes(a._data.shape, b._data.shape)
    return with_iterator_layout(make(np.asarray(ufunc(a._data, b._data))), a._data, b._data,
                                cast_to=dtypes.result_type(a, b).numpy)


def logical_and(a, b):
    return _logical(np.logical_and, "logical_and", a, b)


def logical_or(a, b):
    return _logical(np.logical_or, "logical_or", a, b)


def logical_xor(a, b):
    return _logical(np.logical_xor, "logical_xor", a, b)


def logical_not(a):
    return with_unary_layout(make(np.asarray(np.logical_not(a._data))), a)


def isnan(a):
    """True where ``a`` is NaN (never for integers)."""
    return with_unary_layout(make(np.asarray(np.isnan(a._data))), a)


def isinf(a):
    """True where ``a`` is +inf or -inf."""
    return with_unary_layout(make(np.asarray(np.isinf(a._data))), a)


def isfinite(a):
    """True where ``a`` is neither infinite nor NaN."""
    return with_unary_layout(make(np.asarray(np.isfinite(a._data))), a)


def _integers(ufunc, name, a, b):
    """gcd and lcm: integer tensors only (bool too is refused), as PyTorch's kernels."""
    dtype = dtypes.result_type(a, b)
    if not dtype.is_integer:
        raise NotImplementedError(
            f'"{name}_cpu" not implemented for \'{dtypes.SCALAR_NAMES[dtype]}\'')
    broadcast_shapes(a._data.shape, b._data.shape)
    result = ufunc(converted(a._data, dtype.numpy), converted(b._data, dtype.numpy))
    return with_iterator_layout(make(np.asarray(result, dtype.numpy)), a._data, b._data,
                                cast_to=dtype.numpy)


def gcd(a, b):
    """The greatest common divisor, elementwise (never negative; gcd(0, 0) = 0)."""
    return _integers(np.gcd, "gcd", a, b)


def lcm(a, b):
    """The least common multiple, elementwise (never negative; 0 with a 0)."""
    return _integers(np.lcm, "lcm", a, b)


def signbit(a):
    """Whether the sign bit is set: True for -0.0 and -nan too (False for bool)."""
    data = a._data
    return with_unary_layout(make(np.asarray(np.signbit(data) if data.dtype != np.bool_
                                             else np.zeros(data.shape, np.bool_))), a)


def isin(elements, test_elements, invert=False):
    """Whether each of ``elements`` is among ``test_elements`` (a bool tensor of
    ``elements``' shape; NaN is in nothing)."""
    values = elements._data if is_tensor(elements) else np.asarray(elements)
    tests = test_elements._data if is_tensor(test_elements) else np.asarray(test_elements)
    return make(np.asarray(np.isin(values, tests, invert=invert)))
