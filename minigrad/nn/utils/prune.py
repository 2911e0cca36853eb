"""``torch.nn.utils.prune``: zero out parts of a parameter, as PyTorch's pruning does.

Pruning ``module.weight`` moves the parameter to ``weight_orig``, keeps a mask of 0s
and 1s as the buffer ``weight_mask``, and makes ``module.weight`` a plain attribute
``weight_mask * weight_orig``, recomputed before each forward by a forward pre-hook
(the pruning method itself). Pruning the same parameter again combines the masks in a
``PruningContainer`` (the new method acts on what is still unpruned); ``remove`` makes
the pruning permanent. The same random draws and ``topk`` choices as PyTorch's, so the
same masks after ``manual_seed``.
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import minigrad

from .convert_parameters import parameters_to_vector

__all__ = ["BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured",
           "L1Unstructured", "RandomStructured", "LnStructured", "CustomFromMask", "identity",
           "random_unstructured", "l1_unstructured", "random_structured", "ln_structured",
           "global_unstructured", "custom_from_mask", "remove", "is_pruned"]


class BasePruningMethod(ABC):
    """A way of choosing a mask; also the forward pre-hook that applies it."""

    _tensor_name: str
    PRUNING_TYPE: str

    def __call__(self, module, inputs) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The new mask for importance scores ``t``, keeping ``default_mask``'s zeros."""

    def apply_mask(self, module):
        """``name_mask * name_orig``: the pruned tensor."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune ``module.<name>`` with a new ``cls(*args, **kwargs)``, after any pruning
        it already has; returns the method (or the container) now hooked on it."""
        method = _combined(cls(*args, **kwargs), module, name)
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif importance_scores.shape != orig.shape:
            raise AssertionError(
                f"importance_scores should have the same shape as parameter {name} of "
                f"{module}, got {importance_scores.shape} vs {orig.shape}")
        first = not isinstance(method, PruningContainer)
        if first:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = minigrad.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone(
                memory_format=minigrad.contiguous_format)
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:  # (the parameter back where it was)
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """``t`` times the mask this method computes for it."""
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError("importance_scores should have the same shape as tensor t, "
                                 f"got {importance_scores.shape} vs {t.shape}")
        if default_mask is None:
            default_mask = minigrad.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module) -> None:
        """Make the pruning permanent: ``name`` becomes a parameter again, holding the
        pruned values; ``name_orig`` and ``name_mask`` go."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be "
                                 "removed")
        pruned = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = pruned.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _combined(method, module, name):
    """``method`` for ``name``, joined with the pruning already hooked on it (one hook
    per tensor: the old one is taken off, the two go into a PruningContainer)."""
    method._tensor_name = name
    old = [(key, hook) for key, hook in module._forward_pre_hooks.items()
           if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(old) > 1:
        raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} of "
                             f"module {module}. Use a PruningContainer.")
    if not old:
        return method
    key, previous = old[0]
    del module._forward_pre_hooks[key]
    container = previous if isinstance(previous, PruningContainer) else PruningContainer(previous)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """Successive pruning methods of one tensor: each new one acts on what the ones
    before left (the unpruned entries, or the unpruned channels along its dim)."""

    def __init__(self, *methods) -> None:
        self._pruning_methods: tuple = ()
        if len(methods) == 1:
            self._tensor_name = methods[0]._tensor_name
        for method in methods:
            self.add_pruning_method(method)

    def add_pruning_method(self, method) -> None:
        """Add ``method`` (acting on the same tensor) after the others."""
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, index):
        return self._pruning_methods[index]

    def compute_mask(self, t, default_mask):
        """The last method's mask, computed on the part ``default_mask`` still keeps."""
        method = self._pruning_methods[-1]
        kept = _still_kept(method, t, default_mask)
        mask = default_mask.to(dtype=t.dtype)
        mask[kept] = method.compute_mask(t[kept], default_mask=default_mask[kept]).to(
            dtype=mask.dtype)
        return mask


def _still_kept(method, t, mask):
    """Where the new method acts: the entries the mask keeps (unstructured), the
    channels along ``method.dim`` with any entry kept (structured), or everything."""
    if method.PRUNING_TYPE == "unstructured":
        return mask == 1
    everything = [slice(None)] * t.dim()
    if method.PRUNING_TYPE == "global":
        return tuple(everything)
    if method.PRUNING_TYPE != "structured":
        raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
    if not hasattr(method, "dim"):
        raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the '
                             "attribute `dim` defined.")
    dim = method.dim + t.dim() if method.dim < 0 else method.dim
    if dim < 0:
        raise IndexError(f"Index is out of bounds for tensor with dimensions {t.dim()}")
    everything[dim] = mask.sum(dim=[d for d in range(t.dim()) if d != dim]) != 0
    return tuple(everything)


