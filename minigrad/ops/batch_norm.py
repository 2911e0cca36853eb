"""Batch normalisation as one operation (PyTorch's ``native_batch_norm``, shown as
``NativeBatchNormBackward0``). ``minigrad.nn.functional.batch_norm`` checks the
arguments and updates the running statistics; this module holds the math.
"""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..kernels import batch_norm as kernels
from . import fn

__all__ = ["native_batch_norm"]


def _channels(x) -> tuple:
    """The axes a channel's statistics are taken over: all but dim 1."""
    return (0,) + tuple(range(2, len(x.shape)))


def _per_channel(values, ndim: int):
    """A (C,) vector shaped to broadcast along dim 1 of an ndim-dimensional input."""
    return fn.reshape(values, (1, -1) + (1,) * (ndim - 2))


class NativeBatchNormBackward0(Node):
    formula = Formula("y", "(x - mean) * invstd * w + b,  invstd = 1 / sqrt(var + eps)",
                      grad={"x": "invstd w (G - mean(G) - xhat mean(G xhat))   (training; "
                                 "eval: invstd w G)",
                            "w": "sum(G xhat)", "b": "sum(G)"},
                      note="per channel (dim 1): mean and var over the batch (training) or "
                           "the running statistics (eval); xhat = (x - mean) * invstd.")
    saves = {"input": Input(0), "weight": Input(1)}

    def forward(self, x, weight, bias, mean, invstd, running_mean, running_var, training, eps):
        self.save(running_mean=running_mean, running_var=running_var,
                  result1=mean, result2=invstd, training=training, eps=eps)
        return kernels.transform(x, mean, invstd, weight, bias)

    def backward(self, saved, grad):
        x, w, training = saved.input, saved.weight, saved.training
        mean, invstd = _per_channel(saved.result1, x.ndim), _per_channel(saved.result2, x.ndim)
        axes, count = _channels(x), x.size // x.shape[1]
        sum_g = fn.sum(grad, axes)
        dotp = fn.sum((x - mean) * grad, axes)
        scale = invstd if w is None else invstd * _per_channel(w, x.ndim)
        if training:
            k = _per_channel(dotp, x.ndim) * invstd * invstd / count
            grad_x = (grad - _per_channel(sum_g, x.ndim) / count - (x - mean) * k) * scale
        else:
            grad_x = grad * scale
        return grad_x, dotp * saved.result2, sum_g


def native_batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps):
    """The output of batch normalisation; in training, the batch's statistics (and the
    running ones updated in place, if given), else the running ones."""
    if training:
        mean, invstd, var_sum = kernels.batch_norm_stats(x._data, eps)
        if running_mean is not None or running_var is not None:
            kernels.running_update(None if running_mean is None else running_mean._data,
                                   None if running_var is None else running_var._data,
                                   mean, var_sum, x.numel() // x.shape[1], momentum)
            for buffer in (running_mean, running_var):
                if buffer is not None:
                    buffer._bump_version()
    else:
        mean, invstd = running_mean._data, kernels.eval_invstd(running_var._data, eps)
    return NativeBatchNormBackward0.apply(
        x, weight, bias, mean=mean, invstd=invstd, running_mean=running_mean,
        running_var=running_var, training=training, eps=eps)
