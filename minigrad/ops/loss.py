"""Loss functions that PyTorch computes as single operations (and so shows as
single nodes: ``grad_fn=<NllLossBackward0>``). ``minigrad.nn.functional``
calls these; its docstrings give the formulas from the learner's side.
"""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes, errors
from ..autograd.broadcast import broadcast_shapes
from ..autograd import grad_mode
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..autograd.saved import SavedTensor
from . import fn
from ..autograd.tensor_base import is_tensor
from ._saved import as_shown
from ..rules.layout import check_row_major_grad_input
from ..kernels import ctc as kernels_ctc
from ..kernels import layout, loss as kernels_loss, pointwise as kernels_pointwise, summation

__all__ = ["nll_loss_rows", "nll_loss_images", "mse_loss", "binary_cross_entropy_with_logits",
           "binary_cross_entropy", "smooth_l1_loss", "huber_loss", "soft_margin_loss",
           "multi_margin_loss", "multilabel_margin_loss", "ctc_loss", "CtcLossBackward0"]

# How torch's nodes show ``reduction`` (at::Reduction, a C++ enum).
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _array(value):
    """A tensor argument's array (an array or None as it is)."""
    return value._data if is_tensor(value) else value


def _kept(value):
    """A tensor argument (target, weight, pos_weight) kept as torch saves it: with its
    version, so that changing it in place before backward fails, naming it; an array
    (a formula's own) as a constant, None as None."""
    return SavedTensor(value) if is_tensor(value) else value


def _check_no_requires_grad(function: str, **tensors) -> None:
    """torch's check for the tensor arguments it has no derivative for (with grad
    mode on): "The function 'nll_loss_forward' is not differentiable with respect to
    argument 'weight'. ..."."""
    if grad_mode.is_grad_enabled():
        for name, value in tensors.items():
            if value is not None and value.requires_grad:
                raise RuntimeError(errors.not_differentiable(function, name))


def _over(value: float, count: int) -> float:
    """value / count, a 'mean' loss's norm, as torch's C++ divides doubles: infinite for an
    empty input (whose gradient is empty all the same), not Python's ZeroDivisionError."""
    return value / count if count else math.copysign(math.inf, value)


def _reduce(values: np.ndarray, reduction: str) -> np.ndarray:
    """The losses' mean or sum, added up in PyTorch's order (its apply_loss_reduction
    calls the tensor's mean and sum)."""
    if reduction == "mean":
        return summation.mean_all(values)
    if reduction == "sum":
        return np.asarray(summation.sum_axes(values, tuple(range(values.ndim))))
    return values


def _unreduce(grad, shape, reduction: str):
    """The gradient of each element before the reduction."""
    if reduction == "mean":
        return fn.expand(grad, shape) / int(np.prod(shape, dtype=np.int64))
    if reduction == "sum":
        return fn.expand(grad, shape)
    return grad


class NllLossBackward0(Node):
    formula = Formula("loss_n",
                      "-w[t_n] * x[n, t_n]",
                      grad={"x": "-w[t_n] G where c == t_n, else 0 (at x[n, c])"},
                      note=("x holds log-probabilities, shape (N, C); 'mean' divides the sum by "
                            "sum_n w[t_n]."))
    saves = {"self": Input(0)}

    def forward(self, x, target, weight, ignore_index, reduction):
        # (target and weight: the learner's tensors, or arrays in a recorded backward)
        weights = _array(weight)
        if weights is not None and weights.ndim != 1:  # (images: torch counts a (1, C)
            weights = weights.reshape(-1)              # weight's elements only)
        classes = NllClasses(_array(target), weights, ignore_index, reduction, None,
                             (target, weight))
        loss, classes.total_weight = nll_loss_of(x, classes.target, classes.weight,
                                                 ignore_index, reduction)
        # (target and weight saved with their versions, as torch; ignore_index and
        # reduction shown as torch's C++ keeps them: -100 as an unsigned 64-bit number,
        # 'mean' as 1)
        if self._forward_args is not False:
            self.save(target=_kept(target), weight=_kept(weight),
                      ignore_index=as_shown(ignore_index), reduction=_REDUCTIONS[reduction],
                      total_weight=classes.total_weight)
        # (the same, as arrays, for the formula in both modes)
        self.classes = classes
        return loss

    def backward(self, saved, grad):
        return fn.nll_loss_backward(grad, saved.self, self.classes)


class NllLoss2DBackward0(NllLossBackward0):
    formula = Formula("loss_nhw",
                      "-w[t_nhw] * x[n, t_nhw, h, w]",
                      grad={"x": "-w[t_nhw] G where c == t_nhw, else 0 (at x[n, c, h, w])"},
                      note=("x holds log-probabilities, shape (N, C, H, W), one class per "
                            "position; 'mean' divides the sum by the sum of the w[t]. Inputs "
                            "(N, C, d) and (N, C, d1, d2, d3, ...) are viewed as (N, C, 1, d)."))


    def backward(self, saved, grad):
        check_row_major_grad_input(saved.self)
        return fn.nll_loss_backward(grad, saved.self, self.classes)


class NllClasses:
    """What nll_loss's formulas read besides the tensors: the target classes, the
    class weights (or None), ignore_index, the reduction and the total weight."""

    __slots__ = ("target", "weight", "ignore_index", "reduction", "total_weight", "given")

    def __init__(self, target, weight, ignore_index, reduction, total_weight,
                 given=(None, None)) -> None:
        self.target, self.weight, self.ignore_index = target, weight, ignore_index
        self.reduction, self.total_weight = reduction, total_weight
        self.given = given  # (the target and weight as given: tensors, for saving)


