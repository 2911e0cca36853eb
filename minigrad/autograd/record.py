"""How an operation joins the graph: ``Node.apply``'s work.

``apply_to_arrays`` runs a node class's ``forward`` on NumPy arrays and, when grad
mode is on and an input requires grad, records the node: it keeps what the class's
``saves`` names, wraps the result in a Tensor whose ``grad_fn`` is the node, and links
the node to its inputs' nodes (``Node._link``). Most nodes are never recorded
(everything computed under ``no_grad``, and inside a plain backward), so a node gets
the state of a graph node only here.
"""

from __future__ import annotations

import numpy as np

from ..dtypes import DTYPE_OF
from ..kernels.float_errors import restore as restore_float_errors, silence as silence_float_errors
from ..kernels import meta as meta_arrays
from ..kernels.meta import MetaArray
from . import forward_ad, grad_mode, meta, profiler, tensor_base
from .packing import SAVED_TENSORS_HOOKS, keep
from .saved import saved_tensor
from .tensor_base import TensorBase, make

__all__ = ["apply_to_arrays", "as_arrays"]


def apply_to_arrays(cls, inputs, arrays, params: dict, inputs_match_output: bool = False,
                    profiled: bool = False, dual: bool = False, devices_checked: bool = False):
    """``cls.apply(*inputs, **params)`` once the NumPy values ``forward``
    receives are known (``arrays``, one per input; see ``as_arrays``). The
    elementwise ops' usual case comes here directly from ``rules.promotion.binary``
    and ``rules.promotion.unary`` (``x * y``, ``x.tanh()``), saying whether the operands
    that may need a gradient have the result's shape and dtype, with at least one
    dimension (``inputs_match_output``; see ``Node._link``). The first three ``if``s
    hand the call to what wraps it, each of which calls back here: while a profile
    runs, it is timed as one event (``profiler.run_op``); inside a forward AD level, the
    result gets its tangent (``forward_ad.run_op``); once meta tensors exist, an op on
    one gives meta tensors (``meta.run_op``)."""
    if profiler.enabled and not profiled:
        return profiler.run_op(apply_to_arrays, cls, inputs, arrays, params,
                               inputs_match_output)
    if forward_ad.active and not dual:
        return forward_ad.run_op(apply_to_arrays, cls, inputs, arrays, params,
                                 inputs_match_output, profiled)
    if meta_arrays.seen and not devices_checked:
        return meta.run_op(apply_to_arrays, cls, inputs, arrays, params, inputs_match_output,
                           profiled, dual)
    # Not __init__: most nodes are never recorded (everything computed under
    # no_grad, inside backward too), so only a recorded node gets the state
    # of a graph node (here and in _link).
    node = _new_object(cls)
    record = False
    if grad_mode._enabled:
        for x in inputs:
            # (``requires_grad`` for a view: its base may have joined the graph
            # by an in-place change since the view was made)
            if isinstance(x, TensorBase) and (x._requires_grad or (
                    x._view_version is not None and x.requires_grad)):
                record = True
                break
    if record:
        if SAVED_TENSORS_HOOKS:  # (torch makes the edges first: a changed view may be refused)
            for x in inputs:
                if isinstance(x, TensorBase) and x._view_version is not None:
                    x.grad_fn  # noqa: B018
        # What the class's ``saves`` names goes straight into _saved: the inputs and
        # keyword arguments first, then what forward's save() calls keep; _link adds
        # the output.
        node._saved = saved = {}
        for name, position, for_grad_of in cls._input_saves:
            x = inputs[position]
            if for_grad_of is not None and not (isinstance(inputs[for_grad_of], TensorBase)
                                                and inputs[for_grad_of]._requires_grad):
                saved[name] = None  # (only for a gradient nobody needs: as torch)
            elif isinstance(x, TensorBase):
                # (the array forward computes with: the input in the result dtype)
                # (inside saved_tensors_hooks: what pack() returns)
                saved[name] = keep(x, arrays[position]) if SAVED_TENSORS_HOOKS \
                    else saved_tensor(x, arrays[position])
            else:
                saved[name] = x
        if cls._param_saves:
            for name, default in cls._param_saves:
                saved[name] = params.get(name, default)
        node._forward_args = inputs
    else:
        node._forward_args = False  # save() keeps nothing
    # inf and nan come silently, as in torch (see float_errors.py)
    token = silence_float_errors() if cls.float_errors else None
    try:
        if params:
            result = node.forward(*arrays, **params)
        elif len(arrays) == 2:  # (a plain call: the quickest)
            result = node.forward(arrays[0], arrays[1])
        elif len(arrays) == 1:
            result = node.forward(arrays[0])
        else:
            result = node.forward(*arrays)
    finally:
        if token is not None:
            restore_float_errors(token)
    # A view shares memory, and so the version counter, with its base; it
    # remembers the version its grad_fn describes (see Tensor.grad_fn).
    if cls.is_view:
        base = inputs[0]
        version = base._version_counter
        if base._base is not None:
            base = base._base
        output = make(result, grad_fn=node if record else None, version=version, base=base)
        output._view_version = version.value
        # How it was made, as torch's creation_meta: a view made under no_grad (or
        # from a view made so, or by a custom Function) may not be changed in place
        # with grad mode on (see ops.inplace.check_inplace).
        output._view_made = _view_made(inputs[0])
        if not record:
            return output
    elif not record:
        return make(result)
    else:
        # (make(result, node), inline: this runs once per recorded op)
        if type(result) is not np.ndarray and type(result) is not MetaArray:
            result = np.asarray(result)
        output = _new_object(tensor_base.Tensor)
        output._data = result
        output.dtype = DTYPE_OF[result.dtype]
        output._grad_fn = node
        output._requires_grad = True
        output._output_nr = 0
        output._grad = output._accumulator = output._leaf_hooks = output._view_version = None
        output._version_cell = output._base = None
    node._forward_args = None  # (the inputs are not kept past forward)
    node._link(inputs, output, inputs_match_output)
    return output


