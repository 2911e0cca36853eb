"""``DataLoader``: a dataset walked in batches, as PyTorch walks it.

Each ``for batch in loader`` is an epoch: a sampler gives the indices (in order, or
shuffled), a ``BatchSampler`` groups them, the dataset is asked for the samples of a batch,
and ``collate_fn`` makes them one batch. The random numbers are drawn where PyTorch draws
them: one seed from the loader's generator (or the default one) when the epoch starts,
then the shuffle at its first batch; so a seeded program gets PyTorch's batches, and the
random numbers it draws afterwards are PyTorch's too.

Everything runs in the Python process that iterates: ``num_workers > 0`` is accepted and
says once that it loads in the main process (there are no worker processes to start);
PyTorch's own warning for more workers than CPUs is given all the same.
"""

from __future__ import annotations

import itertools
import math
import os
import warnings

import minigrad

from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]

_WORKERS_NOTE = ("minigrad's DataLoader loads every batch in the main process: num_workers={} "
                 "starts no worker processes (the batches are the same, only not loaded in "
                 "parallel; worker_init_fn is not called).")
_noted_workers: list = []  # (the note is said once per process)


def get_worker_info():
    """None: minigrad's DataLoader has no worker processes (PyTorch's answer in the main
    process)."""
    return None


class _Forever(Sampler):
    """An iterable dataset's sampler: no indices to give, only 'the next one', forever."""

    def __iter__(self):
        while True:
            yield None


_FIXED = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class DataLoader:
    """Batches of ``dataset``: ``for x, y in DataLoader(data, batch_size=64, shuffle=True)``.

    ``batch_size=None`` gives samples one by one (``default_convert`` instead of
    ``default_collate``); ``sampler`` or ``batch_sampler`` choose the order instead of
    ``shuffle``; ``generator`` shuffles with a generator of its own.
    """

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0, collate_fn=None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        _check_workers(num_workers, timeout, prefetch_factor, persistent_workers,
                       multiprocessing_context)
        if isinstance(dataset, IterableDataset):
            if shuffle not in (False, None):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if isinstance(dataset, IterableDataset):
                sampler = _Forever()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None
                                         else default_convert)
        self.num_workers = num_workers
        self.prefetch_factor = 2 if num_workers > 0 and prefetch_factor is None else prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.persistent_workers = persistent_workers
        self.in_order = in_order
        self._initialized = True
        self.check_worker_number_rationality()

    def __setattr__(self, name: str, value) -> None:
        if name in _FIXED and getattr(self, "_initialized", False):
            raise ValueError(f"{name} attribute should not be set after "
                             f"{type(self).__name__} is initialized")
        super().__setattr__(name, value)

    def __len__(self) -> int:
        """Batches per epoch (for an iterable dataset, from its ``__len__``)."""
        if isinstance(self.dataset, IterableDataset):
            length = len(self.dataset)
            if self.batch_size is None:
                return length
            return length // self.batch_size if self.drop_last else math.ceil(
                length / self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)

    def __iter__(self):
        """One epoch's batches."""
        if self.num_workers > 0 and not _noted_workers:
            _noted_workers.append(True)
            warnings.warn(_WORKERS_NOTE.format(self.num_workers), UserWarning, stacklevel=2)
        if self.num_workers > 0:
            self.check_worker_number_rationality()
        if self.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=2)
        iterator = _MultiProcessingDataLoaderIter if self.num_workers > 0 \
            else _SingleProcessDataLoaderIter
        return iterator(self)

    def check_worker_number_rationality(self) -> None:
        """PyTorch's warning when ``num_workers`` is more than the CPUs this process may
        use (given when the loader is made and at each epoch, as PyTorch gives it, although
        minigrad starts no workers)."""
        if not self.num_workers:
            return
        suggest = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else os.cpu_count()
        if suggest is not None and self.num_workers <= suggest:
            return
        cpuset = "" if hasattr(os, "sched_getaffinity") else " (`cpuset` is not taken into account)"
        suggestion = ("DataLoader is not able to compute a suggested max number of worker in "
                      "current system." if suggest is None else
                      f"Our suggested max number of worker in current system is {suggest}"
                      f"{cpuset}, which is smaller than what this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in "
                      f"total. {suggestion} Please be aware that excessive worker creation "
                      "might get DataLoader running slow or even freeze, lower the worker "
                      "number to avoid potential slowness/freeze if necessary.", stacklevel=2)


class _SingleProcessDataLoaderIter:
    """One epoch's batches, an iterator with PyTorch's class name (so ``it.next()``, a
    Python 2 habit, fails with PyTorch's AttributeError) and ``len()`` of its loader."""

    def __init__(self, loader: DataLoader) -> None:
        self._loader, self._batches = loader, _epoch(loader)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._batches)

    def __len__(self) -> int:
        return len(self._loader)


class _MultiProcessingDataLoaderIter(_SingleProcessDataLoaderIter):
    """PyTorch's name for the iterator of a loader with ``num_workers > 0`` (the batches
    are made in this process all the same)."""


def _check_workers(num_workers, timeout, prefetch_factor, persistent_workers,
                   multiprocessing_context) -> None:
    """PyTorch's checks of the multiprocessing options (which minigrad then does not use)."""
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                         "disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                         "let num_workers > 0 to enable multiprocessing, otherwise set "
                         "prefetch_factor to None.")
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    if multiprocessing_context is not None and num_workers == 0:
        raise ValueError(f"multiprocessing_context can only be used with multi-process "
                         f"loading (num_workers > 0), but got num_workers={num_workers}")


def _epoch(loader: DataLoader):
    """The batches of one epoch, made as PyTorch's iterator makes them: the sampler's
    iterator first; then a seed PyTorch draws for its worker processes, even without any
    (it moves the generator, so it is drawn here too); then, for an iterable dataset, its
    iterator. A shuffle is drawn when the first batch is asked for."""
    indices = iter(loader.batch_sampler if loader.batch_sampler is not None else loader.sampler)
    minigrad.empty((), dtype=minigrad.int64).random_(generator=loader.generator)
    if isinstance(loader.dataset, IterableDataset):
        return _iterable_batches(loader, indices, iter(loader.dataset))
    return _map_batches(loader, indices)


def _map_batches(loader: DataLoader, indices):
    dataset, collate_fn = loader.dataset, loader.collate_fn
    getitems = getattr(dataset, "__getitems__", None)
    for index in indices:
        if loader.batch_sampler is None:
            yield collate_fn(dataset[index])
        elif getitems:  # (a dataset that reads a whole batch at once)
            yield collate_fn(getitems(index))
        else:
            yield collate_fn([dataset[i] for i in index])


def _iterable_batches(loader: DataLoader, indices, samples):
    for index in indices:
        if loader.batch_sampler is None:
            try:
                sample = next(samples)
            except StopIteration:
                return
            yield loader.collate_fn(sample)
            continue
        batch = list(itertools.islice(samples, len(index)))
        if not batch or (loader.drop_last and len(batch) < len(index)):
            return
        yield loader.collate_fn(batch)
        if len(batch) < len(index):  # the dataset ended inside this batch
            return
