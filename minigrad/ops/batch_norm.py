"""Batch normalisation as one operation (PyTorch's ``native_batch_norm``, shown as
``NativeBatchNormBackward0``). ``minigrad.nn.functional.batch_norm`` checks the
arguments and updates the running statistics; this module holds the math.
"""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..kernels import batch_norm as kernels
from ..rules.math_dtypes import check_batch_norm_dtypes
from . import fn, norm_backward
from .linalg_module import several_outputs

__all__ = ["native_batch_norm"]


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
                                   saved.result2, saved.training, saved.running_mean,
                                   saved.running_var, saved.eps, self.needs_input_grad)


def batch_norm_backward(grad, x, w, mean, invstd, training, running_mean, running_var, eps,
                        needs):
    """The three gradients (None where not needed), as PyTorch's CPU kernel computes them
    (its sums and fused multiply-adds); on tensors (create_graph=True) the outputs of one
    NativeBatchNormBackwardBackward0 node."""
    if not fn.is_tensor(grad):
        return kernels.backward(grad, x, mean, invstd, w, training,
                                None if running_var is None else fn.as_array(running_var), eps)
    grads = several_outputs(NativeBatchNormBackwardBackward0, (grad, x, w, mean, invstd),
                            {"running_mean": running_mean, "running_var": running_var,
                             "training": training, "eps": eps})
    return tuple(g if need else None for g, need in zip(grads, needs))


class NativeBatchNormBackwardBackward0(Node):
    formula = Formula("(gx, gw, gb)", "native_batch_norm_backward(grad, x, w, ...): batch_norm's "
                                      "three gradients",
                      grad={"grad_out": "gx's formula applied to G_gx, + G_gw xhat + G_gb",
                            "input": "d gx / d x applied to G_gx (training: the batch's mean "
                                     "and invstd moving with x), + G_gw's term",
                            "weight": "sum of G * (gx of G_gx without the weight)"},
                      note="batch_norm's derivative as an operation, recorded by a backward "
                           "with create_graph=True; its backward is PyTorch's "
                           "batchnorm_double_backward (ops/norm_backward.py), which holds the "
                           "saved mean and invstd constant, as PyTorch's does.")
    saves = {"grad_out": Input(0), "input": Input(1), "weight": Input(2), "save_mean": Input(3),
             "save_invstd": Input(4)}

    def forward(self, grad, x, w, mean, invstd, running_mean, running_var, training, eps):
        self.save(running_mean=running_mean, running_var=running_var, train=training, eps=eps)
        return list(batch_norm_backward(grad, x, w, mean, invstd, training, running_mean,
                                        running_var, eps, None))

    def backward(self, saved, ggI=None, ggG=None, ggB=None):
        gI, gG, ggO = norm_backward.batch_norm_double_backward(
            saved.input, saved.weight, ggI, ggG, ggB, saved.grad_out, saved.running_mean,
            saved.running_var, saved.train, saved.eps, saved.save_mean, saved.save_invstd)
        needs = self.needs_input_grad
        return ggO if needs[0] else None, gI if needs[1] else None, \
            gG if needs[2] else None, None, None


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
