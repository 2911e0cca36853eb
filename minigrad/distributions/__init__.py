"""``torch.distributions``: probability distributions to sample from and score, written on
the public API as PyTorch's are, so that they draw PyTorch's numbers after
``manual_seed`` (a ``Categorical`` samples with ``multinomial``, a ``Normal`` with
``normal``, ...), print as PyTorch's and check their arguments with PyTorch's errors.

``Categorical``, ``Multinomial``, ``Normal``, ``Bernoulli``, ``Uniform``; the ``constraints``
they check. (d2l's probability chapter draws dice with ``Multinomial``; policy-gradient
code samples actions with ``Categorical`` and scores them with ``log_prob``.)
"""

from . import constraints  # noqa: F401
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .multinomial import Multinomial
from .normal import Normal
from .uniform import Uniform

__all__ = ["Distribution", "Bernoulli", "Categorical", "Multinomial", "Normal", "Uniform",
           "constraints"]
