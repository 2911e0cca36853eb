"""``nn.LinearCrossEntropyLoss`` (new in PyTorch 2.13): a ``Linear`` layer's logits and the
cross entropy in one module, as ``F.linear_cross_entropy`` computes them (its reference
path: ``linear``, a reshape to (N, C, *out_features), ``cross_entropy``).

PyTorch's other path, taken when ``options`` is given, computes the loss in chunks of the
batch through a custom op whose backward consumes precomputed gradients; minigrad has not
got it and says so (``LinearCrossEntropyOptions`` is taken and printed, and where PyTorch
falls back to the reference path, with its warning, so does minigrad)."""

from __future__ import annotations

import dataclasses
import math

from ..tensor import Tensor
from . import functional as F
from .linear import Linear
from .loss import _WeightedLoss

__all__ = ["LinearCrossEntropyLoss", "LinearCrossEntropyOptions"]


@dataclasses.dataclass
class LinearCrossEntropyOptions:
    """How PyTorch's chunked path splits the batch (see the module docstring)."""

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: object = None


class LinearCrossEntropyLoss(_WeightedLoss):
    """The cross entropy of ``linear(input)`` (C classes, at each of ``out_features``
    places) against ``target``: class indices, or class probabilities.

    >>> loss = LinearCrossEntropyLoss(5, 10, out_features=(4, 3))
    >>> loss.linear.weight.shape
    torch.Size([120, 5])
    """

    def __init__(self, in_features: int, num_classes: int, *, out_features: tuple = (),
                 bias: bool = False, device=None, dtype=None, reduction: str = "mean",
                 weight: Tensor | None = None, ignore_index: int | None = None,
                 label_smoothing: float = 0.0, options=None) -> None:
        if weight is not None and weight.shape != (num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got "
                               f"{tuple(weight.shape)}")
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(f"expected label_smoothing to be in range [0, 1], got "
                               f"{label_smoothing}")
        super().__init__(weight=weight, reduction=reduction)
        self.num_classes, self.out_features = num_classes, out_features
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing
        # (weights kept 2-D, as a Linear's, and seen as (C, *out_features, in) in forward)
        self.linear = Linear(in_features, math.prod(out_features, start=num_classes), bias=bias,
                             device=device, dtype=dtype)
        self.options = options

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        weight = self.linear.weight.reshape((self.num_classes, *self.out_features,
                                             self.linear.in_features))
        bias = None if self.linear.bias is None else \
            self.linear.bias.reshape((self.num_classes, *self.out_features))
        return F.linear_cross_entropy(input, weight, target, linear_bias=bias,
                                      weight=self.weight, reduction=self.reduction,
                                      ignore_index=self.ignore_index,
                                      label_smoothing=self.label_smoothing, options=self.options)

    def extra_repr(self) -> str:
        return (f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
                f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
                f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
                f"label_smoothing={self.label_smoothing}, options={self.options}")
