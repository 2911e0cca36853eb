"""``ExponentialFamily``: distributions with density ``exp(<t(x), theta> - F(theta) +
k(x))``; from the natural parameters ``theta`` and the log-normaliser ``F`` the entropy
and KL divergences (Bregman divergences of ``F``) follow by autograd, as PyTorch computes
them. ``Normal``, ``Bernoulli``, ``Exponential``, ``Gamma``, ``Beta``, ``Dirichlet`` and
``Poisson`` are exponential families."""

from __future__ import annotations

import minigrad

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """The entropy by the Bregman divergence of the log-normaliser (its gradient
        taken by autograd)."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = minigrad.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np, g in zip(nparams, gradients):
            result -= (np * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
