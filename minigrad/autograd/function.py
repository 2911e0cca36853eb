"""Custom operations: subclass ``Function`` with a forward and a backward.

    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 3 * x ** 2

    y = Cube.apply(x)        # y.grad_fn: <minigrad.autograd.function.CubeBackward object at ...>

``forward`` runs with grad mode off; ``backward`` returns one gradient per
argument of ``forward`` (None for arguments that are not tensors or need no
gradient). ``ctx`` is the graph node itself, as in PyTorch.
"""

from __future__ import annotations

import functools

import numpy as np

from .. import errors
from . import forward_ad, grad_mode
from .node import Node
from .node_fidelity import counted_gradients
from .packing import PackedTensor, keep
from .saved import FREED as _FREED, SavedTensor
from .tensor_base import TensorBase, make

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable"]


class FunctionCtx:
    """What ``forward`` and ``backward`` call on ``ctx`` (as torch's FunctionCtx)."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward (read them back with ``ctx.saved_tensors``)."""
        self._saved_for_backward = tensors

    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved_for_backward
        if saved is _FREED:
            raise RuntimeError(errors.BACKWARD_TWICE)
        if saved is None:
            return ()
        return tuple(item.unpack(self) if isinstance(item, (SavedTensor, PackedTensor)) else item
                     for item in saved)

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs that should not require grad (e.g. indices)."""
        self.non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors) -> None:
        """Inputs that ``forward`` changed in place (and returns): their version moves on,
        and each becomes an output of this node, as after a built-in in-place op."""
        self.dirty_tensors = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value


class BackwardCFunction(FunctionCtx, Node):
    """A custom Function's node; it is also the ``ctx`` its forward and backward
    receive, as in torch (``CubeBackward`` is a subclass of it)."""

    _function: type  # the user's Function subclass
    formula_on_arrays = False  # the user's backward is written for Tensors

    def __init__(self) -> None:
        super().__init__()
        self._saved_for_backward: tuple | None = None
        self._tensor_positions: tuple = ()
        self.needs_input_grad: tuple = ()
        self.non_differentiable: set = set()
        self.dirty_tensors: tuple = ()
        self.materialize_grads = True

    def __repr__(self) -> str:  # (a Python class of torch.autograd.function in torch too)
        return f"<{type(self).__module__}.{type(self).__qualname__} object at {hex(id(self))}>"

    def release_saved(self) -> None:
        super().release_saved()
        if self._saved_for_backward is not None:
            self._saved_for_backward = _FREED

    def backward(self, saved, *grad_outputs):  # (saved: the ctx keeps its own)
        if self.materialize_grads:
            grad_outputs = _materialized(grad_outputs, self._output_meta)
        else:  # (set_materialize_grads(False): None where no gradient came)
            grad_outputs = tuple(grad_outputs) + (None,) * (len(self._output_meta)
                                                            - len(grad_outputs))
        grads = counted_gradients(self, _extra_nones_dropped(
            self._function.backward(self, *grad_outputs), len(self.needs_input_grad)),
            len(self.needs_input_grad))
        for i, grad in enumerate(grads):
            if grad is not None and i not in self._tensor_positions:
                raise RuntimeError(errors.GRADIENT_FOR_NUMBER.format(name=self.name(), i=i + 1))
        return tuple(grads[i] for i in self._tensor_positions)


def _extra_nones_dropped(grads, count: int):
    """A custom backward may return more gradients than forward took inputs, as long as
    the extra ones are None (as in torch: they are dropped); else the count is wrong."""
    if isinstance(grads, tuple) and len(grads) > count and all(g is None for g in grads[count:]):
        return grads[:count]
    return grads


def _materialized(grad_outputs, output_meta) -> tuple:
    """Outputs that received no gradient get zeros (PyTorch's materialize_grads)."""
    return tuple(
        grad_outputs[i] if i < len(grad_outputs) and grad_outputs[i] is not None
        else (make(np.zeros(tuple(meta[0]), meta[1].numpy)) if meta is not None else None)
        for i, meta in enumerate(output_meta))


class _FunctionMeta(type):
    """Gives each Function subclass its node class, named ``<Name>Backward``."""

    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        cls._backward_cls = type(f"{name}Backward", (BackwardCFunction,), {"_function": cls})


class Function(metaclass=_FunctionMeta):
    """Base class for custom differentiable operations (see the module docstring)."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement the backward function for custom Function.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """Forward mode: the outputs' tangents from the inputs' (``forward_ad``)."""
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Written instead of taking ``ctx`` in ``forward``: keep what backward needs."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args):
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, TensorBase) and a.requires_grad for a in args)
        recording = grad_mode.is_grad_enabled() and any(ctx.needs_input_grad)
        if recording:  # (as torch: the node and its edges first, then forward)
            tensor_positions = [i for i, a in enumerate(args) if isinstance(a, TensorBase)]
            ctx._tensor_positions = tuple(tensor_positions)
            ctx._link([args[i] for i in tensor_positions], None)
        with grad_mode.no_grad(), forward_ad.paused():
            outputs = _forward(cls, ctx, args)
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        if not recording:
            for tensor in ctx.dirty_tensors:
                tensor._bump_version()
            _check_dirty_returned(ctx, outputs)
            # (an input returned as it is comes back as an alias that needs no grad)
            outputs = tuple(o.detach() if any(o is a for a in args) and not any(
                o is t for t in ctx.dirty_tensors) else o for o in outputs)
            return _with_tangents(cls, ctx, args, outputs, single)
        ctx.needs_input_grad = tuple(isinstance(a, TensorBase) and a.requires_grad for a in args)
        ctx._output_meta = tuple((o.shape, o.dtype) if isinstance(o, TensorBase) else None
                                 for o in outputs)
        ctx._output_count = len(outputs)
        wrapped = []
        for nr, out in enumerate(outputs):
            if not _differentiable(out, ctx):
                wrapped.append(out)
            elif any(out is t for t in ctx.dirty_tensors):
                wrapped.append(_dirty(out, ctx, nr, args))
            else:
                wrapped.append(_output(out, ctx, nr, args))
        _check_dirty_returned(ctx, outputs)
        if ctx._saved_for_backward is not None:
            _check_saved(ctx._saved_for_backward)
            # (a saved output comes back with this node as its grad_fn; one marked
            # non-differentiable, or not a float, is saved as any tensor: no grad_fn)
            by_id = {id(out): new for out, new in zip(outputs, wrapped)
                     if _differentiable(out, ctx)}
            ctx._saved_for_backward = tuple(
                _save(t, by_id) for t in ctx._saved_for_backward
            )
        return _with_tangents(cls, ctx, args, tuple(wrapped), single)


def _differentiable(out, ctx) -> bool:
    """Whether the Function's output ``out`` becomes an output of its node: a float
    tensor not marked non-differentiable."""
    return isinstance(out, TensorBase) and id(out) not in ctx.non_differentiable \
        and out.dtype.is_floating_point


def _with_tangents(cls, ctx, args, outputs, single):
    """The outputs, given tangents by ``cls.jvp`` when an input is a dual tensor (it
    receives one tangent per input: zeros for a tensor without one, None for a non-tensor)."""
    if forward_ad.active:
        tangents = [forward_ad.tangent_of(a) if isinstance(a, TensorBase) else None for a in args]
        if any(t is not None for t in tangents):
            tangents = [make(np.zeros_like(a._data)) if t is None and isinstance(a, TensorBase)
                        else t for a, t in zip(args, tangents)]
            with forward_ad.paused():
                results = cls.jvp(ctx, *tangents)
            results = results if isinstance(results, tuple) else (results,)
            for out, tangent in zip(outputs, results):
                if isinstance(out, TensorBase) and tangent is not None:
                    forward_ad.set_tangent(out, tangent)
    return outputs[0] if single else outputs


def _forward(cls, ctx, args):
    """``forward(ctx, *args)``, or ``forward(*args)`` then ``setup_context(ctx, args,
    output)`` for a Function that defines ``setup_context`` (PyTorch 2's style)."""
    if cls.setup_context is Function.setup_context:
        return cls.forward(ctx, *args)
    output = cls.forward(*args)
    cls.setup_context(ctx, args, output)
    return output


def _check_saved(values) -> None:
    for i, value in enumerate(values):
        if value is not None and not isinstance(value, TensorBase):
            raise TypeError("save_for_backward can only save variables, but argument "
                            f"{i} is of type {type(value).__name__}")


def _check_dirty_returned(ctx, outputs) -> None:
    """Every tensor marked dirty must be among the outputs, as PyTorch checks once they
    are wrapped (recorded or not)."""
    if not all(any(o is t for o in outputs) for t in ctx.dirty_tensors):
        raise RuntimeError(errors.DIRTY_NOT_RETURNED)


def _dirty(out, ctx, nr, args):
    """An input ``forward`` changed in place and marked dirty: refused on a leaf that
    requires grad (PyTorch's text), else it becomes output ``nr`` of ``ctx`` (through
    CopySlices on its base, for a view), its version moved on. A tensor marked dirty that
    was no input gets PyTorch's warning (its error, for a view)."""
    if out._grad_fn is None and out.requires_grad:  # (its node as it is: torch's is_leaf)
        out._bump_version()
        raise RuntimeError(errors.LEAF_INPLACE_CUSTOM)
    if not any(out is a for a in args):
        if out._base is not None:
            raise RuntimeError(errors.DIRTY_NOT_INPUT)
        errors.warn(errors.DIRTY_NOT_INPUT, stacklevel=3)
    out._rebase_history(ctx, nr)
    return out


def _output(out, ctx, nr, args):
    """The Function's output ``out`` recorded as output ``nr`` of its node. An output
    that is a view (made in forward), or an input returned as it is, stays a view of
    that memory, as in torch, and may not be changed in place: that would override
    the custom backward (torch's IN_CUSTOM_FUNCTION views)."""
    returned_as_is = any(out is a for a in args)
    if out._view_version is None and not returned_as_is:
        return make(out._data, grad_fn=ctx, output_nr=nr, version=out._version_counter)
    base = out._base if out._base is not None else out
    view = make(out._data, grad_fn=ctx, output_nr=nr, version=out._version_counter, base=base)
    view._view_version = view._version_counter.value
    view._view_made = "custom Function"
    return view


def _save(value, outputs_by_id):
    if not isinstance(value, TensorBase):
        return value
    if id(value) in outputs_by_id:
        output = outputs_by_id[id(value)]
        return keep(output, output._data, is_output=True)
    return keep(value, value._data)


class Error(Node):
    """``once_differentiable``'s node (PyTorch's DelayedError, named ``Error``): the
    gradients it passes on may not be differentiated again."""

    formula_on_arrays = False

    def forward(self, x):
        return x

    def backward(self, saved, grad):
        raise RuntimeError(errors.ONCE_DIFFERENTIABLE)

    def name(self) -> str:
        return "torch::autograd::Error"


def once_differentiable(backward):
    """Decorate a custom Function's ``backward`` that cannot itself be differentiated:
    it runs in no_grad, and under ``create_graph=True`` its gradients get an ``Error``
    node, so differentiating them again raises (as torch's decorator)."""
    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = backward(ctx, *grads)
        if not grad_mode.is_grad_enabled() or not any(
                isinstance(g, TensorBase) and g.requires_grad for g in grads):
            return outputs
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        return tuple(None if g is None else Error.apply(make(g._data, requires_grad=True))
                     for g in outputs)
    return wrapper
