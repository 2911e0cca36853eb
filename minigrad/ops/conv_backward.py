"""A convolution's derivative as an operation, and that operation's own derivative.

A backward with create_graph=True records PyTorch's ``convolution_backward`` as one node
of three outputs, ``ConvolutionBackwardBackward0`` (the gradients of the input, the
weight and the bias, each linear in G). Its backward is PyTorch's
``_convolution_double_backward``, made of convolutions again: for y = conv(x, w) + b and
the first derivative's outputs receiving ggI, ggW, ggb,

    grad_output: conv(ggI, w) + conv(x, ggW) + ggb   (the forward, once per input)
    weight:      ggI correlated with G               (conv of ggI^T with G^T, stride and
                                                      dilation swapped, group by group)
    input:       ggW convolved back with G           (a transposed convolution)

each recorded as a ConvolutionBackward0, in PyTorch's order. (transposed=True swaps
the roles, as in the forward.)
"""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..kernels import conv as kernels
from ..rules import conv as rules
from . import conv, fn
from .linalg_module import several_outputs

__all__ = ["convolution_backward", "ConvolutionBackwardBackward0"]


def convolution_backward(grad, x, w, given, geometry, transposed, output_padding, needs):
    """The convolution's three gradients (None where not needed): on arrays as the kernels
    compute them; on tensors the outputs of one ConvolutionBackwardBackward0 node."""
    rules.check_output_padding(transposed, output_padding)
    if not fn.is_tensor(grad):
        return _kernel_grads(grad, x, w, geometry, transposed, needs)
    grads = several_outputs(ConvolutionBackwardBackward0, (grad, x, w), {
        "given": given, "geometry": geometry, "transposed": transposed,
        "output_padding": output_padding, "needs": needs})
    return tuple(g if need else None for g, need in zip(grads, needs))


def _kernel_grads(grad, x, w, geometry, transposed, needs) -> tuple:
    """(dx, dw, db) on arrays, None where not needed (transposed: dx is a convolution of
    grad with w, and dw correlates grad with x: the roles swap)."""
    grad_x = grad_w = grad_b = None
    if needs[0] and transposed:
        grad_x = kernels.convolution(grad, w, None, *geometry)
    elif needs[0]:
        grad_x = kernels.convolution_input_grad(grad, w, x.shape, *geometry)
    if needs[1]:
        pair = (grad, x) if transposed else (x, grad)
        grad_w = kernels.convolution_weight_grad(*pair, w.shape, *geometry)
    if needs[2]:
        grad_b = fn.sum(grad, (0, *range(2, grad.ndim)))
    return grad_x, grad_w, grad_b


class ConvolutionBackwardBackward0(Node):
    formula = Formula("(gx, gw, gb)", "convolution_backward(grad, x, w): the convolution's "
                                      "three gradients, each linear in grad",
                      grad={"grad_output": "conv(G_gx, w) + conv(x, G_gw) + G_gb",
                            "input": "G_gw convolved back with grad (a transposed convolution)",
                            "weight": "G_gx correlated with grad"},
                      note="the convolution's derivative as an operation, recorded by a "
                           "backward with create_graph=True; its backward is PyTorch's "
                           "_convolution_double_backward (ops/conv_backward.py). A gradient "
                           "nobody needs is an empty placeholder, never sent a gradient.")
    saves = {"grad_output": Input(0), "input": Input(1), "weight": Input(2)}

    def forward(self, grad, x, w, given, geometry, transposed, output_padding, needs):
        self.save(**given, transposed=transposed, output_padding=output_padding,
                  groups=geometry[-1], _geometry=geometry)
        return [np.zeros(0, grad.dtype) if g is None else g
                for g in _kernel_grads(grad, x, w, geometry, transposed, needs)]

    def backward(self, saved, ggI=None, ggW=None, ggb=None):
        grads = convolution_double_backward(ggI, ggW, ggb, saved.grad_output, saved.weight,
                                            saved.input, saved._geometry, saved.transposed,
                                            saved.output_padding)
        return tuple(g if need else None for g, need in zip(grads, self.needs_input_grad))