def nll_loss_of(x, target, weight, ignore_index, reduction):
    """nll_loss (arrays) and the total weight, as torch's kernel computes them:
    -w[t_n] x[n, t_n] for each row not ignored, 0 for an ignored one; 'sum' and
    'mean' subtract these products from 0 (so a loss of zero is +0.), 'mean' then
    divides by the total weight sum_n w[t_n]. For images x (N, C, H, W), each
    position is a row (in the order torch's kernel visits them)."""
    if x.ndim == 4:
        loss, total_weight = nll_loss_of(_as_rows(x), target.reshape(-1), weight, ignore_index,
                                         reduction)
        return (loss.reshape(target.shape) if reduction == "none" else loss), total_weight
    if x.ndim == 1:  # (C,) scores, one class (0-dim, or of shape (1,)): one row, and
        # torch's kernel reduces it even for 'none' (a 0-dim loss, the total weight kept)
        return nll_loss_of(x[None], target.reshape(1), weight, ignore_index,
                           "sum" if reduction == "none" else reduction)
    kept = target != ignore_index
    if weight is None and reduction != "none" and x.dtype in _EXACT_COUNTS \
            and x.shape[0] <= _EXACT_COUNTS[x.dtype] and kept.all():
        # The usual case, in fewer steps, with the same bits: every row counts, with
        # weight 1, so each product w * x[n, t_n] is x[n, t_n] itself, and the total
        # weight, a sum of N ones, is N (exact in x's dtype for this many rows).
        loss = 0 - x[np.arange(x.shape[0]), target].sum(dtype=x.dtype)
        total_weight = np.asarray(x.shape[0], x.dtype)
        if reduction == "mean":
            loss = loss / total_weight
        return np.asarray(loss, dtype=x.dtype), total_weight
    safe = np.where(kept, target, 0)
    w = (np.ones(x.shape[1], x.dtype) if weight is None else weight)[safe]
    picked = x[np.arange(x.shape[0]), safe]
    total_weight = np.asarray(np.where(kept, w, 0).sum(dtype=x.dtype))
    if reduction == "none":  # (torch's kernel leaves the total weight at 0 then)
        return np.where(kept, -picked * w, 0).astype(x.dtype, copy=False), \
            np.zeros((), x.dtype)
    loss = 0 - np.where(kept, picked * w, 0).sum(dtype=x.dtype)
    if reduction == "mean":
        loss = loss / total_weight
    return np.asarray(loss, dtype=x.dtype), total_weight


# Row counts up to which every partial sum of ones is an exact float (2**(mantissa bits + 1))
_EXACT_COUNTS = {np.dtype(np.float32): 1 << 24, np.dtype(np.float64): 1 << 53}


def nll_loss_backward_of(grad, classes, shape):
    """The gradient of nll_loss (arrays), as torch's kernel writes it into zeros:
    -w[t_n] G_n at [n, t_n] ('none'), or w[t_n] * -(G / total weight) ('mean'; 'sum'
    without the division); every other element (ignored rows too) stays +0. For
    images (N, C, H, W), the same at [n, t_nhw, h, w]."""
    if len(shape) == 4:
        n, c, h, w = shape
        rows = _rows_of(classes)
        out = nll_loss_backward_of(grad.reshape(-1) if classes.reduction == "none" else grad,
                                   rows, (n * h * w, c))
        if out.size == 0:  # (no element: torch's contiguous strides all the same)
            return layout.empty_strided(shape, layout.contiguous_strides(shape), out.dtype)
        return np.ascontiguousarray(np.moveaxis(out.reshape(n, h, w, c), -1, 1))
    if len(shape) == 1:  # ((C,) scores: one row, reduced even for 'none', as forward)
        if classes.target.ndim:  # (torch's forward takes a target of shape (1,), not this)
            raise RuntimeError(f"size mismatch (got input: [{shape[0]}], target: "
                               f"[{classes.target.shape[0]}])")
        row = _rows_of(classes)
        row.reduction = "sum" if row.reduction == "none" else row.reduction
        return nll_loss_backward_of(grad, row, (1, shape[0])).reshape(shape)
    target, weight, reduction = classes.target, classes.weight, classes.reduction
    out = np.zeros(shape, grad.dtype)
    rows = np.flatnonzero(target != classes.ignore_index)
    cols = target[rows]
    if reduction == "none":
        out[rows, cols] = (-1 if weight is None else -weight[cols]) * grad[rows]
        return out
    step = -(grad / classes.total_weight if reduction == "mean" else grad)
    out[rows, cols] = step if weight is None else weight[cols] * step
    return out


def _as_rows(x):
    """(N, C, H, W) -> (N*H*W, C): one row of class scores per position."""
    return np.moveaxis(x, 1, -1).reshape(-1, x.shape[1])


def _rows_of(classes):
    """``classes`` with the targets of images as one row each."""
    return NllClasses(classes.target.reshape(-1), classes.weight, classes.ignore_index,
                      classes.reduction, classes.total_weight, classes.given)


class NllLossBackwardBackward0(Node):
    formula = Formula("z", "nll_loss_backward(grad, self): -w[t_n] grad at [n, t_n], else 0",
                      grad={"grad": "nll_loss(G)", "self": "0"},
                      note="nll_loss's derivative as an operation, recorded by a backward with "
                           "create_graph=True.")

    def forward(self, grad, x, classes):
        target, weight = classes.given
        if self._forward_args is not False:  # (torch keeps no total_weight here)
            self.save(target=_kept(classes.target if target is None else target),
                      weight=_kept(classes.weight if weight is None else weight),
                      ignore_index=as_shown(classes.ignore_index),
                      reduction=_REDUCTIONS[classes.reduction])
        self.classes = classes
        return nll_loss_backward_of(grad, classes, x.shape)

    def backward(self, saved, grad):
        grad_grad = grad_x = None
        if self.needs_input_grad[0]:  # (torch: nll_loss of the incoming gradient)
            c = self.classes
            grad_grad = fn.nll_loss(grad, c.target, c.weight, c.ignore_index, c.reduction)
        if self.needs_input_grad[1]:
            grad_x = fn.zeros(grad.shape, grad)
        return grad_grad, grad_x


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    formula = Formula("z", "nll_loss2d_backward(grad, self): -w[t] grad at [n, t, h, w], else 0",
                      grad={"grad": "nll_loss2d(G)", "self": "0"},
                      note="nll_loss2d's derivative as an operation, recorded by a backward "
                           "with create_graph=True.")


