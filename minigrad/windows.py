"""``torch.hann_window``, ``hamming_window``, ``blackman_window``, ``bartlett_window``,
``kaiser_window``: the signal-processing windows, written on the public API with
PyTorch's own steps (its ATen composites: an ``arange`` scaled, its cosine, ...), in the
window's dtype. ``periodic=True`` (the default) computes a window one longer and drops
its last value, as a spectrogram's windows should repeat.

The top floor: written on minigrad's public functions, as a user would write them.
"""

from __future__ import annotations

import math

from . import creation, dtypes, functions
from .dtypes import get_default_dtype

__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window"]


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                requires_grad=False, pin_memory=False):
    """0.5 - 0.5 cos(2 pi n / (N - 1)): PyTorch's ``hamming_window`` with 0.5 and 0.5."""
    return _window("hann_window", window_length, periodic, dtype, requires_grad,
                   lambda n, dtype: _cosine_sum(n, dtype, 0.5, 0.5))


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
                   layout=None, device=None, requires_grad=False, pin_memory=False):
    """alpha - beta cos(2 pi n / (N - 1))."""
    return _window("hamming_window", window_length, periodic, dtype, requires_grad,
                   lambda n, dtype: _cosine_sum(n, dtype, alpha, beta))


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    requires_grad=False, pin_memory=False):
    """0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))."""
    def blackman(n, dtype):
        phase = creation.arange(n, dtype=dtype).mul_(math.pi / (n - 1))
        return phase.mul(4).cos_().mul_(0.08) - phase.mul(2).cos_().mul_(0.5) + 0.42
    return _window("blackman_window", window_length, periodic, dtype, requires_grad, blackman)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    requires_grad=False, pin_memory=False):
    """A triangle: 2n / (N - 1) up to the middle, 2 - 2n / (N - 1) after it."""
    def bartlett(n, dtype):
        window = creation.arange(n, dtype=dtype).mul_(2.0 / (n - 1))
        first_half = ((n - 1) >> 1) + 1
        window.narrow(0, first_half, n - first_half).mul_(-1).add_(2)
        return window
    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, bartlett)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None,
                  device=None, requires_grad=False, pin_memory=False):
    """I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta), a = (N - 1) / 2 (I0: the modified
    Bessel function of order 0)."""
    def kaiser(n, dtype):
        middle = (n - 1) / 2.0
        offset = (creation.arange(n, dtype=dtype) - middle) / middle
        scale = functions.i0(creation.tensor(beta, dtype=dtype))
        return functions.i0((1 - offset * offset).sqrt() * beta) / scale
    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, kaiser)


def _cosine_sum(n, dtype, alpha, beta):
    return creation.arange(n, dtype=dtype).mul_(math.pi * 2.0 / (n - 1)).cos_() \
        .mul_(-beta).add_(alpha)


def _window(name, window_length, periodic, dtype, requires_grad, formula):
    """PyTorch's checks, its cases of no and of one element, and ``periodic``."""
    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type(window_length).__name__}")
    dtype = get_default_dtype() if dtype is None else dtype
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: "
                           f"TensorOptions(dtype={dtypes.C_TYPE_NAMES[dtype]}, device=cpu, "
                           "layout=Strided (default), requires_grad=false (default), "
                           "pinned_memory=false, memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    if window_length <= 1:
        window = creation.ones(window_length, dtype=dtype)
    else:
        length = window_length + 1 if periodic else window_length
        window = formula(length, dtype)
        window = window[:window_length].contiguous() if periodic else window
    return window.detach().requires_grad_(requires_grad)
