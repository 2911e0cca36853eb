"""``torch.jit``: TorchScript's ``script``, ``trace``, ``save`` and ``load``, run as Python.

PyTorch compiles a scripted or traced module to TorchScript, a typed subset of Python
run by its own interpreter. minigrad has no such interpreter: a scripted or traced
module runs its class's own ``forward`` (and the methods it calls) on the scripted
copy's parameters, buffers, submodules and attributes, so it computes what PyTorch's
compiled module computes, and it looks as PyTorch's does: ``RecursiveScriptModule``
(``TopLevelTracedModule``, ``TracedModule``) with ``original_name=``, its parameters
shared with the module it was made from, its own ``training`` flags, ``save``/``load``.

What differs, because nothing is compiled here:
- PyTorch refuses what TorchScript cannot compile (closures over lists, ``**kwargs``,
  most Python objects); minigrad runs it;
- a traced function keeps its Python control flow (PyTorch's trace replays the ops of
  the example's path, whatever later inputs are), and tracing runs it three times, as
  PyTorch's trace and its check do (PyTorch draws once more for a random op inside);
  a traced call records the nodes eager code records, where PyTorch's replayed trace
  takes the number overloads (``x * 2``: ``MulBackward1``, eager ``MulBackward0``);
- ``.code``, ``.graph`` and ``.inlined_graph`` (TorchScript's text) raise an error;
- ``save`` writes ``torch.save``'s format with the module pickled, so ``load`` needs the
  module's class importable, as ``torch.load`` of a whole module does; PyTorch's
  TorchScript archives cannot be read.

This is the top floor, written on minigrad's public API as ``nn`` is.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import types
import typing
import warnings
from contextlib import contextmanager

import minigrad
from minigrad import nn, tracing
from minigrad.tracing import TracerWarning  # noqa: F401 (torch.jit.TracerWarning)

__all__ = ["script", "trace", "trace_module", "save", "load", "freeze", "optimize_for_inference",
           "ignore", "unused", "export", "interface", "is_scripting", "is_tracing", "annotate",
           "fork", "wait", "script_if_tracing", "optimized_execution", "Final", "Attribute",
           "ScriptModule", "RecursiveScriptModule", "ScriptFunction", "TracerWarning", "Error",
           "Future", "enable_onednn_fusion", "onednn_fusion_enabled", "set_fusion_strategy"]

Final = typing.Final
Error = RuntimeError  # (torch.jit.Error: TorchScript's runtime errors)


def _deprecated(name: str, instead: str = "Please switch to `torch.compile` or "
                                          "`torch.export`.") -> None:
    # (PyTorch 2.13 warns from its own module, so Python's filters hide it by default)
    warnings.warn(f"`torch.jit.{name}` is deprecated. {instead}", DeprecationWarning)


_NO_SOURCE = ("minigrad's torch.jit runs the module's Python and compiles nothing: there is "
              "no TorchScript {} to show")


# ---- modules --------------------------------------------------------------------------

class ScriptModule(nn.Module):
    """Base class of scripted and traced modules (``torch.jit.ScriptModule``)."""

    def save(self, f, _extra_files=None) -> None:
        """Write the module (``torch.save``'s format, the module pickled; a traced one
        is loaded back as a ``RecursiveScriptModule``, as PyTorch's)."""
        minigrad.save(_as_scripted(self), f)

    def save_to_buffer(self, _extra_files=None) -> bytes:
        buffer = io.BytesIO()
        self.save(buffer)
        return buffer.getvalue()

    @property
    def code(self) -> str:
        raise RuntimeError(_NO_SOURCE.format("code"))

    @property
    def graph(self):
        raise RuntimeError(_NO_SOURCE.format("graph"))

    inlined_graph = code_with_constants = graph


class _ScriptedCopy(ScriptModule):
    """A scripted or traced copy of a module: an instance of a class made once per
    module class, whose bases are this kind and the module's own class, so that the
    module's ``forward``, methods, properties and ``super()`` calls run on the copy.
    The copy's tables: parameters and buffers shared with the module it was made from,
    submodules copied in turn, the other attributes copied, its own ``training``."""

    _child_kind = None  # the kind of the submodules' copies (set below)

    def forward(self, *args, **kwargs):
        # (the module's own forward; compiled in PyTorch, so never a TracerWarning)
        with tracing.paused():
            return super(ScriptModule, self).forward(*args, **kwargs)

    def extra_repr(self) -> str:
        return f"original_name={self.original_name}"

    def __reduce__(self):  # (the class is made at run time: rebuilt from its parts)
        return _rebuild, (type(self).__bases__, self.__dict__)


_COPY_CLASSES: dict = {}  # (kind, module class) -> the class of such copies


def _copy_class(bases: tuple) -> type:
    if bases not in _COPY_CLASSES:
        kind = bases[0]
        _COPY_CLASSES[bases] = type(kind.__name__, bases, {"__module__": kind.__module__,
                                                          "__qualname__": kind.__qualname__})
    return _COPY_CLASSES[bases]


def _copy_of(kind, module: nn.Module) -> _ScriptedCopy:
    cls = _copy_class((kind, type(module)))
    copied = cls.__new__(cls)
    nn.Module.__init__(copied)
    state = copied.__dict__
    for name, value in module.__dict__.items():  # (settings such as in_features, a
        state[name] = value.copy() if isinstance(value, dict) else value  # constant k; hooks)
    state.update(training=module.training, _parameters=dict(module._parameters),
                 _buffers=dict(module._buffers), original_name=type(module).__name__,
                 _non_persistent_buffers_set=set(module._non_persistent_buffers_set),
                 _modules={name: _child_copy(kind, child) for name, child in module._modules.items()})
    return copied


def _child_copy(kind, child):
    """A submodule's copy; one scripted or traced already is kept itself, as PyTorch
    keeps it (the tutorial's MyCell around a scripted MyDecisionGate)."""
    if child is None or isinstance(child, ScriptModule):
        return child
    return _copy_of(kind._child_kind, child)


def _rebuild(bases: tuple, state: dict) -> _ScriptedCopy:
    cls = _copy_class(bases)
    made = cls.__new__(cls)
    made.__dict__.update(state)
    return made


def _as_scripted(module):
    """A traced module's tree as scripted modules (what PyTorch loads a trace as)."""
    if not isinstance(module, TracedModule):
        return module
    state = dict(module.__dict__, _modules={
        name: _as_scripted(child) for name, child in module._modules.items()})
    return _rebuild((RecursiveScriptModule, type(module).__bases__[1]), state)


class RecursiveScriptModule(_ScriptedCopy):
    """``torch.jit.script(module)``'s result, shown as PyTorch shows it."""

    def _get_name(self) -> str:
        return "RecursiveScriptModule"


class TracedModule(_ScriptedCopy):
    """A traced module's submodule, shown under its class's own name. (Its containers
    cannot be indexed, as PyTorch's traced ones.)"""

    def __getitem__(self, index):
        raise TypeError(f"'{type(self).__name__}' object is not subscriptable")

    def _get_name(self) -> str:
        return self.original_name


class TopLevelTracedModule(TracedModule):
    """``torch.jit.trace(module, ...)``'s result."""


RecursiveScriptModule._child_kind = RecursiveScriptModule
TopLevelTracedModule._child_kind = TracedModule._child_kind = TracedModule


class _FrozenModule(RecursiveScriptModule):
    """``torch.jit.freeze``'s result: the parameters and submodules folded into the
    code as constants (none shown, none to train, no ``training`` flag)."""

    def __init__(self, scripted: _ScriptedCopy) -> None:
        nn.Module.__init__(self)
        inner = copy.deepcopy(scripted)
        for tensor in list(inner.parameters()) + list(inner.buffers()):
            tensor.requires_grad_(False)
        self.__dict__.update(_inner=inner, original_name=scripted.original_name)
        del self.__dict__["training"]

    def forward(self, *args, **kwargs):
        return self._inner(*args, **kwargs)



_FrozenModule.__name__ = _FrozenModule.__qualname__ = "RecursiveScriptModule"  # (as PyTorch's)


# ---- functions ------------------------------------------------------------------------

class ScriptFunction:
    """A scripted or traced function: calling it calls the Python function."""

    def __init__(self, fn) -> None:
        self._fn = fn
        self.__name__ = self.name = getattr(fn, "__name__", "fn")
        self.qualified_name = f"__torch__.{self.__name__}"

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    code = ScriptModule.code
    graph = inlined_graph = ScriptModule.graph

    def save(self, f, _extra_files=None) -> None:
        minigrad.save(self, f)


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """``torch.jit.script``: a module becomes a ``RecursiveScriptModule``, a function a
    ``ScriptFunction``; a class is returned as it is."""
    _deprecated("script")
    if optimize is not None:
        warnings.warn("`optimize` is deprecated and has no effect. Use `with "
                      "torch.jit.optimized_execution()` instead", FutureWarning, stacklevel=2)
    if isinstance(obj, (ScriptModule, ScriptFunction)):
        return obj
    if isinstance(obj, nn.Module):
        return _copy_of(RecursiveScriptModule, obj)
    if isinstance(obj, (types.FunctionType, types.MethodType)):
        return ScriptFunction(obj)
    if isinstance(obj, type) and issubclass(obj, nn.Module):
        raise RuntimeError(f"Type '{obj}' cannot be compiled since it inherits from "
                           "nn.Module, pass an instance instead")
    if not isinstance(obj, (type, list, tuple, dict)) and type(obj).__module__ == "builtins":
        raise TypeError(f"{type(obj)} is a built-in class")
    return obj  # (a class, or a value: TorchScript takes them as they are)


def _example_args(example_inputs) -> tuple:
    return example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None, _store_inputs=True):
    """``torch.jit.trace``: the function or module run on the example (three times with
    ``check_trace``: the trace, then the check's run of the trace and of the Python), and
    returned as a ``ScriptFunction`` or a ``TopLevelTracedModule`` (module's method:
    ``trace_module``)."""
    _deprecated("trace")
    if isinstance(func, ScriptModule):
        return func
    if example_inputs is None and example_kwarg_inputs is None:
        raise RuntimeError("example_kwarg_inputs or example_inputs must be provided when "
                           "tracing a function or module")
    kwargs = example_kwarg_inputs is not None
    example = example_kwarg_inputs if kwargs else example_inputs
    if isinstance(func, nn.Module):
        return trace_module(func, {"forward": example}, check_trace=check_trace,
                            example_inputs_is_kwarg=kwargs)
    for run in range(3 if check_trace else 1):
        with _traced_or_not(run):
            func(**example) if kwargs else func(*_example_args(example))
    if check_trace:  # (PyTorch's check traces once more, and warns once more)
        _deprecated("trace")
    return ScriptFunction(func)


