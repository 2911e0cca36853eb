"""Data types and PyTorch's type-promotion rules.

A ``dtype`` pairs a NumPy dtype with the name PyTorch gives it. Its repr is
``torch.float32`` (not ``minigrad.float32``) on purpose: printed tensors must
read exactly as PyTorch prints them, so a learner can move between the two.

Promotion follows ``torch.result_type``, which differs from NumPy's:

* categories rank ``bool < integer < floating``; within a category the wider
  type wins (``int64 + float32 -> float32``, where NumPy says ``float64``);
* operands are ranked by priority: tensors with dimensions, then 0-dim
  tensors, then Python numbers. A lower-priority operand only matters when it
  is of a *higher category* (``float32_tensor * 2.5 -> float32``,
  ``int64_tensor * 2.5 -> float32``, ``float32_tensor * float64_scalar_tensor
  -> float32``);
* a Python ``float`` counts as the default dtype (float32 unless ``set_default_dtype``
  chose another), an ``int`` as
  int64, a ``bool`` as bool.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16",
    "float32", "float64", "promote_types", "result_type", "get_default_dtype",
    "set_default_dtype",
]

_BOOL, _INT, _FLOAT = 0, 1, 2  # categories, ordered


class dtype:
    """A tensor element type, e.g. ``minigrad.float32``."""

    __slots__ = ("name", "numpy", "category", "itemsize", "is_floating_point", "is_integer")

    def __init__(self, name: str, numpy_dtype, category: int):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.category = category
        self.itemsize = self.numpy.itemsize
        self.is_floating_point = category == _FLOAT  # (read once per op: a plain attribute)
        self.is_integer = category == _INT  # (int8 ... int64 and uint8; not bool)

    @property
    def is_signed(self) -> bool:
        return self.name not in ("bool", "uint8")

    is_complex = property(lambda self: False)  # (minigrad has no complex dtypes)

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):  # pickle as the module-level singleton
        return (_by_name, (self.name,))


# Python's own errors name an object's type by its class's __name__ ("'torch.dtype' object
# has no attribute 'clone'", "unsupported operand type(s) for *: 'torch.dtype' and 'int'"),
# and PyTorch's dtype is a C type named so; its class still shows as minigrad.dtype.
dtype.__name__ = "torch.dtype"


bool = dtype("bool", np.bool_, _BOOL)  # noqa: A001 - torch.bool
uint8 = dtype("uint8", np.uint8, _INT)
int8 = dtype("int8", np.int8, _INT)
int16 = dtype("int16", np.int16, _INT)
int32 = dtype("int32", np.int32, _INT)
int64 = dtype("int64", np.int64, _INT)
float16 = dtype("float16", np.float16, _FLOAT)
float32 = dtype("float32", np.float32, _FLOAT)
float64 = dtype("float64", np.float64, _FLOAT)



class _AbsentDtype(dtype):
    """A dtype PyTorch has and minigrad does not compute in (``torch.bfloat16``): it
    exists, so that tables such as nanoGPT's ``{'bfloat16': torch.bfloat16, ...}`` and
    ``dtype == torch.bfloat16`` run; a tensor of it raises a clear error."""

    __slots__ = ()

    def __init__(self, name: str, itemsize: int, category: int):
        self.name, self.category, self.itemsize = name, category, itemsize
        self.is_floating_point, self.is_integer = category == _FLOAT, category == _INT

    @property
    def numpy(self):
        raise TypeError(f"minigrad has no {self.name} tensors (NumPy has no such type): use "
                        f"torch.float16 or torch.float32")


bfloat16 = _AbsentDtype("bfloat16", 2, _FLOAT)

ALL = (bool, uint8, int8, int16, int32, int64, float16, float32, float64)
DTYPE_OF = _NUMPY_TO_DTYPE = {d.numpy: d for d in ALL}  # a NumPy dtype -> its minigrad dtype
_NAME_TO_DTYPE = {d.name: d for d in ALL}

# How torch's C++ messages name dtypes ("expected ... but got: float != long int").
C_TYPE_NAMES = {
    float16: "c10::Half", float32: "float", float64: "double",
    uint8: "unsigned char", int8: "signed char", int16: "short int",
    int32: "int", int64: "long int", bool: "bool",
}

# Legacy tensor type names, as in "[torch.FloatTensor [2, 2]]" of error messages.
LEGACY_NAMES = {
    bool: "BoolTensor", uint8: "ByteTensor", int8: "CharTensor", int16: "ShortTensor",
    int32: "IntTensor", int64: "LongTensor", float16: "HalfTensor",
    float32: "FloatTensor", float64: "DoubleTensor",
}
# Capitalised names used in some error texts ("Got: Long").
SCALAR_NAMES = {
    bool: "Bool", uint8: "Byte", int8: "Char", int16: "Short", int32: "Int",
    int64: "Long", float16: "Half", float32: "Float", float64: "Double",
}


def _by_name(name: str) -> dtype:
    return bfloat16 if name == "bfloat16" else _NAME_TO_DTYPE[name]


_DEFAULT = [float32]  # (set_default_dtype's choice)


def get_default_dtype() -> dtype:
    """The dtype of tensors made from Python floats: ``torch.float32`` unless
    ``set_default_dtype`` chose another."""
    return _DEFAULT[0]


def set_default_dtype(d) -> None:
    """The dtype factories and Python floats give from now on (float32, float64 or
    float16, as PyTorch takes them): ``torch.set_default_dtype(torch.float64)``."""
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the "
                        "default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    if d is bfloat16:
        raise TypeError("minigrad has no bfloat16 tensors (NumPy has no such type): use "
                        "torch.float16 or torch.float32")
    _DEFAULT[0] = d


# NumPy dtypes that PyTorch converts but minigrad has no dtype for.
_TORCH_ONLY = ("uint16", "uint32", "uint64", "complex64", "complex128")


def from_numpy_dtype(np_dtype) -> dtype:
    """The minigrad dtype for a NumPy dtype, with PyTorch's error for the rest."""
    np_dtype = np.dtype(np_dtype)
    try:
        return _NUMPY_TO_DTYPE[np_dtype]
    except KeyError:
        pass
    if np_dtype.name in _TORCH_ONLY:
        raise TypeError(
            f"minigrad has no {np_dtype.name} dtype (PyTorch has torch.{np_dtype.name}); "
            "convert the array first, e.g. array.astype(np.int64) or array.astype(np.float64)"
        )
    scalar_type = f"{np_dtype.type.__module__}.{np_dtype.type.__name__}"  # numpy.str_
    raise TypeError(
        f"can't convert np.ndarray of type {scalar_type}. The only supported types are: "
        "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
        "uint64, uint32, uint16, uint8, and bool."
    )


