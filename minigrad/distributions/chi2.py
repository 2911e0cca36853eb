"""PyTorch's module path ``torch.distributions.chi2`` (programs write
``torch.distributions.chi2.Chi2``): the class is written in ``gamma.py``, a Gamma."""

from .gamma import Chi2  # noqa: F401

__all__ = ["Chi2"]
