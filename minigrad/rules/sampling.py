"""PyTorch's checks of ``grid_sampler``'s arguments (ATen's, before any kernel runs)."""

from __future__ import annotations

from .. import dtypes

__all__ = ["check_grid_sampler"]


def check_grid_sampler(input, grid) -> None:
    """ATen's order: the same batch, the grid's last dim the image's number of spatial
    dims, no empty spatial dim, then 4-d (or 5-d) both, the same floating dtype."""
    shapes = f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got {shapes}")
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last "
                           f"dimension, but got grid with sizes {list(grid.shape)}")
    for dim in range(2, input.ndim):
        if input.shape[dim] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {dim} being empty")
    expected = 4 if input.ndim == 4 else 5
    if input.ndim != expected or grid.ndim != expected:
        raise RuntimeError(f"grid_sampler(): expected {expected}D input and grid with same number "
                           f"of dimensions, but got {shapes}")
    if input.dtype is not grid.dtype:
        raise RuntimeError(f"expected scalar type {dtypes.SCALAR_NAMES[input.dtype]} but found "
                           f"{dtypes.SCALAR_NAMES[grid.dtype]}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"grid_sampler_2d_cpu_kernel_impl" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[input.dtype]}'")
