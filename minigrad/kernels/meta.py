"""The arrays of ``device="meta"`` tensors: a shape and a dtype, and no numbers.

PyTorch's meta device runs every op's shape rule and no kernel, so that a model's
shapes can be worked out for inputs far too big to hold (``torch.rand(2**10, 3,
2**16, 2**16, device="meta")``). Here a meta tensor's array is a ``MetaArray``: a NumPy
array whose every stride is 0, so that it shows its shape and dtype over one element of
memory, whatever its size. Views of it (reshape, transpose, slices) are views of that
element, and so are meta arrays too.

NumPy's own rules give the shapes and dtypes: a ufunc called on meta arrays
(``__array_ufunc__``: elementwise math, reductions, the matrix product) returns a new meta
array of the shape and dtype NumPy would give, computing nothing; writes into one are
dropped. Any other NumPy function (``__array_function__``) is run on the arrays as
plain arrays of zeros when they are small enough (``COMPUTED_LIMIT`` elements), or make
views (``reshape``, ``transpose``, ...: no memory), and its results are taken for their
shapes and dtypes only; a bigger one has a rule here (``np.pad``, ``tensordot``,
``einsum``, the reductions) or raises. The op layer then gives the result of an op with a meta input
a meta array of its shape (``autograd/meta.py``), whatever the kernel returned.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MetaArray", "empty", "like", "lost", "is_meta", "ones_like", "copied",
           "COMPUTED_LIMIT"]

# (NumPy functions without a rule here are computed on zeros up to this many elements)
COMPUTED_LIMIT = 1 << 24

seen = False  # (set once a meta array exists: until then nothing looks for one)


class MetaArray(np.ndarray):
    """A shape and a dtype, over one element of memory (every stride 0)."""

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if method == "at":
            return None
        if out is not None:  # (a write into a meta array, or by one: nothing to compute)
            return out[0] if len(out) == 1 else out
        standins = [_standin(x) for x in inputs]
        with np.errstate(all="ignore"):
            sample = getattr(ufunc, method)(*standins, **kwargs)
        shape = _ufunc_shape(ufunc, method, inputs, kwargs)
        if isinstance(sample, tuple):
            return tuple(empty(shape, np.asarray(s).dtype) for s in sample)
        return empty(shape, np.asarray(sample).dtype)

    def __array_function__(self, func, types, args, kwargs):
        rule = _RULES.get(func.__name__)
        if rule is not None:
            return rule(*args, **kwargs)
        size = sum(x.size for x in _flat(args) if type(x) is MetaArray)
        if size > COMPUTED_LIMIT and func.__name__ not in _VIEWS:
            raise NotImplementedError(
                f"numpy.{func.__name__} on meta arrays of {size} elements: minigrad works "
                f"its result's shape out by computing it on zeros, up to {COMPUTED_LIMIT} "
                f"elements")
        return _computed(func, args, kwargs)

    # (no data: what would read or copy it)
    def __setitem__(self, index, value) -> None:
        pass

    def copy(self, order="C"):
        return empty(self.shape, self.dtype)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        return empty(self.shape, np.dtype(dtype))

    def item(self, *args):
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")

    def tolist(self):
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")


def empty(shape, dtype) -> MetaArray:
    """A meta array of ``shape`` and ``dtype``: every element is the one element of
    ``_OWNERS[dtype]``, a private array (so that a plain NumPy view of a meta array, as
    ``np.asarray`` makes, is still known for one: see ``lost``)."""
    global seen
    seen = True
    dtype = np.dtype(dtype)
    owner = _OWNERS.get(dtype)
    if owner is None:
        owner = _OWNERS[dtype] = np.zeros(1, dtype)
    array = np.ndarray.__new__(MetaArray, tuple(shape), dtype, buffer=owner,
                               strides=(0,) * len(shape))
    array.flags.writeable = False
    return array


_OWNERS: dict = {}


def lost(array) -> bool:
    """Whether a plain NumPy array views a meta array's element (``np.asarray`` of a meta
    array is such a view): it is a meta array that lost its type."""
    base = array.base
    return base is not None and (type(base) is MetaArray or base is _OWNERS.get(array.dtype))


def like(array) -> MetaArray:
    """A meta array of ``array``'s shape and dtype."""
    return array if type(array) is MetaArray else empty(array.shape, array.dtype)


