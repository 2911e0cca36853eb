"""kl_divergence and register_kl against PyTorch 2.13, live: every registered pair's values
(float32 within rounding, float64 bit for bit where the same formula gives the same bits),
the infinities where the supports do not nest, batch broadcasting, gradients (against
torch and finite differences), the dispatch to subclasses, a user's register_kl, PyTorch's
ambiguity warning and its errors."""

from __future__ import annotations

import warnings

import pytest
import torch

import minigrad as mg

from dist_compare import close, same, same_bits


def D(lib):
    return lib.distributions


def maker(lib, dtype):
    """T(values): a tensor of ``dtype`` (the pairs below are built with it)."""
    return lambda values: lib.tensor(values, dtype=getattr(lib, dtype))


def _mvn(lib, T):
    L = T([[1.5, 0.0], [0.3, 0.8]])
    cov = T([[[2.0, 0.3], [0.3, 1.0]], [[1.0, -0.2], [-0.2, 0.5]]])
    return (D(lib).MultivariateNormal(T([1.0, -1.0]), scale_tril=L),
            D(lib).MultivariateNormal(T([[0.0, 0.5], [0.2, 0.1]]), covariance_matrix=cov))


PAIRS = {
    "normal normal": lambda lib, T: (D(lib).Normal(T([0.5, -1.0, 2.0]), T([1.5, 0.3, 2.0])),
                                     D(lib).Normal(T([0.0]), T([1.0]))),
    "normal broadcast": lambda lib, T: (D(lib).Normal(T([[0.5], [1.0]]), T([[1.5], [0.2]])),
                                        D(lib).Normal(T([0.0, 1.0, 2.0]), T([1.0, 0.5, 3.0]))),
    "bernoulli": lambda lib, T: (D(lib).Bernoulli(T([0.0, 0.3, 1.0, 0.5, 0.9])),
                                 D(lib).Bernoulli(T([0.5, 0.0, 0.2, 1.0, 0.1]))),
    "bernoulli logits": lambda lib, T: (D(lib).Bernoulli(logits=T([0.2, -3.0])),
                                        D(lib).Bernoulli(logits=T([1.0, 2.0]))),
    "categorical": lambda lib, T: (D(lib).Categorical(T([[0.2, 0.8, 0.0], [0.1, 0.1, 0.8]])),
                                   D(lib).Categorical(T([[0.3, 0.0, 0.7], [0.3, 0.3, 0.4]]))),
    "categorical logits": lambda lib, T: (D(lib).Categorical(logits=T([1.0, 2.0, 3.0])),
                                          D(lib).Categorical(logits=T([0.0, 0.0, 0.0]))),
    "uniform": lambda lib, T: (D(lib).Uniform(T([0.0, 0.0]), T([1.0, 1.0])),
                               D(lib).Uniform(T([-1.0, 0.5]), T([2.0, 3.0]))),
    "independent": lambda lib, T: (
        D(lib).Independent(D(lib).Normal(T([[0.5, -1.0, 0.2]]), T([[1.5, 0.3, 2.0]])), 1),
        D(lib).Independent(D(lib).Normal(T([[0.0, 0.0, 0.0]]), T([[1.0, 1.0, 1.0]])), 1)),
    "exponential": lambda lib, T: (D(lib).Exponential(T([0.5, 2.0])),
                                   D(lib).Exponential(T([1.0, 3.0]))),
    "laplace": lambda lib, T: (D(lib).Laplace(T([0.0, 1.0]), T([2.0, 0.5])),
                               D(lib).Laplace(T([1.0, 1.0]), T([1.0, 3.0]))),
    "multivariate normal": _mvn,
    "lognormal (transformed)": lambda lib, T: (D(lib).LogNormal(T([0.0, 1.0]), T([1.0, 0.5])),
                                               D(lib).LogNormal(T([0.5, 0.0]), T([2.0, 1.0]))),
    "normal laplace": lambda lib, T: (D(lib).Normal(T([0.0, 1.0]), T([1.0, 0.5])),
                                      D(lib).Laplace(T([0.5, 0.0]), T([2.0, 1.0]))),
    "uniform normal": lambda lib, T: (D(lib).Uniform(T([0.0, -1.0]), T([1.0, 2.0])),
                                      D(lib).Normal(T([0.5, 0.0]), T([2.0, 1.0]))),
}


