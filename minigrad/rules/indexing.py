"""PyTorch's checks of ``put``/``put_`` and ``index_reduce`` (ATen's TensorAdvancedIndexing.cpp),
in its order, with its texts."""

from __future__ import annotations

from .. import dtypes, errors
from ..autograd.tensor_base import is_tensor


def check_put_arguments(index, source, name: str = "put", position: int = 1) -> None:
    """The index and the source tensors (PyTorch's argument parser, before autograd's
    checks of an in-place change)."""
    for argument, value, at in (("index", index, position), ("source", source, position + 1)):
        if not is_tensor(value):
            raise TypeError(f"{name}(): argument '{argument}' (position {at}) must be Tensor, "
                            f"not {type(value).__name__}")


def check_put(x, index, source) -> None:
    """The index a long tensor, the dtypes the same, as many source elements as indices,
    nothing put into an empty tensor, every index inside ``x`` (negative ones count from
    the end)."""
    if index.dtype is not dtypes.int64:
        raise RuntimeError("put_(): Expected a long tensor for index, but got "
                           f"{dtypes.SCALAR_NAMES[index.dtype]}")
    if x.dtype is not source.dtype:
        raise RuntimeError("put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {dtypes.SCALAR_NAMES[x.dtype]} and source.dtype = "
                           f"{dtypes.SCALAR_NAMES[source.dtype]}")
    if source.numel() != index.numel():
        raise IndexError("put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, "
                         f"index.numel() = {index.numel()}")
    if x.numel() == 0 and index.numel():
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    positions = index._data.reshape(-1)
    outside = (positions >= x.numel()) | (positions < -x.numel())
    if outside.any():
        raise IndexError(f"out of range: tried to access index {positions[outside][0]} on a "
                         f"tensor of {x.numel()} elements.")


INDEX_REDUCE_BETA = ("index_reduce() is in beta and the API may change at any time. (Triggered "
                     "internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                     "TensorAdvancedIndexing.cpp:1523.)")


def check_index_reduce(x, dim: int, index, source, reduce: str) -> None:
    """The reduction named, a 1-D int index, one per slice of a source of x's shape
    (``dim`` aside) and dtype, inside x; then PyTorch's warning that the op is in beta."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{dtypes.SCALAR_NAMES[index.dtype]}")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"index_reduce_(): self ({dtypes.SCALAR_NAMES[x.dtype]}) and source "
                           f"({dtypes.SCALAR_NAMES[source.dtype]}) must have the same scalar type")
    if index.ndim > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: "
                         f"{index.ndim} with type: {dtypes.SCALAR_NAMES[index.dtype]} and size: "
                         f"[{', '.join(map(str, index.shape))}]")
    count = index._data.size
    if source.ndim and count != source.shape[dim]:
        raise RuntimeError(f"index_reduce_(): Number of indices ({count}) should be equal to "
                           f"source.size(dim): ({source.shape[dim]}), for dim: {dim}")
    if source.ndim != x.ndim or any(a != b for d, (a, b) in enumerate(zip(x.shape, source.shape))
                                    if d != dim):
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = [{', '.join(map(str, x.shape))}] source.shape = "
            f"[{', '.join(map(str, source.shape))}]")
    values = index._data.reshape(-1)
    if values.size and (values.min() < 0 or values.max() >= (x.shape[dim] if x.ndim else 1)):
        raise IndexError("index out of range in self")
    errors.warn_once_at_caller(INDEX_REDUCE_BETA)
