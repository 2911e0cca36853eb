"""BatchNorm1d, the extra activations and losses, forward hooks, Unflatten and the
learning-rate schedulers, each against torch: values, nodes, gradients, reprs,
state_dict keys and error texts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg
from tests.core.support.torch_compare import check, check_error, check_numerical, rand


@pytest.fixture(autouse=True)
def same_threads():
    """BatchNorm's (N, C) statistics are added up per thread: minigrad's kernel cuts the
    rows as torch does for the same thread count (the suite runs torch on one)."""
    before = mg.get_num_threads()
    mg.set_num_threads(torch.get_num_threads())
    yield
    mg.set_num_threads(before)


def _bits(a, b) -> float:
    """The share of elements with the same bits."""
    return float((np.asarray(a.detach().numpy()) == np.asarray(b.detach().numpy())).mean())


# ---- BatchNorm1d ------------------------------------------------------------------

def _run_batchnorm(lib, shape, train, steps=3, **options):
    lib.manual_seed(0)
    kind = {4: lib.nn.BatchNorm2d, 5: lib.nn.BatchNorm3d}.get(len(shape), lib.nn.BatchNorm1d)
    bn = kind(shape[1], **options)
    bn.train(train)
    rng = np.random.default_rng(1)
    records = []
    for _ in range(steps):
        x = lib.tensor((rng.standard_normal(shape) * 2 + 1).astype(np.float32),
                       requires_grad=True)
        y = bn(x)
        (y * lib.tensor(rng.standard_normal(shape).astype(np.float32))).sum().backward()
        records.append((y, x.grad, type(y.grad_fn).__name__))
    return bn, records


@pytest.mark.parametrize("shape", [(32, 10), (8, 4, 5), (64, 200), (3, 7), (6, 5, 1),
                                   (8, 3, 21), (4, 3, 5, 6), (2, 3, 2, 3, 4)])
@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("options", [{}, {"momentum": None}, {"affine": False},
                                     {"track_running_stats": False}, {"bias": False}])
def test_batchnorm1d_matches_torch(shape, train, options):
    ours, ours_steps = _run_batchnorm(mg, shape, train, **options)
    theirs, theirs_steps = _run_batchnorm(torch, shape, train, **options)
    assert repr(ours) == repr(theirs)
    ours_state, theirs_state = ours.state_dict(), theirs.state_dict()
    assert list(ours_state) == list(theirs_state)
    for key in theirs_state:  # running statistics: the same bits
        assert np.array_equal(ours_state[key].numpy(), theirs_state[key].numpy()), key
    for (y, gx, name), (ty, tgx, tname) in zip(ours_steps, theirs_steps):
        assert name == tname == "NativeBatchNormBackward0"
        assert _bits(y, ty) == 1.0  # forward and backward: torch's kernels' bits
        assert _bits(gx, tgx) == 1.0
    if ours.weight is not None:
        assert _bits(ours.weight.grad, theirs.weight.grad) == 1.0
    if ours.bias is not None:
        assert _bits(ours.bias.grad, theirs.bias.grad) == 1.0


def test_batchnorm_saved_values_and_repr():
    node = mg.nn.BatchNorm1d(3)(mg.randn(4, 3, requires_grad=True)).grad_fn
    assert [name for name in dir(node) if name.startswith("_saved")] == [
        name for name in dir(torch.nn.BatchNorm1d(3)(torch.randn(4, 3, requires_grad=True))
                             .grad_fn) if name.startswith("_saved")]
    assert node._saved_training is True and node._saved_eps == 1e-5
    assert node._saved_result1.shape == (3,) and node._saved_result2.shape == (3,)
    assert repr(mg.nn.BatchNorm1d(3, momentum=None, affine=False)) == \
        repr(torch.nn.BatchNorm1d(3, momentum=None, affine=False))


def test_batch_norm_third_derivative_against_finite_differences():
    """minigrad's batch norm is differentiable three times over (gradgradcheck of a first
    derivative); PyTorch's third derivative fails this same check."""
    rng = np.random.default_rng(0)
    x, w, b = (mg.tensor(rng.standard_normal(s), requires_grad=True) for s in [(4, 3), (3,), (3,)])
    upstream = mg.tensor(rng.standard_normal((4, 3)))

    def squared_first_derivative(x, w, b):
        y = mg.nn.functional.batch_norm(x, None, None, w, b, True)
        gx, gw = mg.autograd.grad((y * upstream).sum(), (x, w), create_graph=True)
        return (gx * gx).sum() + (gw * gw).sum()
    assert mg.autograd.gradgradcheck(squared_first_derivative, (x, w, b))


