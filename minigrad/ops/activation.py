"""The activation functions of ``torch.nn`` that PyTorch computes as operations of their
own: leaky_relu, rrelu, elu, softplus, silu, hardtanh, hardshrink, softshrink
(``LeakyReluBackward0``, ...).
``minigrad.nn.functional`` calls these (its ``F.relu6`` is hardtanh(x, 0, 6))."""

from __future__ import annotations

import numpy as np

from .. import dtypes, errors
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..kernels import activation as kernels
from ..kernels import random as random_kernels
from ..rules.arguments import normalize_dim
from ..rules.conversion import check_opmath_scalars, checked_fill_value
from ..rules.layout import with_unary_layout
from . import fn, pointwise, rounding
from ._saved import as_shown
from .linalg_module import several_outputs

__all__ = ["glu", "leaky_relu", "rrelu", "elu", "celu", "softplus", "silu", "hardtanh", "mish", "hardswish",
           "hardsigmoid", "threshold", "prelu", "hardshrink", "softshrink"]


class GluBackward0(Node):
    formula = Formula("y", "a * sigmoid(b), a and b the first and second half of self along dim",
                      grad={"self": "G sigmoid(b) for a; G a sigmoid(b) (1 - sigmoid(b)) for b"})
    saves = {"self": Input(0)}

    def forward(self, x, dim):
        self.save(dim=as_shown(dim), _dim=dim)
        return kernels.glu(x, dim)

    def backward(self, saved, grad):
        return glu_backward(grad, saved.self, saved._dim)


class LeakyReluBackward0(Node):
    formula = Formula("y", "x if x > 0 else negative_slope * x",
                      d={"x": "1 if x > 0 else negative_slope"})
    saves = {"self": Input(0)}

    def forward(self, x, negative_slope):
        self.save(negative_slope=negative_slope)
        return kernels.leaky_relu(x, negative_slope)

    def backward(self, saved, grad):
        return leaky_relu_backward(grad, saved.self, saved.negative_slope)


class LeakyReluBackward1(LeakyReluBackward0):
    formula = Formula("y", "x if x > 0 else negative_slope * x",
                      d={"x": "1 if y > 0 else negative_slope"},
                      note="in place (leaky_relu_): y has x's sign, so y is saved.")
    saves = {"result": RESULT}

    def backward(self, saved, grad):
        return leaky_relu_backward(grad, saved.result, saved.negative_slope)


class RreluWithNoiseBackward0(Node):
    formula = Formula("y", "x if x > 0 else a * x: in training a (the noise) drawn from "
                           "U(lower, upper) per element, else a = (lower + upper) / 2",
                      d={"x": "1 if x > 0 else a"})
    saves = {"self": Input(0)}

    def forward(self, x, noise, lower, upper, training):
        self.save(noise=noise, lower=lower, upper=upper, training=training)
        return x * noise if training else kernels.leaky_relu(x, (lower + upper) / 2)

    def backward(self, saved, grad):
        return rrelu_with_noise_backward(grad, saved.self, saved.noise, saved.lower, saved.upper,
                                         saved.training)


class RreluWithNoiseBackward1(RreluWithNoiseBackward0):
    formula = Formula("y", "x if x > 0 else a * x, in place", d={"x": "1 if y > 0 else a"},
                      note="in place (rrelu_): y has x's sign, so y is saved.")
    saves = {"result": RESULT}

    def backward(self, saved, grad):
        return rrelu_with_noise_backward(grad, saved.result, saved.noise, saved.lower,
                                         saved.upper, saved.training)


class EluBackward0(Node):
    formula = Formula("y", "scale * x if x > 0 else scale * alpha * (exp(input_scale * x) - 1)",
                      d={"x": "scale if x > 0 else scale * alpha * input_scale * "
                              "exp(input_scale * x)"})
    saves = {"self": Input(0)}

    def forward(self, x, alpha, scale, input_scale):
        self.save(alpha=alpha, scale=scale, input_scale=input_scale)
        return kernels.elu(x, alpha, scale, input_scale)

    def backward(self, saved, grad):
        return elu_backward(grad, saved.self, saved.alpha, saved.scale, saved.input_scale)


