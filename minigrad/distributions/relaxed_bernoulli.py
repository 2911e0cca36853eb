"""PyTorch's module path ``torch.distributions.relaxed_bernoulli`` (programs write
``torch.distributions.relaxed_bernoulli.RelaxedBernoulli``): the class is written in
``relaxed.py`` with LogitRelaxedBernoulli."""

from .relaxed import LogitRelaxedBernoulli, RelaxedBernoulli  # noqa: F401

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]
