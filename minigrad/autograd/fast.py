"""``backward()``'s walk: the reference walk (``engine.backward_steps``), made fast.

It runs the same nodes in the same order and gives the same bits (a differential
test runs both over generated programs: ``tests/core/engine/test_two_walks.py``), but:

- it makes no step object for a node that has nothing to apply (most of them: a
  leaf's gradient, a retained gradient and ``inputs=`` are applied);
- it adds the gradients arriving at a node into a buffer as they arrive, in place
  when the buffer is an array nobody else holds (``_own_buffer``), and a node that
  becomes ready alone runs next without going through the ready heap;
- a node's ``fused_backward`` may write into the gradient it received when that is a
  new array only the walk holds;
- a leaf keeps such an array as its ``.grad`` without copying it;
- with ``create_graph=True`` the formulas run on Tensors (``Node.__call__``) and are
  recorded.
"""

from __future__ import annotations

import heapq
import operator
import sys
from functools import partial
from typing import Iterator

import numpy as np

from .. import errors
from ..kernels.float_errors import restore as restore_float_errors, silence as silence_float_errors
from . import anomaly, forward_ad, grad_mode, hooks, profiler, replaced
from .broadcast import has_internal_overlap
from .engine import (BackwardStep, GraphTask, Ready, count_dependencies, count_down, first_ready,
                     leads_further, needed_nodes, run_tensor_hooks, seeds,
                     wanted, wrapped)
from ..kernels.layout import laid_as_received, leaf_grad_layout
from ..kernels.meta import copied
from ..kernels.threads import BIG
from .hooks import run_posthooks, run_prehooks
from .node import AccumulateGrad, Node
from .node_fidelity import counted_gradients
from .packing import PackedTensor
from .saved import FREED, Saved, SavedTensor
from .tensor_base import TensorBase, make

__all__ = ["run_backward"]


def run_backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
                 inputs=None, accumulate=True):
    """Run backward and apply it. With ``accumulate=False`` (``autograd.grad``),
    leaves are not touched and the gradients reaching ``inputs`` are returned."""
    if inputs is not None and not isinstance(inputs, TensorBase) and len(inputs) == 0:
        raise RuntimeError(errors.EMPTY_INPUTS.format("backward" if accumulate else "grad"))
    if forward_ad.active and create_graph:
        forward_ad.refuse_backward_through_duals(tensors)
    if retain_graph is None:
        retain_graph = create_graph or grad_mode.graphs_kept_for_vmap
    on_arrays = not create_graph
    roots = seeds(tensors, grad_tensors, as_arrays=on_arrays)
    targets = wanted(inputs)
    if create_graph and accumulate:  # (after the checks of what to differentiate, as torch)
        errors.warn_once(errors.CREATE_GRAPH_CYCLE, stacklevel=4)  # (TORCH_WARN_ONCE)
    if accumulate and inputs is not None:
        for tensor in (inputs,) if isinstance(inputs, TensorBase) else inputs:
            if isinstance(tensor, TensorBase) and tensor.grad_fn is not None:
                tensor.retain_grad()  # backward(inputs=[y]) fills y.grad, as in PyTorch
    captured = {}
    store = _store_array if on_arrays else _store_tensor
    token = silence_float_errors()  # NumPy's float warnings: off once for the whole pass
    task = GraphTask(roots, targets, accumulate).start()  # (what multi-grad hooks ask)
    try:
        # (the walk hands out only the steps that have something to apply here)
        for step in _walk(roots, targets, keep_graph=retain_graph, create_graph=create_graph,
                          accumulate=accumulate):
            if accumulate and type(step.node) is AccumulateGrad \
                    and step.grad_outputs[0] is not None:
                if step.node.variable._requires_grad:  # (not since requires_grad_(False))
                    store(step.node.variable, step.grad_outputs[0], step._owned)
                if hooks.post_accumulate:  # (called either way, as torch's engine does)
                    hooks.run_post_accumulate_hooks(step.node.variable, create_graph)
            if targets is not None and step.node in targets:
                grads = step.grad_outputs if step.captured is None else step.captured
                for nr in targets[step.node]:
                    if nr < len(grads):
                        captured[(step.node, nr)] = wrapped(grads[nr], on_arrays)
            for tensor, grad in step.retained:  # (autograd.grad fills them too, as torch)
                store(tensor, grad, False, retained=True)
    except Exception as error:
        for tensor, grad in getattr(error, "_retained_grads", ()):
            store(tensor, grad, False, retained=True)
        raise
    finally:
        task.stop()
        restore_float_errors(token)
    return captured