def test_batch_norm_functional_float64_against_finite_differences():
    x, w, b = rand((6, 3), 1), rand((3,), 2), rand((3,), 3)
    check_numerical(lambda x, w, b: mg.nn.functional.batch_norm(x, None, None, w, b, True),
                    x, w, b, atol=1e-6)
    mean, var = mg.zeros(3, dtype=mg.float64), mg.ones(3, dtype=mg.float64) * 2
    check_numerical(lambda x, w, b: mg.nn.functional.batch_norm(x, mean, var, w, b, False),
                    x, w, b)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.BatchNorm1d(10)(lib.ones(1, 10)),
    lambda lib, x: lib.nn.BatchNorm1d(10)(lib.ones(1, 10, 1)),
    lambda lib, x: lib.nn.BatchNorm1d(10)(lib.ones(2, 10, 3, 4)),
    lambda lib, x: lib.nn.BatchNorm2d(10)(lib.ones(2, 10, 3)),
    lambda lib, x: lib.nn.BatchNorm2d(10)(lib.ones(1, 10, 1, 1)),
    lambda lib, x: lib.nn.BatchNorm3d(10)(lib.ones(2, 10, 3, 4)),
    lambda lib, x: lib.nn.BatchNorm1d(10)(lib.ones(2, 5)),
    lambda lib, x: lib.nn.functional.batch_norm(lib.ones(2, 3), None, None, training=True,
                                                eps=0.0),
])
def test_batchnorm_errors(call):
    check_error(call, rand((2,)))


def test_batchnorm_eval_of_batch_of_one_works():
    bn, tbn = mg.nn.BatchNorm1d(4).eval(), torch.nn.BatchNorm1d(4).eval()
    assert repr(bn(mg.ones(1, 4))) == repr(tbn(torch.ones(1, 4)))


# ---- activations -----------------------------------------------------------------

ACTIVATIONS = [
    ("leaky_relu", {}), ("leaky_relu", {"negative_slope": 0.2}), ("elu", {}),
    ("elu", {"alpha": 0.5}), ("softplus", {}), ("softplus", {"beta": 2.0, "threshold": 3.0}),
    ("silu", {}), ("hardtanh", {}), ("hardtanh", {"min_val": -0.5, "max_val": 2.0}),
    ("relu6", {}), ("selu", {}), ("celu", {}), ("celu", {"alpha": 0.5}), ("mish", {}),
    ("hardswish", {}), ("hardsigmoid", {}), ("threshold", {"threshold": 0.1, "value": 20.0}),
    ("softsign", {}), ("tanhshrink", {}), ("softmin", {"dim": 1}), ("logsigmoid", {}),
]


@pytest.mark.parametrize("name, options", ACTIVATIONS)
def test_activation_matches_torch(name, options):
    x = rand((5, 7), low=-8, high=8)
    check(lambda lib, t: getattr(lib.nn.functional, name)(t, **options), x)
    check_numerical(lambda t: getattr(mg.nn.functional, name)(t, **options),
                    rand((4, 3), 2, low=-4, high=4).round(1) + 0.05)


@pytest.mark.parametrize("name", ["leaky_relu", "elu", "silu", "hardtanh", "relu6", "selu",
                                  "celu", "mish", "hardswish", "hardsigmoid"])
def test_activation_in_place_matches_torch(name):
    check(lambda lib, t: getattr(lib.nn.functional, name)(t * 1, inplace=True),
          rand((4, 6), low=-3, high=3))


@pytest.mark.parametrize("name", ["leaky_relu", "elu", "softplus", "silu", "mish", "hardswish",
                                  "hardsigmoid"])
def test_activation_refuses_integers(name):
    check_error(lambda lib, t: getattr(lib.nn.functional, name)(t), rand((3,), dtype="int64"))


def test_activation_forward_bits():
    x = np.random.default_rng(0).standard_normal(20000).astype(np.float32) * 4
    for name in ["leaky_relu", "hardtanh", "elu", "softplus", "silu"]:
        ours = getattr(mg.nn.functional, name)(mg.tensor(x))
        theirs = getattr(torch.nn.functional, name)(torch.tensor(x))
        # (exp, expm1, log1p rounded once; torch's SLEEF differs in the last bit on a few %)
        assert _bits(ours, theirs) >= (1.0 if name in ("leaky_relu", "hardtanh") else 0.9), name


@pytest.mark.parametrize("make", [
    lambda nn: nn.LeakyReLU(), lambda nn: nn.LeakyReLU(0.2, inplace=True), lambda nn: nn.ELU(),
    lambda nn: nn.ELU(alpha=0.5, inplace=True), lambda nn: nn.Softplus(),
    lambda nn: nn.Softplus(beta=2, threshold=10), lambda nn: nn.SiLU(),
    lambda nn: nn.SiLU(inplace=True), lambda nn: nn.Hardtanh(), lambda nn: nn.ReLU6(),
    lambda nn: nn.Hardtanh(-2.0, 2.0, inplace=True), lambda nn: nn.Unflatten(1, (2, 3)),
    lambda nn: nn.BCELoss(), lambda nn: nn.L1Loss(), lambda nn: nn.SmoothL1Loss(beta=0.5),
    lambda nn: nn.HuberLoss(delta=2.0), lambda nn: nn.Identity(), lambda nn: nn.PReLU(),
    lambda nn: nn.PReLU(3, 0.1), lambda nn: nn.SELU(inplace=True), lambda nn: nn.CELU(0.5),
    lambda nn: nn.Mish(inplace=True), lambda nn: nn.Hardswish(inplace=True),
    lambda nn: nn.Hardsigmoid(), lambda nn: nn.Threshold(0.1, 20, inplace=True),
    lambda nn: nn.LogSigmoid(), lambda nn: nn.Softsign(), lambda nn: nn.Tanhshrink(),
    lambda nn: nn.Softmin(1), lambda nn: nn.KLDivLoss(reduction="batchmean", log_target=True),
    lambda nn: nn.BatchNorm2d(4), lambda nn: nn.LazyLinear(3),
])
def test_module_reprs(make):
    assert repr(make(mg.nn)) == repr(make(torch.nn))


