"""``torch.nn.parallel``: ``DataParallel`` as PyTorch's is on a machine without a GPU, the
only kind minigrad runs on: the module is kept as ``module`` (so its parameters are named
``module.weight``, ... in ``state_dict``, as in checkpoints saved from one) and called as
it is, on no device list."""

from __future__ import annotations

from .module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """Runs ``module`` (PyTorch splits a batch over GPUs; with none, it calls the module)."""

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids = []  # (no GPU: PyTorch keeps no other setting either)

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
