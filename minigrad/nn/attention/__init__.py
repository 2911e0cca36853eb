"""``torch.nn.attention``: which of ``F.scaled_dot_product_attention``'s kernels may run.

PyTorch's CPU has two: the fused flash kernel (4-D inputs without dropout: one node,
``ScaledDotProductFlashAttentionForCpuBackward0``) and the "math" path (matmuls, a
softmax, dropout). ``with sdpa_kernel(SDPBackend.MATH):`` allows the math path only, as
the scaled-dot-product-attention tutorial does; the CUDA kernels (efficient, cuDNN) never
run on a CPU, so allowing only them leaves no kernel, and PyTorch's error."""

from __future__ import annotations

import contextlib
import enum

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(enum.Enum):
    """The kernels of scaled_dot_product_attention, as PyTorch numbers them."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


# (what scaled_dot_product_attention may use; every kernel outside a sdpa_kernel block)
allowed = frozenset(SDPBackend) - {SDPBackend.ERROR}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority: bool = False):
    """Inside the block, scaled_dot_product_attention uses only ``backends`` (one
    SDPBackend or a list); the kernels allowed before come back after it."""
    global allowed
    assert isinstance(backends, (list, SDPBackend)), \
        "Backend must be an instance of SDPBackend or a list of SDPBackend instances, " \
        f"got {type(backends).__name__}"
    chosen = frozenset([backends] if isinstance(backends, SDPBackend) else backends)
    before, allowed = allowed, chosen
    try:
        yield {}
    finally:
        allowed = before
