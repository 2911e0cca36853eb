"""PyTorch's module path ``torch.distributions.dirichlet`` (programs write
``torch.distributions.dirichlet.Dirichlet``): the class is written in ``gamma.py``, beside
Gamma, whose sampler it uses."""

from .gamma import Dirichlet  # noqa: F401

__all__ = ["Dirichlet"]