class MseLossBackward0(Node):
    formula = Formula("loss_i",
                      "(self_i - target_i)**2, then reduced",
                      d={"self": "2 (self_i - target_i)", "target": "-2 (self_i - target_i)"})
    saves = {"self": Input(0), "target": Input(1)}

    def forward(self, x, target, reduction):
        self.save(reduction=_REDUCTIONS[reduction])  # (shown as torch's enum: 0, 1, 2)
        self.reduction = reduction
        difference = x - target
        return _reduce(difference * difference, reduction)

    def backward(self, saved, grad):
        x, target, reduction = saved.self, saved.target, self.reduction
        grad_x = fn.mse_loss_backward(grad, x, target, reduction) \
            if self.needs_input_grad[0] else None
        grad_target = fn.mse_loss_backward(grad, target, x, reduction) \
            if self.needs_input_grad[1] else None
        return grad_x, grad_target


def mse_loss_backward_of(grad, x, target, reduction):
    """The gradient of mse_loss with respect to x (arrays): 2 (x - target) G, over n
    for 'mean', as torch's kernel rounds it: norm * (x - target) * G, norm = 2 / n (in
    x's dtype)."""
    size = int(np.prod(np.broadcast_shapes(x.shape, target.shape), dtype=np.int64))
    norm = np.asarray(_over(2.0, size) if reduction == "mean" else 2.0, dtype=x.dtype)
    return norm * (x - target) * grad


class MseLossBackwardBackward0(Node):
    formula = Formula("z", "mse_loss_backward(grad, self, target) = 2 (self - target) grad "
                           "(/ n for 'mean')",
                      grad={"grad": "2 (self - target) G (/ n), summed for a reduced loss",
                            "self": "2 G grad (/ n)", "target": "-2 G grad (/ n)"},
                      note="mse_loss's derivative as an operation, recorded by a backward "
                           "with create_graph=True.")
    saves = {"grad_output": Input(0), "self": Input(1), "target": Input(2)}

    def forward(self, grad, x, target, reduction):
        self.save(reduction=_REDUCTIONS[reduction])
        self.reduction = reduction
        return mse_loss_backward_of(grad, x, target, reduction)

    def backward(self, saved, grad):
        # torch's mse_loss_double_backward(_grad_output), in its order: grad_output, self,
        # target (self's and target's: 2 (G grad_output), / n for 'mean', computed twice)
        grad_output, x, target = saved.grad_output, saved.self, saved.target
        needs_grad, needs_x, needs_target = self.needs_input_grad
        reduction = self.reduction
        grad_grad = fn.mse_loss_backward(grad, x, target, reduction) if needs_grad else None
        grad_x = _mse_double(grad * grad_output, x, reduction) if needs_x else None
        grad_target = -_mse_double(grad * grad_output, target, reduction) if needs_target \
            else None
        if needs_grad and grad_grad.shape != grad_output.shape:  # (the engine's sum_to,
            grad_grad = fn.sum(grad_grad)  # last: a reduced loss's grad_output is a scalar)
        return grad_grad, grad_x, grad_target


def _mse_double(grad, x, reduction):
    """torch's mse_loss_double_backward: 2 * grad, divided by n for 'mean'."""
    twice = 2 * grad
    if reduction == "mean":
        twice = twice / int(np.prod(x.shape, dtype=np.int64))
    return twice


class BinaryCrossEntropyWithLogitsBackward0(Node):
    formula = Formula("loss_i",
                      "-w_i [p t_i log sigmoid(x_i) + (1 - t_i) log(1 - sigmoid(x_i))]",
                      d={"x": "w_i [sigmoid(x_i) (1 - t_i + p t_i) - p t_i]",
                         "t": "-w_i [p log sigmoid(x_i) - log sigmoid(-x_i)]"},
                      note="p: pos_weight, 1 when not given; computed without overflow.")
    saves = {"self": Input(0), "target": Input(1)}

    def forward(self, x, target, weight, pos_weight, reduction):
        if self._forward_args is not False:  # (the learner's tensors, with their versions)
            self.save(weight=_kept(weight), pos_weight=_kept(pos_weight),
                      reduction=_REDUCTIONS[reduction])
        self.reduction = reduction
        losses = kernels_loss.binary_cross_entropy_with_logits(x, target, _array(weight),
                                                                _array(pos_weight))
        return _reduce(losses, reduction)

    def backward(self, saved, grad):
        x, t, w, p = saved.self, saved.target, saved.weight, saved.pos_weight
        count = int(np.prod(x.shape, dtype=np.int64)) if self.reduction == "mean" else None
        needs_x, needs_t = self.needs_input_grad
        return (bce_with_logits_backward_of(grad, x, t, w, p, count) if needs_x else None,
                bce_with_logits_target_backward_of(grad, x, w, p, count) if needs_t else None)