@pytest.mark.parametrize("shape, count", [((3, 4), 4), ((3, 4), 1), ((2, 4, 5), 4), ((5,), 1)])
def test_prelu_matches_torch(shape, count):
    check(lambda lib, x, w: lib.nn.functional.prelu(x, w), rand(shape, 1), rand((count,), 2, low=0,
                                                                             high=1))
    check_numerical(lambda x, w: mg.nn.functional.prelu(x, w), rand(shape, 3).round(1) + 0.05,
                    rand((count,), 4))


def test_prelu_module_and_error():
    check(lambda lib, x: lib.nn.PReLU(4, 0.1)(x), rand((3, 4)))
    check_error(lambda lib, x: lib.nn.functional.prelu(x, lib.ones(5)), rand((5,)))


@pytest.mark.parametrize("dim", [1, 0, -1])
def test_cosine_similarity_matches_torch(dim):
    check(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b, dim=dim),
          rand((4, 5), 1), rand((4, 5), 2))
    check_numerical(lambda a, b: mg.nn.functional.cosine_similarity(a, b, dim=dim),
                    rand((3, 4), 1), rand((3, 4), 2))


@pytest.mark.parametrize("reduction", ["batchmean", "sum", "none"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_matches_torch(reduction, log_target):
    target = rand((4, 5), 2, low=0.05, high=1)
    target /= target.sum(1, keepdims=True)
    if log_target:
        target = np.log(target)
    else:
        target[0, 0] = 0.0  # (0 log 0 counts as 0)
    check(lambda lib, x, t: lib.nn.functional.kl_div(x.log_softmax(1), t, reduction=reduction,
                                                     log_target=log_target),
          rand((4, 5), 1), target, requires_grad=[True, False])


def test_kl_div_mean_warns_as_torch():
    for lib in (mg, torch):
        with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
            lib.nn.KLDivLoss()(lib.zeros(2, 2), lib.ones(2, 2) / 2)


# ---- losses ----------------------------------------------------------------------

@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_bce_matches_torch(reduction):
    p = rand((16, 3), 1, low=0.0, high=1.0)
    p[0, 0], p[1, 1] = 0.0, 1.0  # (log clamped at -100)
    t = rand((16, 3), 2, low=0.0, high=1.0)
    check(lambda lib, a, b: lib.nn.functional.binary_cross_entropy(a, b, reduction=reduction),
          p, t, requires_grad=[True, False])
    check(lambda lib, a, b, w: lib.nn.BCELoss(weight=w, reduction=reduction)(a, b),
          p, t, rand((3,), 4, low=0, high=1), requires_grad=[True, False, False])


def test_bce_gradient_of_the_target_and_finite_differences():
    p, t = rand((5, 2), 1, low=0.1, high=0.9), rand((5, 2), 2, low=0.0, high=1.0)
    check(lambda lib, a, b: lib.nn.functional.binary_cross_entropy(a, b), p, t)
    check_numerical(lambda a, b: mg.nn.functional.binary_cross_entropy(a, b), p, t)


@pytest.mark.parametrize("call", [
    lambda lib, p: lib.nn.functional.binary_cross_entropy(p * 2, p),
    lambda lib, p: lib.nn.functional.binary_cross_entropy(p, p[:2]),
    lambda lib, p: lib.nn.functional.binary_cross_entropy(p, p * 3),
    lambda lib, p: lib.nn.functional.smooth_l1_loss(p, p, beta=-1.0),
    lambda lib, p: lib.nn.functional.l1_loss(p, p, reduction="avg"),
])
def test_loss_errors(call):
    check_error(call, rand((4, 3), low=0.1, high=0.9), requires_grad=[False])


@pytest.mark.parametrize("name, options", [
    ("l1_loss", {}), ("l1_loss", {"reduction": "sum"}), ("l1_loss", {"reduction": "none"}),
    ("smooth_l1_loss", {}), ("smooth_l1_loss", {"beta": 0.3}),
    ("smooth_l1_loss", {"beta": 0.0}), ("smooth_l1_loss", {"reduction": "none"}),
    ("huber_loss", {}), ("huber_loss", {"delta": 0.3, "reduction": "sum"}),
])
def test_regression_losses_match_torch(name, options):
    a, b = rand((6, 4), 1), rand((6, 4), 2)
    check(lambda lib, x, y: getattr(lib.nn.functional, name)(x, y, **options), a, b)
    check_numerical(lambda x, y: getattr(mg.nn.functional, name)(x, y, **options), a, b)


def test_l1_loss_broadcast_warning():
    for lib in (mg, torch):
        with pytest.warns(UserWarning, match="Using a target size"):
            lib.nn.functional.l1_loss(lib.ones(3, 2), lib.ones(2))


# ---- hooks -----------------------------------------------------------------------

def _hooked(lib):
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.Linear(3, 2))
    seen = []
    first = net[0].register_forward_hook(lambda m, args, out: seen.append(tuple(out.shape)))
    doubled = net[2].register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    replaced = net.register_forward_hook(lambda m, args, out: out + 1)
    x = lib.ones(5, 4)
    outputs = [net(x)]
    first.remove()
    doubled.remove()
    with replaced:
        outputs.append(net(x))
    outputs.append(net(x))
    return seen, [repr(o) for o in outputs]


def test_forward_hooks_and_handles_match_torch():
    assert _hooked(mg) == _hooked(torch)


def test_module_walks_match_torch():
    def walk(lib):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3), lib.nn.Tanh())
        names = [name for name, _ in net.named_modules()]
        kinds = [type(m).__name__ for m in net.children()]
        applied = []
        net.apply(lambda m: applied.append(type(m).__name__))
        net(lib.ones(4, 2)).sum().backward()
        net.zero_grad(set_to_none=True)
        grads = [p.grad for p in net.parameters()]
        net.requires_grad_(False)
        return names, kinds, applied, grads, [p.requires_grad for p in net.parameters()], \
            list(net.state_dict())
    assert walk(mg) == walk(torch)


