"""PyTorch's module path ``torch.distributions.beta`` (programs write
``torch.distributions.beta.Beta``): the class is written in ``gamma.py``, a Dirichlet of two."""

from .gamma import Beta  # noqa: F401

__all__ = ["Beta"]
