"""``torch.optim.swa_utils``: stochastic weight averaging and exponential moving averages
of a model's weights (``AveragedModel``), the learning rate that anneals to a constant
SWA rate (``SWALR``), and ``update_bn``, which recomputes batch-norm statistics for the
averaged weights. Written as PyTorch's on the public API (on the CPU PyTorch updates
tensor by tensor, as here), so the same averages, rates and errors."""

from __future__ import annotations

import itertools
import math
import warnings
from copy import deepcopy
from typing import Any, Callable, Iterable

import minigrad

from ..nn.batchnorm import _BatchNorm
from ..nn.module import Module
from .lr_scheduler import LRScheduler, _format_param

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn",
           "get_swa_multi_avg_fn", "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         f"[0,1] range.")


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable:
    """An update of lists of averages: each moves (1 - decay) of the way to the model's."""
    _check_decay(decay)

    @minigrad.no_grad()
    def ema_update(ema_param_list, current_param_list, _) -> None:
        if ema_param_list[0].is_floating_point():
            for ema, current in zip(ema_param_list, current_param_list):
                ema.lerp_(current, 1 - decay)
        else:
            for ema, current in zip(ema_param_list, current_param_list):
                ema.copy_(ema * decay + current * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn() -> Callable:
    """An update of lists of running means: each moves 1 / (n + 1) of the way."""
    @minigrad.no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        if averaged_param_list[0].is_floating_point():
            for averaged, current in zip(averaged_param_list, current_param_list):
                averaged.lerp_(current, float(1 / (num_averaged + 1)))
            return
        for averaged, current in zip(averaged_param_list, current_param_list):
            difference = current - averaged
            if isinstance(num_averaged, minigrad.Tensor):
                averaged.addcdiv_(difference, num_averaged + 1)
            else:
                averaged.add_(difference, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable:
    """decay * average + (1 - decay) * current."""
    _check_decay(decay)

    @minigrad.no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn() -> Callable:
    """The running mean: average + (current - average) / (n + 1)."""
    @minigrad.no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters are the average of the model's over the calls
    of ``update_parameters`` (the running mean by default; ``avg_fn`` or ``multi_avg_fn``
    for another, e.g. ``get_ema_multi_avg_fn(0.999)``). Buffers are copied, or averaged
    too with ``use_buffers=True``. Calling it calls the copy."""

    def __init__(self, model: Module, device=None, avg_fn: Callable | None = None,
                 multi_avg_fn: Callable | None = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", minigrad.tensor(0, dtype=minigrad.long, device=device))
        self.avg_fn, self.multi_avg_fn, self.use_buffers = avg_fn, multi_avg_fn, use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Fold the model's current weights into the average (the first call copies)."""
        mine = itertools.chain(self.module.parameters(), self.module.buffers()) \
            if self.use_buffers else self.parameters()
        theirs = itertools.chain(model.parameters(), model.buffers()) \
            if self.use_buffers else model.parameters()
        averaged, current = [], []
        first = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(mine, theirs):
            averaged.append(p_averaged.detach())
            current.append(p_model.detach())
            if first:
                p_averaged.detach().copy_(current[-1])
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None:
                for group in _by_dtype(averaged, current):
                    self.multi_avg_fn(*group, self.n_averaged)
            else:
                average = self.avg_fn or get_swa_avg_fn()
                with minigrad.no_grad():
                    for p_averaged, p_model in zip(averaged, current):
                        p_averaged.copy_(average(p_averaged, p_model, self.n_averaged))
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


def _by_dtype(averaged: list, current: list) -> list:
    """The pairs of lists of one dtype each (as PyTorch groups tensors for its multi
    update), in the order each dtype first occurs."""
    groups: dict = {}
    for a, c in zip(averaged, current):
        pair = groups.setdefault(a.dtype, ([], []))
        pair[0].append(a)
        pair[1].append(c)
    return list(groups.values())


@minigrad.no_grad()
def update_bn(loader: Iterable[Any], model: Module, device=None) -> None:
    """Recompute every batch norm's running statistics as the plain mean over one pass of
    ``loader`` (its batches, or their first items) through ``model`` in training mode."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's learning rate from its value to ``swa_lr`` over
    ``anneal_epochs`` steps ("cos" or "linear"), then keep it there."""

    def __init__(self, optimizer, swa_lr: float, anneal_epochs: int = 10,
                 anneal_strategy: str = "cos", last_epoch: int = -1) -> None:
        for rate, group in zip(_format_param("swa_lr", optimizer, swa_lr),
                               optimizer.param_groups):
            group["swa_lr"] = rate
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        return swa_lr if alpha == 1 else (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" \
            else self._linear_anneal

    def state_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
