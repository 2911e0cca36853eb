"""A model's parameters as one flat vector, and back (as ``torch.nn.utils``)."""

from __future__ import annotations

import minigrad

from ..module import _typename
from ...tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters) -> Tensor:
    """All the parameters, flattened and concatenated (a graph of views and a cat)."""
    return minigrad.cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Copy consecutive slices of ``vec`` into the parameters' data."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    pointer = 0
    for param in parameters:
        count = param.numel()
        param.data = vec[pointer:pointer + count].view_as(param).data
        pointer += count
