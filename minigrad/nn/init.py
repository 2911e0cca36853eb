"""``minigrad.nn.init``: fill a weight tensor in place with starting values.

Each function writes into the tensor it is given, without recording
anything for autograd (it runs under ``no_grad``), and returns it. The
random ones draw as PyTorch's do (``tensor.uniform_``, ``tensor.normal_``), so
after ``minigrad.manual_seed(s)`` a layer starts from the weights PyTorch gives it.

Why the scales? A layer computing ``y = W x`` with ``fan_in`` inputs
multiplies the variance of its inputs by about ``fan_in * Var(W)``. Choosing
``Var(W) = gain**2 / fan_in`` keeps the signal's size steady layer after
layer (He/Kaiming); ``gain**2 * 2 / (fan_in + fan_out)`` balances the
forward and the backward pass (Glorot/Xavier). A uniform distribution on
``[-b, b]`` has variance ``b**2 / 3``, hence the ``sqrt(3)`` below.
"""

from __future__ import annotations

import math
import warnings

import minigrad

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "zeros_",
           "ones_", "eye_", "dirac_", "sparse_", "orthogonal_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
           "kaiming_normal_"]

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
               "conv_transpose2d", "conv_transpose3d")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended scale for weights followed by ``nonlinearity``:
    1 for linear and sigmoid, 5/3 for tanh, sqrt(2) for relu,
    sqrt(2 / (1 + slope**2)) for leaky_relu, 3/4 for selu."""
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """For a weight of shape (out, in, *kernel): fan_in = in * kernel size,
    fan_out = out * kernel size."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive_field = math.prod(tensor.shape[2:])
    return tensor.size(1) * receptive_field, tensor.size(0) * receptive_field


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


@no_grad()
def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with samples from the uniform distribution on [a, b)."""
    return tensor.uniform_(a, b, generator=generator)


@no_grad()
def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with samples from the normal distribution N(mean, std**2)."""
    return tensor.normal_(mean, std, generator=generator)


@no_grad()
def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator=None) -> Tensor:
    """Fill with samples of N(mean, std**2) that lie in [a, b], drawn as PyTorch 2.13
    draws them (the same numbers after ``manual_seed``). When [a, b] holds more than
    30 % of the distribution: normal samples, each one outside redrawn until it falls
    inside. Otherwise (rejection sampling): uniform samples in [a, b], each kept with
    probability pdf(x) / pdf(mode), the others redrawn."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    if _normal_cdf((b - mean) / std) - _normal_cdf((a - mean) / std) > 0.3:
        result = _normal_redrawn_outside(tensor, mean, std, a, b, generator)
    else:
        result = _uniform_kept_by_density(tensor, mean, std, a, b, generator)
    return result if result is tensor else tensor.copy_(result)


def _normal_redrawn_outside(tensor, mean, std, a, b, generator):
    low, high = (tensor.new_tensor(bound).item() for bound in (a, b))  # (in its dtype)
    result = tensor.normal_(mean, std, generator=generator)
    while (outside := (result < low) | (result > high)).any():
        fresh = minigrad.empty_like(result).normal_(mean, std, generator=generator)
        result = minigrad.where(outside, fresh, result)
    return result


def _uniform_kept_by_density(tensor, mean, std, a, b, generator):
    mode = max(a, min(mean, b))  # (where the density on [a, b] is highest)
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    candidates, coins = minigrad.empty_like(tensor), minigrad.empty_like(tensor)

    def rejected(samples):  # log u > log(pdf(x) / pdf(mode)), u uniform on [0, 1)
        samples.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
        return coins.uniform_(generator=generator).log_().gt(samples)
    result = tensor.uniform_(a, b, generator=generator)
    pending = rejected(candidates.copy_(result))
    while pending.any():
        candidates.uniform_(a, b, generator=generator)
        result = minigrad.where(pending, candidates, result)
        pending = minigrad.where(pending, rejected(candidates), pending)
    return result


def _normal_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


@no_grad()
def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0.0)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


@no_grad()
def eye_(tensor: Tensor) -> Tensor:
    """Fill a matrix with the identity (ones on the diagonal, as many as fit)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    tensor.zero_()
    tensor.diagonal().fill_(1)
    return tensor


@no_grad()
def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a convolution's weight (3, 4 or 5 dims) with the Dirac delta: output channel d
    of each group copies input channel d (a 1 at the kernel's centre), so the layer starts
    as the identity on as many channels as fit."""
    dimensions = tensor.dim()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    centre = tuple(n // 2 for n in sizes[2:])
    tensor.zero_()
    for g in range(groups):
        for d in range(min(out_chans_per_grp, sizes[1])):
            tensor[(g * out_chans_per_grp + d, d) + centre] = 1
    return tensor


@no_grad()
def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """Fill a matrix with normal samples N(0, std²), then zero ``ceil(sparsity * rows)``
    of each column, at rows chosen by ``randperm`` (Martens, 2010). As in PyTorch, the
    rows are drawn from the default generator, not ``generator``."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    tensor.normal_(0, std, generator=generator)
    for col_idx in range(cols):
        zero_indices = minigrad.randperm(rows)[:num_zeros]
        tensor[zero_indices, col_idx] = 0
    return tensor


@no_grad()
def orthogonal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix times ``gain`` (Saxe et al., 2013): normal
    samples, flattened to rows x the rest, made orthogonal by a QR factorization whose
    Q's columns take the signs of R's diagonal (so Q is uniformly distributed), drawn
    as PyTorch draws it."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    if rows < cols:
        flattened = flattened.t()
    q, r = minigrad.linalg.qr(flattened)
    q = q * minigrad.diag(r, 0).sign()
    if rows < cols:
        q = q.t()
    tensor.view_as(q).copy_(q)
    return tensor.mul_(gain)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Uniform on [-b, b] with b = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio, 2010)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator=generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Normal with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator=generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """Uniform on [-b, b] with b = gain * sqrt(3 / fan) (He et al., 2015).
    ``a`` is the leaky_relu slope used for the gain; ``Linear`` uses
    a = sqrt(5), which makes b = 1 / sqrt(fan_in)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator=generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """Normal with std = gain / sqrt(fan)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator=generator)


def _deprecated(method):
    """The old name without the trailing underscore (``nn.init.xavier_uniform``), which
    PyTorch keeps with a FutureWarning naming the new one."""
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
                      FutureWarning, stacklevel=2)
        return method(*args, **kwargs)
    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = f"Deprecated: use ``{new_name}``."
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
