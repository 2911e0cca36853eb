"""Random programs of three tiers none of the others draws (session 14), run under PyTorch
2.13 and minigrad and compared bit for bit (values, dtypes, printed text, grad_fn names,
error types and texts):

- ``draws``: seeded random numbers. ``manual_seed`` or a ``Generator`` then ``rand``,
  ``randn``, ``randint``, ``randperm``, the ``*_like`` draws, ``normal``'s overloads, the
  in-place distributions (``normal_``, ``uniform_``, ``exponential_``, ``geometric_``,
  ``cauchy_``, ``log_normal_``, ``random_``, ``bernoulli_``), ``bernoulli``, ``multinomial``,
  ``poisson``, dropout in training, ``nn.init``, of every float dtype and of sizes on both
  sides of PyTorch's switch between its scalar and vectorised paths (1, 15, 16, 17, 1000);
  ``get_rng_state``/``set_rng_state``, ``fork_rng``, a shuffling ``DataLoader``,
  ``random_split`` and the samplers.
- ``optim``: every optimiser with its options over a few steps, param groups added mid-run,
  ``zero_grad(set_to_none)``, ``state_dict`` round trips, the lr schedulers (chained,
  ``SequentialLR``, ``OneCycleLR``, ``CosineAnnealingWarmRestarts``, ``ReduceLROnPlateau``,
  ``LambdaLR``) with ``get_last_lr`` after each step, gradient clipping.
- ``late``: what session 13 added: ``histogram``, ``pdist``, ``CTCLoss``, the ``linalg.lu``
  family, ``register_multi_grad_hook``, ``jit.script``/``jit.trace`` of small modules,
  ``Tensor.storage()``.

``one_rng_program(seed, tier)`` draws one to four steps of the tier, each run under both
libraries from the same ``random.Random`` and the same global seed, and returns where they
part (an empty list: nowhere)."""

from __future__ import annotations

import io
import math
import random
import re
import warnings

import numpy as np
import torch

import minigrad

LIBS = (torch, minigrad)
_LAST = None  # (where the last parted program parted: first_difference's answer)
SIZES = [1, 15, 16, 17, 1000, (2, 3), (4, 5), (17, 3), 0]
FLOATS = ["float32", "float32", "float64", "float16"]  # (bfloat16: not in minigrad, the README says)


def _size(r):
    s = r.choice(SIZES)
    return s if isinstance(s, tuple) else (s,)


def _dtype(lib, r, choices=FLOATS):
    return getattr(lib, r.choice(choices))


def _gen(lib, r):
    """A Generator seeded from r (or None: the global one, seeded here)."""
    seed = r.choice([0, 1, 42, 1234, 2**31 + 5, 2**40 + 7, r.randrange(10**6)])
    if r.random() < 0.4:
        return lib.Generator().manual_seed(seed)
    lib.manual_seed(seed)
    return None


def _kw(g):
    return {} if g is None else {"generator": g}


# ---- tier 1: draws ---------------------------------------------------------------------

def _basic(lib, r):
    g = _gen(lib, r)
    kind = r.choice(["rand", "randn", "randint", "randperm", "rand2", "randn2"])
    size = _size(r)
    if kind in ("rand", "randn"):
        return getattr(lib, kind)(*size, dtype=_dtype(lib, r), **_kw(g))
    if kind in ("rand2", "randn2"):  # several draws one after the other
        f = getattr(lib, kind[:-1])
        return [f(size, **_kw(g)) for _ in range(3)]
    if kind == "randint":
        low = r.choice([0, -5, 3])
        high = low + r.choice([1, 2, 7, 10, 256, 2**31, 2**33])
        dtype = r.choice([None, lib.int32, lib.int8, lib.uint8, lib.float32, lib.float64, lib.int16])
        return lib.randint(low, high, size, dtype=dtype, **_kw(g))
    n = r.choice([0, 1, 2, 5, 16, 17, 100, 1000])
    dtype = r.choice([None, lib.int32, lib.float32, lib.float64, lib.int16, lib.uint8])
    return lib.randperm(n, dtype=dtype, **_kw(g))


def _like(lib, r):
    g = _gen(lib, r)
    base = lib.zeros(_size(r), dtype=_dtype(lib, r, ["float32", "float64", "float16"]))
    kind = r.choice(["rand_like", "randn_like", "randint_like", "randint_like2", "empty_like"])
    if kind == "empty_like":
        return lib.rand_like(base).shape
    if kind == "randint_like":
        return lib.randint_like(base, r.choice([1, 5, 100]))
    if kind == "randint_like2":
        return lib.randint_like(base, -3, r.choice([4, 50]))
    return getattr(lib, kind)(base)


