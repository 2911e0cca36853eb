"""Loss functions as modules: ``MSELoss``, ``NLLLoss``, ``CrossEntropyLoss``,
``BCEWithLogitsLoss``, ``BCELoss``, ``L1Loss``, ``SmoothL1Loss``, ``HuberLoss``, ``KLDivLoss``. Call them as ``loss_fn(prediction, target)``.

``reduction`` says how the per-element losses become the result: ``'mean'``
(the default), ``'sum'``, or ``'none'`` (no reduction). The pre-0.4 arguments
``size_average=`` and ``reduce=`` still work, with PyTorch's deprecation warning
(``size_average=False`` means 'sum', ``reduce=False`` 'none'). Class weights
are buffers, so they are saved in ``state_dict``, as in PyTorch.
"""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["MSELoss", "NLLLoss", "CrossEntropyLoss", "BCEWithLogitsLoss", "BCELoss", "L1Loss",
           "SmoothL1Loss", "HuberLoss", "KLDivLoss"]


class _Loss(Module):
    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = F.legacy_reduction(size_average, reduce)
        self.reduction = reduction


class MSELoss(_Loss):
    """Mean squared error: loss_i = (x_i - y_i)**2, then reduced
    (for 'mean': (1/n) sum_i (x_i - y_i)**2)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_Loss):
    """Negative log likelihood for log-probabilities x (N, C) and class indices
    t (N,): loss_n = -weight[t_n] * x[n, t_n]. Use after ``LogSoftmax``."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    """Softmax + negative log likelihood on raw scores x (N, C) and class
    indices t (N,):

        loss_n = -log( exp(x[n, t_n]) / sum_c exp(x[n, c]) )

    'mean' averages over the batch. Targets may also be class probabilities
    of the same shape as x: loss_n = -sum_c p[n, c] log softmax(x_n)[c]."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy on raw scores x and targets y in [0, 1]:

        loss_i = -[y_i log sigmoid(x_i) + (1 - y_i) log(1 - sigmoid(x_i))]

    computed in a form that never overflows (better than Sigmoid + a log)."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class BCELoss(_Loss):
    """Binary cross entropy on probabilities x in [0, 1] and targets y in [0, 1]:

        loss_i = -w_i [y_i log(x_i) + (1 - y_i) log(1 - x_i)]

    (each log clamped at -100). Use after ``Sigmoid``; on raw scores
    ``BCEWithLogitsLoss`` is more stable."""

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight,
                                      reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error: loss_i = |x_i - y_i|, then reduced."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta (d = x_i - y_i)."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """0.5 d**2 where |d| < delta, else delta (|d| - 0.5 delta) (d = x_i - y_i)."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities x from probabilities y:
    loss_i = y_i (log y_i - x_i); use ``reduction='batchmean'`` for the divergence proper."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)
