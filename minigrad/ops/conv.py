"""Convolution and pooling, as PyTorch records them: ``ConvolutionBackward0`` (every
``conv1d``/``conv2d``, and ``conv_transpose1d``/``2d``/``3d`` with transposed=True),
``MaxPool2DWithIndicesBackward0``, ``AvgPool2DBackward0``, ``AdaptiveAvgPool2DBackward0`` and
``AdaptiveMaxPool2DBackward0`` and their ``3D`` twins (one more spatial dim, the same math),
``MaxUnpool2DBackward0``/``3D`` (max pooling partly undone); the windows as columns and back
(``Im2ColBackward0``, ``Col2ImBackward0``: F.unfold and F.fold) and padding
(``ConstantPadNdBackward0``).
Arrays are (N, C, *spatial); ``stride``, ``padding`` and ``dilation`` are tuples with
one int per spatial dim. The pooling backwards are linear in the gradient, so with
create_graph=True they are recorded as nodes of their own (``...BackwardBackward0``),
whose backward is the pooling again (or, for max pooling, a gather).

A convolution is linear in its input and in its weight, so each gradient is the
same sum read the other way round: for y = conv(x, w),

    dL/dx = G convolved back with w (a transposed convolution: each output's gradient
            times the weight, added to every input its window read)
    dL/dw = x correlated with G (each weight element meets the inputs it multiplied)
    dL/db = the sum of G over the batch and the positions.

With create_graph=True the three gradients are one node, ConvolutionBackwardBackward0,
whose own backward is made of convolutions again (``ops/conv_backward.py``).

The windows and matrix products live in ``kernels/conv.py``; the argument checks,
with PyTorch's texts, in ``rules/conv.py``; ``nn.functional`` turns the learner's
arguments (ints, 'same', 1-D inputs) into these calls.
"""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Node, Input
from ..autograd.tensor_base import make
from ..kernels import conv as kernels
from ..kernels.layout import in_input_format
from ..rules import conv as rules
from ..rules.conversion import checked_fill_value
from . import conv_backward, fn
from ._saved import as_shown

__all__ = ["unfold", "fold", "constant_pad", "convolution", "conv_transpose", "max_pool",
           "max_unpool", "avg_pool", "adaptive_avg_pool", "adaptive_max_pool"]


class ConvolutionBackward0(Node):
    formula = Formula("y[n, o, i]",
                      "bias[o] + sum_{c, k} weight[o, c, k] * input[n, c, stride i + dilation k "
                      "- padding]",
                      grad={"input": "G convolved back with weight (a transposed convolution)",
                            "weight": "sum_{n, i} G[n, o, i] input[n, c, stride i + dilation k "
                                      "- padding] (input correlated with G)",
                            "bias": "sum_{n, i} G[n, o, i]"},
                      note="c runs over o's group's channels. transposed=True: y is a "
                           "convolution's input-gradient, and input's gradient a convolution.")
    saves = {"input": Input(0), "weight": Input(1)}

    def forward(self, x, weight, bias, geometry, given, output_padding=None, transposed=None):
        # (``given``: stride, padding and dilation as the call gave them, which torch shows;
        # an output_padding with transposed=False is kept, and refused by backward, as torch)
        transposed = output_padding is not None if transposed is None else transposed
        self.save(**given, transposed=transposed, output_padding=output_padding or
                  (0,) * (x.ndim - 2), groups=geometry[-1], _geometry=geometry,
                  bias_sym_sizes_opt=(0,) if bias is None else bias.shape)
        return kernels.in_suggested_format(kernels.convolution(
            x, weight, bias, *geometry, output_padding=output_padding if transposed else None),
            x, weight)

    def backward(self, saved, grad):
        given = dict(stride=saved.stride, padding=saved.padding, dilation=saved.dilation)
        return conv_backward.convolution_backward(
            grad, saved.input, saved.weight, given, saved._geometry, saved.transposed,
            saved.output_padding, self.needs_input_grad)


