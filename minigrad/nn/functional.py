"""``minigrad.nn.functional``: the math of the layers and losses, as functions.

Most of it is written with ordinary tensor operations, so autograd
differentiates it with no extra code. Where PyTorch computes a whole loss (or
``bias + x @ W^T``) as one operation, so does minigrad, so the graph shows
PyTorch's node (``NllLossBackward0``, ``AddmmBackward0``); those live in
``minigrad/ops/loss.py`` and ``minigrad/ops/linalg.py``, derivative included.
The modules in ``minigrad.nn`` (``nn.Linear``, ``nn.CrossEntropyLoss``, ...)
call these functions.

Loss functions take ``reduction``: ``'none'`` returns one loss per element
(or per sample), ``'sum'`` their sum, ``'mean'`` (the default) their mean.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

import minigrad

from .. import errors, layouts, ops
from ..autograd.broadcast import broadcast_shapes
from ..dtypes import C_TYPE_NAMES
from ..rules.arguments import check_sub
from ..rules.parser import parsed_namespace
from ..rules.ctc import check_ctc_loss, ctc_lengths
from ..rules.embedding_bag import check_embedding_bag
from ..rules.out import write as write_out
from ..tensor import Tensor
from . import attention
from .attention import SDPBackend

__all__ = ["affine_grid", "grid_sample", "gumbel_softmax", "linear", "relu", "sigmoid", "logsigmoid", "tanh", "softmax", "log_softmax", "dropout",
           "scaled_dot_product_attention", "multi_head_attention_forward", "one_hot", "embedding", "embedding_bag",
           "layer_norm", "group_norm", "instance_norm", "rms_norm", "gelu", "glu", "bilinear",
           "interpolate", "adaptive_max_pool1d", "adaptive_max_pool2d", "pixel_shuffle",
           "linear_cross_entropy", "fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
           "fractional_max_pool3d_with_indices",
           "pixel_unshuffle", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "pad",
           "conv3d", "conv1d", "conv2d", "max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d",
           "lp_pool1d", "lp_pool2d", "lp_pool3d", "alpha_dropout", "feature_alpha_dropout", "dropout3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "max_pool3d", "avg_pool3d",
           "adaptive_avg_pool3d", "adaptive_max_pool3d", "local_response_norm", "channel_shuffle",
           "max_unpool1d", "max_unpool2d", "max_unpool3d", "unfold", "fold", "mse_loss",
           "nll_loss", "cross_entropy", "binary_cross_entropy_with_logits", "batch_norm",
           "binary_cross_entropy", "l1_loss", "smooth_l1_loss", "huber_loss", "normalize",
           "dropout1d", "dropout2d", "selu", "celu", "mish", "hardswish", "hardsigmoid",
           "hardshrink", "softshrink", "threshold", "prelu", "softsign", "tanhshrink", "softmin",
           "cosine_similarity", "kl_div", "leaky_relu", "rrelu", "rrelu_", "elu", "softplus",
           "silu", "hardtanh", "relu6", "margin_ranking_loss", "hinge_embedding_loss",
           "soft_margin_loss", "cosine_embedding_loss", "pairwise_distance", "pdist",
           "triplet_margin_loss", "triplet_margin_with_distance_loss", "multi_margin_loss",
           "multilabel_margin_loss", "multilabel_soft_margin_loss", "poisson_nll_loss",
           "gaussian_nll_loss", "ctc_loss"]


# ---- layers and activations ------------------------------------------------

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x W^T + b, for ``weight`` of shape (out_features, in_features).

    As in PyTorch, a batch of rows with a bias is one ``addmm`` (AddmmBackward0);
    other shapes are flattened to rows and back."""
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return ops.addmm(bias, input, weight.t())
    fusable = (bias.dim() == 1 or bias.squeeze().dim() == 1) and bias.is_contiguous()
    if not (fusable and input.is_contiguous()):
        return input.matmul(weight.t()).add_(bias)  # (PyTorch: the bias added in place)
    rows = input.reshape(math.prod(input.shape[:-1]), input.size(-1))  # (not -1: a 0 dim)
    result = ops.addmm(bias, rows, weight.t())
    return result.view(*input.shape[:-1], result.size(1))


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0), elementwise. ``inplace=True`` writes the result into ``input``."""
    return input.copy_(input.relu()) if inplace else input.relu()


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The gated linear unit: ``input`` halved along ``dim`` into a and b, a * sigmoid(b)
    (GluBackward0)."""
    return ops.activation.glu(input, dim)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y[..., o] = input1[...] . weight[o] . input2[...] + bias[o], weight (out, in1, in2):
    PyTorch's composition, rows flattened, _trilinear (TrilinearBackward0), a view back."""
    given = (("input1", input1), ("input2", input2), ("weight", weight)) + \
        ((("bias", bias),) if bias is not None else ())
    if any(t.dtype != input1.dtype for _, t in given):
        raise RuntimeError("All tensors must have the same dtype, got " + ", ".join(
            f"{name}: {C_TYPE_NAMES[t.dtype]}" for name, t in given))
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and "
                           f"{input2.dim()}")
    for k in range(input1.dim() - 1):
        if input1.shape[k] != input2.shape[k]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match: got "
                               f"{list(input1.shape)} and {list(input2.shape)}")
    if weight.dim() < 2:  # (weight.size(1) is read before input1.size(-1))
        raise IndexError("Dimension specified as 1 but tensor has no dimensions" if not
                         weight.dim() else "Dimension out of range (expected to be in range of "
                         "[-1, 0], but got 1)")
    if input1.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    for k, given in ((1, input1), (2, input2)):
        if given.shape[-1] != weight.shape[k]:
            raise RuntimeError(f"bilinear(): input{k} size does not match weight size: got "
                               f"{given.shape[-1]} but expected {weight.shape[k]}")
    if bias is not None and bias.shape[-1] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[-1]} but expected {weight.shape[0]}")
    shape = (*input1.shape[:-1], weight.shape[0])
    rows1, rows2 = input1.reshape(-1, input1.shape[-1]), input2.reshape(-1, input2.shape[-1])
    if input1.dtype == minigrad.bool:  # (the kernel's refusal, after the rows are made)
        raise NotImplementedError('"bmm" not implemented for \'Bool\'')
    output = ops.bilinear(rows1, rows2, weight).reshape(shape)
    return output if bias is None else output + bias


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + exp(-x)), elementwise."""
    return input.sigmoid()


def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(x)) = -log(1 + exp(-x)), elementwise, computed without overflow
    (``LogSigmoidBackward0``; d/dx = 1 - sigmoid(x))."""
    _check_float_kernel("log_sigmoid_cpu", input)
    return ops.fn.log_sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """(exp(x) - exp(-x)) / (exp(x) + exp(-x)), elementwise."""
    return input.tanh()


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """PyTorch's old guess when no ``dim`` is given (deprecated: pass ``dim``)."""
    errors.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                "to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype=None) -> Tensor:
    """exp(x_i) / sum_j exp(x_j) along ``dim``: turns scores into probabilities.
    (``_stacklevel`` says where the warning for a missing ``dim`` points, as in PyTorch.)"""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return (input if dtype is None else input.to(dtype)).softmax(dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype=None) -> Tensor:
    """x_i - log(sum_j exp(x_j)) along ``dim``: log(softmax(x)), computed stably."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return (input if dtype is None else input.to(dtype)).log_softmax(dim)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """In training: zero each element with probability ``p`` and multiply the
    others by 1 / (1 - p), so every element keeps its expected value.
    Otherwise (``training=False``): ``input`` unchanged."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        scale = minigrad.zeros((), dtype=input.dtype)
    else:  # (as PyTorch: 1s kept with probability 1 - p, then scaled)
        scale = minigrad.zeros_like(input).bernoulli_(1 - p).div_(1 - p)
    return input.mul_(scale) if inplace else input * scale


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """A sample of the Gumbel-softmax (Concrete) distribution over ``dim``: softmax((logits
    + g) / tau), g = -log(E) with E ~ Exp(1) (Gumbel noise, drawn as PyTorch draws it);
    ``hard``: the one-hot of its largest entry in the forward pass, the soft sample's
    gradient in the backward (``y_hard - y_soft.detach() + y_soft``)."""
    if eps != 1e-10:
        errors.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -minigrad.empty_like(logits).exponential_().log()  # ~ Gumbel(0, 1)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = minigrad.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of the table ``weight`` (num_embeddings, embedding_dim) at the integer
    ``input``: shape ``input.shape + (embedding_dim,)`` (EmbeddingBackward0). The row
    ``padding_idx`` gets no gradient."""
    if not isinstance(input, Tensor):
        raise TypeError(f"embedding(): argument 'indices' (position 2) must be Tensor, "
                        f"not {type(input).__name__}")
    if sparse:
        raise NotImplementedError("minigrad: embedding's sparse gradients are not implemented "
                                  "(minigrad has no sparse tensors)")
    if padding_idx is None:
        padding_idx = -1
    elif not -weight.size(0) <= padding_idx < weight.size(0):
        raise AssertionError("Padding_idx must be within num_embeddings")
    elif padding_idx < 0:
        padding_idx += weight.size(0)
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input.dtype not in (minigrad.int64, minigrad.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {input.type()} "
                           f"instead (while checking arguments for embedding)")
    if input.numel() and not input.is_meta and not (
            0 <= input.min() and input.max() < weight.size(0)):  # (meta: no values to check)
        raise IndexError("index out of range in self")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return ops.embedding(weight, input, padding_idx, scale_grad_by_freq)


_BAG_MODES = {"sum": 0, "mean": 1, "max": 2}


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None,
                  max_norm: float | None = None, norm_type: float = 2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """The rows of ``weight`` at ``input``, summed (``mode="sum"``), averaged or maxed
    over each bag (EmbeddingBagBackward0): a 1-D ``input`` cut into bags where
    ``offsets`` say, or a 2-D one whose rows are the bags. Shape (bags, embedding_dim).
    Checks in PyTorch's order: here Python's, then C++'s (rules/embedding_bag.py)."""
    if weight.dtype == minigrad.long and input.is_floating_point():
        errors.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                    "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                    "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         f"is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            kind = "<class 'torch.Tensor'>" if isinstance(offsets, Tensor) else type(offsets)
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated "
                             f"is a mini-batch of fixed length sequences. However, found offsets "
                             f"of type {kind}")
        offsets = minigrad.arange(0, input.numel(), input.size(1), dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode not in _BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    if sparse:
        raise NotImplementedError("minigrad: embedding_bag's sparse gradients are not "
                                  "implemented (minigrad has no sparse tensors)")
    padding_idx = check_embedding_bag(weight, input, offsets, _BAG_MODES[mode],
                                      per_sample_weights, include_last_offset, padding_idx)
    return ops.embedding_bag(weight, input, offsets, _BAG_MODES[mode], per_sample_weights,
                             include_last_offset, padding_idx, scale_grad_by_freq)


def _embedding_renorm_(weight: Tensor, input: Tensor, max_norm: float, norm_type: float) -> None:
    """Each row of ``weight`` that ``input`` names, whose norm exceeds ``max_norm``, scaled
    in place by max_norm / (norm + 1e-7) (in float64, then in the weight's dtype), as
    PyTorch's embedding_renorm_, with grad mode off."""
    with minigrad.no_grad():
        rows = input.reshape(-1).unique()
        norms = weight.index_select(0, rows).norm(norm_type, dim=1).double()
        scale = minigrad.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight.index_copy_(0, rows, weight.index_select(0, rows) * scale.to(weight.dtype)[:, None])


def _shape_text(shape) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Each slice over the last dims (``normalized_shape``) brought to mean 0 and
    variance 1 (the biased variance, plus ``eps``), then times ``weight`` plus ``bias``
    (NativeLayerNormBackward0)."""
    if not isinstance(normalized_shape, (tuple, list, minigrad.Size)):
        raise TypeError(f"layer_norm(): argument 'normalized_shape' (position 2) must be "
                        f"tuple of ints, not {type(normalized_shape).__name__}")
    shape = tuple(normalized_shape)
    if any(t is not None and t.dtype != input.dtype for t in (weight, bias)):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    for name, given in (("weight", weight), ("bias", bias)):
        if given is not None and tuple(given.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {_shape_text(given.shape)} and "
                               f"normalized_shape = {_shape_text(shape)}")
    if tuple(input.shape[input.dim() - len(shape):]) != shape or input.dim() < len(shape):
        raise RuntimeError(f"Given normalized_shape={_shape_text(shape)}, expected input with "
                           f"shape [*, {', '.join(map(str, shape))}], but got input of "
                           f"size{_shape_text(input.shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f'"LayerNormKernelImpl" not implemented for \'{_type_name(input)}\'')
    return ops.layer_norm(input, shape, weight, bias, eps)


def gelu(input: Tensor, approximate: str = "none", *, out: Tensor | None = None) -> Tensor:
    """x * Phi(x), Phi the standard normal CDF (GeluBackward0); ``approximate='tanh'``
    takes Phi(x) ~ (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x**3))) / 2."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"GeluKernelImpl" not implemented for \'{_type_name(input)}\'')
    return write_out("gelu", ops.gelu(input, approximate), out, input)


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, *, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """softmax(query key^T * scale + mask) value over the last two dims, with
    scale = 1 / sqrt(query.size(-1)) unless given. ``is_causal``: each query sees only the
    keys at or before its position; ``attn_mask``: a bool mask (True = may attend) or
    a float one added to the scores. PyTorch's CPU paths, so PyTorch's graph: 4-D inputs
    without dropout are one node (ScaledDotProductFlashAttentionForCpuBackward0), anything
    else its "math" path of matmuls, a softmax and dropout."""
    _check_attention(query, key, value)
    if enable_gqa and key.size(-3) != query.size(-3):
        groups = query.size(-3) // key.size(-3)
        key = key.repeat_interleave(groups, -3)
        value = value.repeat_interleave(groups, -3)
    if query.size(-2) == 0 or key.size(-2) == 0 or value.size(-1) == 0:
        # PyTorch's empty attention: zeros, joined to the inputs' graphs by their sums times 0
        tie = (query.sum() + key.sum() + value.sum()) * 0
        return query.new_zeros(tuple(query.shape[:-1]) + (value.size(-1),)) + tie
    mask = _additive_mask(query, key, attn_mask, is_causal)
    factor = (1 / math.sqrt(query.size(-1)) if query.size(-1) else math.inf) if scale is None \
        else scale
    if _attention_kernel(query, key, value, attn_mask, dropout_p) == "flash":
        return ops.flash_attention(query, key, value, None if mask is None else mask._data,
                                   factor, given_scale=scale, attn_mask=mask,
                                   is_causal=is_causal)
    # PyTorch's _scaled_dot_product_attention_math: q and k each times sqrt(scale)
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    origin = query.dtype  # (float16 in float32, rounded once at the end: PyTorch's math path)
    query, key, value = (t.float() if t.dtype == minigrad.float16 else t for t in (query, key, value))
    root = math.sqrt(abs(factor))
    attn = ops.scalar_op(query, "*", -root if factor < 0 else root) @ ops.scalar_op(
        key.transpose(-2, -1), "*", root)
    if mask is not None:
        attn = attn + mask
    attn = ops.safe_softmax(attn, -1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    out = attn @ value
    return out if out.dtype == origin else out.to(origin)


def _attention_kernel(query, key, value, attn_mask, dropout_p) -> str:
    """"flash" or "math", as PyTorch's CPU picks them among the kernels nn.attention's
    sdpa_kernel allows (all outside one): flash where it applies, else math; PyTorch's
    warnings and error when neither is allowed and may run."""
    allowed = attention.allowed
    fused = query.dim() == 4 and key.dim() == 4 and value.dim() == 4
    if (SDPBackend.FLASH_ATTENTION in allowed and fused and dropout_p == 0.0
            and value.size(-1) == query.size(-1)
            and key.shape[:2] == query.shape[:2] == value.shape[:2]
            and (attn_mask is None or not attn_mask.requires_grad)):
        return "flash"
    if SDPBackend.MATH in allowed:
        return "math"
    if SDPBackend.FLASH_ATTENTION not in allowed:
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This "
                           "is likely due to turning off both the math kernel and the fused "
                           "kernels.")
    errors.warn_at_caller("Flash attention kernel not used because:")
    if not fused:
        errors.warn_at_caller(
            f"All fused kernels requires query, key and value to be 4 dimensional, but got "
            f"Query dim: {query.dim()}, Key dim: {key.dim()}, Value dim: {value.dim()} instead.")
    elif dropout_p != 0.0:
        errors.warn_at_caller("Both fused kernels do not support non-zero dropout.")
    raise RuntimeError("No available kernel.  Aborting execution.")


