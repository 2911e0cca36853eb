"""``torch.distributions``: probability distributions to sample from and score, written on
the public API as PyTorch's are, so that they draw PyTorch's numbers after
``manual_seed`` (a ``Categorical`` samples with ``multinomial``, a ``Normal`` with
``normal``, an ``Exponential`` with ``exponential_``, ...), print as PyTorch's and check
their arguments with PyTorch's errors.

All sixty-seven of PyTorch's names (``__all__``): ``Normal``, ``MultivariateNormal``, ``Categorical``,
``Bernoulli``, ``Independent``, ``TransformedDistribution`` with the ``transforms``,
``MixtureSameFamily``, the relaxed ones, ...; ``kl_divergence`` and ``register_kl``;
the ``constraints`` they check. (d2l's probability chapter draws dice with
``Multinomial``; policy-gradient code samples actions with ``Categorical``; a VAE's loss
has ``kl_divergence(Normal(mu, std), Normal(0, 1))``; SAC squashes a Normal with
``TanhTransform``.)
"""

from . import constraints, transforms  # noqa: F401
from . import constraint_registry  # noqa: F401
# (PyTorch's module paths, ``torch.distributions.binomial.Binomial``: each names its class)
from . import (beta, binomial, chi2, dirichlet, half_cauchy, pareto, relaxed_bernoulli,  # noqa: F401
               relaxed_categorical, studentT, weibull)
from .constraint_registry import biject_to, transform_to
from .continuous_bernoulli import ContinuousBernoulli
from .fishersnedecor import FisherSnedecor
from .generalized_pareto import GeneralizedPareto
from .inverse_gamma import InverseGamma
from .kumaraswamy import Kumaraswamy
from .lkj_cholesky import LKJCholesky
from .logistic_normal import LogisticNormal
from .lowrank_multivariate_normal import LowRankMultivariateNormal
from .negative_binomial import NegativeBinomial
from .von_mises import VonMises
from .wishart import Wishart
from .bernoulli import Bernoulli
from .categorical import Categorical
from .cauchy import Cauchy
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Beta, Chi2, Dirichlet, Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .heavy_tails import HalfCauchy, Pareto, Weibull
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .mixture_same_family import MixtureSameFamily
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Binomial, Poisson
from .relaxed import RelaxedBernoulli, RelaxedOneHotCategorical
from .student_t import StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import (AbsTransform, AffineTransform, CatTransform, ComposeTransform,
                         CorrCholeskyTransform, CumulativeDistributionTransform, ExpTransform,
                         IndependentTransform, LowerCholeskyTransform,
                         PositiveDefiniteTransform, PowerTransform, ReshapeTransform,
                         SigmoidTransform, SoftmaxTransform, SoftplusTransform, StackTransform,
                         StickBreakingTransform, TanhTransform, Transform, identity_transform)
from .uniform import Uniform

__all__ = ["AbsTransform", "AffineTransform", "Bernoulli", "Beta", "Binomial",
           "Categorical", "Cauchy", "Chi2", "ComposeTransform", "Dirichlet",
           "Distribution", "ExpTransform", "Exponential", "ExponentialFamily", "Gamma",
           "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent", "Laplace",
           "LogNormal", "MixtureSameFamily", "Multinomial", "MultivariateNormal",
           "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Pareto",
           "Poisson", "PowerTransform", "RelaxedBernoulli", "RelaxedOneHotCategorical",
           "SigmoidTransform", "SoftplusTransform", "StudentT", "TanhTransform",
           "Transform", "TransformedDistribution", "Uniform", "Weibull",
           "identity_transform", "kl_divergence", "register_kl",
           "CatTransform", "ContinuousBernoulli", "CorrCholeskyTransform",
           "CumulativeDistributionTransform", "FisherSnedecor", "GeneralizedPareto",
           "IndependentTransform", "InverseGamma", "Kumaraswamy", "LKJCholesky",
           "LogisticNormal", "LowRankMultivariateNormal", "LowerCholeskyTransform",
           "NegativeBinomial", "PositiveDefiniteTransform", "ReshapeTransform",
           "SoftmaxTransform", "StackTransform", "StickBreakingTransform", "VonMises", "Wishart",
           "biject_to", "transform_to"]