class MaxPool2DWithIndicesBackward0(Node):
    formula = Formula("y[n, c, i]", "max of self[n, c, window i]",
                      grad={"self": "G[n, c, i] at the element window i chose, 0 elsewhere"},
                      note="Also returns the indices (h * W + w) of the chosen elements.")
    saves = {"self": Input(0)}
    spatial = 2

    def forward(self, x, kernel_size, stride, padding, dilation, ceil_mode, shown_stride):
        values, self.indices = (in_input_format(a, x, volumes=True) for a in kernels.max_pool(
            x, kernel_size, stride, padding, dilation, ceil_mode))
        self.save(kernel_size=kernel_size, stride=shown_stride, padding=padding,
                  dilation=dilation, ceil_mode=ceil_mode, result1=self.indices)
        return values

    def backward(self, saved, grad):
        return fn.max_pool_backward(grad, saved.self, saved.result1, self.spatial)


class MaxPool3DWithIndicesBackward0(MaxPool2DWithIndicesBackward0):
    formula = Formula("y[n, c, t, i, j]", "max of self[n, c, window (t, i, j)]",
                      grad={"self": "G[n, c, t, i, j] at the element the window chose, 0 "
                                    "elsewhere"},
                      note="Also returns the indices (t * H * W + h * W + w).")
    spatial = 3


class MaxPool2DWithIndicesBackwardBackward0(Node):
    formula = Formula("g", "G' added at the element each window chose (max pooling's backward)",
                      grad={"grad_output": "G read at the chosen elements (a gather)",
                            "self": "zeros (the choice is flat)"},
                      note="How max pooling's backward is recorded with create_graph=True.")
    spatial = 2

    def forward(self, grad, x, indices):
        self.save(indices=indices, _self_sizes=x.shape)
        return kernels.max_pool_backward(grad, indices, x.shape, self.spatial)

    def backward(self, saved, grad):
        return (fn.max_pool_gather(grad, saved.indices, self.spatial),
                fn.zeros(saved._self_sizes, grad))


class MaxPool3DWithIndicesBackwardBackward0(MaxPool2DWithIndicesBackwardBackward0):
    spatial = 3


class MaxUnpool2DBackward0(Node):
    formula = Formula("y[n, c, indices[n, c, i]]", "self[n, c, i] (zeros elsewhere)",
                      grad={"self": "G read at indices (a gather)"},
                      note="F.max_unpool2d: max pooling partly undone, from its indices.")
    spatial = 2

    def forward(self, x, indices, output_size):
        self.save(indices=indices)
        return in_input_format(kernels.max_unpool(x, indices, output_size), x)

    def backward(self, saved, grad):
        return fn.max_pool_gather(grad, saved.indices, self.spatial)


class MaxUnpool3DBackward0(MaxUnpool2DBackward0):
    formula = Formula("y[n, c, indices[n, c, i]]", "self[n, c, i] (zeros elsewhere)",
                      grad={"self": "G read at indices (a gather)"},
                      note="F.max_unpool3d (indices t * H * W + h * W + w).")
    spatial = 3


class AvgPool2DBackward0(Node):
    formula = Formula("y[n, c, i]", "sum of self[n, c, window i] / divisor[i]",
                      grad={"self": "G[n, c, i] / divisor[i] added to each element of window i"},
                      note="divisor: the window's size (count_include_pad) or its elements "
                           "inside the input, or divisor_override.")
    saves = {"self": Input(0)}

    def forward(self, x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                divisor_override, shown_stride):
        divisors = kernels.pool_divisors(x.shape[-len(kernel_size):], kernel_size, stride,
                                         padding, ceil_mode, count_include_pad, divisor_override)
        shown = dict(kernel_size=kernel_size, stride=shown_stride, padding=padding,
                     ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                     divisor_override=divisor_override)
        geometry = (kernel_size, stride, padding, ceil_mode)
        self.save(**shown, _geometry=geometry, _divisors=divisors, _shown=shown)
        return in_input_format(kernels.avg_pool(x, *geometry, divisors), x)

    def backward(self, saved, grad):
        return fn.avg_pool_backward(grad, saved.self, saved._geometry, saved._divisors,
                                    saved._shown)


class AvgPool3DBackward0(AvgPool2DBackward0):
    formula = Formula("y[n, c, t, i, j]", "sum of self[n, c, window (t, i, j)] / divisor",
                      grad={"self": "G[n, c, t, i, j] / divisor added to each element of the "
                                    "window"},
                      note="divisor as AvgPool2DBackward0's, with one more dim.")


