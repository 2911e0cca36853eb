"""PyTorch's module path ``torch.distributions.binomial`` (programs write
``torch.distributions.binomial.Binomial``): the class is written in ``poisson.py``, beside
Poisson, whose sampler it shares."""

from .poisson import Binomial  # noqa: F401

__all__ = ["Binomial"]
