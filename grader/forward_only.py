"""Tensors without autograd: what code answers run on where autograd must not exist.

A question whose skill is code that autograd would do for you (``unbroadcast``: the
adjoint of broadcasting, summing by hand) is graded in a sandbox that holds no autograd
at all: neither minigrad nor PyTorch is there, and ``import minigrad`` or ``import torch``
gives this module. Its tensors compute forward only, with NumPy: arithmetic and
broadcasting, reductions (``sum``, ``mean``, ``max``, ``min``) with ``dim`` and
``keepdim``, shapes (``view``, ``reshape``, ``squeeze``, ``unsqueeze``, ``expand``,
``permute``, ``T``), indexing and the usual factories. There is no ``backward``, no
``.grad``, no graph: ``requires_grad=True`` is refused, saying why, as an argument, by
``requires_grad_()`` and by ``t.requires_grad = True``; ``t.grad`` (read or set) says the
same, and a tensor takes no attribute of an answer's own (``t.anything = ...``).

In a notebook, ``check()`` hands such a question's code these tensors too, so that an
answer leaning on autograd fails there already, with the same message.

    >>> grad = tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=float64)
    >>> grad.sum(dim=0, keepdim=True)
    tensor([[ 9., 12.]], dtype=torch.float64)
    >>> grad.backward()
    Traceback (most recent call last):
    ...
    AttributeError: 'Tensor' object has no attribute 'backward'
    >>> grad.requires_grad = True
    Traceback (most recent call last):
    ...
    RuntimeError: autograd is not available here: this answer is graded on tensors without autograd (no backward, no .grad, no requires_grad), so that it shows the work by hand
"""

from __future__ import annotations

import builtins
import math
import operator
from collections import namedtuple

import numpy as np

from .tensor_text import tensor_text

__all__ = ["Tensor", "Size", "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full",
           "empty", "zeros_like", "ones_like", "full_like", "arange", "eye", "exp", "log",
           "sqrt", "tanh", "sin", "cos", "abs", "sum", "mean", "matmul", "cat", "stack",
           "where", "float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64",
           "bool", "half", "float", "double", "short", "int", "long", "NO_AUTOGRAD"]

NO_AUTOGRAD = ("autograd is not available here: this answer is graded on tensors without "
               "autograd (no backward, no .grad, no requires_grad), so that it shows the "
               "work by hand")


class _DType:
    def __init__(self, name: str, numpy_type) -> None:
        self.name, self.numpy = name, np.dtype(numpy_type)

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    @property
    def is_floating_point(self) -> bool:
        return self.numpy.kind == "f"


# (PyTorch's names shadow Python's float, int and bool here: the module says builtins.int)
float16 = half = _DType("float16", np.float16)
float32 = float = _DType("float32", np.float32)
float64 = double = _DType("float64", np.float64)
uint8 = _DType("uint8", np.uint8)
int8 = _DType("int8", np.int8)
int16 = short = _DType("int16", np.int16)
int32 = int = _DType("int32", np.int32)  # noqa: A001 (PyTorch's name)
int64 = long = _DType("int64", np.int64)
bool = _DType("bool", np.bool_)  # noqa: A001 (PyTorch's name)
_DTYPES = {d.numpy: d for d in (float16, float32, float64, uint8, int8, int16, int32, int64,
                                bool)}


def _dtype_of(array: np.ndarray) -> _DType:
    """The tensor's dtype (one PyTorch has and this module does not name: by NumPy's name)."""
    return _DTYPES.get(array.dtype) or _DType(array.dtype.name, array.dtype)


