"""``torch.utils.checkpoint``: trade compute for memory. ``checkpoint(function, *args)``
runs ``function`` without keeping what its backward needs, and runs it again during the
backward to get those values back (the random state restored first, so dropout draws
the same masks).

Two ways, as in PyTorch. ``use_reentrant=True`` (the old default): the forward runs
under no_grad inside an autograd Function (``CheckpointFunctionBackward``), whose
backward re-runs it with grad and calls backward on that graph. ``use_reentrant=False``:
the forward builds its ordinary graph, but every tensor a node saves is packed as a
number (saved_tensors_hooks); the first unpacking in backward re-runs the function,
collecting the values it saves, in the same order.
"""

from __future__ import annotations

import warnings

import minigrad

from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.graph import saved_tensors_hooks
from ..tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]

_NO_REENTRANT_GIVEN = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants.")


def _detached(inputs: tuple) -> tuple:
    """Each tensor input detached, keeping whether it requires grad (a leaf of the rerun)."""
    return tuple(x.detach().requires_grad_(x.requires_grad) if isinstance(x, Tensor) else x
                 for x in inputs)


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward without a graph, backward by running it again."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        if preserve_rng_state:
            ctx.rng_state = minigrad.get_rng_state()
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*(a for a in args if isinstance(a, Tensor)))
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        inputs = _detached(tuple(inputs))
        state = minigrad.get_rng_state()
        if ctx.preserve_rng_state:
            minigrad.set_rng_state(ctx.rng_state)
        with enable_grad():
            outputs = ctx.run_function(*inputs)
        minigrad.set_rng_state(state)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        minigrad.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(x.grad if isinstance(x, Tensor) else None for x in inputs)


class _Recomputation:
    """One non-reentrant checkpointed call: its saved tensors packed as their positions,
    the function run again at the first unpacking."""

    def __init__(self, function, args, kwargs, rng_state) -> None:
        self.function, self.args, self.kwargs, self.rng_state = function, args, kwargs, rng_state
        self.count, self.values = 0, None

    def pack(self, tensor: Tensor) -> int:
        self.count += 1
        return self.count - 1

    def unpack(self, position: int) -> Tensor:
        if self.values is None:
            self.values = []
            state = minigrad.get_rng_state()
            if self.rng_state is not None:
                minigrad.set_rng_state(self.rng_state)
            with enable_grad(), saved_tensors_hooks(self.values.append, _unused):
                self.function(*self.args, **self.kwargs)
            minigrad.set_rng_state(state)
        return self.values[position]


def _unused(value):
    raise RuntimeError("torch.utils.checkpoint: unpack is being triggered for a tensor that "
                       "was already unpacked once.")


def checkpoint(function, *args, use_reentrant: bool | None = None,
               preserve_rng_state: bool = True, **kwargs):
    """``function(*args, **kwargs)``, its intermediate values recomputed in backward
    instead of kept. ``use_reentrant``: see the module's docstring (PyTorch warns when it
    is not given, and takes True)."""
    if use_reentrant is None:
        warnings.warn(_NO_REENTRANT_GIVEN, stacklevel=2)
        use_reentrant = True
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          stacklevel=2)
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    frame = _Recomputation(function, args, kwargs,
                           minigrad.get_rng_state() if preserve_rng_state else None)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        return function(*args, **kwargs)


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None,
                          **kwargs):
    """A Sequential (or list of modules) run as ``segments`` checkpointed chunks, the last
    one run normally (PyTorch's split)."""
    if use_reentrant is None:
        warnings.warn(_NO_REENTRANT_GIVEN, stacklevel=2)
        use_reentrant = True

    def run(start, end, functions):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    if isinstance(functions, minigrad.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run(start, end, functions), input, use_reentrant=use_reentrant,
                           **kwargs)
    return run(end + 1, len(functions) - 1, functions)(input)
