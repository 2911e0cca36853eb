"""``torch.utils``: ``data``, the datasets and the DataLoader that feeds a training loop."""

from . import data  # noqa: F401
