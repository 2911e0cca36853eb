"""Losses against torch: the value for every reduction, the gradient of the
predictions (and of a regression target), the loss modules, and the errors."""

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg

from nn_twins import FLOAT64, close, raised, rand

REDUCTIONS = ["mean", "sum", "none"]


def compare(fn, arrays, grad_of=(0,), **tolerance):
    """Run ``fn(lib, *tensors)`` in both libraries; float arrays listed in
    ``grad_of`` require grad. Compare the loss and those gradients."""
    results = {}
    for lib in (mg, torch):
        tensors = [lib.tensor(a, requires_grad=i in grad_of) for i, a in enumerate(arrays)]
        loss = fn(lib, *tensors)
        upstream = rand(tuple(loss.shape), seed=9, dtype=np.asarray(arrays[0]).dtype)
        loss.backward(lib.tensor(upstream))
        results[lib] = loss, [tensors[i].grad for i in grad_of]
    close(results[mg][0], results[torch][0], **tolerance)
    for mine, theirs in zip(results[mg][1], results[torch][1]):
        close(mine, theirs, **tolerance)


LOGITS = rand((5, 4), seed=0, low=-3, high=3)
CLASSES = np.array([0, 3, 1, 1, 2])
WEIGHT = np.array([0.2, 1.0, 2.5, 0.7], dtype="float32")
PROBS = np.random.default_rng(4).dirichlet(np.ones(4), size=5).astype("float32")


def w(lib):
    return lib.tensor(WEIGHT)


CROSS_ENTROPY = [
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, reduction=r),
                 (LOGITS, CLASSES), id="indices"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, weight=w(lib), reduction=r),
                 (LOGITS, CLASSES), id="weight"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, reduction=r),
                 (LOGITS, np.array([0, -100, 1, -100, 2])), id="ignore-default"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, weight=w(lib), ignore_index=1,
                                                       reduction=r),
                 (LOGITS, CLASSES), id="ignore-weight"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, reduction=r, label_smoothing=0.1),
                 (LOGITS, CLASSES), id="smoothing"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, weight=w(lib), ignore_index=3,
                                                       reduction=r, label_smoothing=0.3),
                 (LOGITS, CLASSES), id="smoothing-weight-ignore"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, reduction=r),
                 (LOGITS, PROBS), id="probabilities"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, weight=w(lib), reduction=r,
                                                       label_smoothing=0.2),
                 (LOGITS, PROBS), id="probabilities-weight-smoothing"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, reduction=r),
                 (LOGITS[0], np.array(2)), id="unbatched"),
    pytest.param(lambda lib, F, r, x, t: F.cross_entropy(x, t, weight=w(lib), reduction=r,
                                                       label_smoothing=0.1),
                 (rand((2, 4, 3, 2), seed=5), np.array([[[0, 1], [2, 3], [3, 0]],
                                                        [[1, 1], [0, -100], [2, 2]]])),
                 id="spatial"),
    pytest.param(lambda lib, F, r, x, t: F.nll_loss(F.log_softmax(x, dim=1), t, reduction=r),
                 (LOGITS, CLASSES), id="nll"),
    pytest.param(lambda lib, F, r, x, t: F.nll_loss(x, t, weight=w(lib), ignore_index=0,
                                                  reduction=r),
                 (LOGITS, CLASSES), id="nll-raw-weight-ignore"),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("fn, arrays", CROSS_ENTROPY)
def test_classification_losses_match_torch(fn, arrays, reduction):
    compare(lambda lib, x, t: fn(lib, lib.nn.functional, reduction, x, t), arrays)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_float64_matches_torch_tightly(reduction):
    compare(lambda lib, x, t: lib.nn.functional.cross_entropy(x, t, reduction=reduction),
            (LOGITS.astype("float64"), CLASSES), **FLOAT64)


def test_cross_entropy_is_stable_for_huge_scores():
    x = np.array([[1e4, -1e4, 0.0], [-5e3, 5e3, 1.0]], dtype="float32")
    compare(lambda lib, x, t: lib.nn.functional.cross_entropy(x, t), (x, np.array([1, 1])))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("rows, ignored", [(1, False), (64, False), (5000, False), (64, True)])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_class_index_losses_without_weight_have_the_bits_of_weight_ones(dtype, rows, ignored,
                                                                          reduction):
    """Without a weight (the usual case) the loss takes fewer steps: it must still
    have the bits of the general way, that of a weight of ones, and be torch's."""
    rng = np.random.default_rng(rows)
    x = (rng.standard_normal((rows, 10)) * 3).astype(dtype)
    targets = rng.integers(0, 10, rows)
    if ignored:
        targets[::3] = -100
    F, results = mg.nn.functional, []
    for weight in (None, mg.ones(10, dtype=getattr(mg, dtype))):
        scores = mg.tensor(x, requires_grad=True)
        loss = F.cross_entropy(scores, mg.tensor(targets), weight=weight, reduction=reduction)
        loss.backward()
        results.append((loss.detach().numpy().tobytes(), scores.grad.numpy().tobytes()))
        assert loss.grad_fn.name() == "NllLossBackward0"
    assert results[0] == results[1]
    compare(lambda lib, x, t: lib.nn.functional.cross_entropy(x, t, reduction=reduction),
            (x, targets), **({} if dtype == "float32" else dict(rtol=2e-3, atol=2e-3)))


