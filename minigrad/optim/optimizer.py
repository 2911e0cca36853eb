"""``Optimizer``: the base class of ``SGD``, ``Adam``, ``AdamW``, ``RMSprop``, ``Adagrad``,
``Adadelta``, ``Adamax``, ``NAdam``, ``RAdam``, ``Rprop`` and ``ASGD``.

An optimiser holds ``param_groups``, a list of dicts, each with its
``'params'`` (a list of tensors) and its settings (``'lr'``, ...), so that
different parts of a model can learn at different rates; and ``state``, a
dict from each parameter to what the update rule remembers about it
(a momentum buffer, Adam's running averages). ``step()`` updates every
parameter that has a ``.grad``; ``zero_grad()`` clears the gradients.
"""

from __future__ import annotations

import copy
import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from itertools import chain
from typing import Any

import minigrad

from .. import errors
from ..tensor import Tensor
from ..autograd.grad_mode import enable_grad
from ..autograd.hooks import RemovableHandle
from ..nn.module import _typename, clear_grads
from ..kernels.arithmetic import plus_times

__all__ = ["Optimizer", "register_optimizer_step_pre_hook", "register_optimizer_step_post_hook"]

# hooks around every optimiser's step, as PyTorch keeps them: hook(optimizer, args, kwargs)
_global_optimizer_pre_hooks: OrderedDict = OrderedDict()
_global_optimizer_post_hooks: OrderedDict = OrderedDict()


def _registered(hooks: OrderedDict, hook, prepend: bool = False) -> RemovableHandle:
    """Keep ``hook`` in ``hooks`` (first with ``prepend``); ``handle.remove()`` takes it out."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """Call ``hook(optimizer, args, kwargs)`` before every optimiser's ``step`` (it may
    return ``(new_args, new_kwargs)``)."""
    return _registered(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """Call ``hook(optimizer, args, kwargs)`` after every optimiser's ``step``."""
    return _registered(_global_optimizer_post_hooks, hook)


