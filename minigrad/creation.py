"""Making tensors: ``tensor``, ``ones``, ``zeros``, ``full``, ``arange``,
``linspace``, ``eye``, the random ``randn``/``rand``/``randint``, and the
legacy ``FloatTensor([...])``.

``tensor(data)`` reads nested lists the way PyTorch does: the shape comes
from the first element at each depth, every other element must match it, and
the dtype is inferred from the values (Python ``int`` -> int64, ``float`` ->
float32, ``bool`` -> bool; a mix promotes; NumPy values keep their dtype).

Every factory takes PyTorch's ``device=`` (a ``torch.device``, ``"cpu"``,
``"cpu:0"``); minigrad has only the CPU, and any other device fails with
PyTorch's error on a CPU-only build (see ``minigrad/devices.py``).

The random factories (``rand``, ``randn``, ``randint``, ``randperm``, ``normal``,
``bernoulli``, ``multinomial``) draw from ``minigrad/random.py``'s generators the
numbers PyTorch draws: after ``manual_seed(0)``, ``randn(3)`` is PyTorch's.
"""

from __future__ import annotations

import collections.abc
import functools
import math
import operator

import numpy as np

from . import dtypes, errors, layouts
from . import random as _random
from .devices import check_device, device as as_device, meta_requested
from .kernels import meta
from .kernels import random as random_kernels
from .kernels.fma import fma64, linspace_values
from .ops import random as random_ops
from .ops import shape as shape_ops
from .rules import out as out_rule
from .layouts import preserve_format, strided
from .kernels import layout as memory
from .rules.conversion import (array_from, buffer_array, check_numpy_strides, checked_fill_value,
                               checked_scalar, is_sequence, type_name)
from .rules.layout import permuted_strides
from .rules.parser import Parameter, parser_error
from .rules.promotion import check_python_int
from .autograd.tensor_base import TensorBase, make
from .size import Size

__all__ = ["tensor", "as_tensor", "from_numpy", "frombuffer", "empty_permuted", "ones", "zeros", "full", "empty",
           "ones_like", "zeros_like", "empty_like", "full_like", "rand_like", "randn_like", "arange",
           "linspace", "eye", "tril_indices", "triu_indices", "randn", "rand", "randint", "randperm", "randint_like", "normal",
           "bernoulli", "multinomial", "_standard_gamma", "_standard_gamma_grad",
           "_sample_dirichlet", "_dirichlet_grad", "poisson", "binomial",
           "FloatTensor", "DoubleTensor", "LongTensor", "BoolTensor", "IntTensor"]


# ---- tensor(data): reading nested lists as PyTorch does ----------------------------------


def _out_dtype(function: str, dtype, out):
    """A factory's dtype with ``out=``: the out tensor's, and any dtype= must agree."""
    dtype = dtypes.parse_dtype(dtype, function)
    if out is None or not isinstance(out, TensorBase):
        return dtype
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {dtypes.SCALAR_NAMES[dtype]} does not match dtype of out "
                           f"parameter ({dtypes.SCALAR_NAMES[out.dtype]})")
    return out.dtype


def _into_out(function: str, result: TensorBase, out, requires_grad: bool,
              resize_warning: str | None = None) -> TensorBase:
    """The factory's ``result``, or ``out`` holding it (see rules/out.py). A factory
    resizes its out tensor without a warning (only arange warns, with its own text)."""
    if out is None:
        return _check_can_require_grad(result, requires_grad)
    out = out_rule.write(function, result, out, differentiable=False, resize_warning=resize_warning)
    return _check_can_require_grad(out, requires_grad)


def _check_options(function: str, layout, pin_memory, out=None,
                   memory_format=preserve_format) -> None:
    """``layout=``, ``pin_memory=``, ``memory_format=``: PyTorch's values that mean
    "a dense CPU tensor", and PyTorch's errors for the rest."""
    if layout is not None and not isinstance(layout, layouts.layout):
        raise TypeError(f"{function}(): argument 'layout' must be torch.layout, "
                        f"not {type_name(layout)}")
    if pin_memory is not None and not isinstance(pin_memory, bool):
        raise TypeError(f"{function}(): argument 'pin_memory' must be bool, "
                        f"not {type_name(pin_memory)}")
    if memory_format is not None and not isinstance(memory_format, layouts.memory_format):
        raise TypeError(f"{function}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {type_name(memory_format)}")
    if pin_memory and out is None:  # (with out=, PyTorch ignores pin_memory)
        raise RuntimeError(errors.PIN_MEMORY_WITHOUT_ACCELERATOR)
    if function == "empty" and memory_format is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")


def _check_can_require_grad(result: TensorBase, requires_grad: bool) -> TensorBase:
    if requires_grad:
        if not result.dtype.is_floating_point:
            raise RuntimeError(errors.ONLY_FLOAT_REQUIRES_GRAD_FACTORY)
        result._requires_grad = True
    return result


