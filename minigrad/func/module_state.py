"""A module as a function of its parameters: ``functional_call`` and ``stack_module_state``.

``functional_call(model, params, x)`` runs ``model(x)`` with the tensors in ``params`` (a
dict from names such as ``"0.weight"`` to tensors) standing in for the module's own
parameters and buffers, then puts the module's own back. That makes a model a function
``f(params, x)`` that the transforms (``grad``, ``vmap``, ``jacrev``) can take apart:
per-example gradients are ``vmap(grad(loss_of_params), in_dims=(None, 0, 0))``.

``stack_module_state(models)`` stacks several same-shaped models' parameters into one
dict (a new leading dimension, one entry per model), ready for ``vmap`` over
``functional_call``: an ensemble run as one batched model.

Written on minigrad's public API (``named_parameters``, ``get_submodule``, the module's
``_parameters`` and ``_buffers`` tables, as PyTorch's ``torch.nn.utils.stateless`` uses them).
"""

from __future__ import annotations

from contextlib import contextmanager

import minigrad
from ..nn.batchnorm import _BatchNorm

__all__ = ["functional_call", "stack_module_state", "replace_all_batch_norm_modules_"]


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """``module(*args, **kwargs)`` with the given tensors in place of its parameters and
    buffers (by name; the others stay as they are)."""
    given = _merged(parameter_and_buffer_dicts)
    if strict:
        _check_keys(module, given)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _swapped(module, _with_tied(module, given) if tie_weights else given):
        return module(*args, **(kwargs or {}))


def _merged(dicts) -> dict:
    if isinstance(dicts, dict):
        return dict(dicts)
    merged = {}
    for table in dicts:
        repeated = sorted(set(table) & set(merged))
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             "functional call is ambiguous")
        merged.update(table)
    return merged


def _check_keys(module, given: dict) -> None:
    """strict=True: every parameter and buffer given, nothing else (PyTorch's text)."""
    names = {name for name, _ in module.named_parameters(remove_duplicate=False)}
    names |= {name for name, _ in module.named_buffers(remove_duplicate=False)}
    unexpected = sorted(set(given) - names)
    missing = sorted(names - set(given))
    if unexpected or missing:
        lines = [f"Error(s) in reparametrizing for {type(module).__name__}:"]
        if unexpected:
            lines.append(f"\tUnexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            lines.append(f"\tMissing key(s): {', '.join(map(repr, missing))}.")
        raise RuntimeError("\n".join(lines))


def _with_tied(module, given: dict) -> dict:
    """Tied weights (one Parameter under two names): a tensor given for one name stands
    in for the others too."""
    by_identity = {}
    for name, param in module.named_parameters(remove_duplicate=False):
        by_identity.setdefault(id(param), []).append(name)
    tied = dict(given)
    for names in by_identity.values():
        present = [name for name in names if name in given]
        for name in names:
            if present and name not in tied:
                tied[name] = given[present[0]]
    return tied


@contextmanager
def _swapped(module, tensors: dict):
    """The module with ``tensors`` in its tables for the time of the call."""
    restore = []
    try:
        for name, tensor in tensors.items():
            owner_name, _, attribute = name.rpartition(".")
            owner = module.get_submodule(owner_name) if owner_name else module
            table = owner._buffers if attribute in owner._buffers else owner._parameters
            if attribute not in table:
                table = owner.__dict__
            restore.append((table, attribute, table.get(attribute)))
            table[attribute] = tensor
        yield
    finally:
        for table, attribute, old in reversed(restore):
            if old is None:
                table.pop(attribute, None)
            else:
                table[attribute] = old


def stack_module_state(models) -> tuple[dict, dict]:
    """``(params, buffers)``: each model's parameters (and buffers) stacked along a new
    first dimension, by name; stacked parameters are new leaves that require grad."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    tables = []
    for named in ("named_parameters", "named_buffers"):
        each = [dict(getattr(model, named)()) for model in models]
        tables.append({name: _stacked_leaf([table[name] for table in each], name)
                       for name in each[0]})
    return tables[0], tables[1]


def _stacked_leaf(tensors: list, name: str):
    needs = [t.requires_grad for t in tensors]
    if any(needs) and not all(needs):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    stacked = minigrad.stack(tensors)
    return stacked.detach().requires_grad_() if all(needs) else stacked


def replace_all_batch_norm_modules_(root):
    """Every batch norm in ``root`` made to keep no running statistics (as in training,
    the batch's own), in place: what vmap over a model with batch norm needs."""
    for module in root.modules():
        if isinstance(module, _BatchNorm) and module.track_running_stats:
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