class Optimizer:
    """Base class: subclasses pass their default settings and write ``step``."""

    # (PyTorch's type aliases of the step hooks' signatures)
    OptimizerPreHook = Callable[[Any, tuple, dict], "tuple[tuple, dict] | None"]
    OptimizerPostHook = Callable[[Any, tuple, dict], None]

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._patch_step_function()
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable "
                            "of Tensors or dicts, but got " + _typename(params))
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own settings (missing ones
        come from the defaults), e.g. to unfreeze layers while fine-tuning."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        _take_names(param_group)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        for group in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in group):
                raise ValueError("all optimizer param groups should be with/without names. "
                                 "cannot add param group "
                                 f"{'with' if 'param_names' in param_group else 'without'} names "
                                 "to the optimizer")
        existing = set(chain.from_iterable(group["params"] for group in self.param_groups))
        if not existing.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear every parameter's ``.grad`` (set it to None, or to zeros with
        ``set_to_none=False``): gradients add up across ``backward()`` calls."""
        clear_grads(chain.from_iterable(g["params"] for g in self.param_groups), set_to_none)

    @staticmethod
    def _loss_of(closure):
        """Run ``closure`` (which re-computes the loss) with grad enabled, if given."""
        if closure is None:
            return None
        with enable_grad():
            return closure()

    def step(self, closure=None):
        """Update the parameters once from their gradients (each subclass's rule)."""
        raise NotImplementedError

    # ---- hooks ---------------------------------------------------------------

    def _patch_step_function(self) -> None:
        """Wrap this class's ``step`` (once per class, as PyTorch does on the first
        optimiser of each class) so that the step hooks run around it."""
        if not getattr(type(self).step, "hooked", False):
            type(self).step = self.profile_hook_step(type(self).step)
            type(self).step.hooked = True

    @staticmethod
    def profile_hook_step(func):
        """``func`` (a ``step``) with the pre-hooks (everyone's, then this optimiser's)
        before it and the post-hooks (this optimiser's, then everyone's) after it."""
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self = args[0]
            for hook in chain(_global_optimizer_pre_hooks.values(),
                              self._optimizer_step_pre_hooks.values()):
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(f"{func} must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
                    args, kwargs = result
            out = func(*args, **kwargs)
            for hook in chain(self._optimizer_step_post_hooks.values(),
                              _global_optimizer_post_hooks.values()):
                hook(self, args, kwargs)
            return out
        return wrapper

    def register_step_pre_hook(self, hook) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` before this optimiser's ``step``."""
        return _registered(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` after this optimiser's ``step``."""
        return _registered(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` before ``state_dict()`` builds the dict."""
        return _registered(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` on the dict built; what it returns (if
        not None) is returned instead."""
        return _registered(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` on a shallow copy of the dict given to
        ``load_state_dict`` (what it returns, if not None, is loaded instead)."""
        return _registered(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` after ``load_state_dict`` has loaded."""
        return _registered(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    @staticmethod
    def _check_implementation(foreach=None, differentiable=False, fused=None) -> None:
        """PyTorch's switches between its implementations of one rule, kept in the
        defaults (and state_dict()) as torch keeps them. ``foreach`` changes nothing
        here (minigrad has one implementation); ``fused`` and ``differentiable`` would
        change what a step computes or records, and minigrad has neither."""
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
            raise NotImplementedError(errors.OPTIMIZER_FUSED)
        if differentiable:
            raise NotImplementedError(errors.OPTIMIZER_DIFFERENTIABLE)

    def _gradients(self):
        """``(group, p, g)`` for every parameter ``p`` that has a gradient, in order:
        ``g`` is ``p.grad``, or ``-p.grad`` with ``maximize=True`` (to climb)."""
        for group in self.param_groups:
            if group.get("capturable"):  # (CUDA graphs: torch refuses CPU parameters)
                raise AssertionError(errors.OPTIMIZER_CAPTURABLE)
            for p in group["params"]:
                if p.grad is not None:
                    yield group, p, (-p.grad if group["maximize"] else p.grad)

    def _state(self, p, *buffers: str) -> dict:
        """``p``'s state; made on its first step: ``step`` (a tensor, 0) and, for each
        name in ``buffers``, a tensor of zeros shaped like ``p`` (PyTorch's order)."""
        state = self.state[p]
        if not state:
            state["step"] = minigrad.tensor(0.0)
            for name in buffers:
                state[name] = minigrad.zeros_like(p)
        return state

    # ---- saving and loading --------------------------------------------------

    def state_dict(self) -> dict:
        """``{'state': ..., 'param_groups': ...}`` with each parameter replaced by
        its position (0, 1, ... across the groups), so it can be saved."""
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            packed["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(packed)
        state = {index[id(param)]: value for param, value in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            result = hook(self, state_dict)
            state_dict = state_dict if result is None else result
        return state_dict

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore settings and state saved by ``state_dict()`` (copied, not shared)."""
        state_dict = state_dict.copy()  # (shallow, as PyTorch's: what the hooks see)
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = hook(self, state_dict)
            state_dict = state_dict if result is None else result
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(saved["params"]) != len(group["params"])
               for saved, group in zip(saved_groups, self.param_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't "
                             "match the size of optimizer's group")
        param_of = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                            chain.from_iterable(g["params"] for g in self.param_groups)))
        self.state = defaultdict(dict)
        for position, values in state_dict["state"].items():
            if position in param_of:
                self.state[param_of[position]] = {
                    key: value.clone() if isinstance(value, Tensor) else copy.deepcopy(value)
                    for key, value in values.items()}
        self.param_groups = [_loaded_group(saved, group)
                             for saved, group in zip(saved_groups, self.param_groups)]
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def check_adam_arguments(lr, eps, betas, weight_decay) -> None:
    """The argument checks of the Adam family (Adam, AdamW, Adamax, NAdam, RAdam), PyTorch's
    texts."""
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def addcmul_(state: Tensor, t1: Tensor, t2: Tensor, value) -> None:
    """``state.addcmul_(t1, t2, value=value)`` (an optimiser's own buffer, under no_grad),
    rounded as torch's kernel rounds it: ``value * t1`` first, then ``state + that * t2``
    as one fused multiply-add (see kernels.arithmetic.plus_times)."""
    plus_times(state._data, (t1 * value)._data, t2._data, out=state._data)
    state._bump_version()


def _take_names(param_group: dict) -> None:
    """Named parameters (``optim.SGD(model.named_parameters())``, pairs of a name and a
    tensor): the tensors stay in ``params``, the names go to ``param_names``, which
    ``state_dict()`` keeps (PyTorch's torch.optim page: load a state dict by names)."""
    pairs = [p for p in param_group["params"] if isinstance(p, tuple)]
    param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in param_group["params"]]
    if pairs:
        if len(pairs) != len(param_group["params"]):
            raise ValueError("all optimizer params should be with/without names. "
                             "Some param names are missing")
        param_group["param_names"] = [name for name, _ in pairs]


def _loaded_group(saved: dict, group: dict) -> dict:
    """A loaded group: the saved settings (copied) with this optimiser's tensors, and its
    parameter names when the saved group has none."""
    loaded = dict(copy.deepcopy({k: v for k, v in saved.items() if k != "params"}),
                  params=group["params"])
    if "param_names" in group and "param_names" not in loaded:
        loaded["param_names"] = group["param_names"]
    return loaded
