"""Making tensors: ``tensor``, ``ones``, ``zeros``, ``full``, ``arange``,
``linspace``, ``eye``, the random ``randn``/``rand``/``randint``, and the
legacy ``FloatTensor([...])``.

Random numbers come from one NumPy generator seeded by ``manual_seed``, so a
notebook that seeds gives the same numbers on every run. (They are not the
same numbers PyTorch draws: its generator is a different algorithm.)
"""

from __future__ import annotations

import numbers

import numpy as np

from . import dtypes
from .tensor import Tensor

__all__ = ["tensor", "as_tensor", "from_numpy", "ones", "zeros", "full", "empty",
           "ones_like", "zeros_like", "full_like", "rand_like", "randn_like", "arange",
           "linspace", "eye", "randn", "rand", "randint", "manual_seed", "seed",
           "FloatTensor", "DoubleTensor", "LongTensor", "BoolTensor", "IntTensor"]

_generator = np.random.default_rng()


def manual_seed(seed: int):
    """Seed the random generator, so random tensors repeat from here on."""
    global _generator
    _generator = np.random.default_rng(int(seed))
    return _generator


def seed() -> int:
    """Seed the generator from the operating system; returns the seed."""
    value = int(np.random.SeedSequence().entropy % (2 ** 63))
    manual_seed(value)
    return value


def _infer_dtype(data) -> dtypes.dtype:
    """Python bools -> bool, ints -> int64, any float -> float32 (the default)."""
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, np.ndarray):
        return dtypes.from_numpy_dtype(data.dtype)
    if isinstance(data, (bool, np.bool_)):
        return dtypes.bool
    if isinstance(data, np.generic):
        return dtypes.from_numpy_dtype(data.dtype)
    if isinstance(data, numbers.Integral):
        return dtypes.int64
    if isinstance(data, numbers.Real):
        return dtypes.float32
    if isinstance(data, (list, tuple)):
        found = [_infer_dtype(item) for item in data]
        if not found:
            return dtypes.float32
        result = found[0]
        for item in found[1:]:  # [1, 2.5] -> float32; [True, 2] -> int64
            result = dtypes.promote_types(result, item)
        return result
    raise TypeError(
        f"Could not infer dtype of {type(data).__name__}"
    )


def _check_rectangular(data, depth: int = 0) -> None:
    """torch's error for ragged nested lists."""
    if not isinstance(data, (list, tuple)) or not data:
        return
    lengths = {len(item) if isinstance(item, (list, tuple)) else None for item in data}
    if len(lengths) > 1:
        first = len(data[0]) if isinstance(data[0], (list, tuple)) else None
        other = next(len(item) if isinstance(item, (list, tuple)) else None
                     for item in data if (len(item) if isinstance(item, (list, tuple))
                                          else None) != first)
        raise ValueError(
            f"expected sequence of length {first} at dim {depth + 1} (got {other})"
        )
    for item in data:
        _check_rectangular(item, depth + 1)


def _array_from(data, dtype: dtypes.dtype | None) -> np.ndarray:
    """A fresh NumPy array for ``data`` (lists, numbers, arrays, tensors)."""
    if isinstance(data, Tensor):
        array = data._data
    else:
        if isinstance(data, (list, tuple)):
            _check_rectangular(data)
            data = [item._data if isinstance(item, Tensor) else item for item in data] \
                if any(isinstance(item, Tensor) for item in data) else data
        array = data
    if dtype is None:
        dtype = _infer_dtype(data)
    return np.array(array, dtype=dtype.numpy, copy=True)


