"""``torch.nn.modules``: where PyTorch keeps its layer classes, a file per family
(``torch.nn.modules.loss._Loss``, ``torch.nn.modules.module.Module``,
``torch.nn.modules.conv.Conv2d``). minigrad keeps those files one floor up, in
``minigrad/nn/``; the names here are the same modules, registered under PyTorch's
paths, so code that imports from them finds the same classes."""

from __future__ import annotations

import sys

from .. import (activation, adaptive, batchnorm, container, conv, distance, dropout, lazy, linear,
                loss, module, normalization, padding, pooling, rnn, sparse, transformer,
                upsampling)
from ..module import Module

_FAMILIES = (activation, adaptive, batchnorm, container, conv, distance, dropout, lazy, linear,
             loss, module, normalization, padding, pooling, rnn, sparse, transformer, upsampling)

for _family in _FAMILIES:
    sys.modules[f"{__name__}.{_family.__name__.rsplit('.', 1)[1]}"] = _family
    globals().update({name: value for name, value in vars(_family).items()
                      if isinstance(value, type) and issubclass(value, Module)})