def trace_module(mod, inputs: dict, optimize=None, check_trace=True, check_inputs=None,
                 check_tolerance=1e-5, strict=True, _force_outplace=False,
                 _module_class=None, _compilation_unit=None, example_inputs_is_kwarg=False,
                 _store_inputs=True):
    """``torch.jit.trace_module``: each named method run on its example."""
    _deprecated("trace_method")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    for method, example in inputs.items():
        call = getattr(mod, method)
        for run in range(3 if check_trace else 1):
            if run == 1:  # (the check traces again, and warns again, after the trace)
                _deprecated("trace_method")
            with _traced_or_not(run):
                call(**example) if example_inputs_is_kwarg else call(*_example_args(example))
    return _copy_of(TopLevelTracedModule, mod)


def _traced_or_not(run: int):
    """The trace's run and its check's trace are traced (a tensor turned into a Python
    value warns, as PyTorch's tracer warns); the check's third, eager run is not."""
    return tracing.traced_run() if run < 2 else contextlib.nullcontext()


def save(m, f, _extra_files=None) -> None:
    """``torch.jit.save``: ``m.save(f)``."""
    _deprecated("save", "Please switch to `torch.export`.")
    m.save(f, _extra_files=_extra_files)


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """``torch.jit.load``: a module or function written by ``save``."""
    _deprecated("load", "Please switch to `torch.export`.")
    loaded = minigrad.load(f, map_location=map_location, weights_only=False)
    if not isinstance(loaded, (ScriptModule, ScriptFunction)):
        raise RuntimeError("minigrad's torch.jit.load reads what minigrad's torch.jit.save "
                           "wrote (a scripted or traced module)")
    return loaded


