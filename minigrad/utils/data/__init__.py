"""``torch.utils.data``: datasets, samplers and the ``DataLoader``, as PyTorch's.

A ``Dataset`` is anything with ``__getitem__`` and ``__len__``; a ``DataLoader`` walks it in
batches, stacking the samples of a batch into tensors. Shuffled, it draws its order from
minigrad's generators, which give PyTorch's numbers, so the batches come in PyTorch's
order::

    >>> import minigrad as torch
    >>> from minigrad.utils.data import DataLoader, TensorDataset
    >>> data = TensorDataset(torch.arange(6.0), torch.arange(6))
    >>> _ = torch.manual_seed(0)
    >>> [y.tolist() for x, y in DataLoader(data, batch_size=4, shuffle=True)]
    [[0, 4, 3, 5], [2, 1]]

| module     | what lives there                                                        |
|------------|-------------------------------------------------------------------------|
| dataset    | Dataset, IterableDataset, TensorDataset, StackDataset, ConcatDataset,   |
|            | ChainDataset, Subset, random_split                                      |
| sampler    | Sampler, SequentialSampler, RandomSampler, SubsetRandomSampler,         |
|            | WeightedRandomSampler, BatchSampler                                     |
| collate    | default_collate (samples -> a batch), default_convert                   |
| dataloader | DataLoader, get_worker_info                                             |
"""

from .collate import default_collate, default_convert  # noqa: F401
from .dataloader import DataLoader, get_worker_info  # noqa: F401
from .dataset import (  # noqa: F401
    ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset,
    random_split,
)
from .sampler import (  # noqa: F401
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
           "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler", "StackDataset",
           "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler",
           "default_collate", "default_convert", "get_worker_info", "random_split"]
