"""PyTorch's checks on a convolution's and a pooling's arguments, with its texts
("Given groups=1, weight of size [6, 1, 5, 5], expected input[1, 3, 28, 28] to have 1
channels, but got 3 channels instead"), in the order PyTorch makes them."""

from __future__ import annotations

from ..dtypes import C_TYPE_NAMES, SCALAR_NAMES
from ..kernels.conv import output_size

__all__ = ["check_pad", "check_geometry", "check_convolution", "check_pool", "check_adaptive"]


def _sizes(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def check_pad(x, pad) -> None:
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * x.ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{x.ndim}")


def check_geometry(name: str, values, spatial: int) -> None:
    """One value per spatial dim (the weight's dims decide how many)."""
    if len(values) != spatial:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {spatial} values to "
            f"match the convolution dimensions, but got {name}={_sizes(values)}")


def check_convolution(x, weight, bias, stride, padding, dilation, groups) -> None:
    """ATen's convolution checks (Convolution.cpp)."""
    spatial = weight.ndim - 2
    for name, values in (("stride", stride), ("padding", padding), ("dilation", dilation)):
        check_geometry(name, values, spatial)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {_sizes(dilation)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if x.ndim != weight.ndim:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight "
            f"{_sizes(weight.shape)}, but got {x.ndim}-dimensional input of size "
            f"{_sizes(x.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{_sizes(weight.shape)}] instead")
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {_sizes(weight.shape)}, expected "
            f"input{_sizes(x.shape)} to have {weight.shape[1] * groups} channels, but got "
            f"{x.shape[1]} channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            f"Given weight of size {_sizes(weight.shape)}, expected bias to be 1-dimensional "
            f"with {weight.shape[0]} elements, but got bias of size {_sizes(bias.shape)} instead")
    padded = [n + 2 * p for n, p in zip(x.shape[2:], padding)]
    spans = [d * (k - 1) + 1 for k, d in zip(weight.shape[2:], dilation)]
    if any(n < k for n, k in zip(padded, spans)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, spans))}). Kernel size can't be greater than "
            "actual input size")
    if bias is not None and bias.dtype is not x.dtype:
        raise RuntimeError(f"Input type ({C_TYPE_NAMES[x.dtype]}) and bias type "
                           f"({C_TYPE_NAMES[bias.dtype]}) should be the same")
    if x.dtype is not weight.dtype:
        raise RuntimeError(f"expected scalar type {SCALAR_NAMES[x.dtype]} but found "
                           f"{SCALAR_NAMES[weight.dtype]}")


def check_pool(x, kernel, stride, padding, dilation, ceil_mode, kind: str = "max") -> None:
    """ATen's pool2d_shape_check (Pool.h), for max (with dilation) and avg pooling (which
    reads the channels, dim -3, first)."""
    if kind == "avg" and x.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(x.ndim, 1)}, "
                         f"{max(x.ndim, 1) - 1}], but got -3)")
    if any(s == 0 for s in stride) or any(k == 0 for k in kernel):
        raise RuntimeError("stride should not be zero")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: "
                           f"{dilation[0]} dilationW: {dilation[1]}")
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if any(n == 0 for n in x.shape[-3:]):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{_sizes(x.shape)}")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}")
    out = [output_size(*args, ceil_mode) for args in zip(x.shape[-2:], kernel, stride, padding,
                                                         dilation)]
    if any(o < 1 for o in out):
        channels, height, width = x.shape[-3:]
        raise RuntimeError(f"Given input size: ({channels}x{height}x{width}). Calculated output "
                           f"size: ({channels}x{out[0]}x{out[1]}). Output size is too small")


def check_adaptive(x, output_size) -> None:
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{_sizes(x.shape)}")
