"""PyTorch's private ``torch.utils.data._utils``: its docs import the collate functions
from ``_utils.collate`` (``collate``, ``default_collate_fn_map``) to extend
``default_collate`` with a type of one's own; here they live in ``data/collate.py``."""

from . import collate  # noqa: F401