def _store_array(tensor, grad, owned: bool, retained: bool = False) -> None:
    """Add ``grad`` (an array) into ``tensor.grad``. The first gradient is kept
    as it is when nobody else holds it (else copied); later ones are added in
    place, as PyTorch does, so a reference someone kept to ``x.grad`` stays current."""
    old = tensor._grad
    if old is None:
        # (a leaf's strides, a retained gradient row-major: torch's layouts)
        laid = leaf_grad_layout(grad, None if retained else tensor._data)
        tensor._grad = make(laid if owned or laid is not grad else copied(grad))
        return
    data = old._data
    if retained or data.shape != grad.shape or not data.flags.writeable:
        # (torch's retain_grad makes a new tensor each time: grad + new_grad)
        tensor._grad = old.detach() + make(grad)
        return
    # In place even when old has a graph from an earlier create_graph (it keeps
    # its grad_fn), as torch's AccumulateGrad does outside grad mode; and so
    # refused, as there, for an expanded .grad (elements sharing memory).
    if has_internal_overlap(data):
        raise RuntimeError(errors.INTERNAL_OVERLAP)
    np.add(data, grad, out=data, casting="unsafe")
    old._bump_version()


def _store_tensor(tensor, grad, owned: bool, retained: bool = False) -> None:
    """``create_graph=True``: ``tensor.grad`` becomes a Tensor in the new graph.
    As in torch, a leaf's first grad is copied into new memory (CopyBackwards),
    a retained one is cloned (CloneBackward0), both in the graph."""
    old = tensor._grad
    with grad_mode.enable_grad():
        if old is not None:
            tensor._grad = old + grad
        elif retained:
            tensor._grad = grad.clone()
        else:
            tensor._grad = grad.new_zeros(tuple(grad.shape)).copy_(grad)


def _walk(roots, targets, keep_graph: bool, create_graph: bool,
          accumulate: bool = True) -> Iterator[BackwardStep]:
    """The walk, in ``engine.execution_order``: a node takes the sums of the gradients
    that arrived (its input buffer), runs hooks, then its backward, and sends one
    gradient along each edge, added at once into the receiving node's buffer (as
    PyTorch's InputBuffer does). Only the steps ``run_backward`` applies are yielded
    (leaves, ``inputs=``, retained gradients). On arrays, a gradient a node made itself
    and sent along one edge only belongs to its receiver, which may add into it."""
    root_nodes = [node for node, _, _ in roots]
    dependencies = count_dependencies(root_nodes)
    needed = needed_nodes(dependencies, targets) if targets is not None else None
    reuse = not create_graph
    # node -> input buffer, a flat list: [grad, mine] for output 0, then for
    # output 1, ... (mine: a new array only this walk holds, to add into)
    buffers: dict = {}
    previous = grad_mode._asked
    grad_mode._set_enabled(create_graph)  # (two seeds for one node: their sum is recorded)
    try:
        for node, nr, grad in roots:
            _arrive(buffers, node, nr, grad, False, reuse)
    finally:
        grad_mode._set_enabled(previous)

    release = not keep_graph and not create_graph  # (formulas on arrays free as they run)
    # backward(): every edge wanted (and no anomaly mode: every node is checked)
    plain = reuse and needed is None and not anomaly.enabled and not profiler.enabled
    ready = first_ready(root_nodes, dependencies, _creation_number)  # (execution_order)
    node = None
    while node is not None or ready:
        if node is None:
            node = heapq.heappop(ready).node
        buffer = buffers.pop(node, None)
        if plain and buffer is not None and type(node) is not AccumulateGrad \
                and node._tensor_pre_hooks is None and node._retains_grad is None \
                and node._node_hooks is None:
            # backward()'s usual node, with no step to hand out: its formula runs on
            # the arrays that arrived and its gradients go on, in one walk over its
            # edges that also counts down what it makes ready (count_down, inline).
            grad_outputs = (buffer[0],) if len(buffer) == 2 else tuple(buffer[0::2])
            # (a formula that may write into the gradient it received, when that is a
            # new array only this walk holds; what it sends on in it is then fresh too)
            free = buffer[1] and node.fused_backward is not None and len(buffer) == 2 \
                and _own_buffer(buffer[0])
            grads = _run_formula(node, grad_outputs, release, free)
            trusted = node.formula_on_arrays
            single = trusted and len(grads) == 1 and len(grad_outputs) == 1
            received = () if free else grad_outputs
            following = None
            for (next_node, input_nr), grad in zip(node.next_functions, grads):
                if next_node is None:
                    continue
                if grad is not None:
                    fresh = (free or grad is not grad_outputs[0]) if single else \
                        trusted and _made_here(grad, grads, received)
                    if input_nr == 0 and next_node not in buffers:
                        buffers[next_node] = [grad, fresh]
                    else:
                        _arrive(buffers, next_node, input_nr, grad, fresh, True)
                left = dependencies[next_node] - 1
                dependencies[next_node] = left
                if left == 0:
                    if following is not None:
                        heapq.heappush(ready, Ready(following._sequence_nr, following))
                    following = next_node
            if following is not None and ready:
                heapq.heappush(ready, Ready(following._sequence_nr, following))
                following = None
            node = following
            # (let go of what arrived and was sent: a gradient sent on is then held by
            # its receiver's buffer only, which may own it; see _own_buffer)
            grad_outputs = received = grads = grad = None
            continue
        if needed is None or node in needed:
            if anomaly.enabled or profiler.enabled:  # (the node's forward line; its time)
                received = buffer[0::2] if buffer else ()
                with anomaly.blame(node), profiler.node_step(node, received):
                    step = _step(node, buffer, buffers, needed, targets, keep_graph,
                                 create_graph, reuse, release, accumulate)
            else:
                step = _step(node, buffer, buffers, needed, targets, keep_graph, create_graph,
                             reuse, release, accumulate)
            if step is not None:
                yield step
        node = count_down(node, dependencies, ready, _creation_number)


