"""PyTorch's module path ``torch.distributions.half_cauchy`` (programs write
``torch.distributions.half_cauchy.HalfCauchy``): the class is written in ``heavy_tails.py``, a
Cauchy pushed through a transform."""

from .heavy_tails import HalfCauchy  # noqa: F401

__all__ = ["HalfCauchy"]