def freeze(mod, preserved_attrs=None, optimize_numerics: bool = True):
    """``torch.jit.freeze``: an eval-mode scripted module with its parameters folded in."""
    _deprecated("freeze", "Please use `torch.compile` instead.")
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use "
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval "
                           "mode. Please call .eval() on your module before freezing.")
    return _FrozenModule(mod)


def optimize_for_inference(mod, other_methods=None):
    """``torch.jit.optimize_for_inference``: frozen (if it was not), nothing else."""
    _deprecated("optimize_for_inference", "Please use `torch.compile` instead.")
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("optimize_for_inference expects a ScriptModule as input. Please "
                           "use torch.jit.script or torch.jit.trace to script your "
                           "'nn.Module'.")
    return mod if isinstance(mod, _FrozenModule) else freeze(mod.eval())


# ---- decorators and helpers that only mark code for the compiler ------------------------

def _marker(fn=None, **_):
    """A decorator, with or without arguments, that returns the function unchanged."""
    return fn if callable(fn) else _marker


ignore = unused = _marker


def export(fn):
    return fn


def interface(obj):
    return obj


def script_if_tracing(fn):
    """A wrapper that calls ``fn`` (PyTorch's scripts it when called inside a trace)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


def is_scripting() -> bool:
    """False: nothing runs as TorchScript here."""
    return False


def is_tracing() -> bool:
    """False: a traced function runs as Python here."""
    return False


def annotate(the_type, the_value):
    return the_value


def Attribute(value, type):  # noqa: A002,N802 (PyTorch's names)
    return value


class Future:
    """``torch.jit.fork``'s result: the value, computed when forked (minigrad runs one
    thread of Python)."""

    def __init__(self, value) -> None:
        self._value = value

    def wait(self):
        return self._value

    value = wait

    def done(self) -> bool:
        return True


def fork(func, *args, **kwargs) -> Future:
    return Future(func(*args, **kwargs))


def wait(future: Future):
    return future.wait()


@contextmanager
def optimized_execution(should_optimize: bool):
    yield


_fusion = {"onednn": False}


def enable_onednn_fusion(enabled: bool) -> None:
    _fusion["onednn"] = bool(enabled)


def onednn_fusion_enabled() -> bool:
    return _fusion["onednn"]


def set_fusion_strategy(strategy):
    """The previous strategy (PyTorch's default), as PyTorch returns it."""
    return [("STATIC", 2), ("DYNAMIC", 10)]
