"""End to end: the same network, started from the same weights (minigrad's,
copied into torch) and trained on the same data with the same optimiser
settings, follows the same loss curve in minigrad and in torch."""

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, copy_weights, rand

STEPS = 40
X = rand((64, 10), seed=0)
LABELS = np.random.default_rng(1).integers(0, 3, size=64)
TARGETS = rand((64, 1), seed=2, low=0, high=1)


def classifier(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(),
                         nn.Dropout(0.25), nn.Linear(16, 3))


def regressor(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(10, 8), nn.Sigmoid(), nn.Linear(8, 1), nn.Sigmoid())


def binary(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(10, 12), nn.ReLU(), nn.Linear(12, 1))


TASKS = {
    "cross_entropy": (classifier, lambda lib: lib.nn.CrossEntropyLoss(), LABELS),
    "mse": (regressor, lambda lib: lib.nn.MSELoss(), TARGETS),
    "bce_with_logits": (binary, lambda lib: lib.nn.BCEWithLogitsLoss(), (TARGETS > 0.5)
                        .astype("float32")),
}

OPTIMISERS = [
    pytest.param("SGD", {"lr": 0.1}, id="sgd"),
    pytest.param("SGD", {"lr": 0.05, "momentum": 0.9}, id="sgd-momentum"),
    pytest.param("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True}, id="sgd-nesterov"),
    pytest.param("SGD", {"lr": 0.05, "momentum": 0.9, "weight_decay": 1e-2}, id="sgd-wd"),
    pytest.param("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 1e-2},
                 id="sgd-nesterov-wd"),
    pytest.param("Adam", {"lr": 1e-2}, id="adam"),
    pytest.param("Adam", {"lr": 1e-2, "weight_decay": 1e-3, "amsgrad": True}, id="adam-amsgrad"),
    pytest.param("AdamW", {"lr": 1e-2}, id="adamw"),
    pytest.param("RMSprop", {"lr": 1e-2}, id="rmsprop"),
    pytest.param("RMSprop", {"lr": 1e-3, "momentum": 0.9, "centered": True}, id="rmsprop-centered"),
    pytest.param("Adagrad", {"lr": 0.1, "lr_decay": 1e-3}, id="adagrad"),
]


def train(lib, model, loss_fn, optimizer, targets, batch=16):
    """Mini-batch training, dropout switched off (``eval``: the networks are compared
    apart from random numbers; ``test_seeded_programs.py`` trains with dropout on).
    Returns the loss of every step."""
    model.eval()
    losses = []
    x_all, y_all = lib.tensor(X), lib.tensor(targets)
    for step in range(STEPS):
        start = (step * batch) % len(X)
        x, y = x_all[start:start + batch], y_all[start:start + batch]
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return np.array(losses)


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("name, kwargs", OPTIMISERS)
def test_same_loss_curve_as_torch(task, name, kwargs):
    make, make_loss, targets = TASKS[task]
    mg.manual_seed(0)
    mine, theirs = make(mg), make(torch)
    copy_weights(mine, theirs)
    curve_mg = train(mg, mine, make_loss(mg), getattr(mg.optim, name)(mine.parameters(),
                                                                        **kwargs), targets)
    curve_t = train(torch, theirs, make_loss(torch),
                    getattr(torch.optim, name)(theirs.parameters(), **kwargs), targets)
    np.testing.assert_allclose(curve_mg, curve_t, rtol=1e-4)
    assert curve_mg[-8:].mean() < curve_mg[:8].mean()  # and it did learn something
    for (key, p), q in zip(mine.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_allclose(as_numpy(p), q.numpy(), rtol=1e-3, atol=1e-5, err_msg=key)
