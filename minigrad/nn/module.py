"""``Module``: the base class of every layer, loss and model.

A module keeps three ordered tables, filled in by plain attribute
assignment in ``__init__``:

* ``_parameters``: its own ``Parameter``s (``self.weight = Parameter(...)``);
* ``_buffers``: tensors that are saved but not learned (``register_buffer``);
* ``_modules``: its sub-modules (``self.fc1 = Linear(3, 4)``).

Everything else walks those tables: ``parameters()`` for the optimiser,
``state_dict()`` for saving, ``train()``/``eval()``, ``zero_grad()``, the
printed tree. Calling a module, ``model(x)``, runs its ``forward(x)``.
"""

from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from functools import partial
from typing import Callable, Iterator

import minigrad

from .. import devices, dtypes
from ..autograd.grad_mode import no_grad
from ..autograd.hooks import RemovableHandle, add_hook
from ..tensor import Tensor
from .hooks import BackwardHook
from .parameter import Parameter

__all__ = ["Module"]


def clear_grads(params, set_to_none: bool = True) -> None:
    """Set each parameter's ``.grad`` to None (or, with ``set_to_none=False``, to
    zeros, cut from any graph); used by ``Module`` and ``Optimizer.zero_grad``."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
            continue
        if param.grad.grad_fn is not None:
            param.grad.detach_()
        else:
            param.grad.requires_grad_(False)
        param.grad.zero_()


def _typename(obj) -> str:
    """How ``torch.typename`` names an object in error messages
    (``torch.FloatTensor``, ``int``, ``minigrad.nn.linear.Linear``)."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = obj if isinstance(obj, type) else type(obj)
    return cls.__qualname__ if cls.__module__ == "builtins" else \
        f"{cls.__module__}.{cls.__qualname__}"


