"""PyTorch's checks of ``embedding_bag``'s arguments in C++ (after ``F.embedding_bag``'s
own in Python): ``padding_idx``, the dtypes of the indices, offsets, table and
per-sample weights, the first and last offsets, then each index, whose error text
depends on the kernel PyTorch picks (``kernels.embedding_bag.uses_fast_path``)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..kernels.embedding_bag import MAX, uses_fast_path

__all__ = ["check_embedding_bag"]

_INDEX_TYPES = "Long, Int"
_TABLE_TYPES = "Half, BFloat16, Float, Double"
UNIMPROVED = ("  (Could this error message be improved?  If so, please report an enhancement "
              "request to PyTorch.)")


def check_embedding_bag(weight, indices, offsets, mode: int, per_sample_weights,
                        include_last_offset: bool, padding_idx):
    """Raise PyTorch's error for bad arguments; else ``padding_idx`` as the kernel takes
    it (-1: none)."""
    rows = weight.shape[0]
    if padding_idx is None:
        padding_idx = -1
    elif not -rows <= padding_idx < rows:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} "
                           f"through {rows - 1}, but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += rows
    common = dtypes.promote_types(indices.dtype, offsets.dtype)  # (both made of it)
    if common not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(_types_text("indices", _INDEX_TYPES, common))
    if weight.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise RuntimeError(_types_text("weight", _TABLE_TYPES, weight.dtype))
    index, starts = (t._data.astype(common.numpy, copy=False) for t in (indices, offsets))
    if len(starts):
        if starts[0] != 0:
            raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                               f"mini-batch has to start from position 0. However, got "
                               f"{starts[0]}\n[ {offsets.type()}{{}} ]")
        if starts[-1] > len(index):
            raise RuntimeError(f"offsets[-1] can not be greater than input's length "
                               f"{len(index)} but got offsets[-1] of {starts[-1]}")
    if per_sample_weights is not None and per_sample_weights.dtype is not weight.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as "
                           f"tensor for argument #1 'per_sample_weights'; but type "
                           f"{weight.type()} does not equal {per_sample_weights.type()} "
                           f"(while checking arguments for embedding_bag)")
    if include_last_offset and not len(starts):
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    _check_indices(weight._data, index, starts, mode, padding_idx)
    return padding_idx


def _types_text(name: str, allowed: str, dtype) -> str:
    return (f"Expected tensor for argument #1 '{name}' to have one of the following scalar "
            f"types: {allowed}; but got torch.{dtypes.LEGACY_NAMES[dtype]} instead (while "
            f"checking arguments for embedding_bag)")


def _check_indices(weight, index, starts, mode: int, padding_idx: int) -> None:
    """Every index within the table (fbgemm's text, or the loop's), and, for fbgemm,
    offsets that never go down."""
    fast = mode != MAX and uses_fast_path(weight, padding_idx)
    bad = np.flatnonzero((index < 0) | (index >= weight.shape[0]))
    if len(bad) and fast:
        raise RuntimeError(f"Index {bad[0]} of input takes value {index[bad[0]]} which is not "
                           f"in the valid range [0, {weight.shape[0]})")
    if len(bad):
        raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but "
                           f"found idx to be {index[bad[0]]}")
    if fast and np.any(np.diff(starts) < 0):
        raise RuntimeError("Expected i < index_size to be true, but got false." + UNIMPROVED)
