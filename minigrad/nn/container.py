"""``Sequential``: layers applied one after the other."""

from __future__ import annotations

import operator
from collections import OrderedDict
from typing import Iterator

from .module import Module

__all__ = ["Sequential"]


class Sequential(Module):
    """``Sequential(a, b, c)(x)`` computes ``c(b(a(x)))``.

    The layers are named ``'0'``, ``'1'``, ... (or by the keys of an
    ``OrderedDict``), which is where ``state_dict`` keys such as ``'0.weight'``
    come from.

    >>> import minigrad.nn as nn
    >>> nn.Sequential(nn.Linear(784, 256), nn.ReLU())
    Sequential(
      (0): Linear(in_features=784, out_features=256, bias=True)
      (1): ReLU()
    )
    """

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def __getitem__(self, index: int | slice) -> Module:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        size = len(self)
        index = operator.index(index)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules.values())[index % size]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> "Sequential":
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input