# ---- learning-rate schedulers ----------------------------------------------------------

SCHEDULERS = {
    "StepLR": lambda lib, o: lib.optim.lr_scheduler.StepLR(o, 3, gamma=0.5),
    "MultiStepLR": lambda lib, o: lib.optim.lr_scheduler.MultiStepLR(o, [2, 5, 5], 0.1),
    "ExponentialLR": lambda lib, o: lib.optim.lr_scheduler.ExponentialLR(o, 0.9),
    "LambdaLR": lambda lib, o: lib.optim.lr_scheduler.LambdaLR(o, lambda e: 0.95 ** e),
    "MultiplicativeLR": lambda lib, o: lib.optim.lr_scheduler.MultiplicativeLR(o, lambda e: 0.9),
    "CosineAnnealingLR": lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingLR(o, 5, 0.001),
    "LinearLR": lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, 0.25, 1.0, 4),
    "ReduceLROnPlateau": lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(
        o, patience=2, factor=0.5),
    "OneCycleLR": lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, 0.5, total_steps=14),
    "ConstantLR": lambda lib, o: lib.optim.lr_scheduler.ConstantLR(o, 0.5, total_iters=4),
    "CyclicLR": lambda lib, o: lib.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=3),
    "CyclicLR-triangular2": lambda lib, o: lib.optim.lr_scheduler.CyclicLR(
        o, 0.01, 0.1, step_size_up=2, step_size_down=3, mode="triangular2"),
    "CyclicLR-exp_range": lambda lib, o: lib.optim.lr_scheduler.CyclicLR(
        o, [0.01], 0.1, step_size_up=2, mode="exp_range", gamma=0.9),
    "PolynomialLR": lambda lib, o: lib.optim.lr_scheduler.PolynomialLR(o, 8, power=2.0),
    "CosineAnnealingWarmRestarts": lambda lib, o: lib.optim.lr_scheduler
    .CosineAnnealingWarmRestarts(o, 3, T_mult=2, eta_min=0.01),
    "SequentialLR": lambda lib, o: lib.optim.lr_scheduler.SequentialLR(o, [
        lib.optim.lr_scheduler.LinearLR(o, 0.1, total_iters=3),
        lib.optim.lr_scheduler.CosineAnnealingLR(o, 8)], milestones=[3]),
    "ChainedScheduler": lambda lib, o: lib.optim.lr_scheduler.ChainedScheduler([
        lib.optim.lr_scheduler.ConstantLR(o, 0.1, total_iters=2),
        lib.optim.lr_scheduler.ExponentialLR(o, 0.9)]),
    "OneCycleLR-linear-3": lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(
        o, [1.0], epochs=2, steps_per_epoch=8, anneal_strategy="linear", three_phase=True),
}