_PYTHON_TYPES = {float: float64, int: int64, type(True): bool}


def parse_dtype(value, function: str) -> dtype | None:
    """The ``dtype=`` argument of ``function``: a dtype, None, or one of the
    Python types float, int and bool (as torch accepts them)."""
    if value is None or isinstance(value, dtype):
        return value
    if isinstance(value, type) and value in _PYTHON_TYPES:
        return _PYTHON_TYPES[value]
    raise TypeError(
        f"{function}(): argument 'dtype' must be torch.dtype, not {type(value).__name__}"
    )


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to without losing category."""
    if a is b:
        return a
    if a.category != b.category:
        high, low = (a, b) if a.category > b.category else (b, a)
        if high.category == _FLOAT or low is bool:
            return high
    # Same category (or int with bool): NumPy agrees with torch here
    # (uint8 + int8 -> int16, float16 + float32 -> float32).
    return _NUMPY_TO_DTYPE[np.promote_types(a.numpy, b.numpy)]


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """torch's combine_categories: a lower-priority class only wins by category."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.category == _FLOAT:
        return higher
    if higher is bool or lower.category == _FLOAT:
        return promote_types(higher, lower)
    return higher


def scalar_dtype(value) -> dtype:
    """The dtype a Python number takes part in promotion with."""
    if isinstance(value, (np.bool_, type(True))):
        return bool
    if isinstance(value, (int, np.integer)):
        return int64
    return _DEFAULT[0]  # (a Python float: the default dtype)


def result_type(*operands) -> dtype:
    """The dtype of an elementwise op on ``operands`` (tensors or Python numbers)."""
    if len(operands) == 2:  # the common case, answered without the general walk below
        a, b = operands
        a_dtype, b_dtype = getattr(a, "dtype", None), getattr(b, "dtype", None)
        if a_dtype is not None and b_dtype is not None and a_dtype.category == b_dtype.category:
            if a.ndim and not b.ndim:
                return a_dtype  # a 0-dim tensor of the same category never wins
            if b.ndim and not a.ndim:
                return b_dtype
        if a_dtype is not None and b_dtype is None and \
                scalar_dtype(b).category <= a_dtype.category:
            return a_dtype  # x * 2, x * 0.5 on a float tensor: the tensor's dtype
    dim_result = zero_result = wrapped_result = None
    for operand in operands:
        operand_dtype = getattr(operand, "dtype", None)
        if operand_dtype is None:
            wrapped_result = _promote_opt(wrapped_result, scalar_dtype(operand))
        elif operand.ndim == 0:
            zero_result = _promote_opt(zero_result, operand_dtype)
        else:
            dim_result = _promote_opt(dim_result, operand_dtype)
    return _combine(dim_result, _combine(zero_result, wrapped_result))


def _promote_opt(current: dtype | None, new: dtype) -> dtype:
    return new if current is None else promote_types(current, new)
