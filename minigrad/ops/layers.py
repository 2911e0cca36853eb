"""The operations that ``nn`` layers are made of, where PyTorch computes a layer as one
operation (one node in the graph): ``embedding`` (a lookup table), ``layer_norm``
(normalise each row, then scale and shift), ``group_norm`` (the same over each group of
channels of each sample), ``gelu`` (x times the normal CDF of x) and ``weight_norm`` (a
weight as a direction v times a length g: torch._weight_norm).

embedding's gradient adds the gradient of each looked-up row into that row of the
table; layer_norm's is the chain rule through the mean and the standard deviation,
written out; gelu's is the product rule.
"""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node, Input, Param, RESULT
from ..autograd.saved import SavedTensor
from ..kernels import embedding_bag as bag_kernels
from ..kernels import layers as kernels
from ..kernels import normalization as norm_kernels
from ..kernels.layout import in_input_format
from . import fn, norm_backward
from ._saved import as_shown
from .linalg_module import Output, several_outputs, several_outputs_op

__all__ = ["embedding", "embedding_bag", "layer_norm", "group_norm", "gelu", "flash_attention", "weight_norm",
           "EmbeddingBackward0", "EmbeddingDenseBackwardBackward0", "EmbeddingBagBackward0", "EmbeddingBagBackwardBackward0",
           "WeightNormInterfaceBackward0",
           "NativeLayerNormBackward0", "NativeLayerNormBackwardBackward0", "NativeGroupNormBackward0", "GeluBackward0",
           "ScaledDotProductFlashAttentionForCpuBackward0"]


class EmbeddingBackward0(Node):
    formula = Formula("y[i]", "weight[indices[i]] (the table's row for each index)",
                      grad={"weight": "zeros with G[i] added to row indices[i] "
                                      "(the row of padding_idx gets nothing)"})

    def forward(self, weight, indices, indices_tensor, padding_idx, by_frequency):
        self.save(indices=SavedTensor(indices_tensor), padding_idx=as_shown(padding_idx),
                  _padding_idx=padding_idx, scale_grad_by_freq=by_frequency, sparse=False,
                  weight_sym_argsize_0=weight.shape[0])
        return np.take(weight, indices, axis=0)

    def backward(self, saved, grad):
        return embedding_dense_backward(grad, saved.indices, saved.weight_sym_argsize_0,
                                        saved._padding_idx, saved.scale_grad_by_freq)


def embedding_dense_backward(grad, indices, rows, padding_idx, by_frequency):
    """Zeros of the table's shape with each looked-up row's gradient added into its row
    (divided by how often its index occurs when ``by_frequency``; the row of padding_idx
    gets nothing): on tensors recorded as EmbeddingDenseBackwardBackward0."""
    if fn.is_tensor(grad):
        return EmbeddingDenseBackwardBackward0.apply(
            grad, indices=fn.as_array(indices), indices_tensor=indices, num_weights=rows,
            padding_idx=padding_idx, scale_grad_by_freq=by_frequency)
    indices = fn.as_array(indices)
    if by_frequency:
        return fn.embedding_backward_by_frequency(grad, indices, rows, padding_idx)
    if padding_idx >= 0:
        grad = fn.masked_fill(grad, np.expand_dims(indices == padding_idx, -1), 0)
    return fn.index_backward(grad, (rows, grad.shape[-1]), (indices,))


class EmbeddingDenseBackwardBackward0(Node):
    formula = Formula("z", "embedding_dense_backward(grad, indices): zeros with grad[i] added "
                           "to row indices[i]",
                      grad={"grad": "G[indices[i]] for each i (0 where indices[i] is "
                                    "padding_idx): an index_select"},
                      note="embedding's derivative as an operation, recorded by a backward "
                           "with create_graph=True (PyTorch's double backward ignores "
                           "scale_grad_by_freq, as here).")

    def forward(self, grad, indices, indices_tensor, num_weights, padding_idx,
                scale_grad_by_freq):
        self.save(indices=SavedTensor(indices_tensor), padding_idx=as_shown(padding_idx),
                  _padding_idx=padding_idx)
        return embedding_dense_backward(grad, indices, num_weights, padding_idx,
                                        scale_grad_by_freq)

    def backward(self, saved, grad):  # (torch's embedding_dense_double_backward)
        indices = fn.as_array(saved.indices)
        rows = fn.index_select(grad, 0, indices.reshape(-1))
        if saved._padding_idx >= 0:
            rows = fn.masked_fill(rows, (indices == saved._padding_idx).reshape(-1, 1), 0)
        return fn.reshape(rows, (*indices.shape, -1))


