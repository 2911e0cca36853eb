"""``Parameter``: a tensor that a module learns.

A ``Parameter`` is an ordinary tensor with one difference: assigning it as an
attribute of a ``Module`` (``self.weight = Parameter(...)``) registers it, so
it shows up in ``module.parameters()`` (what the optimiser updates) and in
``module.state_dict()`` (what gets saved).
"""

from __future__ import annotations

from ..creation import empty
from ..tensor import Tensor

__all__ = ["Parameter", "UninitializedParameter", "UninitializedBuffer"]


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


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (a lazy layer's, ``nn.LazyLinear``'s):
    ``materialize(shape)`` gives it memory and makes it a ``Parameter``. Until then it
    has no shape."""

    __slots__ = ()
    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device=None, dtype=None) -> None:
        super().__init__(empty(0, dtype=dtype), requires_grad)

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error "
            "usually happens in `load_state_dict` when trying to load an uninitialized "
            "parameter into an initialized one. Call `forward` to initialize the parameters "
            "before accessing their attributes.")

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Give the parameter memory of ``shape`` (uninitialised values); it becomes a
        ``Parameter``."""
        self.data = empty(shape, dtype=self.dtype if dtype is None else dtype)
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__


class UninitializedBuffer(Tensor):
    """A buffer whose shape is not known yet (a lazy layer's running statistics):
    ``materialize(shape)`` gives it memory and makes it a plain tensor."""

    __slots__ = ()
    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device=None, dtype=None) -> None:
        self._init(empty(0, dtype=dtype)._data, requires_grad=requires_grad)

    shape = UninitializedParameter.shape
    materialize = UninitializedParameter.materialize

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"

    __str__ = __repr__
