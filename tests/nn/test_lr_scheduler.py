"""The learning-rate schedulers against torch: rates at every step, warnings (step
order, get_lr outside step, step(epoch)), state dicts, the optimiser's param groups."""

from __future__ import annotations

import math
import warnings

import pytest
import torch

import minigrad as mg


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


def _warmup_cosine(lib):
    """The UvA transformers tutorial's CosineWarmupScheduler, a subclass of the base's
    older name ``_LRScheduler`` (PyTorch keeps it as a subclass of ``LRScheduler``)."""
    class CosineWarmupScheduler(lib.optim.lr_scheduler._LRScheduler):
        def __init__(self, optimizer, warmup, max_iters):
            self.warmup, self.max_num_iters = warmup, max_iters
            super().__init__(optimizer)

        def get_lr(self):
            factor = 0.5 * (1 + math.cos(math.pi * self.last_epoch / self.max_num_iters))
            if self.last_epoch <= self.warmup:
                factor *= self.last_epoch * 1.0 / self.warmup
            return [base_lr * factor for base_lr in self.base_lrs]

    param = lib.nn.Parameter(lib.ones(2))
    optimizer = lib.optim.Adam([param], lr=1e-3)
    scheduler = CosineWarmupScheduler(optimizer, warmup=3, max_iters=10)
    rates = []
    for _ in range(12):
        param.grad = lib.ones(2)
        optimizer.step()
        scheduler.step()
        rates.append(scheduler.get_last_lr())
    base = lib.optim.lr_scheduler._LRScheduler
    return (rates, base.__name__, [c.__name__ for c in base.__mro__[1:-1]],
            isinstance(scheduler, lib.optim.lr_scheduler.LRScheduler),
            "_LRScheduler" in lib.optim.lr_scheduler.__all__)


def test_the_older_base_name_is_subclassed_as_in_torch():
    assert _warmup_cosine(mg) == _warmup_cosine(torch)
