"""MixtureSameFamily, RelaxedBernoulli, RelaxedOneHotCategorical and HalfNormal against
PyTorch 2.13, live: samples after manual_seed bit for bit (a Categorical's multinomial then
the components' draws, gathered; rand for the relaxed ones), log_prob, mean, variance, cdf,
shapes, printing, expand, errors, gradients; and a Gaussian-mixture fit trained both ways."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from dist_compare import close, same, same_bits


def D(lib):
    return lib.distributions


def _gmm(lib, dtype=None):
    dtype = dtype or lib.float32
    mix = D(lib).Categorical(lib.tensor([0.3, 0.5, 0.2], dtype=dtype))
    comp = D(lib).Normal(lib.tensor([-2.0, 0.0, 3.0], dtype=dtype), lib.tensor([0.5, 1.0, 2.0], dtype=dtype))
    return D(lib).MixtureSameFamily(mix, comp)


def _gmm_2d(lib):
    mix = D(lib).Categorical(lib.ones(2, 3))
    comp = D(lib).Independent(D(lib).Normal(lib.arange(12.0).reshape(2, 3, 2), lib.ones(2, 3, 2)), 1)
    return D(lib).MixtureSameFamily(mix, comp)


CASES = {
    "gaussian mixture": lambda lib: _mixture_stats(_gmm(lib), lib.tensor([0.5, -1.0, 4.0])) + [
        _gmm(lib).cdf(lib.tensor([0.5, -1.0]))],
    "mixture of independent normals": lambda lib: _mixture_stats(_gmm_2d(lib), lib.tensor([[1.0, 2.0]])),
    "relaxed bernoulli": lambda lib: _relaxed(D(lib).RelaxedBernoulli(lib.tensor(0.5), lib.tensor([0.2, 0.9]))),
    "relaxed bernoulli logits": lambda lib: _relaxed(D(lib).RelaxedBernoulli(lib.tensor([0.1, 2.0]),
                                                                             logits=lib.tensor([0.3, -1.0]))),
    "relaxed one hot": lambda lib: _relaxed(D(lib).RelaxedOneHotCategorical(
        lib.tensor(0.7), lib.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]]))),
    "half normal": lambda lib: [D(lib).HalfNormal(lib.tensor([1.0, 2.0])).rsample((3,)),
                                D(lib).HalfNormal(lib.tensor([1.0, 2.0])).log_prob(lib.tensor([0.5, 3.0])),
                                D(lib).HalfNormal(2.0).mean, D(lib).HalfNormal(2.0).variance,
                                D(lib).HalfNormal(2.0).entropy(), D(lib).HalfNormal(2.0).cdf(lib.tensor(1.0)),
                                D(lib).HalfNormal(2.0).icdf(lib.tensor(0.3)), repr(D(lib).HalfNormal(2.0))],
}


def _mixture_stats(dist, value):
    return [repr(dist), dist.batch_shape, dist.event_shape, dist.sample(), dist.sample((4,)),
            dist.log_prob(value), dist.mean, dist.variance, repr(dist.support),
            dist.expand((2,) + dist.batch_shape).sample().shape]


def _relaxed(dist):
    x = dist.rsample((3,))
    return [repr(dist), dist.batch_shape, dist.event_shape, x, dist.sample(), dist.log_prob(x),
            dist.probs, dist.logits, dist.temperature, repr(dist.support),
            dist.expand((2,) + dist.batch_shape).rsample().shape]


@pytest.mark.parametrize("name", list(CASES))
def test_as_torch(name):
    same(CASES[name])
    close(CASES[name], rtol=2e-5, atol=1e-5)


def test_mixture_samples_bit_for_bit():
    same_bits(lambda lib: [_gmm(lib, lib.float64).sample((500,)), _gmm(lib).sample((500,)),
                           _gmm_2d(lib).sample((50,))])


def test_relaxed_samples_within_rounding():
    """The uniform draws are PyTorch's bit for bit; the logs of them (and logsumexp) round
    apart in PyTorch's vectorised kernels for some (measured: 84 % of the values equal bits)."""
    def program(lib):
        return [D(lib).RelaxedBernoulli(lib.tensor(0.5), lib.tensor([0.2, 0.9])).base_dist.rsample((200,)),
                D(lib).RelaxedOneHotCategorical(lib.tensor(0.7, dtype=lib.float64),
                                                lib.tensor([0.2, 0.3, 0.5], dtype=lib.float64)).base_dist.rsample((5,))]
    assert close(program, rtol=1e-6, atol=1e-6) > 0.8


def test_gradients_as_torch():
    def program(lib):
        w = lib.tensor([0.1, 0.5, -0.3], requires_grad=True)
        mu = lib.tensor([-2.0, 0.0, 3.0], requires_grad=True)
        temp = lib.tensor(0.5, requires_grad=True)
        logits = lib.tensor([0.2, -0.4, 1.0], requires_grad=True)
        gmm = D(lib).MixtureSameFamily(D(lib).Categorical(logits=w), D(lib).Normal(mu, 1.0))
        r = D(lib).RelaxedOneHotCategorical(temp, logits=logits)
        total = gmm.log_prob(lib.tensor([0.5, 1.5])).sum() + r.rsample().pow(2).sum() \
            + D(lib).RelaxedBernoulli(temp, logits=logits).rsample().sum()
        total.backward()
        return total, w.grad, mu.grad, temp.grad, logits.grad
    same(program)
    close(program, rtol=1e-5, atol=1e-6)


ERRORS = {
    "mixture not categorical": lambda lib: D(lib).MixtureSameFamily(D(lib).Normal(0.0, 1.0), D(lib).Normal(lib.zeros(2), 1.0)),
    "components not a distribution": lambda lib: D(lib).MixtureSameFamily(D(lib).Categorical(lib.ones(2)), lib.zeros(2)),
    "component count": lambda lib: D(lib).MixtureSameFamily(D(lib).Categorical(lib.ones(3)), D(lib).Normal(lib.zeros(2), 1.0)),
    "batch shapes": lambda lib: D(lib).MixtureSameFamily(D(lib).Categorical(lib.ones(4, 2)),
                                                         D(lib).Normal(lib.zeros(3, 2), 1.0)),
    "relaxed neither": lambda lib: D(lib).RelaxedBernoulli(lib.tensor(0.5)),
    "relaxed support": lambda lib: D(lib).RelaxedBernoulli(lib.tensor(0.5), lib.tensor(0.3)).log_prob(lib.tensor(1.5)),
    "half normal support": lambda lib: D(lib).HalfNormal(1.0).log_prob(lib.tensor(-1.0)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    same(ERRORS[name])


def test_gaussian_mixture_fit_trained_both_ways():
    """Fitting a 3-component mixture's weights, means and log-scales to data by maximum
    likelihood with Adam: the losses printed and the final parameters are PyTorch's."""
    def program(lib):
        data = lib.cat([lib.randn(40) * 0.5 - 2, lib.randn(60) + 1.5])
        w = lib.zeros(3, requires_grad=True)
        mu = lib.tensor([-1.0, 0.0, 1.0], requires_grad=True)
        log_s = lib.zeros(3, requires_grad=True)
        opt = lib.optim.Adam([w, mu, log_s], lr=0.05)
        lines = []
        for step in range(20):
            gmm = D(lib).MixtureSameFamily(D(lib).Categorical(logits=w), D(lib).Normal(mu, log_s.exp()))
            loss = -gmm.log_prob(data).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 5 == 0:
                lines.append(f"step {step}: nll {loss.item():.4f}")
        return "\n".join(lines), mu, log_s
    same(program)
    close(program, rtol=1e-5, atol=1e-6)