def _step(node, buffer, buffers: dict, needed, targets, keep_graph: bool, create_graph: bool,
          reuse: bool, release: bool, accumulate: bool):
    """``_walk`` for a node with something to apply (a leaf, hooks, retained
    gradients, ``inputs=``, ``create_graph``, anomaly mode): runs it (as
    ``engine._apply``: pre-hooks, backward, post-hooks, the NaN check) and sends
    its gradients on; returns its ``BackwardStep``, or None when there is nothing to
    hand out. A leaf runs (its node hooks) only when it accumulates, as in torch."""
    leaf = type(node) is AccumulateGrad
    owned, retained = False, ()
    arrived = None  # (the gradients as they arrived, before any hook)
    if create_graph:
        # Backward formulas are recorded; the mode is set per step, not
        # across the yield, so the caller's code between steps runs in its own mode.
        previous = grad_mode._asked
        grad_mode._set_enabled(True)
    try:
        if buffer is None:
            # No edge in delivered a gradient (e.g. the backward of norm(0)):
            # nothing to run; the node passes "no gradient" on.
            grad_outputs = _NO_GRADIENT
        else:
            grad_outputs = arrived = (buffer[0],) if len(buffer) == 2 else tuple(buffer[0::2])
            if leaf and reuse:
                owned = buffer[1] and _own_buffer(buffer[0])
            if node._tensor_pre_hooks or node._retains_grad or (
                    leaf and node.variable._leaf_hooks):
                grad_outputs, owned, retained = run_tensor_hooks(
                    node, grad_outputs, owned, not create_graph)
            if leaf and accumulate and node._node_hooks is not None \
                    and grad_outputs[0] is not None:
                hooked = run_prehooks(node, grad_outputs, not create_graph)
                owned = owned and hooked[0] is grad_outputs[0]
                grad_outputs = hooked
                run_posthooks(node, (), grad_outputs, needed, not create_graph)
            # (with inputs=, a target runs too; in autograd.grad it only receives)
            if not leaf and (needed is None or accumulate or leads_further(node, needed)):
                if node._node_hooks is not None:
                    grad_outputs = run_prehooks(node, grad_outputs, not create_graph)
                if needed is not None:
                    grads = _run_for_needed(node, grad_outputs, needed, create_graph,
                                            release)
                elif create_graph:
                    grads = node._run(grad_outputs)
                else:
                    grads = node.run_formula(grad_outputs, release)
                if node._node_hooks is not None:
                    grads = run_posthooks(node, grads, grad_outputs, needed, not create_graph)
                if anomaly.enabled:
                    anomaly.check_nan(node, grads, needed)
                if create_graph and not keep_graph:
                    node.release_saved()
                # A gradient the node made itself (not one it received) and sends
                # along one edge only belongs to its receiver, which may add into
                # it in place. (A formula written for Tensors, e.g. a custom
                # Function's, may hand back an array someone holds: never.)
                trusted = reuse and node.formula_on_arrays
                single = trusted and len(grads) == 1 and len(grad_outputs) == 1
                for (next_node, input_nr), grad in zip(node.next_functions, grads):
                    if next_node is None or grad is None or (
                            needed is not None and next_node not in needed):
                        continue  # (as torch: no buffer for a node that will not run)
                    if single:  # (the usual case, kept quick)
                        fresh = grad is not grad_outputs[0]
                    else:
                        fresh = trusted and _made_here(grad, grads, grad_outputs)
                    if input_nr == 0 and next_node not in buffers:
                        buffers[next_node] = [grad, fresh]  # (the usual case, kept quick)
                    else:
                        _arrive(buffers, next_node, input_nr, grad, fresh, reuse)
    except Exception as error:
        # (a retained gradient is kept when its hook runs, before the node: so in torch,
        # also when the node then fails; run_backward stores them before raising)
        error._retained_grads = retained
        raise
    finally:
        if create_graph:
            grad_mode._set_enabled(previous)
    if leaf or retained or (targets is not None and node in targets):
        step = BackwardStep(0, node, None)
        step.grad_outputs, step.retained, step._owned = grad_outputs, retained, owned
        if arrived is not grad_outputs and not accumulate and targets is not None and \
                node in targets and not leaf and leads_further(node, needed):
            step.captured = arrived  # (PyTorch's engine captures it before any hook)
        return step
    return None