class EluBackward1(EluBackward0):
    formula = Formula("y", "scale * x if x > 0 else scale * alpha * (exp(input_scale * x) - 1)",
                      d={"x": "scale if y > 0 else input_scale * (y + scale * alpha)"},
                      note="in place (elu_): from the result y, since "
                           "exp(input_scale * x) = y / (scale alpha) + 1.")
    saves = {"result": RESULT}

    def backward(self, saved, grad):
        return elu_backward(grad, saved.result, saved.alpha, saved.scale, saved.input_scale,
                            is_result=True)


class CeluBackward0(Node):
    formula = Formula("y", "x if x > 0 else alpha * (exp(x / alpha) - 1)",
                      d={"x": "1 if x > 0 else exp(x / alpha)"},
                      note="elu with input_scale = 1 / alpha.")
    saves = {"self": Input(0)}

    def forward(self, x, alpha):
        self.save(alpha=alpha)
        return kernels.elu(x, alpha, 1, 1.0 / alpha)

    def backward(self, saved, grad):
        return elu_backward(grad, saved.self, saved.alpha, 1, 1.0 / saved.alpha)


class CeluBackward1(CeluBackward0):
    formula = Formula("y", "x if x > 0 else alpha * (exp(x / alpha) - 1)",
                      d={"x": "1 if y > 0 else (y + alpha) / alpha"},
                      note="in place (celu_): from the result y.")
    saves = {"result": RESULT}

    def backward(self, saved, grad):
        return elu_backward(grad, saved.result, saved.alpha, 1, 1.0 / saved.alpha,
                            is_result=True)


class SoftplusBackward0(Node):
    formula = Formula("y", "log(1 + exp(beta x)) / beta   (x where beta x > threshold)",
                      d={"x": "sigmoid(beta x)   (1 where beta x > threshold)"})
    saves = {"self": Input(0)}

    def forward(self, x, beta, threshold):
        self.save(beta=beta, threshold=threshold)
        return kernels.softplus(x, beta, threshold)

    def backward(self, saved, grad):
        return softplus_backward(grad, saved.self, saved.beta, saved.threshold)