def bce_with_logits_backward_of(grad, x, t, w, p, count):
    """The input's gradient as torch's binary_cross_entropy_with_logits_backward
    computes it, in its order: the upstream gradient multiplied in (not expanded),
    then the weight, then 'mean' divides by the number of elements (``count``)."""
    if p is None:
        grad_x = fn.sigmoid(x) - t
    else:
        pt = p * t
        grad_x = (pt + 1 - t) * fn.sigmoid(x) - pt
    grad_x = grad_x * grad
    if w is not None:
        grad_x = grad_x * w
    return grad_x if count is None else grad_x / count


def bce_with_logits_target_backward_of(grad, x, w, p, count):
    """The target's gradient, as torch's ..._target_backward: its steps are in place
    (the same nodes, and a clone saved where a later backward needs the value from
    before the change)."""
    if p is None:
        grad_t = -x * grad
    else:
        grad_t = fn.log_sigmoid(-x)
        scaled = fn.log_sigmoid(x)
        scaled *= p
        grad_t -= scaled
        grad_t *= grad
    if w is not None:
        grad_t *= w
    if count is not None:
        grad_t /= count
    return grad_t


class LogSigmoidBackward0(Node):
    formula = Formula("y", "log sigmoid(x) = -log(1 + exp(-x))", d={"x": "1 - sigmoid(x)"},
                      note="Computed as min(x, 0) - log(1 + exp(-|x|)): no exp overflows. "
                           "The target's gradient of BCE with pos_weight goes through it.")
    saves = {"self": Input(0)}

    def forward(self, x):
        result, buffer = kernels_pointwise.log_sigmoid(x)  # (buffer kept for backward, as torch's)
        self.save(buffer=buffer)
        return result

    def backward(self, saved, grad):
        return fn.log_sigmoid_backward(grad, saved.self, saved.buffer)


def log_sigmoid_of(x):
    """log sigmoid(x) (arrays), stable for any x."""
    return kernels_pointwise.log_sigmoid(x)[0]


def log_sigmoid_backward_of(grad, x, buffer):
    """grad * (1 - sigmoid(x)) (arrays), as torch's kernel computes it from the buffer
    b = exp(-|x|): grad * (1 - b / (1 + b)) where x < 0, grad * (b / (1 + b)) elsewhere."""
    return kernels_pointwise.log_sigmoid_backward(grad, x, buffer)


class LogSigmoidBackwardBackward0(Node):
    formula = Formula("z", "log_sigmoid_backward(grad, self) = grad * (1 - sigmoid(self))",
                      grad={"grad": "log_sigmoid_backward(G, self)",
                            "self": "G * grad * (sigmoid(self) - 1) * sigmoid(self)"},
                      note="log_sigmoid's derivative as an operation, recorded by a backward "
                           "with create_graph=True.")
    saves = {"grad_output": Input(0), "self": Input(1)}

    def forward(self, grad, x, buffer):
        self.save(buffer=buffer)
        return log_sigmoid_backward_of(grad, x, buffer)

    def backward(self, saved, grad):
        grad_output, x = saved.grad_output, saved.self
        grad_grad = grad_x = None
        if self.needs_input_grad[0]:
            grad_grad = fn.log_sigmoid_backward(grad, x, saved.buffer)
        if self.needs_input_grad[1]:  # (torch's log_sigmoid_double_backward)
            scaled = grad * grad_output
            z = fn.sigmoid(x)
            grad_x = scaled * (z - 1) * z
        return grad_grad, grad_x


def nll_loss_rows(log_probs, target, weight=None, ignore_index=-100, reduction="mean"):
    """``nll_loss`` for log-probabilities of shape (N, C) and class indices (N,)."""
    _check_no_requires_grad("nll_loss_forward", weight=weight)
    return NllLossBackward0.apply(log_probs, target=target, weight=weight,
                                  ignore_index=ignore_index, reduction=reduction)


def nll_loss_images(x, target, weight=None, ignore_index=-100, reduction="mean"):
    """``nll_loss`` for log-probabilities (N, C, d1, ...) and classes (N, d1, ...), as
    torch's nll_loss_nd: 4 dims go to nll_loss2d as they are; 3 or 5 and more are
    made contiguous and viewed as (N, C, 1, d) and (N, 1, d) first ('none': the
    losses viewed back as (N, d1, ...))."""
    n, c = x.shape[:2]
    images, out_size = x.ndim == 4, (n, *x.shape[2:])
    if not images:
        x, target = x.contiguous(), target.contiguous()
        x = x.view(n, c, 1, -1) if x.numel() else x.view(n, c, 0, 0)
        target = target.view(n, 1, -1) if target.numel() else target.view(n, 0, 0)
    _check_no_requires_grad("nll_loss2d_forward", weight=weight)
    loss = NllLoss2DBackward0.apply(x, target=target, weight=weight,
                                    ignore_index=ignore_index, reduction=reduction)
    if reduction == "none" and not images:
        return loss.view(out_size)
    return loss


def mse_loss(x, target, reduction="mean"):
    broadcast_shapes(x.shape, target.shape)
    return MseLossBackward0.apply(x, target, cast_to=dtypes.result_type(x, target),
                                  reduction=reduction)


def binary_cross_entropy_with_logits(x, target, weight=None, pos_weight=None,
                                     reduction="mean"):
    broadcast_shapes(x.shape, target.shape)
    _check_no_requires_grad("binary_cross_entropy_with_logits", weight=weight,
                            pos_weight=pos_weight)
    # (torch's first step, (1 - target).mul_(x), keeps a float target's dtype)
    dtype = target.dtype if target.dtype.is_floating_point else dtypes.result_type(x, target)
    return BinaryCrossEntropyWithLogitsBackward0.apply(
        x, target, cast_to=dtype, weight=weight,
        pos_weight=pos_weight, reduction=reduction)


