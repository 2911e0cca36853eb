"""``nn.utils.stateless.functional_call``: the name PyTorch 1.x gave ``torch.func.
functional_call`` (deprecated since 2.0, with PyTorch's FutureWarning): a module called
with other tensors in place of its parameters and buffers."""

from __future__ import annotations

import warnings

import minigrad

from ..parallel import DataParallel

__all__ = ["functional_call"]


def functional_call(module, parameters_and_buffers: dict, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """``module(*args, **kwargs)`` with ``parameters_and_buffers`` (by name) in place of
    its own; see ``torch.func.functional_call``."""
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                  "and will be removed in a future version of PyTorch. Please use "
                  "`torch.func.functional_call` instead which is a drop-in replacement.",
                  FutureWarning, stacklevel=2)
    if isinstance(module, DataParallel):
        raise RuntimeError("The stateless API can't be used with nn.DataParallel module")
    return minigrad.func.functional_call(module, parameters_and_buffers, args, kwargs,
                                         tie_weights=tie_weights, strict=strict)