def _schedule(lib, name, optimizer_first=True, steps=14):
    param = lib.nn.Parameter(lib.ones(2))
    optimizer = lib.optim.SGD([param], lr=0.1, momentum=0.9)
    scheduler = SCHEDULERS[name](lib, optimizer)
    rates = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(steps):
            if optimizer_first:
                param.grad = lib.ones(2)
                optimizer.step()
            if name == "ReduceLROnPlateau":
                scheduler.step(1.0 if i > 2 else 2.0 - i)
            else:
                scheduler.step()
            rates.append(scheduler.get_last_lr())
    state = scheduler.state_dict()
    state.pop("lr_lambdas", None)
    state.pop("milestones", None)
    state["_schedulers"] = [{k: v for k, v in s.items() if k != "milestones"}
                            for s in state.get("_schedulers", [])]
    group = {key: value for key, value in optimizer.param_groups[0].items() if key != "params"}
    return rates, [str(w.message) for w in caught], state, group


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_scheduler_matches_torch(name):
    assert _schedule(mg, name) == _schedule(torch, name)


def test_one_cycle_with_adam_cycles_beta1_as_torch():
    def run(lib):
        param = lib.nn.Parameter(lib.ones(2))
        optimizer = lib.optim.Adam([param], lr=0.1)
        scheduler = lib.optim.lr_scheduler.OneCycleLR(optimizer, 0.01, total_steps=5)
        betas = []
        for _ in range(5):
            param.grad = lib.ones(2)
            optimizer.step()
            scheduler.step()
            betas.append((optimizer.param_groups[0]["betas"], scheduler.get_last_lr()))
        return betas
    assert run(mg) == run(torch)
    for lib in (mg, torch):  # (a 6th step is one too many)
        with pytest.raises(ValueError, match="Tried to step 6 times"):
            run_too_far(lib)


def run_too_far(lib):
    param = lib.nn.Parameter(lib.ones(2))
    optimizer = lib.optim.SGD([param], lr=0.1, momentum=0.9)
    scheduler = lib.optim.lr_scheduler.OneCycleLR(optimizer, 0.01, total_steps=5)
    for _ in range(6):
        optimizer.step()
        scheduler.step()


def test_scheduler_step_before_optimizer_step_warns_as_torch():
    ours, theirs = _schedule(mg, "StepLR", False), _schedule(torch, "StepLR", False)
    assert ours[1] == theirs[1] and "before `optimizer.step()`" in theirs[1][0]


# ---- Adadelta ------------------------------------------------------------------------

OPTIMIZERS = [
    ("Adadelta", {}), ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1}),
    ("Adadelta", {"maximize": True, "eps": 1e-4}),
    ("Adamax", {}), ("Adamax", {"lr": 0.01, "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {}), ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.01}),
    ("NAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {}), ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("RAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True, "betas": (0.8, 0.9)}),
]