class AvgPool2DBackwardBackward0(Node):
    formula = Formula("g", "G' / divisor spread over each window (average pooling's backward)",
                      grad={"grad_output": "avg_pool2d(G)",
                            "self": "zeros (g does not depend on it)"},
                      note="How average pooling's backward is recorded with create_graph=True.")

    def forward(self, grad, x, geometry, divisors, shown):
        self.save(**shown, _geometry=geometry, _divisors=divisors, _shown=shown,
                  _self_sizes=x.shape)
        return kernels.avg_pool_backward(grad, x.shape, *geometry[:3], divisors)

    def backward(self, saved, grad):
        return (fn.avg_pool(grad, saved._geometry, saved._divisors, saved._shown),
                fn.zeros(saved._self_sizes, grad))


class AvgPool3DBackwardBackward0(AvgPool2DBackwardBackward0):
    pass


class AdaptiveAvgPool2DBackward0(Node):
    formula = Formula("y[n, c, i, j]", "mean of self[n, c, rows(i), cols(j)]",
                      grad={"self": "G[n, c, i, j] / count(i, j) added to each element averaged"},
                      note="rows(i) = [floor(i H / h), ceil((i + 1) H / h)), cols alike.")
    saves = {"self": Input(0)}
    spatial = 2

    def forward(self, x, output_size):
        return in_input_format(kernels.adaptive_avg_pool(x, output_size), x)

    def backward(self, saved, grad):
        return fn.adaptive_avg_pool_backward(grad, saved.self, self.spatial)


class AdaptiveAvgPool3DBackward0(AdaptiveAvgPool2DBackward0):
    formula = Formula("y[n, c, t, i, j]", "mean of self[n, c, frames(t), rows(i), cols(j)]",
                      grad={"self": "G[n, c, t, i, j] / count added to each element averaged"},
                      note="frames(t) = [floor(t D / d), ceil((t + 1) D / d)), rows and cols "
                           "alike.")
    spatial = 3


class AdaptiveAvgPool2DBackwardBackward0(Node):
    formula = Formula("g", "G' / count spread over each region (adaptive pooling's backward)",
                      grad={"grad_output": "adaptive_avg_pool2d(G)",
                            "self": "zeros (g does not depend on it)"},
                      note="How adaptive average pooling's backward is recorded with "
                           "create_graph=True.")
    spatial = 2

    def forward(self, grad, x):
        sizes = {f"grad_output_sym_argsize_minus_{k}": grad.shape[-k]
                 for k in range(1, self.spatial + 1)}
        self.save(**sizes, _self_sizes=x.shape, _size=grad.shape[-self.spatial:])
        return kernels.adaptive_avg_pool_backward(grad, x.shape, self.spatial)

    def backward(self, saved, grad):
        return fn.adaptive_avg_pool(grad, saved._size), fn.zeros(saved._self_sizes, grad)


class AdaptiveAvgPool3DBackwardBackward0(AdaptiveAvgPool2DBackwardBackward0):
    spatial = 3


class ConstantPadNdBackward0(Node):
    formula = Formula("y", "self with pad[0] values of `value` before its last dim, pad[1] "
                      "after, pad[2] before the dim before, ...",
                      grad={"self": "G without the padding (padded by -pad)"})

    def forward(self, x, pad, value):
        self.save(pad=as_shown(pad), _pad=pad)  # (negative widths shown as C++'s unsigned)
        return in_input_format(kernels.constant_pad(x, pad, value), x, volumes=True)

    def backward(self, saved, grad):
        return fn.constant_pad(grad, tuple(-width for width in saved._pad))


class Im2ColBackward0(Node):
    formula = Formula("cols[n, (c, k), i]", "self[n, c, stride i + dilation k - padding]",
                      grad={"self": "fold(G): each column added back where its window lies"},
                      note="F.unfold: every kernel_size window as a column.")

    def forward(self, x, kernel_size, dilation, padding, stride):
        self.save(dilation=dilation, kernel_size=kernel_size, padding=padding, stride=stride,
                  self_sym_argsize_minus_1=x.shape[-1], self_sym_argsize_minus_2=x.shape[-2])
        return kernels.im2col(x, kernel_size, dilation, padding, stride)

    def backward(self, saved, grad):
        size = (saved.self_sym_argsize_minus_2, saved.self_sym_argsize_minus_1)
        return fn.col2im(grad, size, saved.kernel_size, saved.dilation, saved.padding,
                         saved.stride)


