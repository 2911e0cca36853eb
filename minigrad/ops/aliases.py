"""Operations PyTorch composes from others, with no node of their own: the graph shows
the nodes of the ops they are made of, as PyTorch's does.

- ``movedim``/``moveaxis``: a ``permute`` (PermuteBackward0) that moves the dims named
  in ``source`` to the places in ``destination``, the others keeping their order;
- ``unflatten``: a ``view`` (ViewBackward0) splitting one dim into ``sizes``;
- ``ravel``: ``contiguous().view(-1)`` (ViewBackward0, over CloneBackward0 when a copy
  is needed);
- ``msort``: ``sort(x, 0).values`` (SortBackward0);
- ``positive``: ``x`` itself (refused on bool, as ``+x`` is);
- ``broadcast_to``/``broadcast_tensors``: ``expand`` (ExpandBackward0);
- ``atleast_1d``/``2d``/``3d``: reshape and unsqueeze (``combine._at_least``);
- ``hsplit``/``vsplit``/``dsplit``: ``tensor_split`` along dim 1, 0, 2 (SliceBackward0);
- ``take_along_dim``: ``gather`` of ``x`` and the indices broadcast to each other (the
  indices modulo the size along ``dim``, as PyTorch 2.13);
- ``diff``: slices subtracted, ``n`` times (SubBackward0 of SliceBackward0s);
- ``sum_to_size``: the sum over the dims ``size`` broadcasts (SumBackward1, then a
  ViewBackward0 where leading dims go);
- ``inner``: ``tensordot`` over the last dims (a matrix product and a view);
- ``diagflat``: ``diag_embed`` of the flattened input (DiagEmbedBackward0);
- ``isposinf``/``isneginf``/``isreal``: comparisons (no gradient).

The other names (``concat``, ``true_divide``, ``negative``, ``absolute``,
``swapaxes``, ...) call the op under its first name directly (functions.py, tensor.py).
"""

from __future__ import annotations

import math

from .. import dtypes
from ..autograd.broadcast import broadcast_shapes
from ..autograd.tensor_base import is_tensor
from ..rules.arguments import normalize_dim, normalize_dim_strict
from . import (arithmetic, combine, compare, diagonal, gather as gather_ops, reduction, rounding,
               shape, sorting, split)

__all__ = ["movedim", "unflatten", "ravel", "msort", "positive", "broadcast_to",
           "broadcast_tensors", "atleast", "hsplit", "vsplit", "dsplit", "take_along_dim",
           "diff", "sum_to_size", "inner", "diagflat", "isposinf", "isneginf", "isreal"]


def _dim_list(dims) -> list:
    return [dims] if isinstance(dims, int) else list(dims)


def movedim(x, source, destination):
    """``x`` with dims ``source`` moved to ``destination``: a permute."""
    source, destination = _dim_list(source), _dim_list(destination)
    if len(source) != len(destination):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({source} dims) should "
            f"contain the same number of dims as destination ({destination} dims)")
    moved = [normalize_dim(d, x.ndim) for d in source]
    places = [normalize_dim(d, x.ndim) for d in destination]
    if len(set(moved)) != len(moved):
        raise RuntimeError(f"movedim: repeated dim in `source` ({source})")
    if len(set(places)) != len(places):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({destination})")
    if x.ndim == 0:
        return shape.AliasBackward0.apply(x)
    order = [None] * x.ndim
    for dim, place in zip(moved, places):
        order[place] = dim
    rest = iter(d for d in range(x.ndim) if d not in moved)
    return shape.permute(x, *[next(rest) if d is None else d for d in order])


def unflatten(x, dim, sizes):
    """Dim ``dim`` of ``x`` split into ``sizes`` (one of them may be -1): a view."""
    if x.ndim == 0:  # (PyTorch's text begins so, then shows its C++ stack)
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 "
                           "but tensor has no dimensions")
    dim = normalize_dim(dim, x.ndim)
    sizes = [int(s) for s in sizes]
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be "
                           "inferred")
    length = x.shape[dim]
    known = math.prod(s for s in sizes if s != -1)
    if sizes.count(-1) == 1 and known and length % known == 0:
        sizes = [length // known if s == -1 else s for s in sizes]
    if math.prod(sizes) != length or -1 in sizes:
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size "
                           f"of dim {dim} ({length}) in the input tensor")
    return shape.view(x, x.shape[:dim] + tuple(sizes) + x.shape[dim + 1:])


def ravel(x):
    """``x`` as one dimension: ``contiguous().view(-1)``."""
    return shape.view(shape.contiguous(x), -1)


def msort(x):
    """``x`` sorted along its first dim: ``sort(x, 0).values``."""
    return sorting.sort(x, 0).values


def positive(x):
    """``+x``: ``x`` itself (refused on bool tensors)."""
    if x.dtype is dtypes.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return x


