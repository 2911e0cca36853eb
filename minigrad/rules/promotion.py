"""PyTorch's type promotion around an op: which dtype a result gets, and how a Python
number beside a tensor is read (``x * 2`` keeps float32; ``torch.add(x, np.float32(2))``
reads the NumPy scalar as the Python number 2.0).

``binary`` (what ``x * y`` calls) and ``unary`` (``x.tanh()``) are where the ops'
entry functions come in. In the usual case, tensors of one float dtype, nothing is
converted: the arrays go straight to ``record.apply_to_arrays``, which runs the node
class's ``forward`` and records it. The rest is PyTorch's rules for mixed dtypes,
Python numbers, float16 with a scalar, and the layout of the result."""

from __future__ import annotations

import numpy as np

import math

from .. import dtypes
from ..autograd import grad_mode, inference
from ..autograd.broadcast import broadcast_shapes
from ..autograd.record import apply_to_arrays, converted
from ..autograd.tensor_base import TensorBase, make
from .layout import with_iterator_layout, with_number_layout, with_unary_layout


NUMBER_TYPES = (int, float, bool, np.number, np.bool_)


def is_number(value) -> bool:
    return isinstance(value, NUMBER_TYPES)


def python_number(value):
    """A NumPy scalar as the Python number PyTorch's parser reads it as (np.float32(2)
    is 2.0, np.int8(2) is 2, np.bool_(True) is 1.0: torch reads it as a float); a
    Python number as it is; None for anything else (None, a list, an array...)."""
    kind = type(value)
    if kind is int or kind is float or kind is bool:
        return value
    if isinstance(value, (np.floating, np.bool_)):
        return float(value)
    if isinstance(value, np.integer):
        return int(value)
    return None


def float_dtype_for(dtype: dtypes.dtype) -> dtypes.dtype:
    """Integer and bool inputs of float-only functions (exp, sqrt, /) give float32."""
    return dtype if dtype.is_floating_point else dtypes.get_default_dtype()


NO_PARAMS: dict = {}  # (shared: never changed)
_HALF = dtypes.float16


def binary_keeping_bool_other(node_cls, a, b):
    """``binary`` for a tensor ``a`` and a bool tensor ``b`` whose result has ``a``'s dtype,
    with ``b`` kept bool for ``forward`` and the node's saved value, as PyTorch saves it
    (``a ** mask``: PyTorch's gradient for ``a`` takes ``mask - 1``, which refuses a bool)."""
    a_data, b_data = a._data, b._data
    if a_data.shape != b_data.shape and a_data.ndim and b_data.ndim:
        broadcast_shapes(a_data.shape, b_data.shape)
    result = apply_to_arrays(node_cls, (a, b), (a_data, b_data), NO_PARAMS)
    if (result._data.ndim > 1 and not (a_data.flags.c_contiguous and b_data.flags.c_contiguous)
            or not result._data.size):
        with_iterator_layout(result, a_data, b_data, cast_to=result._data.dtype)
    return result


