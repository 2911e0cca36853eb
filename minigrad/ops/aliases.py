"""Operations PyTorch composes from others, with no node of their own: the graph shows
the nodes of the ops they are made of, as PyTorch's does.

- ``movedim``/``moveaxis``: a ``permute`` (PermuteBackward0) that moves the dims named
  in ``source`` to the places in ``destination``, the others keeping their order;
- ``unflatten``: a ``view`` (ViewBackward0) splitting one dim into ``sizes``;
- ``ravel``: ``contiguous().view(-1)`` (ViewBackward0, over CloneBackward0 when a copy
  is needed);
- ``msort``: ``sort(x, 0).values`` (SortBackward0);
- ``positive``: ``x`` itself (refused on bool, as ``+x`` is).

The other names (``concat``, ``true_divide``, ``negative``, ``absolute``,
``swapaxes``, ...) call the op under its first name directly (functions.py, tensor.py).
"""

from __future__ import annotations

import math

from .. import dtypes
from ..rules.arguments import normalize_dim
from . import shape, sorting

__all__ = ["movedim", "unflatten", "ravel", "msort", "positive"]


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
