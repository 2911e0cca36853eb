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

import warnings
from collections.abc import Sequence

import numpy as np

import minigrad

from .. import errors, ops
from ..autograd.broadcast import broadcast_shapes
from ..rules.out import write as write_out
from ..tensor import Tensor

__all__ = ["linear", "relu", "sigmoid", "logsigmoid", "tanh", "softmax", "log_softmax", "dropout",
           "one_hot", "embedding", "layer_norm", "gelu", "pad", "conv1d", "conv2d", "max_pool1d",
           "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
           "unfold", "fold",
           "mse_loss", "nll_loss", "cross_entropy", "binary_cross_entropy_with_logits"]


# ---- layers and activations ------------------------------------------------

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x W^T + b, for ``weight`` of shape (out_features, in_features).

    As in PyTorch, a batch of rows with a bias is one ``addmm`` (AddmmBackward0);
    other shapes are flattened to rows and back."""
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return ops.addmm(bias, input, weight.t())
    rows = input.reshape(-1, input.size(-1))
    return ops.addmm(bias, rows, weight.t()).view(*input.shape[:-1], weight.size(0))


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0), elementwise. ``inplace=True`` writes the result into ``input``."""
    return input.copy_(input.relu()) if inplace else input.relu()


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + exp(-x)), elementwise."""
    return input.sigmoid()


def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(x)) = -log(1 + exp(-x)), elementwise, computed without overflow
    (``LogSigmoidBackward0``; d/dx = 1 - sigmoid(x))."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f'"log_sigmoid_cpu" not implemented for \'{minigrad.dtypes.SCALAR_NAMES[input.dtype]}\'')
    return ops.fn.log_sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """(exp(x) - exp(-x)) / (exp(x) + exp(-x)), elementwise."""
    return input.tanh()


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    """PyTorch's old guess when no ``dim`` is given (deprecated: pass ``dim``)."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
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
    if not training or p == 0:
        return input
    if p == 1:
        scale = minigrad.zeros((), dtype=input.dtype)
    else:  # (as PyTorch: 1s kept with probability 1 - p, then scaled)
        scale = minigrad.zeros_like(input).bernoulli_(1 - p).div_(1 - p)
    return input.mul_(scale) if inplace else input * scale


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of the table ``weight`` (num_embeddings, embedding_dim) at the integer
    ``input``: shape ``input.shape + (embedding_dim,)`` (EmbeddingBackward0). The row
    ``padding_idx`` gets no gradient."""
    if not isinstance(input, Tensor):
        raise TypeError(f"embedding(): argument 'indices' (position 2) must be Tensor, "
                        f"not {type(input).__name__}")
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("minigrad: embedding's max_norm, scale_grad_by_freq and "
                                  "sparse are not implemented")
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
    if input.numel() and not (0 <= input.min() and input.max() < weight.size(0)):
        raise IndexError("index out of range in self")
    return ops.embedding(weight, input, padding_idx)


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
    elif input.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    elif num_classes == -1:
        num_classes = int(input.max()) + 1
    elif input.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return (input.unsqueeze(-1) == minigrad.arange(num_classes)).long()


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
    warnings.warn(errors.LEGACY_REDUCTION.format(reduction), UserWarning, stacklevel=2)
    return reduction


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """Mean squared error: loss_i = (input_i - target_i)**2, then reduced."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.", stacklevel=2)
        # (torch.broadcast_tensors first, as PyTorch's mse_loss: the smaller one is
        # expanded, ExpandBackward0 in its graph)
        shape = broadcast_shapes(input.shape, target.shape)
        input, target = (t if t.shape == shape else t.expand(shape) for t in (input, target))
    return ops.mse_loss(input, target, reduction)


def _type_name(tensor: Tensor) -> str:
    """'Long', 'Float', ...: how PyTorch's messages name a dtype."""
    return tensor.type()[len("torch."):-len("Tensor")]


