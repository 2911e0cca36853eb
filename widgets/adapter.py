"""The one place that knows how a PyTorch graph differs from a minigrad graph.

The widgets read a graph only through what both libraries offer a learner:
``tensor.grad_fn``, ``node.next_functions``, ``node.name()``, the saved
values, ``tensor.grad``, ``is_leaf`` and ``retains_grad``; a leaf's
``AccumulateGrad`` node has its tensor as ``.variable`` in both. Where the
two differ, this module says how:

====================  ===========================  ====================================
                      minigrad                     torch
====================  ===========================  ====================================
creation order        known to its engine          ``node._sequence_nr()``
saved values          ``node.saved_values()``      ``_saved_*`` attributes
outputs of a node     known to its engine          ``node._input_metadata``
to NumPy              ``t.detach().numpy()``       ``t.detach().cpu().numpy()``
backward, stepwise    ``backward_steps``           ``replay``: torch's own nodes called
                      (the engine's own walk)      in the order of minigrad's engine
gradients of named    ``minigrad.autograd.grad``   ``torch.autograd.grad``
tensors               (``autograd_gradients``: the library's own engine, graph kept)
====================  ===========================  ====================================

torch offers no public way to read a node's creation number or the shapes
of its outputs; those two private reads are the only ones in ``widgets/``.

torch is never imported here: a value can only be a torch tensor if the
learner's code imported torch already, so ``sys.modules`` is asked instead.
"""

from __future__ import annotations

import contextlib
import sys

import minigrad
import numpy as np
from minigrad.autograd import AccumulateGrad, BackwardStep, Node, backward_steps, execution_order

__all__ = ["is_tensor", "is_torch", "is_leaf_node", "order", "saved_values", "to_numpy",
           "library", "steps", "autograd_gradients", "FREED"]

FREED = "(freed after backward)"  # stands for a saved tensor that backward released


def _torch():
    """The torch module if the learner's code imported it, else None."""
    return sys.modules.get("torch")


def is_torch(value) -> bool:
    """A torch tensor or a torch graph node."""
    torch = _torch()
    if torch is None:
        return False
    return isinstance(value, torch.Tensor) or (
        not isinstance(value, Node) and hasattr(value, "next_functions"))


def is_tensor(value) -> bool:
    """A minigrad or a torch tensor."""
    return isinstance(value, minigrad.Tensor) or (_torch() is not None
                                                  and isinstance(value, _torch().Tensor))


def library(values):
    """The module the tensors in ``values`` come from: ``torch`` or ``minigrad``."""
    return _torch() if any(is_torch(v) for v in values) else minigrad


def is_leaf_node(node) -> bool:
    """An ``AccumulateGrad`` node (the end of a path at a leaf tensor): in torch,
    the node with a ``.variable``. Asked once per kind of node (every node of a
    kind is one or not; a big graph asks tens of thousands of times, and asking
    a torch node for an attribute it has not raises, which is slow)."""
    kind = type(node)
    if kind not in _LEAF_KINDS:
        _LEAF_KINDS[kind] = (isinstance(node, AccumulateGrad) if isinstance(node, Node)
                             else hasattr(node, "variable"))
    return _LEAF_KINDS[kind]


_LEAF_KINDS: dict = {type(None): False}  # kind of node -> is it an AccumulateGrad?


def order(roots) -> list:
    """Every node reachable from ``roots`` in the order the engine runs them,
    by minigrad's engine's own ``execution_order`` (given torch's creation
    numbers for a torch graph: its engine runs the same rule)."""
    if roots and is_torch(roots[0]):
        return list(execution_order(roots, sequence_nr=_torch_creation_number))
    return list(execution_order(roots))


def _torch_creation_number(node) -> int:
    return node._sequence_nr()  # AccumulateGrad: 2**64 - 1, so it runs when ready


def to_numpy(value) -> np.ndarray:
    """The values of a tensor (or anything array-like) as a NumPy array."""
    if isinstance(value, minigrad.Tensor):
        return value.detach().numpy() if value.requires_grad else value.numpy()
    if is_torch(value):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def saved_values(node) -> list:
    """``[(name, value), ...]`` saved for backward; ``FREED`` for released tensors."""
    if isinstance(node, Node):
        try:
            return list(node.saved_values().items())
        except RuntimeError:  # some were freed: read them one by one below
            pass
    items = []
    for attr in dir(node):
        if attr.startswith("_saved_"):
            try:
                items.append((attr[len("_saved_"):], getattr(node, attr)))
            except RuntimeError:  # "Trying to backward through the graph a second time"
                items.append((attr[len("_saved_"):], FREED))
    return items


# ---- backward, one step at a time ---------------------------------------------


class ReplayStep(BackwardStep):
    """A step of a replayed torch backward (the fields of ``BackwardStep``)."""

    @property
    def is_leaf(self) -> bool:
        return is_leaf_node(self.node)


def steps(tensor, gradient=None, tensors=()) -> list:
    """The steps of ``tensor.backward(gradient)``, changing no ``.grad``.

    minigrad: its engine's own ``backward_steps``. torch: ``replay``.
    ``tensors`` (the learner's named tensors) are where a torch replay
    looks for ``retain_grad()`` (torch offers no public way to find them).
    """
    if isinstance(tensor, minigrad.Tensor):
        return list(backward_steps(tensor, gradient))
    return list(replay(tensor, gradient, tensors))