def _normal(lib, r):
    g = _gen(lib, r)
    size = _size(r)
    kind = r.randrange(6)
    mean_t = lib.linspace(-1, 1, int(np.prod(size))).reshape(size)
    std_t = lib.linspace(0.1, 2, int(np.prod(size))).reshape(size)
    if kind == 0:
        return lib.normal(mean_t, std_t, **_kw(g))
    if kind == 1:
        return lib.normal(0.5, std_t, **_kw(g))
    if kind == 2:
        return lib.normal(mean_t, 2.0, **_kw(g))
    if kind == 3:
        return lib.normal(1.0, 3.0, size, **_kw(g))
    if kind == 4:
        return lib.normal(mean_t.double(), std_t.double(), **_kw(g))
    return lib.normal(2.0, 0.5, size=size, dtype=_dtype(lib, r, ["float32", "float64"]), **_kw(g))


def _inplace(lib, r):
    g = _gen(lib, r)
    x = lib.empty(_size(r), dtype=_dtype(lib, r, ["float32", "float64", "float16", "float32"]))
    kind = r.choice(["normal_", "uniform_", "exponential_", "geometric_", "cauchy_",
                     "log_normal_", "random_", "random_to", "random_from", "bernoulli_",
                     "bernoulli_t", "zero_then"])
    if kind == "normal_":
        return x.normal_(r.choice([0.0, 2.0]), r.choice([1.0, 0.5]), **_kw(g))
    if kind == "uniform_":
        return x.uniform_(r.choice([0.0, -2.0]), r.choice([1.0, 3.0]), **_kw(g))
    if kind == "exponential_":
        return x.exponential_(r.choice([1.0, 2.5]), **_kw(g))
    if kind == "geometric_":
        return x.geometric_(r.choice([0.3, 0.9]), **_kw(g))
    if kind == "cauchy_":
        return x.cauchy_(r.choice([0.0, 1.0]), r.choice([1.0, 0.5]), **_kw(g))
    if kind == "log_normal_":
        return x.log_normal_(r.choice([1.0, 0.0]), r.choice([2.0, 0.5]), **_kw(g))
    if kind == "random_":
        return x.random_(**_kw(g))
    if kind == "random_to":
        return x.random_(r.choice([3, 10, 1000]), **_kw(g))
    if kind == "random_from":
        return x.random_(-4, r.choice([3, 10]), **_kw(g))
    if kind == "bernoulli_":
        return x.bernoulli_(r.choice([0.0, 0.3, 0.5, 1.0]), **_kw(g))
    if kind == "bernoulli_t":
        return x.bernoulli_(lib.full(x.shape, 0.4, dtype=x.dtype), **_kw(g))
    i = lib.zeros(_size(r), dtype=r.choice([lib.int64, lib.int32, lib.uint8]))
    return i.random_(**_kw(g)), i.random_(0, 7, **_kw(g))