def broadcast_to(x, size):
    """``x`` expanded to ``size`` (a view)."""
    return shape.expand(x, tuple(size))


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (one of that shape as it is)."""
    common = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t if t.shape == common else shape.expand(t, common) for t in tensors)


def atleast(ndim, tensors):
    """``atleast_1d(x)``: ``x`` with at least ``ndim`` dims; given several tensors (or
    one list of them), a tuple."""
    if len(tensors) == 1 and is_tensor(tensors[0]):
        return combine._at_least(tensors[0], ndim)
    if len(tensors) == 1:
        tensors = tensors[0]
    return tuple(combine._at_least(t, ndim) for t in tensors)


def _split_along(name, x, sections, dim, least):
    if x.ndim < least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, "
                           f"but got a tensor with {x.ndim} dimensions!")
    if isinstance(sections, int) and (sections == 0 or x.shape[dim] % sections):
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the "
                           f"size of the dimension {x.shape[dim]} is not divisible by the "
                           f"split_size {sections}!")
    return split.tensor_split(x, sections, dim)


def hsplit(x, sections):
    """Split along dim 1 (dim 0 for a vector): ``tensor_split``."""
    return _split_along("hsplit", x, sections, 0 if x.ndim == 1 else 1, 1)


def vsplit(x, sections):
    return _split_along("vsplit", x, sections, 0, 2)


def dsplit(x, sections):
    return _split_along("dsplit", x, sections, 2, 3)


def take_along_dim(x, indices, dim=None):
    """``x`` read at ``indices`` along ``dim`` (of x flattened, when None), the two
    broadcast to each other over the other dims: a ``gather``."""
    if indices.dtype is not dtypes.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{dtypes.SCALAR_NAMES[indices.dtype]}")
    if dim is None:
        return gather_ops.gather(shape.view(x, -1), 0, shape.view(indices, -1))
    if x.ndim != indices.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {x.ndim} dimensions for input, and {indices.ndim} dimensions "
            "for indices")
    dim = normalize_dim_strict(normalize_dim(dim, x.ndim), x.ndim)  # (0-dim: as torch, after wrapping)
    sizes = list(x.shape)
    sizes[dim] = indices.shape[dim]
    common = list(broadcast_shapes(sizes, indices.shape))
    if x.shape[dim] == 0 and indices.shape[dim] != 0:  # (indices into nothing: torch's own text)
        raise RuntimeError("ZeroDivisionError")
    # (PyTorch 2.13 takes the indices modulo the size: -1 is the last, 5 of 3 reads 2)
    indices = shape.expand(rounding.remainder(indices, x.shape[dim]) if x.shape[dim] else indices,
                           tuple(common))
    common[dim] = x.shape[dim]
    return gather_ops.gather(shape.expand(x, tuple(common)), dim, indices)


def diff(x, n=1, dim=-1, prepend=None, append=None):
    """``x[i + 1] - x[i]`` along ``dim``, ``n`` times (``!=`` for bool), after
    ``prepend`` and ``append`` are joined at its ends."""
    if x.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = normalize_dim(dim, x.ndim)
    ends = [t for t in (prepend, append) if t is not None]
    if any(t.ndim != x.ndim for t in ends):
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    if ends:
        x = shape.cat([t for t in (prepend, x, append) if t is not None], dim)
    for _ in range(min(n, x.shape[dim])):  # (past the size: empty, as PyTorch)
        length = x.shape[dim] - 1
        later, earlier = shape.narrow(x, dim, 1, length), shape.narrow(x, dim, 0, length)
        x = compare.logical_xor(later, earlier) if x.dtype is dtypes.bool \
            else arithmetic.sub(later, earlier)
    return x


def sum_to_size(x, size):
    """``x`` summed down to ``size`` (which must broadcast to x's shape): the leading
    dims and those where ``size`` has 1 and x has more are summed away."""
    size = tuple(size)
    lead = x.ndim - len(size)
    if lead < 0 or any(s not in (1, n) for s, n in zip(size, x.shape[lead:])):
        raise RuntimeError(f"size {{[{', '.join(map(str, size))}]}} is not expandable to "
                           f"size {{[{', '.join(map(str, x.shape))}]}}.")
    dims = list(range(lead)) + [lead + d for d, s in enumerate(size)
                                if s == 1 and x.shape[lead + d] != 1]
    if not dims:
        return x
    summed = reduction.sum(x, dims, keepdim=True)
    return shape.view(summed, *size) if lead else summed


def inner(a, b):
    """sum over the last dims of a[..., k] * b[..., k] (a number times a tensor if either
    is 0-d)."""
    if a.ndim == 0 or b.ndim == 0:
        return arithmetic.mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(a.shape)} and {list(b.shape)}")
    return combine.tensordot(a, b, ([-1], [-1]))


def diagflat(x, offset=0):
    """The flattened ``x`` laid on a diagonal (``offset`` above the main one)."""
    return diagonal.diag_embed(shape.reshape(x, -1), offset, 0, 1)


def isposinf(x):
    return compare.eq(x, math.inf)


def isneginf(x):
    return compare.eq(x, -math.inf)


def isreal(x):
    """True everywhere: minigrad has no complex numbers."""
    return compare.eq(x, x) | ~compare.eq(x, x)
