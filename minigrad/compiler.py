"""``torch.compile`` and ``torch.compiler``: minigrad runs every op eagerly, one NumPy
kernel after another, so there is nothing to compile. ``torch.compile(fn)`` gives a
function that calls ``fn``; ``torch.compile(model)`` wraps the module as PyTorch's does,
in an ``OptimizedModule`` whose child ``_orig_mod`` is the model (so its printout and its
``state_dict`` keys, ``_orig_mod.weight``, are PyTorch's) and whose attributes are the
model's. The values are the eager ones: where PyTorch's compiled kernels fuse steps and
round otherwise, a compiled model's last bits may differ from minigrad's, as they differ
from PyTorch's own eager mode.
"""

from __future__ import annotations

import functools

from .nn.module import Module

__all__ = ["compile", "disable", "is_compiling", "is_dynamo_compiling", "reset",
           "OptimizedModule"]


class OptimizedModule(Module):
    """A compiled module: ``_orig_mod`` runs, and lends its attributes."""

    def __init__(self, mod: Module) -> None:
        super().__init__()
        self._orig_mod = mod

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __len__(self) -> int:
        return len(self._orig_mod)

    def __getattr__(self, name: str):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._modules["_orig_mod"], name)


def compile(model=None, *, fullgraph: bool = False, dynamic=None,  # noqa: A001 (PyTorch's)
            backend=None, mode=None, options=None, name=None, disable: bool = False,
            recompile_limit=None, isolate_recompiles: bool = False, shapes_spec=None):
    """``torch.compile``: ``model`` (a module or a function) to run as it is; without a
    model, the decorator ``@torch.compile(mode=...)``; ``disable=True`` gives the model
    itself."""
    if model is None:
        return functools.partial(compile, fullgraph=fullgraph, dynamic=dynamic,
                                 backend=backend, mode=mode, options=options, name=name,
                                 disable=disable, recompile_limit=recompile_limit,
                                 isolate_recompiles=isolate_recompiles, shapes_spec=shapes_spec)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if disable:
        return model
    if isinstance(model, Module):
        return OptimizedModule(model)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)
    return compiled


def disable(fn=None, recursive: bool = True, *, reason=None):
    """``torch.compiler.disable``: keep ``fn`` out of compilation (it always is)."""
    return (lambda f: f) if fn is None else fn


def is_compiling() -> bool:
    """False: minigrad never traces a program."""
    return False


is_dynamo_compiling = is_compiling


def reset() -> None:
    """``torch.compiler.reset``: forget compiled code (there is none)."""