def _sampling(lib, r):
    g = _gen(lib, r)
    kind = r.randrange(7)
    size = _size(r)
    n = int(np.prod(size))
    if kind == 0:
        p = lib.linspace(0, 1, n).reshape(size)
        return lib.bernoulli(p, **_kw(g))
    if kind == 1:
        p = lib.rand(size, **_kw(g)).to(_dtype(lib, r, ["float32", "float64"]))
        return lib.bernoulli(p, r.choice([0.2, 0.7]), **_kw(g))
    if kind == 2:
        rows = r.choice([1, 3])
        cats = r.choice([2, 5, 16, 40])
        w = (lib.arange(rows * cats, dtype=lib.float32).reshape(rows, cats) % 7) + r.choice([0.0, 0.5])
        w = w[0] if rows == 1 and r.random() < 0.5 else w
        replace = r.random() < 0.5
        k = r.choice([1, 2, cats // 2, cats * 2 if replace else cats])
        return lib.multinomial(w, k, replacement=replace, **_kw(g))
    if kind == 3:
        rate = lib.linspace(0, r.choice([3, 30, 300]), n).reshape(size)
        return lib.poisson(rate.to(_dtype(lib, r, ["float32", "float64"])), **_kw(g))
    if kind == 4:
        return lib.multinomial(lib.tensor([0.1, 0.0, 0.6, 0.3]), r.choice([1, 2, 3]), **_kw(g))
    if kind == 5:
        x = lib.rand(size, **_kw(g))
        return x, lib.rand(size, **_kw(g)) > 0.5
    return lib.randn(size, **_kw(g)).argsort(), lib.randint(10, size, **_kw(g))


def _dropout(lib, r):
    lib.manual_seed(r.randrange(10**6))
    F = lib.nn.functional
    size = _size(r)
    x = (lib.arange(1, 1 + int(np.prod(size)), dtype=lib.float32) / 7).reshape(size).requires_grad_()
    x = x.to(_dtype(lib, r, ["float32", "float32", "float64", "float16"])) if r.random() < 0.5 else x
    p = r.choice([0.0, 0.1, 0.5, 0.9, 1.0])
    kind = r.randrange(6)
    if kind == 0:
        y = F.dropout(x, p, training=True)
    elif kind == 1:
        y = lib.nn.Dropout(p)(x)
    elif kind == 2:
        y = F.alpha_dropout(x, p, training=True)
    elif kind == 3:
        y = lib.nn.AlphaDropout(p)(x)
    elif kind == 4:
        x4 = x.reshape(1, -1, 1, 1) if x.numel() else x.reshape(1, 0, 1, 1)
        y = F.dropout2d(x4, p, training=True)
    else:
        y = F.feature_alpha_dropout(x.reshape(1, -1, 1), p, training=True)
    y.sum().backward() if y.requires_grad and y.dtype != lib.float16 else None
    return y, x.grad


def _init(lib, r):
    g = _gen(lib, r)
    init = lib.nn.init
    shape = r.choice([(3, 4), (5, 2), (4, 3, 2), (2, 3, 2, 2), (16, 17), (1, 1)])
    w = lib.empty(shape)
    kind = r.choice(["kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_",
                     "trunc_normal_", "orthogonal_", "uniform_", "normal_", "sparse_",
                     "kaiming_fan_out"])
    if kind == "kaiming_uniform_":
        return init.kaiming_uniform_(w, a=r.choice([0, math.sqrt(5)]), nonlinearity=r.choice(["leaky_relu", "relu"]), **_kw(g))
    if kind == "kaiming_normal_":
        return init.kaiming_normal_(w, **_kw(g))
    if kind == "kaiming_fan_out":
        return init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu", **_kw(g))
    if kind == "xavier_uniform_":
        return init.xavier_uniform_(w, gain=r.choice([1.0, init.calculate_gain("tanh")]), **_kw(g))
    if kind == "xavier_normal_":
        return init.xavier_normal_(w, **_kw(g))
    if kind == "trunc_normal_":
        return init.trunc_normal_(w, std=r.choice([1.0, 0.02]), a=-2.0, b=r.choice([2.0, 0.5]), **_kw(g))
    if kind == "orthogonal_":  # (QR by another LAPACK: equal to float rounding, the README says)
        return Close(init.orthogonal_(w, gain=r.choice([1.0, 2.0]), **_kw(g)))
    if kind == "uniform_":
        return init.uniform_(w, -0.5, 0.5, **_kw(g))
    if kind == "normal_":
        return init.normal_(w, 0.0, 0.02, **_kw(g))
    return init.sparse_(lib.empty(shape[:1] + (int(np.prod(shape[1:])),)), 0.5, **_kw(g))


def _state(lib, r):
    lib.manual_seed(r.randrange(10**6))
    kind = r.randrange(5)
    if kind == 0:
        state = lib.get_rng_state()
        a = lib.randn(_size(r))
        lib.set_rng_state(state)
        return a, lib.randn(a.shape), state.dtype, state.shape
    if kind == 1:
        with lib.random.fork_rng():
            lib.manual_seed(7)
            a = lib.rand(5)
        return a, lib.rand(5)
    if kind == 2:
        g = lib.Generator().manual_seed(r.randrange(100))
        s = g.get_state()
        a = lib.randn(4, generator=g)
        g2 = lib.Generator()
        g2.set_state(s)
        return a, lib.randn(4, generator=g2), g.initial_seed(), lib.initial_seed()
    if kind == 3:
        lib.seed()  # (a seed from the clock: only its type is comparable)
        kind = type(lib.initial_seed()).__name__
        lib.manual_seed(r.randrange(100))
        return kind
    g = lib.Generator()
    g.manual_seed(5)
    x = lib.rand(3, generator=g)
    return x, lib.randint(0, 10, (3,), generator=g.manual_seed(5)), lib.default_generator.initial_seed()


def _data(lib, r):
    D = lib.utils.data
    n = r.choice([5, 10, 17])
    data = D.TensorDataset(lib.arange(n), lib.arange(n) * 10)
    g = None if r.random() < 0.5 else lib.Generator().manual_seed(r.randrange(100))
    lib.manual_seed(r.randrange(10**6))
    kind = r.randrange(6)
    if kind == 0:
        loader = D.DataLoader(data, batch_size=r.choice([1, 3, 4]), shuffle=True, generator=g,
                              drop_last=r.random() < 0.3)
        return [b for epoch in range(2) for b in loader]
    if kind == 1:
        lengths = r.choice([[n - 2, 2], [0.5, 0.5], [0.7, 0.2, 0.1]])
        parts = D.random_split(data, lengths, **({} if g is None else {"generator": g}))
        return [list(p.indices) for p in parts]
    if kind == 2:
        s = D.RandomSampler(data, replacement=r.random() < 0.5,
                            num_samples=r.choice([None, 3, 2 * n]), generator=g)
        return list(s), list(s)
    if kind == 3:
        return list(D.SubsetRandomSampler([0, 2, 4, 3], generator=g))
    if kind == 4:
        s = D.WeightedRandomSampler([0.1, 0.9, 0.4, 0.0, 2.0], r.choice([3, 10]),
                                    replacement=r.random() < 0.7, generator=g)
        return list(s)
    return list(D.BatchSampler(D.RandomSampler(data, generator=g), r.choice([2, 3]), r.random() < 0.5))


def _more(lib, r):
    """Draws through other doors: distributions, gumbel_softmax, rrelu in training, random_
    of small dtypes, normal with out=, a Generator's seed()."""
    g = _gen(lib, r)
    kind = r.randrange(9)
    D = lib.distributions
    if kind == 0:
        d = r.choice([lambda: D.Normal(lib.tensor([0.0, 1.0]), lib.tensor([1.0, 0.5])),
                      lambda: D.Uniform(lib.tensor([0.0]), lib.tensor([2.0])),
                      lambda: D.Bernoulli(probs=lib.tensor([0.3, 0.9])),
                      lambda: D.Categorical(probs=lib.tensor([0.1, 0.2, 0.7])),
                      lambda: D.Exponential(lib.tensor([1.5])),
                      lambda: D.Gamma(lib.tensor([2.0]), lib.tensor([1.0])),
                      lambda: D.Beta(lib.tensor([2.0]), lib.tensor([3.0])),
                      lambda: D.Poisson(lib.tensor([4.0]))])()
        return d.sample((r.choice([1, 5, 17]),))
    if kind == 1:
        x = lib.tensor(_np(r, (3, 5)), requires_grad=True)
        hard = r.random() < 0.5
        y = lib.nn.functional.gumbel_softmax(x, tau=r.choice([1.0, 0.5]), hard=hard)
        (y * lib.arange(5.0)).sum().backward()  # (float32 log and softmax: an ulp, the README says)
        return (y if hard else Close(y)), Close(x.grad), type(y.grad_fn).__name__, lib.rand(2)
    if kind == 2:
        x = lib.tensor(_np(r, (4, 6)), requires_grad=True)
        y = lib.nn.functional.rrelu(x, training=True)
        (y * y).sum().backward()
        return y, x.grad
    if kind == 3:
        dtype = r.choice([lib.float16, lib.int8, lib.uint8, lib.bool, lib.int16, lib.int32, lib.float64])
        return lib.zeros(_size(r), dtype=dtype).random_(**_kw(g))
    if kind == 4:
        out = lib.empty(_size(r))
        lib.normal(1.0, 2.0, out.shape, out=out, **_kw(g))
        return out
    if kind == 5:
        return lib.rand(_size(r), dtype=lib.float16, **_kw(g)), lib.randn(17, dtype=lib.float16, **_kw(g))
    if kind == 6:
        x = lib.tensor(_np(r, (5,))).requires_grad_()
        d = D.Normal(x, lib.ones(5))
        y = d.rsample((2,))
        y.sum().backward()
        return y, x.grad, d.log_prob(y.detach())
    if kind == 7:
        p = lib.tensor([0.1, 0.5, 0.9]).expand(4, 3)
        return lib.bernoulli(p, **_kw(g)), lib.empty(4, 3).bernoulli_(p.t().contiguous().t(), **_kw(g))
    return lib.randn(1000, **_kw(g))[::97], lib.rand(1000, dtype=lib.float64, **_kw(g))[-3:]


def draws_ops():
    return [_basic, _basic, _like, _normal, _inplace, _inplace, _sampling, _dropout, _init,
            _state, _data, _more, _more]


# ---- tier 2: optimisers ---------------------------------------------------------------

OPTIMS = [
    ("SGD", {"lr": 0.1}), ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.5, "maximize": True}),
    ("SGD", {"lr": 0.1, "momentum": 0.8, "foreach": True}),
    ("SGD", {"lr": 0.1, "momentum": 0.8, "foreach": False, "weight_decay": 0.01}),
    ("Adam", {}), ("Adam", {"lr": 0.01, "betas": (0.8, 0.9), "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "maximize": True, "foreach": False}), ("Adam", {"lr": 0.01, "eps": 1e-3}),
    ("AdamW", {"lr": 0.01}), ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.5}),
    ("RMSprop", {"lr": 0.01}), ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.9, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "maximize": True}),
    ("Adagrad", {"lr": 0.1}), ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1, "initial_accumulator_value": 0.5}),
    ("Adadelta", {}), ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1}),
    ("Adamax", {}), ("Adamax", {"lr": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {}), ("NAdam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1, "momentum_decay": 0.01}),
    ("RAdam", {}), ("RAdam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1}),
    ("ASGD", {}), ("ASGD", {"lr": 0.05, "t0": 1, "lambd": 0.01, "weight_decay": 0.1}),
    ("Rprop", {}), ("Rprop", {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 1)}),
    ("LBFGS", {"lr": 0.5, "history_size": 3, "max_iter": 4}),
    ("LBFGS", {"lr": 1, "line_search_fn": "strong_wolfe", "max_iter": 5}),
]


def _params(lib, r):
    a = lib.tensor(_np(r, (3, 2)), requires_grad=True)
    b = lib.tensor(_np(r, (2,)), requires_grad=True)
    return a, b


def _np(r, shape):
    return np.random.default_rng(r.randrange(2**31)).standard_normal(shape).astype(np.float32)


def _loss(lib, a, b):
    """A loss whose gradients are exact in float32 (elementwise products and squares),
    so that what parts the libraries is the optimiser's arithmetic alone."""
    c = lib.tensor([[1.0, -2.0], [0.5, 0.3], [0.7, -1.0]])
    return (a * c).sum() + ((b - 0.25) ** 2).sum() + (a * a).sum() * 0.5


def _optimiser(lib, r):
    a, b = _params(lib, r)
    name, options = r.choice(OPTIMS)
    opt = getattr(lib.optim, name)([a, b] if r.random() < 0.5 else [{"params": [a]}, {"params": [b], "lr": 0.02}],
                                   **options)
    set_to_none = r.random() < 0.5
    out = []
    for step in range(r.choice([1, 3, 5])):
        def closure():
            opt.zero_grad(set_to_none=set_to_none)
            loss = _loss(lib, a, b)
            loss.backward()
            return loss
        loss = opt.step(closure)
        out.append((loss.detach() if hasattr(loss, "detach") else loss, a.detach().clone(), b.detach().clone()))
    out.append(_opt_state(opt))
    return out


def _opt_state(opt):
    state = opt.state_dict()
    flat = []
    for key in sorted(state["state"]):
        for name, value in sorted(state["state"][key].items()):
            flat.append((key, name, value))
    groups = [sorted((k, v) for k, v in group.items()) for group in state["param_groups"]]
    return flat, groups


def _groups(lib, r):
    a, b = _params(lib, r)
    name, options = r.choice([o for o in OPTIMS if o[0] != "LBFGS"])
    opt = getattr(lib.optim, name)([a], **options)
    out = []
    for step in range(4):
        if step == 2:
            opt.add_param_group({"params": [b], "lr": 0.03} if r.random() < 0.5 else {"params": b})
        opt.zero_grad(set_to_none=r.random() < 0.5)
        _loss(lib, a, b).backward()
        opt.step()
        out.append((a.detach().clone(), b.detach().clone(), None if b.grad is None else b.grad.clone()))
    state = opt.state_dict()
    text = repr(sorted((k, sorted(v)) for k, v in state["state"].items()))
    opt2 = getattr(lib.optim, name)([a, b], **options)
    try:
        opt2.load_state_dict(state)
        loaded = _opt_state(opt2)
    except Exception as e:
        loaded = (type(e).__name__, str(e))
    return out, text, _opt_state(opt), loaded, repr(opt).replace("minigrad", "torch")


def _round_trip(lib, r):
    a, b = _params(lib, r)
    name, options = r.choice([o for o in OPTIMS if o[0] != "LBFGS"])
    opt = getattr(lib.optim, name)([a, b], **options)
    for _ in range(2):
        opt.zero_grad()
        _loss(lib, a, b).backward()
        opt.step()
    buffer = io.BytesIO()
    lib.save(opt.state_dict(), buffer)
    buffer.seek(0)
    state = lib.load(buffer)
    a2, b2 = a.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
    opt2 = getattr(lib.optim, name)([a2, b2], lr=0.5)
    opt2.load_state_dict(state)
    for o, x, y in ((opt, a, b), (opt2, a2, b2)):
        o.zero_grad()
        _loss(lib, x, y).backward()
        o.step()
    return a, a2, b, b2, _opt_state(opt2), str(opt.state_dict()["param_groups"])


def _scheduler(lib, r):
    w = lib.nn.Parameter(lib.tensor(_np(r, (2,))))
    opt = lib.optim.SGD([w], lr=0.1, momentum=0.9) if r.random() < 0.6 else lib.optim.Adam([w], lr=0.1)
    S = lib.optim.lr_scheduler
    kind = r.randrange(13)
    makers = [
        lambda: S.StepLR(opt, 2, gamma=0.5),
        lambda: S.MultiStepLR(opt, [1, 3], 0.1),
        lambda: S.ExponentialLR(opt, 0.9),
        lambda: S.CosineAnnealingLR(opt, 4, eta_min=0.01),
        lambda: S.OneCycleLR(opt, 1.0, total_steps=8, anneal_strategy=r.choice(["cos", "linear"]),
                             three_phase=r.random() < 0.5),
        lambda: S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=r.choice([1, 2]), eta_min=0.001),
        lambda: S.LambdaLR(opt, lambda epoch: 0.9 ** epoch),
        lambda: S.MultiplicativeLR(opt, lambda epoch: 0.95),
        lambda: S.LinearLR(opt, start_factor=0.25, total_iters=3),
        lambda: S.ConstantLR(opt, factor=0.5, total_iters=2),
        lambda: S.PolynomialLR(opt, total_iters=4, power=2.0),
        lambda: S.SequentialLR(opt, [S.LinearLR(opt, 0.1, total_iters=2), S.ExponentialLR(opt, 0.9)],
                               milestones=[2]),
        lambda: S.ChainedScheduler([S.ConstantLR(opt, 0.5, total_iters=3), S.ExponentialLR(opt, 0.8)]),
    ]
    plateau = r.random() < 0.15
    sched = S.ReduceLROnPlateau(opt, patience=1, factor=0.5, threshold=r.choice([1e-4, 0.5])) if plateau \
        else makers[kind]()
    if not plateau and r.random() < 0.3:
        sched.cyclic = S.CyclicLR(opt, 0.01, 0.1, step_size_up=2, mode=r.choice(["triangular", "triangular2", "exp_range"]),
                                  cycle_momentum=isinstance(opt, lib.optim.SGD))
        sched = sched.cyclic
    rates = []
    for step in range(7):
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        opt.step()
        if plateau:
            sched.step(r.choice([1.0, 2.0, 0.5]))
            rates.append([g["lr"] for g in opt.param_groups])
        else:
            sched.step()
            rates.append(sched.get_last_lr())
    return rates, w.detach(), sorted(sched.state_dict().keys()), [sorted(g) for g in opt.param_groups]


