"""``optim.swa_utils`` (AveragedModel, SWALR, update_bn and the averaging functions)
against PyTorch 2.13: PyTorch's SWA recipe (train, then average the weights each epoch
under SWALR, then recompute batch-norm statistics) run both ways, an EMA model, the
rates SWALR gives, its state dict and the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad


def _recipe(lib, avg="swa", use_buffers=False):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.BatchNorm1d(8), lib.nn.ReLU(),
                              lib.nn.Linear(8, 1))
    data = [(lib.randn(16, 4), lib.randn(16, 1)) for _ in range(4)]
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    averages = {"swa": {}, "ema": {"multi_avg_fn": lib.optim.swa_utils.get_ema_multi_avg_fn(0.9)},
                "ema-each": {"avg_fn": lib.optim.swa_utils.get_ema_avg_fn(0.9)}}
    swa_model = lib.optim.swa_utils.AveragedModel(model, use_buffers=use_buffers, **averages[avg])
    scheduler = lib.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)
    swa_scheduler = lib.optim.swa_utils.SWALR(optimizer, swa_lr=0.05, anneal_epochs=2)
    rates, losses = [], []
    for epoch in range(6):
        for x, y in data:
            optimizer.zero_grad()
            loss = lib.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        if epoch >= 2:
            swa_model.update_parameters(model)
            swa_scheduler.step()
        else:
            scheduler.step()
        rates.append(optimizer.param_groups[0]["lr"])
    lib.optim.swa_utils.update_bn([x for x, _ in data], swa_model)
    swa_model.eval()
    prediction = swa_model(data[0][0])
    return (losses, rates, int(swa_model.n_averaged), repr(swa_model),
            [t.detach().numpy().copy() for t in swa_model.state_dict().values()],
            list(swa_model.state_dict()), prediction.detach().numpy())


@pytest.mark.parametrize("avg, use_buffers", [("swa", False), ("ema", False),
                                              ("ema-each", False), ("swa", True)])
def test_swa_recipe_as_pytorch(avg, use_buffers):
    ours, theirs = _recipe(minigrad, avg, use_buffers), _recipe(torch, avg, use_buffers)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)  # (float32 training: close)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-15)
    assert ours[2:4] == theirs[2:4] and ours[5] == theirs[5]
    for a, b in zip(ours[4], theirs[4]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[6], theirs[6], rtol=1e-5, atol=1e-6)


def test_swalr_rates_state_dict_and_errors_as_pytorch():
    found = {}
    for lib in (minigrad, torch):
        weight = lib.zeros(2, requires_grad=True)
        optimizer = lib.optim.SGD([weight], lr=1.0)
        rates = []
        for strategy, epochs in (("cos", 3), ("linear", 4), ("linear", 0)):
            for group in optimizer.param_groups:
                group["lr"] = 1.0
            scheduler = lib.optim.swa_utils.SWALR(optimizer, swa_lr=0.1, anneal_epochs=epochs,
                                                  anneal_strategy=strategy)
            for _ in range(6):
                optimizer.step()
                scheduler.step()
                rates.append(scheduler.get_last_lr()[0])
        state = scheduler.state_dict()
        errors = []
        for call in (lambda: lib.optim.swa_utils.SWALR(optimizer, 0.1, anneal_strategy="exp"),
                     lambda: lib.optim.swa_utils.SWALR(optimizer, 0.1, anneal_epochs=-1),
                     lambda: lib.optim.swa_utils.SWALR(optimizer, [0.1, 0.2]),
                     lambda: lib.optim.swa_utils.get_ema_avg_fn(1.5),
                     lambda: lib.optim.swa_utils.AveragedModel(
                         lib.nn.Linear(1, 1), avg_fn=lambda *a: a[0], multi_avg_fn=lambda *a: 0)):
            with pytest.raises(Exception) as error:
                call()
            errors.append((type(error.value).__name__, str(error.value)))
        found[lib] = (rates, sorted(state), errors)
    np.testing.assert_allclose(found[minigrad][0], found[torch][0], rtol=1e-15)
    assert found[minigrad][1:] == found[torch][1:]
