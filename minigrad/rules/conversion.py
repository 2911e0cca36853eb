"""Python data read as PyTorch reads it: ``torch.tensor([[1, 2.5], [3, 4]])``.

Nested lists, tuples, NumPy arrays and numbers become a NumPy array with PyTorch's
dtype inference (``[1, 2.5]`` is float32, ``[True, 2]`` int64), its checks of
ragged lists, and its error texts for what it cannot read.
"""

from __future__ import annotations

import collections.abc
import ctypes
import math
import operator

import numpy as np

from .. import dtypes, errors
from ..autograd.tensor_base import TensorBase, make
from ..kernels import layout
from .promotion import NUMBER_TYPES, check_python_int

__all__ = ["array_from", "as_tensor", "type_name", "is_sequence", "checked_scalar",
           "checked_fill_value", "check_opmath_scalars", "assignable"]

C_INTEGER_NAMES = {dtypes.uint8: "uint8_t", dtypes.int8: "int8_t", dtypes.int16: "int16_t",
                    dtypes.int32: "int", dtypes.int64: "int64_t"}


def checked_scalar(value, dtype):
    """A Python number written into a tensor of integer ``dtype`` (fill_, full, masked_fill,
    clamp's bounds) as c10's checked_convert takes it: in the type's range, a negative int
    into an unsigned type wrapping around (uint8 takes -255 ... 255: -1 is 255), a float
    not truncated first (-0.5 and 255.5 overflow uint8); else torch's error."""
    if dtype not in C_INTEGER_NAMES or isinstance(value, (bool, np.bool_)) or \
            not isinstance(value, NUMBER_TYPES):
        return value
    info = np.iinfo(dtype.numpy)
    if isinstance(value, (float, np.floating)):
        fits = info.min <= value <= info.max  # (nan and inf do not)
    else:
        value = int(value)
        if info.min == 0 and -info.max <= value < 0:
            return value % (info.max + 1)
        fits = info.min <= value <= info.max
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {C_INTEGER_NAMES[dtype]} "
                           "without overflow")
    return value


def checked_fill_value(value, dtype, numel: int | None = None):
    """A Python number written into a tensor by fill_, full, full_like, masked_fill,
    index_fill, clamp's bounds, hardtanh's limits, F.pad's value or add's alpha, as
    c10's checked_convert takes it: an integer dtype as ``checked_scalar``; into float32
    or float16 a finite number past the type's largest is refused (inf and nan pass).
    ``numel``: the elements a fill writes; PyTorch fills a single float16 element by
    another path (scalar_fill), which converts without the check (inf)."""
    check_python_int(value)
    if isinstance(value, complex) and dtype is not dtypes.bool:  # (into a real type: the
        if value.imag:  # imaginary part must be 0, then the real part is converted)
            raise RuntimeError(f"value cannot be converted to type {_C_REAL_NAMES[dtype]} "
                               "without overflow")
        value = value.real
    value = checked_scalar(value, dtype)
    name, largest = _C_FLOAT_LIMITS.get(dtype, (None, None))
    if name is None or (numel == 1 and dtype is dtypes.float16) or \
            isinstance(value, (bool, np.bool_, np.complexfloating)) or \
            not isinstance(value, NUMBER_TYPES):
        return value
    if (abs(value) > largest if isinstance(value, (int, np.integer))
            else math.isfinite(value) and abs(value) > largest):
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    return value


_C_REAL_NAMES = {**C_INTEGER_NAMES, dtypes.float16: "c10::Half", dtypes.float32: "float",
                 dtypes.float64: "double"}
# (the C++ name in PyTorch's overflow error, and the type's largest finite value)
_C_FLOAT_LIMITS = {dtypes.float32: ("float", float(np.finfo(np.float32).max)),
                   dtypes.float16: ("c10::Half", float(np.finfo(np.float16).max))}


def check_opmath_scalars(dtype, *values) -> None:
    """Numbers a float16 or float32 kernel computes with in float (its opmath type:
    lerp's weight, leaky_relu's slope, elu's alpha, softplus's beta, threshold's
    values, addcmul's value), converted as c10 converts them: a finite one past
    float's largest is refused (and, of any dtype, an int past a Scalar's range)."""
    for value in values:
        check_python_int(value)
    if dtype is dtypes.float16 or dtype is dtypes.float32:
        for value in values:
            if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
                    value, (bool, np.bool_)) and math.isfinite(value) and \
                    abs(value) > _C_FLOAT_LIMITS[dtypes.float32][1]:
                raise RuntimeError("value cannot be converted to type float without overflow")