def tensor(data, *, dtype: dtypes.dtype | None = None, device=None,
           requires_grad: bool = False,
           pin_memory: bool = False) -> TensorBase:
    """A new tensor holding a copy of ``data`` (a number, a nested list, an array).

    >>> tensor([[1., 2.], [3., 4.]])
    tensor([[1., 2.],
            [3., 4.]])
    >>> tensor([1, 2]).dtype, tensor([1, 2.5]).dtype
    (torch.int64, torch.float32)
    """
    _check_options("tensor", strided, pin_memory)
    on_meta = meta_requested(device, creating=False)
    dtype = dtypes.parse_dtype(dtype, "tensor")
    if isinstance(data, TensorBase):
        errors.warn(errors.COPY_CONSTRUCT, UserWarning, stacklevel=2)
    array = array_from(data, dtype)
    return _check_can_require_grad(make(_placed(array, on_meta)), requires_grad)


def as_tensor(data, *, dtype: dtypes.dtype | None = None, device=None) -> TensorBase:
    """Like ``tensor`` but shares memory with a NumPy array or tensor when it can."""
    check_device(device, creating=False)
    dtype = dtypes.parse_dtype(dtype, "as_tensor")
    if isinstance(data, TensorBase) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or dtype.numpy == data.dtype):
        return from_numpy(data)
    return make(array_from(data, dtype))


ASARRAY_REQUIRES_GRAD = (
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
    "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
    "warning. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/"
    "tensor_new.cpp:1737.)")


def asarray(obj, *, dtype: dtypes.dtype | None = None, device=None, copy=None,
            requires_grad=None) -> TensorBase:
    """``obj`` as a tensor, sharing its memory when it can (a tensor, a NumPy array of
    the dtype asked for) unless ``copy=True``; ``copy=False`` refuses to copy. A tensor
    given keeps its graph (a dtype change is ``to``, a copy ``clone``); ``requires_grad``
    given and not as the result's is set on a leaf in place (``obj`` itself when it is not
    copied), while a result with a graph asked for none is a detached alias, its source
    keeping its graph, as in PyTorch."""
    check_device(device, creating=False)
    dtype = dtypes.parse_dtype(dtype, "asarray")
    if isinstance(obj, TensorBase):
        return _asarray_tensor(obj, dtype, copy, requires_grad)
    converts = dtype is not None and (not isinstance(obj, np.ndarray)
                                      or dtype.numpy != obj.dtype)
    if copy is False and converts:
        what = f"tensor with dtype '{dtypes.SCALAR_NAMES[dtypes.from_numpy_dtype(obj.dtype)]}'" \
            if isinstance(obj, np.ndarray) else "arbitrary sequence"
        raise ValueError(f"can't alias {what} into dtype '{dtypes.SCALAR_NAMES[dtype]}'.")
    if copy is False and not isinstance(obj, np.ndarray):
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    if isinstance(obj, np.ndarray) and not converts:
        result = from_numpy(obj.copy() if copy else obj)
    else:
        result = make(array_from(obj, dtype))
    return _check_can_require_grad(result, requires_grad)


def _asarray_tensor(obj, dtype, copy, requires_grad):
    if requires_grad is None and obj.requires_grad:
        errors.warn_once(ASARRAY_REQUIRES_GRAD, stacklevel=4)  # (TORCH_WARN_ONCE)
    result = obj.clone() if copy else obj
    if dtype is not None and dtype is not obj.dtype:
        if copy is False:
            raise ValueError(f"can't alias tensor with dtype '{dtypes.SCALAR_NAMES[obj.dtype]}' "
                             f"into dtype '{dtypes.SCALAR_NAMES[dtype]}'.")
        result = obj.to(dtype)
    if requires_grad is not None and bool(requires_grad) != result.requires_grad:
        if result.grad_fn is not None:  # (a non-leaf: detach(), not in place)
            return result.detach()
        result.requires_grad_(requires_grad)  # (obj itself, when not copied)
    return result


