"""``GeneralizedPareto``: the distribution of exceedances over a threshold (extreme
values), written as PyTorch's: sampled by inverting its CDF at a uniform draw."""

from __future__ import annotations

import math
from numbers import Number, Real

import minigrad

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["GeneralizedPareto"]


import math
from numbers import Number, Real





class GeneralizedPareto(Distribution):

    arg_constraints = {
        "loc": constraints.real,
        "scale": constraints.positive,
        "concentration": constraints.real,
    }
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(
            loc, scale, concentration
        )
        if (
            isinstance(loc, Number)
            and isinstance(scale, Number)
            and isinstance(concentration, Number)
        ):
            batch_shape = minigrad.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = minigrad.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        super(GeneralizedPareto, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=minigrad.Size()):
        shape = self._extended_shape(sample_shape)
        u = minigrad.rand(shape, dtype=self.loc.dtype)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = minigrad.isclose(self.concentration, minigrad.tensor(0.0))
        safe_conc = minigrad.where(
            eq_zero, minigrad.ones_like(self.concentration), self.concentration
        )
        y = 1 / safe_conc + minigrad.ones_like(z)
        where_nonzero = minigrad.where(y == 0, y, y * minigrad.log1p(safe_conc * z))
        log_scale = (
            math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        )
        return -log_scale - minigrad.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = minigrad.isclose(self.concentration, minigrad.tensor(0.0))
        safe_conc = minigrad.where(
            eq_zero, minigrad.ones_like(self.concentration), self.concentration
        )
        where_nonzero = -minigrad.log1p(safe_conc * z) / safe_conc
        return minigrad.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value):
        return minigrad.log1p(-minigrad.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return minigrad.exp(self.log_cdf(value))

    def icdf(self, value):
        loc = self.loc
        scale = self.scale
        concentration = self.concentration
        eq_zero = minigrad.isclose(concentration, minigrad.zeros_like(concentration))
        safe_conc = minigrad.where(eq_zero, minigrad.ones_like(concentration), concentration)
        logu = minigrad.log1p(-value)
        where_nonzero = loc + scale / safe_conc * minigrad.expm1(-safe_conc * logu)
        where_zero = loc - scale * logu
        return minigrad.where(eq_zero, where_zero, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        concentration = self.concentration
        valid = concentration < 1
        safe_conc = minigrad.where(valid, concentration, 0.5)
        result = self.loc + self.scale / (1 - safe_conc)
        return minigrad.where(valid, result, math.nan)

    @property
    def variance(self):
        concentration = self.concentration
        valid = concentration < 0.5
        safe_conc = minigrad.where(valid, concentration, 0.25)
        result = self.scale**2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return minigrad.where(valid, result, math.nan)

    def entropy(self):
        ans = minigrad.log(self.scale) + self.concentration + 1
        return minigrad.broadcast_to(ans, self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = minigrad.where(
            self.concentration < 0, lower - self.scale / self.concentration, math.inf
        )
        return constraints.interval(lower, upper)
