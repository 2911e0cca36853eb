"""``torch.nn.utils.skip_init``: a module built without initialising its parameters.

It is built on the meta device, where ``nn.init`` has nothing to fill, then given
uninitialised memory on the device asked for (``Module.to_empty``): for a model that a
checkpoint or a custom initialisation fills next, the default one is not paid for.
"""

from __future__ import annotations

import inspect

from ..module import Module

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs) -> Module:
    """``module_cls(*args, **kwargs)`` with its parameters and buffers uninitialised (zeros
    here, as ``empty`` gives them). The class must take a ``device`` keyword and pass it
    to what it creates, as every ``nn`` module does."""
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    device = kwargs.pop("device", "cpu")
    return module_cls(*args, device="meta", **kwargs).to_empty(device=device)
