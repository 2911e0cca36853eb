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

``backward_steps`` yields a ``BackwardStep`` per node run and changes no
``.grad``: it is what the stepper widget shows. ``run_backward`` (behind
``Tensor.backward`` and ``autograd.grad``) walks the very same generator and
applies what each step says: leaf gradients accumulated, retained gradients
stored, saved tensors freed.
"""

from __future__ import annotations

import heapq
import warnings
from dataclasses import dataclass, field
from typing import Iterator, Sequence

import numpy as np

from .. import errors
from . import grad_mode
from .node import AccumulateGrad, Node

__all__ = ["BackwardStep", "backward_steps", "execution_order", "run_backward"]


@dataclass(eq=False)
class BackwardStep:
    """One node of a backward pass, as it ran.

    ``received``: the gradients that arrived, in arrival order, as
    ``(from_node, output_nr, grad)`` (``from_node`` is None for the seed
    gradient given to ``backward``). ``grad_outputs``: their sums, one per
    output of the node, after hooks. ``sent``: one ``(next_node, input_nr,
    grad)`` per edge in ``next_functions`` (grad None where none flows).
    ``leaf_grad``: for an ``AccumulateGrad`` step, the leaf's ``.grad`` after
    this step. ``retained``: ``(tensor, grad)`` for non-leaves that called
    ``retain_grad()``.
    """

    index: int
    node: Node
    received: list = field(default_factory=list)
    grad_outputs: tuple = ()
    sent: tuple = ()
    leaf_grad: object = None
    retained: tuple = ()

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
    roots = _roots(tensors, grad_tensors)
    return _walk(roots, targets=_targets(inputs), keep_graph=True, create_graph=False)


def run_backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
                 inputs=None, accumulate=True):
    """Run backward and apply it. With ``accumulate=False`` (``autograd.grad``),
    leaves are not touched and the gradients reaching ``inputs`` are returned."""
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph and accumulate:
        warnings.warn(errors.CREATE_GRAPH_CYCLE, UserWarning, stacklevel=3)
    roots = _roots(tensors, grad_tensors)
    targets = _targets(inputs)
    if accumulate and inputs is not None:
        for tensor in (inputs,) if isinstance(inputs, _tensor.Tensor) else inputs:
            if tensor.grad_fn is not None:
                tensor.retain_grad()  # backward(inputs=[y]) fills y.grad, as in PyTorch
    captured = {}
    for step in _walk(roots, targets, keep_graph=retain_graph, create_graph=create_graph):
        if step.is_leaf and accumulate and step.grad_outputs[0] is not None:
            _store_grad(step.node.variable, step.leaf_grad, create_graph)
        if targets is not None and step.node in targets:
            for nr in targets[step.node]:
                captured[(step.node, nr)] = step.grad_outputs[nr]
        if accumulate:
            for tensor, grad in step.retained:
                _store_grad(tensor, grad, create_graph)
    return captured


def _store_grad(tensor, grad, create_graph: bool) -> None:
    """Set ``tensor.grad``. An existing gradient is updated in place (as
    PyTorch does), so a reference someone kept to ``x.grad`` stays current."""
    old = tensor._grad
    if old is None or create_graph or old.requires_grad or old.shape != grad.shape \
            or not old._data.flags.writeable:
        tensor._grad = grad
        return
    np.copyto(old._data, grad._data, casting="unsafe")
    old._version_counter.value += 1


def _roots(tensors, grad_tensors) -> list:
    """Pair each output with its seed gradient, checking both as torch does."""
    Tensor = _tensor.Tensor
    if isinstance(tensors, Tensor):
        tensors = (tensors,)
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    elif isinstance(grad_tensors, Tensor):
        grad_tensors = (grad_tensors,)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(
            f"got {len(grad_tensors)} tensors and {len(tensors)} gradients"
        )
    roots = []
    for index, (output, grad) in enumerate(zip(tensors, grad_tensors)):
        if not output.requires_grad:
            raise RuntimeError(errors.NO_GRAD_FN.format(index=index))
        if grad is None:
            if output.numel() != 1:
                raise RuntimeError(errors.IMPLICIT_GRAD_SCALAR_ONLY)
            grad = Tensor._make(np.ones(output.shape, output._data.dtype))  # d out / d out
        else:
            if not isinstance(grad, Tensor):  # a number, for a one-element output
                grad = Tensor._make(np.full(output.shape, grad, output._data.dtype))
            if grad.shape != output.shape:
                raise errors.gradient_shape_mismatch(index, grad.shape, output.shape)
            if grad.dtype is not output.dtype:
                grad = grad.to(output.dtype)
        roots.append((*output._gradient_edge(), grad))
    return roots


def _targets(inputs) -> dict | None:
    """For ``inputs=``: node -> output numbers whose gradients are wanted."""
    if inputs is None:
        return None
    if isinstance(inputs, _tensor.Tensor):
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
    dependencies = {node: 0 for node in root_nodes}
    stack = list(dict.fromkeys(root_nodes))
    seen = set(stack)
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            dependencies[next_node] = dependencies.get(next_node, 0) + 1
            if next_node not in seen:
                seen.add(next_node)
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
    walked when the caller asks for the next one. This is the only place
    that decides the order: ``backward`` uses it, and so does anything that
    shows a backward pass (the widgets pass PyTorch's ``_sequence_nr()`` to
    replay a real torch graph in torch's order).
    """
    if sequence_nr is None:
        sequence_nr = _creation_number
    if dependencies is None:
        dependencies = _count_dependencies(root_nodes)
    ready: list = []
    for node in dict.fromkeys(root_nodes):
        if dependencies[node] == 0:
            heapq.heappush(ready, _Ready(sequence_nr(node), node))
    while ready:
        node = heapq.heappop(ready).node
        yield node
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            dependencies[next_node] -= 1
            if dependencies[next_node] == 0:
                heapq.heappush(ready, _Ready(sequence_nr(next_node), next_node))


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


