"""The backward engine: the walk over the graph that applies the chain rule.

1. Count, for every node reachable from the outputs, how many edges point at it
   (an explicit stack, no recursion, so a 100,000-op chain is fine).
2. Start from the output nodes with the seed gradients. A node is *ready* when
   every edge into it has delivered its gradient; the gradients that arrive along
   several edges are summed first. Among ready nodes the one created last runs
   first (as in PyTorch), and ``AccumulateGrad`` nodes run as soon as they are
   ready. One function decides that order: ``execution_order``.
3. A ready node runs its hooks, then its backward (the chain rule for its op), and
   sends one gradient along each of its ``next_functions`` edges.

``backward_steps`` is that walk, written to be read: it yields a ``BackwardStep``
per node and changes no ``.grad`` (the stepper widget shows it). ``backward()``
takes the same walk made fast (``fast.py``), proven to give the same order, hooks,
errors and bits by a differential test. Usually (no ``create_graph``) nothing about
backward is recorded, so gradients are NumPy arrays and each node's formula runs on
arrays (``Node.run_formula``).
"""

from __future__ import annotations

import heapq
import itertools
import operator
from typing import Iterator, Sequence

import numpy as np

from .. import errors
from ..kernels.float_errors import restore as restore_float_errors, silence as silence_float_errors
from ..kernels.layout import new_layout
from ..kernels.meta import ones_like
from . import anomaly, grad_mode, profiler
from .hooks import run_posthooks, run_prehooks
from .node import AccumulateGrad, Node, _LEAF_SEQUENCE
from .tensor_base import TensorBase, make