class SiluBackward0(Node):
    formula = Formula("y", "x sigmoid(x) = x / (1 + exp(-x))",
                      d={"x": "sigmoid(x) (1 + x (1 - sigmoid(x)))"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.silu(x)

    def backward(self, saved, grad):
        return silu_backward(grad, saved.self)


class HardtanhBackward0(Node):
    formula = Formula("y", "min(max(x, min_val), max_val)",
                      d={"x": "0 if x <= min_val or x >= max_val, else 1"})
    saves = {"self": Input(0)}

    def forward(self, x, min_val, max_val):
        self.save(min_val=min_val, max_val=max_val)
        return kernels.hardtanh(x, min_val, max_val)

    def backward(self, saved, grad):
        return hardtanh_backward(grad, saved.self, saved.min_val, saved.max_val)


class MishBackward0(Node):
    formula = Formula("y", "x tanh(softplus(x))",
                      d={"x": "t + x sigmoid(x) (1 - t**2),  t = tanh(softplus(x))"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.mish(x)

    def backward(self, saved, grad):
        return mish_backward(grad, saved.self)


class HardswishBackward0(Node):
    formula = Formula("y", "x * min(max(x + 3, 0), 6) / 6",
                      d={"x": "0 if x <= -3, x / 3 + 1/2 if x < 3, else 1"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.hardswish(x)

    def backward(self, saved, grad):
        return hardswish_backward(grad, saved.self)


class HardsigmoidBackward0(Node):
    formula = Formula("y", "min(max(x + 3, 0), 6) / 6", d={"x": "1/6 if -3 < x < 3, else 0"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.hardsigmoid(x)

    def backward(self, saved, grad):
        return hardsigmoid_backward(grad, saved.self)


class ThresholdBackward0(Node):
    formula = Formula("y", "x if x > threshold else value", d={"x": "1 if x > threshold, else 0"})
    saves = {"self": Input(0)}

    def forward(self, x, threshold, value):
        self.save(threshold=threshold)
        return kernels.threshold(x, threshold, value)

    def backward(self, saved, grad):
        return fn.threshold_backward(grad, saved.self, saved.threshold)


class ThresholdBackward1(ThresholdBackward0):
    formula = Formula("y", "x if x > threshold else value", d={"x": "1 if x > threshold, else 0"},
                      note="in place (threshold_): PyTorch's second node, which saves a clone "
                           "of x as it was.")


class HardshrinkBackward0(Node):
    formula = Formula("y", "x if |x| > lambd, else 0", d={"x": "1 if |x| > lambd, else 0"})
    saves = {"self": Input(0)}

    def forward(self, x, lambd):
        self.save(lambd=lambd)
        return kernels.hardshrink(x, lambd)

    def backward(self, saved, grad):
        return shrink_backward(grad, saved.self, saved.lambd, HardshrinkBackwardBackward0)


class SoftshrinkBackward0(Node):
    formula = Formula("y", "x - lambd if x > lambd, x + lambd if x < -lambd, else 0",
                      d={"x": "1 if |x| > lambd, else 0"})
    saves = {"self": Input(0)}

    def forward(self, x, lambd):
        self.save(lambd=lambd)
        return kernels.softshrink(x, lambd)

    def backward(self, saved, grad):
        return shrink_backward(grad, saved.self, saved.lambd, SoftshrinkBackwardBackward0)


def shrink_backward(grad, x, lambd, node):
    """grad where |x| > lambd (or x is NaN), else 0 (recorded as ``node``:
    HardshrinkBackwardBackward0 or SoftshrinkBackwardBackward0)."""
    if not fn.is_tensor(grad):
        return kernels.shrink_backward(grad, x, lambd)
    return node.apply(grad, x, lambd=lambd)


class PreluKernelBackward0(Node):
    formula = Formula("y", "x if x > 0 else w x   (w broadcast: one per channel, or one)",
                      grad={"x": "G if x > 0 else w G", "w": "sum of G x where x <= 0"})
    saves = {"self": Input(0), "weight": Input(1)}

    def forward(self, x, weight):
        return fn.where(x > 0, x, weight * x)

    def backward(self, saved, grad):
        x, w = saved.self, saved.weight
        grad_x, grad_w = prelu_kernel_backward(grad, x, w)
        axes = tuple(d for d in range(x.ndim) if w.shape[d] == 1 and x.shape[d] != 1)
        return grad_x, fn.sum(grad_w, axes, keepdim=True) if axes else grad_w


def prelu_kernel_backward(grad, x, w):
    """(G where x > 0 else w G, 0 where x > 0 else x G), the second of x's shape (on
    tensors the two outputs of one PreluKernelBackwardBackward0 node)."""
    if fn.is_tensor(grad):
        return several_outputs(PreluKernelBackwardBackward0, (grad, x, w), {})
    return fn.where(x > 0, grad, w * grad), fn.where(x > 0, 0, x * grad)


class PreluKernelBackwardBackward0(Node):
    formula = Formula("(gx, gw)", "_prelu_kernel_backward(grad, x, w) = (grad where x > 0 else "
                                  "w grad, 0 where x > 0 else x grad)",
                      grad={"grad": "G_gx where x >= 0, else G_gx w + G_gw x",
                            "x": "0 where x >= 0, else grad G_gw",
                            "w": "0 where x >= 0, else grad G_gx"},
                      note="prelu's derivative as an operation of two outputs, recorded by a "
                           "backward with create_graph=True.")
    saves = {"grad_output": Input(0), "self": Input(1), "weight": Input(2)}

    def forward(self, grad, x, w):
        return list(prelu_kernel_backward(grad, x, w))

    def backward(self, saved, grad_gx=None, grad_gw=None):
        grad_output, x, w = saved.grad_output, saved.self, saved.weight
        nonnegative, needs_grad, needs_x, needs_w = x >= 0, *self.needs_input_grad
        grad_grad = _prelu_double_grad_output(grad_gx, grad_gw, x, w) if needs_grad else None
        grad_x = fn.where(nonnegative, fn.zeros((), x), grad_output * grad_gw) \
            if grad_gw is not None else fn.zeros(x.shape, x)
        grad_w = fn.where(nonnegative, fn.zeros((), w), grad_output * grad_gx) \
            if grad_gx is not None else fn.zeros(x.shape, x)
        return grad_grad, grad_x if needs_x else None, grad_w if needs_w else None


def _prelu_double_grad_output(grad_gx, grad_gw, x, w):
    """torch's: G_gx where x >= 0, else G_gx w (+ G_gw x) (C++'s right operands first)."""
    nonnegative = x >= 0
    if grad_gx is None:
        return fn.where(nonnegative, fn.zeros((), x), grad_gw * x)
    if grad_gw is None:
        return fn.where(nonnegative, grad_gx, grad_gx * w)
    slope = grad_gw * x
    return fn.where(nonnegative, grad_gx, grad_gx * w + slope)


def mish_backward(grad, x):
    """tanh(softplus(x)) + x sigmoid(x) (1 - tanh(softplus(x))**2)."""
    if not fn.is_tensor(grad):
        return kernels.mish_backward(grad, x)
    sigmoid = fn.sigmoid(x)  # (torch's infinitely_differentiable_mish_backward, op for op)
    t = pointwise.tanh(fn.log1p(fn.exp(x)))
    one_minus = fn.number_minus(1.0, t * t)  # (first: C++ evaluates the right operand first)
    return grad * (t + x * sigmoid * one_minus)


# The derivatives: on arrays as PyTorch's kernels compute them; on tensors (a backward
# with create_graph=True) by the formula, recorded so that it can be differentiated again.

# ---- the derivatives as operations (a backward with create_graph=True records them) --
# Each is linear in grad. For the piecewise-linear ones (leaky_relu, hardtanh, the shrinks,
# rrelu) the derivative with respect to x is 0 (PyTorch's derivatives.yaml): so a gradient
# taken through one still requires grad when only x does. elu's, softplus's and
# hardswish's have a second derivative in x, written with ops as PyTorch's
# FunctionsManual.cpp writes it (elu_double_backward, softplus_double_backward).

class LeakyReluBackwardBackward0(Node):
    formula = Formula("z", "(x > 0) grad + (x <= 0) negative_slope grad",
                      d={"grad": "1 if x > 0 else negative_slope", "x": "0"})
    saves = {"self": Input(1)}

    def forward(self, grad, x, negative_slope):
        self.save(negative_slope=negative_slope)
        return kernels.leaky_relu_backward(grad, x, negative_slope)

    def backward(self, saved, grad):
        return _mask_backward_grads(self, grad, leaky_relu_backward(grad, saved.self,
                                                                      saved.negative_slope))


class HardtanhBackwardBackward0(Node):
    formula = Formula("z", "(min_val < x < max_val) grad",
                      d={"grad": "0 if x <= min_val or x >= max_val, else 1", "x": "0"})
    saves = {"self": Input(1)}

    def forward(self, grad, x, min_val, max_val):
        self.save(min_val=min_val, max_val=max_val)
        return kernels.hardtanh_backward(grad, x, min_val, max_val)

    def backward(self, saved, grad):
        return _mask_backward_grads(self, grad, hardtanh_backward(grad, saved.self, saved.min_val,
                                                                    saved.max_val))


class GluBackwardBackward0(Node):
    formula = Formula("z", "glu_backward(grad, x): [grad s, grad a s (1 - s)], a and b the "
                           "halves of x along dim, s = sigmoid(b)",
                      grad={"grad": "the halves of G * glu_backward(ones, x) added",
                            "x": "torch's glu_double_backward: G's halves times grad and the "
                                 "second derivatives of a s"})
    saves = {"grad_output": Input(0), "self": Input(1)}

    def forward(self, grad, x, dim):
        self.save(dim=as_shown(dim), _dim=dim)
        return kernels.glu_backward(grad, x, dim)

    def backward(self, saved, grad):
        x, dim = saved.self, saved._dim
        grad_grad = glu_double_backward_grad_output(grad, x, dim) \
            if self.needs_input_grad[0] else None
        grad_x = glu_double_backward(grad, saved.grad_output, x, dim) \
            if self.needs_input_grad[1] else None
        return grad_grad, grad_x


class EluBackwardBackward0(Node):
    formula = Formula("z", "elu_backward(grad, x): grad * scale where x > 0, else grad * scale "
                           "alpha input_scale exp(input_scale x) (x: elu_'s result y, if "
                           "is_result: grad * input_scale (y + alpha scale))",
                      d={"grad": "elu's slope",
                         "x": "grad input_scale * (elu's slope, or 1 if is_result) where x < 0, "
                              "else 0"})
    saves = {"grad_output": Input(0), "self_or_result": Input(1)}

    def forward(self, grad, x, alpha, scale, input_scale, is_result):
        self.save(alpha=alpha, scale=scale, input_scale=input_scale, is_result=is_result)
        if is_result:
            return kernels.elu_backward_of_result(grad, x, alpha, scale, input_scale)
        return kernels.elu_backward(grad, x, alpha, scale, input_scale)

    def backward(self, saved, grad):
        x, constants = saved.self_or_result, (saved.alpha, saved.scale, saved.input_scale)
        grad_grad = elu_backward(grad, x, *constants, saved.is_result) \
            if self.needs_input_grad[0] else None
        grad_x = elu_double_backward(grad, saved.grad_output, x, *constants, saved.is_result) \
            if self.needs_input_grad[1] else None
        return grad_grad, grad_x


class SoftplusBackwardBackward0(Node):
    formula = Formula("z", "softplus_backward(grad, x) = grad sigmoid(beta x) (grad where "
                           "beta x > threshold)",
                      d={"grad": "sigmoid(beta x) (1 where beta x > threshold)",
                         "x": "grad beta sigmoid(beta x) (1 - sigmoid(beta x)) (0 where beta x "
                              ">= threshold)"})
    saves = {"grad_output": Input(0), "self": Input(1)}

    def forward(self, grad, x, beta, threshold):
        self.save(beta=beta, threshold=threshold)
        return kernels.softplus_backward(grad, x, beta, threshold)

    def backward(self, saved, grad):
        x, beta, threshold = saved.self, saved.beta, saved.threshold
        grad_grad = softplus_backward(grad, x, beta, threshold) \
            if self.needs_input_grad[0] else None
        grad_x = softplus_double_backward(grad * saved.grad_output, x, beta, threshold) \
            if self.needs_input_grad[1] else None
        return grad_grad, grad_x


class HardswishBackwardBackward0(Node):
    formula = Formula("z", "hardswish_backward(grad, x): 0 where x <= -3, grad (x / 3 + 1/2) "
                           "where x < 3, else grad",
                      d={"grad": "0, x / 3 + 1/2 or 1", "x": "grad / 3 where -3 < x < 3, else 0"})
    saves = {"grad_output": Input(0), "self": Input(1)}

    def forward(self, grad, x):
        return kernels.hardswish_backward(grad, x)

    def backward(self, saved, grad):
        x = saved.self
        grad_grad = hardswish_backward(grad, x) if self.needs_input_grad[0] else None
        grad_x = fn.where((x > -3.0) & (x < 3.0), grad * saved.grad_output / 3.0,
                          fn.zeros((), x)) if self.needs_input_grad[1] else None
        return grad_grad, grad_x


class HardshrinkBackwardBackward0(Node):
    formula = Formula("z", "hardshrink_backward(grad, x): grad where |x| > lambd, else 0",
                      d={"grad": "1 where |x| > lambd, else 0", "x": "0"})
    saves = {"self": Input(1)}

    def forward(self, grad, x, lambd):
        self.save(lambd=lambd)
        return kernels.shrink_backward(grad, x, lambd)

    def backward(self, saved, grad):
        return _mask_backward_grads(self, grad, shrink_backward(grad, saved.self, saved.lambd,
                                                                type(self)))


class SoftshrinkBackwardBackward0(HardshrinkBackwardBackward0):
    formula = Formula("z", "softshrink_backward(grad, x): grad where |x| > lambd, else 0",
                      d={"grad": "1 where |x| > lambd, else 0", "x": "0"})


class RreluWithNoiseBackwardBackward0(Node):
    formula = Formula("z", "rrelu_with_noise_backward(grad, x): grad * noise while training, "
                           "else grad where x > 0 and grad (lower + upper) / 2 elsewhere",
                      d={"grad": "noise (training), else 1 or (lower + upper) / 2", "x": "0"})
    saves = {"self": Input(1)}

    def forward(self, grad, x, noise, lower, upper, training):
        self.save(noise=noise, lower=lower, upper=upper, training=training)
        return rrelu_with_noise_backward(grad, x, noise, lower, upper, training)

    def backward(self, saved, grad):
        return _mask_backward_grads(self, grad, rrelu_with_noise_backward(
            grad, saved.self, saved.noise, saved.lower, saved.upper, saved.training))


def _mask_backward_grads(node, grad, grad_grad):
    """(the gradient for grad, zeros for x), as the node's inputs need them."""
    return (grad_grad if node.needs_input_grad[0] else None,
            fn.zeros(grad.shape, grad) if node.needs_input_grad[1] else None)


def leaky_relu_backward(grad, x, negative_slope):
    """grad where x > 0, else grad * negative_slope (float16's in float32)."""
    if not fn.is_tensor(grad):
        return kernels.leaky_relu_backward(grad, x, negative_slope)
    return LeakyReluBackwardBackward0.apply(grad, x, negative_slope=negative_slope)


def hardtanh_backward(grad, x, min_val, max_val):
    """grad where min_val < x < max_val, else 0 (torch's test: a NaN is inside, so its
    gradient passes)."""
    if not fn.is_tensor(grad):
        return kernels.hardtanh_backward(grad, x, min_val, max_val)
    return HardtanhBackwardBackward0.apply(grad, x, min_val=min_val, max_val=max_val)


def hardswish_backward(grad, x):
    """0 where x <= -3, grad * (x / 3 + 1/2) where x < 3, else grad."""
    if not (fn.is_tensor(grad) or fn.is_tensor(x)):
        return kernels.hardswish_backward(grad, x)
    return HardswishBackwardBackward0.apply(grad, x)


def hardsigmoid_backward(grad, x):
    """grad * 1/6 where -3 < x < 3 (float32's 1/6, as torch's 1.0f / 6.0f), else 0.
    PyTorch has no derivative for it: recorded, a NotImplemented node."""
    value = kernels.hardsigmoid_backward(fn.as_array(grad), fn.as_array(x))
    if not (fn.is_tensor(grad) or fn.is_tensor(x)):
        return value
    return rounding.NotImplemented.apply(grad, x, operation="hardsigmoid_backward", value=value)


def elu_backward(grad, x, alpha, scale, input_scale, is_result=False):
    """grad * scale * alpha * input_scale * exp(input_scale * x) where x <= 0, else grad *
    scale (a NaN too, as torch's elu_backward); from the result y of elu_ when
    ``is_result``."""
    if fn.is_tensor(grad) or fn.is_tensor(x):
        return EluBackwardBackward0.apply(grad, x, alpha=alpha, scale=scale,
                                          input_scale=input_scale, is_result=is_result)
    if is_result:
        return kernels.elu_backward_of_result(grad, x, alpha, scale, input_scale)
    return kernels.elu_backward(grad, x, alpha, scale, input_scale)


def elu_double_backward(grad, grad_output, x, alpha, scale, input_scale, is_result):
    """d/dx of elu_backward(grad_output, x), times grad: 0 where x >= 0; where x < 0,
    grad * grad_output * input_scale times elu's slope (times 1 from the result y)."""
    scaled = grad * grad_output * input_scale
    if not is_result:
        scaled = elu_backward(scaled, x, alpha, scale, input_scale)
    return scaled * fn.type_as(x < 0, grad)


def softplus_backward(grad, x, beta, threshold):
    """sigmoid(beta x) = z / (z + 1) with z = exp(beta x); 1 where beta x > threshold."""
    if not (fn.is_tensor(grad) or fn.is_tensor(x)):
        return kernels.softplus_backward(grad, x, beta, threshold)
    return SoftplusBackwardBackward0.apply(grad, x, beta=beta, threshold=threshold)


def softplus_double_backward(grad, x, beta, threshold):
    """d/dx of softplus_backward, times grad: beta * sigmoid'(beta x) where beta x <
    threshold, else 0 (torch's softplus_double_backward, op for op)."""
    scaled = x * beta
    return fn.sigmoid_backward(grad, fn.sigmoid(scaled)) * fn.type_as(scaled < threshold, grad) \
        * beta


def rrelu_with_noise_backward(grad, x, noise, lower, upper, training):
    """grad * noise while training, else leaky_relu's derivative with the mean slope."""
    if fn.is_tensor(grad) or fn.is_tensor(x):
        return RreluWithNoiseBackwardBackward0.apply(grad, x, noise=fn.as_array(noise),
                                                     lower=lower, upper=upper,
                                                     training=training)
    if training:
        return grad * noise
    return kernels.leaky_relu_backward(grad, x, (lower + upper) / 2)


def glu_backward(grad, x, dim):
    """G sigmoid(b) for the first half a, G a sigmoid(b) (1 - sigmoid(b)) for b."""
    if not (fn.is_tensor(grad) or fn.is_tensor(x)):
        return kernels.glu_backward(grad, x, dim)
    return GluBackwardBackward0.apply(grad, x, dim=dim)


def glu_double_backward_grad_output(grad, x, dim):
    """The two halves of grad * glu_backward(ones, x) added (torch's
    glu_double_backward_grad_output)."""
    dim = normalize_dim(dim, x.ndim)
    half = x.shape[dim] // 2
    sizes = tuple(half if d == dim else size for d, size in enumerate(x.shape))
    both = grad * glu_backward(fn.ones(sizes, x), x, dim)
    second = fn.narrow(both, dim, half, half)  # (first: C++ evaluates the right operand first)
    return fn.narrow(both, dim, 0, half) + second


def glu_double_backward(grad, grad_output, x, dim):
    """d/dx of glu_backward(grad_output, x), times grad, op for op as torch's
    glu_double_backward (a, b: x's halves; s = sigmoid(b); C++'s right operands first)."""
    half = x.shape[dim] // 2
    a, b = fn.narrow(x, dim, 0, half), fn.narrow(x, dim, half, half)
    s = fn.sigmoid(b)
    one_minus_s = fn.number_minus(1, s)
    s_one_minus_s = s * one_minus_s
    grad_a, grad_b = fn.narrow(grad, dim, 0, half), fn.narrow(grad, dim, half, half)
    grad_b_a = grad_b * a
    first = grad_b * grad_output * s_one_minus_s
    curvature = s * s_one_minus_s
    curvature = s_one_minus_s * one_minus_s - curvature
    second = grad_a * grad_output * s_one_minus_s
    second = grad_b_a * grad_output * curvature + second
    return fn.cat([first, second], dim)


def silu_backward(grad, x):
    """sigmoid(x) (1 + x (1 - sigmoid(x))) (torch's infinitely_differentiable_silu_backward
    on tensors)."""
    if not fn.is_tensor(grad):
        return kernels.silu_backward(grad, x)
    sigmoid = fn.sigmoid(x)
    inner = 1 + x * fn.number_minus(1.0, sigmoid)  # (first: C++ evaluates the right operand first)
    return grad * sigmoid * inner


def _check_float(x, name: str) -> None:
    if not x.dtype.is_floating_point:
        raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format(
            name, dtypes.SCALAR_NAMES[x.dtype]))


def leaky_relu(x, negative_slope=0.01, saving_result=False):
    _check_float(x, "leaky_relu_cpu")
    check_opmath_scalars(x.dtype, negative_slope)
    node = LeakyReluBackward1 if saving_result else LeakyReluBackward0
    return with_unary_layout(node.apply(x, negative_slope=negative_slope), x)


def rrelu(x, lower, upper, training, gen, saving_result=False):
    """leaky_relu with a random slope in [lower, upper] for each element <= 0 while
    training (drawn from ``gen`` as PyTorch draws them), the mean slope otherwise."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        _check_float(x, "leaky_relu_cpu")
        noise = np.zeros(x.shape, x._data.dtype)  # (PyTorch's: an empty tensor, unread)
    else:
        if x.dtype not in (dtypes.float32, dtypes.float64):
            raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format(
                "rrelu_with_noise_out_cpu", dtypes.SCALAR_NAMES[x.dtype]))
        noise = random_kernels.rrelu_noise(gen, x._data, lower, upper)
    node = RreluWithNoiseBackward1 if saving_result else RreluWithNoiseBackward0
    return with_unary_layout(node.apply(x, noise=noise, lower=lower, upper=upper,
                                        training=training), x)


def elu(x, alpha=1.0, scale=1, input_scale=1, saving_result=False):
    _check_float(x, "elu_cpu")
    check_opmath_scalars(x.dtype, alpha, scale, input_scale)
    node = EluBackward1 if saving_result else EluBackward0
    return with_unary_layout(node.apply(x, alpha=alpha, scale=scale, input_scale=input_scale), x)


def softplus(x, beta=1, threshold=20):
    _check_float(x, "softplus_cpu")
    check_opmath_scalars(x.dtype, beta, threshold)
    return with_unary_layout(SoftplusBackward0.apply(x, beta=beta, threshold=threshold), x)


def glu(x, dim=-1):
    """a * sigmoid(b) for the halves a, b of ``x`` along ``dim`` (the gated linear unit)."""
    if x.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    axis = normalize_dim(dim, x.ndim)
    if x.shape[axis] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {axis} is size "
                           f"{x.shape[axis]}")
    _check_float(x, "glu_cpu")
    return GluBackward0.apply(x, dim=dim)


def silu(x):
    _check_float(x, "silu_cpu")
    return with_unary_layout(SiluBackward0.apply(x), x)


def _check_hardtanh(x, min_val, max_val) -> None:
    """PyTorch's checks: no bools, no negative limits for an unsigned type, limits that
    fit the dtype."""
    if x.dtype == dtypes.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if x.dtype == dtypes.uint8 and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    for limit in (min_val, max_val):
        checked_fill_value(limit, x.dtype)


def hardtanh(x, min_val=-1.0, max_val=1.0):
    _check_hardtanh(x, min_val, max_val)
    return with_unary_layout(HardtanhBackward0.apply(x, min_val=min_val, max_val=max_val), x)


def celu(x, alpha=1.0, saving_result=False):
    _check_float(x, "elu_cpu")
    check_opmath_scalars(x.dtype, alpha)
    node = CeluBackward1 if saving_result else CeluBackward0
    return with_unary_layout(node.apply(x, alpha=alpha), x)


def mish(x):
    _check_float(x, "mish_cpu")
    return with_unary_layout(MishBackward0.apply(x), x)


def hardswish(x):
    _check_float(x, "hardswish_cpu")
    return with_unary_layout(HardswishBackward0.apply(x), x)


def hardsigmoid(x):
    _check_float(x, "hardsigmoid_cpu")
    return with_unary_layout(HardsigmoidBackward0.apply(x), x)


def threshold(x, threshold, value, in_place=False):
    check_opmath_scalars(x.dtype, threshold, value)
    node = ThresholdBackward1 if in_place else ThresholdBackward0
    return with_unary_layout(node.apply(x, threshold=threshold, value=value), x)


def hardshrink(x, lambd=0.5):
    _check_float(x, "hardshrink_cpu")
    return with_unary_layout(HardshrinkBackward0.apply(x, lambd=lambd), x)


def softshrink(x, lambd=0.5):
    _check_float(x, "softshrink_check")
    if lambd < 0:  # (C++'s default output of the dtype's largest value: 6 digits)
        largest = float(np.finfo(x.dtype.numpy).max)
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype "
                           f"{dtypes.SCALAR_NAMES[x.dtype]}, but found {lambd:g}")
    return with_unary_layout(SoftshrinkBackward0.apply(x, lambd=lambd), x)


def prelu(x, weight):
    return PreluKernelBackward0.apply(x, weight, cast_to=x.dtype)
