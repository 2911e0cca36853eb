"""``Parameter``: a tensor that a module learns.

A ``Parameter`` is an ordinary tensor with one difference: assigning it as an
attribute of a ``Module`` (``self.weight = Parameter(...)``) registers it, so
it shows up in ``module.parameters()`` (what the optimiser updates) and in
``module.state_dict()`` (what gets saved).
"""

from __future__ import annotations

from ..creation import empty
from ..tensor import Tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A learnable tensor: ``requires_grad=True`` unless told otherwise.

    Like PyTorch's, it shares memory with ``data`` (no copy) and is always a
    leaf, even if ``data`` came out of a computation.

    >>> import minigrad
    >>> Parameter(minigrad.ones(2))
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
    """

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            data = empty(0)
        source = data.detach()  # same memory and version counter, cut from any graph
        self._init(source._data, requires_grad=requires_grad, version=source._version_counter)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> "Parameter":
        # A fresh leaf with copied values (the gradient is not copied, as in PyTorch).
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.detach().clone(), self.requires_grad)
        return memo[id(self)]