def assignable(value, dtype):
    """The value of ``x[index] = value`` as torch's setitem takes it: a tensor or a Python
    number (a NumPy integer through ``__index__``, ``numpy.float64`` being a float); any
    other value (a list, None, ``numpy.float32``, an array) is refused."""
    if isinstance(value, (TensorBase, bool, int, float, complex, np.integer)):
        return value
    raise TypeError(f"can't assign a {type_name(value)} to a "
                    f"torch.{dtypes.LEGACY_NAMES[dtype]}")


def type_name(value) -> str:
    """The name PyTorch's messages give a Python type: ``list``, ``numpy.float64``."""
    kind = type(value)
    return f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__


def is_sequence(data) -> bool:
    """Lists, tuples, ranges, strings, NumPy arrays; not tensors (as in PyTorch,
    whose tensors do not implement Python's sequence protocol)."""
    return isinstance(data, (collections.abc.Sequence, np.ndarray))


def _infer_dtype(data) -> dtypes.dtype:
    """torch's infer_scalar_type: Python bool -> bool, int -> int64, float ->
    float32; NumPy values and tensors keep theirs; sequences promote."""
    if isinstance(data, (np.ndarray, np.generic)):
        return dtypes.from_numpy_dtype(data.dtype)
    if isinstance(data, float):
        return dtypes.get_default_dtype()
    if isinstance(data, bool):
        return dtypes.bool
    if isinstance(data, int):
        return dtypes.int64
    if isinstance(data, complex):
        raise TypeError("minigrad has no complex dtypes; use real numbers")
    if isinstance(data, TensorBase):
        return data.dtype
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if is_sequence(data):
        if len(data) == 0:
            return dtypes.get_default_dtype()
        result = None
        for item in data:  # [1, 2.5] -> float32; [True, 2] -> int64
            item_dtype = _infer_dtype(item)
            result = item_dtype if result is None else dtypes.promote_types(result, item_dtype)
        return result
    raise RuntimeError(f"Could not infer dtype of {type_name(data)}")


_MAX_DIMS = 64


def _shape_of(data) -> tuple[int, ...]:
    """torch's compute_sizes: the lengths of data, data[0], data[0][0], ..."""
    shape = []
    while is_sequence(data):
        shape.append(len(data))
        if len(shape) > _MAX_DIMS:  # a string's first element is a string, forever
            raise ValueError(f"too many dimensions '{type(data).__name__}'")
        if len(data) == 0:
            break
        data = data[0]
    return tuple(shape)


def _as_float(value) -> float:
    """Like CPython's PyFloat_AsDouble."""
    if isinstance(value, float):
        return value
    if hasattr(type(value), "__float__") and not isinstance(value, str):
        return float(value)
    if hasattr(type(value), "__index__"):
        return float(operator.index(value))
    raise TypeError(f"must be real number, not {type_name(value)}")


def _as_integer(value, dtype: dtypes.dtype) -> int:
    """A Python int that fits ``dtype``, with torch's errors for those that do not."""
    info = np.iinfo(dtype.numpy)
    overflow = RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
    if isinstance(value, float):  # truncated toward zero, if the value itself is in range
        if math.isnan(value) or not info.min <= value <= info.max:  # (c10's overflows())
            raise overflow
        return int(value)
    number = operator.index(value)  # "'list' object cannot be interpreted as an integer"
    if not -2**63 <= number < 2**63:
        raise ValueError("Overflow when unpacking long long")
    if info.min == 0 and -info.max <= number < 0:
        return number % (info.max + 1)  # unsigned: -1 wraps around to 255
    if not info.min <= number <= info.max:
        raise overflow
    return number


def _as_bool(value) -> bool:
    if isinstance(value, (float, np.bool_)):
        return value != 0
    return operator.index(value) != 0


