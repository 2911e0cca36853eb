"""The backward engine: one iterative walk over the graph, as a sequence of steps.

1. Count, for every node reachable from the outputs, how many edges point
   at it (an explicit stack, no recursion, so a 100,000-op chain is fine).
2. Start from the output nodes with the seed gradients. A node is *ready*
   when every edge into it has delivered its gradient; the gradients that
   arrive along several edges are summed first. Among ready nodes the one
   created last runs first (as in PyTorch), and ``AccumulateGrad`` nodes run
   as soon as they are ready. The order is therefore deterministic; one
   function decides it, ``execution_order``.
3. A ready node applies its backward (the chain rule for its op) and sends
   one gradient along each of its ``next_functions`` edges.

Two modes, one walk. Usually (``create_graph=False``) nothing about backward
needs to be recorded, so the gradients are plain NumPy arrays and each
node's ``backward`` formula runs on arrays: no dispatch, no nodes. With
``create_graph=True`` the very same formulas run on Tensors, recording a
graph of their own that can be differentiated again.

``backward_steps`` yields a ``BackwardStep`` per node run and changes no
``.grad``: it is what the stepper widget shows (its gradients are Tensors,
wrapped as each step is handed out). ``run_backward`` (behind
``Tensor.backward`` and ``autograd.grad``) walks the very same generator
(``_walk``), which then hands out only the steps that have something to
apply (leaf gradients accumulated, retained gradients stored, ``inputs=``
captured) and frees saved tensors as it goes; it makes no step object for
the other nodes, so a long chain costs little more than its formulas.
"""

from __future__ import annotations

import heapq
import operator
import sys
import warnings
from functools import partial
from typing import Iterator, Sequence

import numpy as np

from .. import errors
from . import grad_mode
from .broadcast import has_internal_overlap
from ..kernels.float_errors import restore as restore_float_errors, silence as silence_float_errors
from .node import AccumulateGrad, Node
from .tensor_base import TensorBase, make

__all__ = ["BackwardStep", "backward_steps", "execution_order", "run_backward"]


class BackwardStep:
    """One node of a backward pass, as it ran.

    ``received``: the gradients that arrived, in arrival order, as
    ``(from_node, output_nr, grad)`` (``from_node`` is None for the seed
    gradient given to ``backward``; None in the steps ``backward()`` applies
    without showing them). ``grad_outputs``: their sums, one per
    output of the node, after hooks. ``sent``: one ``(next_node, input_nr,
    grad)`` per edge in ``next_functions`` (grad None where none flows).
    ``leaf_grad``: for an ``AccumulateGrad`` step, the leaf's ``.grad`` after
    this step. ``retained``: ``(tensor, grad)`` for non-leaves that called
    ``retain_grad()``.
    """

    __slots__ = ("index", "node", "received", "grad_outputs", "sent", "leaf_grad",
                 "retained", "_owned")

    def __init__(self, index: int, node: Node, received: list) -> None:
        self.index = index
        self.node = node
        self.received = received
        self.grad_outputs: tuple = ()
        self.sent: tuple = ()
        self.leaf_grad = None
        self.retained: tuple = ()
        self._owned = False  # grad_outputs[0] is an array nobody else holds

    @property
    def is_leaf(self) -> bool:
        return isinstance(self.node, AccumulateGrad)

    def __repr__(self) -> str:
        return f"<BackwardStep {self.index}: {self.node.name()}>"


def backward_steps(tensors, grad_tensors=None, *, inputs=None) -> Iterator[BackwardStep]:
    """Yield the steps of ``backward`` on ``tensors`` without changing any ``.grad``.

    The graph is kept (nothing is freed), so the real ``backward()`` can
    still run afterwards. Hooks registered with ``register_hook`` run, as
    they would in the real pass.

    >>> import minigrad as torch
    >>> x = torch.ones(2, requires_grad=True)
    >>> [step.node.name() for step in torch.autograd.backward_steps((x * 3).sum())]
    ['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    """
    roots = _roots(tensors, grad_tensors, as_arrays=True)
    walk = _walk(roots, targets=_targets(inputs), keep_graph=True, create_graph=False,
                 show=True)
    while True:
        token = silence_float_errors()  # per step: the caller's code runs between steps
        try:
            step = next(walk, None)
        finally:
            restore_float_errors(token)
        if step is None:
            return
        yield _as_tensors(step)


