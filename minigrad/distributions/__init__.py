"""``torch.distributions``: probability distributions to sample from and score, written on
the public API as PyTorch's are, so that they draw PyTorch's numbers after
``manual_seed`` (a ``Categorical`` samples with ``multinomial``, a ``Normal`` with
``normal``, an ``Exponential`` with ``exponential_``, ...), print as PyTorch's and check
their arguments with PyTorch's errors.

``Categorical``, ``Multinomial``, ``Normal``, ``Bernoulli``, ``Uniform``, ``Exponential``,
``Laplace``, ``LogNormal``, ``MultivariateNormal``, ``Independent``,
``TransformedDistribution`` with the ``transforms``; ``kl_divergence`` and ``register_kl``;
the ``constraints`` they check. (d2l's probability chapter draws dice with
``Multinomial``; policy-gradient code samples actions with ``Categorical``; a VAE's loss
has ``kl_divergence(Normal(mu, std), Normal(0, 1))``; SAC squashes a Normal with
``TanhTransform``.)
"""

from . import constraints, transforms  # noqa: F401
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import (AffineTransform, ComposeTransform, ExpTransform, PowerTransform,
                         SigmoidTransform, SoftplusTransform, TanhTransform, Transform)
from .uniform import Uniform

__all__ = ["AffineTransform", "Bernoulli", "Categorical", "ComposeTransform", "Distribution",
           "ExpTransform", "Exponential", "Independent", "Laplace", "LogNormal", "Multinomial",
           "MultivariateNormal", "Normal", "PowerTransform", "SigmoidTransform",
           "SoftplusTransform", "TanhTransform", "Transform", "TransformedDistribution",
           "Uniform", "constraints", "kl_divergence", "register_kl", "transforms"]