@pytest.mark.parametrize("name", list(PAIRS))
def test_kl_as_torch(name):
    def program(lib):
        p, q = PAIRS[name](lib, maker(lib, "float32"))
        return D(lib).kl_divergence(p, q)
    same(program)
    close(program, rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", [n for n in PAIRS if n != "multivariate normal"])
def test_kl_float64_bit_for_bit(name):
    same_bits(lambda lib: D(lib).kl_divergence(*PAIRS[name](lib, maker(lib, "float64"))))


def test_kl_multivariate_normal_float64():
    close(lambda lib: D(lib).kl_divergence(*_mvn(lib, maker(lib, "float64"))), rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", ["normal normal", "laplace", "exponential", "multivariate normal",
                                  "independent", "categorical logits", "bernoulli logits",
                                  "normal laplace", "uniform normal"])
def test_kl_gradients_as_torch(name):
    def program(lib):
        leaves = []

        def T(values):
            leaves.append(lib.tensor(values, dtype=lib.float64, requires_grad=True))
            return leaves[-1]
        kl = D(lib).kl_divergence(*PAIRS[name](lib, T))
        kl.sum().backward()
        return [kl] + [leaf.grad for leaf in leaves]
    same(program)
    close(program, rtol=1e-12, atol=1e-13)


def test_kl_gradcheck_normal_and_mvn():
    loc = mg.tensor([0.5, -1.0], dtype=mg.float64, requires_grad=True)
    scale = mg.tensor([1.5, 0.3], dtype=mg.float64, requires_grad=True)
    L = mg.tensor([[1.5, 0.0], [0.3, 0.8]], dtype=mg.float64, requires_grad=True)

    def kl_normal(loc, scale):
        return D(mg).kl_divergence(D(mg).Normal(loc, scale), D(mg).Normal(0.0, 1.0))

    def kl_mvn(loc, L):
        return D(mg).kl_divergence(D(mg).MultivariateNormal(loc, scale_tril=L.tril()),
                                   D(mg).MultivariateNormal(mg.zeros(2, dtype=mg.float64),
                                                            scale_tril=mg.eye(2, dtype=mg.float64)))
    assert mg.autograd.gradcheck(kl_normal, (loc, scale))
    assert mg.autograd.gradcheck(kl_mvn, (loc, L))


def test_register_kl_subclass_dispatch_and_errors():
    def program(lib):
        class MyNormal(D(lib).Normal):
            pass

        class Other(D(lib).Normal):
            pass

        p, q = MyNormal(lib.tensor([0.5]), lib.tensor([2.0])), D(lib).Normal(0.0, 1.0)
        inherited = D(lib).kl_divergence(p, q)  # Normal-Normal serves the subclass

        @D(lib).register_kl(MyNormal, D(lib).Normal)
        def _kl_mine(p, q):
            return lib.zeros(p.batch_shape) + 7.0
        mine = D(lib).kl_divergence(p, q)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")

            @D(lib).register_kl(D(lib).Normal, Other)
            def _kl_other(p, q):
                return lib.ones(1)
            D(lib).kl_divergence(p, Other(0.0, 1.0))
        ambiguity = [(w.category.__name__, str(w.message)) for w in seen]
        # the registry is global: take the two pairs out again
        registry = D(lib).kl._KL_REGISTRY
        del registry[MyNormal, D(lib).Normal], registry[D(lib).Normal, Other]
        D(lib).kl._KL_MEMOIZE.clear()
        return inherited, mine, ambiguity
    same(program)