def _check_class_targets(input: Tensor, target: Tensor, ignore_index: int,
                         weight: Tensor | None = None) -> None:
    """PyTorch's checks, with its messages and in its order, for targets holding
    class indices: shapes, the target's dtype (int64 or uint8), the weight's size,
    the input's dtype, then the classes themselves."""
    shape, target_shape = input._data.shape, target._data.shape
    ndim, target_ndim = len(shape), len(target_shape)
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    if ndim != 1 and target_ndim >= 1 and shape[0] != target_shape[0]:
        raise ValueError(f"Expected input batch_size ({shape[0]}) to match target "
                         f"batch_size ({target_shape[0]}).")
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
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


# ---- convolution and pooling (ops/conv.py) ----------------------------------------

def _tuple(value, n: int) -> tuple:
    """An int as n copies of itself; a tuple or list as a tuple."""
    return (value,) * n if isinstance(value, int) else tuple(value)


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
        ) -> Tensor:
    """``input`` with ``pad = (left, right, top, bottom, ...)`` elements of ``value`` (0 by
    default) added around its last dims, the last dim first (ConstantPadNdBackward0).
    Only ``mode='constant'`` is written."""
    if mode != "constant":
        raise NotImplementedError(f"minigrad: F.pad with mode={mode!r} is not implemented "
                                  "(only 'constant')")
    return ops.constant_pad(input, tuple(pad), 0 if value is None else value)


def _conv(input, weight, bias, stride, padding, dilation, groups, spatial: int, name: str):
    """conv1d/conv2d: an unbatched input gets a batch of one (and loses it after)."""
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(
            f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to {name}, "
            f"but got input of size: {list(input.shape)}")
    unbatched = input.dim() == spatial + 1
    if unbatched:
        input = input.unsqueeze(0)
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
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
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


def _pool_sizes(kernel_size, stride, padding, dilation, name: str):
    """kernel, stride (the kernel when not given), padding and dilation as pairs, and the
    stride as the node shows it (() when not given)."""
    def pair(value, what, text="either be a single int"):
        value = _tuple(value, 2)
        if len(value) not in (1, 2):
            raise RuntimeError(f"{name}: {what} must {text}, or a tuple of two ints")
        return value * 2 if len(value) == 1 else value

    kernel = pair(kernel_size, "kernel_size")
    shown = () if stride is None or stride == [] or stride == () else _tuple(stride, 2)
    strides = pair(shown, "stride", "either be omitted, a single int") if shown else kernel
    return (kernel, strides, pair(padding, "padding"),
            pair(dilation, "dilation", "be either a single int"), shown)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """The largest element of each kernel_size window, windows ``stride`` apart (the
    kernel size by default). With ``return_indices``, also where each one was (h * W + w)."""
    kernel, strides, padding, dilation, shown = _pool_sizes(kernel_size, stride, padding,
                                                            dilation, "max_pool2d")
    return ops.max_pool2d(input, kernel, strides, padding, dilation, ceil_mode, shown,
                          return_indices)


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """max_pool2d over a row: ``input`` (N, C, L) seen as (N, C, 1, L)."""
    if not return_indices and not input.is_floating_point():  # (PyTorch's own 1-D kernel)
        ops.check_pool_dtype(input, "max_pool1d_impl")
    given = _tuple(kernel_size, 1)[0]
    stride = given if stride is None or stride == [] else _tuple(stride, 1)[0]
    result = max_pool2d(input.unsqueeze(-2), (1, given), (1, stride), (0, _tuple(padding, 1)[0]),
                        (1, _tuple(dilation, 1)[0]), ceil_mode, return_indices)
    if return_indices:
        return result[0].squeeze(-2), result[1].squeeze(-2)
    return result.squeeze(-2)


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each kernel_size window, windows ``stride`` apart (the kernel size by
    default); padding counts as zeros (``count_include_pad``)."""
    kernel, strides, padding, _, shown = _pool_sizes(kernel_size, stride, padding, 1,
                                                     "avg_pool2d")
    return ops.avg_pool2d(input, kernel, strides, padding, ceil_mode, count_include_pad,
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
    size = _tuple(output_size, 2)
    if input.dim() in (3, 4):
        size = tuple(input.shape[-2 + k] if s is None else s for k, s in enumerate(size))
    if size == (1, 1) and input.dim() in (3, 4):  # (as PyTorch: a mean, MeanBackward1)
        return input.mean((-1, -2), keepdim=True)
    return ops.adaptive_avg_pool2d(input, size)


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