class BinaryCrossEntropyBackward0(Node):
    formula = Formula("loss_i", "-w_i [t_i log(x_i) + (1 - t_i) log(1 - x_i)], each log "
                                "clamped at -100, then reduced",
                      d={"self": "w_i (x_i - t_i) / max(x_i (1 - x_i), 1e-12)",
                         "target": "w_i (log(1 - x_i) - log(x_i))"},
                      note="x holds probabilities in [0, 1] (after a sigmoid).")
    saves = {"self": Input(0), "target": Input(1)}

    def forward(self, x, target, weight, reduction):
        self.save(weight=_kept(weight), reduction=_REDUCTIONS[reduction])
        self.reduction = reduction
        losses = kernels_loss.binary_cross_entropy(x, target)
        if weight is not None:  # (torch's loss.mul_(weight): in the loss's dtype)
            losses = (losses * _array(weight)).astype(losses.dtype, copy=False)
        return losses if reduction == "none" else fn.sum(losses) if reduction == "sum" \
            else fn.mean(losses)  # (torch's loss.sum() / loss.mean(): its order of adding)

    def backward(self, saved, grad):
        x, target = saved.self, saved.target
        grad_x = bce_backward(grad, x, target, saved.weight, self.reduction)
        grad_t = fn.mul_(-fn.logit(x), grad) if self.needs_input_grad[1] else None  # (no clamp)
        return grad_x, _weighted(grad_t, saved.weight, self.reduction, math.prod(x.shape))


def bce_backward(grad, x, target, weight, reduction):
    """torch's binary_cross_entropy_backward: grad (x - t) / max(x (1 - x), eps), times
    the weight, / n for 'mean' (on tensors recorded as BinaryCrossEntropyBackwardBackward0)."""
    if is_tensor(grad) or is_tensor(x) or is_tensor(target):
        return BinaryCrossEntropyBackwardBackward0.apply(grad, x, target, weight=weight,
                                                         reduction=reduction)
    grad = grad if reduction == "none" else fn.expand(grad, x.shape)
    grad_x = grad * (x - target) / fn.clamp_min((1 - x) * x, kernels_loss.EPSILON)
    weight = None if weight is None else fn.as_array(weight)
    return _weighted(grad_x, weight, reduction, math.prod(x.shape))


class BinaryCrossEntropyBackwardBackward0(Node):
    formula = Formula("z", "binary_cross_entropy_backward(grad, self, target) = grad w (x - t) "
                           "/ max(x (1 - x), eps) (/ n for 'mean')",
                      grad={"grad": "G w (x - t) / ((x + eps) (1 - x + eps)), summed for a "
                                    "reduced loss",
                            "self": "G grad w (x^2 - 2 x t + t) / ((x + eps)^2 (1 - x + eps)^2)",
                            "target": "-G grad w / max(x (1 - x), eps)"},
                      note="binary_cross_entropy's derivative as an operation, recorded by a "
                           "backward with create_graph=True (PyTorch's eps: 1e-12).")
    saves = {"grad_output": Input(0), "self": Input(1), "target": Input(2)}

    def forward(self, grad, x, target, weight, reduction):
        self.save(weight=_kept(weight), reduction=_REDUCTIONS[reduction])
        self.reduction = reduction
        return bce_backward(grad, x, target, weight, reduction)

    def backward(self, saved, grad):
        # torch's binary_cross_entropy_double_backward(_grad_output, _target), in its order
        grad_output, x, target = saved.grad_output, saved.self, saved.target
        needs_grad, needs_x, needs_target = self.needs_input_grad
        terms = (x, target, saved.weight, self.reduction)
        grad_grad = _bce_double_grad_output(grad, *terms) if needs_grad else None
        grad_x = _bce_double_self(grad, grad_output, *terms) if needs_x else None
        grad_target = _bce_double_target(-grad * grad_output, *terms) if needs_target else None
        if needs_grad and grad_grad.shape != grad_output.shape:  # (the engine's sum_to)
            grad_grad = fn.sum(grad_grad)
        return grad_grad, grad_x, grad_target


def _bce_double_self(grad, grad_output, x, target, weight, reduction):
    """grad grad_output (x^2 - 2 x t + t) / ((x + eps)^2 (1 - x + eps)^2), weighted, op for
    op as torch's binary_cross_entropy_double_backward (C++'s right operands first)."""
    x_eps, one_minus_x_eps = x + 1e-12, fn.number_minus(1, x) + 1e-12
    below = one_minus_x_eps ** 2
    below = x_eps ** 2 * below
    above = 2 * x * target
    above = x * x - above + target
    grad_x = above / below * (grad * grad_output)
    grad_x = grad_x if weight is None else grad_x * weight
    return grad_x / math.prod(x.shape) if reduction == "mean" else grad_x


def _bce_double_target(grad, x, target, weight, reduction):
    """-G grad / max((1 - x) x, eps), weighted, the clamp unrecorded (torch's
    binary_cross_entropy_double_backward_target)."""
    grad = grad if weight is None else grad * weight
    denom = _clamped_unrecorded(fn.number_minus(1, x) * x, 1e-12)
    grad = grad / denom
    return grad / math.prod(target.shape) if reduction == "mean" else grad


def _clamped_unrecorded(x, low):
    """max(x, low), in place under no_grad on a tensor (its node stays the product's)."""
    if not is_tensor(x):
        return np.maximum(x, low)
    with grad_mode.no_grad():
        return x.clamp_min_(low)


def _bce_double_grad_output(grad, x, target, weight, reduction):
    """grad (x - t) / ((x + eps) (1 - x + eps)), weighted."""
    below = fn.number_minus(1, x) + 1e-12  # (C++'s right operands first)
    below = (x + 1e-12) * below
    ggo = (x - target) / below * grad
    ggo = ggo if weight is None else ggo * weight
    return ggo / math.prod(x.shape) if reduction == "mean" else ggo