def _clip(lib, r):
    a, b = _params(lib, r)
    _loss(lib, a, b).backward()
    kind = r.randrange(4)
    if kind == 0:
        n = lib.nn.utils.clip_grad_norm_([a, b], r.choice([0.1, 1.0, 100.0]),
                                         norm_type=r.choice([2.0, 1.0, float("inf"), 3.0]))
        return n, a.grad, b.grad
    if kind == 1:
        lib.nn.utils.clip_grad_value_([a, b], r.choice([0.01, 0.5]))
        return a.grad, b.grad
    if kind == 2:
        return lib.nn.utils.get_total_norm([a.grad, b.grad]), lib.nn.utils.clip_grad_norm_(a, 0.5, foreach=r.random() < 0.5)
    return lib.nn.utils.parameters_to_vector([a, b]), lib.nn.utils.clip_grad_norm_([a, b], 0.0)


def optim_ops():
    return [_optimiser, _optimiser, _optimiser, _groups, _round_trip, _scheduler, _scheduler, _clip]


# ---- tier 3: what session 13 added -----------------------------------------------------

def _histogram(lib, r):
    x = lib.tensor(_np(r, (r.choice([5, 17, 40]),))).to(_dtype(lib, r, ["float32", "float64"]))
    kind = r.randrange(4)
    if kind == 0:
        return lib.histogram(x, r.choice([1, 3, 10]))
    if kind == 1:
        return lib.histogram(x, bins=4, range=(-1.0, 1.0), density=r.random() < 0.5)
    if kind == 2:
        return lib.histogram(x, lib.tensor([-2.0, -0.5, 0.0, 0.3, 2.0], dtype=x.dtype),
                             weight=x.abs(), density=r.random() < 0.5)
    return x.histogram(5), lib.histc(x, 5)


