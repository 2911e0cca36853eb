"""``ContinuousBernoulli``: a density on [0, 1] proportional to p**x (1 - p)**(1 - x), with
its normalising constant (Taylor-expanded near p = 1/2), written as PyTorch's."""

from __future__ import annotations

import math
import numbers

import minigrad
from minigrad.nn.functional import binary_cross_entropy_with_logits

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, clamp_probs, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(
        self,
        probs: Tensor | Number | None = None,
        logits: Tensor | Number | None = None,
        lims: tuple[float, float] = (0.499, 0.501),
        validate_args: bool | None = None,
    ) -> None:
        if (probs is None) == (logits is None):
            raise ValueError(
                "Either `probs` or `logits` must be specified, but not both."
            )
        if probs is not None:
            is_scalar = isinstance(probs, numbers.Number)
            (self.probs,) = broadcast_all(probs)
            # validate 'probs' here if necessary as it is later clamped for numerical stability
            # close to 0 and 1, later on; otherwise the clamped 'probs' would always pass
            if validate_args is not None:
                if not self.arg_constraints["probs"].check(self.probs).all():
                    raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
        else:
            if logits is None:
                raise AssertionError("logits is unexpectedly None")
            is_scalar = isinstance(logits, numbers.Number)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        if is_scalar:
            batch_shape = minigrad.Size()
        else:
            batch_shape = self._param.size()
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ContinuousBernoulli, _instance)
        new._lims = self._lims
        batch_shape = minigrad.Size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
            new._param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
            new._param = new.logits
        super(ContinuousBernoulli, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    def _outside_unstable_region(self):
        return minigrad.max(
            minigrad.le(self.probs, self._lims[0]), minigrad.gt(self.probs, self._lims[1])
        )

    def _cut_probs(self):
        return minigrad.where(
            self._outside_unstable_region(),
            self.probs,
            self._lims[0] * minigrad.ones_like(self.probs),
        )

    def _cont_bern_log_norm(self):
        """computes the log normalizing constant as a function of the 'probs' parameter"""
        cut_probs = self._cut_probs()
        cut_probs_below_half = minigrad.where(
            minigrad.le(cut_probs, 0.5), cut_probs, minigrad.zeros_like(cut_probs)
        )
        cut_probs_above_half = minigrad.where(
            minigrad.ge(cut_probs, 0.5), cut_probs, minigrad.ones_like(cut_probs)
        )
        log_norm = minigrad.log(
            minigrad.abs(minigrad.log1p(-cut_probs) - minigrad.log(cut_probs))
        ) - minigrad.where(
            minigrad.le(cut_probs, 0.5),
            minigrad.log1p(-2.0 * cut_probs_below_half),
            minigrad.log(2.0 * cut_probs_above_half - 1.0),
        )
        x = minigrad.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return minigrad.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self) -> Tensor:
        cut_probs = self._cut_probs()
        mus = cut_probs / (2.0 * cut_probs - 1.0) + 1.0 / (
            minigrad.log1p(-cut_probs) - minigrad.log(cut_probs)
        )
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * minigrad.pow(x, 2)) * x
        return minigrad.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self) -> Tensor:
        return minigrad.sqrt(self.variance)

    @property
    def variance(self) -> Tensor:
        cut_probs = self._cut_probs()
        vars = cut_probs * (cut_probs - 1.0) / minigrad.pow(
            1.0 - 2.0 * cut_probs, 2
        ) + 1.0 / minigrad.pow(minigrad.log1p(-cut_probs) - minigrad.log(cut_probs), 2)
        x = minigrad.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return minigrad.where(self._outside_unstable_region(), vars, taylor)

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Tensor:
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self) -> minigrad.Size:
        return self._param.size()

    def sample(self, sample_shape=minigrad.Size()):
        shape = self._extended_shape(sample_shape)
        u = minigrad.rand(shape, dtype=self.probs.dtype)
        with minigrad.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape: _size = minigrad.Size()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        u = minigrad.rand(shape, dtype=self.probs.dtype)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return (
            -binary_cross_entropy_with_logits(logits, value, reduction="none")
            + self._cont_bern_log_norm()
        )

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = (
            minigrad.pow(cut_probs, value) * minigrad.pow(1.0 - cut_probs, 1.0 - value)
            + cut_probs
            - 1.0
        ) / (2.0 * cut_probs - 1.0)
        unbounded_cdfs = minigrad.where(self._outside_unstable_region(), cdfs, value)
        return minigrad.where(
            minigrad.le(value, 0.0),
            minigrad.zeros_like(value),
            minigrad.where(minigrad.ge(value, 1.0), minigrad.ones_like(value), unbounded_cdfs),
        )

    def icdf(self, value):
        cut_probs = self._cut_probs()
        return minigrad.where(
            self._outside_unstable_region(),
            (
                minigrad.log1p(-cut_probs + value * (2.0 * cut_probs - 1.0))
                - minigrad.log1p(-cut_probs)
            )
            / (minigrad.log(cut_probs) - minigrad.log1p(-cut_probs)),
            value,
        )

    def entropy(self):
        log_probs0 = minigrad.log1p(-self.probs)
        log_probs1 = minigrad.log(self.probs)
        return (
            self.mean * (log_probs0 - log_probs1)
            - self._cont_bern_log_norm()
            - log_probs0
        )

    @property
    def _natural_params(self) -> tuple[Tensor]:
        return (self.logits,)

    def _log_normalizer(self, x):
        """computes the log normalizing constant as a function of the natural parameter"""
        out_unst_reg = minigrad.max(
            minigrad.le(x, self._lims[0] - 0.5), minigrad.gt(x, self._lims[1] - 0.5)
        )
        cut_nat_params = minigrad.where(
            out_unst_reg, x, (self._lims[0] - 0.5) * minigrad.ones_like(x)
        )
        log_norm = minigrad.log(
            minigrad.abs(minigrad.special.expm1(cut_nat_params))
        ) - minigrad.log(minigrad.abs(cut_nat_params))
        taylor = 0.5 * x + minigrad.pow(x, 2) / 24.0 - minigrad.pow(x, 4) / 2880.0
        return minigrad.where(out_unst_reg, log_norm, taylor)