@pytest.mark.parametrize("name, options", OPTIMIZERS)
def test_optimizer_matches_torch(name, options):
    """20 steps from the same start with the same gradients: within 1e-6 of torch (Adamax
    bit-equal; the others take a float32 sqrt, which torch rounds otherwise in about a
    fifth of the values), the same state keys, param groups and repr."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in [(30, 20), (50,), ()]]
    ours = [mg.nn.Parameter(mg.tensor(a)) for a in arrays]
    theirs = [torch.nn.Parameter(torch.tensor(a)) for a in arrays]
    opt = getattr(mg.optim, name)(ours, **options)
    topt = getattr(torch.optim, name)(theirs, **options)
    for _ in range(20):
        for p, q in zip(ours, theirs):
            g = rng.standard_normal(tuple(q.shape)).astype(np.float32)
            p.grad, q.grad = mg.tensor(g), torch.tensor(g)
        opt.step()
        topt.step()
    for p, q in zip(ours, theirs):  # (torch's float32 sqrt is not correctly rounded
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(),  # everywhere)
                                   rtol=1e-6, atol=1e-6)
    if name == "Adamax":
        assert all(_bits(p, q) == 1.0 for p, q in zip(ours, theirs))
    state, tstate = opt.state_dict(), topt.state_dict()
    assert state["param_groups"] == tstate["param_groups"]
    assert list(state["state"][0]) == list(tstate["state"][0])
    assert repr(opt) == repr(topt)


@pytest.mark.parametrize("make", [
    lambda lib, p: lib.optim.Adadelta(p, rho=1.5), lambda lib, p: lib.optim.Adamax(p, lr=-1),
    lambda lib, p: lib.optim.NAdam(p, momentum_decay=-1.0),
    lambda lib, p: lib.optim.RAdam(p, betas=(0.9, 1.0)), lambda lib, p: lib.optim.NAdam(p, eps=-1),
])
def test_optimizer_errors(make):
    check_error(lambda lib, x: make(lib, [lib.nn.Parameter(x)]), rand((2,)))


# ---- F.pad and F.normalize ---------------------------------------------------------------

@pytest.mark.parametrize("pad", [(1, 2), (1, 2, 0, 1), (1, 1, 2, 0, 1, 3), (-1, 2),
                                 (-2, -1, 1, -1), (0, 0)])
@pytest.mark.parametrize("value", [None, 2.5])
def test_pad_matches_torch(pad, value):
    check(lambda lib, x: lib.nn.functional.pad(x, pad, value=value), rand((3, 4, 5)))


def test_pad_float64_against_finite_differences_and_twice():
    check_numerical(lambda x: mg.nn.functional.pad(x, (1, -1, 2, 0)), rand((3, 4)))
    check(lambda lib, x: lib.autograd.grad(lib.nn.functional.pad(x, (1, 2)).pow(2).sum(), x,
                                           create_graph=True)[0], rand((2, 3)))


@pytest.mark.parametrize("pad", [(1, 2, 3), (1, 2, 3, 4, 5, 6)])
def test_pad_errors(pad):
    check_error(lambda lib, x: lib.nn.functional.pad(x, pad), rand((3, 4)))


@pytest.mark.parametrize("options", [{}, {"p": 1, "dim": 0}, {"dim": -1, "eps": 0.5}])
def test_normalize_matches_torch(options):
    check(lambda lib, x: lib.nn.functional.normalize(x, **options), rand((3, 4, 5)))
    check_numerical(lambda x: mg.nn.functional.normalize(x, **options), rand((3, 4), 2))


# ---- backward hooks ----------------------------------------------------------------------

def _backward_hooked(lib):
    nn = lib.nn
    lib.manual_seed(0)
    layer = nn.Linear(3, 2)
    seen = []
    handle = layer.register_full_backward_hook(lambda mod, gi, go: seen.append(
        (type(mod).__name__, [None if g is None else tuple(g.shape) for g in gi],
         [tuple(g.shape) for g in go])))
    x = lib.randn(4, 3, requires_grad=True)
    y = layer(x)
    out = [type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__]
    y.sum().backward()
    out += [list(seen), x.grad]
    seen.clear()
    y = layer(lib.randn(4, 3))  # (no input requires grad: the hook fires at the outputs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y.sum().backward()
    out += [list(seen), [str(w.message) for w in caught]]
    doubled = layer.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 2,))
    x.grad = None
    layer(x).sum().backward()
    out.append(x.grad)
    handle.remove()
    doubled.remove()
    out.append(type(layer(x).grad_fn).__name__)
    net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    net.register_full_backward_hook(lambda mod, gi, go: out.append(("seq", gi[0].shape)))
    net[1].register_full_backward_hook(lambda mod, gi, go: out.append(("relu", go[0][0])))
    net[1].register_full_backward_pre_hook(lambda mod, go: (go[0] * 3,))
    x.grad = None
    net(x).sum().backward()
    out.append(x.grad)
    return [repr(o) for o in out]


def test_full_backward_hooks_match_torch():
    assert _backward_hooked(mg) == _backward_hooked(torch)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_double_backward_matches_torch(training):
    """Second derivatives (create_graph=True) equal torch's; in training they include
    how the batch's mean and variance move with x. (torch's bias gradient requires grad
    though it does not depend on x or w; minigrad's does not: its values are the same.)"""
    def second(lib):
        rng = np.random.default_rng(4)
        x, w, b = (lib.tensor(rng.standard_normal(s), requires_grad=True)
                   for s in [(6, 3), (3,), (3,)])
        stats = (lib.zeros(3, dtype=lib.float64), lib.ones(3, dtype=lib.float64) * 2)
        y = lib.nn.functional.batch_norm(x, *stats, w, b, training)
        weights = lib.tensor(rng.standard_normal((6, 3)))
        gx, gw, gb = lib.autograd.grad((y * weights).pow(2).sum(), (x, w, b), create_graph=True)
        return [g.detach() for g in (gx, gw, gb)] + list(
            lib.autograd.grad(gx.pow(2).sum() + (gw * gw).sum(), (x, w)))
    for ours, theirs in zip(second(mg), second(torch)):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("shape", [(32, 10), (64, 200), (8, 4, 5), (8, 4, 37), (16, 3, 64)])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_gradients_have_torchs_bits(shape, training):
    def run(lib):
        rng = np.random.default_rng(5)
        x, g = (lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True),
                lib.tensor(rng.standard_normal(shape).astype(np.float32)))
        w = lib.tensor(rng.standard_normal(shape[1]).astype(np.float32), requires_grad=True)
        b = lib.zeros(shape[1], requires_grad=True)
        stats = (lib.zeros(shape[1]) + 0.3, lib.ones(shape[1]) * 1.7)
        lib.nn.functional.batch_norm(x, *stats, w, b, training).backward(g)
        return x.grad, w.grad, b.grad
    for ours, theirs in zip(run(mg), run(torch)):
        assert _bits(ours, theirs) == 1.0