def run_backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
                 inputs=None, accumulate=True):
    """Run backward and apply it. With ``accumulate=False`` (``autograd.grad``),
    leaves are not touched and the gradients reaching ``inputs`` are returned."""
    if inputs is not None and not isinstance(inputs, TensorBase) and len(inputs) == 0:
        raise RuntimeError(errors.EMPTY_INPUTS.format("backward" if accumulate else "grad"))
    if retain_graph is None:
        retain_graph = create_graph
    on_arrays = not create_graph
    roots = _roots(tensors, grad_tensors, as_arrays=on_arrays)
    targets = _targets(inputs)
    if create_graph and accumulate:  # (after the checks of what to differentiate, as torch)
        warnings.warn(errors.CREATE_GRAPH_CYCLE, UserWarning, stacklevel=3)
    if accumulate and inputs is not None:
        for tensor in (inputs,) if isinstance(inputs, TensorBase) else inputs:
            if tensor.grad_fn is not None:
                tensor.retain_grad()  # backward(inputs=[y]) fills y.grad, as in PyTorch
    captured = {}
    store = _store_array if on_arrays else _store_tensor
    token = silence_float_errors()  # NumPy's float warnings: off once for the whole pass
    try:
        # (the walk hands out only the steps that have something to apply here)
        for step in _walk(roots, targets, keep_graph=retain_graph, create_graph=create_graph,
                          show=False):
            if accumulate and type(step.node) is AccumulateGrad \
                    and step.grad_outputs[0] is not None:
                store(step.node.variable, step.grad_outputs[0], step._owned)
            if targets is not None and step.node in targets:
                grads = step.grad_outputs
                for nr in targets[step.node]:
                    if nr < len(grads):
                        captured[(step.node, nr)] = _wrapped(grads[nr], on_arrays)
            for tensor, grad in step.retained:  # (autograd.grad fills them too, as torch)
                store(tensor, grad, False, retained=True)
    finally:
        restore_float_errors(token)
    return captured


def _wrapped(grad, on_arrays: bool):
    if grad is None or not on_arrays:
        return grad
    return make(grad)


def _store_array(tensor, grad, owned: bool, retained: bool = False) -> None:
    """Add ``grad`` (an array) into ``tensor.grad``. The first gradient is kept
    as it is when nobody else holds it (else copied); later ones are added in
    place, as PyTorch does, so a reference someone kept to ``x.grad`` stays current."""
    old = tensor._grad
    if old is None:
        tensor._grad = make(grad if owned else np.array(grad, copy=True))
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


def _roots(tensors, grad_tensors, as_arrays: bool) -> list:
    """Pair each output with its seed gradient, checking both as torch does."""
    if isinstance(tensors, TensorBase):
        tensors = (tensors,)
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    elif isinstance(grad_tensors, TensorBase):
        grad_tensors = (grad_tensors,)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(
            f"got {len(grad_tensors)} tensors and {len(tensors)} gradients"
        )
    roots = []
    for index, (output, grad) in enumerate(zip(tensors, grad_tensors)):
        # (a view made under no_grad requires grad, through its base, but has no edge
        # for a gradient: torch refuses it the same way)
        if not output.requires_grad or (not output._requires_grad and output.grad_fn is None):
            raise RuntimeError(errors.NO_GRAD_FN.format(index=index))
        if grad is None:
            if output.numel() != 1:
                raise RuntimeError(errors.IMPLICIT_GRAD_SCALAR_ONLY)
            grad = make(np.ones(output.shape, output._data.dtype))  # d out / d out
        else:
            if not isinstance(grad, TensorBase):  # a number, for a one-element output
                grad = make(np.full(output.shape, grad, output._data.dtype))
            if grad.shape != output.shape:
                raise errors.gradient_shape_mismatch(index, grad.shape, output.shape)
            if grad.dtype is not output.dtype:
                grad = grad.to(output.dtype)
        roots.append((*output._gradient_edge(), grad._data if as_arrays else grad))
    return roots


def _targets(inputs) -> dict | None:
    """For ``inputs=``: node -> output numbers whose gradients are wanted."""
    if inputs is None:
        return None
    if isinstance(inputs, TensorBase):
        inputs = (inputs,)
    targets: dict = {}
    for tensor in inputs:
        if not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = tensor._gradient_edge()
        targets.setdefault(node, []).append(nr)
    return targets


def _count_dependencies(root_nodes: Sequence[Node]) -> dict:
    """How many edges point at each reachable node (iterative DFS)."""
    dependencies = {node: 0 for node in root_nodes}  # (also: the nodes seen so far)
    stack = list(dependencies)
    while stack:
        for next_node, _ in stack.pop().next_functions:
            if next_node is None:
                continue
            if next_node in dependencies:
                dependencies[next_node] += 1
            else:
                dependencies[next_node] = 1
                stack.append(next_node)
    return dependencies


