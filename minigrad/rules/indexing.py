"""PyTorch's checks of ``put``/``put_`` (ATen's ``put_`` in TensorAdvancedIndexing.cpp),
in its order, with its texts."""

from __future__ import annotations

from .. import dtypes
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