def tensor(data, dtype: dtypes.dtype | None = None, device=None,
           requires_grad: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (a number, a nested list, an array).

    >>> tensor([[1., 2.], [3., 4.]])
    tensor([[1., 2.],
            [3., 4.]])
    """
    result = Tensor._make(_array_from(data, dtype))
    if requires_grad:
        if not result.dtype.is_floating_point:
            from .errors import ONLY_FLOAT_REQUIRES_GRAD_FACTORY

            raise RuntimeError(ONLY_FLOAT_REQUIRES_GRAD_FACTORY)
        result._requires_grad = True
    return result


def as_tensor(data, dtype: dtypes.dtype | None = None) -> Tensor:
    """Like ``tensor`` but shares memory with a NumPy array or tensor when it can."""
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or dtype.numpy == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with a NumPy array (changes show in both)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtypes.from_numpy_dtype(array.dtype)  # clear error for unsupported dtypes
    return Tensor._make(array)


def _size(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, (int, np.integer)):
            raise TypeError(
                f"expected a sequence of integers as the size, but got {type(s).__name__}"
            )
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: {list(size)}"
            )
    return tuple(int(s) for s in size)


def _filled(size, value, dtype, requires_grad) -> Tensor:
    dtype = dtype or dtypes.float32
    return tensor_from_array(np.full(_size(size), value, dtype=dtype.numpy), requires_grad)


def tensor_from_array(array: np.ndarray, requires_grad: bool = False) -> Tensor:
    result = Tensor._make(array)
    if requires_grad:
        if not result.dtype.is_floating_point:
            from .errors import ONLY_FLOAT_REQUIRES_GRAD_FACTORY

            raise RuntimeError(ONLY_FLOAT_REQUIRES_GRAD_FACTORY)
        result._requires_grad = True
    return result


def ones(*size, dtype=None, requires_grad=False) -> Tensor:
    """A tensor of ones: ``ones(2, 2, requires_grad=True)``."""
    return _filled(size, 1, dtype, requires_grad)


def zeros(*size, dtype=None, requires_grad=False) -> Tensor:
    return _filled(size, 0, dtype, requires_grad)


def empty(*size, dtype=None, requires_grad=False) -> Tensor:
    """Uninitialised in PyTorch; here zeros, so notebooks stay deterministic."""
    return _filled(size, 0, dtype, requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False) -> Tensor:
    """A tensor filled with ``fill_value`` (dtype inferred from it)."""
    if dtype is None:
        dtype = _infer_dtype(fill_value)
    return _filled((size,) if isinstance(size, int) else tuple(size), fill_value, dtype,
                   requires_grad)


def ones_like(x: Tensor, dtype=None, requires_grad=False) -> Tensor:
    return _filled(x.shape, 1, dtype or x.dtype, requires_grad)


def zeros_like(x: Tensor, dtype=None, requires_grad=False) -> Tensor:
    return _filled(x.shape, 0, dtype or x.dtype, requires_grad)


def full_like(x: Tensor, fill_value, dtype=None, requires_grad=False) -> Tensor:
    return _filled(x.shape, fill_value, dtype or x.dtype, requires_grad)


def rand_like(x: Tensor, dtype=None, requires_grad=False) -> Tensor:
    return rand(*x.shape, dtype=dtype or x.dtype, requires_grad=requires_grad)


def randn_like(x: Tensor, dtype=None, requires_grad=False) -> Tensor:
    return randn(*x.shape, dtype=dtype or x.dtype, requires_grad=requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False) -> Tensor:
    """Numbers from ``start`` up to (not including) ``end``; int64 unless any
    argument is a float."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = dtypes.float32 if is_float else dtypes.int64
    count = max(0, int(np.ceil((end - start) / step)))
    values = start + step * np.arange(count, dtype=np.float64)
    return tensor_from_array(values.astype(dtype.numpy), requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False) -> Tensor:
    """``steps`` evenly spaced numbers from ``start`` to ``end`` inclusive."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtype or dtypes.float32
    return tensor_from_array(np.linspace(start, end, int(steps)).astype(dtype.numpy),
                             requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False) -> Tensor:
    """The identity matrix (ones on the diagonal)."""
    dtype = dtype or dtypes.float32
    return tensor_from_array(np.eye(n, m, dtype=dtype.numpy), requires_grad)


def randn(*size, dtype=None, requires_grad=False, generator=None) -> Tensor:
    """Samples from the standard normal distribution N(0, 1)."""
    dtype = dtype or dtypes.float32
    rng = generator or _generator
    return tensor_from_array(rng.standard_normal(_size(size)).astype(dtype.numpy),
                             requires_grad)


def rand(*size, dtype=None, requires_grad=False, generator=None) -> Tensor:
    """Samples from the uniform distribution on [0, 1)."""
    dtype = dtype or dtypes.float32
    rng = generator or _generator
    return tensor_from_array(rng.random(_size(size)).astype(dtype.numpy), requires_grad)


def randint(low, high=None, size=None, dtype=None, generator=None) -> Tensor:
    """Random integers in [low, high): ``randint(10, (3,))`` or ``randint(0, 10, (3,))``."""
    if size is None:
        high, size = low, high
        low = 0
    if high is None:
        low, high = 0, low
    dtype = dtype or dtypes.int64
    rng = generator or _generator
    return tensor_from_array(rng.integers(low, high, size=_size(tuple(size))).astype(
        dtype.numpy))


def _legacy(dtype):
    def constructor(*data):
        """Legacy constructor: a list makes a tensor of it, integers make a shape."""
        if len(data) == 1 and isinstance(data[0], (list, tuple, np.ndarray, Tensor)):
            return tensor(data[0], dtype=dtype)
        return zeros(*data, dtype=dtype)
    constructor.__name__ = dtypes.LEGACY_NAMES[dtype]
    constructor.__qualname__ = constructor.__name__
    return constructor


FloatTensor = _legacy(dtypes.float32)
DoubleTensor = _legacy(dtypes.float64)
LongTensor = _legacy(dtypes.int64)
IntTensor = _legacy(dtypes.int32)
BoolTensor = _legacy(dtypes.bool)
