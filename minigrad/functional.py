"""``torch.functional``: the module PyTorch keeps a few of its ``torch.*`` functions in
(einsum, split, norm, unique, meshgrid, ...); tutorials import it (``import torch.functional
as F``). The same functions as ``torch.*``, from ``functions.py``; ``stft``/``istft``,
``lu`` and the low-rank factorizations are not in minigrad."""

from __future__ import annotations

from .functions import (  # noqa: F401
    atleast_1d, atleast_2d, atleast_3d, block_diag, broadcast_shapes, broadcast_tensors,
    cartesian_prod, cdist, chain_matmul, einsum, meshgrid, norm, split, tensordot, unique,
    unique_consecutive, unravel_index)

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "norm",
           "meshgrid", "split", "tensordot", "unique", "unique_consecutive", "unravel_index"]