class EmbeddingBagBackward0(Node):
    formula = Formula("y[b]", "the sum (mean, max) over the indices i of bag b of "
                              "weight[indices[i]] (times per_sample_weights[i])",
                      grad={"weight": "G[b] (times the sample's weight, or / the bag's size) "
                                      "added to row indices[i]; max: to the row chosen",
                            "per_sample_weights": "G[b] . weight[indices[i]]"})
    saves = {"weight": Input(0), "per_sample_weights": Input(1)}

    def forward(self, weight, per_sample_weights, indices, offsets, mode, last_offset, padding,
                by_frequency):
        y, *results = bag_kernels.embedding_bag(weight, indices._data, offsets._data, mode,
                                                per_sample_weights, last_offset, padding)
        self.save(indices=SavedTensor(indices), offsets=SavedTensor(offsets),
                  result1=results[0], result2=results[1], result3=results[2], mode=mode,
                  padding_idx=as_shown(padding), _padding_idx=padding, sparse=False,
                  scale_grad_by_freq=by_frequency, weight_sym_argsize_0=weight.shape[0])
        return y

    def backward(self, saved, grad):
        bags = (saved.indices, saved.offsets, saved.result1)
        weight = fn.embedding_bag_backward(
            grad, *bags, saved.result2, saved.result3, saved.weight_sym_argsize_0, saved.mode,
            saved.per_sample_weights, saved._padding_idx, saved.scale_grad_by_freq) \
            if self.needs_input_grad[0] else None
        weights = fn.embedding_bag_per_sample_weights_backward(
            grad, saved.weight, *bags, saved._padding_idx) if self.needs_input_grad[1] else None
        return weight, weights


class EmbeddingBagBackwardBackward0(Node):
    formula = Formula("z", "embedding_bag's table gradient, recorded by a backward with "
                           "create_graph=True", note="PyTorch has no derivative for it: "
                                                     "backward stops here with an error.")

    def forward(self, grad, per_sample_weights, value):
        return value

    def backward(self, saved, grad):
        raise NotImplementedError("the derivative for '_embedding_bag_backward' is not "
                                  "implemented.")


class NativeLayerNormBackward0(Node):
    formula = Formula("y", "(x - mean) * rstd * weight + bias, rstd = 1 / sqrt(var + eps), "
                           "mean and var over the last len(normalized_shape) dims",
                      grad={"input": "rstd * (g - mean(g) - xhat * mean(g * xhat)), "
                                     "g = G * weight, xhat = (x - mean) * rstd",
                            "weight": "sum of G * xhat over the leading dims",
                            "bias": "sum of G over the leading dims"})
    saves = {"input": Input(0), "weight": Input(1), "bias": Input(2),
             "normalized_shape": Param(None)}

    def forward(self, x, weight, bias, normalized_shape, eps):
        y, mean, rstd = kernels.layer_norm(x, weight, bias, len(normalized_shape), eps)
        self.save(result1=mean, result2=rstd, _eps=eps)
        return y

    def backward(self, saved, grad):
        return layer_norm_backward(grad, saved.input, saved.normalized_shape, saved.result1,
                                   saved.result2, saved.weight, saved.bias, self.needs_input_grad)


