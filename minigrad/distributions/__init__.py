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
from .cauchy import Cauchy
from .distribution import Distribution
from .exponential import Exponential
from .gamma import Beta, Chi2, Dirichlet, Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Binomial, Poisson
from .student_t import StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import (AffineTransform, ComposeTransform, ExpTransform, PowerTransform,
                         SigmoidTransform, SoftplusTransform, TanhTransform, Transform)
from .uniform import Uniform

__all__ = ["AffineTransform", "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2",
           "ComposeTransform", "Dirichlet", "Distribution", "ExpTransform", "Exponential",
           "Gamma", "Geometric", "Gumbel", "Independent", "Laplace", "LogNormal", "Multinomial",
           "MultivariateNormal", "Normal", "OneHotCategorical",
           "OneHotCategoricalStraightThrough", "Poisson", "PowerTransform", "SigmoidTransform",
           "SoftplusTransform", "StudentT", "TanhTransform", "Transform",
           "TransformedDistribution", "Uniform", "constraints", "kl_divergence", "register_kl",
           "transforms"]
