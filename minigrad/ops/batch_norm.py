"""Batch normalisation as one operation (PyTorch's ``native_batch_norm``, shown as
``NativeBatchNormBackward0``). ``minigrad.nn.functional.batch_norm`` checks the
arguments and updates the running statistics; this module holds the math.
"""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..kernels import batch_norm as kernels
from ..rules.math_dtypes import check_batch_norm_dtypes
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
        return batch_norm_backward(grad, saved.input, saved.weight, saved.result1,
                                   saved.result2, saved.training, saved.running_var, saved.eps)


def batch_norm_backward(grad, x, w, mean, invstd, training, running_var, eps):
    """The three gradients: on arrays as PyTorch's CPU kernel computes them (its sums
    and fused multiply-adds); on tensors (a backward with create_graph=True) by the
    formula below, so that it is recorded and can be differentiated again."""
    if not fn.is_tensor(grad):
        return kernels.backward(grad, x, mean, invstd, w, training,
                                None if running_var is None else fn.as_array(running_var), eps)
    axes, count = _channels(x), x.numel() // x.shape[1]
    if training:  # (the batch's statistics as functions of x, for the second derivative)
        mean = fn.mean(x, axes, keepdim=True)
        invstd = fn.pow(fn.mean((x - mean) * (x - mean), axes, keepdim=True) + eps, -0.5)
    else:
        mean, invstd = _per_channel(mean, x.ndim), _per_channel(invstd, x.ndim)
    sum_g = fn.sum(grad, axes)
    dotp = fn.sum((x - mean) * grad, axes)
    scale = invstd if w is None else invstd * _per_channel(w, x.ndim)
    if training:  # xhat = (x - mean) invstd:  invstd w (G - mean(G) - xhat mean(G xhat))
        k = _per_channel(dotp, x.ndim) * invstd * invstd / count
        grad_x = (grad - _per_channel(sum_g, x.ndim) / count - (x - mean) * k) * scale
    else:
        grad_x = grad * scale
    return grad_x, dotp * fn.reshape(invstd, (-1,)), sum_g


def native_batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps):
    """The output of batch normalisation; in training, the batch's statistics (and the
    running ones updated in place, if given), else the running ones."""
    check_batch_norm_dtypes(x, weight, bias, running_mean, running_var, training)
    if training:
        mean, invstd, var_sum = kernels.batch_norm_stats(x._data, eps)
        if running_mean is not None or running_var is not None:
            kernels.running_update(None if running_mean is None else running_mean._data,
                                   None if running_var is None else running_var._data,
                                   mean, var_sum, x.numel() // x.shape[1], momentum)
            for buffer in (running_mean, running_var):
                if buffer is not None:
                    buffer._bump_version()
        mean, invstd = kernels.in_param_dtype(mean, invstd, x._data.dtype, [
            t._data.dtype for t in (weight, bias, running_mean, running_var) if t is not None])
    else:
        mean, invstd = running_mean._data, kernels.eval_invstd(running_var._data, eps)
    return NativeBatchNormBackward0.apply(
        x, weight, bias, mean=mean, invstd=invstd, running_mean=running_mean,
        running_var=running_var, training=training, eps=eps)