def is_meta(array) -> bool:
    return type(array) is MetaArray


def ones_like(array):
    """Ones of an array's shape and dtype (a gradient's seed: d out / d out), or, for a
    meta array, a meta array of its shape."""
    return like(array) if type(array) is MetaArray else np.ones(array.shape, array.dtype)


def copied(array):
    """A copy of an array with memory of its own (``np.array(array, copy=True)``), or a
    meta array of its shape."""
    return array.copy() if type(array) is MetaArray else np.array(array, copy=True)


# ---- shapes -----------------------------------------------------------------------------

def _standin(x):
    """What a ufunc is called on to learn its result's dtype: one element of an array's
    dtype with as many dims (each of size 1: a reduction's axis, the matrix product's
    core dims exist); a Python number as it is."""
    return np.zeros((1,) * x.ndim, x.dtype) if isinstance(x, np.ndarray) else x


def _shape(x) -> tuple:
    return np.shape(x) if not isinstance(x, np.ndarray) else x.shape


def _ufunc_shape(ufunc, method, inputs, kwargs) -> tuple:
    if method == "__call__":
        if ufunc is np.matmul:
            return _matmul_shape(_shape(inputs[0]), _shape(inputs[1]))
        return np.broadcast_shapes(*(_shape(x) for x in inputs))
    if method == "reduce":
        shape = _shape(inputs[0])
        axis = kwargs.get("axis", 0)
        axes = range(len(shape)) if axis is None else (axis,) if np.ndim(axis) == 0 else axis
        axes = {a % len(shape) for a in axes} if shape else set()
        if kwargs.get("keepdims", False):
            return tuple(1 if d in axes else n for d, n in enumerate(shape))
        return tuple(n for d, n in enumerate(shape) if d not in axes)
    if method == "accumulate":
        return _shape(inputs[0])
    if method == "outer":
        return _shape(inputs[0]) + _shape(inputs[1])
    raise NotImplementedError(f"{ufunc.__name__}.{method} of meta arrays")


def _matmul_shape(a: tuple, b: tuple) -> tuple:
    a2 = (1,) + a if len(a) == 1 else a
    b2 = b + (1,) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {b2[-2]} is different from {a2[-1]})")
    shape = np.broadcast_shapes(a2[:-2], b2[:-2]) + (a2[-2], b2[-1])
    if len(b) == 1:
        shape = shape[:-1]
    if len(a) == 1:
        shape = shape[:-2] + shape[-1:] if len(b) > 1 else shape[:-1]
    return shape


def _pad(array, pad_width, mode="constant", **kwargs):
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (array.ndim, 2))
    return empty(tuple(n + a + b for n, (a, b) in zip(array.shape, widths)), array.dtype)


def _tensordot(a, b, axes=2):
    if np.ndim(axes) == 0:
        axes = (list(range(a.ndim - axes, a.ndim)), list(range(axes)))
    summed_a = {d % a.ndim for d in np.atleast_1d(axes[0])}
    summed_b = {d % b.ndim for d in np.atleast_1d(axes[1])}
    free = [n for d, n in enumerate(a.shape) if d not in summed_a] + \
        [n for d, n in enumerate(b.shape) if d not in summed_b]
    return empty(tuple(free), _result_type(a, b))


def _einsum(subscripts, *operands, **kwargs):
    """The output's letters (explicit after ``->``, else those met once, in order), each
    of the size an operand gives it."""
    inputs, _, output = subscripts.replace(" ", "").partition("->")
    sizes, counts = {}, {}
    for letters, operand in zip(inputs.split(","), operands):
        for letter, size in zip(letters, operand.shape):
            sizes[letter] = max(size, sizes.get(letter, 1))
            counts[letter] = counts.get(letter, 0) + 1
    if "->" not in subscripts:
        output = "".join(sorted(letter for letter, n in counts.items() if n == 1))
    dtype = _result_type(*operands)
    return empty(tuple(sizes[letter] for letter in output), dtype)


