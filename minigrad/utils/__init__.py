"""``torch.utils``: ``data``, the datasets and the DataLoader that feeds a training loop;
``hooks``, the ``RemovableHandle`` every hook registration returns; ``checkpoint``,
activations recomputed in backward instead of kept."""

from . import checkpoint, data, hooks  # noqa: F401
