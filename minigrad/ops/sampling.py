"""Sampling an image at given points (``grid_sampler``, the op under ``F.grid_sample``) and
the grid of an affine map (``affine_grid_generator``, under ``F.affine_grid``): the math
is in kernels/grid_sample.py (pixel coordinates, padding, the bilinear weights)."""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Input, Node
from ..kernels import grid_sample as kernels
from ..rules import sampling as rules
from . import fn

__all__ = ["affine_grid_generator", "grid_sampler"]

_MODES = ("bilinear", "nearest", "bicubic")
_PADDINGS = ("zeros", "border", "reflection")


class AffineGridGeneratorBackward0(Node):
    formula = Formula("grid[n, i, j]", "theta[n] @ (x_j, y_i, 1)",
                      grad={"theta": "sum over i, j of G[n, i, j] (x_j, y_i, 1)^T"})

    def forward(self, theta, size, align_corners):
        self.save(size=size, align_corners=align_corners)
        return kernels.affine_grid(theta, size, align_corners)

    def backward(self, saved, grad):
        return fn.affine_grid_backward(grad, saved.size, saved.align_corners)


class GridSampler2DBackward0(Node):
    formula = Formula("y[n, c, i, j]", "input[n, c] read at grid[n, i, j] (bilinear: the four "
                                       "pixels around it, weighed by the opposite areas)",
                      grad={"input": "G[n, c, i, j] times each pixel's weight, added to it",
                            "grid": "G times the weights' slopes along x and y, summed over c"})
    saves = {"input": Input(0), "grid": Input(1)}

    def forward(self, image, grid, interpolation_mode, padding_mode, align_corners):
        self.save(interpolation_mode=interpolation_mode, padding_mode=padding_mode,
                  align_corners=align_corners)
        return kernels.grid_sample(image, grid, _MODES[interpolation_mode],
                                   _PADDINGS[padding_mode], align_corners)

    def backward(self, saved, grad):
        return fn.grid_sample_backward(grad, saved.input, saved.grid,
                                            _MODES[saved.interpolation_mode],
                                            _PADDINGS[saved.padding_mode], saved.align_corners)


def affine_grid_generator(theta, size, align_corners):
    """The sampling grid of the affine maps ``theta`` (N, 2, 3) for an output of ``size``
    (N, C, H, W): (N, H, W, 2)."""
    size = tuple(size)
    if len(size) != 4:
        raise NotImplementedError("minigrad: affine_grid of 3-d volumes (a size of 5 numbers, "
                                  "theta N x 3 x 4) is not built; 2-d images are")
    if theta.shape[0] != size[0]:  # (PyTorch's bmm says it)
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, 3] but got: [{theta.shape[0]}, 3].")
    return AffineGridGeneratorBackward0.apply(theta, size=size, align_corners=align_corners)


def grid_sampler(input, grid, interpolation_mode: int, padding_mode: int, align_corners: bool):
    """``input`` (N, C, H, W) read at ``grid`` (N, Ho, Wo, 2) of coordinates in [-1, 1]."""
    rules.check_grid_sampler(input, grid)
    if input.ndim == 5 or _MODES[interpolation_mode] == "bicubic":
        raise NotImplementedError("minigrad: grid_sample of 3-d volumes and mode='bicubic' "
                                  "are not built; 2-d images with 'bilinear' or 'nearest' are")
    return GridSampler2DBackward0.apply(input, grid, interpolation_mode=interpolation_mode,
                                        padding_mode=padding_mode, align_corners=align_corners)
