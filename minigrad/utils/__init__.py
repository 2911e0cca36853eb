"""``torch.utils``: ``data``, the datasets and the DataLoader that feeds a training loop;
``hooks``, the ``RemovableHandle`` every hook registration returns."""

from . import data, hooks  # noqa: F401
