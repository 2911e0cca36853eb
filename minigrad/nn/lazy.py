"""Lazy layers (``LazyLinear``): the input size is read from the first input, so a
network is written with output sizes only (as d2l writes its networks). Until the first
``forward`` the parameters are ``UninitializedParameter``s; then they get their shapes
and PyTorch's initial values, and the layer becomes the plain layer (``Linear``)."""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor
from .linear import Linear
from .parameter import UninitializedParameter

__all__ = ["LazyModuleMixin", "LazyLinear"]


class LazyModuleMixin:
    """Shapes from the first input: a forward pre-hook calls ``initialize_parameters``,
    then removes itself and turns the module into ``cls_to_become``."""

    cls_to_become = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(LazyModuleMixin._infer_parameters)

    def has_uninitialized_params(self) -> bool:
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(isinstance(t, UninitializedParameter) for t in tensors)

    @staticmethod
    def _infer_parameters(module, args) -> None:
        module.initialize_parameters(*args)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        del module._initialize_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` whose ``in_features`` is the size of the first input's last dim.

    >>> import minigrad
    >>> layer = LazyLinear(10)
    >>> layer
    LazyLinear(in_features=0, out_features=10, bias=True)
    >>> _ = layer(minigrad.ones(2, 5)); layer
    Linear(in_features=5, out_features=10, bias=True)
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, 0, False, device=device, dtype=dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        """Give ``weight`` the shape (out_features, input.shape[-1]) and draw its values."""
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
