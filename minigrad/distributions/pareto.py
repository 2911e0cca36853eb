"""PyTorch's module path ``torch.distributions.pareto`` (programs write
``torch.distributions.pareto.Pareto``): the class is written in ``heavy_tails.py``, an
Exponential pushed through transforms."""

from .heavy_tails import Pareto  # noqa: F401

__all__ = ["Pareto"]