class Size(tuple):
    """A shape, printed as PyTorch prints one."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def numel(self) -> int:
        return math.prod(self)


_Values = namedtuple("_Values", ["values", "indices"])


def _array(value) -> np.ndarray:
    if isinstance(value, (builtins.bool, builtins.int, builtins.float)):
        return value  # a Python number stays one: NumPy keeps the tensor's dtype, as PyTorch
    if isinstance(value, Tensor):
        return value._data
    if hasattr(value, "detach") and hasattr(value, "numpy"):  # a minigrad or torch tensor
        return np.asarray(value.detach().numpy())
    return np.asarray(value)


def _refuse_grad(requires_grad) -> None:
    if requires_grad:
        raise RuntimeError(NO_AUTOGRAD)


def _shape(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    return tuple(builtins.int(n) for n in size)


class Tensor:
    """A NumPy array with PyTorch's forward-only tensor methods."""

    __array_priority__ = 1000  # NumPy defers to the tensor's operators
    __slots__ = ("_data",)  # t.grad = ..., t.anything = ...: refused, not kept silently

    def __init__(self, data) -> None:
        self._data = np.asarray(data)

    # what a tensor is
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        return self.shape if dim is None else self._data.shape[dim]

    def dim(self) -> int:
        return self._data.ndim

    ndim = property(dim)

    def numel(self) -> int:
        return builtins.int(self._data.size)

    @property
    def dtype(self) -> _DType:
        return _dtype_of(self._data)

    @property
    def requires_grad(self) -> bool:
        return False  # (no autograd here: always)

    @requires_grad.setter
    def requires_grad(self, requires_grad) -> None:
        _refuse_grad(requires_grad)

    @property
    def grad(self):
        raise AttributeError(NO_AUTOGRAD)

    @grad.setter
    def grad(self, grad) -> None:
        raise AttributeError(NO_AUTOGRAD)

    is_leaf = True
    grad_fn = None

    def __len__(self) -> int:
        if not self._data.ndim:
            raise TypeError("len() of a 0-d tensor")
        return len(self._data)

    def __iter__(self):
        return (Tensor(row) for row in self._data)

    def __repr__(self) -> str:  # as PyTorch prints it: tensor([0.3333]), not NumPy's digits
        return tensor_text(self._data, self.dtype.name)

    __str__ = __repr__

    def numpy(self) -> np.ndarray:
        return self._data

    def tolist(self):
        return self._data.tolist()

    def item(self):
        return self._data.item()

    def __float__(self):
        return builtins.float(self._data)

    def __bool__(self):
        return builtins.bool(self._data)

    def detach(self) -> "Tensor":
        return Tensor(self._data)

    def clone(self) -> "Tensor":
        return Tensor(self._data.copy())

    def contiguous(self) -> "Tensor":
        return self

    def to(self, dtype=None, *args, **kwargs) -> "Tensor":
        return Tensor(self._data.astype(dtype.numpy)) if isinstance(dtype, _DType) else self

    def type(self, dtype) -> "Tensor":
        return self.to(dtype)

    def float(self) -> "Tensor":
        return self.to(float32)

    def double(self) -> "Tensor":
        return self.to(float64)

    def long(self) -> "Tensor":
        return self.to(int64)

    def int(self) -> "Tensor":
        return self.to(int32)

    def half(self) -> "Tensor":
        return self.to(float16)

    def requires_grad_(self, requires_grad=True) -> "Tensor":
        _refuse_grad(requires_grad)
        return self

    # arithmetic (NumPy's broadcasting is PyTorch's; its dtypes: _binary)
    def __add__(self, other):
        return _binary(operator.add, self, other)

    def __radd__(self, other):
        return _binary(operator.add, other, self)

    def __sub__(self, other):
        return _binary(operator.sub, self, other)

    def __rsub__(self, other):
        return _binary(operator.sub, other, self)

    def __mul__(self, other):
        return _binary(operator.mul, self, other)

    def __rmul__(self, other):
        return _binary(operator.mul, other, self)

    def __truediv__(self, other):
        return _binary(_divide, self, other)

    def __rtruediv__(self, other):
        return _binary(_divide, other, self)

    def __pow__(self, other):
        return _binary(operator.pow, self, other)

    def __rpow__(self, other):
        return _binary(operator.pow, other, self)

    def __matmul__(self, other):
        return Tensor(self._data @ _array(other))

    def __rmatmul__(self, other):
        return Tensor(_array(other) @ self._data)

    def __neg__(self):
        return Tensor(-self._data)

    def __abs__(self):
        return Tensor(np.abs(self._data))

    def __eq__(self, other):
        return _binary(operator.eq, self, other)

    def __ne__(self, other):
        return _binary(operator.ne, self, other)

    def __lt__(self, other):
        return _binary(operator.lt, self, other)

    def __le__(self, other):
        return _binary(operator.le, self, other)

    def __gt__(self, other):
        return _binary(operator.gt, self, other)

    def __ge__(self, other):
        return _binary(operator.ge, self, other)

    __hash__ = object.__hash__

    def add(self, other):
        return self + other

    def sub(self, other):
        return self - other

    def mul(self, other):
        return self * other

    def div(self, other):
        return self / other

    def pow(self, other):
        return self ** other

    def matmul(self, other):
        return self @ other

    def mm(self, other):
        return self @ other

    def exp(self):
        return Tensor(np.exp(_floating(self._data)))

    def log(self):
        return Tensor(np.log(_floating(self._data)))

    def sqrt(self):
        return Tensor(np.sqrt(_floating(self._data)))

    def tanh(self):
        return Tensor(np.tanh(_floating(self._data)))

    def abs(self):
        return Tensor(np.abs(self._data))

    # reductions
    def sum(self, dim=None, keepdim=False, *, dtype=None):
        return Tensor(np.sum(self._data, axis=_axis(dim), keepdims=keepdim))

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        if self._data.dtype.kind not in "fc":
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be "
                               "either a floating point or complex dtype. Got: "
                               f"{_TYPE_NAMES.get(self._data.dtype.name, self._data.dtype.name)}")
        return Tensor(np.mean(self._data, axis=_axis(dim), keepdims=keepdim))

    def max(self, dim=None, keepdim=False):
        return self._extreme(np.max, np.argmax, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return self._extreme(np.min, np.argmin, dim, keepdim)

    def _extreme(self, value, index, dim, keepdim):
        if dim is None:
            return Tensor(value(self._data))
        return _Values(Tensor(value(self._data, axis=dim, keepdims=keepdim)),
                       Tensor(np.expand_dims(index(self._data, axis=dim), dim)
                              if keepdim else index(self._data, axis=dim)))

    # shapes
    def view(self, *shape) -> "Tensor":
        return Tensor(self._data.reshape(_shape(shape)))

    reshape = view

    def flatten(self) -> "Tensor":
        return Tensor(self._data.reshape(-1))

    def squeeze(self, dim=None) -> "Tensor":
        if dim is None:
            return Tensor(np.squeeze(self._data))
        if self._data.ndim and self._data.shape[dim] != 1:
            return self
        return Tensor(np.squeeze(self._data, axis=dim) if self._data.ndim else self._data)

    def unsqueeze(self, dim: int) -> "Tensor":
        return Tensor(np.expand_dims(self._data, dim if dim >= 0 else self._data.ndim + 1 + dim))

    def expand(self, *sizes) -> "Tensor":
        sizes = _shape(sizes)
        extra = len(sizes) - self._data.ndim
        target = tuple(old if new == -1 else new for new, old in
                       zip(sizes, (1,) * extra + self._data.shape))
        return Tensor(np.broadcast_to(self._data, target))

    def expand_as(self, other) -> "Tensor":
        return self.expand(*_array(other).shape)

    def permute(self, *dims) -> "Tensor":
        return Tensor(np.transpose(self._data, _shape(dims)))

    def transpose(self, dim0: int, dim1: int) -> "Tensor":
        return Tensor(np.swapaxes(self._data, dim0, dim1))

    def t(self) -> "Tensor":
        return Tensor(self._data.T)

    @property
    def T(self) -> "Tensor":
        return Tensor(self._data.T)

    def __getitem__(self, key):
        return Tensor(self._data[_key(key)])

    def __setitem__(self, key, value) -> None:
        self._data = self._data.copy() if not self._data.flags.writeable else self._data
        self._data[_key(key)] = _array(value)


# PyTorch's type promotion, which NumPy's differs from (a float32 tensor plus an int64
# tensor is float32 in PyTorch, float64 in NumPy; an int64 tensor times 2.5 is float32)
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_DEFAULT = {0: np.dtype(np.bool_), 1: np.dtype(np.int64), 2: np.dtype(np.float32),
            3: np.dtype(np.complex64)}
_TYPE_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
               "uint8": "Byte", "bool": "Bool"}


