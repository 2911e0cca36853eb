"""PyTorch's checks of the counting functions' arguments (``histogramdd``,
``nonzero_static``), with its texts, in the order it makes them."""

from __future__ import annotations

from .. import dtypes
from ..autograd.tensor_base import is_tensor

__all__ = ["check_histogramdd", "check_nonzero_static", "check_nonzero_static_out"]


def _listed(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def check_histogramdd(x, bins, range, weight) -> int:  # noqa: A002 - torch's name
    """The number of dimensions D of ``histogramdd``'s points (x's last dim), once its
    arguments pass PyTorch's checks."""
    if x.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    if not x.dtype.is_floating_point:
        raise NotImplementedError(
            f'"histogramdd" not implemented for \'{dtypes.SCALAR_NAMES[x.dtype]}\'')
    dims = x.shape[-1]
    given_edges = isinstance(bins, (list, tuple)) and bins and is_tensor(bins[0])
    if given_edges:
        if len(bins) != dims:
            raise RuntimeError(f"torch.histogramdd: expected {dims} sequences of bin edges for a "
                               f"{dims}-dimensional histogram but got {len(bins)}")
        for d, edges in enumerate(bins):
            if edges.ndim != 1:
                raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, "
                                   f"but got {edges.ndim} dimensions in the bins tensor for "
                                   f"dimension {d}")
            if edges.dtype is not x.dtype:
                raise RuntimeError(
                    f"torch.histogramdd: input tensor and bins tensors should have the same "
                    f"dtype, but got input with dtype {dtypes.C_TYPE_NAMES[x.dtype]} and bins for "
                    f"dimension {d} with dtype {dtypes.C_TYPE_NAMES[edges.dtype]}")
    elif range is not None and len(range) != 2 * dims:
        raise RuntimeError(f"torch.histogramdd: for a {dims}-dimensional histogram range should "
                           f"have {2 * dims} elements, but got {len(range)}")
    elif not isinstance(bins, int) and len(bins) != dims:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    if weight is not None:
        if weight.dtype is not x.dtype:
            raise RuntimeError(
                f"torch.histogramdd: if weight tensor is provided, input tensor and weight "
                f"tensor should have the same dtype, but got input({dtypes.C_TYPE_NAMES[x.dtype]}), "
                f"and weight({dtypes.C_TYPE_NAMES[weight.dtype]})")
        if tuple(weight.shape) != tuple(x.shape[:-1]):
            raise RuntimeError(
                f"torch.histogramdd: if weight tensor is provided it should have the same shape "
                f"as the input tensor excluding its innermost dimension, but got input with shape "
                f"{_listed(x.shape)} and weight with shape {_listed(weight.shape)}")
    return dims


def check_nonzero_static(size, fill_value) -> None:
    if not isinstance(size, int) or isinstance(size, bool):
        raise TypeError(f"nonzero_static(): argument 'size' must be int, not "
                        f"{type(size).__name__}")
    if not isinstance(fill_value, int) or isinstance(fill_value, bool):
        raise TypeError(f"nonzero_static(): argument 'fill_value' must be int, not "
                        f"{type(fill_value).__name__}")
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")


def check_nonzero_static_out(out) -> None:
    """nonzero_static writes only into a long ``out`` (its own text, before out='s rules)."""
    if out is not None and is_tensor(out) and out.dtype is not dtypes.int64:
        raise RuntimeError("nonzero_static: Expected out tensor to have scalar type Long but got "
                           f"scalar type{dtypes.SCALAR_NAMES[out.dtype]}")