def _edge_padded(lib):
    """reflect and replicate over 1, 2 and 3 dims: values, nodes, saved padding,
    gradients, errors and a second derivative."""
    F = lib.nn.functional
    out = []
    rng = np.random.default_rng(0)
    cases = [((2, 3, 5), (2, 1)), ((3, 5), (0, 4)), ((1, 2, 4, 5), (1, 2, 3, 0)),
             ((2, 4, 5), (1, 1, 1, 1)), ((1, 1, 3, 4, 5), (1, 1, 2, 1, 0, 2))]
    for shape, pad in cases:
        for mode in ["reflect", "replicate"]:
            if mode == "reflect" and max(pad) >= min(shape[-len(pad) // 2:]):
                continue
            x = lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
            y = F.pad(x, pad, mode=mode)
            y.backward(lib.tensor(rng.standard_normal(tuple(y.shape)).astype(np.float32)))
            out += [repr(y), type(y.grad_fn).__name__, y.grad_fn._saved_padding, repr(x.grad)]
    for call in [lambda: F.pad(lib.ones(1, 2, 3), (3, 3), mode="reflect"),
                 lambda: F.pad(lib.ones(6), (1, 1), mode="reflect"),
                 lambda: F.pad(lib.ones(2, 3), (1, 1), mode="foo"),
                 lambda: F.pad(lib.ones(2, 3), (1, 1), mode="replicate", value=2.0)]:
        try:
            call()
            out.append("no error")
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            out.append((type(error).__name__, str(error)))
    x = lib.tensor(rng.standard_normal((2, 5)), requires_grad=True)
    g, = lib.autograd.grad(F.pad(x, (2, 2), mode="reflect").pow(2).sum(), x, create_graph=True)
    out.append(repr(lib.autograd.grad(g.pow(2).sum(), x)[0]))
    return out


def test_pad_reflect_and_replicate_match_torch():
    assert _edge_padded(mg) == _edge_padded(torch)


def test_scheduler_step_with_epoch_and_warm_restarts_fractions_match_torch():
    def run(lib):
        param = lib.nn.Parameter(lib.ones(2))
        optimizer = lib.optim.SGD([param], lr=0.1)
        step = lib.optim.lr_scheduler.StepLR(optimizer, 2, gamma=0.5)
        restarts_opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=0.2)
        restarts = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(restarts_opt, 4, T_mult=2)
        out = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            optimizer.step()
            restarts_opt.step()
            for epoch in [3, 7, 1]:
                step.step(epoch)
                out.append(step.get_last_lr())
            for epoch in [0.5, 3.25, 5.0, 13.5]:
                restarts.step(epoch)
                out.append(restarts.get_last_lr())
            out.append(step.get_lr())  # (outside step: PyTorch's warning)
        return out, [str(w.message) for w in caught]
    assert run(mg) == run(torch)


# ---- LazyLinear --------------------------------------------------------------------------

def _lazy(lib):
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2, bias=False))
    out += [repr(net), repr(net[0].weight), type(net[0].weight).__name__,
            list(net.state_dict()), repr(list(net.parameters()))]
    try:
        net[0].weight.shape  # noqa: B018
    except RuntimeError as error:
        out.append(str(error))
    y = net(lib.ones(3, 5))  # (the first input sets the shapes and draws the weights)
    out += [repr(net), type(net[0]).__name__, type(net[0].weight).__name__,
            repr(net[0].weight), repr(y), len(net[0]._forward_pre_hooks)]
    optimizer = lib.optim.SGD(net.parameters(), lr=0.1)
    y.sum().backward()
    optimizer.step()
    out.append(repr(net[2].weight))
    return out


def test_lazy_linear_matches_torch():
    assert _lazy(mg) == _lazy(torch)