__all__ = ["BackwardStep", "backward_steps", "walk", "execution_order", "GraphTask",
           "RUNNING"]


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
    ``retain_grad()``. ``captured``: for a node of ``autograd.grad``'s inputs that runs on
    (toward another input), the gradients as they arrived, before its tensor hooks, which
    is what PyTorch's engine hands back for it (else None: ``grad_outputs``).
    """

    __slots__ = ("index", "node", "received", "grad_outputs", "sent", "leaf_grad",
                 "retained", "captured", "_owned")

    def __init__(self, index: int, node: Node, received: list) -> None:
        self.index = index
        self.node = node
        self.received = received
        self.grad_outputs: tuple = ()
        self.sent: tuple = ()
        self.leaf_grad = None
        self.retained: tuple = ()
        self.captured = None
        self._owned = False  # grad_outputs[0] is an array nobody else holds

    @property
    def is_leaf(self) -> bool:
        return isinstance(self.node, AccumulateGrad)

    def __repr__(self) -> str:
        return f"<BackwardStep {self.index}: {self.node.name()}>"


def backward_steps(tensors, grad_tensors=None, *, inputs=None) -> Iterator[BackwardStep]:
    """Yield the steps of ``backward`` on ``tensors`` without changing any ``.grad``.

    The graph is kept (nothing is freed), so the real ``backward()`` can still run
    afterwards. Hooks registered with ``register_hook`` run, as in the real pass.

    >>> import minigrad as torch
    >>> x = torch.ones(2, requires_grad=True)
    >>> [step.node.name() for step in torch.autograd.backward_steps((x * 3).sum())]
    ['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    """
    roots = seeds(tensors, grad_tensors, as_arrays=True)
    targets = None if inputs is None else wanted(inputs)
    return map(_as_tensors, _running(walk(roots, targets), roots, targets))


def _running(steps: Iterator, roots, targets) -> Iterator:
    """``steps``, taken while their pass is the graph task running (see GraphTask)."""
    task = GraphTask(roots, targets, accumulate=True).start()
    try:
        yield from steps
    finally:
        task.stop()


def walk(roots, targets=None, accumulate: bool = True) -> Iterator[BackwardStep]:
    """The walk: for each node in execution order, add up the gradients that arrived,
    run the hooks, apply the node's backward (the chain rule for its op) and send the
    gradients on along its edges. ``roots``: (node, output_nr, seed gradient) triples;
    ``targets`` (``inputs=``): only the nodes on a path to them run (``accumulate=False``,
    as ``autograd.grad``: the targets' nodes themselves only receive)."""
    root_nodes = [node for node, _, _ in roots]
    dependencies = count_dependencies(root_nodes)
    needed = None if targets is None else needed_nodes(dependencies, targets)
    arrived = {}  # node -> [(from_node, output_nr, grad)], in the order they came
    for node, nr, grad in roots:
        arrived.setdefault(node, []).append((None, nr, grad))
    steps = (node for node in execution_order(root_nodes, dependencies=dependencies)
             if needed is None or node in needed)
    for index, node in enumerate(steps):
        received = arrived.pop(node, [])
        with quiet_and_observed(node, received):  # (beside the math: see there)
            sums = summed(received)  # the gradients that arrived, added up
            grad_outputs, _, retained = run_tensor_hooks(node, sums, owned=False, on_arrays=True)
            grad_outputs, grads = _chain_rule(node, grad_outputs, needed, accumulate, retained)
        for (next_node, nr), grad in zip(node.next_functions, grads):  # sent on
            if next_node is not None and grad is not None and (needed is None
                                                               or next_node in needed):
                arrived.setdefault(next_node, []).append((node, nr, grad))
        step = _step(index, node, received, grad_outputs, grads, retained)
        yield _captured(step, sums, needed, accumulate)


class quiet_and_observed:  # noqa: N801 (used as ``with quiet_and_observed(node, received):``)
    """Around one node's step of ``walk``, what is not the math: NumPy's floating-point
    warnings off (inf and nan come silently, as in PyTorch: kernels/float_errors.py),
    anomaly mode told which node runs (``anomaly.blame``: the node's forward line is
    shown if the step fails) and the profiler's events for the step
    (``profiler.node_step``). None of them changes a gradient. It is
    ``with silenced(), anomaly.blame(node), profiler.node_step(node, received):`` written
    out, without the generator of ``silenced`` (a stepper of 15,000 steps runs it 15,000
    times). (``fast.py``'s walk turns the warnings off once for its whole pass, and the
    other two on only while anomaly mode or the profiler is on.)"""

    __slots__ = ("blame", "events", "token")

    def __init__(self, node, received: list) -> None:
        self.blame = anomaly.blame(node)
        self.events = profiler.node_step(node, received)

    def __enter__(self) -> None:
        self.token = silence_float_errors()
        self.blame.__enter__()
        self.events.__enter__()

    def __exit__(self, kind, error, trace) -> None:
        try:
            try:
                self.events.__exit__(kind, error, trace)
            except BaseException as raised:  # (what the next one out sees, as in a with)
                kind, error, trace = type(raised), raised, raised.__traceback__
                raise
            finally:
                self.blame.__exit__(kind, error, trace)
        finally:
            restore_float_errors(self.token)


def _captured(step: BackwardStep, sums: tuple, needed, accumulate: bool) -> BackwardStep:
    """``step``, with what ``autograd.grad`` hands back for its node if the node runs on
    toward another input: the gradients as they arrived (``sums``), before any hook, as
    PyTorch's engine captures them (else its ``grad_outputs``: after the tensor hooks)."""
    if not accumulate and needed is not None and type(step.node) is not AccumulateGrad \
            and leads_further(step.node, needed):
        step.captured = sums
    return step


def summed(received: list) -> tuple:
    """The gradients that arrived for each output of a node, added up in the order they
    came ((None,) when none came)."""
    sums = [None]
    for _, nr, grad in received:
        sums += [None] * (nr + 1 - len(sums))
        sums[nr] = grad if sums[nr] is None else sums[nr] + grad
    return tuple(sums)


def _chain_rule(node, grad_outputs: tuple, needed, accumulate: bool, retained: tuple) -> tuple:
    """``_apply``, keeping the ``retained`` gradients if the node fails: torch keeps them
    when their hooks run, before the node (``run_backward`` stores them)."""
    try:
        return _apply(node, grad_outputs, needed, accumulate)
    except Exception as error:
        error._retained_grads = retained
        raise


def _apply(node, grad_outputs: tuple, needed, accumulate: bool) -> tuple:
    """The node runs: its pre-hooks (which may change ``grad_outputs``), its backward
    (the chain rule), its post-hooks, and anomaly mode's NaN check. Returns the
    ``grad_outputs`` and what it sends along each of its edges. A leaf sends nothing; a
    node that received nothing sends None along every edge. With ``inputs=``, a target
    runs too (as in torch: its hooks see None along edges to nodes that do not run),
    except in ``autograd.grad`` (``accumulate=False``), where it only receives."""
    if all(grad is None for grad in grad_outputs):
        return grad_outputs, (() if type(node) is AccumulateGrad
                              else (None,) * len(node.next_functions))
    if needed is not None and not accumulate and not leads_further(node, needed):
        return grad_outputs, ()
    grad_outputs = run_prehooks(node, grad_outputs, True)
    grads = () if type(node) is AccumulateGrad else node.run_formula(grad_outputs)
    grads = run_posthooks(node, grads, grad_outputs, needed, True)
    anomaly.check_nan(node, grads, needed)
    return grad_outputs, grads


def leads_further(node, needed) -> bool:
    """Whether an edge of ``node`` leads to a node in ``needed``."""
    for next_node, _ in node.next_functions:
        if next_node in needed:
            return True
    return False


def _step(index: int, node, received: list, grad_outputs: tuple, grads: tuple,
          retained: tuple) -> BackwardStep:
    """The step of ``node``: what it received, summed, sent (nothing along an edge to
    no node) and kept (retained gradients)."""
    step = BackwardStep(index, node, received)
    step.grad_outputs, step.retained = grad_outputs, retained
    step.sent = tuple([(next_node, nr, None if next_node is None else grad)
                       for (next_node, nr), grad in zip(node.next_functions, grads)])
    return step


def seeds(tensors, grad_tensors, as_arrays: bool) -> list:
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
    # (every seed is made and checked first, then each output's edge: torch's order)
    grads = [_seed(index, output, grad, as_arrays)
             for index, (output, grad) in enumerate(zip(tensors, grad_tensors))]
    for index, output in enumerate(tensors):
        # (a view made under no_grad requires grad, through its base, but has no edge
        # for a gradient: torch refuses it the same way)
        if isinstance(output, TensorBase) and (not output.requires_grad or (
                not output._requires_grad and output.grad_fn is None)):
            raise RuntimeError(errors.NO_GRAD_FN.format(index=index))
    return [(*_edge_of(output), grad) for output, grad in zip(tensors, grads)]


def _edge_of(value) -> tuple:
    """(node, number) of a tensor's gradient, or of a GradientEdge (torch.autograd.graph)."""
    if isinstance(value, TensorBase):
        return value._gradient_edge()
    return value.node, value.output_nr


def _seed(index: int, output, grad, as_arrays: bool):
    """The gradient backward starts ``output`` with (1 for a one-element output; a
    GradientEdge's must be given)."""
    if not isinstance(output, TensorBase):
        if grad is None:
            raise RuntimeError(errors.IMPLICIT_GRAD_SCALAR_ONLY)
        return grad._data if as_arrays else grad
    if grad is None:
        if output.requires_grad and output.numel() != 1:
            raise RuntimeError(errors.IMPLICIT_GRAD_SCALAR_ONLY)
        grad = make(ones_like(output._data))  # d out / d out
    else:
        if not isinstance(grad, TensorBase):  # a number, for a one-element output
            grad = make(np.full(output.shape, grad, output._data.dtype))
        if grad.shape != output.shape:
            raise errors.gradient_shape_mismatch(index, grad.shape, output.shape)
        if grad.dtype is not output.dtype:
            grad = grad.to(output.dtype)
    return grad._data if as_arrays else grad


def wanted(inputs) -> dict | None:
    """For ``inputs=``: node -> output numbers whose gradients are wanted."""
    if inputs is None:
        return None
    if isinstance(inputs, TensorBase) or hasattr(inputs, "output_nr"):  # (one tensor or edge)
        inputs = (inputs,)
    targets: dict = {}
    for tensor in inputs:
        if isinstance(tensor, TensorBase) and not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = _edge_of(tensor)
        targets.setdefault(node, []).append(nr)
    return targets


def count_dependencies(root_nodes: Sequence[Node]) -> dict:
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


class RefusingNode(Node):
    """A node whose backward only raises: PyTorch's ``NotImplemented`` (``floor_divide``,
    ``heaviside``). Like PyTorch's, it keeps edges only to inputs that need a gradient,
    and its sequence number is the leaves' (PyTorch's UINT64_MAX): it runs, and so
    raises, as soon as it is ready, before any older node (a freed graph's among them);
    newer nodes that were ready first, and their hooks, have run (as in PyTorch)."""

    def _link(self, inputs, output, inputs_match_output: bool = False) -> None:
        super()._link(inputs, output, inputs_match_output)
        self._sequence_nr = _LEAF_SEQUENCE
        self.next_functions = tuple(edge for edge in self.next_functions if edge[0] is not None)


def needed_nodes(dependencies: dict, targets: dict) -> set:
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
    walked when the caller asks for the next one. This rule is the engine's:
    ``walk`` takes its nodes from here, ``fast._walk`` (``backward()``'s walk) follows
    it with ``first_ready`` and ``count_down``, and anything that shows a backward pass
    uses it (the widgets pass PyTorch's ``_sequence_nr()`` to replay a real torch
    graph in torch's order).
    """
    if sequence_nr is None:
        sequence_nr = _creation_number
    if dependencies is None:
        dependencies = count_dependencies(root_nodes)
    ready = first_ready(root_nodes, dependencies, sequence_nr)
    while ready:
        node = heapq.heappop(ready).node
        while node is not None:
            yield node
            node = count_down(node, dependencies, ready, sequence_nr)


def first_ready(root_nodes: Sequence, dependencies: dict, sequence_nr) -> list:
    """The heap of ready nodes at the start: the roots no edge points at."""
    ready: list = []
    for node in dict.fromkeys(root_nodes):
        if dependencies[node] == 0:
            heapq.heappush(ready, Ready(sequence_nr(node), node))
    return ready


def count_down(node, dependencies: dict, ready: list, sequence_nr):
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
                heapq.heappush(ready, Ready(sequence_nr(following), following))
            following = next_node
    if following is not None and ready:
        heapq.heappush(ready, Ready(sequence_nr(following), following))
        following = None
    return following


class Ready:
    """A ready node in the heap, compared by creation number only. Ties
    (several leaves ready at once) then come out of Python's binary heap in
    the same order as out of PyTorch's (a C++ std::priority_queue: the same
    sift-down-to-a-leaf pop), e.g. a, c, b, d for ``torch.stack([a, b, c, d])``."""

    __slots__ = ("number", "node")

    def __init__(self, number, node) -> None:
        self.number, self.node = number, node

    def __lt__(self, other: "Ready") -> bool:
        return self.number > other.number  # newest first


_creation_number = operator.attrgetter("_sequence_nr")  # (a node's creation order)


def run_tensor_hooks(node: Node, grad_outputs: tuple, owned: bool, on_arrays: bool) -> tuple:
    """Hooks from ``register_hook`` may replace a gradient; retained gradients
    (``retain_grad``) see the result, as in PyTorch. Hooks see Tensors (arrays are
    wrapped for them, and run with grad mode off). Returns the gradients, whether
    gradient 0 is still owned (see fast.py), and the retained ``(tensor, grad)`` pairs."""
    hooks = node._tensor_pre_hooks
    if type(node) is AccumulateGrad and node.variable._leaf_hooks:
        hooks = {0: node.variable._leaf_hooks}
    if hooks:
        previous = grad_mode._asked
        if on_arrays:
            grad_mode._set_enabled(False)
        try:
            grad_outputs, owned = _hooked(hooks, grad_outputs, owned, on_arrays)
        finally:
            grad_mode._set_enabled(previous)
    retained = ()
    if node._retains_grad:
        retained = tuple([(tensor, grad_outputs[nr]) for nr, tensor in
                          ((nr, ref()) for nr, ref in node._retains_grad.items())
                          if tensor is not None and nr < len(grad_outputs)
                          and grad_outputs[nr] is not None])
    return grad_outputs, owned, retained


def _hooked(hooks: dict, grad_outputs: tuple, owned: bool, on_arrays: bool) -> tuple:
    """The gradients after the hooks (each sees what the one before returned; a hook on an
    output that got no gradient sees None, as in PyTorch, and may not replace it)."""
    grads = list(grad_outputs)
    for nr, hook_dict in hooks.items():
        for hook in tuple(hook_dict.values()):
            grad = grads[nr] if nr < len(grads) else None
            replaced = hook(wrapped(grad, on_arrays))
            if replaced is not None:
                if grad is None:
                    raise RuntimeError("can't replace a None gradient with a non-None value")
                _check_hook_result(hook, grad, replaced)
                grads[nr] = replaced._data if on_arrays else replaced
                owned = owned and nr != 0
    return tuple(grads), owned


def wrapped(grad, on_arrays: bool):
    """A gradient as a hook (or ``autograd.grad``) receives it: a Tensor (an empty one
    row-major, as torch's, where NumPy's has strides of 0)."""
    if grad is None or not on_arrays:
        return grad
    return make(new_layout(grad))


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
    previous = grad_mode._asked
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


# ---- the pass running now: what torch.autograd.graph's multi-grad hooks ask ---------------

RUNNING: list = []  # the GraphTasks of the backward passes now running, innermost last


class GraphTask:
    """A backward pass while it runs, as a hook sees it: its ``id`` (PyTorch's
    ``_current_graph_task_id``) and whether it will run a node (its
    ``_will_engine_execute_node``: the node is reachable from the roots and, with
    ``inputs=``, on a path to them), worked out when first asked."""

    _ids = itertools.count()

    def __init__(self, roots, targets: dict | None, accumulate: bool) -> None:
        self.id = next(GraphTask._ids)
        self.root_nodes = [node for node, _, _ in roots]
        self.targets, self.accumulate = targets, accumulate
        self._runs: set | None = None

    def will_run(self, node) -> bool:
        if self._runs is None:
            dependencies = count_dependencies(self.root_nodes)
            self._runs = set(dependencies) if self.targets is None else \
                set(dependencies) & needed_nodes(dependencies, self.targets)
        runs = node in self._runs
        if runs and not self.accumulate and node in self.targets and not node.next_functions:
            raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                               "currently running autograd.grad(). This is currently not "
                               "supported.")
        return runs

    def start(self) -> GraphTask:
        RUNNING.append(self)
        return self

    def stop(self) -> None:
        RUNNING.remove(self)
