"""``BatchNorm1d``, ``BatchNorm2d`` and ``BatchNorm3d``: normalise each feature (channel) over the batch
(Ioffe & Szegedy, 2015)."""

from __future__ import annotations

import minigrad

from .. import devices
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


class _BatchNorm(Module):
    """What every BatchNorm layer shares: ``weight`` and ``bias`` (if ``affine``), the
    buffers ``running_mean``, ``running_var`` and ``num_batches_tracked`` (if
    ``track_running_stats``), and the choice of statistics in ``forward``."""

    _version = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(minigrad.empty(num_features, dtype=dtype, device=device))
            if bias:
                self.bias = Parameter(minigrad.empty(num_features, dtype=dtype, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", minigrad.zeros(num_features, dtype=dtype,
                                                                device=device))
            self.register_buffer("running_var", minigrad.ones(num_features, dtype=dtype,
                                                              device=device))
            self.register_buffer("num_batches_tracked", minigrad.tensor(0, dtype=minigrad.long,
                                                                        device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Running mean 0, running variance 1; weight 1 and bias 0 (the identity)."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average: 1/1, 1/2, 1/3, ...
                factor = 1.0 / float(self.num_batches_tracked)
        # the batch's statistics in training (and in eval when nothing was tracked)
        batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        use_buffers = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_buffers else None,
                            self.running_var if use_buffers else None, self.weight, self.bias,
                            batch_stats, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalisation for (N, C) or (N, C, L) inputs: each of the C features is
    normalised to mean 0 and variance 1 over the batch (and L), then scaled by
    ``weight`` and shifted by ``bias``. In eval mode the running averages are used.

    >>> bn = BatchNorm1d(3)
    >>> bn
    BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> list(bn.state_dict())
    ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalisation for images (N, C, H, W): each of the C channels is normalised
    over the batch and all its pixels, then scaled by ``weight`` and shifted by ``bias``."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalisation for volumes (N, C, D, H, W), per channel."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")
