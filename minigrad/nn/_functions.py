"""Layers that PyTorch computes as autograd Functions written in Python (its
``torch/nn/modules/_functions.py``), so that their nodes are named after the Function:
``CrossMapLRN2d`` (CrossMapLRN2dBackward)."""

from __future__ import annotations

import minigrad

from ..autograd.function import Function

__all__ = ["CrossMapLRN2d"]


class CrossMapLRN2d(Function):
    """LocalResponseNorm as Lua Torch computed it (PyTorch keeps it as an autograd Function
    of its own, whose node prints as CrossMapLRN2dBackward): a running sum of squares
    across the channels, and a backward written out."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        channels = input.size(1)
        input_square = minigrad.pow(input, 2)
        ctx.scale = minigrad.zeros_like(input)
        pre_pad = int((size - 1) / 2 + 1)
        scale_first = ctx.scale.select(1, 0)
        for c in range(min(pre_pad, channels)):
            scale_first.add_(input_square.select(1, c))
        for c in range(1, channels):  # (each channel's sum from the previous one's)
            scale_current = ctx.scale.select(1, c)
            scale_current.copy_(ctx.scale.select(1, c - 1))
            if c < channels - pre_pad + 1:
                scale_current.add_(input_square.select(1, c + pre_pad - 1), alpha=1)
            if c > pre_pad:
                scale_current.add_(input_square.select(1, c - pre_pad), alpha=-1)
        ctx.scale.mul_(alpha / size).add_(k)
        output = minigrad.pow(ctx.scale, -beta).mul_(input)
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        batch_size, channels, height, width = input.shape
        padded_ratio = input.new_zeros((channels + ctx.size - 1, height, width))
        cache_ratio_value = 2 * ctx.alpha * ctx.beta / ctx.size
        inverse_pre_pad = int(ctx.size - (ctx.size - 1) / 2)
        grad_input = minigrad.pow(ctx.scale, -ctx.beta).mul_(grad_output)
        padded_ratio_center = padded_ratio.narrow(0, inverse_pre_pad, channels)
        for n in range(batch_size):
            padded_ratio_center.copy_(minigrad.mul(grad_output[n], output[n]))
            padded_ratio_center.div_(ctx.scale[n])
            accum_ratio = padded_ratio.narrow(0, 0, ctx.size - 1).sum(0)
            for c in range(channels):
                accum_ratio.add_(padded_ratio[c + ctx.size - 1])
                grad_input[n][c].addcmul_(input[n][c], accum_ratio, value=-cache_ratio_value)
                accum_ratio.add_(padded_ratio[c], alpha=-1)
        return grad_input, None, None, None, None