def _weighted(grad, weight, reduction, count):
    """A loss's gradient times the weight, then over n for 'mean' (torch's order)."""
    if grad is None:
        return None
    grad = grad if weight is None else grad * weight
    return grad / count if reduction == "mean" else grad


class _PiecewiseLoss(Node):
    """SmoothL1 and Huber: quadratic near 0, linear beyond ``beta`` (``delta``)."""
    saves = {"self": Input(0), "target": Input(1)}

    def forward(self, x, target, reduction, beta):
        self.save(reduction=_REDUCTIONS[reduction], **{self.width: beta})
        self.reduction, self.beta = reduction, beta
        losses = self.losses(x, target, beta)
        return losses if reduction == "none" else fn.sum(losses) if reduction == "sum" \
            else fn.mean(losses)

    def losses(self, x, target, beta):
        return self.elementwise(np.abs(x - target), x.dtype.type(beta))

    def backward(self, saved, grad):
        x, target, kind = saved.self, saved.target, type(self)
        grad_x = piecewise_backward(kind, grad, x, target, self.reduction, self.beta)
        grad_t = piecewise_backward(kind, grad, target, x, self.reduction, self.beta) \
            if self.needs_input_grad[1] else None  # (torch's: target's with t - x)
        return grad_x, grad_t


def piecewise_backward(kind, grad, x, target, reduction, beta):
    """torch's smooth_l1_loss_backward / huber_loss_backward (``kind``: the loss's node)
    of d = x - target (so the target's, with the two swapped, has +0 at d = 0, not -0);
    on tensors recorded as its node, SmoothL1LossBackwardBackward0 or
    HuberLossBackwardBackward0."""
    if is_tensor(grad) or is_tensor(x) or is_tensor(target):
        return _DERIVATIVE_NODES[kind].apply(grad, x, target, reduction=reduction, beta=beta)
    d = x - target
    norm = _over(1, math.prod(d.shape)) if reduction == "mean" else 1.0
    grad = grad if reduction == "none" else np.broadcast_to(grad, d.shape)
    inner, outer = kind.inner(norm * d, grad, beta), kind.outer(norm * grad, beta)
    return np.where(d <= -beta, -outer, np.where(d >= beta, outer, inner))


class _PiecewiseLossBackward(Node):
    """The derivative of SmoothL1 or Huber as an operation, recorded by a backward with
    create_graph=True: linear in grad, and 1 / beta (1 for Huber) inside |d| < beta for
    self, minus that for target (PyTorch's *_loss_double_backward)."""
    saves = {"grad_output": Input(0), "self": Input(1), "target": Input(2)}

    def forward(self, grad, x, target, reduction, beta):
        self.save(reduction=_REDUCTIONS[reduction], **{self.loss.width: beta})
        self.reduction, self.beta = reduction, beta
        return piecewise_backward(self.loss, grad, x, target, reduction, beta)

    def backward(self, saved, grad):
        grad_output, x, target = saved.grad_output, saved.self, saved.target
        needs_grad, needs_x, needs_target = self.needs_input_grad
        grad_grad = self.grad_output_grad(grad, grad_output, x, target) if needs_grad else None
        double = (self.loss, x, target, self.reduction, self.beta)
        grad_x = _piecewise_double(grad * grad_output, *double) if needs_x else None
        grad_target = -_piecewise_double(grad * grad_output, *double) if needs_target else None
        if needs_grad and grad_grad.shape != grad_output.shape:  # (the engine's sum_to, last:
            grad_grad = fn.sum(grad_grad)  # a reduced loss's grad_output is a scalar)
        return grad_grad, grad_x, grad_target


def _piecewise_double(grad, loss, x, target, reduction, beta):
    """torch's smooth_l1_loss_double_backward and huber_loss_double_backward: grad where
    |x - target| < beta, else 0 (/ beta for smooth_l1, zeros if beta is 0; / n for
    'mean')."""
    if loss is SmoothL1LossBackward0 and beta == 0:
        return fn.zeros(grad.shape, grad)
    inside = fn.abs(x - target) < beta
    if loss is SmoothL1LossBackward0:  # (smooth_l1's: type_as(grad), then / beta)
        return _mean_of(grad * fn.type_as(inside, grad) / beta, x, reduction)
    return _mean_of(grad * inside, x, reduction)


def _mean_of(grad, x, reduction):
    """grad / n for 'mean' (n: x's number of elements)."""
    return grad / math.prod(x.shape) if reduction == "mean" else grad


class SmoothL1LossBackward0(_PiecewiseLoss):
    formula = Formula("loss_i", "0.5 d**2 / beta if |d| < beta else |d| - 0.5 beta  "
                                "(d = x_i - t_i)",
                      d={"self": "d / beta if |d| < beta else sign(d)"})
    width = "beta"

    @staticmethod
    def elementwise(z, beta):
        return np.where(z < beta, np.float32(0.5).astype(z.dtype) * z * z / beta,
                        z - np.float32(0.5).astype(z.dtype) * beta)

    @staticmethod
    def inner(norm_d, grad, beta):
        return norm_d * grad / beta

    @staticmethod
    def outer(norm_grad, beta):
        return norm_grad


class HuberLossBackward0(_PiecewiseLoss):
    formula = Formula("loss_i", "0.5 d**2 if |d| < delta else delta (|d| - 0.5 delta)  "
                                "(d = x_i - t_i)",
                      d={"self": "d if |d| < delta else delta sign(d)"})
    width = "delta"

    @staticmethod
    def losses(x, target, delta):
        return kernels_loss.huber_losses(x, target, delta=delta)

    @staticmethod
    def inner(norm_d, grad, delta):
        return norm_d * grad

    @staticmethod
    def outer(norm_grad, delta):
        return norm_grad * delta


