"""Cauchy, HalfCauchy, Gumbel, Weibull, Pareto, OneHotCategorical (and its straight-through
variant), Geometric, Gamma, Chi2, Beta, Dirichlet, Poisson, Binomial and StudentT against
PyTorch 2.13, live: samples after manual_seed bit for bit (cauchy_, uniform_, multinomial,
_standard_gamma, _sample_dirichlet, poisson, binomial underneath), log_prob, entropy,
moments, cdf, shapes, printing, their kl_divergence pairs, gradients through rsample and
log_prob, errors."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from dist_compare import close, same, same_bits


def D(lib):
    return lib.distributions


def _stats(dist, value, sample=True, cdf=False):
    seen = [repr(dist), dist.batch_shape, dist.event_shape, dist.log_prob(value), dist.mean,
            dist.variance, dist.entropy(), dist.mode]
    if sample:
        seen += [dist.sample(), dist.sample((3,))]
    if cdf:
        seen += [dist.cdf(value), dist.icdf(dist.cdf(value))]
    return seen + [dist.expand((2,) + dist.batch_shape).batch_shape, repr(dist)]


CASES = {
    "cauchy": lambda lib: _stats(D(lib).Cauchy(lib.tensor([0.0, 1.0]), lib.tensor([1.0, 0.5])),
                                 lib.tensor([0.3, 2.0]), cdf=True) + [D(lib).Cauchy(0.0, 1.0).rsample((4,))],
    "gumbel": lambda lib: _stats(D(lib).Gumbel(lib.tensor([0.0, 1.0]), lib.tensor([1.0, 2.0])),
                                 lib.tensor([0.3, 2.0])) + [D(lib).Gumbel(1.0, 2.0).sample((3,))],
    "one hot": lambda lib: _stats(D(lib).OneHotCategorical(lib.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])),
                                  lib.tensor([0.0, 1.0, 0.0])) + [
        D(lib).OneHotCategorical(logits=lib.zeros(3)).enumerate_support(),
        D(lib).OneHotCategorical(logits=lib.zeros(3)).probs],
    "geometric": lambda lib: _stats(D(lib).Geometric(lib.tensor([0.2, 0.7])), lib.tensor([3.0, 0.0])),
    "geometric logits": lambda lib: _stats(D(lib).Geometric(logits=lib.tensor(0.3)), lib.tensor(2.0)),
    "gamma": lambda lib: _stats(D(lib).Gamma(lib.tensor([2.0, 0.5]), lib.tensor([1.0, 3.0])),
                                lib.tensor([1.5, 0.2])) + [D(lib).Gamma(3.0, 2.0).rsample((4,)),
                                                           D(lib).Chi2(lib.tensor([3.0, 0.5])).sample((2,))],
    "beta": lambda lib: _stats(D(lib).Beta(lib.tensor([2.0, 0.5]), lib.tensor([3.0, 0.7])),
                               lib.tensor([0.3, 0.9])),
    "beta numbers": lambda lib: _stats(D(lib).Beta(2.0, 3.0), lib.tensor(0.3)),
    "dirichlet": lambda lib: _stats(D(lib).Dirichlet(lib.tensor([[2.0, 0.5, 1.0], [0.3, 0.4, 0.9]])),
                                    lib.tensor([0.2, 0.3, 0.5])) + [
        D(lib).Dirichlet(lib.ones(4)).rsample((2,))],
    "poisson": lambda lib: [D(lib).Poisson(lib.tensor([2.0, 0.5])).log_prob(lib.tensor([1.0, 4.0])),
                            D(lib).Poisson(lib.tensor([2.0, 50.0])).sample((3,)),
                            D(lib).Poisson(3.0).sample((4,)), D(lib).Poisson(3.0).mean,
                            D(lib).Poisson(lib.tensor([2.0, 0.5])).variance, repr(D(lib).Poisson(3.0)),
                            D(lib).Poisson(lib.tensor([2.0, 0.5])).expand((3, 2)).sample().shape],
    "poisson entropy (not implemented)": lambda lib: D(lib).Poisson(3.0).entropy(),
    "binomial": lambda lib: _stats(D(lib).Binomial(10, lib.tensor([0.2, 0.7])), lib.tensor([3.0, 10.0]))
    + [D(lib).Binomial(4, lib.tensor([0.2, 0.7])).enumerate_support(),
       D(lib).Binomial(100, lib.tensor([0.2, 0.7])).sample((5,))],
    "binomial logits": lambda lib: _stats(D(lib).Binomial(lib.tensor([5.0, 5.0]), logits=lib.tensor([0.2, -1.0])),
                                          lib.tensor([2.0, 0.0])),
    "bernoulli mode": lambda lib: [D(lib).Bernoulli(lib.tensor([0.2, 0.5, 0.7])).mode,
                                   D(lib).Bernoulli(logits=lib.tensor([0.0, -1.0, 2.0])).mode],
    "multinomial entropy and expand": lambda lib: [
        D(lib).Multinomial(10, lib.tensor([0.2, 0.3, 0.5])).entropy(),
        D(lib).Multinomial(4, lib.tensor([[0.2, 0.8], [0.5, 0.5]])).entropy(),
        D(lib).Multinomial(4, lib.tensor([0.2, 0.8])).expand((3,)).sample(),
        D(lib).Multinomial(4, lib.tensor([0.2, 0.8])).expand((3,)).batch_shape],
    "weibull": lambda lib: _stats(D(lib).Weibull(lib.tensor([1.0, 2.0]), lib.tensor([1.5, 0.7])),
                                  lib.tensor([0.5, 3.0])) + [D(lib).Weibull(1.0, 2.0).rsample((3,))],
    "pareto": lambda lib: _stats(D(lib).Pareto(lib.tensor([1.0, 2.0]), lib.tensor([3.0, 1.5])),
                                 lib.tensor([1.5, 3.0])) + [repr(D(lib).Pareto(1.0, 2.0).support)],
    "half cauchy": lambda lib: _stats(D(lib).HalfCauchy(lib.tensor([1.0, 2.0])), lib.tensor([0.5, 3.0]),
                                      cdf=True) + [D(lib).HalfCauchy(1.0).rsample((3,))],
    "student t": lambda lib: _stats(D(lib).StudentT(lib.tensor([0.5, 1.5, 5.0]), 1.0, 2.0),
                                    lib.tensor([0.3, 2.0, -1.0])),
}


@pytest.mark.parametrize("name", list(CASES))
def test_family_as_torch(name):
    same(CASES[name])
    close(CASES[name], rtol=1e-5, atol=1e-6)


def test_samples_bit_for_bit():
    def program(lib):
        return [D(lib).Cauchy(lib.tensor([0.0, 1.0], dtype=lib.float64), 2.0).rsample((500,)),
                D(lib).OneHotCategorical(lib.tensor([0.2, 0.3, 0.5])).sample((200,)),
                D(lib).Geometric(lib.tensor([0.2, 0.7])).sample((500,)),
                D(lib).Gumbel(lib.tensor([0.0, 1.0], dtype=lib.float64), 2.0).base_dist.sample((500,)),
                D(lib).Gamma(lib.tensor([0.3, 1.0, 7.5]), lib.tensor([1.0, 2.0, 0.5])).sample((300,)),
                D(lib).Gamma(lib.tensor([0.3, 7.5], dtype=lib.float64), 2.0).rsample((300,)),
                D(lib).Chi2(lib.tensor([1.0, 4.0], dtype=lib.float64)).sample((100,)),
                D(lib).StudentT(lib.tensor([2.0, 9.0], dtype=lib.float64)).sample((100,)),
                D(lib).Dirichlet(lib.tensor([0.3, 1.0, 7.5])).sample((100,)),
                D(lib).Beta(lib.tensor([0.5, 2.0], dtype=lib.float64), 3.0).rsample((100,))]
    same_bits(program)


def test_float64_log_probs_and_kl():
    """The formulas in float64: PyTorch's bits except where its vectorised log/log1p/exp/
    lgamma/digamma round the other way (one ulp)."""
    def program(lib):
        f = lib.float64
        x = lib.linspace(0.05, 0.95, 19, dtype=f)
        out = [D(lib).Gamma(lib.tensor(2.5, dtype=f), 1.5).log_prob(x),
               D(lib).Beta(lib.tensor(2.5, dtype=f), lib.tensor(0.7, dtype=f)).log_prob(x),
               D(lib).StudentT(lib.tensor(3.0, dtype=f)).log_prob(x),
               D(lib).Poisson(lib.tensor(2.5, dtype=f)).log_prob(lib.arange(6, dtype=f)),
               D(lib).Binomial(6, lib.tensor(0.3, dtype=f)).log_prob(lib.arange(7, dtype=f)),
               D(lib).Cauchy(lib.tensor(0.5, dtype=f), 2.0).log_prob(x),
               D(lib).Gumbel(lib.tensor(0.5, dtype=f), 2.0).log_prob(x)]
        return out
    assert close(program, rtol=2e-15, atol=1e-16) > 0.85


def _kl_pairs(lib, f):
    def t(*values):
        return lib.tensor(values, dtype=f)
    return {
        "cauchy": (D(lib).Cauchy(t(0.0, 1.0), t(1.0, 0.5)), D(lib).Cauchy(t(1.0, 1.0), t(2.0, 0.3))),
        "gumbel": (D(lib).Gumbel(t(0.0, 1.0), t(1.0, 0.5)), D(lib).Gumbel(t(1.0, 1.0), t(2.0, 0.3))),
        "one hot": (D(lib).OneHotCategorical(t(0.2, 0.8, 0.0)), D(lib).OneHotCategorical(t(0.3, 0.0, 0.7))),
        "geometric": (D(lib).Geometric(t(0.2, 0.7)), D(lib).Geometric(t(0.5, 0.1))),
        "gamma": (D(lib).Gamma(t(2.0, 0.5), t(1.0, 3.0)), D(lib).Gamma(t(1.0, 1.5), t(2.0, 1.0))),
        "beta": (D(lib).Beta(t(2.0, 0.5), t(1.0, 3.0)), D(lib).Beta(t(1.0, 1.5), t(2.0, 1.0))),
        "dirichlet": (D(lib).Dirichlet(t(2.0, 0.5, 1.0)), D(lib).Dirichlet(t(1.0, 1.5, 2.0))),
        "poisson": (D(lib).Poisson(t(2.0, 0.5)), D(lib).Poisson(t(1.0, 3.0))),
        "binomial": (D(lib).Binomial(t(5.0, 6.0), t(0.2, 0.7)), D(lib).Binomial(t(5.0, 5.0), t(0.5, 0.1))),
    }


@pytest.mark.parametrize("name", list(_kl_pairs(torch, torch.float32)))
def test_kl_as_torch(name):
    def program(lib):
        return D(lib).kl_divergence(*_kl_pairs(lib, lib.float32)[name])
    same(program)
    close(program, rtol=2e-6, atol=1e-6)
    close(lambda lib: D(lib).kl_divergence(*_kl_pairs(lib, lib.float64)[name]), rtol=2e-15, atol=1e-15)


def test_gradients_as_torch():
    def program(lib):
        a = lib.tensor([2.0, 0.5], requires_grad=True)
        b = lib.tensor([1.0, 3.0], requires_grad=True)
        logits = lib.tensor([0.2, -0.4, 1.0], requires_grad=True)
        x = lib.tensor([0.3, 0.6])
        total = (D(lib).Gamma(a, b).log_prob(x).sum() + D(lib).Beta(a, b).log_prob(x).sum()
                 + D(lib).Gamma(a, b).rsample((3,)).sum() + D(lib).StudentT(a + b, a, b).rsample().sum()
                 + D(lib).Dirichlet(a + b).entropy() + D(lib).StudentT(a, 0.0, b).log_prob(x).sum()
                 + (D(lib).Dirichlet(a + b).rsample((2,)) * lib.tensor([1.0, 3.0])).sum()
                 + D(lib).Beta(a, b).rsample((2,)).sum()
                 + D(lib).Cauchy(a, b).rsample((2,)).sum() + D(lib).Gumbel(a, b).rsample().sum()
                 + D(lib).OneHotCategoricalStraightThrough(logits=logits).rsample().pow(2).sum()
                 + D(lib).kl_divergence(D(lib).Gamma(a, b), D(lib).Gamma(b, a)).sum())
        total.backward()
        return total, a.grad, b.grad, logits.grad
    same(program)
    close(program, rtol=1e-5, atol=1e-6)


ERRORS = {
    "gamma concentration": lambda lib: D(lib).Gamma(lib.tensor([-1.0]), 1.0),
    "geometric zero probs": lambda lib: D(lib).Geometric(lib.tensor([0.0, 0.5])),
    "geometric neither": lambda lib: D(lib).Geometric(),
    "dirichlet 0-dim": lambda lib: D(lib).Dirichlet(lib.tensor(1.0)),
    "dirichlet negative": lambda lib: D(lib).Dirichlet(lib.tensor([1.0, -1.0])),
    "beta support": lambda lib: D(lib).Beta(2.0, 3.0).log_prob(lib.tensor(1.5)),
    "poisson support": lambda lib: D(lib).Poisson(2.0).log_prob(lib.tensor(1.5)),
    "binomial support": lambda lib: D(lib).Binomial(3, lib.tensor(0.5)).log_prob(lib.tensor(4.0)),
    "binomial total_count": lambda lib: D(lib).Binomial(lib.tensor(-1.0), lib.tensor(0.5)),
    "binomial kl": lambda lib: D(lib).kl_divergence(D(lib).Binomial(3, lib.tensor(0.5)),
                                                    D(lib).Binomial(5, lib.tensor(0.5))),
    "one hot support": lambda lib: D(lib).OneHotCategorical(lib.ones(3) / 3).log_prob(lib.tensor([1.0, 1.0, 0.0])),
    "student t df": lambda lib: D(lib).StudentT(0.0),
    "chi2": lambda lib: [D(lib).Chi2(lib.tensor([2.0, 3.0])).log_prob(lib.tensor([1.0, 2.0])), D(lib).Chi2(3.0).df,
                         D(lib).Chi2(lib.tensor([-2.0]))],
    "cauchy scale": lambda lib: D(lib).Cauchy(0.0, -1.0),
    "pareto support": lambda lib: D(lib).Pareto(2.0, 1.0).log_prob(lib.tensor(1.0)),
    "weibull concentration": lambda lib: D(lib).Weibull(1.0, lib.tensor(-1.0)),
    "half cauchy support": lambda lib: D(lib).HalfCauchy(1.0).log_prob(lib.tensor(-1.0)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    same(ERRORS[name])