def _creation_number(node) -> float:
    return node._sequence_nr


def _walk(roots, targets, keep_graph: bool, create_graph: bool) -> Iterator[BackwardStep]:
    root_nodes = [node for node, _, _ in roots]
    dependencies = _count_dependencies(root_nodes)
    needed = _needed(dependencies, targets) if targets is not None else None
    arrivals: dict = {}  # node -> [(from_node, output_nr, grad)]

    def deliver(node, nr, grad, source):
        arrivals.setdefault(node, []).append((source, nr, grad))

    for node, nr, grad in roots:
        deliver(node, nr, grad, None)

    index = 0
    for node in execution_order(root_nodes, dependencies=dependencies):
        received = arrivals.pop(node, [])
        if needed is not None and node not in needed:
            continue
        step = BackwardStep(index, node, received)
        # Backward formulas are recorded only for create_graph=True; the mode
        # is set per step, not across the yield, so the caller's code between
        # steps runs in its own grad mode.
        previous = grad_mode._enabled
        grad_mode._set_enabled(create_graph)
        try:
            _compute_step(step, node, create_graph, keep_graph,
                          run=targets is None or _leads_further(node, needed))
        finally:
            grad_mode._set_enabled(previous)
        for next_node, input_nr, grad in step.sent:
            if next_node is not None and grad is not None:
                deliver(next_node, input_nr, grad, node)
        index += 1
        yield step


def _compute_step(step, node, create_graph, keep_graph, run) -> None:
    """Fill in ``step``: sum what arrived, run hooks, then the node's backward."""
    step.grad_outputs = _sum_arrivals(node, step.received)
    if step.grad_outputs[0] is None and all(grad is None for grad in step.grad_outputs):
        # Every edge in delivered "no gradient" (e.g. the backward of norm(0)):
        # nothing to run; the node passes "no gradient" on.
        if isinstance(node, AccumulateGrad):
            step.leaf_grad = node.variable._grad
        else:
            step.sent = tuple((next_node, nr, None) for next_node, nr in node.next_functions)
        return
    _run_tensor_hooks(node, step, create_graph)
    if isinstance(node, AccumulateGrad):
        step.leaf_grad = _accumulated(node.variable, step.grad_outputs[0], create_graph)
    elif run:
        grads = node._run(step.grad_outputs)
        if not keep_graph:
            node.release_saved()
        step.sent = tuple(
            (next_node, input_nr, grad)
            for (next_node, input_nr), grad in zip(node.next_functions, grads)
        )


def _leads_further(node, needed) -> bool:
    return any(next_node in needed for next_node, _ in node.next_functions)


def _sum_arrivals(node: Node, received: list) -> tuple:
    """Sum the gradients that arrived for each output of ``node``."""
    if len(received) == 1 and received[0][1] == 0:  # one edge in: nothing to add
        return (received[0][2],)
    outputs = 1 + max((nr for _, nr, _ in received), default=0)
    sums = [None] * outputs
    for _, nr, grad in received:
        sums[nr] = grad if sums[nr] is None else sums[nr] + grad
    return tuple(sums)


def _run_tensor_hooks(node: Node, step: BackwardStep, create_graph: bool) -> None:
    """Hooks from ``register_hook`` may replace a gradient; retained
    gradients (``retain_grad``) see the result, as in PyTorch."""
    hooks = node._tensor_pre_hooks
    if isinstance(node, AccumulateGrad) and node.variable._leaf_hooks:
        hooks = {0: node.variable._leaf_hooks}
    if hooks:
        grads = list(step.grad_outputs)
        for nr, hook_list in hooks.items():
            for hook in hook_list:
                if nr < len(grads) and grads[nr] is not None:
                    replaced = hook(grads[nr])
                    if replaced is not None:
                        grads[nr] = replaced
        step.grad_outputs = tuple(grads)
    retains = node._retains_grad
    if retains:
        retained = []
        for nr, ref in retains.items():
            tensor = ref()
            if tensor is not None and nr < len(step.grad_outputs) \
                    and step.grad_outputs[nr] is not None:
                retained.append((tensor, _accumulated(tensor, step.grad_outputs[nr],
                                                      create_graph, retained=True)))
        step.retained = tuple(retained)


def _accumulated(tensor, grad, create_graph: bool, retained: bool = False):
    """What ``tensor.grad`` becomes when ``grad`` arrives: gradients add up
    across backward calls (that is why training loops call ``zero_grad``)."""
    old = tensor._grad
    if old is not None:
        return old + grad
    # A copy: the arriving tensor may be the caller's own (y.backward(g)).
    if not create_graph:
        return grad.detach().clone()
    # As torch: a leaf's first grad is copied into new memory (CopyBackwards),
    # a retained one is cloned (CloneBackward0), both in the graph.
    if retained:
        return grad.clone()
    return grad.new_zeros(tuple(grad.shape)).copy_(grad)


# At the bottom, because tensor.py (the floor above) imports this module.
from .. import tensor as _tensor  # noqa: E402
