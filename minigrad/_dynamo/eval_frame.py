"""``torch.compile`` without a compiler.

PyTorch's ``torch.compile`` captures a model's Python code as a graph (TorchDynamo),
splits it into a forward and a backward (AOTAutograd) and generates fused kernels
for both (Inductor). What a program sees of that is: the same numbers (to float
rounding), an ``OptimizedModule`` around a compiled module (its parameters named
``_orig_mod.weight``, ...), and one graph node for the whole compiled region,
``CompiledFunctionBackward``, whose edges go to the parameters and inputs the region
used. minigrad has no code generator; it keeps everything a program sees:

- the region runs eagerly, step by step, with grad mode on, building its own graph;
- that graph is hidden behind one node, ``CompiledFunctionBackward`` (a
  ``Function``), linked to the tensors the region started from, in the order the
  region first used them; its backward differentiates the hidden graph
  (``autograd.grad``), so ``.grad`` gets the same values as without compiling;
- a second derivative is refused as PyTorch refuses it, and a second backward
  without ``retain_graph=True`` fails as any other.

``backend="eager"`` (PyTorch's capture without AOTAutograd) leaves the eager graph
visible. A backend given as a function cannot be run: it expects the captured graph
(``torch.fx``), which minigrad does not make.
"""

from __future__ import annotations

import functools

from ..autograd.differentiate import grad as _grad
from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, is_grad_enabled
from ..func._tree import Spec, flatten, unflatten
from ..nn.module import Module
from ..tensor import Tensor
from .exc import InvalidBackend

__all__ = ["OptimizedModule", "optimize", "reset", "list_backends", "is_compiling", "disable",
           "allow_in_graph", "mark_dynamic", "mark_static"]

# The names torch._dynamo.list_backends(exclude_tags=()) gives in PyTorch 2.13; the
# default listing leaves out the ones tagged "debug" or "experimental".
_BACKENDS = {
    "aot_eager": "debug", "aot_eager_decomp_partition": "debug",
    "aot_eager_decomp_partition_crossref": "debug",
    "aot_eager_decomp_partition_with_mode": "debug", "aot_eager_default_partitioner": "debug",
    "aot_ts": "experimental", "cudagraphs": "", "eager": "debug", "eager_debug": "debug",
    "eager_noexcept": "debug", "inductor": "", "invoke_subgraph": "debug", "openxla": "",
    "openxla_eval": "experimental", "pre_dispatch_eager": "debug", "ts": "experimental",
    "tvm": "",
}
# (the backends that run the captured graph without AOTAutograd: no CompiledFunction node)
_EAGER_BACKENDS = {"eager", "eager_debug", "eager_noexcept", "pre_dispatch_eager"}
_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")

_compiling = 0  # how many compiled regions are running (torch.compiler.is_compiling)


def list_backends(exclude_tags=("debug", "experimental")) -> list:
    """The backend names ``torch.compile(backend=...)`` takes (as PyTorch lists them)."""
    return sorted(name for name, tag in _BACKENDS.items() if tag not in (exclude_tags or ()))


def compile(model=None, *, fullgraph: bool = False, dynamic=None, backend=None,  # noqa: A001
            mode=None, options=None, name=None, disable: bool = False, recompile_limit=None,
            isolate_recompiles: bool = False, shapes_spec=None):
    """``torch.compile``: ``model`` (a module or a function) as a compiled one, which
    computes the same values as one graph node (see above). Without ``model``: a
    decorator. ``backend`` None is "inductor"; the arguments about capturing and
    recompiling (``fullgraph``, ``dynamic``, ``options``, ...) are taken and change nothing."""
    if model is None:
        return functools.partial(compile, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                                 mode=mode, options=options, disable=disable)
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified "
                           "at the same time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if disable:
        return model
    optimized = optimize("inductor" if backend is None else backend)
    return OptimizedModule(model, optimized) if isinstance(model, Module) else optimized(model)