def _pdist(lib, r):
    x = lib.tensor(_np(r, (r.choice([1, 2, 4, 7]), r.choice([1, 3, 16, 17])))).to(
        _dtype(lib, r, ["float32", "float64"])).requires_grad_()
    p = r.choice([0.0, 1.0, 2.0, 3.0, float("inf"), 0.5])
    y = lib.nn.functional.pdist(x, p) if r.random() < 0.5 else lib.pdist(x, p)
    if y.numel():
        y.sum().backward()
    if p not in (0.0, 1.0, 2.0, float("inf")):  # (torch's vectorised pow: the README's figure)
        return Close(y), Close(x.grad, 1e-5), type(y.grad_fn).__name__
    return y, x.grad


def _ctc(lib, r):
    T, N, C = r.choice([5, 8]), r.choice([1, 2]), r.choice([3, 5])
    z = _np(r, (T, N, C)).astype(np.float64)  # (log-probabilities made by NumPy: the same bits)
    x = lib.tensor(z - np.log(np.exp(z).sum(2, keepdims=True))).to(
        _dtype(lib, r, ["float32", "float64"])).requires_grad_()
    S = r.choice([1, 2, 3])
    targets = lib.tensor(np.random.default_rng(r.randrange(99)).integers(1, C, (N, S)))
    in_len = lib.full((N,), T, dtype=lib.long)
    tgt_len = lib.tensor([r.choice(range(1, S + 1)) for _ in range(N)])
    if r.random() < 0.3:
        targets = targets.reshape(-1)[:int(tgt_len.sum())]
    reduction = r.choice(["mean", "sum", "none"])
    loss = lib.nn.CTCLoss(reduction=reduction, zero_infinity=r.random() < 0.5)(x, targets, in_len, tgt_len)
    loss.sum().backward()
    return loss, x.grad


