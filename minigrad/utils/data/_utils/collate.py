"""``torch.utils.data._utils.collate``, PyTorch's path to ``data/collate.py``'s functions."""

from ..collate import collate, default_collate, default_collate_fn_map, default_convert  # noqa: F401
