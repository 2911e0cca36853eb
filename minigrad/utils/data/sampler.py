"""Samplers: the order in which a ``DataLoader`` asks a dataset for its samples.

``SequentialSampler`` gives 0, 1, 2, ...; ``RandomSampler`` a shuffle (a new one every
epoch, PyTorch's: the same ``randperm`` draws); ``SubsetRandomSampler`` a shuffle of some
indices; ``WeightedRandomSampler`` indices drawn by weight (``multinomial``);
``BatchSampler`` groups another sampler's indices into batches.
"""

from __future__ import annotations

import itertools
from typing import Generic, TypeVar

import minigrad

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "WeightedRandomSampler", "BatchSampler"]

T = TypeVar("T")


class Sampler(Generic[T]):
    """Subclasses give ``__iter__`` (the indices, or batches of them) and may give
    ``__len__``."""

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """The indices of ``data_source`` shuffled (or ``num_samples`` of them drawn with
    ``replacement``).

    Without a ``generator``, each epoch first draws a seed from the default generator and
    shuffles with a new generator seeded by it, as PyTorch does (so one epoch takes two
    words of the default generator whatever the dataset's size)."""

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        """``num_samples``, or the dataset's length now (a dataset may grow)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            seed = int(minigrad.empty((), dtype=minigrad.int64).random_().item())
            generator = minigrad.Generator().manual_seed(seed)
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from minigrad.randint(high=n, size=(32,), dtype=minigrad.int64,
                                            generator=generator).tolist()
            yield from minigrad.randint(high=n, size=(self.num_samples % 32,),
                                        dtype=minigrad.int64, generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from minigrad.randperm(n, generator=generator).tolist()
        yield from minigrad.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """``indices`` in a random order (a new one every epoch)."""

    def __init__(self, indices, generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in minigrad.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """``num_samples`` indices of ``weights``, index ``i`` with probability proportional
    to ``weights[i]`` (``multinomial``)."""

    def __init__(self, weights, num_samples: int, replacement: bool = True,
                 generator=None) -> None:
        if (not isinstance(num_samples, int) or isinstance(num_samples, bool)
                or num_samples <= 0):
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        weights = minigrad.as_tensor(weights, dtype=minigrad.float64)
        if weights.dim() != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        drawn = minigrad.multinomial(self.weights, self.num_samples, self.replacement,
                                     generator=self.generator)
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list]):
    """Another sampler's indices in lists of ``batch_size`` (the last one shorter, or left
    out with ``drop_last``).

    >>> list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False))
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    """

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        indices = iter(self.sampler)
        while True:
            batch = list(itertools.islice(indices, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