def _lazy_batchnorm(lib):
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    bn = nn.LazyBatchNorm1d()
    out += [repr(bn), repr(bn.running_mean), list(bn.state_dict()), repr(bn.num_batches_tracked),
            repr(bn.weight)]
    y = bn(lib.randn(4, 3))
    out += [repr(bn), repr(bn.running_mean), type(bn.running_mean).__name__,
            type(bn.weight).__name__, repr(y)]
    plain = nn.LazyBatchNorm2d(affine=False, track_running_stats=False)
    out.append(repr(plain))
    plain(lib.randn(2, 3, 4, 4))
    out += [repr(plain), list(plain.state_dict())]
    net = nn.Sequential(nn.LazyLinear(6), nn.LazyBatchNorm1d(), nn.ReLU(), nn.LazyLinear(1))
    out.append(repr(net))
    x = lib.randn(8, 5)
    net(x)
    optimizer = lib.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(3):
        optimizer.zero_grad()
        loss = net(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        out.append(f"{loss.item():.6f}")
    return out + [repr(net), repr(net[1].running_var), repr(net[1].num_batches_tracked)]


def test_lazy_batchnorm_matches_torch():
    assert _lazy_batchnorm(mg) == _lazy_batchnorm(torch)


# ---- nn.utils ----------------------------------------------------------------------------

def _clipped(lib):
    nn = lib.nn
    lib.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    out = []
    x = lib.randn(16, 4) * 5
    for norm_type, max_norm in [(2.0, 0.5), (1, 0.1), (float("inf"), 0.05), (2, 100.0)]:
        net.zero_grad()
        net(x).pow(2).sum().backward()
        total = nn.utils.clip_grad_norm_(net.parameters(), max_norm, norm_type=norm_type)
        out += [repr(total), repr(net[0].weight.grad[0]), repr(net[2].bias.grad)]
    net.zero_grad()
    net(x).pow(2).sum().backward()
    nn.utils.clip_grad_value_(net.parameters(), 0.3)
    out.append(repr(net[0].weight.grad[:2]))
    vector = nn.utils.parameters_to_vector(net.parameters())
    out += [repr(vector.shape), repr(vector[:5]), type(vector.grad_fn).__name__]
    nn.utils.vector_to_parameters(vector * 2, net.parameters())
    out.append(repr(net[2].bias))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.utils.clip_grad_norm_((p for p in []), 1.0)
        nn.utils.clip_grad_norm(net.parameters(), 1.0)
    out.append(repr([str(w.message) for w in caught]))
    net[0].weight.grad[0, 0] = float("nan")
    try:
        nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
    except RuntimeError as error:
        out.append(str(error))
    out.append(repr(nn.utils.clip_grad_norm_([], 1.0)))
    return "\n".join(out)


def test_clip_grad_and_parameter_vectors_match_torch():
    """The same text; the numbers to float32 precision (minigrad's ``norm`` adds up in
    another order than torch's ``vector_norm``, so the last digit may differ)."""
    import re
    number = re.compile(r"-?\d+\.\d+(?:e[-+]\d+)?")
    ours, theirs = _clipped(mg), _clipped(torch)
    assert number.sub("#", ours) == number.sub("#", theirs)
    np.testing.assert_allclose([float(n) for n in number.findall(ours)],
                               [float(n) for n in number.findall(theirs)], rtol=2e-4, atol=1e-4)


def _hooks_with_options(lib):
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    layer = nn.Linear(3, 2)
    layer.register_forward_hook(lambda m, a, o: out.append("first"))
    layer.register_forward_hook(lambda m, a, o: out.append("prepended"), prepend=True)
    layer.register_forward_pre_hook(lambda m, a, k: ((a[0] * 0,), k), with_kwargs=True)
    layer.register_forward_hook(lambda m, a, k, o: o + 1, with_kwargs=True)
    out.append(repr(layer(lib.ones(2, 3))))
    other = nn.Linear(3, 2)
    other.register_forward_pre_hook(lambda m, a, k: a, with_kwargs=True)
    try:
        other(lib.ones(1, 3))
    except RuntimeError as error:
        out.append(str(error))
    return out


def test_forward_hooks_prepend_and_with_kwargs_match_torch():
    assert _hooks_with_options(mg) == _hooks_with_options(torch)


def _channel_dropout(lib):
    lib.manual_seed(0)
    out = []
    x = lib.ones(3, 4, 2, 2, requires_grad=True)
    for module in [lib.nn.Dropout2d(), lib.nn.Dropout2d(0.25), lib.nn.Dropout1d(0.5)]:
        y = module(x if "2d" in repr(module) else x[:, :, 0])
        y.sum().backward()
        out += [repr(module), repr(y[:, :, 0] if y.dim() == 4 else y), repr(x.grad[:, :, 0, 0])]
        x.grad = None
    out.append(repr(lib.nn.functional.dropout1d(lib.ones(4, 3), 0.5)))
    out.append(repr(lib.nn.Dropout2d().eval()(x) is x))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.nn.functional.dropout2d(lib.ones(2, 3, 4))
        lib.nn.functional.dropout2d(lib.ones(2, 3))
    out.append(repr([str(w.message) for w in caught]))
    try:
        lib.nn.functional.dropout1d(lib.ones(2, 3, 4, 5))
    except RuntimeError as error:
        out.append(str(error))
    return out


def test_channel_dropout_matches_torch():
    """The same channels dropped (the same random stream), the same gradients."""
    assert _channel_dropout(mg) == _channel_dropout(torch)


def _paths(lib):
    nn = lib.nn
    lib.manual_seed(0)
    net = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.BatchNorm1d(3), nn.ReLU()))
    out = [repr(net.get_submodule("1.0")), repr(net.get_parameter("0.bias")),
           repr(net.get_buffer("1.0.running_var")), net.get_submodule("") is net]
    net.set_submodule("1.1", nn.LeakyReLU(0.2))
    out.append(repr(net))
    for call in [lambda: net.get_submodule("1.5"), lambda: net.get_submodule("0.weight"),
                 lambda: net.get_parameter("1.0.running_mean"), lambda: net.get_buffer("0.weight"),
                 lambda: net.get_parameter("0.nothing"), lambda: net.set_submodule("", nn.ReLU()),
                 lambda: net.set_submodule("0", 3), lambda: net.set_submodule("1.7", nn.ReLU(), True)]:
        try:
            call()
            out.append("no error")
        except (AttributeError, ValueError) as error:
            out.append((type(error).__name__, str(error)))
    return out


def test_module_paths_match_torch():
    assert _paths(mg) == _paths(torch)