@given(n=st.integers(1, 6), c=st.integers(1, 5), seed=st.integers(0, 100),
       reduction=st.sampled_from(REDUCTIONS))
def test_cross_entropy_any_shape(n, c, seed, reduction):
    targets = np.random.default_rng(seed).integers(0, c, size=n)
    compare(lambda lib, x, t: lib.nn.functional.cross_entropy(x, t, reduction=reduction),
            (rand((n, c), seed=seed), targets))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shapes", [((4, 3), (4, 3)), ((5,), (5,)), ((2, 3, 2), (2, 3, 2))],
                         ids=str)
def test_mse_matches_torch_with_grads_of_both_sides(shapes, reduction):
    compare(lambda lib, x, y: lib.nn.functional.mse_loss(x, y, reduction=reduction),
            (rand(shapes[0], seed=1), rand(shapes[1], seed=2)), grad_of=(0, 1))


def test_mse_broadcasting_warns_like_torch():
    found = []
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loss = lib.nn.functional.mse_loss(lib.tensor(rand((3, 4))), lib.tensor(rand((4,))))
        found.append(([str(c.message) for c in caught], loss.item()))
    assert found[0][0] == found[1][0] and found[0][0]
    assert found[0][1] == pytest.approx(found[1][1], rel=1e-6)


SCORES = rand((4, 3), seed=3, low=-5, high=5)
TARGETS = np.random.default_rng(5).uniform(0, 1, (4, 3)).astype("float32")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("options", [
    pytest.param({}, id="plain"),
    pytest.param({"weight": np.array([0.5, 1.0, 2.0], "float32")}, id="weight"),
    pytest.param({"pos_weight": np.array([3.0, 1.0, 0.25], "float32")}, id="pos_weight"),
    pytest.param({"weight": rand((4, 1), seed=7, low=0, high=2),
                  "pos_weight": np.array([2.0, 0.5, 1.0], "float32")}, id="both"),
])
def test_bce_with_logits_matches_torch(options, reduction):
    def fn(lib, x, y):
        extra = {k: lib.tensor(v) for k, v in options.items()}
        return lib.nn.functional.binary_cross_entropy_with_logits(x, y, reduction=reduction,
                                                                  **extra)
    compare(fn, (SCORES, TARGETS))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bce_with_logits_is_stable_for_extreme_scores(dtype):
    x = np.array([-1e4, -100.0, -30.0, 0.0, 30.0, 100.0, 1e4], dtype=dtype)
    y = np.array([1.0, 1.0, 0.0, 0.5, 1.0, 0.0, 0.0], dtype=dtype)
    compare(lambda lib, x, y: lib.nn.functional.binary_cross_entropy_with_logits(
        x, y, reduction="none"), (x, y))


# ---- the modules ---------------------------------------------------------------------