class Col2ImBackward0(Node):
    formula = Formula("y[n, c, h, w]", "sum of the column entries whose window covers (h, w)",
                      grad={"self": "unfold(G): each window of G as a column"},
                      note="F.fold, the adjoint of F.unfold.")

    def forward(self, cols, output_size, kernel_size, dilation, padding, stride):
        self.save(dilation=dilation, kernel_size=kernel_size, padding=padding, stride=stride)
        return kernels.col2im(cols, output_size, kernel_size, dilation, padding, stride)

    def backward(self, saved, grad):
        return fn.im2col(grad, saved.kernel_size, saved.dilation, saved.padding, saved.stride)


def unfold(x, kernel_size, dilation, padding, stride):
    rules.check_unfold(x, kernel_size, dilation, padding, stride)
    rules.check_dtype(x, "im2col_out_cpu")
    return Im2ColBackward0.apply(x, kernel_size=kernel_size, dilation=dilation, padding=padding,
                                 stride=stride)


def fold(x, output_size, kernel_size, dilation, padding, stride):
    rules.check_fold(x, output_size, kernel_size, dilation, padding, stride)
    rules.check_dtype(x, "col2im_out_cpu")
    return Col2ImBackward0.apply(x, output_size=output_size, kernel_size=kernel_size,
                                 dilation=dilation, padding=padding, stride=stride)


def constant_pad(x, pad, value=0):
    """F.pad(x, pad, value=value) with mode='constant'."""
    rules.check_pad(x, pad)
    rules.check_cropping(x, pad)
    value = checked_fill_value(float(value) if x.dtype.is_floating_point else value, x.dtype)
    return ConstantPadNdBackward0.apply(x, pad=tuple(pad), value=value)


def convolution(x, weight, bias, stride, padding, dilation, groups):
    """conv1d / conv2d / conv3d for batched input (N, C, *spatial), tuples per dim (one
    value stands for all dims)."""
    given = dict(stride=tuple(stride), padding=tuple(padding), dilation=tuple(dilation))
    stride, padding, dilation = (rules.one_per_dim(v, weight.ndim - 2)
                                 for v in (stride, padding, dilation))
    rules.check_convolution(x, weight, bias, stride, padding, dilation, groups)
    rules.check_dtype(x, rules.convolution_kernel(weight, dilation))
    return ConvolutionBackward0.apply(x, weight, bias, geometry=(stride, padding, dilation, groups),
                                      given=given)


def conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups):
    """conv_transpose1d / 2d for batched input (N, C_in, *spatial), weight (C_in,
    C_out / groups, *kernel): ConvolutionBackward0 with transposed=True, as PyTorch."""
    given = dict(stride=tuple(stride), padding=tuple(padding), dilation=tuple(dilation))
    stride, padding, output_padding, dilation = (
        rules.one_per_dim(v, weight.ndim - 2) for v in (stride, padding, output_padding, dilation))
    rules.check_conv_transpose(x, weight, bias, stride, padding, output_padding, dilation, groups)
    rules.check_dtype(x, "slow_conv_transpose3d_out_cpu" if weight.ndim == 5 else
                      "slow_conv_transpose2d_out_cpu")
    return ConvolutionBackward0.apply(x, weight, bias, geometry=(stride, padding, dilation, groups),
                                      given=given, output_padding=output_padding)


def max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, shown_stride,
             return_indices=False):
    """2-D or 3-D max pooling (``kernel_size``'s length) of (C, *spatial) or (N, C, *spatial);
    with ``return_indices``, (values, indices), the chosen elements' indices in the flattened
    plane (h * W + w; t * H * W + h * W + w) as int64."""
    spatial = len(kernel_size)
    rules.check_pool(x, kernel_size, stride, padding, dilation, ceil_mode)
    rules.check_dtype(x, f"max_pool{spatial}d")
    node = MaxPool2DWithIndicesBackward0 if spatial == 2 else MaxPool3DWithIndicesBackward0
    values = node.apply(x, kernel_size=kernel_size, stride=stride, padding=padding,
                        dilation=dilation, ceil_mode=ceil_mode, shown_stride=shown_stride)
    if not return_indices:
        return values
    if values.grad_fn is not None:
        indices = values.grad_fn.indices
    else:  # (not recorded: the node is gone, so ask the kernel again)
        indices = kernels.max_pool(x._data, kernel_size, stride, padding, dilation, ceil_mode)[1]
    return values, make(indices)