def _flatten_into(values: list, data, shape: tuple, dim: int, dtype: dtypes.dtype) -> None:
    """torch's recursive_store: check each sequence's length against the shape
    and convert each number to ``dtype`` (appended to ``values``)."""
    if dim == len(shape):
        if dtype.is_floating_point:
            values.append(_as_float(data))
        elif dtype is dtypes.bool:
            values.append(_as_bool(data))
        else:
            values.append(_as_integer(data, dtype))
        return
    try:
        items = list(data)  # a tensor here gives its rows, a string its characters
    except TypeError:
        raise TypeError("not a sequence") from None
    if len(items) != shape[dim]:
        raise ValueError(
            f"expected sequence of length {shape[dim]} at dim {dim} (got {len(items)})"
        )
    for item in items:
        if isinstance(item, np.ndarray):
            errors.warn_once(errors.LIST_OF_NDARRAYS, stacklevel=4)
        _flatten_into(values, item, shape, dim + 1, dtype)


NEGATIVE_STRIDES = (
    "At least one stride in the given numpy array is negative, and tensors with negative "
    "strides are not currently supported. (You can probably work around this by making a "
    "copy of your array  with array.copy().) ")


def buffer_array(buffer, np_dtype, count: int, offset: int) -> np.ndarray:
    """``torch.frombuffer``'s elements: ``count`` of ``np_dtype`` (all when negative) from
    byte ``offset`` of a Python buffer, sharing its memory, with PyTorch's checks and texts.
    A read-only buffer (``bytes``, a read-only memoryview) gives PyTorch's warning (once)
    and is shared all the same, writable, as PyTorch shares it: what the tensor writes, the
    buffer's owner sees (the warning says so)."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length, size = view.nbytes, np.dtype(np_dtype).itemsize
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % size:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({size})")
        count = (length - offset) // size
    elif offset + count * size > length:
        raise ValueError(f"requested buffer length ({count} * {size} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")
    if view.readonly:
        errors.warn_once(errors.NON_WRITABLE_BUFFER, stacklevel=4)
        return np.frombuffer(_writable_alias(view), np_dtype, count, offset)
    return np.frombuffer(view.cast("B"), np_dtype, count, offset)


def _writable_alias(view: memoryview):
    """The bytes of a read-only buffer as a writable ctypes array over the same memory
    (NumPy will not make a read-only buffer's array writable; PyTorch's tensor writes into
    it), keeping the buffer alive as long as the array is."""
    address = np.frombuffer(view.cast("B"), np.uint8).ctypes.data
    alias = (ctypes.c_ubyte * view.nbytes).from_address(address)
    alias.buffer = view
    return alias


def check_numpy_strides(array: np.ndarray) -> None:
    """PyTorch reads no NumPy array with a negative stride (``a[::-1]``), copied or not."""
    if array.size and min(array.strides, default=0) < 0:
        raise ValueError(NEGATIVE_STRIDES)


def array_from(data, dtype: dtypes.dtype | None) -> np.ndarray:
    """A fresh NumPy array for ``data`` (a number, nested lists, an array, a tensor)."""
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if isinstance(data, np.generic):  # a NumPy scalar is read as a 0-d array
        data = np.asarray(data)
    with np.errstate(over="ignore", invalid="ignore"):  # 1e40 -> inf in float32, as in torch
        if isinstance(data, TensorBase):
            return data._data.astype((dtype or data.dtype).numpy, copy=True)
        if isinstance(data, np.ndarray):
            own_dtype = dtypes.from_numpy_dtype(data.dtype)  # PyTorch's error if unsupported
            check_numpy_strides(data)
            copied = data.astype((dtype or own_dtype).numpy, copy=True)
            # (a dense array's own strides, a size-1 dim's too, as torch's copy keeps them)
            return layout.with_strides(copied, layout.preserved_strides(data))
        shape = _shape_of(data)
        if dtype is None:
            dtype = _infer_dtype(data)
        if 0 in shape:  # nothing to store, so nothing is checked: [[], [1]] is fine
            return layout.empty_strided(shape, layout.contiguous_strides(shape), dtype.numpy)
        values: list = []
        _flatten_into(values, data, shape, 0, dtype)
        return np.array(values, dtype=dtype.numpy).reshape(shape)


def as_tensor(value, like=None):
    """``value`` as a Tensor: a Python number as the 0-dim tensor PyTorch wraps it in
    (of ``like``'s dtype, when given), a list as ``torch.tensor`` reads it."""
    if isinstance(value, TensorBase):
        return value
    if isinstance(value, NUMBER_TYPES):
        dtype = dtypes.scalar_dtype(value).numpy if like is None else like._data.dtype
        return make(np.array(value, dtype))
    return make(array_from(value, None))
