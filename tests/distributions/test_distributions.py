"""torch.distributions against PyTorch 2.13, live: each distribution's samples after
manual_seed (PyTorch's random streams: Categorical and Multinomial through multinomial,
Normal through normal and normal_, Bernoulli through bernoulli, Uniform through rand),
log_prob, entropy, cdf/icdf, mean/variance/stddev, batch and event shapes, printing (which
shows the parameters computed so far), PyTorch's argument and support errors, and the
gradients of rsample and log_prob; then d2l's dice program (preliminaries/probability)
and a REINFORCE-style policy-gradient step."""

from __future__ import annotations

import warnings

import pytest
import torch

import minigrad as mg


def outcome(call, lib):
    try:
        return ("result", repr(call(lib)))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return ("error", type(error).__name__, str(error))


def same(call):
    def seeded(lib):
        lib.manual_seed(0)
        return call(lib)
    assert outcome(seeded, mg) == outcome(seeded, torch)


def D(lib):
    return lib.distributions


CASES = {
    "multinomial one draw": lambda lib: D(lib).Multinomial(1, lib.ones([6]) / 6).sample(),
    "multinomial counts": lambda lib: [D(lib).Multinomial(1000, lib.ones([6]) / 6).sample() / 1000,
                                       D(lib).Multinomial(10, lib.ones(6) / 6).sample((5,))],
    "multinomial stats": lambda lib: _stats(D(lib).Multinomial(10, lib.tensor([0.1, 0.3, 0.6])),
                                            lib.tensor([[1., 3., 6.], [0., 0., 10.]])),
    "multinomial logits, batched": lambda lib: D(lib).Multinomial(
        4, logits=lib.tensor([[0., 1., 2.], [1., 1., 1.]])).sample((2,)),
    "categorical": lambda lib: _stats(D(lib).Categorical(lib.tensor([0.25, 0.25, 0.5])),
                                      lib.tensor(2)),
    "categorical unnormalised": lambda lib: D(lib).Categorical(lib.tensor([1., 1., 2.])).probs,
    "categorical logits, batched": lambda lib: _stats(
        D(lib).Categorical(logits=lib.tensor([[1., 2.], [0., 0.]])), lib.tensor([1, 0])),
    "categorical sample shapes": lambda lib: D(lib).Categorical(
        logits=lib.zeros(2, 3)).sample((4, 5)).shape,
    "categorical repr before and after": lambda lib: _reprs(
        D(lib).Categorical(lib.tensor([0.2, 0.8])), "logits"),
    "normal": lambda lib: _stats(D(lib).Normal(lib.tensor([0.0, 1.0]), lib.tensor([1.0, 2.0])),
                                 lib.tensor([0.5, -1.0]), continuous=True),
    "normal of numbers": lambda lib: _stats(D(lib).Normal(0., 1.), lib.tensor(0.3),
                                            continuous=True),
    "normal broadcast": lambda lib: D(lib).Normal(lib.zeros(3, 1), lib.ones(2)).sample((2,)),
    "bernoulli": lambda lib: _stats(D(lib).Bernoulli(lib.tensor([0.3, 0.9])),
                                    lib.tensor([1., 0.])),
    "bernoulli logits": lambda lib: _reprs(D(lib).Bernoulli(logits=lib.tensor([0.2, -1.])),
                                           "probs"),
    "bernoulli number": lambda lib: [D(lib).Bernoulli(0.5).sample((4,)),
                                     D(lib).Bernoulli(0.5).batch_shape],
    "uniform": lambda lib: _stats(D(lib).Uniform(lib.tensor([0.0]), lib.tensor([5.0])),
                                  lib.tensor([2.0]), continuous=True),
    "uniform of numbers": lambda lib: [D(lib).Uniform(0., 2.), D(lib).Uniform(0., 2.).rsample((2,))],
}