def from_numpy(ndarray: np.ndarray) -> TensorBase:
    """A tensor sharing memory with a NumPy array (changes show in both)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type_name(ndarray)})")
    dtypes.from_numpy_dtype(ndarray.dtype)  # PyTorch's error for unsupported dtypes
    check_numpy_strides(ndarray)
    if not ndarray.flags.writeable:
        errors.warn_once_at_caller(errors.NOT_WRITABLE_ARRAY)
    return make(ndarray)


# ---- filled tensors ------------------------------------------------------------------


def _is_size(value) -> bool:
    """An int, a NumPy integer or a 0-d integer tensor (not a bool)."""
    if isinstance(value, TensorBase):
        return value.ndim == 0 and value.dtype.is_integer
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def size_keyword(function):
    """``function(*size, ...)`` that also takes the shape as ``size=`` (``randn(size=(2,
    3))``, d2l's ``torch.randn(size=(), requires_grad=True)``), as PyTorch's parser does.
    Python cannot name ``*size`` and a keyword ``size`` both, so this wrapper moves the
    keyword into the positional shape (``inspect.signature`` still shows the function's)."""
    @functools.wraps(function)
    def accepting(*args, **kwargs):
        if "size" in kwargs:
            name = function.__name__
            if args and not (name.startswith("new_") and len(args) == 1):
                raise TypeError(f"{name}() got multiple values for argument 'size'")
            args = args + (kwargs.pop("size"),)
        return function(*args, **kwargs)
    return accepting


SIZE_PARAMS = (Parameter("size", "tuple of ints", True, False),)


def _size(function: str, size: tuple) -> tuple[int, ...]:
    """The shape given as ``ones(2, 3)``, ``ones((2, 3))`` or ``ones([2, 3])``."""
    if not size:  # (one signature, "missing ... "size"", or several: "invalid combination")
        raise parser_error(function, function, SIZE_PARAMS, (), {})
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    elif len(size) == 1 and not _is_size(size[0]):
        raise TypeError(f"{function}(): argument 'size' (position 1) must be tuple of ints, "
                        f"not {type_name(size[0])}")
    for position, s in enumerate(size, start=1):
        if not _is_size(s):
            raise TypeError(f"{function}(): argument 'size' failed to unpack the object at "
                            f"pos {position} with error \"type must be tuple of ints,but got "
                            f"{type_name(s)}\"")
    shape = [operator.index(s) for s in size]
    for s in shape:
        if s < 0 and function == "zeros":  # (torch.zeros checks the sizes itself)
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {shape}")
    return tuple(shape)


def _meta_tensor(function: str, size, dtype, requires_grad: bool) -> TensorBase:
    """A factory's tensor on the meta device: ``size``'s shape and ``dtype``, no numbers."""
    return _check_can_require_grad(make(meta.empty(_size(function, size), dtype.numpy)),
                                   requires_grad)


def _placed(array, on_meta: bool):
    """``array``, or on the meta device a meta array of its shape and dtype."""
    return meta.like(array) if on_meta else array


def _filled(function: str, size, value, dtype, device, requires_grad: bool,
            out=None) -> TensorBase:
    on_meta = meta_requested(device)
    dtype = _out_dtype(function, dtype, out) or dtypes.get_default_dtype()
    if on_meta:
        return _meta_tensor(function, size, dtype, requires_grad)
    array = np.full(_size(function, size), value, dtype=dtype.numpy)
    if array.size == 0:  # (NumPy gives it zero strides; torch row-major ones)
        array = memory.empty_strided(array.shape,
                                             memory.contiguous_strides(array.shape),
                                             array.dtype)
    if function == "empty" and isinstance(out, TensorBase) and out.shape == array.shape:
        return _check_can_require_grad(out, requires_grad)  # nothing to write
    return _into_out(function, make(array), out, requires_grad)


@size_keyword
def ones(*size, out=None, dtype=None, layout=strided, device=None,
         requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """A tensor of ones: ``ones(2, 2, requires_grad=True)``."""
    _check_options("ones", layout, pin_memory, out)
    return _filled("ones", size, 1, dtype, device, requires_grad, out)


@size_keyword
def zeros(*size, out=None, dtype=None, layout=strided, device=None,
          requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """A tensor of zeros: ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    _check_options("zeros", layout, pin_memory, out)
    return _filled("zeros", size, 0, dtype, device, requires_grad, out)


@size_keyword
def empty(*size, out=None, dtype=None, layout=strided, device=None,
          requires_grad: bool = False, pin_memory: bool = False,
          memory_format=None) -> TensorBase:
    """Uninitialised in PyTorch; here zeros, so notebooks stay deterministic."""
    _check_options("empty", layout, pin_memory, out, memory_format=memory_format)
    result = _filled("empty", size, 0, dtype, device, requires_grad, out)
    if memory_format in layouts.CHANNELS_LAST_RANKS and out is None and not result.is_meta:
        result._data = memory.with_strides(result._data,
                                           layouts.format_strides(memory_format, result.shape))
    return result


def empty_strided(size, stride, *, dtype=None, layout=strided, device=None,
                  requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Uninitialised in PyTorch (zeros here), laid out with ``stride`` (in elements)."""
    _check_options("empty_strided", layout, pin_memory)
    check_device(device)
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of "
                           f"strides ({len(stride)})")
    array = memory.empty_strided(size, stride, (dtype or dtypes.get_default_dtype()).numpy)
    array[...] = 0
    return _check_can_require_grad(make(array), requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, layout=strided, device=None,
                   requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Uninitialised in PyTorch (zeros here), its dims laid out in memory in the order
    ``physical_layout`` names them, the outermost first.

    >>> torch.empty_permuted((2, 3, 5, 7), (0, 2, 3, 1)).stride()
    (105, 1, 21, 3)"""
    strides = permuted_strides(tuple(size), tuple(physical_layout))
    return empty_strided(size, strides, dtype=dtype, layout=layout, device=device,
                         requires_grad=requires_grad, pin_memory=pin_memory)


def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> TensorBase:
    """A 1-D tensor over a Python buffer's memory (``bytearray``, ``array.array``, ...):
    ``count`` elements of ``dtype`` (all when -1) from byte ``offset``; a write to one shows
    in the other.

    >>> import array
    >>> torch.frombuffer(array.array("i", [1, 2, 3]), dtype=torch.int32)
    tensor([1, 2, 3], dtype=torch.int32)"""
    array = buffer_array(buffer, dtype.numpy, int(count), int(offset))
    return _check_can_require_grad(make(array), requires_grad)


def scalar_tensor(s, *, dtype=None, layout=strided, device=None, requires_grad: bool = False,
                  pin_memory: bool = False) -> TensorBase:
    """A 0-dim tensor of the number ``s``, in the default dtype unless ``dtype`` says."""
    if isinstance(s, TensorBase):
        s = s.item()
    if not isinstance(s, (int, float, np.number, np.bool_)):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not "
                        f"{type_name(s)}")
    return full((), s, dtype=dtype or dtypes.get_default_dtype(), layout=layout, device=device,
                requires_grad=requires_grad, pin_memory=pin_memory)


def deprecated_range(start, end, step=1, *, out=None, dtype=None, layout=strided,
                     device=None, requires_grad: bool = False) -> TensorBase:
    """``torch.range``, deprecated in PyTorch: ``arange`` with ``end`` included, in the
    default dtype (``start + k * step`` computed in double, as its kernel)."""
    errors.warn("torch.range is deprecated and will be removed in a future release because "
                "its behavior is inconsistent with Python's range builtin. Instead, use "
                "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    _check_options("range", layout, False, out)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    count = math.floor((end - start) / step) + 1
    values = np.float64(start) + np.float64(step) * np.arange(count, dtype=np.float64)
    dtype = _out_dtype("range", dtype, out) or dtypes.get_default_dtype()
    return _into_out("range", make(values.astype(dtype.numpy)), out, requires_grad)


deprecated_range.__name__ = deprecated_range.__qualname__ = "range"


def full(size, fill_value, *, out=None, dtype=None, layout=strided, device=None,
         requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """A tensor filled with ``fill_value``; the dtype follows it (``full((2,), 3)``
    is int64, ``full((2,), 3.)`` float32)."""
    _check_options("full", layout, pin_memory, out)
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, "
                        f"not {type(size).__name__}")
    if isinstance(fill_value, TensorBase):
        if fill_value.ndim != 0:
            raise TypeError("full(): argument 'fill_value' (position 2) must be Number, "
                            "not Tensor")
        fill_value = fill_value.item()
    check_python_int(fill_value)
    # A number's kind decides: bool -> bool, int -> int64, float -> float32.
    dtype = _out_dtype("full", dtype, out) or dtypes.scalar_dtype(fill_value)
    if not dtype.is_floating_point and dtype is not dtypes.bool:
        if isinstance(fill_value, int) and not -2**63 <= fill_value < 2**63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
    # (uint8's -1 is 255; 300 and, into float16, 1e5 overflow)
    fill_value = checked_fill_value(fill_value, dtype, math.prod(_size("full", (tuple(size),))))
    return _filled("full", (tuple(size),), fill_value, dtype, device, requires_grad, out)


def _like(function: str, x, value, dtype, device, requires_grad: bool,
          memory_format=None) -> TensorBase:
    if not isinstance(x, TensorBase):
        raise TypeError(f"{function}(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(x).__name__}")
    value = checked_fill_value(value, dtype or x.dtype, x._data.size)
    # A *_like factory without device= makes its tensor on input's device.
    result = _filled(function, (x.shape,), value, dtype or x.dtype,
                     x.device if device is None else device, requires_grad)
    if result.is_meta:
        return result
    if memory_format in (None, preserve_format):  # laid out as input (torch's empty_like)
        result._data = memory.with_strides(result._data,
                                                    memory.preserved_strides(x._data))
    elif memory_format in layouts.CHANNELS_LAST_RANKS:
        result._data = memory.with_strides(result._data,
                                           layouts.format_strides(memory_format, result.shape))
    return result


def ones_like(input: TensorBase, *, memory_format=None, dtype=None,
              layout=strided, device=None,
              requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Ones with the shape (and, unless given, the dtype) of ``input``."""
    _check_options("ones_like", layout, pin_memory, memory_format=memory_format)
    return _like("ones_like", input, 1, dtype, device, requires_grad,
                 memory_format=memory_format)


def zeros_like(input: TensorBase, *, memory_format=None, dtype=None,
               layout=strided, device=None,
               requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Zeros with the shape (and, unless given, the dtype) of ``input``."""
    _check_options("zeros_like", layout, pin_memory, memory_format=memory_format)
    return _like("zeros_like", input, 0, dtype, device, requires_grad,
                 memory_format=memory_format)


def empty_like(input: TensorBase, *, memory_format=None, dtype=None,
               layout=strided, device=None,
               requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Uninitialised in PyTorch, with the shape (and, unless given, the dtype) of
    ``input``; here zeros, as ``empty``."""
    _check_options("empty_like", layout, pin_memory, memory_format=memory_format)
    return _like("empty_like", input, 0, dtype, device, requires_grad,
                 memory_format=memory_format)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=strided):
    """The (row, column) indices of the lower triangle of a row x col matrix (from the
    diagonal ``offset`` down), row after row: a 2 x N int64 tensor."""
    return _triangle_indices("tril_indices", np.tril_indices, row, col, offset, dtype, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=strided):
    """The (row, column) indices of the upper triangle (from the diagonal ``offset`` up)."""
    return _triangle_indices("triu_indices", np.triu_indices, row, col, offset, dtype, device)


def _triangle_indices(function, numpy_indices, row, col, offset, dtype, device):
    for name, value in (("row", row), ("col", col), ("offset", offset)):
        if not _is_size(value):
            where = {"row": " (position 1)", "col": " (position 2)"}.get(name, "")
            raise TypeError(f"{function}(): argument '{name}'{where} must be int, "
                            f"not {type_name(value)}")
    check_device(device)
    dtype = dtypes.int64 if dtype is None else dtype
    if dtype not in (dtypes.int32, dtypes.int64):
        raise NotImplementedError(
            f'"{function}" not implemented for \'{dtypes.SCALAR_NAMES[dtype]}\'')
    for name, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{name} must be non-negative, got{value}")
    indices = np.stack(numpy_indices(row, offset, col)) if row and col else np.empty((2, 0))
    return make(memory.new_layout(indices.astype(dtype.numpy)))


def full_like(input: TensorBase, fill_value, *, memory_format=None, dtype=None,
              layout=strided, device=None,
              requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """``fill_value`` everywhere, with the shape (and, unless given, the dtype) of ``input``."""
    _check_options("full_like", layout, pin_memory, memory_format=memory_format)
    return _like("full_like", input, fill_value, dtype, device, requires_grad,
                 memory_format=memory_format)


def _randomly_like(function: str, input, dtype, device, requires_grad: bool, memory_format,
                   fill) -> TensorBase:
    """A tensor shaped (and, unless memory_format says otherwise, laid out) as ``input``,
    filled in place by ``fill``: PyTorch fills it in the order of its memory."""
    result = _like(function, input, 0, dtype, device, False, memory_format=memory_format)
    if not result.is_meta:  # (no numbers: the generator is left as it was, as PyTorch's)
        fill(result)
    return _check_can_require_grad(result, requires_grad)


def rand_like(input: TensorBase, *, generator=None, memory_format=None, dtype=None,
              layout=strided, device=None,
              requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Uniform samples on [0, 1) with the shape of ``input``."""
    _check_options("rand_like", layout, pin_memory, memory_format=memory_format)
    generator = _random.cpu_generator(generator, "rand_like")
    _random_dtype(dtype or (input.dtype if isinstance(input, TensorBase) else None), "rand_like",
                  "check_uniform_bounds")
    return _randomly_like("rand_like", input, dtype, device, requires_grad, memory_format,
                          lambda t: random_ops.uniform_(t, 0, 1, generator))


def randn_like(input: TensorBase, *, generator=None, memory_format=None, dtype=None,
               layout=strided, device=None,
               requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Standard normal samples with the shape of ``input``."""
    _check_options("randn_like", layout, pin_memory, memory_format=memory_format)
    generator = _random.cpu_generator(generator, "randn_like")
    _random_dtype(dtype or (input.dtype if isinstance(input, TensorBase) else None), "randn_like",
                  "normal_kernel_cpu")
    return _randomly_like("randn_like", input, dtype, device, requires_grad, memory_format,
                          lambda t: random_ops.normal_(t, 0, 1, generator))


def randint_like(input: TensorBase, low=0, high=None, *, generator=None, memory_format=None,
                 dtype=None, layout=strided, device=None, requires_grad: bool = False,
                 pin_memory: bool = False) -> TensorBase:
    """Random integers in [low, high) with the shape of ``input``: ``randint_like(x, 10)``."""
    _check_options("randint_like", layout, pin_memory, memory_format=memory_format)
    if high is None:
        low, high = 0, low
    generator = _random.cpu_generator(generator, "randint_like")
    return _randomly_like("randint_like", input, dtype, device, requires_grad, memory_format,
                          lambda t: random_ops.random_(t, int(low), int(high), generator, 0))


# ---- ranges ----------------------------------------------------------------------------


# PyTorch's range kernels compute start + step * i with a fused multiply-add (one
# rounding): kernels/fma.py.


def _number(value):
    return value.item() if isinstance(value, TensorBase) else value


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=strided, device=None,
           requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """``start, start + step, ...`` up to (not including) ``end``; int64 unless
    an argument is a float.

    >>> arange(4), arange(0, 1, 0.25)
    (tensor([0, 1, 2, 3]), tensor([0.0000, 0.2500, 0.5000, 0.7500]))
    """
    _check_options("arange", layout, pin_memory, out)
    on_meta = meta_requested(device)
    if end is None:
        start, end = 0, start
    start, end, step = _number(start), _number(end), _number(step)
    dtype = _out_dtype("arange", dtype, out)
    if dtype is None:
        is_float = any(isinstance(v, (float, np.floating)) for v in (start, end, step))
        dtype = dtypes.get_default_dtype() if is_float else dtypes.int64
    if dtype is dtypes.bool:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if not dtype.is_floating_point:  # an integer range counts in integers
        start, end, step = int(start), int(end), int(step)
        if step == 0:
            raise ValueError("step must be nonzero")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype.is_floating_point:  # start + step * i in double, then rounded to dtype
        count = math.ceil((end - start) / step)
        if dtype is dtypes.float16:  # PyTorch computes float16 ranges in float32
            start, step = np.float32(start), np.float32(step)
        values = fma64(step, np.arange(count, dtype=np.float64), start)
        if dtype is dtypes.float16:
            values = values.astype(np.float32)
    else:
        count = -((start - end) // step)  # ceil((end - start) / step), exactly
        values = start + step * np.arange(count, dtype=np.int64)
    return _into_out("arange", make(_placed(memory.new_layout(values.astype(dtype.numpy)), on_meta)), out,
                     requires_grad, errors.RANGE_OUT_RESIZED)


def linspace(start, end, steps, *, out=None, dtype=None, layout=strided, device=None,
             requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """``steps`` evenly spaced numbers from ``start`` to ``end``, both included.

    As in PyTorch, the first half is computed from ``start`` and the second
    half from ``end``, so both ends are exact.
    """
    _check_options("linspace", layout, pin_memory, out)
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    on_meta = meta_requested(device)
    dtype = _out_dtype("linspace", dtype, out) or dtypes.get_default_dtype()
    start, end = _number(start), _number(end)
    if dtype.is_floating_point:
        start, end = dtype.numpy.type(start), dtype.numpy.type(end)
    else:
        start, end = int(start), int(end)
    values = linspace_values(start, end, steps)
    # (linspace resizes its out tensor without a warning, as PyTorch's does)
    return _into_out("linspace", make(_placed(values.astype(dtype.numpy), on_meta)), out,
                     requires_grad, resize_warning=None)


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=strided,
             device=None, requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """``steps`` numbers from ``base ** start`` to ``base ** end``, evenly spaced in their
    exponents. As PyTorch computes them: each exponent in float64 (the first half from
    ``start``, the second from ``end``), raised in float64, then rounded to the dtype."""
    _check_options("logspace", layout, pin_memory, out)
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)):
        raise TypeError(f"logspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    on_meta = meta_requested(device)
    dtype = _out_dtype("logspace", dtype, out) or dtypes.get_default_dtype()
    start, end = _number(start), _number(end)
    if dtype.is_floating_point:  # (start and end in the dtype first, as PyTorch's scalar_t)
        start, end = float(dtype.numpy.type(start)), float(dtype.numpy.type(end))
    else:
        start, end = int(start), int(end)
    index = np.arange(steps, dtype=np.float64)
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    exponents = np.where(index < steps // 2, start + step * index,
                         end - step * (steps - index - 1)) if steps > 1 else index + start
    with np.errstate(over="ignore", invalid="ignore"):
        values = np.power(np.float64(base), exponents)
    return _into_out("logspace", make(_placed(values.astype(dtype.numpy), on_meta)), out,
                     requires_grad, resize_warning=None)


def eye(n, m=None, *, out=None, dtype=None, layout=strided, device=None,
        requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """The ``n`` by ``m`` identity matrix (ones on the diagonal)."""
    _check_options("eye", layout, pin_memory, out)
    for name, value, position in (("n", n, 1), ("m", m, 2)):
        if value is not None and (isinstance(value, bool) or
                                  not isinstance(value, (int, np.integer))):
            raise TypeError(f"eye(): argument '{name}' (position {position}) must be int, "
                            f"not {type(value).__name__}")
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    on_meta = meta_requested(device)
    dtype = _out_dtype("eye", dtype, out) or dtypes.get_default_dtype()
    array = np.eye(n, n if m is None else m, dtype=dtype.numpy)
    return _into_out("eye", make(_placed(array, on_meta)), out, requires_grad)


# ---- random tensors ------------------------------------------------------------------


def _random_dtype(dtype, function: str, kernel: str, out=None) -> dtypes.dtype:
    dtype = _out_dtype(function, dtype, out) or dtypes.get_default_dtype()
    if not dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{dtypes.SCALAR_NAMES[dtype]}'"
        )
    return dtype


def _randomly_filled(function: str, size, dtype, out, requires_grad: bool, fill,
                     on_meta: bool = False) -> TensorBase:
    """A new tensor of ``size`` filled in place by ``fill(tensor)`` (ops/random.py), then
    given to ``out`` and made to require grad as asked. On the meta device: no numbers,
    and the generator is left as it was (as PyTorch's)."""
    if on_meta:
        return _meta_tensor(function, size, dtype, requires_grad)
    result = make(np.zeros(_size(function, size), dtype=dtype.numpy))
    fill(result)
    if isinstance(out, TensorBase) and out.shape != result.shape and function == "randn":
        out._bump_version()  # (PyTorch's randn counts its resize as a change of its own)
    return _into_out(function, result, out, requires_grad)


@size_keyword
def randn(*size, generator=None, out=None, dtype=None, layout=strided, device=None,
          requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Samples from the standard normal distribution N(0, 1): PyTorch's numbers.

    >>> import minigrad
    >>> _ = minigrad.manual_seed(0)
    >>> minigrad.randn(3)
    tensor([ 1.5410, -0.2934, -2.1788])
    """
    _check_options("randn", layout, pin_memory, out)
    on_meta = meta_requested(device)
    generator = _random.cpu_generator(generator, "randn")
    dtype = _random_dtype(dtype, "randn", "normal_kernel_cpu", out)
    return _randomly_filled("randn", size, dtype, out, requires_grad,
                            lambda t: random_ops.normal_(t, 0, 1, generator), on_meta)


@size_keyword
def rand(*size, generator=None, out=None, dtype=None, layout=strided, device=None,
         requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Samples from the uniform distribution on [0, 1): PyTorch's numbers."""
    _check_options("rand", layout, pin_memory, out)
    on_meta = meta_requested(device)
    generator = _random.cpu_generator(generator, "rand")
    dtype = _random_dtype(dtype, "rand", "check_uniform_bounds", out)
    return _randomly_filled("rand", size, dtype, out, requires_grad,
                            lambda t: random_ops.uniform_(t, 0, 1, generator), on_meta)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None,
            layout=strided, device=None,
            requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """Random integers in [low, high): ``randint(10, (3,))`` or ``randint(0, 10, (3,))``."""
    _check_options("randint", layout, pin_memory, out)
    high_position, size_position = 2, 3  # for the error messages
    if high is None:  # randint(high, size=...)
        low, high, high_position, size_position = 0, low, 1, None
    elif size is None:  # randint(high, size)
        low, high, size, high_position, size_position = 0, low, high, 1, 2
    for name, value, position in (("low", low, 1), ("high", high, high_position)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"randint(): argument '{name}' (position {position}) must be int, "
                            f"not {type_name(value)}")
        if not -2**63 <= value < 2**63:
            raise ValueError("Overflow when unpacking long long")
    if not isinstance(size, (tuple, list)):
        where = f" (position {size_position})" if size_position else ""
        raise TypeError(f"randint(): argument 'size'{where} must be tuple of ints, "
                        f"not {type_name(size)}")
    on_meta = meta_requested(device)
    generator = _random.cpu_generator(generator, "randint")
    dtype = _out_dtype("randint", dtype, out) or dtypes.int64
    low, high = int(low), int(high)
    return _randomly_filled("randint", (tuple(size),), dtype, out, requires_grad,
                            lambda t: random_ops.random_(t, low, high, generator, 0), on_meta)


def randperm(n, *, generator=None, out=None, dtype=dtypes.int64, layout=strided, device=None,
             requires_grad: bool = False, pin_memory: bool = False) -> TensorBase:
    """0, 1, ..., n - 1 in a random order (PyTorch's shuffle, so its order)."""
    _check_options("randperm", layout, pin_memory, out)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, "
                        f"not {type_name(n)}")
    check_device(device)
    generator = _random.cpu_generator(generator, "randperm")
    dtype = _out_dtype("randperm", dtype, out) or dtypes.int64
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    checked_scalar(n - 1 if n > 0 else n, dtype)  # (torch's scalar_tensor(n - 1): ints' overflow)
    if dtype.is_floating_point and n > (1 << _MANTISSA_DIGITS[dtype]) + 1:
        limit = "2049" if dtype is dtypes.float16 else f"2^{_MANTISSA_DIGITS[dtype]}+1"
        raise RuntimeError(f"n cannot be greater than {limit} for {dtypes.SCALAR_NAMES[dtype]} type.")
    if dtype is dtypes.bool:
        raise NotImplementedError('"randperm" not implemented for \'Bool\'')
    values = random_kernels.randperm(generator, int(n)).astype(dtype.numpy)
    return _into_out("randperm", make(values), out, requires_grad)


_MANTISSA_DIGITS = {dtypes.float16: 11, dtypes.float32: 24, dtypes.float64: 53}


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=strided,
           device=None, pin_memory: bool = False, requires_grad: bool = False) -> TensorBase:
    """Samples of N(mean, std**2): ``normal(mean_tensor, std_tensor)``, ``normal(mean_tensor,
    2.0)``, ``normal(0.0, std_tensor)`` elementwise, or ``normal(0.0, 1.0, size=(2, 3))``."""
    generator = _random.cpu_generator(generator, "normal")
    if isinstance(mean, TensorBase) or isinstance(std, TensorBase):
        result = random_ops.normal(mean if isinstance(mean, TensorBase) else float(mean),
                                   std if isinstance(std, TensorBase) else float(std), generator)
        return result if out is None else _into_out("normal", result, out, False)
    if size is None:
        raise TypeError(_normal_overloads(mean, std))
    _check_options("normal", layout, pin_memory, out)
    check_device(device)
    dtype = _random_dtype(dtype, "normal", "normal_kernel_cpu", out)
    return _randomly_filled("normal", (tuple(size),) if isinstance(size, (tuple, list))
                            else (size,), dtype, out, requires_grad,
                            lambda t: random_ops.normal_(t, mean, std, generator))


def _normal_overloads(mean, std) -> str:
    return (f"normal() received an invalid combination of arguments - got "
            f"({type_name(mean)}, {type_name(std)}), but expected one of:\n"
            " * (Tensor mean, Tensor std, *, torch.Generator generator = None, "
            "Tensor out = None)\n"
            " * (Tensor mean, float std = 1, *, torch.Generator generator = None, "
            "Tensor out = None)\n"
            " * (float mean, Tensor std, *, torch.Generator generator = None, "
            "Tensor out = None)\n"
            " * (float mean, float std, tuple of ints size, *, torch.Generator generator = "
            "None, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
            "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n")


def bernoulli(input, p=None, *, generator=None, out=None) -> TensorBase:
    """1 with probability ``input`` (or ``p``, a number), elementwise, else 0."""
    if not isinstance(input, TensorBase):
        raise TypeError(f"bernoulli(): argument 'input' (position 1) must be Tensor, "
                        f"not {type_name(input)}")
    result = input.bernoulli(p, generator=generator)
    return result if out is None else _into_out("bernoulli", result, out, False)


def _standard_gamma(input, generator=None) -> TensorBase:
    """A Gamma(alpha, 1) draw for each alpha of ``input`` (PyTorch's sampler, bit for bit;
    what ``distributions.Gamma`` draws with), differentiable with respect to alpha."""
    if not isinstance(input, TensorBase):
        raise TypeError(f"_standard_gamma(): argument 'input' (position 1) must be Tensor, "
                        f"not {type_name(input)}")
    return random_ops.standard_gamma(input, _random.cpu_generator(generator, "_standard_gamma"))


def _standard_gamma_grad(input, output) -> TensorBase:
    """d output / d alpha for ``output`` drawn by ``_standard_gamma(input)``."""
    return random_ops.standard_gamma_grad(input, output)


def poisson(input, generator=None) -> TensorBase:
    """A Poisson count for each rate of ``input`` (PyTorch's sampler, bit for bit)."""
    if not isinstance(input, TensorBase):
        raise TypeError(f"poisson(): argument 'input' (position 1) must be Tensor, "
                        f"not {type_name(input)}")
    return random_ops.poisson(input, _random.cpu_generator(generator, "poisson"))


def binomial(count, prob, generator=None, *, out=None) -> TensorBase:
    """Successes in ``count`` trials of chance ``prob``, elementwise (PyTorch's samplers,
    bit for bit)."""
    for position, (name, value) in enumerate((("count", count), ("prob", prob)), 1):
        if not isinstance(value, TensorBase):
            raise TypeError(f"binomial(): argument '{name}' (position {position}) must be "
                            f"Tensor, not {type_name(value)}")
    result = random_ops.binomial(count, prob, _random.cpu_generator(generator, "binomial"))
    return result if out is None else _into_out("binomial", result, out, False)


def _sample_dirichlet(input, generator=None) -> TensorBase:
    """A Dirichlet draw for each row of concentrations ``input`` (PyTorch's, bit for bit;
    what ``distributions.Dirichlet`` and ``Beta`` draw with)."""
    if not isinstance(input, TensorBase):
        raise TypeError(f"_sample_dirichlet(): argument 'input' (position 1) must be Tensor, "
                        f"not {type_name(input)}")
    return random_ops.sample_dirichlet(input, _random.cpu_generator(generator,
                                                                    "_sample_dirichlet"))


def _dirichlet_grad(x, alpha, total) -> TensorBase:
    """The reparameterised gradient of Dirichlet draws ``x`` (PyTorch's approximations)."""
    return random_ops.dirichlet_grad(x, alpha, total)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> TensorBase:
    """``num_samples`` indices from each row of weights ``input`` (PyTorch's draws)."""
    if not isinstance(input, TensorBase):
        raise TypeError(f"multinomial(): argument 'input' (position 1) must be Tensor, "
                        f"not {type_name(input)}")
    result = input.multinomial(num_samples, replacement, generator=generator)
    return result if out is None else _into_out("multinomial", result, out, False)


# ---- legacy constructors -------------------------------------------------------------------


# The C++ type names PyTorch's legacy constructors print in their dtype errors.
_CPP_TYPE_NAMES = {
    dtypes.float32: "float", dtypes.float64: "double", dtypes.float16: "c10::Half",
    dtypes.int64: "long int", dtypes.int32: "int", dtypes.int16: "short int",
    dtypes.int8: "signed char", dtypes.uint8: "unsigned char", dtypes.bool: "bool",
}


def _tensor_options(dtype: dtypes.dtype) -> str:
    return (f"TensorOptions(dtype={_CPP_TYPE_NAMES[dtype]}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


@functools.cache
def _legacy(dtype: dtypes.dtype):
    def constructor(*args):
        """Legacy constructor: ``FloatTensor([0.1, 1.0])`` makes a tensor of the
        values; ``FloatTensor(2, 3)`` one of that shape (uninitialised in PyTorch,
        zeros here)."""
        if len(args) == 1 and isinstance(args[0], TensorBase):  # an alias of it
            if args[0].dtype is not dtype:
                raise TypeError(f"expected {_tensor_options(dtype)} "
                                f"(got {_tensor_options(args[0].dtype)})")
            return shape_ops.AliasBackward0.apply(args[0])
        if len(args) == 1 and is_sequence(args[0]) and not isinstance(args[0], Size):
            return make(array_from(args[0], dtype))
        if len(args) == 1 and not isinstance(args[0], (int, np.integer, Size)):
            raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
        if not args:
            return make(np.zeros(0, dtype.numpy))
        return _filled("new", args, 0, dtype, "cpu", False)

    name = dtypes.LEGACY_NAMES[dtype]
    constructor.__name__ = constructor.__qualname__ = name
    return tensortype(name, (), {"dtype": dtype, "construct": staticmethod(constructor),
                                 "__module__": "minigrad", "__doc__": constructor.__doc__})


class tensortype(type):
    """The legacy tensor types (``torch.FloatTensor``, ...), classes as in PyTorch: calling
    one constructs (above), ``isinstance(x, torch.FloatTensor)`` asks for a float32
    tensor, and ``x.type(torch.LongTensor)`` converts (``.dtype`` is the type's dtype)."""
    __module__ = "minigrad"  # (printed as PyTorch's, <class 'torch.tensortype'>)

    def __call__(cls, *args):
        return cls.construct(*args)

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, TensorBase) and obj.dtype is cls.dtype


def legacy_new(dtype: dtypes.dtype, args: tuple, device=None):
    """``x.new(...)``: the legacy constructor of x's dtype, on the CPU only (PyTorch's text)."""
    if device is not None and as_device(device).type != "cpu":
        raise RuntimeError("legacy constructor expects device type: cpu but device type: "
                           f"{as_device(device).type} was passed")
    return _legacy(dtype)(*args)


legacy_constructor = _legacy  # (torch.Tensor's: the default dtype's, see tensor.py)
FloatTensor = _legacy(dtypes.float32)
DoubleTensor = _legacy(dtypes.float64)
LongTensor = _legacy(dtypes.int64)
IntTensor = _legacy(dtypes.int32)
BoolTensor = _legacy(dtypes.bool)