_NO_GRADIENT = (None,)
_creation_number = operator.attrgetter("_sequence_nr")  # (a node's creation order)


def _arrive(buffers: dict, node, nr: int, grad, fresh: bool, reuse: bool) -> None:
    """Add ``grad``, arriving for output ``nr`` of ``node``, into its buffer.
    ``fresh``: a new array that the sender gave to this edge only. With
    ``reuse``, a sum is made in place in an array that only the walk holds."""
    buffer = buffers.get(node)
    if buffer is None:
        buffer = buffers[node] = [None, False]
    at = 2 * nr
    while len(buffer) <= at:
        buffer += (None, False)
    current = buffer[at]
    if current is None:
        buffer[at], buffer[at + 1] = grad, fresh
    elif not reuse:  # Tensors: new values
        buffer[at] = current + grad
    elif buffer[at + 1] and current.shape == grad.shape and current.dtype == grad.dtype \
            and _own_buffer(current):
        _add_into(current, grad)
    elif fresh and current.shape == grad.shape and current.dtype == grad.dtype \
            and _own_buffer(grad):
        _add_into(grad, current)
        buffer[at], buffer[at + 1] = grad, True
    else:
        buffer[at], buffer[at + 1] = current + grad, True


def _add_into(target, grad) -> None:
    """target += grad."""
    np.add(target, grad, out=target)


def _own_buffer(grad) -> bool:
    """An array that may be written, with memory nobody else reaches: its own, or
    that of an array that only this view refers to (a formula's new result seen
    through a view: a linear layer's weight gradient, t() of t() of a product).
    Not a read-only constant, not a NumPy scalar."""
    if type(grad) is not np.ndarray:
        return False
    flags = grad.flags
    if not flags.writeable:
        return False
    if flags.owndata:
        return True
    # A view: one laid out in order (no element seen twice, as in an expanded one),
    # whose base is the array that owns the memory (NumPy skips views in between,
    # but as_strided's base is an object holding the owner) and is referred to by
    # nothing else (getrefcount counts this view's reference, ``base`` and the call's;
    # a count higher than the holders only costs a copy).
    if not (flags.c_contiguous or flags.f_contiguous):
        return False
    base = grad.base
    return type(base) is np.ndarray and base.flags.owndata and sys.getrefcount(base) == 3


