"""``torch.vmap`` (``torch.func.vmap``): a function of one example, run on a batch.

``vmap(f)(xs)`` is ``torch.stack([f(x) for x in xs])``, and that is how it runs here: a
loop over the mapped dimension that calls ``f`` on each slice and stacks the results
(``in_dims`` says which dimension of each argument is mapped, None for an argument given
whole to every call; ``out_dims`` where the batch goes in each result). PyTorch instead
pushes the batch dimension into every op (one call of ``f``, "batching rules"); the
values are the same, since each op computes each example as it would alone. What a loop
cannot show: inside ``f`` a tensor is one example, so ``.item()`` and printing work
where PyTorch's BatchedTensor refuses or prints otherwise.

``randomness``: "error" (PyTorch's default) refuses any random op inside ``f``; "same"
gives every example the same random numbers (the generator is set back before each
call); "different" draws them one example after another (PyTorch draws the whole batch at
once, so the values differ from PyTorch's, though the distribution is the same).
``chunk_size`` is accepted and checked; a loop needs no chunks. An empty batch calls
``f`` once on zeros of one example's shape, for the shapes of the (empty) results.
"""

from __future__ import annotations

import functools
from contextlib import contextmanager

import minigrad
from ..autograd import grad_mode
from ..kernels import random as random_kernels

from ._tree import Spec, broadcast, flatten, unflatten

__all__ = ["vmap"]

_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either "
                 "use the 'same' or 'different' randomness flags on vmap or perform the "
                 "randomness operation out of vmap")


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``func`` mapped over a dimension of its inputs (see the module docstring).

    >>> import minigrad as torch
    >>> torch.vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3))
    tensor([3., 3.])
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        name = getattr(func, "__name__", repr(func))
        leaves, spec = flatten(args)
        dims = _dims_per_leaf(in_dims, args, spec, name)
        size = _batch_size(leaves, dims, name, in_dims)
        results = []
        start = minigrad.get_rng_state() if randomness == "same" else None
        with _random_mode(randomness):
            for index in range(size):
                if start is not None and index:
                    minigrad.set_rng_state(start)  # (the same random numbers for each)
                picked = [x if d is None else x.select(d, index) for x, d in zip(leaves, dims)]
                with _graphs_kept(index < size - 1):
                    results.append(func(*unflatten(picked, spec), **kwargs))
            if not size:  # an empty batch: one call on zeros gives the results' shapes
                picked = [x if d is None else x.new_zeros(x.shape[:d % x.dim()] + x.shape[d % x.dim() + 1:])
                          for x, d in zip(leaves, dims)]
                results.append(func(*unflatten(picked, spec), **kwargs))
        return _stack(results, out_dims, name, empty=not size)
    return wrapped


def _dims_per_leaf(in_dims, args, spec: Spec, name: str) -> list:
    """One in_dim per leaf of ``args``: an int or None applies to all the leaves below it."""
    if not isinstance(in_dims, (int, tuple)) and in_dims is not None:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` "
                         f"to be int or a (potentially nested) tuple matching the structure of "
                         f"inputs, got: {type(in_dims)}.")
    dims = broadcast(in_dims, tuple(args))
    if dims is None:
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with "
            f"the structure of `inputs`. in_dims has structure {flatten(in_dims)[1]} but inputs "
            f"has structure {spec}.")
    return dims


def _batch_size(leaves, dims, name: str, in_dims) -> int:
    sizes = []
    for x, d in zip(leaves, dims):
        if d is None:
            continue
        if not isinstance(x, minigrad.Tensor):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} "
                             f"for an input but the input is of type {type(x)}. We cannot vmap "
                             "over non-Tensor arguments, please use None as the respective in_dim")
        if not -x.dim() <= d < x.dim():
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some "
                f"input, but that input is a Tensor of dimensionality {x.dim()} so expected "
                f"in_dim to satisfy -{x.dim()} <= in_dim < {x.dim()}.")
        sizes.append(x.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _stack(results: list, out_dims, name: str, empty: bool = False):
    """The per-example results stacked along ``out_dims`` (one per leaf, or one for all);
    ``empty``: ``results`` is one made of zeros, and the batch is empty."""
    flat = [flatten(result) for result in results]
    spec = flat[0][1]
    dims = broadcast(out_dims, results[0])
    if dims is None:
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with "
            f"the structure of `outputs`. out_dims has structure {flatten(out_dims)[1]} but "
            f"outputs has structure {spec}.")
    stacked = []
    for position, dim in enumerate(dims):
        column = [leaves[position] for leaves, _ in flat]
        if dim is None:
            stacked.append(column[0])
            continue
        if not isinstance(column[0], minigrad.Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                             f"{type(column[0])}. Did you mean to set out_dims= to None for "
                             "output?")
        together = minigrad.stack(column, dim=dim)
        stacked.append(together.narrow(dim, 0, 0) if empty else together)
    return unflatten(stacked, spec)


@contextmanager
def _graphs_kept(more_to_come: bool):
    """A backward inside the call keeps its graph while examples are still to come (an
    outer vmap's too): PyTorch's one batched backward frees it once."""
    previous = grad_mode.graphs_kept_for_vmap
    grad_mode.graphs_kept_for_vmap = previous or more_to_come
    try:
        yield
    finally:
        grad_mode.graphs_kept_for_vmap = previous


@contextmanager
def _random_mode(randomness: str):
    """randomness="error": every random draw inside raises PyTorch's error."""
    previous = random_kernels.refusal
    random_kernels.refusal = _RANDOM_ERROR if randomness == "error" else None
    try:
        yield
    finally:
        random_kernels.refusal = previous