def as_arrays(inputs, cast_to) -> list:
    """The NumPy values ``forward`` receives: each tensor's array, converted to
    the result dtype ``cast_to`` if needed; anything else (a number) as it is."""
    if cast_to is None:  # (the usual case: the inputs already have the result dtype)
        return [getattr(value, "_data", value) for value in inputs]
    target = cast_to.numpy
    arrays = []
    for value in inputs:
        data = getattr(value, "_data", None)
        if data is None:
            arrays.append(value)
        elif data.dtype != target:
            arrays.append(_cast(data, target))
        else:
            arrays.append(data)
    return arrays


def converted(data, target):
    """``data`` as the NumPy dtype ``target`` (itself when it is already): a number past a
    narrower float's range becomes inf, and a NaN or an infinity made an integer becomes
    what C's conversion gives, as PyTorch converts them, without NumPy's warning."""
    if _narrowing(data.dtype, target):
        with np.errstate(over="ignore", invalid="ignore"):
            return data.astype(target)
    return data.astype(target, copy=False)


def _narrowing(source, target) -> bool:
    """A conversion that may overflow to inf or meet a value it cannot hold: into float16
    from anything else, into float32 from float64 or a 64-bit integer, into an integer
    from a float (dtype= of sum, prod, cumsum)."""
    return (target == np.float16 and source != np.float16) or (
        target == np.float32 and source.itemsize == 8) or (
        source.kind == "f" and np.dtype(target).kind in "iu")


def _cast(data, target):
    """``data`` converted to the NumPy dtype ``target``. A wrapped Python number
    (a read-only 0-dim constant, as in ``x * 0.5``) is converted once, not per op."""
    if _narrowing(data.dtype, target):
        return converted(data, target)
    if data.ndim or data.flags.writeable or data.base is not None:
        return data.astype(target)
    key = (id(data), target)
    cached = _CASTS.get(key)
    if cached is None or cached[0] is not data:
        if len(_CASTS) >= 64:  # numbers that change every step must not pile up
            del _CASTS[next(iter(_CASTS))]
        cast = data.astype(target)
        cast.flags.writeable = False
        cached = _CASTS[key] = (data, cast)  # (holding ``data`` keeps its id unique)
    return cached[1]


_CASTS: dict = {}


_new_object = object.__new__


def _view_made(x) -> str:
    """How a view of ``x`` is made (torch's creation_meta, propagated from a view ``x``):
    in inference mode, under no_grad, or as ``x`` was (in grad mode; "grad mode" for a
    view of a tensor that is none). Inference mode's mark is kept by every view of it."""
    made = x._view_made if x._view_version is not None else "grad mode"
    if grad_mode._inference or made == "inference":
        return "inference"
    return made if grad_mode._enabled else "no_grad"

