"""``torch.amp``: automatic mixed precision, as on a machine without a GPU.

``GradScaler`` scales the loss and unscales the gradients as PyTorch's does (on the
``"cpu"`` device it works; asked for ``"cuda"``, the default, it warns and does nothing,
as PyTorch's does without CUDA), so nanoGPT's ``scaler.scale(loss).backward()``,
``scaler.unscale_(optimizer)``, ``scaler.step(optimizer)``, ``scaler.update()`` run.
``autocast`` turns itself off where PyTorch's does (CUDA, unsupported dtypes, or
``enabled=False``); minigrad has no bfloat16, so CPU autocast itself raises a clear error.
Written on the public API, as a user would write them.
"""

from .autocast_mode import autocast, get_autocast_dtype, is_autocast_available, is_autocast_enabled
from .grad_scaler import GradScaler

__all__ = ["GradScaler", "autocast", "is_autocast_available", "is_autocast_enabled",
           "get_autocast_dtype"]