def layer_norm_backward(grad, x, normalized_shape, x_mean, rstd, weight, bias, needs):
    """layer_norm's three gradients (None where not needed), as torch's kernel computes
    them; on tensors (create_graph=True) the outputs of one NativeLayerNormBackwardBackward0
    node."""
    if not fn.is_tensor(grad):
        return kernels.layer_norm_backward(grad, x, x_mean, rstd, weight, len(normalized_shape),
                                           needs)
    grads = several_outputs(NativeLayerNormBackwardBackward0,
                            (grad, x, x_mean, rstd, weight, bias),
                            {"normalized_shape": normalized_shape, "needs": needs})
    return tuple(g if need else None for g, need in zip(grads, needs))


class NativeLayerNormBackwardBackward0(Node):
    formula = Formula("(gx, gw, gb)", "native_layer_norm_backward(grad, x, mean, rstd, weight): "
                                      "layer_norm's three gradients",
                      grad={"grad_out": "gx's formula applied to G_gx, + G_gw xhat + G_gb",
                            "input": "d gx / d x applied to G_gx (mean and rstd moving with "
                                     "x), + G_gw's term", "weight": "sum of G * (gx of G_gx "
                                                                   "without the weight)"},
                      note="layer_norm's derivative as an operation, recorded by a backward "
                           "with create_graph=True (a gradient nobody needs: an empty "
                           "placeholder, never sent a gradient); its backward is PyTorch's "
                           "layer_norm_double_backward (ops/norm_backward.py), which holds the "
                           "saved mean and rstd constant, as PyTorch's does.")
    saves = {"grad_out": Input(0), "input": Input(1), "mean": Input(2), "rstd": Input(3),
             "weight": Input(4)}

    def forward(self, grad, x, mean, rstd, weight, bias, normalized_shape, needs):
        self.save(normalized_shape=normalized_shape)  # (a gradient not needed: a placeholder)
        return [np.zeros(0, grad.dtype) if g is None else g for g in kernels.layer_norm_backward(
            grad, x, mean, rstd, weight, len(normalized_shape), needs)]

    def backward(self, saved, ggI=None, ggG=None, ggB=None):
        gI, gG, ggO = norm_backward.layer_norm_double_backward(
            saved.input, saved.weight, ggI, ggG, ggB, saved.grad_out, saved.mean, saved.rstd,
            saved.normalized_shape)
        needs = self.needs_input_grad
        return ggO if needs[0] else None, gI if needs[1] else None, None, None, \
            gG if needs[4] else None, None


class NativeGroupNormBackward0(Node):
    formula = Formula("(y, mean, rstd)", "y[n, c] = (x[n, c] - mean[n, g]) * rstd[n, g] * weight[c] "
                                         "+ bias[c], mean and rstd over the channels of c's "
                                         "group g and all positions",
                      grad={"input": "rstd * (g - mean(g) - xhat * mean(g * xhat)) per group, "
                                     "g = G * weight, xhat = (x - mean) * rstd (+ the terms of "
                                     "G_mean and G_rstd)",
                            "weight": "sum of G * xhat over all dims but the channels",
                            "bias": "sum of G over all dims but the channels"},
                      note="a node of three outputs, as PyTorch's: a recorded derivative reads "
                           "mean and rstd as outputs 1 and 2, so a further derivative sees them "
                           "move with x.")
    saves = {"input": Input(0), "weight": Input(1), "result1": Output(1), "result2": Output(2)}

    @classmethod
    def apply(cls, *inputs, **params):
        return several_outputs_op(cls, inputs, params)

    def forward(self, x, weight, bias, group, eps):
        self.save(N=x.shape[0], C=x.shape[1], HxW=int(np.prod(x.shape[2:], dtype=np.int64)),
                  group=group, eps=eps)
        y, mean, rstd = norm_kernels.group_norm(x, weight, bias, group, eps)
        return [in_input_format(y, x, volumes=True), mean, rstd]

    def backward(self, saved, grad=None, grad_mean=None, grad_rstd=None):
        return group_norm_backward(grad, grad_mean, grad_rstd, saved.input, saved.result1,
                                   saved.result2, saved.weight, saved.group,
                                   self.needs_input_grad)