def _result_dtype(a, b) -> np.dtype:
    """The dtype PyTorch gives ``a op b`` (arrays, or Python numbers): the highest
    category (bool < integer < float < complex) decides; in it, tensors with dimensions
    come first, then 0-dim tensors, then Python numbers (the default dtype: float32)."""
    groups: tuple = ([], [], [])
    for x in (a, b):
        if isinstance(x, np.ndarray):
            groups[0 if x.ndim else 1].append(x.dtype)
        else:
            groups[2].append(_DEFAULT[_CATEGORY[np.asarray(x).dtype.kind]])
    top = builtins.max(_CATEGORY[d.kind] for group in groups for d in group)
    for group in groups:
        highest = [d for d in group if _CATEGORY[d.kind] == top]
        if highest:
            return np.result_type(*highest)
    raise AssertionError("unreachable")


def _binary(function, a, b) -> "Tensor":
    a, b = _array(a), _array(b)
    if any(np.asarray(x).dtype.kind not in _CATEGORY for x in (a, b)):
        return Tensor(function(a, b))  # (not a number: ``t == None``, as NumPy compares it)
    dtype = _result_dtype(a, b)
    return Tensor(function(np.asarray(a, dtype), np.asarray(b, dtype)))


def _divide(a, b):
    """True division: integers and bools give the default float dtype, as in PyTorch."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        a, b = a.astype(np.float32), b.astype(np.float32)
    return np.true_divide(a, b)


def _floating(array):
    """exp, log, sqrt, tanh, sin, cos of integers or bools: in the default float dtype."""
    array = np.asarray(array)
    return array.astype(np.float32) if array.dtype.kind in "biu" else array


def _axis(dim):
    if dim is None:
        return None
    return tuple(dim) if isinstance(dim, (tuple, list)) else dim


def _key(key):
    if isinstance(key, tuple):
        return tuple(_array(k) if isinstance(k, Tensor) else k for k in key)
    return _array(key) if isinstance(key, Tensor) else key


# --- the module's functions, as in PyTorch -------------------------------------------------

def tensor(data, dtype: _DType | None = None, requires_grad=False,
           **_options) -> Tensor:
    _refuse_grad(requires_grad)
    given = _array(data) if isinstance(data, Tensor) else data
    if dtype is None:
        return Tensor(np.array(given, dtype=_inferred(given)))
    return Tensor(np.array(given).astype(dtype.numpy))


def _inferred(data) -> np.dtype | None:
    """The dtype ``torch.tensor`` gives ``data``: a Python float the default (float32), an
    int int64, a bool bool, NumPy's values and arrays their own; a list or tuple its items'
    promoted (the highest kind wins, then the widest: ``[np.int32(1), 2.5]`` is float32,
    ``[1.0, np.float64(2)]`` float64). None: NumPy's choice (not a number)."""
    if isinstance(data, Tensor):
        return data._data.dtype
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype
    if isinstance(data, (builtins.bool, builtins.int, builtins.float)):
        return _DEFAULT[_CATEGORY[np.asarray(data).dtype.kind]]
    if not isinstance(data, (list, tuple)):
        return None
    if not data:
        return float32.numpy
    found = [_inferred(item) for item in data]
    if any(d is None or d.kind not in _CATEGORY for d in found):
        return None
    top = builtins.max(_CATEGORY[d.kind] for d in found)
    return np.result_type(*[d for d in found if _CATEGORY[d.kind] == top])


