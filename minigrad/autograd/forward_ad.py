"""``torch.autograd.forward_ad``: forward-mode AD with dual tensors.

A *dual tensor* is a value ``x`` travelling with a *tangent* ``t``, a direction. Every op
``y = f(x)`` that meets a dual tensor also computes ``y``'s tangent ``J t`` (J: the Jacobian
of f at x), right away, during the forward pass: no graph, no backward walk::

    with fwAD.dual_level():
        x = fwAD.make_dual(primal, tangent)
        y = f(x)
        jvp = fwAD.unpack_dual(y).tangent      # J tangent

How an op gets ``J t`` here: from the backward formula it already has. A node's backward
maps a gradient ``v`` to ``Jᵀ v``, which is linear in ``v``; so ``<Jᵀ v, t>`` is a linear
function of ``v`` whose gradient (with respect to ``v``) is ``J t``: the "double backward
trick" (``jvp_of`` below: one backward with ``create_graph=True``, then one more). Every op
whose backward can be differentiated gets a tangent this way, with no second formula to
write or keep in step (NOTES.md says why; PyTorch writes a JVP formula per op instead, so
tangents agree with PyTorch's to float rounding, not always bit for bit).

Where it is read: ``record.apply_to_arrays`` (every op) calls ``run_op`` while a level is
active, the nodes of several outputs call ``run_several``; an in-place op moves its result's
tangent into the tensor it changed (``move_tangent``, from ``ops/inplace.py``), and a custom
Function's ``jvp`` gives its outputs theirs (``autograd/function.py``).

Only one level exists at a time, as in PyTorch ("Nested forward mode AD is not
supported"); ``torch.func.jvp`` (``minigrad/func``) nests instead. The tangents live in
``_tangents``, a table keyed by the tensor, emptied when the level ends.
"""

from __future__ import annotations

import weakref
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from ..kernels.layout import geometry
from . import differentiate, grad_mode, profiler
from .tensor_base import TensorBase, make

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

_current_level = -1
active = False  # a level exists and ops propagate tangents (read by record.apply_to_arrays)
_tangents: dict = {}  # id(tensor) -> (weak reference to the tensor, its tangent)


# ---- levels -------------------------------------------------------------------------

def enter_dual_level() -> int:
    """Start the (one) forward AD level; tangents exist until it ends."""
    global _current_level, active
    if _current_level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _current_level, active = 0, True
    return 0


def exit_dual_level(*, level=None) -> None:
    """End the level: every tangent made in it is forgotten."""
    global _current_level, active
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one "
                           "that was created. This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    _tangents.clear()
    _current_level, active = level - 1, False


class dual_level:
    """``with dual_level():`` enters a level and exits it at the end (also a decorator)."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()

    def __call__(self, function):
        def decorated(*args, **kwargs):
            with dual_level():
                return function(*args, **kwargs)
        return decorated


@contextmanager
def paused():
    """No tangents computed inside (a custom Function's forward, a JVP's own ops)."""
    global active
    previous, active = active, False
    try:
        yield
    finally:
        active = previous


# ---- dual tensors -------------------------------------------------------------------

class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: the value and its tangent (None if it has none)."""

    primal: TensorBase
    tangent: TensorBase | None


def tangent_of(tensor):
    """``tensor``'s tangent at the current level, or None."""
    if not active:
        return None
    entry = _tangents.get(id(tensor))
    return None if entry is None or entry[0]() is not tensor else entry[1]