def binary(node_cls, a, b, op: str, float_only: bool = False, params: dict = NO_PARAMS,
           scalar_overload=None, elementwise: bool = False):
    """Promote dtypes, check the shapes broadcast, and apply ``node_cls`` (with
    ``params``, the keyword arguments of its ``forward``). Either operand may
    be a Python number (``torch.add(2, x)``).

    ``scalar_overload``: the node C++'s Scalar overload records for ``tensor op number``
    (``MulBackward1``), which PyTorch's backward formulas (C++) record; inside a formula
    run with ``create_graph=True``, ``grad * 2`` records it. float16 ``*`` and ``/`` with a
    scalar given second: ``half_with_scalar``.
    ``elementwise``: the op's gradients have its inputs' shapes (``+ - * /``), so that
    with operands of the result's shape they need no check (see ``Node._link``)."""
    a_is_tensor, b_is_tensor = isinstance(a, TensorBase), isinstance(b, TensorBase)
    if a_is_tensor and b_is_tensor:
        a_data, b_data = a._data, b._data
        if a_data.shape != b_data.shape and a_data.ndim and b_data.ndim:
            broadcast_shapes(a_data.shape, b_data.shape)  # (a 0-dim one always fits)
        if a.dtype is b.dtype and (not float_only or a.dtype.is_floating_point):
            # The common case, kept quick: one dtype, nothing to convert.
            result = apply_to_arrays(node_cls, (a, b), (a_data, b_data), params,
                                     elementwise and a_data.shape == b_data.shape and a_data.ndim > 0)
        else:
            result = _promoted(node_cls, a, b, op, float_only, params)
        # Operands of different layouts, an empty result: torch's layout (see with_iterator_layout).
        if (result._data.ndim > 1 and not (a_data.flags.c_contiguous and b_data.flags.c_contiguous)
                or not result._data.size):  # (NumPy's strides for an empty result are 0)
            with_iterator_layout(result, a_data, b_data, cast_to=result._data.dtype)
        return result
    tensor, number = (a, b) if a_is_tensor else (b, a)
    quick = type(number) in (float, int) and tensor.dtype.is_floating_point
    if quick:
        dtype = tensor.dtype  # x * 0.5, x + 1 on a float tensor, kept quick
    else:
        if type(number) not in (int, float, bool):  # (a NumPy scalar, None, a list, ...)
            return _other_operand(node_cls, a, b, number, a_is_tensor, op, float_only, params,
                                  scalar_overload, elementwise)
        dtype = dtypes.result_type(a, b)
        if float_only:
            dtype = float_dtype_for(dtype)
    if grad_mode._in_formula and scalar_overload is not None and (a_is_tensor or op != "/"):
        # Inside a backward formula (create_graph=True): tensor op number is
        # C++'s Scalar overload, as in PyTorch's formulas.
        return apply_scalar_overload(scalar_overload, tensor, number, dtype, params)
    if dtype is _HALF and a_is_tensor and op in _HALF_WITH_SCALAR:
        result = half_with_scalar(node_cls, a, number, params)
    elif quick:  # (the number's tensor and its array in the tensor's dtype, made once)
        constant, array = _number_operand(number, dtype)
        inputs, arrays = ((a, constant), (a._data, array)) if a_is_tensor else \
            ((constant, b), (array, b._data))
        result = apply_to_arrays(node_cls, inputs, arrays, params,
                                 elementwise and tensor._data.ndim > 0)
    elif a_is_tensor:
        result = node_cls.apply(a, _wrapped(b), cast_to=dtype, **params)
    else:
        result = node_cls.apply(_wrapped(a), b, cast_to=dtype, **params)
    if not result._data.size or (result._data.ndim > 1
                                 and result._data.strides != tensor._data.strides):
        with_number_layout(result, tensor._data)  # (see there: only then can it differ)
    return result


def _promoted(node_cls, a, b, op: str, float_only: bool, params: dict):
    """``binary`` for two tensors of different dtypes (or integers to a float-only op):
    both converted to the promoted dtype (a float16 result with a 0-dim ``b`` in ``*`` or
    ``/``: ``half_with_scalar``)."""
    dtype = dtypes.result_type(a, b)
    if float_only:
        dtype = float_dtype_for(dtype)
    if dtype is _HALF and not b._data.ndim and op in _HALF_WITH_SCALAR:
        return half_with_scalar(node_cls, a, b, params)
    return node_cls.apply(a, b, cast_to=dtype, **params)


def half_with_scalar(node_cls, a, scalar, params: dict):
    """``a * scalar`` or ``a / scalar`` with a float16 result, for a scalar given second (a
    Python number or a 0-dim tensor): as torch's CPU kernel computes it, in float32 with the
    scalar's own value, rounded once to half (see ``_HALF_WITH_SCALAR``). ``forward``
    receives ``a`` as float16 and the scalar as a float32 array."""
    if isinstance(scalar, TensorBase):
        operand, array = scalar, _opmath(scalar._data)
    else:  # (a number: its wrapped tensor, and its value as a float32 array, made once)
        operand, array = _number_operand(scalar, dtypes.float32)
    return apply_to_arrays(node_cls, (a, operand), (_as_half(a._data), array), params)


# float16 times (or divided by) a scalar, a Python number or a 0-dim tensor given second:
# torch's CPU kernels compute it in float32 with the scalar's own value (not first rounded
# to half) and round the product once to half (``x * 0.1``: 0.15 where half arithmetic
# gives 0.1499); +, - and a scalar given first compute in half. Forward receives the
# scalar as a float32 array, and formulas on arrays get float32 products, which the
# node's gradient check rounds to half. (Two float16 tensors: NumPy's half loops compute
# in float32 too.)
_HALF_WITH_SCALAR = ("*", "/")


