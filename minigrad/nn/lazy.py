"""Lazy layers (``LazyLinear``, ``LazyConv1d``/``2d``/``3d``, ``LazyConvTranspose1d``/``2d``/
``3d``, ``LazyBatchNorm1d``/``2d``/``3d``): the input size is read from the first input, so a
network is written with output sizes only (as d2l writes its networks). Until the first
``forward`` the parameters are ``UninitializedParameter``s; then they get their shapes
and PyTorch's initial values, and the layer becomes the plain layer (``Linear``)."""

from __future__ import annotations

import minigrad

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, _BatchNorm
from .conv import (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d,
                   ConvTranspose3d)
from .linear import Linear
from .parameter import UninitializedBuffer, UninitializedParameter

__all__ = ["LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d",
           "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d",
           "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d"]


class LazyModuleMixin:
    """Shapes from the first input: a forward pre-hook calls ``initialize_parameters``,
    then removes itself and turns the module into ``cls_to_become``."""

    cls_to_become = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(LazyModuleMixin._infer_parameters)

    def has_uninitialized_params(self) -> bool:
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(isinstance(t, (UninitializedParameter, UninitializedBuffer)) for t in tensors)

    def _load_own_state(self, state_dict, prefix: str, missing: list, unexpected: list,
                        errors: list, assign: bool = False) -> None:
        """As PyTorch's lazy load hook: an uninitialised parameter or buffer first takes
        the shape of the value it is given (d2l's ``clone.load_state_dict(...)`` into a
        fresh lazy model), then the values are copied as usual. The first forward still
        runs the initialisation hook, which then has nothing left to draw."""
        lazy = (UninitializedParameter, UninitializedBuffer)
        for name, tensor in list(self._parameters.items()) + list(self._buffers.items()):
            value = state_dict.get(prefix + name)
            if isinstance(tensor, lazy) and isinstance(value, Tensor) \
                    and not isinstance(value, lazy):
                tensor.materialize(value.shape)
        super()._load_own_state(state_dict, prefix, missing, unexpected, errors, assign)

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
        if self.in_features == 0:  # (parameters loaded from a state_dict: shaped, not drawn)
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} "
                                     f"is not equal to in_features from self.weight: "
                                     f"{self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class _LazyConvShapes(LazyModuleMixin):
    """What the lazy convolutions share: ``in_channels`` read from the first input
    (``shape[1]``, or ``shape[0]`` unbatched), then the weight's shape and PyTorch's draw."""

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args, **kwargs) -> None:
        """Give ``weight`` its shape: (out, in / groups, *kernel), transposed (in, out /
        groups, *kernel)."""
        if self.has_uninitialized_params():
            if input.dim() not in (self.n + 1, self.n + 2):
                raise RuntimeError(f"Expected {self.n + 1}D (unbatched) or {self.n + 2}D "
                                   f"(batched) input to {self.__class__.__name__}, but got "
                                   f"input of size: {input.shape}")
            self.in_channels = input.shape[1] if input.dim() == self.n + 2 else input.shape[0]
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            shape = ((self.in_channels, self.out_channels // self.groups) if self.transposed
                     else (self.out_channels, self.in_channels // self.groups))
            self.weight.materialize((*shape, *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class _LazyConvNd(_LazyConvShapes):
    """A convolution printed with 0 in-channels until its first input, as PyTorch's."""

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode, device=device, dtype=dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)


class _LazyConvTransposeNd(_LazyConvShapes):
    """A transposed convolution printed with 0 in-channels until its first input."""

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode, device=device, dtype=dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)


class LazyConv1d(_LazyConvNd, Conv1d):
    """``Conv1d`` with ``in_channels`` from the first input."""

    cls_to_become = Conv1d


class LazyConv2d(_LazyConvNd, Conv2d):
    """``Conv2d`` with ``in_channels`` from the first input (d2l's convolutions).

    >>> import minigrad
    >>> conv = LazyConv2d(6, kernel_size=5, padding=2)
    >>> conv
    LazyConv2d(0, 6, kernel_size=(5, 5), stride=(1, 1), padding=(2, 2))
    >>> conv(minigrad.ones(1, 3, 8, 8)).shape, conv
    (torch.Size([1, 6, 8, 8]), Conv2d(3, 6, kernel_size=(5, 5), stride=(1, 1), padding=(2, 2)))
    """

    cls_to_become = Conv2d


class LazyConv3d(_LazyConvNd, Conv3d):
    """``Conv3d`` with ``in_channels`` from the first input."""

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTransposeNd, ConvTranspose1d):
    """``ConvTranspose1d`` with ``in_channels`` from the first input."""

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTransposeNd, ConvTranspose2d):
    """``ConvTranspose2d`` with ``in_channels`` from the first input."""

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTransposeNd, ConvTranspose3d):
    """``ConvTranspose3d`` with ``in_channels`` from the first input."""

    cls_to_become = ConvTranspose3d


class _LazyBatchNorm(LazyModuleMixin, _BatchNorm):
    """A BatchNorm layer whose ``num_features`` is the first input's ``shape[1]``."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *,
                 bias: bool = True) -> None:
        super().__init__(0, eps, momentum, False, False, device=device, dtype=dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = minigrad.tensor(0, dtype=minigrad.long)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        """Give the parameters and buffers the shape (input.shape[1],) and their values."""
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            for tensor in (self.weight, self.bias, self.running_mean, self.running_var):
                if isinstance(tensor, (UninitializedParameter, UninitializedBuffer)):
                    tensor.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyBatchNorm, BatchNorm1d):
    """``BatchNorm1d`` with ``num_features`` from the first input."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm, BatchNorm2d):
    """``BatchNorm2d`` with ``num_features`` from the first input."""

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyBatchNorm, BatchNorm3d):
    """``BatchNorm3d`` with ``num_features`` from the first input."""

    cls_to_become = BatchNorm3d
