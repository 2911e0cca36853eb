"""Containers: ``Sequential`` (layers applied one after the other), ``ModuleList`` and
``ModuleDict`` (sub-modules held in a list or a dict, so that their parameters are the
model's: ``blocks.0.sa.key.weight``)."""

from __future__ import annotations

import operator
from collections import OrderedDict
from typing import Iterable, Iterator, Mapping

from .module import Module, _addindent

__all__ = ["Sequential", "ModuleList", "ModuleDict"]


def _position(index, size: int) -> int:
    """``index`` (negative counts from the end) as a position in 0..size-1."""
    index = operator.index(index)
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of range")
    return index % size


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
        return list(self._modules.values())[_position(index, len(self))]

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


class ModuleList(Module):
    """A list of modules whose parameters belong to the model that holds it (a plain
    Python list would hide them from ``parameters()``). Named ``'0'``, ``'1'``, ...;
    it has no ``forward``: the model loops over it.

    >>> import minigrad.nn as nn
    >>> nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
    ModuleList(
      (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
      (3): ReLU()
    )
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index: int | slice):
        if isinstance(index, slice):
            return type(self)(list(self._modules.values())[index])
        return self._modules[str(_position(index, len(self)))]

    def __setitem__(self, index: int, module: Module) -> None:
        self.add_module(str(_position(index, len(self))), module)

    def __delitem__(self, index: int | slice) -> None:
        kept = list(self._modules.values())
        del kept[index if isinstance(index, slice) else _position(index, len(self))]
        self._modules.clear()  # (renumbered from 0, as in PyTorch)
        self.extend(kept)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> "ModuleList":
        return self.extend(modules)

    def __add__(self, other: "ModuleList") -> "ModuleList":
        return type(self)([*self, *other])

    def append(self, module: Module) -> "ModuleList":
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> "ModuleList":
        """Add each of ``modules`` at the end."""
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Put ``module`` before position ``index``."""
        kept = list(self._modules.values())
        kept.insert(index, module)
        self._modules.clear()
        self.extend(kept)

    def pop(self, index: int = -1) -> Module:
        """Remove the module at ``index`` and return it."""
        module = self[index]
        del self[index]
        return module

    def __repr__(self) -> str:
        """As PyTorch prints it: a run of identical modules once, as ``(0-2): 3 x ...``."""
        texts = [repr(module) for module in self]
        if not texts:
            return self._get_name() + "()"
        runs = []  # [first, last, text]
        for index, text in enumerate(texts):
            if runs and runs[-1][2] == text:
                runs[-1][1] = index
            else:
                runs.append([index, index, text])
        lines = [_addindent(f"({first}): {text}" if first == last else
                            f"({first}-{last}): {last - first + 1} x {text}", 2)
                 for first, last, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules (keys are strings) whose parameters belong to the model that
    holds it; keys keep their insertion order, as in a Python dict."""

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        module = self[key]
        del self[key]
        return module

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        """Add the (key, module) pairs of a mapping or of an iterable of pairs."""
        pairs = modules.items() if isinstance(modules, (Mapping, ModuleDict)) else modules
        for key, module in pairs:
            self[key] = module
