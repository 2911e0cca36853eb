"""Containers: ``Sequential`` (layers applied one after the other), ``ModuleList`` and
``ModuleDict`` (sub-modules held in a list or a dict, so that their parameters are the
model's: ``blocks.0.sa.key.weight``); ``ParameterList`` and ``ParameterDict`` (the same
for parameters)."""

from __future__ import annotations

import operator
from collections import OrderedDict
from typing import Iterable, Iterator, Mapping

from ..tensor import Tensor
from .module import Module, _addindent
from .parameter import Parameter

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _position(index, size: int) -> int:
    """``index`` (negative counts from the end) as a position in 0..size-1."""
    index = operator.index(index)
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of range")
    return index % size


def _check_sequential(other) -> None:
    if not isinstance(other, Sequential):
        raise ValueError("add operator supports only objects of Sequential class, but "
                         f"{type(other)} is given.")


def _check_factor(sequential: "Sequential", times) -> None:
    if not isinstance(times, int):
        raise TypeError(f"unsupported operand type(s) for *: {type(sequential)} and {type(times)}")
    if times <= 0:
        raise ValueError(f"Non-positive multiplication factor {times} for {type(sequential)}")


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

    def __setitem__(self, index: int, module: Module) -> None:
        """Replace the layer at ``index``, keeping its name and place."""
        name = list(self._modules)[_position(index, len(self))]
        setattr(self, name, module)

    def __delitem__(self, index: int | slice) -> None:
        names = list(self._modules)
        for name in (names[index] if isinstance(index, slice)
                     else [names[_position(index, len(self))]]):
            delattr(self, name)
        kept = list(self._modules.values())  # (renumbered from 0, as in PyTorch)
        self._modules = OrderedDict((str(i), module) for i, module in enumerate(kept))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __add__(self, other: "Sequential") -> "Sequential":
        """A new Sequential of this one's layers, then ``other``'s."""
        _check_sequential(other)
        return Sequential(*self, *other)

    def __iadd__(self, other: "Sequential") -> "Sequential":
        _check_sequential(other)
        return self.extend(list(other))

    def __mul__(self, times: int) -> "Sequential":
        """A new Sequential of these layers ``times`` over (the same modules, shared)."""
        _check_factor(self, times)
        return Sequential(*(list(self) * times))

    def __rmul__(self, times: int) -> "Sequential":
        return self.__mul__(times)

    def __imul__(self, times: int) -> "Sequential":
        _check_factor(self, times)
        return self.extend(list(self) * (times - 1))

    def append(self, module: Module) -> "Sequential":
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> "Sequential":
        """Add each of ``modules`` at the end."""
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> "Sequential":
        """Put ``module`` at ``index``, the layers from there on moving one place up."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        size = len(self._modules)
        if not -size <= index <= size:
            raise IndexError(f"Index out of range: {index}")
        index = index + size if index < 0 else index
        for i in range(size, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def pop(self, index: int | slice) -> Module:
        """Remove the layer at ``index`` and return it."""
        module = self[index]
        del self[index]
        return module

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


def _entry_text(key, value, dtype_text: str) -> str:
    """One line of a ParameterList's or ParameterDict's printout."""
    if isinstance(value, Tensor):
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        size = "x".join(str(n) for n in value.size())
        return f"  ({key}): {kind} containing: [{dtype_text} of size {size}]"
    return f"  ({key}): Object of type: {type(value).__name__}"


class ParameterList(Module):
    """A list of parameters that belong to the model holding it (named '0', '1', ...);
    a tensor put in becomes a Parameter.

    >>> ParameterList([Parameter(Tensor(2)), Tensor(3, 4)])
    ParameterList(
        (0): Parameter containing: [torch.float32 of size 2]
        (1): Parameter containing: [torch.float32 of size 3x4]
    )
    """

    def __init__(self, values: Iterable | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(self[i] for i in range(*index.indices(len(self))))
        return getattr(self, str(_position(index, len(self))))

    def __setitem__(self, index: int, value) -> None:
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, str(_position(index, len(self))), value)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator:
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, values: Iterable) -> ParameterList:
        return self.extend(values)

    def append(self, value) -> ParameterList:
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable) -> ParameterList:
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_entry_text(k, p, str(p.dtype) if isinstance(p, Tensor) else "")
                         for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of parameters (string keys, in insertion order) that belong to the model
    holding it; a tensor put in becomes a Parameter."""

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys: dict = {}
        if parameters is not None:
            self.update(parameters)

    def _key(self, key) -> str:
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not "
                            f"a string (type is '{type(key).__name__}'). Open an issue on "
                            "github if you need non-string keys.")
        return key

    def __getitem__(self, key: str):
        return getattr(self, self._key(key))

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, self._key(key), value)

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def pop(self, key: str):
        value = self[key]
        del self[key]
        return value

    def clear(self) -> None:
        for key in list(self._keys):
            del self[key]

    def setdefault(self, key: str, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, parameters) -> None:
        """Add the (key, parameter) pairs of a mapping (sorted keys for a plain dict, as
        PyTorch) or of an iterable of pairs."""
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = list(parameters)
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(_entry_text(k, p, p.type() if isinstance(p, Tensor) else "")
                         for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")