def _check_attention(query, key, value) -> None:
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError(
            f"Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_c_name(query)} key.dtype: {_c_name(key)} and value.dtype: {_c_name(value)} "
            f"instead.")


def _c_name(tensor) -> str:
    return C_TYPE_NAMES[tensor.dtype]


def _additive_mask(query, key, attn_mask, is_causal):
    """The mask as PyTorch's kernels use it: a float tensor added to the scores (a bool
    mask becomes 0 where True, -inf where False; is_causal a lower-triangular one)."""
    mask = attn_mask
    if mask is not None and mask.dtype == minigrad.bool:
        mask = minigrad.zeros(mask.shape, dtype=query.dtype).masked_fill(~mask, -math.inf)
    if is_causal:
        causal = minigrad.ones(query.size(-2), key.size(-2), dtype=minigrad.bool).tril()
        causal = minigrad.zeros(causal.shape, dtype=query.dtype).masked_fill(~causal, -math.inf)
        mask = causal if mask is None else mask + causal
    return mask


# ---- multi-head attention (PyTorch's torch/nn/functional.py, step for step) --------------

def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor,
        out_proj_bias: Tensor | None, training: bool = True,
        key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
        q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
        v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """Attention over (seq, batch, embed) inputs with ``num_heads`` heads: project query, key
    and value (one packed weight, or three), split the embedding into heads, take
    softmax(q k^T / sqrt(head_dim) + mask) v in each head, join the heads and project out.
    Returns (output, weights averaged over heads (or per head), or None if not
    ``need_weights``). With ``need_weights`` the weights are computed explicitly (``baddbmm``,
    ``softmax``, ``bmm``); without, through ``scaled_dot_product_attention``, as in PyTorch."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       None if attn_mask is None else attn_mask.dtype,
                                       "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # (scaled_dot_product_attention makes the causal mask itself)
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                    check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, "
                             f"but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
        b_q, b_k, b_v = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = (linear(query, q_proj_weight, b_q), linear(key, k_proj_weight, b_k),
                   linear(value, v_proj_weight, b_v))
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape "
                                 f"{value.shape}")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    attn_mask = _attn_mask_3d(attn_mask, tgt_len, src_len, bsz * num_heads)
    if bias_k is not None and bias_v is not None:  # one learned key and value more
        k = minigrad.cat([k, bias_k.repeat(1, bsz, 1)])
        v = minigrad.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    # heads: (seq, batch, embed) -> (batch * heads, seq, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = (k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_k is None
         else static_k)
    v = (v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_v is None
         else static_v)
    if add_zero_attn:  # one key and value of zeros more
        zeros = minigrad.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype)
        k, v = minigrad.cat([k, zeros], dim=1), minigrad.cat([v, zeros], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len)
                            .expand(-1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[2]))
        if attn_mask is not None:
            weights = minigrad.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = minigrad.bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        output = minigrad.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        output = linear(output, out_proj_weight, out_proj_bias)
        output = output.view(tgt_len, bsz, output.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            output, weights = output.squeeze(1), weights.squeeze(0)
        return output, weights
    if attn_mask is not None:
        attn_mask = (attn_mask.unsqueeze(0) if attn_mask.size(0) == 1 and attn_mask.dim() == 3
                     else attn_mask.view(bsz, num_heads, -1, src_len))
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    output = output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    output = linear(output, out_proj_weight, out_proj_bias)
    output = output.view(tgt_len, bsz, output.size(1))
    return (output if is_batched else output.squeeze(1)), None


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None):
    """q, k, v times the packed (3E, E) weight: one product when q, k, v are one tensor (self-
    attention), two when k is v, else three, as PyTorch does (so its graph)."""
    E = q.size(-1)
    if k is v and q is k:
        proj = linear(q, w, b).unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2)
        proj = proj.squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]
    if k is v:
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv_proj = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2)
        kv_proj = kv_proj.squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None,) * 3 if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _attn_mask_3d(attn_mask, tgt_len: int, src_len: int, heads_times_batch: int):
    """A 2-D (tgt, src) mask as (1, tgt, src); a 3-D one checked against (batch*heads, ...)."""
    if attn_mask is None:
        return None
    if attn_mask.dim() == 2:
        if attn_mask.shape != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should "
                               f"be {(tgt_len, src_len)}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if attn_mask.shape != (heads_times_batch, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should "
                               f"be {(heads_times_batch, tgt_len, src_len)}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def _canonical_mask(mask, mask_name: str, other_type, other_name: str, target_type,
                    check_other: bool = True):
    """A bool mask as a float one (-inf where True: "do not attend"); a float mask as is."""
    if mask is None:
        return None
    if mask.dtype != minigrad.bool and not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        errors.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                    "Use same type for both instead.", stacklevel=2)
    if not mask.dtype.is_floating_point:
        mask = minigrad.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads) -> bool:
    """PyTorch's checks of the inputs' dims; True for batched (3-D) input."""
    if query.dim() not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    batched = query.dim() == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be "
                             f"{query.dim()}-D but found {key.dim()}-D and {value.dim()}-D "
                             "tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{query.dim() - 1}-D but found {key_padding_mask.dim()}-D tensor "
                             "instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D "
                                 f"or 3-D but found {attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.dim() == 3 and attn_mask.shape != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return batched


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, else negative_slope * x: a ReLU that lets a little through."""
    if inplace:
        return ops.inplace(input, ops.activation.leaky_relu, negative_slope, True)
    return ops.activation.leaky_relu(input, negative_slope)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU: x where x > 0, else a * x, with a slope a drawn from
    U(lower, upper) for each element while training, (lower + upper) / 2 otherwise."""
    if inplace:
        return minigrad.rrelu_(input, lower, upper, training)
    return minigrad.rrelu(input, lower, upper, training)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
           training: bool = False, *, generator=None) -> Tensor:
    """``rrelu`` in place."""
    return minigrad.rrelu_(input, lower, upper, training, generator=generator)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x where x > 0, else alpha * (exp(x) - 1): smooth at 0 when alpha = 1."""
    if inplace:
        return ops.inplace(input, ops.activation.elu, alpha, 1, 1, True)
    return ops.activation.elu(input, alpha)