def group_norm_backward(grad, grad_mean, grad_rstd, x, x_mean, rstd, weight, groups, needs):
    """group_norm's three gradients (None where not needed): as torch's kernel computes
    them when only y sends a gradient, as arrays; else (create_graph=True, or mean and rstd
    sent gradients) by PyTorch's differentiable formula (ops/norm_backward.py)."""
    if fn.is_tensor(grad) or grad_mean is not None or grad_rstd is not None:
        return norm_backward.group_norm_backward(grad, grad_mean, grad_rstd, x, x_mean, rstd,
                                                 weight, groups, needs)
    return norm_kernels.group_norm_backward(grad, x, x_mean, rstd, weight, groups, needs)


class GeluBackward0(Node):
    formula = Formula("y", "x * Phi(x), Phi(x) = (1 + erf(x / sqrt 2)) / 2 (the normal CDF)",
                      d={"self": "Phi(x) + x * exp(-x**2 / 2) / sqrt(2 pi)"},
                      note="approximate='tanh': Phi(x) ~ (1 + tanh(sqrt(2 / pi) * "
                           "(x + 0.044715 x**3))) / 2, and its derivative.")
    saves = {"self": Input(0), "approximate": Param("none")}

    def forward(self, x, approximate):
        return kernels.gelu(x, approximate)

    def backward(self, saved, grad):
        return fn.gelu_backward(grad, saved.self, saved.approximate)


class GeluBackwardBackward0(Node):
    formula = Formula("dx", "G * gelu'(x)",
                      d={"grad_output": "gelu'(x)", "self": "G * gelu''(x)"},
                      note="gelu''(x) = phi(x) (2 - x**2), phi the normal density; with "
                           "approximate='tanh', the derivative of its gelu'.")
    saves = {"grad_output": Input(0, for_grad_of=1), "self": Input(1),
             "approximate": Param("none")}

    def forward(self, grad, x, approximate):
        return kernels.gelu_backward(grad, x, approximate)

    def backward(self, saved, gg):
        g, x = saved.grad_output, saved.self
        grad_g = fn.gelu_backward(gg, x, saved.approximate) if self.needs_input_grad[0] else None
        grad_x = None
        if self.needs_input_grad[1]:
            second = _gelu_second(x, saved.approximate)  # (before G * gg, as PyTorch)
            grad_x = gg * g * second
        return grad_g, grad_x


_BETA, _KAPPA = 0.7978845608028654, 0.044715  # sqrt(2 / pi), and tanh gelu's cubic term
_ONE_OVER_SQRT_2PI = 0.3989422804014327  # the normal density at 0


def _gelu_second(x, approximate):
    """gelu''(x), written with differentiable ops."""
    if approximate == "tanh":  # u = beta (x + kappa x**3), t = tanh(u): (1 - t**2)(u' - x t u'**2 + x u''/2)
        t = fn.tanh((x + x * x * x * _KAPPA) * _BETA)
        du = (x * x * (3 * _KAPPA) + 1) * _BETA
        return (1 - t * t) * (du - x * t * du * du + x * x * (3 * _KAPPA * _BETA))
    x_sq = x * x  # (PyTorch's gelu_double_backward, its ops in its order)
    pdf = fn.exp(x_sq * -0.5) * _ONE_OVER_SQRT_2PI
    curvature = x_sq * pdf
    return pdf * 2 - curvature


class ScaledDotProductFlashAttentionForCpuBackward0(Node):
    formula = Formula("y", "softmax(S) v, S = q k^T * scale + mask (over the last two dims)",
                      grad={"query": "dS k * scale, dS = P * (G v^T - sum(G * y))",
                            "key": "dS^T q * scale", "value": "P^T G, P = softmax(S)"})
    saves = {"query": Input(0), "key": Input(1), "value": Input(2), "result": RESULT,
             "attn_mask": Param(None), "is_causal": Param(False)}

    def forward(self, q, k, v, mask, scale, given_scale=None, attn_mask=None, is_causal=False):
        y, logsumexp = kernels.flash_attention(q, k, v, mask, scale)
        self.save(logsumexp=logsumexp, dropout_p=0.0, scale=given_scale, _mask=mask,
                  _scale=scale)
        return y

    def backward(self, saved, grad):
        return fn.flash_attention_backward(grad, saved.query, saved.key, saved.value,
                                           saved.result, saved.logsumexp, saved._mask,
                                           saved._scale)


