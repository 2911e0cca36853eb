"""``torch.conv2d``, ``torch.layer_norm``, ``torch.dropout``, ...: PyTorch's top-level
names of its layer functions. They are ``torch.nn.functional``'s functions under their
ATen signatures: some take their arguments in another order (``embedding(weight,
indices)``, ``batch_norm``'s weight first), ``dropout``'s ``train`` has no default, and
the losses take ``reduction`` as ATen's number (0 'none', 1 'mean', 2 'sum'), whose
default PyTorch's Python binding reads as 0: unreduced.

The top floor: written on ``minigrad.nn.functional``, as a user would write them.
"""

from __future__ import annotations

from .nn import functional as F

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "max_pool3d", "channel_shuffle", "bilinear",
           "pixel_shuffle", "pixel_unshuffle", "pairwise_distance", "cosine_similarity",
           "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "max_pool1d",
           "max_pool1d_with_indices", "max_pool2d", "prelu", "selu", "selu_", "celu", "celu_",
           "threshold", "threshold_", "dropout", "dropout_", "feature_dropout",
           "feature_dropout_", "layer_norm", "group_norm", "rms_norm", "embedding", "batch_norm",
           "instance_norm", "constant_pad_nd", "kl_div", "margin_ranking_loss",
           "hinge_embedding_loss", "triplet_margin_loss", "cosine_embedding_loss",
           "poisson_nll_loss", "binary_cross_entropy_with_logits", "grid_sampler", "ctc_loss"]

# The same functions, the same argument order.
conv1d, conv2d, conv3d = F.conv1d, F.conv2d, F.conv3d
conv_transpose1d, conv_transpose2d = F.conv_transpose1d, F.conv_transpose2d
conv_transpose3d, channel_shuffle = F.conv_transpose3d, F.channel_shuffle
bilinear, pixel_shuffle, pixel_unshuffle = F.bilinear, F.pixel_shuffle, F.pixel_unshuffle
pairwise_distance, cosine_similarity = F.pairwise_distance, F.cosine_similarity
avg_pool1d, adaptive_avg_pool1d = F.avg_pool1d, F.adaptive_avg_pool1d
prelu = F.prelu

def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """``F.grid_sample`` with ATen's numbers for the modes (0 bilinear, 1 nearest, 2 bicubic;
    0 zeros, 1 border, 2 reflection)."""
    return F.grid_sample(input, grid, ("bilinear", "nearest", "bicubic")[interpolation_mode],
                         ("zeros", "border", "reflection")[padding_mode], align_corners)


def adaptive_max_pool1d(input, output_size):
    """``(values, indices)``: ATen's op returns both."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1,
                            ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode,
                        return_indices=True)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return F.max_pool3d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def selu(input):
    return F.selu(input)


def celu(input, alpha=1.0):
    return F.celu(input, alpha)


def threshold(input, threshold, value):
    return F.threshold(input, threshold, value)


def selu_(input):
    return F.selu(input, inplace=True)


def celu_(input, alpha=1.0):
    return F.celu(input, alpha, inplace=True)


def threshold_(input, threshold, value):
    return F.threshold(input, threshold, value, inplace=True)


def dropout(input, p, train):
    return F.dropout(input, p, train)


def dropout_(input, p, train):
    return F.dropout(input, p, train, inplace=True)


def feature_dropout(input, p, train):
    """Whole channels zeroed (``dropout1d``/``dropout2d``'s draw, for any number of dims)."""
    return F._feature_dropout(input, p, train, False)


def feature_dropout_(input, p, train):
    return F._feature_dropout(input, p, train, True)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return F.rms_norm(input, normalized_shape, weight, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """The table first, then the indices (``F.embedding``'s order is the other way); a
    negative ``padding_idx`` is none (F.embedding wraps its own before calling this)."""
    return F.embedding(indices, weight, None if padding_idx < 0 else padding_idx)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def constant_pad_nd(input, pad, value=0):
    return F.pad(input, pad, "constant", value)


def kl_div(input, target, reduction=0, *, log_target=False):
    return F.kl_div(input, target, reduction=_reduction(reduction, "kl_div", 3),
                    log_target=log_target)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_reduction(reduction, "margin_ranking_loss", 5))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin,
                                  reduction=_reduction(reduction, "hinge_embedding_loss", 4))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                        reduction=0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction(reduction, "triplet_margin_loss", 9))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction(reduction, "cosine_embedding_loss", 5))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction(reduction, "poisson_nll_loss", 6))


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return F.binary_cross_entropy_with_logits(input, target, weight,
                                              reduction=_reduction(
                                                  reduction, "binary_cross_entropy_with_logits", 5),
                                              pos_weight=pos_weight)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0,
             zero_infinity=False):
    """``F.ctc_loss`` with ATen's reduction number."""
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      _reduction(reduction, "ctc_loss", 6), zero_infinity)


def _reduction(number, function: str, position: int) -> str:
    """ATen's reduction number as F's word (numbers other than 1 and 2 reduce nothing)."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"{function}(): argument 'reduction' (position {position}) must be int, "
                        f"not {type(number).__name__}")
    return {1: "mean", 2: "sum"}.get(number, "none")