def softplus(input: Tensor, beta: float = 1, threshold: float = 20, *,
             out: Tensor | None = None) -> Tensor:
    """log(1 + exp(beta x)) / beta, a smooth ReLU (x itself where beta x > threshold)."""
    return write_out("softplus", ops.activation.softplus(input, beta, threshold), out, input)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x) (also called swish)."""
    if inplace:
        return ops.inplace(input, ops.activation.silu)
    return ops.activation.silu(input)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """x clamped to [min_val, max_val] (gradient 1 inside, 0 outside)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return ops.inplace(input, ops.activation.hardtanh, min_val, max_val)
    return ops.activation.hardtanh(input, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(x, 0), 6): hardtanh(x, 0, 6)."""
    return hardtanh(input, 0, 6, inplace)  # (torch saves the ints 0 and 6)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """scale * elu(x, alpha) with SELU's constants (self-normalising networks)."""
    if inplace:
        return ops.inplace(input, ops.activation.elu, _SELU_ALPHA, _SELU_SCALE, 1, True)
    return ops.activation.elu(input, _SELU_ALPHA, _SELU_SCALE, 1)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x where x > 0, else alpha * (exp(x / alpha) - 1)."""
    if inplace:
        return ops.inplace(input, ops.activation.celu, alpha, True)
    return ops.activation.celu(input, alpha)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * tanh(softplus(x))."""
    if inplace:
        return ops.inplace(input, ops.activation.mish)
    return ops.activation.mish(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * relu6(x + 3) / 6 (MobileNetV3's cheap swish)."""
    if inplace:
        return ops.inplace(input, ops.activation.hardswish)
    return ops.activation.hardswish(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """relu6(x + 3) / 6, a piecewise-linear sigmoid."""
    if inplace:
        return ops.inplace(input, ops.activation.hardsigmoid)
    return ops.activation.hardsigmoid(input)


def hardshrink(input: Tensor, lambd: float = 0.5, *, out=None) -> Tensor:
    """x where |x| > lambd, else 0 (HardshrinkBackward0)."""
    return write_out("hardshrink", ops.activation.hardshrink(input, lambd), out, input)


def softshrink(input: Tensor, lambd: float = 0.5, *, out=None) -> Tensor:
    """x moved lambd toward 0, and 0 within [-lambd, lambd] (SoftshrinkBackward0)."""
    return write_out("softshrink", ops.activation.softshrink(input, lambd), out, input)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """x where x > threshold, else value."""
    if input.dtype == minigrad.bool:
        raise NotImplementedError('"threshold_cpu" not implemented for \'Bool\'')
    if inplace:
        return ops.inplace(input, ops.activation.threshold, threshold, value, True)
    return ops.activation.threshold(input, threshold, value)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x where x > 0, else weight * x, with a learned weight per channel (dim 1)."""
    channels = input.shape[1] if input.dim() >= 2 else 1
    if weight.dim() > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_type_name(input)} and "
                           f"{_type_name(weight)}")
    if not input.is_floating_point():
        raise NotImplementedError(f'"prelu_cpu" not implemented for \'{_type_name(input)}\'')
    if weight.numel() != 1 and weight.numel() != channels:
        raise RuntimeError("Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {weight.numel()} and channel size = {channels}.")
    # (as PyTorch: the weight viewed to broadcast along dim 1, or to the input's dims)
    shape = (1, weight.numel()) + (1,) * (input.dim() - 2) if input.dim() >= 2 else \
        (weight.numel(),) * input.dim()
    if tuple(weight.shape) != shape:
        weight = weight.view(shape)
    return ops.activation.prelu(input, weight)


def softsign(input: Tensor) -> Tensor:
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x)."""
    return input - input.tanh()


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype=None) -> Tensor:
    """softmax(-x) along ``dim``: the smallest entries get the largest weights."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input if dtype is None else -input.to(dtype)).softmax(dim)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """sum(x1 * x2) / (max(||x1||, eps) * max(||x2||, eps)) along ``dim``, computed as
    PyTorch computes it: each tensor divided by its (clamped) norm first."""
    common = minigrad.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is "
                           f"{minigrad.dtypes.SCALAR_NAMES[common]}")
    # (integers are converted; floats keep their dtypes, broadcast first, so a float64
    # 0-dim x2 makes a float64 result, as in PyTorch)
    x1, x2 = (x if x.is_floating_point() else x.to(common) for x in (x1, x2))
    x1, x2 = _broadcast_pair(x1, x2)
    norm1 = x1.norm(2, dim, keepdim=True).clone()
    norm2 = x2.norm(2, dim, keepdim=True).clone()
    with minigrad.no_grad():  # (the clamp is not differentiated, as in PyTorch)
        norm1.clamp_(min=eps)
        norm2.clamp_(min=eps)
    return ((x1 / norm1) * (x2 / norm2)).sum(dim)


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    """Zero whole channels: one draw per (sample, channel), as PyTorch's feature_dropout
    (its noise of shape (N, C, 1, ...), drawn with bernoulli_, then divided by 1 - p)."""
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        scale = minigrad.zeros((), dtype=input.dtype)
    else:
        scale = minigrad.empty(_feature_noise_shape(input), dtype=input.dtype)
        scale = scale.bernoulli_(1 - p).div_(1 - p)
    return input.mul_(scale) if inplace else input * scale


def _feature_noise_shape(input: Tensor) -> tuple:
    """(N, C, 1, ...): one draw per sample and channel (PyTorch's make_feature_noise)."""
    return (input.shape[0], input.shape[1]) + (1,) * (input.dim() - 2)


def _unbatched_feature_dropout(input: Tensor, p: float, training: bool,
                               inplace: bool) -> Tensor:
    """_feature_dropout of an input without its batch dim: one made, then taken away."""
    batched = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(batched, p, training, inplace)
    return result.squeeze_(0) if inplace else result.squeeze(0)


_SATURATION = 1.7580993408473766  # (SELU scale * alpha: -SELU at -inf, where dropped ones go)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    """Dropout for self-normalising networks (SELU): each element set, with probability
    ``p``, to SELU's saturation value, then all moved and scaled back to mean 0 and
    variance 1; as PyTorch's kernel: a bernoulli noise, input * noise + b."""
    _check_p(p)
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    """alpha_dropout of whole channels: one draw per (sample, channel)."""
    _check_p(p)
    return _alpha_dropout(input, p, training, inplace, feature=True)


def _alpha_dropout(input: Tensor, p: float, training: bool, inplace: bool,
                   feature: bool) -> Tensor:
    """PyTorch's _dropout_impl with alpha: a = 1 / sqrt((alpha^2 p + 1)(1 - p)),
    noise ~ Bernoulli(1 - p), b = (noise - 1) alpha a + alpha a p; input * (noise a) + b."""
    if p == 0 or not training or input.numel() == 0:
        return input
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        zero = minigrad.zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    shape = _feature_noise_shape(input) if feature else tuple(input.shape)
    noise = minigrad.empty(shape, dtype=input.dtype).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_SATURATION * _SATURATION * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_SATURATION * a).add_(_SATURATION * a * p)
    noise.mul_(a)
    return input.mul_(noise).add_(b) if inplace else (input * noise).add_(b)


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) (or (C, L)) input with probability ``p``."""
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note "
            "that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    if input.dim() == 3:
        return _feature_dropout(input, p, training, inplace)
    return _unbatched_feature_dropout(input, p, training, inplace)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels (feature maps) of (N, C, H, W) input with probability ``p``."""
    _check_p(p)
    if input.dim() not in (3, 4):
        errors.warn(
            f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated "
            "and will result in an error in a future release. To retain the behavior and "
            "silence this warning, please use dropout instead. Note that dropout2d exists to "
            "provide channel-wise dropout on inputs with 2 spatial dimensions, a channel "
            "dimension, and an optional batch dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if input.dim() == 3:
        errors.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels (volumes) of (N, C, D, H, W) (or (C, D, H, W)) input with
    probability ``p``."""
    _check_p(p)
    if input.dim() not in (4, 5):
        errors.warn(
            f"dropout3d: Received a {input.dim()}-D input to dropout3d, which is deprecated "
            "and will result in an error in a future release. To retain the behavior and "
            "silence this warning, please use dropout instead. Note that dropout3d exists to "
            "provide channel-wise dropout on inputs with 3 spatial dimensions, a channel "
            "dimension, and an optional batch dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    if input.dim() == 5:
        return _feature_dropout(input, p, training, inplace)
    return _unbatched_feature_dropout(input, p, training, inplace)


# ---- losses ------------------------------------------------------------------

def one_hot(input: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices (an int64 tensor of any shape) as rows of 0s and one 1, int64:
    ``one_hot(tensor([0, 2]), 3)`` is ``tensor([[1, 0, 0], [0, 0, 1]])``. With
    ``num_classes=-1`` there are ``input.max() + 1`` classes."""
    if not isinstance(input, Tensor):
        raise TypeError(f"one_hot(): argument 'input' (position 1) must be Tensor, "
                        f"not {type(input).__name__}")
    if not isinstance(num_classes, int) or isinstance(num_classes, bool):
        raise TypeError(f"one_hot(): argument 'num_classes' (position 2) must be int, "
                        f"not {type(num_classes).__name__}")
    if input.dtype != minigrad.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if input.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    elif input.is_meta and num_classes != -1:
        pass  # (no values to check)
    elif input.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    elif num_classes == -1:
        num_classes = int(input.max()) + 1
    elif input.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return (input.unsqueeze(-1) == minigrad.arange(num_classes, device=input.device)).long()


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _check_reduction(reduction: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    """The ``reduction`` meant by the pre-0.4 arguments, with PyTorch's warning:
    ``reduce=False`` -> 'none'; else ``size_average=False`` -> 'sum'; else 'mean'
    (None counts as True). The warning points at the caller, as PyTorch's does."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    errors.warn(errors.LEGACY_REDUCTION.format(reduction), UserWarning, stacklevel=2)
    return reduction


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """Mean squared error: loss_i = (input_i - target_i)**2, then reduced."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target.shape != input.shape:
        errors.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", stacklevel=2)
        # (torch.broadcast_tensors first, as PyTorch's mse_loss: the smaller one is
        # expanded, ExpandBackward0 in its graph)
        shape = broadcast_shapes(input.shape, target.shape)
        input, target = (t if t.shape == shape else t.expand(shape) for t in (input, target))
    _check_float_kernel("mse_cpu", input, target)
    return ops.mse_loss(input, target, reduction)


def _type_name(tensor: Tensor) -> str:
    """'Long', 'Float', ...: how PyTorch's messages name a dtype."""
    return tensor.type()[len("torch."):-len("Tensor")]


def _check_float_kernel(kernel: str, *tensors: Tensor) -> None:
    """A loss whose kernel PyTorch has for floating dtypes only: on integer or bool
    operands (their promoted dtype) its dispatch names the kernel, as PyTorch's does."""
    common = tensors[0].dtype if len(tensors) == 1 else minigrad.result_type(*tensors)
    if not common.is_floating_point:
        raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format(
            kernel, minigrad.dtypes.SCALAR_NAMES[common]))


def _check_class_targets(input: Tensor, target: Tensor, ignore_index: int,
                         weight: Tensor | None = None) -> None:
    """PyTorch's checks, with its messages and in its order, for targets holding
    class indices: shapes, the target's dtype (int64 or uint8), the weight's size,
    the input's dtype, then the classes themselves."""
    shape, target_shape = input._data.shape, target._data.shape
    ndim, target_ndim = len(shape), len(target_shape)
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    target_batch = target_shape[0] if target_ndim else 0  # (PyTorch counts a 0-dim target as 0)
    if ndim != 1 and shape[0] != target_batch:
        raise ValueError(f"Expected input batch_size ({shape[0]}) to match target "
                         f"batch_size ({target_batch}).")
    if ndim <= 2 and target_ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if ndim == 1 and target_ndim == 1 and target_shape[0] != 1:
        raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                           f"{target_shape[0]}")
    expected = [shape[0], *shape[2:]]
    if ndim > 2 and list(target_shape) != expected:
        raise RuntimeError(f"Expected target size {expected}, got {list(target_shape)}")
    if target.dtype is not minigrad.int64 and target.dtype is not minigrad.uint8:
        raise RuntimeError(errors.NLL_TARGET_DTYPE.format(_type_name(target)))
    n_classes = shape[0 if ndim == 1 else 1]
    if weight is not None:
        if ndim > 2:  # (torch's nll_loss2d counts the weight's elements only)
            if weight.numel() != n_classes:
                raise RuntimeError(errors.NLL2D_WEIGHT_SIZE)
        elif weight.dim() != 1 or weight.numel() != n_classes:
            raise RuntimeError(errors.NLL_WEIGHT_SIZE.format(n_classes, list(weight.shape)))
    if not input.is_floating_point():
        raise NotImplementedError(errors.NOT_IMPLEMENTED_FOR.format(
            "nll_loss2d_forward_out_frame" if ndim > 2 else "nll_loss_out_frame",
            minigrad.dtypes.SCALAR_NAMES[input.dtype]))
    if ndim > 2 and target.dtype is minigrad.uint8:  # (the images kernel reads int64 only)
        raise RuntimeError("expected scalar type Long but found Byte")
    if weight is not None and weight.dtype is not input.dtype:  # (the kernel reads it as input's)
        raise RuntimeError(f"expected scalar type {_type_name(input)} but found {_type_name(weight)}")
    targets = target._data
    if targets.size and np.minimum.reduce(targets, axis=None) >= 0 \
            and np.maximum.reduce(targets, axis=None) < n_classes:
        return  # (the usual case: every target is a class, in two passes)
    targets = targets.reshape(-1)  # (checked at once: one NumPy pass, not a loop)
    out_of_bounds = (targets != ignore_index) & ((targets < 0) | (targets >= n_classes))
    if out_of_bounds.any():
        raise IndexError(f"Target {targets[out_of_bounds][0]} is out of bounds.")


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """Negative log likelihood, for ``input`` holding log-probabilities of shape
    (N, C) and ``target`` holding class indices of shape (N,):

        loss_n = -weight[t_n] * input[n, t_n]     (0 where t_n == ignore_index)

    'mean' divides the sum by sum_n weight[t_n], not by N."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    _check_class_targets(input, target, ignore_index, weight)
    if input._data.ndim > 2:  # (N, C, d1, ...): torch's nll_loss2d, NllLoss2DBackward0
        return ops.nll_loss_images(input, target, weight, ignore_index, reduction)
    # (C,) scores with one class: torch's kernel takes them as they are (a 0-dim loss)
    return ops.nll_loss_rows(input, target, weight, ignore_index, reduction)


def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, *,
                         linear_bias: Tensor | None = None, weight: Tensor | None = None,
                         reduction: str = "mean", ignore_index: int | None = None,
                         label_smoothing: float = 0.0, options=None) -> Tensor:
    """cross_entropy of linear(input, linear_weight, linear_bias), the logits seen as
    (N, C, *out_features) for a linear_weight (C, *out_features, in_features): PyTorch's
    reference path (nn/linear_cross_entropy.py says what differs with ``options``)."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError("expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.dim()}")
    batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions "
                           f"(in_features), got {input.shape[-1]} and {linear_weight.shape[-1]}, "
                           "respectively")
    classes, places = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *places):
        raise RuntimeError(f"expected linear_bias shape {(classes, *places)}, got "
                           f"{tuple(linear_bias.shape)}")
    if places and not batches:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} "
            f"requires batched input, (N, {in_features}), got unbatched input with shape "
            f"{tuple(input.shape)}")
    logits_shape = (*batches, classes, *places)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = -100 if ignore_index is None else ignore_index
    if options is not None:
        _linear_cross_entropy_chunked(reduction, label_smoothing, target, places, linear_bias)
    logits = linear(input, linear_weight.reshape((math.prod(places, start=classes), in_features))
                    if places else linear_weight,
                    linear_bias.reshape(math.prod(places, start=classes))
                    if places and linear_bias is not None else linear_bias)
    return cross_entropy(logits.reshape(logits_shape), target, weight=weight,
                         reduction=reduction, ignore_index=ignore_index,
                         label_smoothing=label_smoothing)