def _needed(dependencies: dict, targets: dict) -> set:
    """Nodes that lie on a path to a target (only they need to run)."""
    parents: dict = {}
    for node in dependencies:
        for next_node, _ in node.next_functions:
            if next_node is not None:
                parents.setdefault(next_node, []).append(node)
    needed = set(targets)
    stack = list(targets)
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in needed:
                needed.add(parent)
                stack.append(parent)
    return needed


def execution_order(root_nodes: Sequence, sequence_nr=None,
                    dependencies: dict | None = None) -> Iterator:
    """The nodes reachable from ``root_nodes``, in the order the engine runs them.

    A node is ready once every edge into it has been walked; among ready
    nodes the one created last (highest ``sequence_nr(node)``) runs first,
    ties (leaves) in the order they became ready. The edges out of a node are
    walked when the caller asks for the next one. This rule is the engine's
    (``_walk`` follows it with ``_first_ready`` and ``_count_down``), and
    anything that shows a backward pass uses it (the widgets pass PyTorch's
    ``_sequence_nr()`` to replay a real torch graph in torch's order).
    """
    if sequence_nr is None:
        sequence_nr = _creation_number
    if dependencies is None:
        dependencies = _count_dependencies(root_nodes)
    ready = _first_ready(root_nodes, dependencies, sequence_nr)
    while ready:
        node = heapq.heappop(ready).node
        while node is not None:
            yield node
            node = _count_down(node, dependencies, ready, sequence_nr)


def _first_ready(root_nodes: Sequence, dependencies: dict, sequence_nr) -> list:
    """The heap of ready nodes at the start: the roots no edge points at."""
    ready: list = []
    for node in dict.fromkeys(root_nodes):
        if dependencies[node] == 0:
            heapq.heappush(ready, _Ready(sequence_nr(node), node))
    return ready


def _count_down(node, dependencies: dict, ready: list, sequence_nr):
    """Walk the edges out of ``node`` (it has run): the nodes it makes ready go
    on the heap ``ready``, except one alone with the heap empty (a chain), which
    is returned to run next (it would come straight back out). None: take the
    next node from the heap."""
    following = None
    for next_node, _ in node.next_functions:
        if next_node is None:
            continue
        left = dependencies[next_node] - 1
        dependencies[next_node] = left
        if left == 0:
            if following is not None:
                heapq.heappush(ready, _Ready(sequence_nr(following), following))
            following = next_node
    if following is not None and ready:
        heapq.heappush(ready, _Ready(sequence_nr(following), following))
        following = None
    return following


class _Ready:
    """A ready node in the heap, compared by creation number only. Ties
    (several leaves ready at once) then come out of Python's binary heap in
    the same order as out of PyTorch's (a C++ std::priority_queue: the same
    sift-down-to-a-leaf pop), e.g. a, c, b, d for ``torch.stack([a, b, c, d])``."""

    __slots__ = ("number", "node")

    def __init__(self, number, node) -> None:
        self.number, self.node = number, node

    def __lt__(self, other: "_Ready") -> bool:
        return self.number > other.number  # newest first


_creation_number = operator.attrgetter("_sequence_nr")  # (a node's creation order)