def _lu(lib, r):
    """(MKL's LAPACK against NumPy's: equal to float rounding, the README's figures.)"""
    return [Close(v) if isinstance(v, lib.Tensor) and v.dtype.is_floating_point else v
            for v in _lu_values(lib, r)]


def _lu_values(lib, r):
    n = r.choice([1, 2, 3, 4])
    m = r.choice([n, n + 1, n - 1 if n > 1 else n])
    A = lib.tensor(_np(r, (m, n))).to(_dtype(lib, r, ["float32", "float64"])).requires_grad_()
    kind = r.randrange(5)
    if kind == 0:
        P, L, U = lib.linalg.lu(A)
        (L.sum() + U.sum()).backward()
        return P, L, U, A.grad
    if kind == 1:
        LU, piv = lib.linalg.lu_factor(A)
        return LU, piv
    if kind == 2:
        sq = A[:min(m, n), :min(m, n)]
        LU, piv = lib.linalg.lu_factor(sq)
        b = lib.tensor(_np(r, (sq.shape[0], 2))).to(A.dtype)
        x = lib.linalg.lu_solve(LU, piv, b)
        x.sum().backward()
        return x, A.grad
    if kind == 3:
        LU, piv = lib.linalg.lu_factor(A.detach())
        return lib.lu_unpack(LU, piv)
    out = lib.linalg.lu_factor_ex(A)
    return out