class WeightNormInterfaceBackward0(Node):
    formula = Formula("w", "v * g / ||v|| (the norm over every dim but dim)",
                      grad={"v": "g / ||v|| * (G - v * sum(G * v) / ||v||^2)",
                            "g": "sum(G * v) / ||v||"},
                      note="The sums and norms run over every dim but dim (the first or the "
                           "last); also returns the norms (result1).")
    saves = {"v": Input(0), "g": Input(1)}

    def forward(self, v, g, dim):
        w, norms = kernels.weight_norm(v, g, dim)
        self.save(dim=dim, result1=norms)
        return w

    def backward(self, saved, grad):
        # (the norms as saved: PyTorch's result1 is not differentiable, so a recorded
        # backward takes them as constants, and so do its second derivatives)
        v, g, norms, dim = saved.v, saved.g, saved.result1, saved.dim
        rows = (v.shape[0], -1) if dim == 0 else (-1, v.shape[-1])  # (the sums, as ATen)
        dot = fn.reshape(fn.sum(fn.reshape(grad * v, rows), 1 - min(dim, 1)), norms.shape)
        across = grad - v * (dot / (norms * norms))  # (G without its part along v)
        return g / norms * across, dot / norms


def weight_norm(v, g, dim: int):
    """torch._weight_norm's fused path (dim the first or the last): v * g / ||v||."""
    return WeightNormInterfaceBackward0.apply(v, g, dim=dim)


def embedding(weight, indices, padding_idx: int = -1, scale_grad_by_freq: bool = False):
    """The rows of ``weight`` at ``indices``: shape ``indices.shape + (embedding_dim,)``."""
    return EmbeddingBackward0.apply(weight, indices=indices._data, indices_tensor=indices,
                                    padding_idx=padding_idx, by_frequency=scale_grad_by_freq)


def embedding_bag(weight, indices, offsets, mode: int, per_sample_weights=None,
                  include_last_offset: bool = False, padding_idx: int = -1,
                  scale_grad_by_freq: bool = False):
    """The rows of ``weight`` at ``indices``, reduced over each bag (the indices from
    one offset to the next) by sum (0), mean (1) or max (2): shape (bags, embedding_dim)."""
    return EmbeddingBagBackward0.apply(weight, per_sample_weights, indices=indices,
                                       offsets=offsets, mode=mode,
                                       last_offset=include_last_offset, padding=padding_idx,
                                       by_frequency=scale_grad_by_freq)


def layer_norm(x, normalized_shape: tuple, weight=None, bias=None, eps: float = 1e-5):
    """Each slice over the last ``len(normalized_shape)`` dims, normalised to mean 0 and
    variance 1, then times ``weight`` plus ``bias``."""
    return NativeLayerNormBackward0.apply(x, weight, bias, normalized_shape=normalized_shape,
                                          eps=eps)


def group_norm(x, groups: int, weight=None, bias=None, eps: float = 1e-5):
    """Each sample's channels in ``groups`` groups, each group normalised to mean 0 and
    variance 1, then times ``weight`` plus ``bias`` per channel."""
    return NativeGroupNormBackward0.apply(x, weight, bias, group=groups, eps=eps)[0]


def gelu(x, approximate: str = "none"):
    """x * Phi(x), elementwise (Phi: the standard normal CDF)."""
    return GeluBackward0.apply(x, approximate=approximate)


def flash_attention(q, k, v, mask, scale: float, given_scale=None, attn_mask=None,
                    is_causal: bool = False):
    """softmax(q k^T * scale + mask) v for (batch, heads, length, features) tensors, one
    node as PyTorch's CPU kernel; ``mask`` is the additive mask as an array (or None),
    ``attn_mask`` the tensor the learner gave (kept for ``_saved_attn_mask``)."""
    return ScaledDotProductFlashAttentionForCpuBackward0.apply(
        q, k, v, mask=mask, scale=scale, given_scale=given_scale, attn_mask=attn_mask,
        is_causal=is_causal)