def _walk(roots, targets, keep_graph: bool, create_graph: bool,
          show: bool) -> Iterator[BackwardStep]:
    """The walk itself, in ``execution_order``. A node takes the sums of the
    gradients that arrived (its input buffer), runs hooks, then its backward,
    and sends one gradient along each edge, added at once into the receiving
    node's buffer (as PyTorch's InputBuffer does).

    ``show`` (``backward_steps``): every node yields a ``BackwardStep`` saying
    what it received and sent, and sums are always new values. Otherwise
    (``run_backward``) only the steps the caller applies are yielded (leaves,
    ``inputs=``, retained gradients), and, on arrays, a gradient a node made
    itself and sent along one edge only belongs to its receiver, which may
    add into it in place."""
    root_nodes = [node for node, _, _ in roots]
    dependencies = _count_dependencies(root_nodes)
    needed = _needed(dependencies, targets) if targets is not None else None
    reuse = not show and not create_graph
    # node -> input buffer, a flat list: [grad, mine] for output 0, then for
    # output 1, ... (mine: a new array only this walk holds, to add into)
    buffers: dict = {}
    received_by: dict = {}  # (show) node -> [(from_node, output_nr, grad)]
    previous = grad_mode._enabled
    grad_mode._set_enabled(create_graph)  # (two seeds for one node: their sum is recorded)
    try:
        for node, nr, grad in roots:
            _arrive(buffers, node, nr, grad, False, reuse)
            if show:
                received_by.setdefault(node, []).append((None, nr, grad))
    finally:
        grad_mode._set_enabled(previous)

    release = not keep_graph and not create_graph  # (formulas on arrays free as they run)
    plain = reuse and needed is None  # backward(): nothing shown, every edge wanted
    index = 0
    ready = _first_ready(root_nodes, dependencies, _creation_number)  # (execution_order)
    node = None
    while node is not None or ready:
        if node is None:
            node = heapq.heappop(ready).node
        buffer = buffers.pop(node, None)
        if plain and buffer is not None and type(node) is not AccumulateGrad \
                and node._tensor_pre_hooks is None and node._retains_grad is None:
            # backward()'s usual node, with no step to hand out: its formula runs on
            # the arrays that arrived and its gradients go on (as below, without
            # what showing steps, inputs= and create_graph need), in one walk over
            # its edges that also counts down what it makes ready (_count_down, inline).
            grad_outputs = (buffer[0],) if len(buffer) == 2 else tuple(buffer[0::2])
            # (a formula that may write into the gradient it received, when that is a
            # new array only this walk holds; what it sends on in it is then fresh too)
            free = buffer[1] and node.writes_into_grad and len(buffer) == 2 \
                and _own_buffer(buffer[0])
            grads = node._run_on_arrays(grad_outputs, release, free)
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
                        heapq.heappush(ready, _Ready(following._sequence_nr, following))
                    following = next_node
            if following is not None and ready:
                heapq.heappush(ready, _Ready(following._sequence_nr, following))
                following = None
            index += 1
            node = following
            # (let go of what arrived and was sent: a gradient sent on is then held by
            # its receiver's buffer only, which may own it; see _own_buffer)
            grad_outputs = received = grads = grad = None
            continue
        if needed is None or node in needed:
            step = _step(node, buffer, received_by.pop(node, []) if show else None, index,
                         buffers, received_by, needed, targets, keep_graph, create_graph,
                         show, reuse, release)
            if step is not None:
                yield step
            index += 1
        elif show:
            received_by.pop(node, None)
        node = _count_down(node, dependencies, ready, _creation_number)


def _step(node, buffer, received, index: int, buffers: dict, received_by: dict, needed,
          targets, keep_graph: bool, create_graph: bool, show: bool, reuse: bool,
          release: bool):
    """``_walk`` for a node with something to show or apply (a leaf, hooks,
    retained gradients, ``inputs=``, ``create_graph``, ``backward_steps``):
    runs it and sends its gradients on; returns its ``BackwardStep``, or None
    when there is nothing to hand out."""
    leaf = type(node) is AccumulateGrad
    owned, retained, sent = False, (), ()
    if create_graph:
        # Backward formulas are recorded; the mode is set per step, not
        # across the yield, so the caller's code between steps runs in its own mode.
        previous = grad_mode._enabled
        grad_mode._set_enabled(True)
    try:
        if buffer is None:
            # No edge in delivered a gradient (e.g. the backward of norm(0)):
            # nothing to run; the node passes "no gradient" on.
            grad_outputs = _NO_GRADIENT
            if show and not leaf:
                sent = tuple([(next_node, nr, None) for next_node, nr in node.next_functions])
        else:
            grad_outputs = (buffer[0],) if len(buffer) == 2 else tuple(buffer[0::2])
            if leaf and reuse:
                owned = buffer[1] and _own_buffer(buffer[0])
            if node._tensor_pre_hooks or node._retains_grad or (
                    leaf and node.variable._leaf_hooks):
                grad_outputs, owned, retained = _run_tensor_hooks(
                    node, grad_outputs, owned, not create_graph)
            if not leaf and (needed is None or _leads_further(node, needed)):
                if needed is not None and not show:
                    grads = _run_for_needed(node, grad_outputs, needed, create_graph,
                                            release)
                elif create_graph:
                    grads = node._run(grad_outputs)
                else:
                    grads = node._run_on_arrays(grad_outputs, release)
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
                    if show:
                        received_by.setdefault(next_node, []).append((node, input_nr, grad))
                if show:  # (nothing goes along an edge to no node)
                    sent = tuple([(next_node, input_nr, None if next_node is None else grad)
                                  for (next_node, input_nr), grad
                                  in zip(node.next_functions, grads)])
    finally:
        if create_graph:
            grad_mode._set_enabled(previous)
    if show or leaf or retained or (targets is not None and node in targets):
        step = BackwardStep(index, node, received)
        step.grad_outputs, step.sent, step.retained, step._owned = \
            grad_outputs, sent, retained, owned
        return step
    return None


