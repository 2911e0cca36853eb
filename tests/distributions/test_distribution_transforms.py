"""TransformedDistribution and the transforms against PyTorch 2.13, live: forward and
inverse values, log_abs_det_jacobian, printing, equality, caching, shapes, domain and
codomain; transformed distributions' samples after manual_seed, log_prob, cdf/icdf,
support and errors; then two programs trained both ways: a tiny VAE whose loss has
kl_divergence(Normal(mu, std), Normal(0, 1)).sum(), and a SAC-style policy scoring its
tanh-squashed Normal actions."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from dist_compare import close, same, same_bits


def D(lib):
    return lib.distributions


def T(lib):
    return lib.distributions.transforms


def _transforms(lib):
    return {
        "exp": T(lib).ExpTransform(),
        "sigmoid": T(lib).SigmoidTransform(),
        "tanh": T(lib).TanhTransform(),
        "softplus": T(lib).SoftplusTransform(),
        "affine numbers": T(lib).AffineTransform(1.0, -2.0),
        "affine tensors": T(lib).AffineTransform(lib.tensor([1.0, 0.5]), lib.tensor([2.0, -0.5])),
        "affine event_dim 1": T(lib).AffineTransform(lib.zeros(2), lib.tensor([2.0, 3.0]), event_dim=1),
        "power": T(lib).PowerTransform(lib.tensor(2.0)),
        "compose": T(lib).ComposeTransform([T(lib).AffineTransform(0.5, 2.0), T(lib).TanhTransform()]),
        "inverse of exp": T(lib).ExpTransform().inv,
        "cached tanh": T(lib).TanhTransform(cache_size=1),
    }


@pytest.mark.parametrize("name", list(_transforms(torch)))
def test_transform_as_torch(name):
    def program(lib):
        t = _transforms(lib)[name]
        x = lib.tensor([[0.3, 1.2], [-0.7, 0.05]]).abs() if name in ("power", "inverse of exp") \
            else lib.tensor([[0.3, 1.2], [-0.7, 0.05]])
        y = t(x)
        return [repr(t), y, t.inv(y), t.log_abs_det_jacobian(x, y), repr(t.domain),
                repr(t.codomain), t.bijective, t.sign, t.forward_shape((2, 2)),
                t.inverse_shape((2, 2)), t == _transforms(lib)[name], t.inv.inv is t,
                repr(t.inv), t.with_cache(1)(x), t.inv(y) is x]
    same(program)
    close(program, rtol=2e-6, atol=1e-6)


def test_transform_gradients_as_torch():
    def program(lib):
        out = []
        for name, t in _transforms(lib).items():
            x = lib.tensor([0.3, 1.2], requires_grad=True)
            y = t(x)
            (y.sum() + t.log_abs_det_jacobian(x, y).sum()).backward()
            out += [name, x.grad]
        return out
    same(program)
    close(program, rtol=2e-6, atol=1e-6)


def _tanh_normal(lib, loc, scale):
    return D(lib).TransformedDistribution(D(lib).Normal(loc, scale), [D(lib).TanhTransform()])


CASES = {
    "tanh normal": lambda lib: _stats(_tanh_normal(lib, lib.tensor([0.0, 1.0]), lib.tensor([1.0, 0.5]))),
    "affine then sigmoid": lambda lib: _stats(D(lib).TransformedDistribution(
        D(lib).Normal(lib.zeros(3), 1.0), [D(lib).AffineTransform(1.0, 2.0), D(lib).SigmoidTransform()])),
    "compose on uniform": lambda lib: _stats(D(lib).TransformedDistribution(
        D(lib).Uniform(lib.zeros(2), lib.ones(2)),
        D(lib).transforms.ComposeTransform([D(lib).SigmoidTransform().inv, D(lib).AffineTransform(0.0, -1.0)]))),
    "event_dim 1 makes an event": lambda lib: _stats(D(lib).TransformedDistribution(
        D(lib).Normal(lib.zeros(2, 3), 1.0), [D(lib).AffineTransform(lib.zeros(3), lib.ones(3), event_dim=1)])),
    "broadcasting transform expands the base": lambda lib: _stats(D(lib).TransformedDistribution(
        D(lib).Normal(0.0, 1.0), [D(lib).AffineTransform(lib.zeros(3), lib.tensor([1.0, 2.0, 3.0]))])),
    "independent of transformed": lambda lib: _stats(D(lib).Independent(
        _tanh_normal(lib, lib.zeros(4, 2), lib.ones(4, 2)), 1)),
    "no transforms": lambda lib: _stats(D(lib).TransformedDistribution(D(lib).Exponential(lib.ones(2)), [])),
}


def _stats(dist):
    x = dist.sample((2,))
    seen = [dist.batch_shape, dist.event_shape, x, dist.rsample(), dist.log_prob(x), repr(dist.support),
            dist.has_rsample]
    if not isinstance(dist, (D(mg).Independent, D(torch).Independent)):
        seen += [dist.cdf(x), dist.icdf(dist.cdf(x))]
    return seen + [repr(dist), dist.expand((5,) + dist.batch_shape).batch_shape]


@pytest.mark.parametrize("name", list(CASES))
def test_transformed_distribution_as_torch(name):
    same(CASES[name])
    close(CASES[name], rtol=1e-5, atol=1e-5)


def test_float64_tanh_normal():
    """The Normal draws are PyTorch's bit for bit; PyTorch's vectorised float64 tanh rounds
    about a fifth of its results one ulp away from minigrad's (NumPy's)."""
    def draws(lib):
        return _tanh_normal(lib, lib.tensor([0.0, 1.0], dtype=lib.float64), 0.5).base_dist.rsample((200,))
    same_bits(draws)

    def program(lib):
        dist = _tanh_normal(lib, lib.tensor([0.0, 1.0], dtype=lib.float64), 0.5)
        a = dist.rsample((200,))
        return a, dist.log_prob(lib.tensor([0.3, -0.5], dtype=lib.float64))
    assert close(program, rtol=5e-16, atol=1e-17) > 0.7


ERRORS = {
    "not a transform": lambda lib: D(lib).TransformedDistribution(D(lib).Normal(0.0, 1.0), [lambda x: x]),
    "not a list": lambda lib: D(lib).TransformedDistribution(D(lib).Normal(0.0, 1.0), (D(lib).ExpTransform(),)),
    "base too small": lambda lib: D(lib).TransformedDistribution(
        D(lib).Normal(0.0, 1.0), [D(lib).AffineTransform(0.0, 1.0, event_dim=1)]),
    "outside the support": lambda lib: _tanh_normal(lib, 0.0, 1.0).log_prob(lib.tensor(2.0)),
    "cache_size 2": lambda lib: D(lib).ExpTransform(cache_size=2),
    "event_dim of a changing transform": lambda lib: D(lib).transforms.ComposeTransform(
        [D(lib).AffineTransform(0.0, 1.0, event_dim=1)]).event_dim,
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    same(ERRORS[name])


def test_vae_step_with_kl_divergence_trained_both_ways():
    """A tiny VAE: encoder to (mu, log_var), z by rsample, decoder, loss = reconstruction
    + kl_divergence(Normal(mu, std), Normal(0, 1)).sum(); Adam steps; losses printed."""
    def program(lib):
        enc, dec = lib.nn.Linear(6, 4), lib.nn.Linear(2, 6)
        opt = lib.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
        x = lib.rand(8, 6)
        lines = []
        for step in range(6):
            h = enc(x)
            mu, log_var = h[:, :2], h[:, 2:]
            std = lib.exp(0.5 * log_var)
            q = D(lib).Normal(mu, std)
            z = q.rsample()
            recon = lib.sigmoid(dec(z))
            kl = D(lib).kl_divergence(q, D(lib).Normal(lib.zeros_like(mu), lib.ones_like(std))).sum()
            loss = lib.nn.functional.binary_cross_entropy(recon, x, reduction="sum") + kl
            opt.zero_grad()
            loss.backward()
            opt.step()
            lines.append(f"step {step}: loss {loss.item():.4f} kl {kl.item():.4f}")
        return "\n".join(lines), dec.bias
    same(program)
    close(program, rtol=1e-5, atol=1e-6)


def test_sac_tanh_squashed_policy_trained_both_ways():
    """SAC's actor: a Normal from the network's mean and log_std, actions by rsample and
    tanh (as a TransformedDistribution, and written out as the tutorials write it, with
    log_prob - log(1 - a^2 + 1e-6)); the actor loss alpha * log_prob - Q; Adam steps."""
    def program(lib):
        net = lib.nn.Sequential(lib.nn.Linear(3, 16), lib.nn.ReLU(), lib.nn.Linear(16, 4))
        q = lib.nn.Linear(5, 1)
        opt = lib.optim.Adam(net.parameters(), lr=3e-3)
        lines = []
        for step in range(5):
            s = lib.randn(8, 3)
            mean, log_std = net(s).chunk(2, dim=-1)
            std = log_std.clamp(-20, 2).exp()
            pi = D(lib).TransformedDistribution(D(lib).Normal(mean, std), [D(lib).TanhTransform(cache_size=1)])
            action = pi.rsample()
            log_prob = pi.log_prob(action).sum(-1, keepdim=True)
            normal = D(lib).Normal(mean, std)
            u = normal.rsample()
            a2 = lib.tanh(u)
            by_hand = (normal.log_prob(u) - lib.log(1 - a2.pow(2) + 1e-6)).sum(-1, keepdim=True)
            loss = (0.2 * log_prob - q(lib.cat([s, action], -1))).mean() + 0.01 * by_hand.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            lines.append(f"step {step}: loss {loss.item():.4f} log_prob {log_prob.mean().item():.4f}")
        return "\n".join(lines), net[2].bias
    same(program)
    close(program, rtol=1e-4, atol=1e-5)