def set_tangent(tensor, tangent) -> None:
    key = id(tensor)
    _tangents[key] = (weakref.ref(tensor, lambda _, key=key: _tangents.pop(key, None)), tangent)


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` that carries ``tangent`` (kept as it is when its layout is
    ``tensor``'s, else copied into that layout).

    >>> import minigrad as torch
    >>> fwAD = torch.autograd.forward_ad
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(torch.tensor([0., 1.]), torch.tensor([1., 1.]))
    ...     print(x.sin())
    tensor([0.0000, 0.8415], tangent=tensor([1.0000, 0.5403]))
    """
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level "
                           "exists, make sure to enter_dual_level() first.")
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{tangent.dtype}")
    if level != _current_level:
        raise RuntimeError("Invalid level given to _make_dual")
    if tensor.shape != tangent.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(tensor.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}.")
    if tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    if tangent._data.strides != tensor._data.strides:
        copied = np.empty_like(tensor._data, dtype=tangent._data.dtype)
        copied[...] = tangent._data
        tangent = make(copied)
    with paused():
        dual = tensor.view_as(tensor)
    set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None) -> UnpackedDualTensor:
    """``(primal, tangent)``: a view of ``tensor`` without the tangent, and the tangent."""
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if not isinstance(tensor, TensorBase):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    tangent = tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with paused():
        primal = tensor.view_as(tensor)
    return UnpackedDualTensor(primal, tangent)


def share_tangent(source, copy) -> None:
    """``copy`` (a copy of ``source``'s values) gets ``source``'s tangent."""
    tangent = tangent_of(source)
    if tangent is not None:
        set_tangent(copy, tangent)


def move_tangent(result, x) -> None:
    """An in-place op wrote ``result`` into ``x``: ``x`` takes ``result``'s tangent, and
    when ``x`` is a view, the viewed part of its base's tangent changes too (a base
    without one gets zeros elsewhere)."""
    tangent = tangent_of(result)
    if tangent is None:
        return
    own, old = tangent_of(x), tangent_of(x._base)
    set_tangent(x, tangent)
    base = x._base
    # (a view with a tangent of its own, as make_dual makes, leaves a base without one)
    if base is None or not base._data.flags.c_contiguous or (own is not None and old is None):
        return
    full = np.zeros_like(base._data) if old is None else old._data.astype(base._data.dtype)
    sizes, strides, offset = geometry(x._data)
    start = offset - geometry(base._data)[2]
    region = np.lib.stride_tricks.as_strided(
        full.reshape(-1)[start:], sizes, [s * full.itemsize for s in strides])
    region[...] = tangent._data
    set_tangent(base, make(full))


def refuse_backward_through_duals(outputs) -> None:
    """A recorded backward (create_graph=True) from a dual tensor would give gradients
    with only part of their tangents (values a forward kept as arrays are not dual):
    refused, where PyTorch computes forward over reverse. (A plain backward gives the
    gradients, without tangents.)"""
    outputs = (outputs,) if isinstance(outputs, TensorBase) else outputs
    if any(tangent_of(out) is not None for out in outputs):
        raise NotImplementedError(
            "minigrad: a create_graph=True backward from a dual tensor (forward mode over "
            "reverse mode) is not supported. For the tangent of a gradient use torch.func: "
            "torch.func.jvp(torch.func.grad(f), (x,), (tangent,)); the gradient of a tangent "
            "(unpack_dual(y).tangent.backward()) works.")


# ---- tangents through an op: the double backward trick -------------------------------

def run_op(apply, cls, inputs, arrays, params, inputs_match_output, profiled):
    """``apply(cls, ...)`` (record.apply_to_arrays), then the result's tangent, when an
    input has one."""
    output = apply(cls, inputs, arrays, params, inputs_match_output, profiled, dual=True)
    tangents = [tangent_of(x) if isinstance(x, TensorBase) else None for x in inputs]
    if any(t is not None for t in tangents):
        def again(proxies):  # the same op, on inputs that require grad
            return apply(cls, proxies, arrays, params, False, True, dual=True)
        push_tangents(again, inputs, arrays, (output,), tangents, profiler.aten_name(cls)[6:])
    return output


def run_several(cls, inputs, params, outputs) -> None:
    """The tangents of a node with several outputs (``split``, ``var_mean``, ``svd``): the
    node is run again with ``cls.apply``."""
    tangents = [tangent_of(x) if isinstance(x, TensorBase) else None for x in inputs]
    if any(t is not None for t in tangents):
        arrays = [x._data if isinstance(x, TensorBase) else x for x in inputs]
        push_tangents(lambda proxies: cls.apply(*proxies, **params), inputs, arrays, outputs,
                      tangents, profiler.aten_name(cls)[6:])


_NO_FORWARD_AD = (  # (an op whose backward cannot be differentiated, or that has none)
    "Trying to use forward AD with {name} that does not support it because it has not been "
    "implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/"
    "issues/new?template=feature-request.yml so that we can prioritize its implementation or "
    "submit a PR adding the implementation to derivatives.yaml")


def push_tangents(again, inputs, arrays, outputs, tangents, name: str = "this op") -> None:
    """Give each floating-point output its tangent ``J t``, where ``again(proxies)`` runs
    the op once more on inputs standing for ``inputs`` (``proxies``), recorded, to read its
    backward. The tangent is itself differentiable (has a graph) when a primal or a tangent
    requires grad and grad mode is on, as in PyTorch."""
    wanted = [out for out in outputs if out.dtype.is_floating_point]
    if not wanted:
        return
    graph = grad_mode.is_grad_enabled() and any(
        getattr(x, "requires_grad", False) for x in (*inputs, *tangents))
    with paused(), grad_mode.enable_grad():
        try:
            results = jvp_of(again, inputs, arrays, tangents, graph)
        except RuntimeError as error:  # (NotImplementedError is one)
            if not (isinstance(error, NotImplementedError)
                    or str(error).startswith("derivative for")):
                raise
            raise NotImplementedError(_NO_FORWARD_AD.format(name=name)) from error
    for out, result in zip(outputs, results):
        if out.dtype.is_floating_point:
            set_tangent(out, make(np.zeros_like(out._data)) if result is None else result)


def jvp_of(again, inputs, arrays, tangents, graph: bool) -> tuple:
    """J t for an op, from its backward: with v a new gradient of the outputs,
    g(v) = Jᵀ v (backward, recorded), and J t = d/dv <g(v), t>. ``graph``: keep the
    graph to the primals and tangents (the proxies of primals that require grad are
    views of them, not copies), where PyTorch's formulas keep one: there an input
    without a tangent counts with a zero tangent, as PyTorch's formulas count it."""
    if graph:  # (as PyTorch's formulas: an input without a tangent has a zero one)
        tangents = [make(np.zeros_like(data)) if t is None and isinstance(x, TensorBase)
                    and x.dtype.is_floating_point else t
                    for x, data, t in zip(inputs, arrays, tangents)]
    proxies = tuple(_proxy(x, data, t is not None, graph)
                    for x, data, t in zip(inputs, arrays, tangents))
    outputs = again(proxies)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    linked = [out for out in outputs if out.requires_grad]
    if not linked:
        return (None,) * len(outputs)
    vs = [make(np.zeros_like(out._data), requires_grad=True) for out in linked]
    moving = [(p, t) for p, t in zip(proxies, tangents) if t is not None]
    grads = differentiate.grad(linked, [p for p, _ in moving], vs, create_graph=True,
                               allow_unused=True)
    total = None
    for g, (proxy, t) in zip(grads, moving):
        if g is not None and g.requires_grad:
            term = (g * t.to(proxy.dtype)).sum()
            total = term if total is None else total + term
    if total is None:
        return (None,) * len(outputs)
    results = iter(differentiate.grad(total, vs, allow_unused=True, create_graph=graph))
    return tuple(next(results) if out.requires_grad else None for out in outputs)


def _proxy(x, data, moving: bool, graph: bool):
    """What the op runs on again in place of input ``x``: for an input with a tangent, a
    new tensor requiring grad (a view of ``x`` when ``graph`` and ``x`` requires grad);
    for another tensor, ``x`` itself (``graph``) or its values."""
    if not isinstance(x, TensorBase):
        return x
    if moving:
        return x.view_as(x) if graph and x.requires_grad else make(np.array(data),
                                                                    requires_grad=True)
    return x if graph else make(data)
