"""The activation functions of ``torch.nn`` that PyTorch computes as operations of their
own: leaky_relu, elu, softplus, silu, hardtanh (``LeakyReluBackward0``, ...).
``minigrad.nn.functional`` calls these (its ``F.relu6`` is hardtanh(x, 0, 6))."""

from __future__ import annotations

import numpy as np

from .. import dtypes, errors
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..kernels import activation as kernels
from ..rules.layout import with_unary_layout
from . import fn

__all__ = ["leaky_relu", "elu", "softplus", "silu", "hardtanh"]


def _number(x, value):
    """``value`` as a number of x's dtype (torch's kernels compute with scalar_t)."""
    return x.dtype.type(value)


class LeakyReluBackward0(Node):
    formula = Formula("y", "x if x > 0 else negative_slope * x",
                      d={"x": "1 if x > 0 else negative_slope"})
    saves = {"self": Input(0)}

    def forward(self, x, negative_slope):
        self.save(negative_slope=negative_slope)
        return np.where(x > 0, x, x * _number(x, negative_slope))

    def backward(self, saved, grad):
        return fn.where(saved.self > 0, grad, grad * saved.negative_slope)


class LeakyReluBackward1(LeakyReluBackward0):
    """In place (``leaky_relu_``): the result has the input's sign, so it is saved."""
    saves = {"result": RESULT}

    def backward(self, saved, grad):
        return fn.where(saved.result > 0, grad, grad * saved.negative_slope)


class EluBackward0(Node):
    formula = Formula("y", "scale * x if x > 0 else scale * alpha * (exp(input_scale * x) - 1)",
                      d={"x": "scale if x > 0 else scale * alpha * input_scale * "
                              "exp(input_scale * x)"})
    saves = {"self": Input(0)}

    def forward(self, x, alpha, scale, input_scale):
        self.save(alpha=alpha, scale=scale, input_scale=input_scale)
        return kernels.elu(x, alpha, scale, input_scale)

    def backward(self, saved, grad):
        x, alpha, scale, input_scale = saved.self, saved.alpha, saved.scale, saved.input_scale
        negative = grad * (input_scale * alpha * scale) * fn.exp(x * input_scale)
        return fn.where(x > 0, grad * scale, negative)


class EluBackward1(EluBackward0):
    """In place (``elu_``): from the result y, exp(input_scale * x) = y / (scale alpha) + 1."""
    saves = {"result": RESULT}

    def backward(self, saved, grad):
        y, alpha, scale, input_scale = saved.result, saved.alpha, saved.scale, saved.input_scale
        return fn.where(y > 0, grad * scale, grad * input_scale * (y + alpha * scale))


class SoftplusBackward0(Node):
    formula = Formula("y", "log(1 + exp(beta x)) / beta   (x where beta x > threshold)",
                      d={"x": "sigmoid(beta x)   (1 where beta x > threshold)"})
    saves = {"self": Input(0)}

    def forward(self, x, beta, threshold):
        self.save(beta=beta, threshold=threshold)
        return kernels.softplus(x, beta, threshold)

    def backward(self, saved, grad):
        scaled = saved.self * saved.beta
        z = fn.exp(scaled)
        return fn.where(scaled > saved.threshold, grad, grad * z / (z + 1))


class SiluBackward0(Node):
    formula = Formula("y", "x sigmoid(x) = x / (1 + exp(-x))",
                      d={"x": "sigmoid(x) (1 + x (1 - sigmoid(x)))"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.silu(x)

    def backward(self, saved, grad):
        x = saved.self
        sigmoid = 1 / (1 + fn.exp(-x))
        return grad * sigmoid * (1 + x * (1 - sigmoid))


class HardtanhBackward0(Node):
    formula = Formula("y", "min(max(x, min_val), max_val)",
                      d={"x": "1 if min_val < x < max_val else 0"})
    saves = {"self": Input(0)}

    def forward(self, x, min_val, max_val):
        self.save(min_val=min_val, max_val=max_val)
        return np.minimum(np.maximum(x, _number(x, min_val)), _number(x, max_val))

    def backward(self, saved, grad):
        x = saved.self
        return fn.where((x > saved.min_val) & (x < saved.max_val), grad, 0)


def _check_float(x, name: str) -> None:
    if not x.dtype.is_floating_point:
        raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format(
            name, dtypes.SCALAR_NAMES[x.dtype]))


def leaky_relu(x, negative_slope=0.01, saving_result=False):
    _check_float(x, "leaky_relu_cpu")
    node = LeakyReluBackward1 if saving_result else LeakyReluBackward0
    return with_unary_layout(node.apply(x, negative_slope=negative_slope), x)


def elu(x, alpha=1.0, scale=1.0, input_scale=1.0, saving_result=False):
    _check_float(x, "elu_cpu")
    node = EluBackward1 if saving_result else EluBackward0
    return with_unary_layout(node.apply(x, alpha=alpha, scale=scale, input_scale=input_scale), x)


def softplus(x, beta=1.0, threshold=20.0):
    _check_float(x, "softplus_cpu")
    return with_unary_layout(SoftplusBackward0.apply(x, beta=beta, threshold=threshold), x)


def silu(x):
    _check_float(x, "silu_cpu")
    return with_unary_layout(SiluBackward0.apply(x), x)


def hardtanh(x, min_val=-1.0, max_val=1.0):
    return with_unary_layout(HardtanhBackward0.apply(x, min_val=min_val, max_val=max_val), x)