def max_unpool(x, indices, output_size):
    """F.max_unpool2d / 3d (``output_size``'s length) of (C, *spatial) or (N, C, *spatial)."""
    spatial = len(output_size)
    rules.check_unpool(x, indices, output_size)
    node = MaxUnpool2DBackward0 if spatial == 2 else MaxUnpool3DBackward0
    return node.apply(x, indices=indices._data, output_size=tuple(output_size))


def avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override,
             shown_stride):
    """2-D or 3-D average pooling (``kernel_size``'s length)."""
    spatial = len(kernel_size)
    rules.check_pool(x, kernel_size, stride, padding, (1,) * spatial, ceil_mode, "avg")
    rules.check_dtype(x, "avg_pool2d" if spatial == 2 else "avg_pool3d_out_frame")
    node = AvgPool2DBackward0 if spatial == 2 else AvgPool3DBackward0
    return node.apply(
        x, kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
        count_include_pad=count_include_pad, divisor_override=divisor_override,
        shown_stride=shown_stride)


class AdaptiveMaxPool2DBackwardBackward0(MaxPool2DWithIndicesBackwardBackward0):
    formula = Formula("g", "G' added at the element each window chose (adaptive max "
                           "pooling's backward)",
                      grad={"grad_output": "G read at the chosen elements (a gather)",
                            "self": "zeros (the choice is flat)"},
                      note="How adaptive max pooling's backward is recorded with "
                           "create_graph=True.")


class AdaptiveMaxPool3DBackwardBackward0(AdaptiveMaxPool2DBackwardBackward0):
    spatial = 3


class AdaptiveMaxPool2DBackward0(Node):
    formula = Formula("y[n, c, i, j]", "max of self[n, c, rows(i), cols(j)]",
                      grad={"self": "G[n, c, i, j] at the element chosen, 0 elsewhere"},
                      note="Also returns the indices (h * W + w) of the chosen elements.")
    saves = {"self": Input(0)}
    spatial = 2

    recorded_backward = AdaptiveMaxPool2DBackwardBackward0

    def forward(self, x, output_size):
        values, self.indices = (in_input_format(a, x) for a in kernels.adaptive_max_pool(x, output_size))
        self.save(result1=self.indices)
        return values

    def backward(self, saved, grad):
        return fn.max_pool_backward(grad, saved.self, saved.result1, self.spatial,
                                    self.recorded_backward)


class AdaptiveMaxPool3DBackward0(AdaptiveMaxPool2DBackward0):
    formula = Formula("y[n, c, t, i, j]", "max of self[n, c, frames(t), rows(i), cols(j)]",
                      grad={"self": "G[n, c, t, i, j] at the element chosen, 0 elsewhere"},
                      note="Also returns the indices (t * H * W + h * W + w).")
    spatial = 3
    recorded_backward = AdaptiveMaxPool3DBackwardBackward0


def adaptive_max_pool(x, output_size, return_indices=False):
    """Adaptive max pooling of (C, *spatial) or (N, C, *spatial), 2 or 3 spatial dims
    (``output_size``'s length); with ``return_indices``, (values, indices)."""
    spatial, output_size = len(output_size), tuple(output_size)
    rules.check_adaptive(x, output_size, "max")
    rules.check_dtype(x, "adaptive_max_pool2d" if spatial == 2 else "adaptive_max_pool3d_cpu")
    node = AdaptiveMaxPool2DBackward0 if spatial == 2 else AdaptiveMaxPool3DBackward0
    values = node.apply(x, output_size=output_size)
    if not return_indices:
        return values
    if values.grad_fn is not None:
        return values, make(values.grad_fn.indices)
    # (not recorded: the node is gone, so ask the kernel again)
    return values, make(kernels.adaptive_max_pool(x._data, output_size)[1])


def adaptive_avg_pool(x, output_size):
    """Adaptive average pooling, 2 or 3 spatial dims (``output_size``'s length)."""
    spatial, output_size = len(output_size), tuple(output_size)
    rules.check_adaptive(x, output_size, "avg")
    rules.check_dtype(x, "adaptive_avg_pool2d" if spatial == 2 else "adaptive_avg_pool3d_cpu")
    node = AdaptiveAvgPool2DBackward0 if spatial == 2 else AdaptiveAvgPool3DBackward0
    return node.apply(x, output_size=output_size)