class SmoothL1LossBackwardBackward0(_PiecewiseLossBackward):
    formula = Formula("z", "smooth_l1_loss_backward(grad, self, target): grad d / beta if |d| "
                           "< beta else grad sign(d)  (d = self - target)",
                      d={"grad": "d / beta or sign(d)", "self": "grad / beta where |d| < beta",
                         "target": "-grad / beta where |d| < beta"})
    loss = SmoothL1LossBackward0

    def grad_output_grad(self, grad, grad_output, x, target):
        return piecewise_backward(self.loss, grad, x, target, self.reduction, self.beta)


class HuberLossBackwardBackward0(_PiecewiseLossBackward):
    formula = Formula("z", "huber_loss_backward(grad, self, target): grad d if |d| < delta "
                           "else grad delta sign(d)  (d = self - target)",
                      d={"grad": "d or delta sign(d)", "self": "grad where |d| < delta",
                         "target": "-grad where |d| < delta"})
    loss = HuberLossBackward0

    def grad_output_grad(self, grad, grad_output, x, target):
        """torch's huber_loss_double_backward_grad_output."""
        if self.reduction == "none":
            return piecewise_backward(self.loss, grad, x, target, self.reduction, self.beta)
        ones = fn.ones(grad_output.shape, grad_output)
        return fn.sum(piecewise_backward(self.loss, ones, x, target, self.reduction,
                                         self.beta) * grad)


_DERIVATIVE_NODES = {SmoothL1LossBackward0: SmoothL1LossBackwardBackward0,
                     HuberLossBackward0: HuberLossBackwardBackward0}


def binary_cross_entropy(x, target, weight=None, reduction="mean"):
    _check_no_requires_grad("binary_cross_entropy", weight=weight)
    return BinaryCrossEntropyBackward0.apply(x, target, cast_to=dtypes.result_type(x, target),
                                             weight=weight, reduction=reduction)


def smooth_l1_loss(x, target, reduction="mean", beta=1.0):
    return SmoothL1LossBackward0.apply(x, target, cast_to=dtypes.result_type(x, target),
                                       reduction=reduction, beta=beta)


def huber_loss(x, target, reduction="mean", delta=1.0):
    return HuberLossBackward0.apply(x, target, cast_to=x.dtype,  # (torch's: the input's)
                                    reduction=reduction, beta=delta)


class SoftMarginLossBackward0(Node):
    formula = Formula("loss_i", "log(1 + exp(-y_i x_i)), then reduced",
                      d={"self": "-y_i exp(-y_i x_i) / (1 + exp(-y_i x_i))"})
    saves = {"self": Input(0)}

    def forward(self, x, target, reduction):
        self.save(target=_kept(target), reduction=_REDUCTIONS[reduction])
        self.reduction = reduction
        losses = kernels_loss.soft_margin_loss(x, _array(target))
        return losses if reduction == "none" else fn.sum(losses) if reduction == "sum" \
            else fn.mean(losses)

    def backward(self, saved, grad):
        return fn.soft_margin_loss_backward(grad, saved.self, saved.target, self.reduction),


def soft_margin_loss_backward_of(grad, x, target, reduction):
    """-y exp(-y x) / (1 + exp(-y x)) G (/ n for 'mean'), in torch's order of steps."""
    norm = _over(1, fn.as_array(x).size) if reduction == "mean" else 1.0
    z = fn.exp(-target * x)
    return target * z * -norm / (z + 1) * grad


class SoftMarginLossBackwardBackward0(Node):
    formula = Formula("z", "soft_margin_loss_backward(grad, self, target) = "
                           "-y e / (1 + e) grad (/ n for 'mean'), e = exp(-y x)",
                      grad={"grad": "-y e / (1 + e) G (/ n), summed for a reduced loss",
                            "self": "y**2 e / (1 + e)**2 G grad (/ n)"},
                      note="soft_margin_loss's derivative as an operation, recorded by a "
                           "backward with create_graph=True.")
    saves = {"grad_output": Input(0), "self": Input(1)}

    def forward(self, grad, x, target, reduction):
        self.save(target=_kept(target), reduction=_REDUCTIONS[reduction])
        self.reduction = reduction
        return soft_margin_loss_backward_of(grad, x, _array(target), reduction)

    def backward(self, saved, grad):
        # torch's soft_margin_loss_double_backward(_grad_output), in its order of steps
        grad_output, x, target = saved.grad_output, saved.self, saved.target
        needs_grad, needs_x = self.needs_input_grad[:2]
        return (_soft_margin_grad_grad(grad, grad_output, x, target, self.reduction)
                if needs_grad else None,
                _soft_margin_double(grad * grad_output, x, target, self.reduction)
                if needs_x else None)


def _soft_margin_grad_grad(grad, grad_output, x, target, reduction):
    """The upstream gradient's: soft_margin_loss_backward of G, summed for a reduced loss."""
    if reduction == "none":
        return fn.soft_margin_loss_backward(grad, x, target, reduction)
    ones = fn.as_constant(np.ones_like(fn.as_array(grad_output)), like=grad_output)
    return fn.sum(fn.soft_margin_loss_backward(ones, x, target, reduction) * grad)


def _soft_margin_double(grad, x, target, reduction):
    """grad y**2 e / (e + 1)**2 (/ n for 'mean'), e = exp(-y x)."""
    z = fn.exp(x * -target)
    z_plus_1 = z + 1
    squared = z_plus_1 * z_plus_1  # (first: torch's C++ evaluates the divisor first)
    result = grad * (target * target) * z / squared
    if reduction == "mean":
        result = result / int(np.prod(x.shape, dtype=np.int64))
    return result