def _linear_cross_entropy_chunked(reduction, label_smoothing, target, places, bias) -> None:
    """``options`` given: PyTorch's warning where it falls back to the reference path;
    where it would take its chunked path, minigrad's error (it has not got it)."""
    if places or reduction not in {"mean", "sum", "none"} or label_smoothing != 0.0 or \
            target.dtype is not minigrad.int64:
        errors.warn_at_caller(
            "linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
            "{'mean','sum','none'}, label_smoothing == 0, target.dtype == int64, out_features "
            f"== (). Got reduction={reduction!r}, label_smoothing={label_smoothing}, "
            f"target.dtype={target.dtype}, out_features={tuple(places)}, tracing=False, "
            f"linear_bias.shape={tuple(bias.shape) if bias is not None else None}.")
        return
    raise NotImplementedError(
        "minigrad's linear_cross_entropy computes PyTorch's reference path only (linear, then "
        "cross_entropy): pass options=None; PyTorch's chunked path (options given) is not in "
        "minigrad")


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """Softmax cross entropy for raw scores ``input`` of shape (N, C) (the
    class dimension is 1, or 0 for a single sample of shape (C,)).

    With class indices t_n:      loss_n = -log softmax(input_n)[t_n]
                                       = logsumexp(input_n) - input[n, t_n]
    With class probabilities p:  loss_n = -sum_c p[n, c] * log softmax(input_n)[c]
    (p has the shape of ``input``).

    ``weight`` rescales each class; ``label_smoothing`` = e mixes the target
    with the uniform distribution: (1 - e) * target + e / C."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    shape = input._data.shape
    class_dim = 0 if len(shape) == 1 else 1
    if target._data.shape == shape:
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {_type_name(target)}")
        return _cross_entropy_probabilities(input, target, weight, reduction, label_smoothing)
    if label_smoothing > 0:
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index,
                                       label_smoothing)
    return nll_loss(input.log_softmax(class_dim), target, weight, ignore_index=ignore_index,
                    reduction=reduction)


# The two helpers below follow ATen's C++ (LossNLL.cpp) step by step, so that the
# graph has PyTorch's nodes: its `tensor * double` is the Scalar overload
# (MulBackward1, ops.scalar_op), not Python's MulBackward0.

def _weight_view(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """The weight shaped to broadcast along the class dimension ((C, 1, 1) for images)."""
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return weight.view(shape)


def _cross_entropy_probabilities(input, target, weight, reduction, label_smoothing):
    """loss_n = -sum_c target[n, c] * log_softmax(input)[n, c] (times weight[c])."""
    ndim = input.dim()
    class_dim = 0 if ndim == 1 else 1
    n_classes = input.shape[class_dim]
    log_probs = input.log_softmax(class_dim)
    if label_smoothing > 0:
        target = ops.scalar_op(ops.scalar_op(target, "*", 1 - label_smoothing),
                               "+", label_smoothing / n_classes)
    products = log_probs * target
    if weight is not None:
        products = products * (_weight_view(weight, ndim, class_dim) if ndim > 1 else weight)
    if reduction == "none":
        return -products.sum(class_dim)
    if reduction == "sum":
        return -products.sum()
    if input.numel() == 0:  # (ATen's -(...).sum().fill_(NAN): the fill before the minus)
        return -products.sum().fill_(float("nan"))
    return ops.scalar_op(-products.sum(), "/", input.numel() // n_classes)  # (per sample)


def _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing):
    """(1 - e) * nll_loss + e / C * (the loss against every class, -sum_c log_probs[c])."""
    ndim = input.dim()
    class_dim = 0 if ndim == 1 else 1
    n_classes = input.shape[class_dim]
    log_probs = input.log_softmax(class_dim)
    loss = nll_loss(log_probs, target, weight, ignore_index=ignore_index, reduction=reduction)
    ignored = target == ignore_index
    if weight is None:
        smooth = -log_probs.sum(class_dim)
    else:
        smooth = -(log_probs * _weight_view(weight, ndim, class_dim)).sum(class_dim)
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / (~ignored).sum()
        else:
            smooth = smooth.sum() / weight.gather(0, target.masked_select(~ignored).flatten()).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (ops.scalar_op(loss, "*", 1 - label_smoothing)
            + ops.scalar_op(smooth, "*", label_smoothing / n_classes))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None,
                                     size_average: bool | None = None,
                                     reduce: bool | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross entropy on raw scores x (logits) and targets t in [0, 1]:

        loss = -[pos_weight * t * log sigmoid(x) + (1 - t) * log(1 - sigmoid(x))]
             = (1 - t) * x + (1 + (pos_weight - 1) * t) * log(1 + exp(-x))

    Computed as PyTorch computes it, (1 - t) * x - (1 + (pos_weight - 1) * t) * log sigmoid(x),
    with log sigmoid(x) = min(x, 0) - log(1 + exp(-|x|)), so no exp overflows: stable
    for any x."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    _check_float_kernel("log_sigmoid_cpu", input)
    check_sub(target, target)  # (bool targets: PyTorch's 1 - target refuses them)
    if not target.dtype.is_floating_point:
        # (PyTorch's first step, (1 - target).mul_(input), writes floats into the targets:
        # class labels as integers are refused; they must be floats, 0. and 1.)
        raise RuntimeError(f"result type {_type_name(input)} can't be cast to the desired "
                           f"output type {_type_name(target)}")
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


# ---- convolution and pooling (ops/conv.py) ----------------------------------------

def _tuple(value, n: int) -> tuple:
    """An int as n copies of itself; a tuple or list as a tuple."""
    return (value,) * n if isinstance(value, int) else tuple(value)


def _batched(input, spatial: int, name: str) -> tuple:
    """A convolution's input with its batch dim (an unbatched one gets a batch of one), and
    whether it had none; PyTorch's text for other dims."""
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(
            f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to {name}, "
            f"but got input of size: {list(input.shape)}")
    unbatched = input.dim() == spatial + 1
    return (input.unsqueeze(0) if unbatched else input), unbatched


def _conv(input, weight, bias, stride, padding, dilation, groups, spatial: int, name: str):
    """conv1d/conv2d: an unbatched input gets a batch of one (and loses it after)."""
    input, unbatched = _batched(input, spatial, name)
    stride, dilation = _tuple(stride, spatial), _tuple(dilation, spatial)
    if isinstance(padding, str):
        input, padding = _padding_named(input, weight, padding, stride, dilation)
    output = ops.convolution(input, weight, bias, stride, _tuple(padding, spatial), dilation,
                             groups)
    return output.squeeze(0) if unbatched else output


