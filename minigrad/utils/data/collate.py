"""Collation: the samples of a batch made into one batch, as PyTorch's ``default_collate``.

Tensors are stacked along a new first dimension; NumPy arrays become tensors first;
Python floats become a float64 tensor, ints an int64 one (bools a bool one); strings stay
a list. Containers keep their shape with each field collated: a batch of ``(x, y)`` pairs
becomes ``[xs, ys]`` (a list, as PyTorch makes it), a batch of dicts one dict, a batch of
namedtuples one namedtuple.

``default_convert`` (used when ``batch_size=None``: no batches) only turns NumPy arrays
and numbers into tensors, at any depth.
"""

from __future__ import annotations

import collections.abc
import copy
import re

import numpy as np

import minigrad

__all__ = ["default_collate", "default_convert", "collate", "default_collate_fn_map"]

# NumPy dtypes of strings and objects (``dtype.str`` holds S, a, U or O): not numbers
_STRINGS_OR_OBJECTS = re.compile(r"[SaUO]")

_ERROR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
          "found {}")


def _stacked(batch, *, collate_fn_map=None):
    return minigrad.stack(batch, 0)


def _from_arrays(batch, *, collate_fn_map=None):
    if _STRINGS_OR_OBJECTS.search(batch[0].dtype.str):
        raise TypeError(_ERROR.format(batch[0].dtype))
    return collate([minigrad.as_tensor(array) for array in batch], collate_fn_map=collate_fn_map)


def _from_numpy_numbers(batch, *, collate_fn_map=None):
    return minigrad.as_tensor(np.array(batch))


def _from_floats(batch, *, collate_fn_map=None):
    return minigrad.tensor(batch, dtype=minigrad.float64)


def _from_ints(batch, *, collate_fn_map=None):
    return minigrad.tensor(batch)


def _as_they_are(batch, *, collate_fn_map=None):
    return batch


# How each kind of sample is collated; ``collate`` looks a sample's type up here first
# (exactly, then as a subclass, in this order), as PyTorch's registry works.
default_collate_fn_map = {
    minigrad.Tensor: _stacked,
    np.ndarray: _from_arrays,
    (np.bool_, np.number, np.object_): _from_numpy_numbers,
    float: _from_floats,
    int: _from_ints,
    str: _as_they_are,
    bytes: _as_they_are,
}


def collate(batch, *, collate_fn_map=None):
    """Collate ``batch`` (a list of samples) by the first sample's kind: a type in
    ``collate_fn_map``, else a mapping, a namedtuple or a sequence, collated field by
    field."""
    first = batch[0]
    kind = type(first)
    if collate_fn_map is not None:
        if kind in collate_fn_map:
            return collate_fn_map[kind](batch, collate_fn_map=collate_fn_map)
        for types, function in collate_fn_map.items():
            if isinstance(first, types):
                return function(batch, collate_fn_map=collate_fn_map)
    if isinstance(first, collections.abc.Mapping):
        fields = {key: collate([sample[key] for sample in batch], collate_fn_map=collate_fn_map)
                  for key in first}
        return _same_kind(first, fields)
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a namedtuple
        return kind(*(collate(field, collate_fn_map=collate_fn_map) for field in zip(*batch)))
    if isinstance(first, collections.abc.Sequence):
        size = len(first)
        if any(len(sample) != size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        # (each field's samples as a tuple, as zip gives them: strings stay a tuple)
        fields = [collate(field, collate_fn_map=collate_fn_map) for field in zip(*batch)]
        if isinstance(first, tuple):
            return fields  # (a list: PyTorch's choice, kept for backward compatibility)
        return _same_kind(first, fields)
    raise TypeError(_ERROR.format(kind))


def _same_kind(example, fields):
    """``fields`` (a dict or a list) in a container of ``example``'s type where that type
    can be made from them (a copy of a mutable one, refilled), else as they are."""
    try:
        if isinstance(example, (collections.abc.MutableMapping, collections.abc.MutableSequence)):
            clone = copy.copy(example)
            if isinstance(fields, dict):
                clone.update(fields)
            else:
                for i, field in enumerate(fields):
                    clone[i] = field
            return clone
        return type(example)(fields)
    except TypeError:
        return fields


def default_collate(batch):
    """The samples of ``batch`` made into one batch (tensors stacked along a new first
    dimension, numbers into tensors, containers field by field).

    >>> default_collate([(minigrad.tensor([1.0, 2.0]), 0), (minigrad.tensor([3.0, 4.0]), 1)])
    [tensor([[1., 2.],
            [3., 4.]]), tensor([0, 1])]
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data):
    """NumPy arrays and scalars in ``data`` (at any depth) as tensors; the rest as it is."""
    kind = type(data)
    if isinstance(data, minigrad.Tensor):
        return data
    if kind.__module__ == "numpy" and kind.__name__ not in ("str_", "string_"):
        if isinstance(data, np.ndarray) and _STRINGS_OR_OBJECTS.search(data.dtype.str):
            return data
        return minigrad.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _same_kind(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return kind(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _same_kind(data, [default_convert(d) for d in data])
    return data
