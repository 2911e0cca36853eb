"""PyTorch's module path ``torch.distributions.relaxed_categorical`` (programs write
``torch.distributions.relaxed_categorical.RelaxedOneHotCategorical``): the class is written in
``relaxed.py`` with ExpRelaxedCategorical."""

from .relaxed import ExpRelaxedCategorical, RelaxedOneHotCategorical  # noqa: F401

__all__ = ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"]