def replay(tensor, gradient=None, tensors=()):
    """torch's backward, node by node, in the order of minigrad's engine
    (``execution_order``, given torch's creation numbers): each node is
    called on the gradients that arrived (``node(*grads)`` returns one
    gradient per ``next_functions`` edge), and nothing is freed or stored."""
    torch = _torch()
    if gradient is None:
        if tensor.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        gradient = torch.ones_like(tensor)
    elif not isinstance(gradient, torch.Tensor):
        gradient = torch.full_like(tensor, gradient)
    if gradient.shape != tensor.shape:
        raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of {gradient.shape} "
                           f"and output[0] has a shape of {tensor.shape}.")
    retained = {(t.grad_fn, t.output_nr): t for t in tensors
                if is_torch(t) and t.grad_fn is not None and t.retains_grad}
    root = tensor.grad_fn
    arrivals = {root: [(None, tensor.output_nr, gradient.detach())]}
    with torch.no_grad():
        for index, node in enumerate(execution_order([root], _torch_creation_number)):
            step = ReplayStep(index, node, arrivals.pop(node, []))
            step.grad_outputs = _sums(step.received)
            if is_leaf_node(node):
                step.leaf_grad = _accumulated(node.variable, step.grad_outputs[0])
            elif any(g is not None for g in step.grad_outputs):
                step.retained = tuple(
                    (retained[(node, nr)], _accumulated(retained[(node, nr)], grad))
                    for nr, grad in enumerate(step.grad_outputs) if (node, nr) in retained
                    and grad is not None)
                grads = _call(torch, node, _one_per_output(node, step.grad_outputs))
                grads = grads if isinstance(grads, tuple) else (grads,)
                step.sent = tuple((next_node, nr, _delivered(next_node, nr, grad))
                                  for (next_node, nr), grad in zip(node.next_functions, grads))
            else:  # nothing arrived: nothing is passed on
                step.sent = tuple((next_node, nr, None) for next_node, nr in node.next_functions)
            for next_node, nr, grad in step.sent:
                if next_node is not None and grad is not None:
                    arrivals.setdefault(next_node, []).append((node, nr, grad))
            yield step


def _call(torch, node, grads: tuple):
    """A torch node run on ``grads``: a built-in node is called; a custom Function's
    node (a Python class, ``CubeBackward``, ``CompiledFunctionBackward``) is not
    callable in torch, its ``apply`` runs the Function's backward."""
    if isinstance(node, torch.autograd.function.BackwardCFunction):
        with _no_donated_buffers(torch):
            return node.apply(*grads)
    return node(*grads)


def _no_donated_buffers(torch):
    """torch.compile's backward may refuse to run outside a backward call that frees the
    graph ("compiled with non-empty donated buffers which requires ... retain_graph=False",
    depending on what the process compiled before): the stepper runs each node once, as the
    engine would, so that refusal is switched off for the call (PyTorch's own setting)."""
    config = getattr(getattr(torch, "_functorch", None), "config", None)
    if config is None or not hasattr(config, "donated_buffer"):
        return contextlib.nullcontext()
    return config.patch(donated_buffer=False)


def _one_per_output(node, grads) -> tuple:
    """A torch node is called with one gradient per output of its forward
    (None where none arrived, as the engine passes an undefined tensor)."""
    count = len(node._input_metadata)
    return tuple(grads) + (None,) * (count - len(grads))


def _delivered(next_node, nr, grad):
    """As torch's engine checks each gradient a node returns: summed to the
    shape of the input it belongs to (undoing broadcasting), in its dtype."""
    if next_node is None or grad is None:
        return None
    meta = next_node._input_metadata[nr]
    if tuple(grad.shape) != tuple(meta.shape):  # (torch gives the metadata's shape as a list)
        grad = grad.sum_to_size(meta.shape)
    return grad if grad.dtype == meta.dtype else grad.to(meta.dtype)


def _sums(received) -> tuple:
    """The gradients that arrived for each output, summed."""
    count = 1 + max((nr for _, nr, _ in received), default=0)
    sums = [None] * count
    for _, nr, grad in received:
        sums[nr] = grad if sums[nr] is None else sums[nr] + grad
    return tuple(sums)


def _accumulated(tensor, grad):
    """What ``tensor.grad`` becomes when ``grad`` arrives (they add up)."""
    if grad is None:
        return tensor.grad
    return grad.clone() if tensor.grad is None else tensor.grad + grad


def autograd_gradients(output, tensors: list) -> list:
    """d ``output`` / d each of ``tensors``, leaves or not, by the library's own
    engine (``autograd.grad``): no ``.grad`` changes, no ``retain_grad()`` is
    needed, and the graph is kept (``retain_graph=True``) so that the learner can
    still call ``backward()``. None for a tensor that ``output`` does not depend on."""
    lib = library([output, *tensors])
    return list(lib.autograd.grad(output, list(tensors), retain_graph=True, allow_unused=True))