class Identity(BasePruningMethod):
    """Prunes nothing: the reparametrisation with a mask of ones."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class _Unstructured(BasePruningMethod):
    """Prune ``amount`` entries (a count, or a fraction of them): those ``_chosen`` picks
    among the entries still kept."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount) -> None:
        _check_amount(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        count = _count(self.amount, t.nelement())
        mask = default_mask.clone(memory_format=minigrad.contiguous_format)
        if count:
            mask.view(-1)[self._chosen(t, count)] = 0
        return mask


class RandomUnstructured(_Unstructured):
    """Prune ``amount`` entries chosen at random."""

    def _chosen(self, t, count):
        return minigrad.topk(minigrad.rand_like(t).view(-1), k=count).indices

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prune the ``amount`` entries of smallest absolute value."""

    def _chosen(self, t, count):
        return minigrad.topk(minigrad.abs(t).view(-1), k=count, largest=False).indices

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prune ``amount`` whole channels along ``dim``, chosen at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1) -> None:
        _check_amount(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        count = _count(self.amount, channels)
        if not count:
            return default_mask
        drawn = minigrad.rand(channels)
        kept = drawn > minigrad.kthvalue(drawn, k=count).values
        return _channels(t, self.dim, kept) * default_mask.to(dtype=t.dtype)

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prune the ``amount`` channels along ``dim`` of smallest ``n``-norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1) -> None:
        _check_amount(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        count = _count(self.amount, channels)
        dim = self.dim % t.dim()
        norms = minigrad.norm(t, p=self.n, dim=[d for d in range(t.dim()) if d != dim])
        largest = minigrad.topk(norms, k=channels - count, largest=True)
        if not count:
            return default_mask
        return _channels(t, self.dim, largest.indices) * default_mask.to(dtype=t.dtype)

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prune where a given mask is 0."""

    PRUNING_TYPE = "global"

    def __init__(self, mask) -> None:
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match "
                                 f"self.mask shape {self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


def _channels(t, dim: int, chosen):
    """A mask of t's shape: 1 on the chosen channels along ``dim`` (a bool mask or
    indices), 0 elsewhere."""
    mask = minigrad.zeros_like(t)
    where = [slice(None)] * t.dim()
    where[dim] = chosen
    mask[tuple(where)] = 1
    return mask


def _check_amount(amount) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if amount < 0 if isinstance(amount, numbers.Integral) else (float(amount) > 1.0
                                                                 or float(amount) < 0.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _count(amount, size: int) -> int:
    """How many of ``size`` to prune: ``amount`` itself, or a fraction of ``size``."""
    count = amount if isinstance(amount, numbers.Integral) else round(amount * size)
    if count > size:
        raise ValueError(f"amount={count} should be smaller than the number of parameters to "
                         f"prune={size}")
    return count


def _check_structured(t, dim: int) -> None:
    if t.dim() <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. "
                         f"Found tensor of shape {t.shape} with {t.dim()} dims")
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def identity(module, name):
    """Reparametrise ``module.<name>`` with a mask of ones (prunes nothing)."""
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    """Prune ``amount`` random entries of ``module.<name>``."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    """Prune the ``amount`` entries of ``module.<name>`` of smallest absolute value."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    """Prune ``amount`` random channels of ``module.<name>`` along ``dim``."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    """Prune the ``amount`` channels along ``dim`` of smallest ``n``-norm."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs) -> None:
    """Prune several ``(module, name)`` tensors as one: ``pruning_method`` (an
    unstructured one, e.g. ``L1Unstructured``, with ``amount=``) chooses over all their
    entries together."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = {} if importance_scores is None else importance_scores
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    scores = parameters_to_vector([importance_scores.get((module, name), getattr(module, name))
                                   for module, name in parameters])
    masks = parameters_to_vector([getattr(module, name + "_mask",
                                          minigrad.ones_like(getattr(module, name)))
                                  for module, name in parameters])
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    mask = container.compute_mask(scores, masks)
    start = 0
    for module, name in parameters:
        size = getattr(module, name).numel()
        custom_from_mask(module, name, mask=mask[start:start + size].view_as(
            getattr(module, name)))
        start += size


def custom_from_mask(module, name, mask):
    """Prune ``module.<name>`` where ``mask`` is 0."""
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    """Make the pruning of ``module.<name>`` permanent (see BasePruningMethod.remove)."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module) -> bool:
    """Whether any module inside ``module`` has a pruning hook."""
    return any(isinstance(hook, BasePruningMethod) for _, sub in module.named_modules()
               for hook in sub._forward_pre_hooks.values())
