"""PyTorch's module path ``torch.distributions.weibull`` (programs write
``torch.distributions.weibull.Weibull``): the class is written in ``heavy_tails.py``, an
Exponential pushed through transforms."""

from .heavy_tails import Weibull  # noqa: F401

__all__ = ["Weibull"]