def _made_here(grad, grads: tuple, grad_outputs: tuple) -> bool:
    """Whether a node sends ``grad`` along one edge only, and did not receive it."""
    for other in grad_outputs:
        if other is grad:
            return False
    count = 0
    for other in grads:
        if other is grad:
            count += 1
    return count == 1


def _run_formula(node, grad_outputs: tuple, release: bool, grad_is_free: bool) -> tuple:
    """``node.run_formula(grad_outputs, release, grad_is_free)``, for the walk's usual
    node, inline: once per node of every backward(), a Python call costs as much as
    the formula of a small op. The same steps in the same order: the saved values
    checked and read, the fused kernel tried for a big gradient, the formula run, the
    count and shapes checked, the saved tensors freed (those the reading loop met:
    ``tensors``)."""
    cls = type(node)
    if cls.release_saved is not _RELEASE_SAVED or not cls.formula_on_arrays:
        return node.run_formula(grad_outputs, release, grad_is_free)
    stored = node._saved
    saved = _NOTHING_SAVED
    tensors = None
    if stored:
        saved = _new_object(Saved)
        values = saved.__dict__
        tensors = []
        data_set = replaced.data_set  # (``.data =`` ran: see replaced.formula_array)
        for name, value in stored.items():
            kind = type(value)
            if kind is SavedTensor:
                if value.had_grad_fn and value.tensor._grad_fn is None:  # (detach_()ed)
                    raise RuntimeError(errors.SAVED_DETACHED_IN_PLACE)
                if value.version.value != value.saved_version:
                    node._raise_modified()
                values[name] = replaced.formula_array(value) if data_set else value.data
                tensors.append(name)
            elif value is FREED:
                raise RuntimeError(errors.BACKWARD_TWICE)
            elif kind is PackedTensor:  # (saved_tensors_hooks)
                values[name] = value.array(node)
                tensors.append(name)
            else:
                values[name] = value
    fused = cls.fused_backward  # (big arrays only: see Node.fused_backward)
    if fused is None or len(grad_outputs) != 1 or type(grad := grad_outputs[0]) is not np.ndarray \
            or grad.size < BIG \
            or (grads := fused(saved, grad, node.needs_input_grad, grad_is_free)) is None:
        grads = node.backward(saved, *grad_outputs)
    if type(grads) is not tuple:
        grads = (grads,)
    if len(grads) != len(node.next_functions):
        counted_gradients(node, grads, len(node.next_functions))  # (raises)
    if cls.laid_as_grad and len(grad_outputs) == 1:
        grads = laid_as_received(grads, grad_outputs[0])
    if node._input_meta is not None:
        grads = _as_inputs(node, grads)
    if release and tensors:
        for name in tensors:
            stored[name] = FREED
    return grads


def _as_inputs(node, grads: tuple) -> tuple:
    """``node.checked_arrays(grads)``, skipped when every gradient already is an array
    of its input's shape and dtype (the usual case: no broadcast to undo, no cast)."""
    for grad, meta in zip(grads, node._input_meta):
        if grad is not None and meta is not None and not (
                type(grad) is np.ndarray and grad.dtype is meta[1] and grad.shape == meta[0]):
            return node.checked_arrays(grads)
    return grads


def _run_for_needed(node, grad_outputs: tuple, needed, create_graph: bool,
                    release: bool) -> tuple:
    """Run ``node`` when only some of its edges lead to a node that runs
    (``inputs=``, ``autograd.grad``): as torch's ``should_compute_output``, a
    built-in formula sees ``needs_input_grad`` False for the other edges and
    computes (and, with ``create_graph``, records) nothing for them. A custom
    Function's ``ctx.needs_input_grad`` stays as forward set it (as in torch)."""
    declared = node.needs_input_grad
    wanted = tuple([next_node is not None and next_node in needed
                    for next_node, _ in node.next_functions])
    run = node._run if create_graph else partial(node.run_formula, release=release)
    if wanted == declared or not node.formula_on_arrays:
        return run(grad_outputs)
    node.needs_input_grad = wanted
    try:
        return run(grad_outputs)
    finally:
        node.needs_input_grad = declared


_RELEASE_SAVED = Node.release_saved
_NOTHING_SAVED = Saved({})
_new_object = object.__new__