def _padding_named(input, weight, padding, stride, dilation):
    """'valid' is no padding; 'same' pads so that the output has the input's size (for
    stride 1): d (k - 1) in all, half on each side, the odd one on the right (with
    PyTorch's warning: a padded copy of the input)."""
    if padding == "valid":
        return input, (0,) * len(stride)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: {padding!r}")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    if any(total % 2 for total in totals):
        errors.warn("Using padding='same' with even kernel lengths and odd dilation may "
                    "require a zero-padded copy of the input be created", stacklevel=3)
        extra = [0, 0] * len(totals)
        for k, total in enumerate(reversed(totals)):
            extra[2 * k + 1] = total % 2
        input = ops.constant_pad(input, tuple(extra))
    return input, tuple(total // 2 for total in totals)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """1-D convolution (a cross-correlation, as in every deep learning library) of
    ``input`` (N, C_in, L) with ``weight`` (C_out, C_in / groups, k):

        y[n, o, i] = bias[o] + sum_{c, j} weight[o, c, j] input[n, c, s i + d j - p]

    (s, d, p: stride, dilation, padding)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """2-D convolution of ``input`` (N, C_in, H, W) with ``weight`` (C_out, C_in / groups,
    kH, kW): each output channel slides its kernel over the input and adds up the
    products (ConvolutionBackward0). ``padding`` may be an int, a pair, 'valid' or 'same'."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """3-D convolution of ``input`` (N, C_in, D, H, W) with ``weight`` (C_out, C_in / groups,
    kD, kH, kW): conv2d with one more spatial dim (volumes, videos; ConvolutionBackward0)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation,
                    spatial: int, name: str):
    input, unbatched = _batched(input, spatial, name)
    output = ops.conv_transpose(input, weight, bias, _tuple(stride, spatial),
                                _tuple(padding, spatial), _tuple(output_padding, spatial),
                                _tuple(dilation, spatial), groups)
    return output.squeeze(0) if unbatched else output


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The 1-D transposed convolution of ``input`` (N, C_in, L) with ``weight`` (C_in,
    C_out / groups, k): each input element times the kernel, added into the output at
    stride i + dilation j - padding. Length (L - 1) s - 2 p + d (k - 1) + output_padding + 1."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1, "conv_transpose1d")


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The 2-D transposed convolution ("deconvolution") of ``input`` (N, C_in, H, W) with
    ``weight`` (C_in, C_out / groups, kH, kW): the gradient of conv2d's input, as a layer
    that grows images (a DCGAN's generator; ConvolutionBackward0, transposed=True)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2, "conv_transpose2d")


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The 3-D transposed convolution of ``input`` (N, C_in, D, H, W) with ``weight`` (C_in,
    C_out / groups, kD, kH, kW): the volume-growing layer of 3-D U-Nets and video GANs."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 3, "conv_transpose3d")


# ---- resizing (ops/upsample.py) ----------------------------------------------------

_RESIZE_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


_ALIGN_CORNERS_CHANGED = ("Default grid_sample and affine_grid behavior has changed to "
                          "align_corners=False since 1.3.0. Please specify align_corners=True if "
                          "the old behavior is desired. See the documentation of grid_sample for "
                          "details.")


def affine_grid(theta: Tensor, size, align_corners=None) -> Tensor:
    """The grid of sampling points (N, H, W, 2) in [-1, 1] coordinates that the affine maps
    ``theta`` (N, 2, 3) send an output of ``size`` (N, C, H, W) to: the first half of a
    spatial transformer, ``grid_sample`` the second."""
    if align_corners is None:
        errors.warn(_ALIGN_CORNERS_CHANGED, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {theta.shape}.")
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                             f"{size}. Got {theta.shape}.")
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if align_corners and min(size[2:]) == 1:
        errors.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids "
                    "when align_corners=True. This is not an intended use case of affine_grid. "
                    "See the documentation of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return ops.sampling.affine_grid_generator(theta, size, align_corners)


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners=None) -> Tensor:
    """``input`` (N, C, H, W) read at the points of ``grid`` (N, Ho, Wo, 2), given as (x, y)
    in [-1, 1] (-1: the left or top edge): (N, C, Ho, Wo). ``mode`` "bilinear" or
    "nearest"; points outside read 0 ("zeros"), the nearest edge ("border") or the image
    reflected ("reflection"). Differentiable in both input and grid (GridSampler2DBackward0)."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        errors.warn(_ALIGN_CORNERS_CHANGED, stacklevel=2)
        align_corners = False
    return ops.sampling.grid_sampler(input, grid, ("bilinear", "nearest", "bicubic").index(mode),
                                     ("zeros", "border", "reflection").index(padding_mode),
                                     align_corners)


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """``input`` (N, C, *spatial) resized to ``size``, or by ``scale_factor``: 'nearest'
    (each output copies the input element it falls on: UpsampleNearest2DBackward0),
    'nearest-exact', 'linear' (3-D input) and 'bilinear' (4-D) (a weighted mean of the
    neighbours; ``align_corners``: the corner pixels' centres meet), 'area' (adaptive
    average pooling)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size "
                    f"of {size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                    "and output size in (o1, o2, ...,oK) format.")
            if not all(isinstance(n, int) for n in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                "or Tuple[int, int, int], but got size with types "
                                f"{[type(n) for n in size]}")
            output_size = list(size)
        else:
            output_size = [size] * dim
        scales = [None] * dim
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, "
                    "C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scales = [float(f) for f in scale_factor]
        else:
            scales = [float(scale_factor)] * dim
        # (PyTorch's C++: the size truncated from size * scale, in double)
        output_size = [int(n * f) for n, f in zip(input.shape[2:], scales)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor:
        scales = [None] * dim
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
                         "and requires a 4-D tensor as input")
    if mode == "lanczos" and input.dim() == 4:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if antialias:
        raise NotImplementedError("minigrad: interpolate(antialias=True) is not implemented")
    wanted = {("nearest", 1), ("nearest", 2), ("nearest", 3), ("nearest-exact", 1),
              ("nearest-exact", 2), ("nearest-exact", 3), ("linear", 1), ("bilinear", 2),
              ("trilinear", 3), ("bicubic", 2), ("area", 1), ("area", 2), ("area", 3)}
    if (mode, dim) not in wanted:
        if input.dim() not in (3, 4, 5) or mode not in _RESIZE_MODES.split(" | "):
            raise NotImplementedError(
                f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) "
                f"for the modes: {_RESIZE_MODES} (got {mode})")
        needs = {"linear": 3, "bilinear": 4, "trilinear": 5}.get(mode)
        if needs is not None and needs != input.dim():
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                      f"{needs}D input")
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) "
            f"for the modes: {_RESIZE_MODES} (got {mode})")  # (bicubic of 3D or 5D, lanczos)
    if mode == "area":
        pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[dim - 1]
        return pool(input, output_size)
    _check_resize_sizes(input, output_size)
    if input.dtype == minigrad.uint8 and mode.startswith("nearest"):  # (PyTorch's image bytes)
        return ops.upsample(input.float(), output_size, scales, mode, align_corners).to(input.dtype)
    if not input.dtype.is_floating_point:
        if dim != 2 or mode == "bicubic":  # (the 1-D and 3-D kernels' words)
            what = {"bicubic": "cubic"}.get(mode, "nearest" if mode.startswith("nearest")
                                           else "linear")
            raise NotImplementedError(f'"compute_indices_weights_{what}" not implemented for '
                                      f"'{_type_name(input)}'")
        kernel = {"nearest": "upsample_nearest", "nearest-exact": "upsample_nearest",
                  "linear": "upsample_linear", "bilinear": "upsample_bilinear"}[mode]
        raise NotImplementedError(f'"{kernel}{dim}d_channels_last" not implemented for '
                                  f"'{_type_name(input)}'")
    kind = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    return ops.upsample(input, output_size, scales, kind, align_corners)


def _check_resize_sizes(input: Tensor, output_size) -> None:
    """ATen's upsample checks: every input and output size positive, then a non-empty
    channel dim."""
    given = input.shape[2:]
    if 0 in given or 0 in output_size:
        names = "DHW"[-len(given):]
        shown = [", ".join(f"{n}: {v}" for n, v in zip(names, sizes)) for sizes in (given, output_size)]
        joint = " and " if len(given) == 1 else " "
        raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                           f"({shown[0]}){joint}output ({shown[1]})")
    if not input.shape[1]:
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor with "
                           f"sizes {_shape_text(input.shape)}")


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """input / (k + alpha * mean of input^2 over ``size`` neighbouring channels)^beta, the
    mean an average pooling across the channels (PyTorch's own composition, so the same
    nodes: DivBackward0 last)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {dim} dimensions)")  # (PyTorch's text, its spaces too)
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """(N, C, *) with the channels of ``groups`` groups interleaved: channel j (C / g) + k
    goes to k g + j (ShuffleNet; ChannelShuffleBackward0)."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    if input.shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got "
                           f"{input.shape[1]} channels and {groups} groups.")
    return ops.channel_shuffle(input, groups)