def optimize(backend="inductor", **_options):
    """``torch._dynamo.optimize(backend)``: a decorator that compiles a function."""
    if callable(backend):
        raise NotImplementedError(
            "minigrad.compile: a backend given as a function receives the captured graph "
            "(a torch.fx GraphModule), which minigrad does not make; minigrad runs a compiled "
            "region eagerly, with backend 'inductor', 'aot_eager' or 'eager'")
    if backend not in _BACKENDS:
        raise InvalidBackend(backend)
    hidden = backend not in _EAGER_BACKENDS

    def decorate(fn):
        @functools.wraps(fn)
        def compiled(*args, **kwargs):
            return _run_region(fn, args, kwargs, hidden)
        return compiled
    return decorate


def _run_region(fn, args: tuple, kwargs: dict, hidden: bool):
    """``fn(*args, **kwargs)``, its graph behind one CompiledFunctionBackward node."""
    global _compiling
    _compiling += 1
    try:
        if not (hidden and is_grad_enabled()):
            return fn(*args, **kwargs)
        with enable_grad():
            result = fn(*args, **kwargs)
    finally:
        _compiling -= 1
    return _CompiledRegion(args, kwargs, result).hide()


class _CompiledRegion:
    """A region's result and the tensors its graph starts from."""

    def __init__(self, args: tuple, kwargs: dict, result) -> None:
        self.leaves, self.spec = flatten(result) if isinstance(result, (tuple, list, dict)) \
            else ([result], Spec(None))
        self.outputs = [x for x in self.leaves if isinstance(x, Tensor)]
        self.differentiable = [x.requires_grad for x in self.outputs]
        arguments = [x for x in flatten((args, kwargs))[0] if isinstance(x, Tensor)]
        self.inputs = [x for x in arguments if not x.requires_grad] + _first_used(
            [x for x, d in zip(self.outputs, self.differentiable) if d],
            [x for x in arguments if x.requires_grad])

    def hide(self):
        """The result, its tensors made outputs of one CompiledFunction node."""
        if not any(self.differentiable):
            return unflatten(self.leaves, self.spec)
        hidden = iter(CompiledFunction.apply(self, *self.inputs))
        return unflatten([next(hidden) if isinstance(x, Tensor) else x for x in self.leaves],
                         self.spec)


def _first_used(outputs: list, arguments: list) -> list:
    """The tensors that require grad where the outputs' graph starts: leaves, and
    ``arguments`` made by earlier ops, in the order of the first node that used each
    (nodes are numbered as they are made; ``_sequence_nr``)."""
    stops = {(id(x.grad_fn), x.output_nr): x for x in arguments if x.grad_fn is not None}
    first = {}  # id(tensor) -> ((node number, edge), tensor)
    stack, seen = [], set()
    for x in outputs:
        start = stops.get((id(x.grad_fn), x.output_nr)) if x.grad_fn is not None else x
        if start is not None:  # (an argument or a leaf returned as it is)
            first.setdefault(id(start), ((-1, 0), start))
        else:
            stack.append(x.grad_fn)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for edge, (following, nr) in enumerate(node.next_functions):
            if following is None:
                continue
            tensor = stops.get((id(following), nr), getattr(following, "variable", None))
            if tensor is None:
                stack.append(following)
                continue
            key = (node._sequence_nr, edge)
            if id(tensor) not in first or key < first[id(tensor)][0]:
                first[id(tensor)] = (key, tensor)
    return [tensor for _, tensor in sorted(first.values(), key=lambda item: item[0])]