def _convolution(x, w, stride, padding, dilation, transposed, output_padding, groups):
    """at::convolution(x, w) without a bias: a ConvolutionBackward0 on tensors."""
    if not fn.is_tensor(x):
        return kernels.convolution(x, w, None, stride, padding, dilation, groups,
                                   output_padding=output_padding if transposed else None)
    given = dict(stride=tuple(stride), padding=tuple(padding), dilation=tuple(dilation))
    return conv.ConvolutionBackward0.apply(
        x, w, None, geometry=(stride, padding, dilation, groups), given=given,
        output_padding=tuple(output_padding), transposed=transposed)


def _narrowed(t, shape):
    """t's spatial dims cut to ``shape``'s where longer (a narrow: SliceBackward0)."""
    for i in range(2, t.ndim):
        if t.shape[i] > shape[i]:
            t = fn.narrow(t, i, 0, shape[i])
    return t


def convolution_double_backward(ggI, ggW, ggb, gO, weight, x, geometry, transposed,
                                output_padding) -> tuple:
    """(ggO, gI, gW): the gradients of convolution_backward's outputs (which received
    ggI, ggW, ggb) with respect to grad_output, input and weight (None where nothing
    flows), op for op as PyTorch's _convolution_double_backward."""
    stride, padding, dilation, groups = geometry
    ggO = None
    if ggI is not None:
        ggO = _convolution(ggI, weight, stride, padding, dilation, transposed,
                           output_padding, groups)
    if ggW is not None:
        term = _convolution(x, ggW, stride, padding, dilation, transposed, output_padding,
                            groups)
        ggO = term if ggO is None else ggO + term
    if ggb is not None:
        shape = [1] * gO.ndim
        shape[1] = ggb.shape[0]
        term = fn.expand(fn.reshape(ggb, shape), gO.shape)
        ggO = term if ggO is None else ggO + term
    gW = None if ggI is None else _weight_term(ggI, gO, weight, geometry, transposed,
                                               output_padding)
    gI = None if ggW is None else _input_term(ggW, gO, weight, x, geometry, transposed,
                                              output_padding)
    return ggO, gI, gW


def _weight_term(ggI, gO, weight, geometry, transposed, output_padding):
    """ggI correlated with G: per group, a convolution of the batch-transposed tensors
    with stride and dilation swapped, then transposed back and cut to the weight."""
    stride, padding, dilation, groups = geometry
    if not fn.is_tensor(gO):  # (nothing recorded: the same sums as the weight's gradient
        pair = (gO, ggI) if transposed else (ggI, gO)  # kernel, not a convolution by G)
        return kernels.convolution_weight_grad(*pair, weight.shape, *geometry)
    gOt, ggIt = fn.transpose(gO, 0, 1), fn.transpose(ggI, 0, 1)

    def correlated(ggIt, gOt):
        pair = (gOt, ggIt) if transposed else (ggIt, gOt)
        return _convolution(*pair, dilation, padding, stride, False, output_padding, 1)
    if groups == 1:
        gWt = correlated(ggIt, gOt)
    else:
        n, m = ggIt.shape[0] // groups, gOt.shape[0] // groups
        gWt = fn.cat([correlated(fn.narrow(ggIt, 0, g * n, n), fn.narrow(gOt, 0, g * m, m))
                      for g in range(groups)], 1)
    return _narrowed(fn.transpose(gWt, 0, 1), weight.shape)


def _input_term(ggW, gO, weight, x, geometry, transposed, output_padding):
    """ggW convolved back with G: a transposed convolution whose output_padding makes it
    the input's size (of a transposed convolution: a convolution, cut to the input)."""
    stride, padding, dilation, groups = geometry
    if transposed:
        gI = _convolution(gO, ggW, stride, padding, dilation, False, output_padding, groups)
        return _narrowed(gI, x.shape)
    if not fn.is_tensor(gO):  # (nothing recorded: the input's gradient kernel, the same sums)
        return kernels.convolution_input_grad(gO, ggW, x.shape, *geometry)
    extra = list(output_padding)
    for i, (k, size, out) in enumerate(zip(weight.shape[2:], x.shape[2:], gO.shape[2:])):
        expected = (out - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k - 1) + 1
        if expected != size:
            extra[i] = size - expected
    return _convolution(gO, ggW, stride, padding, dilation, True, tuple(extra), groups)