native_channel_shuffle = channel_shuffle


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C r^2, H, W) -> (*, C, H r, W r) for r = ``upscale_factor``: r^2 channels become
    an r x r block of pixels (sub-pixel convolution's upsampling; PixelShuffleBackward0)."""
    _check_shuffle(input, upscale_factor, "pixel_shuffle", "upscale_factor")
    channels = input.shape[-3]
    if channels % (upscale_factor * upscale_factor):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)="
                           f"{channels} is not divisible by {upscale_factor * upscale_factor}")
    return ops.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H r, W r) -> (*, C r^2, H, W): each r x r block of pixels into r^2 channels."""
    _check_shuffle(input, downscale_factor, "pixel_unshuffle", "downscale_factor")
    for name, size in (("height", input.shape[-2]), ("width", input.shape[-1])):
        if size % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({-2 if name == 'height' else -1})"
                               f"={size} is not divisible by {downscale_factor}")
    return ops.pixel_unshuffle(input, downscale_factor)


def _check_shuffle(input: Tensor, factor: int, name: str, what: str) -> None:
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


def _pool_sizes(kernel_size, stride, padding, dilation, name: str, spatial: int = 2):
    """kernel, stride (the kernel when not given), padding and dilation, one value per
    spatial dim, and the stride as the node shows it (() when not given)."""
    either = "" if name == "avg_pool3d" else "either "  # (PyTorch's texts differ so)

    def per_dim(value, what, text=f"{either}be a single int"):
        value = _tuple(value, spatial)
        if len(value) not in (1, spatial):
            raise RuntimeError(f"{name}: {what} must {text}, or a tuple of "
                               f"{('two', 'three')[spatial - 2]} ints")
        return value * spatial if len(value) == 1 else value

    kernel = per_dim(kernel_size, "kernel_size")
    shown = () if stride is None or stride == [] or stride == () else _tuple(stride, spatial)
    strides = per_dim(shown, "stride", f"{either}be omitted, a single int") if shown else kernel
    return (kernel, strides, per_dim(padding, "padding"),
            per_dim(dilation, "dilation", "be either a single int"), shown)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """The largest element of each kernel_size window, windows ``stride`` apart (the
    kernel size by default). With ``return_indices``, also where each one was (h * W + w)."""
    kernel, strides, padding, dilation, shown = _pool_sizes(kernel_size, stride, padding,
                                                            dilation, "max_pool2d")
    return ops.max_pool(input, kernel, strides, padding, dilation, ceil_mode, shown,
                        return_indices)


def max_pool3d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """max_pool2d over volumes (N, C, D, H, W): the largest element of each kD x kH x kW
    window (MaxPool3DWithIndicesBackward0; indices t * H * W + h * W + w)."""
    kernel, strides, padding, dilation, shown = _pool_sizes(kernel_size, stride, padding,
                                                            dilation, "max_pool3d", 3)
    return ops.max_pool(input, kernel, strides, padding, dilation, ceil_mode, shown,
                        return_indices)


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """max_pool2d over a row: ``input`` (N, C, L) seen as (N, C, 1, L)."""
    given = _tuple(kernel_size, 1)[0]
    stride = given if stride is None or stride == [] else _tuple(stride, 1)[0]
    if not return_indices:  # (PyTorch's own 1-D kernel, its checks)
        ops.check_max_pool1d(input, given, stride, _tuple(padding, 1)[0],
                             _tuple(dilation, 1)[0], ceil_mode)
        if not input.is_floating_point():
            ops.check_pool_dtype(input, "max_pool1d_impl")
    result = max_pool2d(input.unsqueeze(-2), (1, given), (1, stride), (0, _tuple(padding, 1)[0]),
                        (1, _tuple(dilation, 1)[0]), ceil_mode, return_indices)
    if return_indices:
        return result[0].squeeze(-2), result[1].squeeze(-2)
    return result.squeeze(-2)


def _unpool_output_size(input: Tensor, kernel_size, stride, padding, output_size) -> list:
    """The size max_unpool restores: (n - 1) stride + kernel - 2 padding per spatial dim,
    or ``output_size`` (its last dims) if within a stride of it (PyTorch's checks)."""
    spatial = len(kernel_size)
    default = [(input.shape[input.dim() - spatial + d] - 1) * stride[d] + kernel_size[d]
               - 2 * padding[d] for d in range(spatial)]
    if output_size is None:
        return default
    if len(output_size) == spatial + 2:
        output_size = output_size[2:]
    if len(output_size) != spatial:
        raise ValueError(f"output_size should be a sequence containing {spatial} or "
                         f"{spatial + 2} elements, but it has a length of '{len(output_size)}'")
    for d in range(spatial):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f"{low} and {high})")
    return output_size


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, spatial: int):
    kernel = _tuple(kernel_size, spatial)
    strides = kernel if stride is None else _tuple(stride, spatial)
    size = _unpool_output_size(input, kernel, strides, _tuple(padding, spatial), output_size)
    return ops.max_unpool(input, indices, size)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """max_pool2d partly undone: each value put back where ``indices`` (max_pool2d's
    return_indices) say it came from, zeros elsewhere (MaxUnpool2DBackward0)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """max_pool3d partly undone (MaxUnpool3DBackward0)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """max_pool1d partly undone: max_unpool2d of (N, C, L, 1), as PyTorch."""
    kernel = _tuple(kernel_size, 1)
    strides = kernel if stride is None else _tuple(stride, 1)
    padding = _tuple(padding, 1)
    size = _unpool_output_size(input, kernel, strides, padding, output_size)
    return ops.max_unpool(input.unsqueeze(-1), indices.unsqueeze(-1), (size[0], 1)).squeeze(-1)


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each kernel_size window, windows ``stride`` apart (the kernel size by
    default); padding counts as zeros (``count_include_pad``)."""
    kernel, strides, padding, _, shown = _pool_sizes(kernel_size, stride, padding, 1,
                                                     "avg_pool2d")
    return ops.avg_pool(input, kernel, strides, padding, ceil_mode, count_include_pad,
                        divisor_override, shown)


def avg_pool3d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """avg_pool2d over volumes (N, C, D, H, W): the mean of each kD x kH x kW window
    (AvgPool3DBackward0)."""
    kernel, strides, padding, _, shown = _pool_sizes(kernel_size, stride, padding, 1,
                                                     "avg_pool3d", 3)
    return ops.avg_pool(input, kernel, strides, padding, ceil_mode, count_include_pad,
                        divisor_override, shown)


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """avg_pool2d over a row: ``input`` (N, C, L) seen as (N, C, 1, L)."""
    given = _tuple(kernel_size, 1)[0]
    stride = given if stride is None or stride == [] else _tuple(stride, 1)[0]
    return avg_pool2d(input.unsqueeze(-2), (1, given), (1, stride), (0, _tuple(padding, 1)[0]),
                      ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Averages over a grid of ``output_size`` (h, w) regions, whatever the input's size:
    output (i, j) is the mean of rows [floor(i H / h), ceil((i + 1) H / h)) and the
    columns alike. ``None`` keeps that size; (1, 1) is the mean over H and W."""
    return _adaptive_avg_pool(input, output_size, 2)


def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    """adaptive_avg_pool2d over volumes (N, C, D, H, W): a grid of ``output_size`` (d, h, w)
    regions (AdaptiveAvgPool3DBackward0); (1, 1, 1) is the mean over D, H and W."""
    return _adaptive_avg_pool(input, output_size, 3)


def _adaptive_sizes(input: Tensor, output_size, spatial: int, kind: str) -> tuple:
    """``output_size`` as one int per spatial dim, ``None`` the input's size there."""
    size = (output_size,) * spatial if output_size is None else _tuple(output_size, spatial)
    if len(size) != spatial:
        raise RuntimeError(f"adaptive_avg_pool{spatial}d: output_size must be {spatial}"
                           if kind == "avg" else f"adaptive_max_pool{spatial}d(): internal "
                           f"error: output_size.size() must be {spatial}")
    if input.dim() in (spatial + 1, spatial + 2):
        size = tuple(input.shape[k - spatial] if s is None else s for k, s in enumerate(size))
    if spatial == 3 and kind == "avg" and any(s < 0 for s in size):
        raise RuntimeError("adaptive_avg_pool3d: elements of output_size must be greater than "
                           f"or equal to 0 but received {{{size[0]}, {size[1]},{size[2]}}}")
    return size


def _adaptive_avg_pool(input: Tensor, output_size, spatial: int) -> Tensor:
    size = _adaptive_sizes(input, output_size, spatial, "avg")
    if size == (1,) * spatial and input.dim() in (spatial + 1, spatial + 2):
        # (as PyTorch: a mean, MeanBackward1; of a channels-last batch, given its strides in
        # place, AsStridedBackward1)
        out = input.mean(tuple(range(-1, -spatial - 1, -1)), keepdim=True)
        if layouts.suggested_format(input.shape, input.stride()) is \
                (layouts.channels_last, layouts.channels_last_3d)[spatial - 2]:
            n, c = input.shape[:2]
            out.as_strided_((n, c) + size, (c, 1) + (c,) * spatial)
        return out
    return ops.adaptive_avg_pool(input, size)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """The largest element of each of a grid of ``output_size`` (h, w) regions (rows
    [floor(i H / h), ceil((i + 1) H / h)), the columns alike; ``None`` keeps that size);
    with ``return_indices``, also where each was (h * W + w)."""
    return ops.adaptive_max_pool(input, _adaptive_sizes(input, output_size, 2, "max"),
                                 return_indices)


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """adaptive_max_pool2d over volumes (N, C, D, H, W) (AdaptiveMaxPool3DBackward0;
    indices t * H * W + h * W + w)."""
    return ops.adaptive_max_pool(input, _adaptive_sizes(input, output_size, 3, "max"),
                                 return_indices)


def _fractional_max_pool(input: Tensor, kernel_size, output_size, output_ratio,
                         return_indices: bool, samples, spatial: int):
    """Fractional max pooling, as PyTorch's functional.py: the output size from the ratio,
    each (batch element, channel) plane's samples drawn with ``rand`` when not given."""
    name = f"fractional_max_pool{spatial}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if spatial == 2 and len(output_ratio) > 2:  # (PyTorch's len(): a float is refused)
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple "
                             "of Ints.")
        ratio = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) \
            else (output_ratio,) * spatial
        output_size = [int(input.size(d - spatial) * ratio[d]) for d in range(spatial)]
    if samples is None:
        batch = 1 if input.dim() == spatial + 1 else input.size(0)
        samples = minigrad.rand(batch, input.size(-spatial - 1), spatial, dtype=input.dtype)
    values, indices = ops.fractional_max_pool(
        input, ops.fractional_sizes(kernel_size, spatial, "kernel_size"),
        ops.fractional_sizes(output_size, spatial, "output_size"), samples)
    return (values, indices) if return_indices else values


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """The largest element of each ``kernel_size`` window, the windows at pseudo-random
    steps that shrink (H, W) to ``output_size`` (or by ``output_ratio``): each plane draws
    its steps from its own samples (``rand`` unless ``_random_samples`` is given)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 2)


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """fractional_max_pool2d over volumes (N, C, T, H, W) (FractionalMaxPool3DBackward0)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 3)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size, output_size=None,
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, True,
                                _random_samples, 2)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size, output_size=None,
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, True,
                                _random_samples, 3)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """adaptive_max_pool2d over a row: ``input`` (N, C, L) seen as (N, C, 1, L)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "adaptive_max_pool1d)")
    ops.check_adaptive_empty(input, "adaptive_max_pool1d()", 1)
    result = adaptive_max_pool2d(input.unsqueeze(-2), (1, _tuple(output_size, 1)[0]),
                                 return_indices)
    if return_indices:
        return result[0].squeeze(-2), result[1].squeeze(-2)
    return result.squeeze(-2)


def _lp_pool(pool, input: Tensor, norm_type: float, kernel_size, stride, ceil_mode: bool,
             window: int) -> Tensor:
    """(sum of x ** p over each window) ** (1 / p), as PyTorch's lp_pool: an average pool of
    x ** p times the window's size (its sign kept, the rest through relu), then the root;
    p = inf is the largest |x| (max pooling), -inf the smallest."""
    if isinstance(norm_type, (int, float)) and norm_type == float("inf"):
        return pool[1](input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if isinstance(norm_type, (int, float)) and norm_type == -float("inf"):
        return -pool[1](-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = pool[0](input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = pool[0](input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (minigrad.sign(out) * relu(minigrad.abs(out))).mul(window).pow(1.0 / norm_type)


def _window(kernel_size, dims: int) -> int:
    sizes = (kernel_size,) * dims if isinstance(kernel_size, int) else tuple(kernel_size)
    return math.prod(sizes)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride=None,
              ceil_mode: bool = False) -> Tensor:
    """The p-norm of each window of a row (N, C, L): see ``_lp_pool``."""
    return _lp_pool((avg_pool1d, max_pool1d), input, norm_type, kernel_size, stride,
                    ceil_mode, kernel_size)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    """The p-norm of each window of an image (N, C, H, W): see ``_lp_pool``."""
    return _lp_pool((avg_pool2d, max_pool2d), input, norm_type, kernel_size, stride,
                    ceil_mode, _window(kernel_size, 2))


def lp_pool3d(input: Tensor, norm_type: float, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    """The p-norm of each window of a volume (N, C, D, H, W): see ``_lp_pool``."""
    return _lp_pool((avg_pool3d, max_pool3d), input, norm_type, kernel_size, stride,
                    ceil_mode, _window(kernel_size, 3))


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """adaptive_avg_pool2d over a row: ``input`` (N, C, L) seen as (N, C, 1, L)."""
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _tuple(output_size, 1)[0])).squeeze(-2)


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Every kernel_size window of ``input`` (N, C, H, W) as a column: (N, C * kH * kW, L),
    L the number of windows ("im2col"; a convolution is ``weight.view(O, -1) @ unfold(x)``)."""
    return ops.unfold(input, _tuple(kernel_size, 2), _tuple(dilation, 2), _tuple(padding, 2),
                      _tuple(stride, 2))


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """The adjoint of ``unfold``: columns (N, C * kH * kW, L) added back into an image of
    ``output_size``, where windows overlap the values summed."""
    return ops.fold(input, _tuple(output_size, 2), _tuple(kernel_size, 2), _tuple(dilation, 2),
                    _tuple(padding, 2), _tuple(stride, 2))