class CompiledFunction(Function):
    """A compiled region as one node (``CompiledFunctionBackward``): its inputs are the
    tensors the region started from; backward differentiates the region's own graph."""

    @staticmethod
    def forward(ctx, region, *inputs):
        ctx.region = region
        ctx.save_for_backward(*inputs)  # (freed by a backward: a second one fails as usual)
        for x, differentiable in zip(region.outputs, region.differentiable):
            if not differentiable:
                ctx.mark_non_differentiable(x)
        return tuple(x.detach() if d else x for x, d in zip(region.outputs,
                                                                region.differentiable))

    @staticmethod
    def backward(ctx, *grads):
        inputs = ctx.saved_tensors
        region = ctx.region
        pairs = [(x, g) for x, g, d in zip(region.outputs, grads, region.differentiable) if d]
        wanted = [x for x in inputs if x.requires_grad]
        found = iter(_grad([x for x, _ in pairs], wanted, [g for _, g in pairs],
                           retain_graph=True, allow_unused=True))
        results = [next(found) if x.requires_grad else None for x in inputs]
        if is_grad_enabled():  # (create_graph=True: PyTorch records a node that refuses)
            results = _refuse_double_backward(results, wanted)
        return (None, *results)


class CompiledFunctionBackward(Function):
    """The gradients a compiled region's backward gave with ``create_graph=True``: its
    node (``CompiledFunctionBackwardBackward``, as PyTorch's) refuses to go further."""

    @staticmethod
    def forward(ctx, results, *inputs):
        return tuple(results)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("torch.compile with aot_autograd does not currently support double "
                           "backward")


def _refuse_double_backward(results: list, inputs: list) -> list:
    """The gradients, recorded as outputs of a node whose backward raises PyTorch's error."""
    present = [g for g in results if g is not None]
    recorded = iter(CompiledFunctionBackward.apply(present, *inputs)) if present else iter(())
    return [next(recorded) if g is not None else None for g in results]


class OptimizedModule(Module):
    """What ``torch.compile(module)`` returns: the module as ``_orig_mod`` (so its
    parameters are named ``_orig_mod.weight``, ... in ``state_dict``), called through
    a compiled region. Other attributes are the original module's."""

    _OWN = frozenset({"_orig_mod", "dynamo_ctx", "forward", "training"})

    def __init__(self, mod: Module, dynamo_ctx) -> None:
        super().__init__()
        self._orig_mod = mod
        self.dynamo_ctx = dynamo_ctx
        self.forward = dynamo_ctx(mod.__call__)

    def __getattr__(self, name: str):
        modules = self.__dict__.get("_modules")
        if modules is None or "_orig_mod" not in modules:
            return super().__getattr__(name)
        if name == "_orig_mod":
            return modules["_orig_mod"]
        return getattr(modules["_orig_mod"], name)

    def __setattr__(self, name: str, value) -> None:
        modules = self.__dict__.get("_modules")
        if name in self._OWN or modules is None or "_orig_mod" not in modules:
            super().__setattr__(name, value)
        else:
            setattr(modules["_orig_mod"], name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._OWN:
            super().__delattr__(name)
        else:
            delattr(self._orig_mod, name)

    def __len__(self) -> int:  # (a compiled Sequential has the length of its layers)
        return len(self._orig_mod)


def reset() -> None:
    """``torch._dynamo.reset()``: forget compiled code (minigrad keeps none)."""


def is_compiling() -> bool:
    """True inside a compiled region, as PyTorch's while it captures one."""
    return _compiling > 0


def disable(fn=None, recursive: bool = True, *, reason=None):
    """``torch.compiler.disable``: ``fn`` run as it is, also inside a compiled region."""
    if fn is None:
        return functools.partial(disable, recursive=recursive, reason=reason)

    @functools.wraps(fn)
    def eager(*args, **kwargs):
        global _compiling
        outer, _compiling = _compiling, 0
        try:
            return fn(*args, **kwargs)
        finally:
            _compiling = outer
    return eager


def allow_in_graph(fn):
    """``torch.compiler.allow_in_graph``: ``fn`` itself (nothing is captured)."""
    return fn


def mark_dynamic(tensor, index, **_kwargs) -> None:
    """``torch._dynamo.mark_dynamic``: a hint for the capture; nothing to do here."""


def mark_static(tensor, index=None) -> None:
    """``torch._dynamo.mark_static``: a hint for the capture; nothing to do here."""