MODULES = [
    pytest.param(lambda lib, r: lib.nn.CrossEntropyLoss(reduction=r), (LOGITS, CLASSES),
                 id="CrossEntropyLoss"),
    pytest.param(lambda lib, r: lib.nn.CrossEntropyLoss(weight=w(lib), ignore_index=2,
                                                        label_smoothing=0.05, reduction=r),
                 (LOGITS, CLASSES), id="CrossEntropyLoss-options"),
    pytest.param(lambda lib, r: lib.nn.NLLLoss(weight=w(lib), reduction=r), (LOGITS, CLASSES),
                 id="NLLLoss"),
    pytest.param(lambda lib, r: lib.nn.MSELoss(reduction=r), (SCORES, TARGETS), id="MSELoss"),
    pytest.param(lambda lib, r: lib.nn.BCEWithLogitsLoss(
        reduction=r, pos_weight=lib.tensor([1.0, 2.0, 3.0])), (SCORES, TARGETS),
        id="BCEWithLogitsLoss"),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("make, arrays", MODULES)
def test_loss_modules_match_torch(make, arrays, reduction):
    compare(lambda lib, x, t: make(lib, reduction)(x, t), arrays)
    assert repr(make(mg, reduction)) == repr(make(torch, reduction))
    assert list(make(mg, reduction).state_dict()) == list(make(torch, reduction).state_dict())


# ---- errors ----------------------------------------------------------------------------

def F(lib):
    return lib.nn.functional


@pytest.mark.parametrize("call", [
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(3, 4), lib.tensor([0, 1, 5])),
                 id="target-too-big"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(3, 4), lib.tensor([0, -1, 2])),
                 id="target-negative"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(3, 4), lib.tensor([0, 1])),
                 id="batch-mismatch"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(3, 4), lib.tensor([0.0, 1.0, 2.0])),
                 id="float-target"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(3, 4), lib.tensor([0, 1, 2]),
                                                  reduction="avg"), id="bad-reduction"),
    pytest.param(lambda lib: F(lib).nll_loss(lib.ones(3, 4), lib.tensor([0, 1, 4])),
                 id="nll-target-too-big"),
    pytest.param(lambda lib: F(lib).mse_loss(lib.ones(3), lib.ones(3), reduction="bad"),
                 id="mse-bad-reduction"),
    pytest.param(lambda lib: F(lib).binary_cross_entropy_with_logits(lib.ones(3, 4),
                                                                     lib.ones(3, 3)),
                 id="bce-size"),
    pytest.param(lambda lib: lib.nn.CrossEntropyLoss()(lib.ones(2, 3), lib.tensor([3, 0])),
                 id="module-target-too-big"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(2, 3), lib.ones(2, 4)),
                 id="multi-target"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(2, 3), lib.ones(2, 3).long()),
                 id="integer-probabilities"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(2, 3, 4), lib.tensor([0, 1])),
                 id="spatial-target-size"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.ones(2, 3), lib.tensor([0, 1]),
                                                  label_smoothing=1.5), id="smoothing-range"),
    pytest.param(lambda lib: F(lib).nll_loss(lib.tensor(1.0), lib.tensor(0)), id="nll-0d"),
    # a (1, C) row with a 0-dim class (char_rnn_generation_tutorial.py's NLLLoss per letter):
    # PyTorch counts the 0-dim target as a batch of 0 and refuses it in forward
    pytest.param(lambda lib: lib.nn.NLLLoss()(lib.zeros(1, 5), lib.tensor(2)),
                 id="nll-row-0d-target"),
    pytest.param(lambda lib: F(lib).cross_entropy(lib.zeros(1, 5), lib.tensor(2)),
                 id="cross-entropy-row-0d-target"),
    pytest.param(lambda lib: F(lib).nll_loss(lib.zeros(2, 5, 3), lib.tensor(1)),
                 id="nll-3d-0d-target"),
])
def test_loss_errors_are_torchs(call):
    assert raised(lambda: call(mg)) == raised(lambda: call(torch))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("smoothing", [0.0, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore_index", [-100, 0, 1])
def test_cross_entropy_at_its_extremes_follows_torch(ignore_index, reduction, smoothing, dtype):
    """ignore_index (rows of it get a gradient of exactly +0.), label_smoothing 0 to 1,
    scores of -inf (their probability 0) and a row of equal scores. The other values
    are compared within a few ulps: PyTorch's log_softmax takes SLEEF's exp and log,
    whose last bits differ (so do its sums: with label_smoothing=1 an exact 0 can come
    out as -4.6e-18)."""
    x = np.array([[1.0, 2.0, 3.0], [-np.inf, 0.0, 1.0], [0.0, 0.0, 0.0], [5.0, -np.inf, -np.inf],
                  [1.0, 1.0, -1.0]], dtype)
    targets = np.array([2, 1, ignore_index, 0, 1])
    results = []
    for lib in (mg, torch):
        scores = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(scores, lib.tensor(targets), reduction=reduction,
                                               ignore_index=ignore_index,
                                               label_smoothing=smoothing)
        loss.backward(lib.ones_like(loss) * 1.5)
        results.append((loss.detach().numpy(), scores.grad.numpy()))
    (loss, grad), (their_loss, their_grad) = results
    tight = dict(rtol=1e-5, atol=1e-6) if dtype == "float32" else dict(rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(loss, their_loss, **tight)
    np.testing.assert_allclose(grad, their_grad, **tight)
    ignored = targets == ignore_index
    assert np.array_equal(grad[ignored], their_grad[ignored])
    assert np.array_equal(np.signbit(grad[ignored]), np.signbit(their_grad[ignored]))