def _broadcast_pair(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """``torch.broadcast_tensors(input, target)``: the smaller one expanded."""
    shape = broadcast_shapes(input.shape, target.shape)
    return tuple(t if t.shape == shape else t.expand(shape) for t in (input, target))


def _size_warning(input: Tensor, target: Tensor) -> None:
    if target.shape != input.shape:
        errors.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", stacklevel=3)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """Binary cross entropy on probabilities x in [0, 1] (after a sigmoid):

        loss_i = -w_i [t_i log(x_i) + (1 - t_i) log(1 - x_i)]

    Each log is clamped at -100, as in PyTorch, so x = 0 or 1 gives a finite loss.
    (On raw scores, ``binary_cross_entropy_with_logits`` is the stable choice.)"""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the "
                         f"input size ({input.shape}) is deprecated. Please ensure they have "
                         "the same size.")
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    _check_float_kernel("binary_cross_entropy", input)
    if weight is not None:
        weight = weight.expand(broadcast_shapes(target.shape, weight.shape))
    return ops.binary_cross_entropy(input, target, weight, reduction)


def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
            reduce: bool | None = None, reduction: str = "mean",
            weight: Tensor | None = None) -> Tensor:
    """Mean absolute error: loss_i = |x_i - t_i|, then reduced (PyTorch builds it from
    sub, abs and mean, so the graph shows those nodes). With ``weight`` (input's shape):
    w_i |x_i - t_i|, and 'mean' divides by sum(w)."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _size_warning(input, target)
    input, target = _broadcast_pair(input, target)
    if weight is None:
        _check_reduction(reduction)
        return _reduce((input - target).abs(), reduction)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    losses = (input - target).abs() * weight
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', "
                         "'mean', 'sum'.")
    return losses if reduction == "none" else losses.sum() if reduction == "sum" \
        else losses.sum() / weight.sum()


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """loss_i = 0.5 d**2 / beta where |d| < beta, else |d| - 0.5 beta (d = x_i - t_i):
    squared near 0, absolute beyond beta, so outliers pull less than in MSE."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    _size_warning(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    input, target = _broadcast_pair(input, target)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    _check_float_kernel("smooth_l1_cpu", input, target)
    return ops.smooth_l1_loss(input, target, reduction, beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """loss_i = 0.5 d**2 where |d| < delta, else delta (|d| - 0.5 delta) (d = x_i - t_i):
    smooth_l1_loss times delta."""
    _check_reduction(reduction)
    _size_warning(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    input, target = _broadcast_pair(input, target)
    common = minigrad.result_type(input, target)  # (its result has the input's dtype)
    if not minigrad.can_cast(common, input.dtype):
        raise RuntimeError(f"result type {minigrad.dtypes.SCALAR_NAMES[common]} can't be cast "
                           f"to the desired output type {_type_name(input)}")
    _check_float_kernel("huber_cpu", input, target)
    return ops.huber_loss(input, target, reduction, delta)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: Tensor | None = None) -> Tensor:
    """x / max(||x||_p, eps) along ``dim``: each slice scaled to length 1."""
    denom = ops.clamp_min(input.norm(p, dim, keepdim=True), eps).expand_as(input)
    if out is not None:
        return minigrad.div(input, denom, out=out)
    return input / denom


def pad(input: Tensor, pad, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last dims: ``pad = (left, right)`` for the last dim, then
    ``(left, right, top, bottom)`` for the last two, and so on; negative amounts crop.
    ``mode='constant'`` fills with ``value`` (0 by default); ``'reflect'`` mirrors the
    edges (without repeating them), ``'replicate'`` repeats them, ``'circular'`` wraps
    around (the left border copies the right end; 1 to 3 padded dims)."""
    if mode == "constant":
        return ops.constant_pad(input, tuple(pad), 0 if value is None else value)
    ops.check_pad(input, pad)
    if value is not None and value != 0.0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    dims = len(pad) // 2
    if not 1 <= dims <= 3 or input.dim() not in (dims + 1, dims + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode != "circular" and 0 in input.shape[int(input.dim() == dims + 2):]:
        raise RuntimeError(f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with possibly "
                           "0 batch size and other non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    if mode == "reflect":
        for i in range(dims):
            dim = input.dim() - 1 - i
            if pad[2 * i] >= input.shape[dim] or pad[2 * i + 1] >= input.shape[dim]:
                raise RuntimeError(
                    f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                    f"input dimension, but got: padding ({pad[2 * i]}, {pad[2 * i + 1]}) at "
                    f"dimension {dim} of input {list(input.shape)}")
    if mode == "circular":
        return _pad_circular(input, tuple(pad))
    return ops.padding.edge_pad(input, pad, mode)


def _pad_circular(input: Tensor, pad: tuple) -> Tensor:
    """Circular padding as ATen's _pad_circular writes it (so CopySlices records it): an
    empty output, the input copied into its middle, then per padded dim (the last first)
    the left border copied from the right end and the right border from the left."""
    padded = len(pad) // 2
    shape = list(input.shape)
    for i in range(padded):
        left, right, size = pad[2 * i], pad[2 * i + 1], shape[-1 - i]
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        shape[-1 - i] = size + left + right
        if shape[-1 - i] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(shape)
    middle, source = out, input  # (narrowed one dim after the other, as ATen slices)
    for i in range(padded):
        left, right, dim = pad[2 * i], pad[2 * i + 1], len(shape) - 1 - i
        middle = middle.narrow(dim, max(left, 0), shape[dim] - max(right, 0) - max(left, 0))
        source = source.narrow(dim, max(-left, 0),
                               input.shape[dim] - max(-right, 0) - max(-left, 0))
    middle.copy_(source)
    for i in range(padded):
        left, right, dim = pad[2 * i], pad[2 * i + 1], len(shape) - 1 - i
        if left > 0:
            end = shape[dim] - max(right, 0)
            out.narrow(dim, 0, left).copy_(out.narrow(dim, end - left, left))
        if right > 0:
            out.narrow(dim, shape[dim] - right, right).copy_(out.narrow(dim, max(left, 0), right))
    return out


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,
           reduce: bool | None = None, reduction: str = "mean", log_target: bool = False) -> Tensor:
    """Kullback-Leibler divergence, for log-probabilities ``input`` and probabilities
    ``target`` (log-probabilities with ``log_target=True``):

        loss_i = target_i * (log(target_i) - input_i)

    ``'batchmean'`` divides the sum by the batch size (the KL divergence proper);
    ``'mean'`` divides by the number of elements, with PyTorch's warning."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if reduction == "mean":
        errors.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                    "support size.'batchmean' divides only by the batch size, and aligns with "
                    "the KL div math definition.'mean' will be changed to behave the same as "
                    "'batchmean' in the next major release.", stacklevel=2)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # (the right operand first, as PyTorch's C++ evaluates it: the order in which the
    # gradients reach target, so their sum's last bit)
    if log_target:
        difference = target - input
        losses = target.exp() * difference
    else:
        # target * log(target), 0 where target is 0 (XlogyBackward0, as PyTorch's graph)
        product = target * input
        losses = minigrad.xlogy(target, target) - product
    if reduction == "batchmean" and input.dim() != 0:
        return losses.sum() / input.shape[0]
    return _reduce(losses, "sum" if reduction == "batchmean" else reduction)

def _reduction_of(size_average, reduce, reduction: str) -> str:
    """``reduction``, or the one the pre-0.4 arguments mean (with PyTorch's warning)."""
    if size_average is not None or reduce is not None:
        return legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    return reduction


def _rsub(number: float, x: Tensor) -> Tensor:
    """``number - x`` as C++ computes it (``empty_like(x).fill_(number).sub_(x)``:
    SubBackward0, where Python's ``number - x`` records RsubBackward1)."""
    return minigrad.full_like(x, number) - x


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """loss_i = max(0, -y_i (x1_i - x2_i) + margin): y_i = 1 asks x1_i to rank above
    x2_i by ``margin``, y_i = -1 below it."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    losses = ops.scalar_op(-target * (input1 - input2), "+", margin).clamp_min(0)
    return _reduce(losses, reduction)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """loss_i = x_i where y_i = 1, max(0, margin - x_i) where y_i = -1 (x: distances)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    zeros = minigrad.zeros_like(input)
    margin_clamp = _rsub(margin, input).clamp_min(0)
    losses = minigrad.where(target != 1, margin_clamp, zeros) \
        + minigrad.where(target != -1, input, zeros)
    return _reduce(losses, reduction)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """loss_i = log(1 + exp(-y_i x_i)) for labels y_i = 1 or -1 (a smooth hinge);
    one node, SoftMarginLossBackward0, as in PyTorch."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if not input.dtype.is_floating_point and input.dtype != minigrad.bool:
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           f"{_type_name(input)}")
    return ops.soft_margin_loss(input, target, reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    """loss_i = 1 - cos(x1_i, x2_i) where y_i = 1, max(0, cos(x1_i, x2_i) - margin)
    where y_i = -1: pulls pairs marked alike together, pushes the others apart."""
    reduction = _reduction_of(size_average, reduce, reduction)
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dim + 1 or input2.dim() != dim + 1:
        raise RuntimeError(
            f"{dim}D target tensor expects {dim + 1}D input tensors, but found inputs with "
            f"sizes {list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = ops.scalar_op((input1 * input1).sum(dim), "+", 1e-12)
    mag_square2 = ops.scalar_op((input2 * input2).sum(dim), "+", 1e-12)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    zeros = minigrad.zeros_like(cos)
    pos = _rsub(1, cos)
    neg = ops.scalar_op(cos, "-", margin).clamp_min(0)
    losses = minigrad.where(target == 1, pos, zeros) + minigrad.where(target == -1, neg, zeros)
    return _reduce(losses, reduction)


def pdist(input: Tensor, p: float = 2) -> Tensor:  # noqa: A002 - PyTorch's name
    """The p-norm distance between each pair of rows i < j (``torch.pdist``)."""
    return minigrad.pdist(input, p)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """||x1 - x2 + eps||_p along the last dim: one distance per row."""
    last = max(x1.dim(), x2.dim()) - 1
    return ops.aten_norm(ops.scalar_op(x1 - x2, "+", eps), p, last, keepdim)


def _check_triplet(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float) -> None:
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if not anchor.dim() == positive.dim() == negative.dim():
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {anchor.dim()}D, positive {positive.dim()}D, "
            f"and negative {negative.dim()}D inputs")


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                        p: float = 2, eps: float = 1e-6, swap: bool = False,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """loss_i = max(0, d(a_i, p_i) - d(a_i, n_i) + margin), d the p-norm distance:
    the anchor nearer its positive than its negative, by ``margin``. ``swap`` uses
    min(d(a, n), d(p, n)) for the negative's distance."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _check_triplet(anchor, positive, negative, margin)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = minigrad.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    losses = (ops.scalar_op(dist_pos, "+", margin) - dist_neg).clamp_min(0)
    return _reduce(losses, reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function=None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """triplet_margin_loss with any ``distance_function(x1, x2)`` (pairwise_distance
    by default), written in Python in PyTorch too."""
    _check_reduction(reduction)
    _check_triplet(anchor, positive, negative, margin)
    distance = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = minigrad.minimum(dist_neg, distance(positive, negative))
    return _reduce(minigrad.clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average: bool | None = None,
                      reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss for scores x (N, C) and class indices y (N,):
    loss_n = sum_{c != y_n} max(0, margin - x[n, y_n] + x[n, c])**p / C
    (times weight[y_n]); one node, MultiMarginLossBackward0, as in PyTorch."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _check_multi_margin(input, target, weight)
    return ops.multi_margin_loss(input, target, p, margin, weight, reduction)


def _check_multi_margin(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """PyTorch's checks of multi_margin_loss's shapes, dtypes and classes."""
    dims = input.dim()
    if not (dims == 2 and input.shape[1] != 0 or dims == 1 and input.shape[0] != 0
            or dims == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    frames = 1 if dims <= 1 else input.shape[0]
    classes = 1 if dims == 0 else input.shape[-1]
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{frames}], but got "
            f"{list(target.shape)}. Input has shape {list(input.shape)}.")
    if weight is not None and (weight.dim() > 1 or weight.numel() != classes):
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got "
                           f"{list(weight.shape)}")
    if input.dtype not in (minigrad.float32, minigrad.float64):  # (the kernel's dispatch first)
        raise NotImplementedError('"multi_margin_loss_cpu_kernel" not implemented for '
                                  f"'{_type_name(input)}'")
    if target.dtype != minigrad.long:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target)}")
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(input)} but found "
                           f"{_type_name(weight)}")
    if target.numel() and (target.min() < 0 or target.max() >= classes):
        raise RuntimeError("target out of range")


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                           reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """Multi-label hinge loss for scores x (N, C) (or (C,)) and targets y of x's shape, each
    row's classes up to its first -1: loss_n = sum_{j in y_n} sum_{i not in y_n}
    max(0, 1 - x[n, j] + x[n, i]) / C; one node, MultilabelMarginLossBackward0."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    dims = input.dim()
    if not (dims == 2 and input.shape[1] != 0 or dims == 1 and input.shape[0] != 0
            or dims == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    if dims <= 1 and target.dim() > 1 or dims == 2 and (
            target.dim() != 2 or tuple(target.shape) != tuple(input.shape)) or \
            dims <= 1 and target.numel() != max(input.numel(), 1):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    if input.dtype not in (minigrad.float32, minigrad.float64):  # (the kernel's dispatch first)
        raise NotImplementedError('"multilabel_margin_loss_forward_out_frame" not implemented '
                                  f"for '{_type_name(input)}'")
    if target.dtype != minigrad.long:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target)}")
    classes = input.shape[-1] if dims else 1
    if target.numel() and (target.min() < -1 or target.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    return ops.multilabel_margin_loss(input, target, reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    """Binary cross entropy on raw scores, averaged over the C labels of each sample:
    loss_n = -(1/C) sum_c [y_nc log sigmoid(x_nc) + (1 - y_nc) log sigmoid(-x_nc)]."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)  # (one loss per sample)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: bool | None = None, eps: float = 1e-8,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """Negative log likelihood of counts y under a Poisson of rate r:
    loss_i = exp(x_i) - y_i x_i for log-rates x (``log_input=True``), else
    x_i - y_i log(x_i + eps). ``full`` adds Stirling's y log y - y + 0.5 log(2 pi y)
    (for y > 1)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * ops.scalar_op(input, "+", eps).log()
    if full:
        log_2pi_target = ops.scalar_op(target, "*", 2 * math.pi).log()
        stirling = target * target.log() - target + ops.scalar_op(log_2pi_target, "*", 0.5)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """Negative log likelihood of y under a Gaussian of mean x and variance v:
    loss_i = 0.5 (log(max(v_i, eps)) + (x_i - y_i)**2 / max(v_i, eps)), plus
    0.5 log(2 pi) with ``full``. ``var`` may hold one variance per sample (one dim
    fewer, or a size-1 dim) or be a float."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * minigrad.ones_like(input)
    elif minigrad.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = minigrad.unsqueeze(var, -1)
        elif not (input.dim() == var.dim() and sum(
                y for x, y in zip(input.size(), var.size()) if x != y) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with minigrad.no_grad():  # (the clamp is not differentiated, as in PyTorch)
        var.clamp_(min=eps)
    loss = 0.5 * (minigrad.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """Connectionist temporal classification: -log of the probability of each target
    sequence, summed over every alignment of it to the frames (blanks between labels,
    repeated labels merged), from ``log_probs`` (time, batch, classes), usually a
    log_softmax. ``targets`` padded (batch, longest) or concatenated; the lengths as
    integer tensors or tuples of ints. CtcLossBackward0; 'mean' divides each loss by
    its target's length before averaging; ``zero_infinity`` zeros impossible ones."""
    _check_reduction(reduction)
    numbers = {"none": 0, "mean": 1, "sum": 2}[reduction]
    input_lengths, target_lengths = ctc_lengths(
        (log_probs, targets, input_lengths, target_lengths, blank, numbers, zero_infinity))
    batched = log_probs.dim() == 3
    if not batched:  # (one sequence: PyTorch's unsqueeze, then squeeze)
        log_probs = log_probs.unsqueeze(1)
    check_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank)
    losses = ops.ctc_loss(log_probs, targets.long(), input_lengths, target_lengths, blank,
                          zero_infinity)
    if zero_infinity:
        losses = minigrad.where(losses == math.inf, minigrad.zeros((), dtype=losses.dtype),
                                losses)
    if reduction == "mean":
        lengths = minigrad.tensor(target_lengths, dtype=losses.dtype).clamp_min(1)
        return (losses / lengths).mean()
    if reduction == "sum":
        return losses.sum()
    return losses if batched else losses.squeeze(0)