def _multi_hook(lib, r):
    a = lib.tensor(_np(r, (3,)), requires_grad=True)
    b = lib.tensor(_np(r, (3,)), requires_grad=True)
    seen = []
    mode = r.choice(["all", "any"])

    def hook(grads):
        seen.append(grads if mode == "any" else [None if g is None else g.clone() for g in grads])

    handle = lib.autograd.graph.register_multi_grad_hook((a, b), hook, mode=mode)
    y = (a * 2).sum() if r.random() < 0.4 else (a * b).sum()
    y.backward()
    handle.remove() if r.random() < 0.5 else None
    (a * b).sum().backward()
    return [type(s).__name__ if mode == "any" else s for s in seen], a.grad, b.grad


def _jit(lib, r):
    lib.manual_seed(r.randrange(1000))

    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = lib.nn.Linear(3, 2)

        def forward(self, x):
            return lib.relu(self.fc(x)) * 2

    net = Net()
    x = lib.tensor(_np(r, (4, 3)))
    kind = r.randrange(3)
    # (compared to 1e-6: a Linear's float32 product is BLAS's, float32 sin NumPy's; and
    # not the grad_fn: PyTorch's replayed trace records x * 2 as MulBackward1, the
    # jit module's docstring says)
    if kind == 0:
        traced = lib.jit.trace(net, x)
        return Close(traced(x)), Close(traced(x + 1)), type(traced).__name__
    if kind == 1:
        scripted = lib.jit.script(net)
        y = scripted(x)
        y.sum().backward()
        return Close(y), Close(net.fc.weight.grad), type(scripted).__name__

    def f(x):
        return x.sin() + 1
    return Close(lib.jit.trace(f, x)(x)), Close(lib.jit.script(f)(x))


def _storage(lib, r):
    x = lib.arange(6, dtype=_dtype(lib, r, ["float32", "float64", "int64", "int32", "float16"])).reshape(2, 3)
    v = x.t() if r.random() < 0.5 else x[1]
    s = v.storage()
    kind = r.randrange(3)
    if kind == 0:
        return str(s), len(s), s.dtype, s.size(), v.storage_offset()
    if kind == 1:
        s[0] = 7
        return x, s.tolist(), repr(s)
    return s.data_ptr() == x.storage().data_ptr(), s.nbytes(), s.element_size(), type(s).__name__


def late_ops():
    return [_histogram, _pdist, _ctc, _lu, _multi_hook, _jit, _storage]


TIERS = {"draws": draws_ops, "optim": optim_ops, "late": late_ops}


# ---- running and comparing ---------------------------------------------------------------