def _copyto(dst, src, casting="same_kind", where=True) -> None:
    """Nothing to copy: into a meta array, or from one into a kernel's own buffer (whose
    numbers the op's result then drops: autograd/meta.py)."""


def _reduction(func):
    """NumPy's reductions (``np.mean(x, axis, keepdims=)``, ...): the shape a ufunc's
    reduce gives, the dtype of the function on one element."""
    def rule(array, axis=None, *args, **kwargs):
        with np.errstate(all="ignore"):
            sample = func(_standin(array), axis, *args, **kwargs)
        shape = _ufunc_shape(None, "reduce", (array,), {"axis": axis, **kwargs})
        return empty(shape, np.asarray(sample).dtype)
    return rule


def _like(array, dtype=None, order="K", subok=True, shape=None, **kwargs):
    return empty(array.shape if shape is None else shape,
                 array.dtype if dtype is None else np.dtype(dtype))


def _full_like(array, fill_value, dtype=None, *args, **kwargs):
    return _like(array, dtype, *args, **kwargs)


def _where(condition, *values):
    if not values:
        return _computed(np.where, (condition,), {})
    shape = np.broadcast_shapes(*(_shape(x) for x in (condition, *values)))
    return empty(shape, np.result_type(*(_standin(x) for x in values)))


def _concatenate(arrays, axis=0, **kwargs):
    if axis is None:
        return empty((sum(x.size for x in arrays),), _result_type(*arrays))
    first = arrays[0].shape
    axis %= len(first)
    shape = first[:axis] + (sum(x.shape[axis] for x in arrays),) + first[axis + 1:]
    return empty(shape, kwargs.get("dtype") or _result_type(*arrays))


def _stack(arrays, axis=0, **kwargs):
    first = arrays[0].shape
    axis %= len(first) + 1
    shape = first[:axis] + (len(arrays),) + first[axis:]
    return empty(shape, kwargs.get("dtype") or _result_type(*arrays))


def _result_type(*arrays_and_dtypes):
    return np.result_type(*(x.dtype if type(x) is MetaArray else x for x in arrays_and_dtypes))


def _einsum_rule(subscripts, *operands, **kwargs):
    """einsum's shape where its subscripts are letters only (no ``...``)."""
    if isinstance(subscripts, str) and "." not in subscripts:
        return _einsum(subscripts, *operands, **kwargs)
    return _computed(np.einsum, (subscripts, *operands), kwargs)


_RULES = {"result_type": _result_type, "pad": _pad, "tensordot": _tensordot,
          "einsum": _einsum_rule, "copyto": _copyto, "empty_like": _like, "zeros_like": _like,
          "ones_like": _like, "full_like": _full_like, "where": _where,
          "concatenate": _concatenate, "stack": _stack,
          "clip": lambda array, *args, **kwargs: like(array)}
_RULES.update({func.__name__: _reduction(func) for func in (
    np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.any, np.all, np.var,
    np.std, np.nansum, np.nanmean)})


# (NumPy functions that make a view: on an array whose strides are 0, at any size, a
# view whose strides are 0 too, with no memory of its own)
_VIEWS = {"reshape", "transpose", "moveaxis", "swapaxes", "squeeze", "expand_dims",
          "broadcast_to", "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d",
          "sliding_window_view", "diagonal", "flip", "split", "array_split"}


def _computed(func, args, kwargs):
    """``func`` run on the arrays' zeros (plain arrays whose strides are 0), its results
    taken for their shapes and dtypes."""
    with np.errstate(all="ignore"):
        return _as_meta(func(*_plain(args), **_plain(kwargs)))


# ---- run on zeros -------------------------------------------------------------------------

def _flat(value):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _flat(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _flat(item)
    else:
        yield value


def _plain(value):
    """``value`` with each meta array seen as a plain NumPy array (of zeros)."""
    if type(value) is MetaArray:
        return value.view(np.ndarray)
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _as_meta(result):
    if isinstance(result, (np.ndarray, np.generic)):  # (a NumPy scalar: a 0-dim result)
        return empty(np.shape(result), result.dtype)
    if isinstance(result, (list, tuple)):
        return type(result)(_as_meta(r) for r in result)
    return result