# ---- normalisation -----------------------------------------------------------

def _verify_batch_size(shape) -> None:
    """Training statistics need two values per channel at least."""
    values = shape[0]
    for size in shape[2:]:
        values *= size
    if values == 1:
        raise ValueError("Expected more than 1 value per channel when training, "
                         f"got input size {shape}")


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Each sample's channels split into ``num_groups`` groups; each group (its channels at
    every position) brought to mean 0 and variance 1 (biased, plus ``eps``), then times
    ``weight`` plus ``bias`` per channel (NativeGroupNormBackward0)."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    _verify_batch_size([input.shape[0] * input.shape[1] // num_groups, num_groups,
                        *input.shape[2:]])
    channels = input.shape[1]
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {_shape_text(input.shape)} and "
                           f"num_groups={num_groups}")
    for name, given in (("weight", weight), ("bias", bias)):
        if given is not None and (given.dim() != 1 or given.numel() != channels):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape "
                               f"{_shape_text(given.shape)} and input of shape "
                               f"{_shape_text(input.shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f'"GroupNormKernelImpl" not implemented for \'{_type_name(input)}\'')
    return ops.group_norm(input, num_groups, weight, bias, eps)


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Each channel of each sample normalised over its positions, as PyTorch computes it:
    the batch seen as one sample of N * C channels, batch_norm'ed (ViewBackward0 around
    NativeBatchNormBackward0); running statistics, if given, move toward the samples'
    mean statistics."""
    if use_input_stats:
        size = 1
        for n in input.shape[2:]:
            size *= n
        if size == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {input.shape}")
    n, channels = input.shape[:2]
    shape = (1, n * channels, *input.shape[2:])
    repeated = [None if t is None else t.repeat(n) for t in (weight, bias)]
    stats = [None if t is None else t.detach().repeat(n) for t in (running_mean, running_var)]
    output = batch_norm(input.contiguous().view(shape), *stats, *repeated, use_input_stats,
                        momentum, eps)
    with minigrad.no_grad():
        for given, moved in zip((running_mean, running_var), stats):
            if given is not None and use_input_stats:
                given.copy_(moved.view(n, channels).mean(0))
    return output.view(input.shape)


def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """x / sqrt(mean(x**2) + eps) * weight, the mean over the last dims
    (``normalized_shape``); eps by default the dtype's machine epsilon. Composed as
    PyTorch composes it: x * rsqrt(x.pow(2).mean(dims, keepdim=True) + eps) * weight."""
    if not isinstance(normalized_shape, (tuple, list, minigrad.Size)):
        raise TypeError(f"rms_norm(): argument 'normalized_shape' (position 2) must be "
                        f"tuple of ints, not {type(normalized_shape).__name__}")
    shape = tuple(normalized_shape)
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {_shape_text(weight.shape)} and normalized_shape "
                           f"= {_shape_text(shape)}")
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={_shape_text(shape)}, expected input with "
                           f"shape [*{', '.join(map(str, shape))}], but got input of "
                           f"size{_shape_text(input.shape)}")
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if not input.is_floating_point():
        raise NotImplementedError(f'"rms_norm" not implemented for '
                                  f"'{minigrad.dtypes.SCALAR_NAMES[input.dtype]}'")
    # (PyTorch computes half in float32: "opmath", then back with type_as)
    wide = minigrad.float32 if input.dtype in (minigrad.float16, minigrad.bfloat16) else input.dtype
    if eps is None:
        eps = float(minigrad.finfo(wide).eps)
    dims = list(range(input.dim() - len(shape), input.dim()))
    x = input.to(wide)
    # (C++ adds eps as a Scalar: AddBackward1)
    output = x * ops.scalar_op(x.pow(2).mean(dims, keepdim=True), "+", eps).rsqrt()
    if weight is not None:
        output = output * weight
    return output.contiguous().to(input.dtype)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel (dim 1) of a batch, then scale and shift it:

        y = (x - mean) / sqrt(var + eps) * weight + bias

    In training, mean and var (biased) are the batch's, over every dim but 1, and the
    running statistics, if given, move toward them in place:
    running = (1 - momentum) * running + momentum * batch (the variance unbiased,
    n / (n - 1)). Otherwise (eval) mean and var are the running ones."""
    if training:
        _verify_batch_size(input.shape)
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    channels = input.shape[1] if input.dim() > 1 else 1
    for name, tensor in (("running_mean", running_mean), ("running_var", running_var),
                         ("weight", weight), ("bias", bias)):
        if tensor is not None and tensor.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {tensor.numel()}")
    if input.numel() == 0:  # (PyTorch: a copy, never a view, and the statistics untouched)
        out = input.clone()
        out = out if weight is None else out * weight.select(0, 0)
        return out if bias is None else out + bias.select(0, 0)
    if training and (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    if not input.is_floating_point():
        raise NotImplementedError(f'"batch_norm" not implemented for '
                                  f"'{minigrad.dtypes.SCALAR_NAMES[input.dtype]}'")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean must be defined in evaluation mode" if running_mean
                           is None else "running_var must be defined in evaluation mode")
    return ops.native_batch_norm(input, weight, bias, running_mean, running_var, training,
                                 momentum, eps)


# A call that does not bind raises PyTorch's argument parser's error where PyTorch's function
# is read by it ("linear() missing 1 required positional arguments: ..."; rules/parser.py).
globals().update(parsed_namespace(globals(), __all__, "F."))