class Close:
    """A result PyTorch's library computes otherwise (MKL's LAPACK): compared to 1e-6
    (or ``tol``)."""

    def __init__(self, tensor, tol=1e-6):
        self.tensor, self.tol = tensor, tol


def _describe(lib, v):
    if isinstance(v, Close):
        return ("close", np.zeros(0) if v.tensor is None else v.tensor.detach().double().numpy().copy(),
                v.tensor is None, v.tol)
    if isinstance(v, dict):
        return ("dict", [(_describe(lib, k), _describe(lib, x)) for k, x in v.items()])
    if isinstance(v, (tuple, list)) and not isinstance(v, lib.Size):
        return ("seq", type(v).__name__ if "return_types" not in type(v).__module__ else type(v).__name__,
                [_describe(lib, x) for x in v])
    if isinstance(v, lib.Tensor):
        gf = type(v.grad_fn).__name__ if v.grad_fn is not None else None
        bf = v.dtype == lib.bfloat16
        arr = (v.detach().float() if bf else v.detach()).numpy().copy()
        text = re.sub(r"0x[0-9a-f]+", "0x", repr(v).replace("minigrad", "torch"))
        return ("T", str(v.dtype).split(".")[-1], tuple(v.shape), gf, v.requires_grad, arr, text)
    if isinstance(v, lib.Size):
        return ("Size", tuple(v))
    if isinstance(v, lib.dtype):
        return ("dtype", str(v).split(".")[-1])
    if isinstance(v, str):
        return ("str", v.replace("minigrad", "torch"))
    if isinstance(v, float) and v != v:
        return ("nan",)
    return ("py", type(v).__name__, v)


def _same(a, b, loose=False):
    """Equal descriptions: arrays bit for bit; ``loose`` (the optim tier), float arrays
    within 1e-5 and printed numbers within a digit (torch's float32 ``sqrt`` is MKL's,
    which rounds about 16 % of values otherwise than the correctly rounded one)."""
    if type(a) != type(b):
        return False
    if isinstance(a, tuple) and a and a[0] == "close":
        return a[1].shape == b[1].shape and a[2:] == b[2:] and np.allclose(a[1], b[1], rtol=a[3], atol=a[3])
    if isinstance(a, np.ndarray):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if loose and a.dtype.kind == "f":
            return np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True)
        return np.array_equal(a, b, equal_nan=True) if a.dtype.kind == "f" else (a == b).all()
    if loose and isinstance(a, float):
        return a == b or abs(a - b) <= 1e-5 * (1 + abs(a))
    if loose and isinstance(a, str) and a != b:
        return _same_text(a, b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y, loose) for x, y in zip(a, b))
    return a == b


_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?")


def _same_text(a: str, b: str) -> bool:
    """Printed the same but for numbers a digit apart in their last place."""
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
        return False
    for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b)):
        mantissa, _, exponent = x.partition("e")
        unit = 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
        if abs(float(x) - float(y)) > max(1.5 * unit, 1e-6):
            return False
    return True


def one_rng_program(seed: int, tier: str = "draws", exact: bool = False) -> list:
    """Where PyTorch and minigrad part on program ``seed`` of ``tier`` (empty: nowhere)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ops = TIERS[tier]()
        r0 = random.Random(seed)
        steps = [(r0.choice(ops), r0.randrange(10**9)) for _ in range(r0.randint(1, 4))]
        logs = []
        for lib in LIBS:
            lib.manual_seed(seed)
            log = []
            for op, s in steps:
                try:
                    v, err = op(lib, random.Random(s)), None
                except Exception as e:
                    v, err = None, (type(e).__name__, str(e).split("\n")[0].replace("minigrad", "torch"))
                log.append((op.__name__, s, err, None if err else _describe(lib, v)))
            log.append(("after", 0, None, _describe(lib, lib.rand(3))))  # (the global state after)
            logs.append(log)
        for (name, s, et, vt), (_, _, em, vm) in zip(*logs):
            if et != em:
                return [("error", name, s, et, em)]
            if et is None and not _same(vt, vm, loose=tier == "optim" and not exact):
                global _LAST
                _LAST = first_difference(vt, vm, loose=tier == "optim" and not exact)
                return [("value", name, s, _short(vt), _short(vm))]
        return []


def _short(v):
    text = repr(v)
    return text if len(text) < 600 else text[:600] + "..."


def first_difference(a, b, path=(), loose=False):
    """The path to the first place two described values part, with both there (for reading
    a parted program)."""
    if type(a) != type(b) or not isinstance(a, (tuple, list)) or len(a) != len(b) or \
            (a and a[0] in ("T", "close")):
        return None if _same(a, b, loose) else (path, a, b)
    for i, (x, y) in enumerate(zip(a, b)):
        found = first_difference(x, y, path + (i,), loose)
        if found:
            return found
    return None