_NO_GRADIENT = (None,)


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
    elif not reuse:  # Tensors, or steps that are shown: new values
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
    run = node._run if create_graph else partial(node._run_on_arrays, release=release)
    if wanted == declared or not node.formula_on_arrays:
        return run(grad_outputs)
    node.needs_input_grad = wanted
    try:
        return run(grad_outputs)
    finally:
        node.needs_input_grad = declared


def _leads_further(node, needed) -> bool:
    for next_node, _ in node.next_functions:
        if next_node in needed:
            return True
    return False


def _run_tensor_hooks(node: Node, grad_outputs: tuple, owned: bool, on_arrays: bool) -> tuple:
    """Hooks from ``register_hook`` may replace a gradient; retained
    gradients (``retain_grad``) see the result, as in PyTorch. Hooks see
    Tensors (arrays are wrapped for them, and run with grad mode off).
    Returns the gradients, whether gradient 0 is still owned, and the
    retained ``(tensor, grad)`` pairs."""
    hooks = node._tensor_pre_hooks
    if type(node) is AccumulateGrad and node.variable._leaf_hooks:
        hooks = {0: node.variable._leaf_hooks}
    if hooks:
        grads = list(grad_outputs)
        previous = grad_mode._enabled
        if on_arrays:
            grad_mode._set_enabled(False)
        try:
            for nr, hook_list in hooks.items():
                for hook in hook_list:
                    if nr < len(grads) and grads[nr] is not None:
                        replaced = hook(_wrapped(grads[nr], on_arrays))
                        if replaced is not None:
                            _check_hook_result(hook, grads[nr], replaced)
                            grads[nr] = replaced._data if on_arrays else replaced
                            owned = owned and nr != 0
        finally:
            grad_mode._set_enabled(previous)
        grad_outputs = tuple(grads)
    retained = ()
    retains = node._retains_grad
    if retains:
        retained = []
        for nr, ref in retains.items():
            tensor = ref()
            if tensor is not None and nr < len(grad_outputs) and grad_outputs[nr] is not None:
                retained.append((tensor, grad_outputs[nr]))
        retained = tuple(retained)
    return grad_outputs, owned, retained


def _check_hook_result(hook, original, result) -> None:
    """What a hook returns must be a tensor of the gradient's dtype and shape
    (torch's check_variable_result, with its messages)."""
    if not isinstance(result, TensorBase):
        raise TypeError(errors.HOOK_RETURNED.format(type(result).__name__))
    data = original if isinstance(original, np.ndarray) else original._data
    name = getattr(hook, "__name__", "<unknown>")
    if result._data.dtype != data.dtype:
        was = make(data).type()
        raise RuntimeError(errors.HOOK_CHANGED_TYPE.format(name, was, result.type()))
    if result._data.shape != data.shape:
        raise RuntimeError(errors.HOOK_CHANGED_SIZE.format(name))


def _as_tensors(step: BackwardStep) -> BackwardStep:
    """A step as ``backward_steps`` shows it: its gradients as Tensors, and what
    ``.grad`` would become (nothing is changed)."""
    def wrap(grad):
        return None if grad is None else make(grad)
    step.received = [(source, nr, wrap(grad)) for source, nr, grad in step.received]
    step.grad_outputs = tuple(wrap(grad) for grad in step.grad_outputs)
    step.sent = tuple((node, nr, wrap(grad)) for node, nr, grad in step.sent)
    previous = grad_mode._enabled
    grad_mode._set_enabled(False)
    try:
        if step.is_leaf:
            grad = step.grad_outputs[0] if step.grad_outputs else None
            step.leaf_grad = step.node.variable._grad if grad is None else \
                _accumulated(step.node.variable, grad)
        step.retained = tuple((tensor, _accumulated(tensor, wrap(grad)))
                              for tensor, grad in step.retained)
    finally:
        grad_mode._set_enabled(previous)
    return step


def _accumulated(tensor, grad):
    """What ``tensor.grad`` becomes when ``grad`` arrives: gradients add up
    across backward calls (that is why training loops call ``zero_grad``)."""
    old = tensor._grad
    if old is None:
        return grad.clone()  # a copy: the arriving tensor may be the caller's own
    return old + grad