KL_ERRORS = {
    "no pair": lambda lib: D(lib).kl_divergence(
        D(lib).Categorical(lib.ones(2) / 2), D(lib).Normal(0.0, 1.0)),
    "independent of other ndims": lambda lib: D(lib).kl_divergence(
        D(lib).Independent(D(lib).Normal(lib.zeros(2, 3), 1.0), 1),
        D(lib).Independent(D(lib).Normal(lib.zeros(2, 3), 1.0), 2)),
    "mvn event shapes": lambda lib: D(lib).kl_divergence(
        D(lib).MultivariateNormal(lib.zeros(2), lib.eye(2)),
        D(lib).MultivariateNormal(lib.zeros(3), lib.eye(3))),
    "transforms differ": lambda lib: D(lib).kl_divergence(
        D(lib).TransformedDistribution(D(lib).Normal(0.0, 1.0), [D(lib).ExpTransform()]),
        D(lib).TransformedDistribution(D(lib).Normal(0.0, 1.0), [D(lib).TanhTransform()])),
}


@pytest.mark.parametrize("name", list(KL_ERRORS))
def test_kl_errors_as_torch(name):
    same(KL_ERRORS[name])


def _cross(lib, f):
    def t(*values):
        return lib.tensor(values, dtype=f)
    d = D(lib)
    fams = {
        "Normal": d.Normal(t(0.3, -1.0), t(1.5, 0.7)),
        "Laplace": d.Laplace(t(0.3, -1.0), t(1.5, 0.7)),
        "Gumbel": d.Gumbel(t(0.3, -1.0), t(1.5, 0.7)),
        "Uniform": d.Uniform(t(0.2, 0.1), t(0.6, 0.9)),
        "Exponential": d.Exponential(t(1.5, 0.7)),
        "Gamma": d.Gamma(t(2.0, 0.5), t(1.5, 0.7)),
        "Beta": d.Beta(t(2.0, 0.5), t(1.5, 0.7)),
        "Pareto": d.Pareto(t(0.5, 1.0), t(3.0, 1.5)),
        "Poisson": d.Poisson(t(1.5, 0.7)),
        "Bernoulli": d.Bernoulli(t(0.3, 0.6)),
        "Binomial": d.Binomial(t(3.0, 3.0), t(0.3, 0.6)),
        "HalfNormal": d.HalfNormal(t(1.5, 0.7)),
    }
    return fams


CROSS = [(a, b) for a in _cross(torch, torch.float32) for b in _cross(torch, torch.float32)]


@pytest.mark.parametrize("p_name,q_name", CROSS)
def test_kl_every_pair_of_families_as_torch(p_name, q_name):
    """Every pair of 12 families: PyTorch's value (inf where the supports do not nest),
    or its error (no pair registered; the Bregman divergence's refusal across exponential
    families)."""
    def program(lib):
        fams = _cross(lib, lib.float32)
        return D(lib).kl_divergence(fams[p_name], fams[q_name])
    same(program)
    close(program, rtol=5e-6, atol=1e-6)
    close(lambda lib: D(lib).kl_divergence(_cross(lib, lib.float64)[p_name],
                                           _cross(lib, lib.float64)[q_name]), rtol=1e-14, atol=1e-14)


def test_exponential_family_entropy_by_bregman_divergence():
    """ExponentialFamily.entropy (autograd of the log-normaliser) against PyTorch's, and
    against each family's closed form."""
    def program(lib):
        d = D(lib)
        dists = [d.Normal(lib.tensor([0.3, -1.0]), lib.tensor([1.5, 0.7])),
                 d.Exponential(lib.tensor([1.5, 0.7])), d.Gamma(lib.tensor([2.0, 0.5]), 1.5),
                 d.Bernoulli(lib.tensor([0.3, 0.6]))]
        return [(d.ExponentialFamily.entropy(x), x.entropy()) for x in dists] + [
            isinstance(d.Chi2(2.0), d.ExponentialFamily), isinstance(d.Laplace(0.0, 1.0), d.ExponentialFamily)]
    same(program)
    close(program, rtol=2e-6, atol=1e-6)
    same(lambda lib: D(lib).Poisson(2.0).entropy())