def _as_half(array: np.ndarray) -> np.ndarray:
    """The tensor operand of a float16 op with a scalar, as float16 (a number past its
    range is inf, without NumPy's overflow warning: record.converted)."""
    return array if array.dtype == np.float16 else converted(array, np.float16)


def _opmath(scalar: np.ndarray) -> np.ndarray:
    """A scalar operand of a float16 ``*`` or ``/`` as torch's CPU kernel takes it: its own
    value (not first rounded to half) as a float32."""
    return scalar if scalar.dtype == np.float32 else scalar.astype(np.float32)


def _other_operand(node_cls, a, b, number, a_is_tensor, op, float_only, params,
                   scalar_overload, elementwise):
    """``tensor op value`` for a value that is neither a tensor nor a Python number: a
    NumPy scalar counts as its Python number (torch's parser reads it so); anything else
    gives NotImplemented, as torch's operators do, so that Python asks the other operand
    and words the error itself ("unsupported operand type(s) for +: 'NoneType' and
    'Tensor'"); ``x + [1]`` and ``x + np.ones(2)`` go to list's and NumPy's own operators."""
    value = python_number(number)
    if value is None:
        return NotImplemented
    a, b = (a, value) if a_is_tensor else (value, b)
    return binary(node_cls, a, b, op, float_only, params, scalar_overload, elementwise)


def check_python_int(value) -> None:
    """A Python int as PyTorch's argument parser reads a number (a C++ Scalar): an
    int64, or a uint64 above that; a larger one (or one below int64's least) is
    refused with its OverflowError."""
    if type(value) is int and not -2**63 <= value < 2**64:
        raise OverflowError("int too big to convert" if value > 0
                            else "can't convert negative int to unsigned")


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
                with np.errstate(over="ignore"):  # (2**40 as a half: inf, as torch's cast)
                    data = data.astype(dtype.numpy)
                data.flags.writeable = False
        else:
            if isinstance(value, (bool, np.bool_)):
                np_dtype = np.bool_
            elif isinstance(value, (int, np.integer)):
                check_python_int(value)
                np_dtype = np.int64
            else:
                np_dtype = np.float64
            data = np.array(value, np_dtype)
            data.flags.writeable = False  # shared between graphs: nobody may change it
            constant = make(data)
            inference.forget_inference(constant)  # (shared: made in inference mode or not)
        operand = _NUMBERS[key] = (constant, data)
        if len(_NUMBERS) > 128:  # values that change every step (Adam's) must not pile up
            _NUMBERS.pop(next(iter(_NUMBERS)))
    return operand


# (value, type, dtype) -> (wrapped tensor, its value as dtype): the numbers seen lately
_NUMBERS: dict = {}


def apply_scalar_overload(node_cls, tensor, number, dtype, params: dict = NO_PARAMS):
    """``tensor op number`` recorded as ``node_cls`` (AddBackward1, ...: C++'s Scalar
    overload), in ``dtype``, laid out as torch lays out a tensor-and-number result."""
    return with_number_layout(node_cls.apply(tensor, cast_to=dtype, other=number, **params),
                              tensor._data)


def unary(node_cls, x):
    """Elementwise float functions (exp, log, ...): integer inputs compute in float32,
    as in PyTorch."""
    array = x._data
    if x.dtype.is_floating_point and array.size and (array.base is None or array.flags.c_contiguous):
        # (nothing to convert, nothing to lay out: see with_unary_layout)
        return apply_to_arrays(node_cls, (x,), (array,), NO_PARAMS, array.ndim > 0)
    return with_unary_layout(node_cls.apply(x, cast_to=float_dtype_for(x.dtype)), x)


def wrapped_to(value, dtype):
    """A Python int ``value`` as ``dtype``'s C++ cast makes it when that dtype is an
    integer one (2**40 as uint8 is 0, -3 is 253); anything else as it is."""
    check_python_int(value)
    if dtype.is_integer and isinstance(value, int) and not isinstance(value, bool):
        return int(np.array(value, dtype=np.int64).astype(dtype.numpy))
    return value