def as_tensor(data, dtype: _DType | None = None, **_options) -> Tensor:
    return data if isinstance(data, Tensor) and dtype is None else tensor(data, dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    return Tensor(array)


def _filled(value, size, dtype, requires_grad) -> Tensor:
    _refuse_grad(requires_grad)
    return Tensor(np.full(_shape(size), value, dtype=(dtype or float32).numpy))


def zeros(*size, dtype=None, requires_grad=False, **_options) -> Tensor:
    return _filled(0, size, dtype, requires_grad)


def ones(*size, dtype=None, requires_grad=False, **_options) -> Tensor:
    return _filled(1, size, dtype, requires_grad)


def empty(*size, dtype=None, requires_grad=False, **_options) -> Tensor:
    return _filled(0, size, dtype, requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False,
         **_options) -> Tensor:
    return _filled(fill_value, (size,), dtype, requires_grad)


def zeros_like(other, dtype=None, requires_grad=False, **_options) -> Tensor:
    return _filled(0, (_array(other).shape,), dtype or _dtype_of(_array(other)), requires_grad)


def ones_like(other, dtype=None, requires_grad=False, **_options) -> Tensor:
    return _filled(1, (_array(other).shape,), dtype or _dtype_of(_array(other)), requires_grad)


def full_like(other, fill_value, dtype=None, requires_grad=False,
              **_options) -> Tensor:
    return _filled(fill_value, (_array(other).shape,), dtype or _dtype_of(_array(other)),
                   requires_grad)


def arange(start, end=None, step=1, dtype=None, **_options) -> Tensor:
    values = np.arange(start, end, step) if end is not None else np.arange(start)
    if dtype is None:  # PyTorch: int64 from integers, else its default float32
        whole = all(isinstance(v, (builtins.int, np.integer)) for v in (start, end, step)
                    if v is not None)
        dtype = int64 if whole else float32
    return Tensor(values.astype(dtype.numpy))


def eye(n: int, m: int | None = None, dtype=None, **_options) -> Tensor:
    return Tensor(np.eye(n, m, dtype=(dtype or float32).numpy))


def exp(input) -> Tensor:
    return Tensor(np.exp(_floating(_array(input))))


def log(input) -> Tensor:
    return Tensor(np.log(_floating(_array(input))))


def sqrt(input) -> Tensor:
    return Tensor(np.sqrt(_floating(_array(input))))


def tanh(input) -> Tensor:
    return Tensor(np.tanh(_floating(_array(input))))


def sin(input) -> Tensor:
    return Tensor(np.sin(_floating(_array(input))))


def cos(input) -> Tensor:
    return Tensor(np.cos(_floating(_array(input))))


def abs(input) -> Tensor:  # noqa: A001 (PyTorch's name)
    return Tensor(np.abs(_array(input)))


def sum(input, dim=None, keepdim=False, **_options) -> Tensor:  # noqa: A001
    return Tensor(input).sum(dim, keepdim) if not isinstance(input, Tensor) else \
        input.sum(dim, keepdim)


def mean(input, dim=None, keepdim=False, **_options) -> Tensor:
    return as_tensor(input).mean(dim, keepdim)


def matmul(input, other) -> Tensor:
    return Tensor(_array(input) @ _array(other))


def cat(tensors, dim: int = 0) -> Tensor:
    return Tensor(np.concatenate([_array(t) for t in tensors], axis=dim))


def stack(tensors, dim: int = 0) -> Tensor:
    return Tensor(np.stack([_array(t) for t in tensors], axis=dim))


def where(condition, input, other) -> Tensor:
    return Tensor(np.where(_array(condition), _array(input), _array(other)))
