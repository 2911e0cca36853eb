"""Datasets: what a ``DataLoader`` reads samples from.

A map-style dataset answers ``dataset[i]`` and ``len(dataset)`` (``Dataset``); an
iterable one is walked once per epoch (``IterableDataset``). The rest combine or cut
datasets: ``TensorDataset`` (rows of tensors), ``StackDataset`` (several side by side),
``ConcatDataset`` (one after another), ``ChainDataset`` (iterables one after another),
``Subset`` (some indices of one) and ``random_split`` (disjoint random subsets).
"""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from typing import Generic, TypeVar

import minigrad

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
           "ChainDataset", "Subset", "random_split"]

T = TypeVar("T")


class Dataset(Generic[T]):
    """A map-style dataset: subclasses give ``__getitem__`` (and usually ``__len__``).
    ``a + b`` is their ``ConcatDataset``. ``Dataset[int]`` may be written in type hints."""

    def __getitem__(self, index) -> T:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T]):
    """A dataset read by iterating over it (a stream: a file, a generator); subclasses give
    ``__iter__``. ``a + b`` is their ``ChainDataset``."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset) -> ChainDataset:
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Rows of tensors of the same length: sample ``i`` is ``(t[i] for t in tensors)``.

    >>> x, y = minigrad.arange(6.0).reshape(3, 2), minigrad.tensor([0, 1, 0])
    >>> TensorDataset(x, y)[1]
    (tensor([2., 3.]), tensor(1))
    """

    def __init__(self, *tensors) -> None:
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class StackDataset(Dataset):
    """Datasets of the same length side by side: sample ``i`` is the tuple (``*args``) or
    the dict (``**kwargs``) of their samples ``i``."""

    def __init__(self, *args, **kwargs) -> None:
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                             "``kwargs``) like input/output, but both types are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        parts = list(args or kwargs.values())
        self._length = len(parts[0])
        if any(len(dataset) != self._length for dataset in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args or kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {key: dataset[index] for key, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __len__(self) -> int:
        return self._length


class ConcatDataset(Dataset):
    """Datasets one after another; ``cumulative_sizes`` are the running totals of their
    lengths, so sample ``i`` is found by a binary search in them."""

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for dataset in self.datasets:
            if isinstance(dataset, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]

    @property
    def cummulative_sizes(self) -> list:  # (PyTorch's old, misspelt name)
        warnings.warn("cummulative_sizes attribute is renamed to cumulative_sizes",
                      DeprecationWarning, stacklevel=2)
        return self.cumulative_sizes


class ChainDataset(IterableDataset):
    """Iterable datasets one after another."""

    def __init__(self, datasets) -> None:
        self.datasets = datasets

    def __iter__(self):
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from dataset

    def __len__(self) -> int:
        total = 0
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(dataset)
        return total


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list) -> list:
        """A batch of samples at once (the DataLoader asks so when it can)."""
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths, generator=None) -> list[Subset]:
    """Cut ``dataset`` into disjoint random subsets of the given ``lengths``, or of the
    given fractions of its length (floors, the rest handed out one by one from the first).
    The order is PyTorch's: a ``randperm`` of the whole, cut in order.

    >>> train, test = random_split(range(10), [0.8, 0.2],
    ...                            generator=minigrad.Generator().manual_seed(42))
    >>> len(train), len(test)
    (8, 2)
    """
    if generator is None:
        generator = minigrad.default_generator
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, fraction in enumerate(lengths):
            if fraction < 0 or fraction > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(math.floor(len(dataset) * fraction))
        for i in range(len(dataset) - sum(sizes)):
            sizes[i % len(sizes)] += 1
        lengths = sizes
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an "
                              "empty dataset.", stacklevel=2)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = minigrad.randperm(sum(lengths), generator=generator).tolist()
    ends = list(itertools.accumulate(lengths))
    return [Subset(dataset, order[end - length:end]) for end, length in zip(ends, lengths)]