def _stats(dist, value, continuous=False):
    seen = [dist, dist.batch_shape, dist.event_shape, dist.sample(), dist.sample((3,)),
            dist.log_prob(value), dist.mean, dist.variance]
    if not isinstance(dist, D(mg).Multinomial) and not isinstance(dist, D(torch).Multinomial):
        seen.append(dist.entropy())
    if continuous:
        seen += [dist.rsample((2,)), dist.cdf(value), dist.stddev]
    return seen + [dist]


def _reprs(dist, name):
    before = repr(dist)
    getattr(dist, name)
    return before, repr(dist)


@pytest.mark.parametrize("name", list(CASES))
def test_distribution_as_torch(name):
    same(CASES[name])


ERRORS = {
    "probs not a simplex": lambda lib: D(lib).Categorical(lib.tensor([-1., 2.])),
    "negative scale": lambda lib: D(lib).Normal(0., -1.),
    "probs above 1": lambda lib: D(lib).Bernoulli(lib.tensor([1.5])),
    "low above high": lambda lib: D(lib).Uniform(2., 1.),
    "neither probs nor logits": lambda lib: D(lib).Categorical(),
    "both probs and logits": lambda lib: D(lib).Bernoulli(0.5, logits=0.),
    "0-dim probs": lambda lib: D(lib).Categorical(lib.tensor(1.)),
    "value outside the support": lambda lib: D(lib).Categorical(
        lib.tensor([0.5, 0.5])).log_prob(lib.tensor(3)),
    "value of another shape": lambda lib: D(lib).Normal(lib.zeros(2), 1.).log_prob(lib.zeros(3)),
    "value not a tensor": lambda lib: D(lib).Normal(0., 1.).log_prob(0.5),
    "event shape": lambda lib: D(lib).Multinomial(3, lib.ones(3) / 3).log_prob(lib.ones(2)),
    "not validated": lambda lib: D(lib).Normal(0., -1., validate_args=False).log_prob(
        lib.tensor(0.)),
    "total_count a tensor": lambda lib: D(lib).Multinomial(lib.tensor(3), lib.ones(2) / 2),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    same(ERRORS[name])


def test_gradients_through_rsample_and_log_prob_as_torch():
    def program(lib):
        mu = lib.tensor([0.5], requires_grad=True)
        sigma = lib.tensor([2.0], requires_grad=True)
        dist = D(lib).Normal(mu, sigma)
        s = dist.rsample((3,))
        (s.sum() + dist.log_prob(lib.tensor([1.0])).sum() + dist.entropy().sum()).backward()
        logits = lib.tensor([0.1, 0.2, 0.7], requires_grad=True)
        cat = D(lib).Categorical(logits=logits)
        action = cat.sample()
        log_prob = cat.log_prob(action)
        (-log_prob).backward()
        return s, mu.grad, sigma.grad, action, log_prob, logits.grad
    same(program)


def test_d2l_dice_program_as_torch():
    """d2l preliminaries/probability: tossing a die with Multinomial and watching the
    estimates converge (its cum_counts / cum_counts.sum(dim=1, keepdims=True))."""
    def program(lib):
        fair_probs = lib.ones([6]) / 6
        counts = D(lib).Multinomial(10, fair_probs).sample((500,))
        cum_counts = counts.cumsum(dim=0)
        estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
        return estimates[-1], estimates[::100, 0], D(lib).Multinomial(
            100, lib.tensor([0.5, 0.5])).sample() / 100
    same(program)


def test_policy_gradient_steps_as_torch():
    """The REINFORCE pattern: a policy network's softmax as a Categorical, actions sampled,
    -log_prob * return summed, Adam steps; the actions and final weights are PyTorch's."""
    def program(lib):
        policy = lib.nn.Sequential(lib.nn.Linear(4, 16), lib.nn.ReLU(), lib.nn.Linear(16, 2))
        opt = lib.optim.Adam(policy.parameters(), lr=1e-2)
        actions = []
        for _ in range(5):
            state = lib.randn(4)
            m = D(lib).Categorical(lib.softmax(policy(state), dim=-1))
            action = m.sample()
            actions.append(action.item())
            loss = -m.log_prob(action) * (1.0 if action.item() == 1 else -0.5)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return actions, policy[2].bias
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(program)