def _addindent(text: str, spaces: int) -> str:
    """Indent every line but the first (how a child's repr nests in its parent's)."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line if line.strip() else "" for line in rest])


_STATE_DICT_HOOKS = ("_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                     "_load_state_dict_post_hooks")


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys that did not line up."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module:
    """Base class for layers and models: subclass it, assign the layers and
    parameters in ``__init__``, and write ``forward``.

    >>> import minigrad.nn as nn
    >>> class TwoLayer(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.hidden = nn.Linear(4, 8)
    ...         self.out = nn.Linear(8, 1)
    ...     def forward(self, x):
    ...         return self.out(self.hidden(x).relu())
    >>> [name for name, _ in TwoLayer().named_parameters()]
    ['hidden.weight', 'hidden.bias', 'out.weight', 'out.bias']
    """

    training: bool
    _version: int = 1  # (saved in a state_dict's _metadata, as PyTorch's modules save theirs)

    def __init__(self) -> None:
        # object.__setattr__: our own __setattr__ needs these tables to exist first.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_backward_hooks", OrderedDict())
        object.__setattr__(self, "_backward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_hooks_with_kwargs", OrderedDict())  # id -> True
        for table in _STATE_DICT_HOOKS:  # (state_dict's and load_state_dict's)
            object.__setattr__(self, table, OrderedDict())

    def forward(self, *args, **kwargs):
        """What the module computes; every subclass defines it."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    _compiled_call = None  # (set by compile())

    def __call__(self, *args, **kwargs):
        """``module(x)`` is ``module.forward(x)``, with the hooks around it, if any."""
        if self._compiled_call is not None:
            return self._compiled_call(*args, **kwargs)
        if (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks):
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    def _call_uncompiled(self, *args, **kwargs):
        """What a call does without compile() (the function compile() compiles)."""
        return self._call_with_hooks(args, kwargs)

    def compile(self, *args, **kwargs) -> None:
        """Compile this module's calls in place (``torch.compile``'s arguments): the
        module stays what it is (no ``_orig_mod``), each call runs as a compiled region
        (see minigrad/_dynamo/eval_frame.py). A module of torch.nn itself stays eager:
        PyTorch's capture skips its code when it is the function compiled."""
        compiled = minigrad.compile(self._call_uncompiled, *args, **kwargs)
        if not type(self).__module__.startswith(__package__ + "."):
            self._compiled_call = compiled

    def _call_with_hooks(self, args: tuple, kwargs: dict):
        """``forward`` between its hooks: each forward pre-hook may replace the inputs,
        each forward hook the output (by returning non-None); the backward hooks are
        hung on the graph around the inputs and outputs (see hooks.py)."""
        for key, hook in tuple(self._forward_pre_hooks.items()):
            if key in self._hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
                    args, kwargs = result
                continue
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        backward_hook = None
        if self._backward_hooks or self._backward_pre_hooks:
            backward_hook = BackwardHook(self, tuple(self._backward_hooks.values()),
                                         tuple(self._backward_pre_hooks.values()))
            args = backward_hook.setup_input_hook(args)
        output = self.forward(*args, **kwargs)
        for key, hook in tuple(self._forward_hooks.items()):
            result = hook(self, args, kwargs, output) if key in self._hooks_with_kwargs \
                else hook(self, args, output)
            if result is not None:
                output = result
        if backward_hook is not None:
            output = backward_hook.setup_output_hook(output)
        return output

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, args)`` before each ``forward``; a returned value (a tuple,
        or one value) replaces the inputs. ``handle.remove()`` takes the hook away.
        ``prepend=True`` runs it before the others; ``with_kwargs=True`` calls
        ``hook(module, args, kwargs)``, which may return ``(args, kwargs)``."""
        return self._add_hook(self._forward_pre_hooks, hook, prepend, with_kwargs)

    def _add_hook(self, table: dict, hook: Callable, prepend: bool,
                  with_kwargs: bool) -> RemovableHandle:
        handle = RemovableHandle(table, extra_dict=self._hooks_with_kwargs)
        table[handle.id] = hook
        if prepend:
            table.move_to_end(handle.id, last=False)
        if with_kwargs:
            self._hooks_with_kwargs[handle.id] = True
        return handle

    def register_full_backward_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(module, grad_input, grad_output)`` when the gradients of the
        module's inputs have been computed (tuples, one per tensor argument and output);
        a returned tuple replaces ``grad_input``."""
        return add_hook(self._backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(module, grad_output)`` when the gradients of the module's outputs
        arrive, before the module's own backward; a returned tuple replaces them."""
        return add_hook(self._backward_pre_hooks, hook)

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """Call ``hook(module, args, output)`` after each ``forward`` (to look at
        activations); a returned value replaces the output (``with_kwargs=True``:
        ``hook(module, args, kwargs, output)``)."""
        return self._add_hook(self._forward_hooks, hook, prepend, with_kwargs)

    # ---- registering parameters, buffers and sub-modules -------------------

    def _check_new_name(self, kind: str, name, table: dict) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."' +
                           (f", got: {name}" if kind == "module" else ""))
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in table:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add ``param`` under ``name`` (what ``self.name = param`` does)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_new_name("parameter", name, self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter "
                            f"'{name}' (torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is part of the module's state but is not learned
        (saved in ``state_dict`` unless ``persistent=False``)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_new_name("buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: "Module | None") -> None:
        """Add a sub-module under ``name`` (what ``self.name = module`` does)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        self._check_new_name("module", name, self._modules)
        self._modules[name] = module

    register_module = add_module

    def _forget(self, name: str, keep: dict) -> None:
        """Remove ``name`` from every table but ``keep``, where it is about to be set: a
        module or parameter assigned again keeps its place (``resnet.conv1 = Conv2d(...)``
        stays first among the children, as in PyTorch)."""
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._buffers, self._modules):
            if table is not keep:
                table.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=params)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=modules)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = None
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str):
        # Only called when normal lookup fails: look in the three tables.
        for table in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    # ---- walking the tree --------------------------------------------------

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, "Module"]]:
        """This module and every module inside it, depth first, with dotted names
        (``''`` for this one); a module shared by two parents is listed once."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, f"{prefix}.{name}" if prefix else name,
                                                remove_duplicate)

    def modules(self) -> Iterator["Module"]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, "Module"]]:
        """The direct sub-modules, with their names."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator["Module"]:
        for _, module in self.named_children():
            yield module

    def get_submodule(self, target: str) -> "Module":
        """The sub-module at a dotted path (``'encoder.0'``; ``''`` is this module)."""
        if target == "":
            return self
        module = self
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: "Module", strict: bool = False) -> None:
        """Put ``module`` at a dotted path (to swap a layer of a trained model, say)."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path (``'0.weight'``)."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at a dotted path (``'1.running_mean'``)."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        if name not in module._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(module, name)

    def _named_members(self, table: Callable, prefix: str, recurse: bool,
                       remove_duplicate: bool) -> Iterator[tuple[str, Tensor]]:
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        seen = set()  # tensors hash by identity, so a shared tensor is listed once
        for module_prefix, module in modules:
            for name, tensor in table(module).items():
                if tensor is None or (remove_duplicate and tensor in seen):
                    continue
                seen.add(tensor)
                yield (f"{module_prefix}.{name}" if module_prefix else name), tensor

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Every parameter with its dotted name, e.g. ``('0.weight', Parameter ...)``."""
        return self._named_members(lambda m: m._parameters, prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every parameter (what you hand to an optimiser)."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named_members(lambda m: m._buffers, prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn: Callable[["Module"], None]) -> "Module":
        """Call ``fn`` on every sub-module and then on this one (e.g. to initialise weights)."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- device and dtype ------------------------------------------------

    def to(self, *args, **kwargs) -> "Module":
        """``model.to(device)`` (the CPU: nothing to move; "meta": every parameter and
        buffer keeps only its shape and dtype) and ``model.to(torch.float64)`` (every
        floating-point parameter and buffer converted in place, gradients too)."""
        device, dtype, _ = devices.to_arguments(args, kwargs)
        if device is not None:
            for tensor in itertools.chain(self.parameters(), self.buffers()):
                if (device.type == "meta") != tensor.is_meta:  # (out of meta: PyTorch's error)
                    tensor.data = tensor.data.to(device)
        if dtype is None:
            return self
        if not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, "
                            f"but got desired dtype={dtype}")
        for tensor in itertools.chain(self.parameters(), self.buffers()):
            if tensor.is_floating_point():
                tensor.data = tensor.data.to(dtype)
                if tensor.grad is not None:
                    tensor.grad = tensor.grad.to(dtype)
        return self

    def cpu(self) -> "Module":
        return self.to("cpu")

    def to_empty(self, *, device, recurse: bool = True) -> "Module":
        """Every parameter and buffer (and gradient) replaced by an uninitialised tensor of
        its shape and dtype on ``device``: after a model was built on the meta device,
        where initialisation costs nothing, it gets memory (zeros here, as ``empty``
        gives them) to be initialised or loaded into. ``nn.utils.skip_init`` does both."""
        for tensor in itertools.chain(self.parameters(recurse), self.buffers(recurse)):
            tensor.data = minigrad.empty_like(tensor.data, device=device)
            if tensor.grad is not None:
                tensor.grad = minigrad.empty_like(tensor.grad, device=device)
        return self

    def cuda(self, device=None) -> "Module":
        """Fails as on a CPU-only PyTorch: ``Torch not compiled with CUDA enabled``."""
        devices.check_cuda_device(device)

    def double(self) -> "Module":
        return self.to(dtypes.float64)

    def float(self) -> "Module":  # noqa: A003 - PyTorch's name
        return self.to(dtypes.float32)

    def half(self) -> "Module":
        return self.to(dtypes.float16)

    def share_memory(self) -> "Module":
        """For worker processes in PyTorch; minigrad's tensors live in one process."""
        return self

    # ---- training --------------------------------------------------------

    def train(self, mode: bool = True) -> "Module":
        """Set training mode (``self.training``) here and in every sub-module.
        Only some layers care: ``Dropout`` drops units in training mode only."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> "Module":
        """Evaluation mode: the same as ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        """Freeze (``False``) or unfreeze every parameter."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients of every parameter: ``.grad`` becomes None
        (or a tensor of zeros with ``set_to_none=False``). Gradients add up
        across ``backward()`` calls, so training loops call this every step."""
        clear_grads(self.parameters(), set_to_none)

    # ---- saving and loading --------------------------------------------------

    def state_dict(self, *, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> "OrderedDict[str, Tensor]":
        """Every parameter and persistent buffer by dotted name, in registration
        order: the module's own first, then each sub-module's. The tensors share
        memory with the module's (detached unless ``keep_vars=True``)."""
        if destination is None:  # (with PyTorch's _metadata: each module's version)
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        own = itertools.chain(self._parameters.items(), self._buffers.items())
        for name, tensor in own:
            if tensor is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = tensor if keep_vars else tensor.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                                  keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            returned = hook(self, destination, prefix, local_metadata)
            if getattr(hook, "_from_public_api", False) and returned is not None:
                raise RuntimeError("state_dict post-hook must return None")
            if returned is not None:  # (the old private hook may hand back a new dict)
                destination = returned
        return destination

    def register_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(module, prefix, keep_vars)`` before ``state_dict`` collects."""
        return add_hook(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata)`` after ``state_dict``
        collected this module's tensors and its children's; it may change the dict in
        place (and must return None)."""
        hook._from_public_api = True
        return add_hook(self._state_dict_hooks, hook)

    def _register_state_dict_hook(self, hook: Callable) -> RemovableHandle:
        """The older, private form of ``register_state_dict_post_hook``: a dict the hook
        returns replaces the state dict (as PyTorch, seen by the caller only at the root)."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook "
                               "that was previously registered via "
                               "register_state_dict_post_hook")
        return add_hook(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before this module loads its tensors; it may change
        the state dict in place (rename, add or drop keys)."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook: Callable,
                                           with_module: bool = False) -> RemovableHandle:
        """The same, called without the module unless ``with_module``."""
        call = partial(hook, self) if with_module else partial(hook)
        # (kept wrapped either way, as PyTorch's _WrappedHook: so nn.utils's
        # remove_spectral_norm, looking for its hook's own class, leaves it, as PyTorch's)
        return add_hook(self._load_state_dict_pre_hooks, call)

    def register_load_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(module, incompatible_keys)`` after this module and its children
        loaded; the lists of missing and unexpected keys may be changed in place (which
        ``strict=True`` then sees)."""
        return add_hook(self._load_state_dict_post_hooks, hook)

    def load_state_dict(self, state_dict: Mapping, strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy the values in ``state_dict`` into this module's parameters and
        buffers (in place). With ``strict=True`` the keys must be exactly those
        of ``self.state_dict()``; shapes must always match. ``assign=True`` makes the
        checkpoint's tensors the module's own instead (a parameter keeps its
        ``requires_grad``): for a model built on the meta device, which has no memory
        to copy into."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)  # (a copy that pre-hooks may change)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local: dict, prefix: str = "") -> None:
            # as PyTorch: the module's pre-hooks, its own tensors, then each child on the
            # keys under its name, then the module's post-hooks
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            for hook in module._load_state_dict_pre_hooks.values():
                hook(local, prefix, local_metadata, True, missing, unexpected, errors)
            module._load_own_state(local, prefix, missing, unexpected, errors, assign)
            for name, child in module._modules.items():
                if child is not None:
                    under = f"{prefix}{name}."
                    load(child, {k: v for k, v in local.items() if k.startswith(under)}, under)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, _IncompatibleKeys(missing, unexpected)) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _load_own_state(self, state_dict: Mapping, prefix: str, missing: list,
                        unexpected: list, errors: list, assign: bool = False) -> None:
        """Load this module's own tensors (not its children's); note what did not fit."""
        own = {name: tensor for name, tensor in
               itertools.chain(self._parameters.items(), self._buffers.items())
               if tensor is not None and name not in self._non_persistent_buffers_set}
        for name, tensor in own.items():
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected '
                              "torch.Tensor or Tensor-like object from checkpoint but "
                              f"received {type(value)}")
            elif value.shape != tensor.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{value.shape} from checkpoint, the shape in current model "
                              f"is {tensor.shape}.")
            elif assign:
                self._assign(name, tensor, value)
            else:
                if tensor.is_meta and not value.is_meta:
                    warnings.warn(f"for {key}: copying from a non-meta parameter in the "
                                  "checkpoint to a meta parameter in the current model, which "
                                  "is a no-op. (Did you mean to pass `assign=True` to assign "
                                  "items in the state dictionary to their corresponding key in "
                                  "the module instead of copying them in place?)", UserWarning,
                                  stacklevel=4)
                with no_grad():
                    tensor.copy_(value)
        for key in state_dict:
            if key.startswith(prefix):
                head, *rest = key[len(prefix):].split(".", 1)
                if (head not in self._modules) if rest else (head not in own):
                    unexpected.append(key)

    def _assign(self, name: str, current, value) -> None:
        """``load_state_dict(assign=True)``: ``value`` becomes the parameter or buffer."""
        if name in self._parameters:
            if not isinstance(value, Parameter):
                value = Parameter(value, requires_grad=current.requires_grad)
            self._parameters[name] = value
        else:
            self._buffers[name] = value

    # ---- printing --------------------------------------------------------

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The settings shown inside the parentheses, e.g. ``in_features=2, ...``."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): {_addindent(repr(module), 2)}"
                       for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"