class MultiMarginLossBackward0(Node):
    formula = Formula("loss_n", "sum_{c != y_n} max(0, margin - x_{n y_n} + x_{nc})**p "
                                "w_{y_n} / C, then reduced",
                      d={"self": "p max(0, margin - x_{n y_n} + x_{nc})**(p - 1) w_{y_n} / C "
                                 "at c != y_n; minus their sum at c = y_n"})
    saves = {"self": Input(0)}

    def forward(self, x, target, p, margin, weight, reduction):
        self.save(target=_kept(target), p=p, margin=margin, weight=_kept(weight),
                  reduction=_REDUCTIONS[reduction])
        target = _array(target)
        self.p, self.margin, self.reduction = p, margin, reduction
        losses = kernels_loss.multi_margin_loss(_margin_rows(x), target.reshape(-1), p, margin,
                                                _array(weight), reduction)
        return losses.reshape(target.shape) if reduction == "none" else losses

    def backward(self, saved, grad):
        x, target = fn.as_array(saved.self), fn.as_array(saved.target)
        rows = _margin_rows(x)
        norm = _over(1, rows.size if self.reduction == "mean" else rows.shape[1])
        slope = kernels_loss.multi_margin_loss_backward(
            rows, target.reshape(-1), self.p, self.margin, fn.as_array(saved.weight), norm)
        grad = grad if fn.as_array(grad).ndim == 0 else fn.reshape(grad, (-1, 1))
        return fn.reshape(fn.as_constant(slope, like=grad) * grad, x.shape),


class MultilabelMarginLossBackward0(Node):
    formula = Formula("loss_n", "sum_{j in y_n} sum_{i not in y_n} max(0, 1 - x_{nj} + x_{ni}) / C, "
                                "then reduced (y_n: the target up to its first -1)",
                      d={"self": "+1/C at i and -1/C at j for each positive margin"})
    saves = {"self": Input(0), "target": Input(1)}

    def forward(self, x, target, reduction):
        rows, labels = _margin_rows(x), _margin_rows(target)
        reduced = "sum" if x.ndim <= 1 and reduction == "none" else reduction  # (one row: reduced)
        loss, is_target = kernels_loss.multilabel_margin_loss(rows, labels, reduced)
        self.save(is_target=is_target.reshape(x.shape), reduction=_REDUCTIONS[reduction])
        self.reduction = reduction
        return loss

    def backward(self, saved, grad):
        x, target = fn.as_array(saved.self), fn.as_array(saved.target)
        rows = _margin_rows(x)
        norm = _over(1, rows.size if self.reduction == "mean" else rows.shape[1])
        slope = kernels_loss.multilabel_margin_loss_backward(
            rows, _margin_rows(target), fn.as_array(saved.is_target).reshape(rows.shape), norm)
        grad = grad if fn.as_array(grad).ndim == 0 else fn.reshape(grad, (-1, 1))
        return fn.reshape(fn.as_constant(slope, like=grad) * grad, x.shape), None


def multilabel_margin_loss(x, target, reduction="mean"):
    return MultilabelMarginLossBackward0.apply(x, target, reduction=reduction)


def _margin_rows(x):
    """Scores as rows (N, C): a vector is one row, a number one row of one class."""
    return x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


def soft_margin_loss(x, target, reduction="mean"):
    _check_no_requires_grad("soft_margin_loss", target=target)
    shape = broadcast_shapes(x.shape, target.shape)
    if shape != x.shape:  # (torch writes -x * target into a tensor of x's shape)
        raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    return SoftMarginLossBackward0.apply(x, target=target, reduction=reduction)


def multi_margin_loss(x, target, p=1, margin=1.0, weight=None, reduction="mean"):
    _check_no_requires_grad("multi_margin_loss", weight=weight)
    return MultiMarginLossBackward0.apply(x, target=target, p=p, margin=margin, weight=weight,
                                          reduction=reduction)


class CtcLossBackward0(Node):
    formula = Formula("y[b]", "-log sum over the alignments a of target b (blanks between "
                              "labels, repeats merged) of prod_t exp(log_probs[t, b, a_t]), "
                              "by the recursion alpha[t, s] = logsumexp(alpha[t-1, s-2..s]) "
                              "+ log_probs[t, b, l'[s]]",
                      grad={"log_probs": "(exp(lp) - exp(log sum_{s: l'[s] = c} alpha beta "
                                         "+ y[b] - lp)) * G[b] (PyTorch's: the gradient "
                                         "through the log_softmax before it)"})
    saves = {"log_probs": Input(0), "result0": RESULT}

    def forward(self, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
        nll, log_alpha = kernels_ctc.ctc_loss(log_probs, targets._data, input_lengths,
                                              target_lengths, blank)
        self.save(targets=SavedTensor(targets), input_lengths=input_lengths,
                  target_lengths=target_lengths, blank=blank, zero_infinity=zero_infinity,
                  result1=log_alpha)
        return nll

    def backward(self, saved, grad):
        return fn.ctc_loss_backward(grad, saved.log_probs, saved.targets, saved.input_lengths,
                                    saved.target_lengths, saved.result0, saved.result1,
                                    saved.blank, saved.zero_infinity)


def ctc_loss(log_probs, targets, input_lengths: tuple, target_lengths: tuple, blank: int,
             zero_infinity: bool):
    """The loss of each sequence (batch,): log_probs (time, batch, classes), int64 targets
    padded (batch, longest) or concatenated, the lengths as tuples (rules/ctc.py checked)."""
    return CtcLossBackward0.apply(log_probs, targets=targets, input_lengths=input_lengths,
                                  target_lengths=target_lengths, blank=blank,
                                  zero_infinity=zero_infinity)
