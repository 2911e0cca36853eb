"""``LayerNorm``: normalise each sample over its last dims, then scale and shift;
``GroupNorm``: the same over each group of channels of each sample; ``InstanceNorm1d``,
``2d`` and ``3d``: over each channel of each sample; ``RMSNorm``: divide by the root
mean square over the last dims (no centring), then scale; ``LocalResponseNorm``: divide
by a power of the mean square over neighbouring channels (AlexNet's)."""

from __future__ import annotations

import numbers
import warnings

import minigrad

from .. import devices
from ..tensor import Tensor
from . import functional as F
from ._functions import CrossMapLRN2d as _cross_map_lrn2d
from .batchnorm import _BatchNorm
from .module import Module
from .parameter import Parameter

__all__ = ["LayerNorm", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "RMSNorm", "LocalResponseNorm", "CrossMapLRN2d"]


class LayerNorm(Module):
    """y = (x - mean) / sqrt(var + eps) * weight + bias, mean and (biased) var taken over
    the last dims, ``normalized_shape``. ``weight`` starts at 1 and ``bias`` at 0
    (``elementwise_affine=False``: neither; ``bias=False``: no bias).

    >>> LayerNorm(32)
    LayerNorm((32,), eps=1e-05, elementwise_affine=True, bias=True)
    """

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(minigrad.ones(self.normalized_shape, dtype=dtype,
                                                  device=device))
            if bias:
                self.bias = Parameter(minigrad.zeros(self.normalized_shape, dtype=dtype,
                                                     device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """weight back to 1, bias to 0."""
        with minigrad.no_grad():
            if self.weight is not None:
                self.weight.fill_(1)
            if self.bias is not None:
                self.bias.zero_()

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    """The channels of each sample in ``num_groups`` groups, each group normalised to mean 0
    and variance 1, then ``weight`` (starting at 1) and ``bias`` (at 0) per channel
    (``affine=False``: neither). GroupNorm(1, C) normalises each whole sample; GroupNorm(C,
    C) each channel of each sample (as InstanceNorm with affine=True).

    >>> GroupNorm(2, 6)
    GroupNorm(2, 6, eps=1e-05, affine=True, bias=True)
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by "
                             f"num_groups ({num_groups})")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        if affine:
            self.weight = Parameter(minigrad.ones(num_channels, dtype=dtype, device=device))
            if bias:
                self.bias = Parameter(minigrad.zeros(num_channels, dtype=dtype, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """weight back to 1, bias to 0."""
        LayerNorm.reset_parameters(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class _InstanceNorm(_BatchNorm):
    """What InstanceNorm1d and InstanceNorm2d share: BatchNorm's parameters and buffers
    (by default neither: affine=False, track_running_stats=False), statistics per sample."""

    spatial = 1

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias=bias)

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self.spatial + 1, self.spatial + 2):
            raise ValueError(f"expected {self.spatial + 1}D or {self.spatial + 2}D input (got "
                             f"{input.dim()}D input)")
        feature_dim = input.dim() - self.spatial - 1
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, "
                          "which is not used because affine=False", stacklevel=3)
        unbatched = input.dim() == self.spatial + 1
        if unbatched:
            input = input.unsqueeze(0)
        output = F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                                 self.bias, self.training or not self.track_running_stats,
                                 0.0 if self.momentum is None else self.momentum, self.eps)
        return output.squeeze(0) if unbatched else output


class InstanceNorm1d(_InstanceNorm):
    """Each channel of each sample of (N, C, L) (or (C, L)) normalised over its L positions.

    >>> InstanceNorm1d(3)
    InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)
    """

    spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """Each channel of each image of (N, C, H, W) (or (C, H, W)) normalised over its
    pixels: style transfer's normalisation."""

    spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """Each channel of each volume of (N, C, D, H, W) (or (C, D, H, W)) normalised over its
    voxels.

    >>> InstanceNorm3d(4, affine=True)
    InstanceNorm3d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)
    """

    spatial = 3


class LocalResponseNorm(Module):
    """b_c = a_c (k + alpha / n sum_{c' near c} a_{c'}^2)^(-beta), the n = ``size``
    channels around c (AlexNet, 2012); F.local_response_norm.

    >>> LocalResponseNorm(2)
    LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(Module):
    """LocalResponseNorm of (N, C, H, W) in Lua Torch's older form (its own backward).

    >>> CrossMapLRN2d(3)
    CrossMapLRN2d(3, alpha=0.0001, beta=0.75, k=1)
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class RMSNorm(Module):
    """y = x / sqrt(mean(x**2) + eps) * weight over the last dims, ``normalized_shape``;
    ``weight`` starts at 1; ``eps=None``: the dtype's machine epsilon (Llama's norm).

    >>> RMSNorm(8)
    RMSNorm((8,), eps=None, elementwise_affine=True)
    """

    def __init__(self, normalized_shape, eps: float | None = None,
                 elementwise_affine: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(minigrad.ones(self.normalized_shape, dtype=dtype,
                                                  device=device))
        else:
            self.register_parameter("weight", None)

    def reset_parameters(self) -> None:
        """weight back to 1."""
        if self.weight is not None:
            with minigrad.no_grad():
                self.weight.fill_(1)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")
