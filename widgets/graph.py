"""What a drawing contains: the grad_fn graph walked once, as boxes and arrows.

``GraphModel.build(outputs)`` walks ``grad_fn.next_functions`` from the
outputs (an explicit stack, no recursion) and numbers the ops in a
topological order: newest first, the order the engine runs them in. Ids come
from that order (``op0``, ``op1``, ..., ``acc0`` and its ``leaf0``, ``out0``), never from
``id()``, so the same code gives the same ids on every run and views can
style a node by its id.

A *box* is one drawn node: an op (``MulBackward0``), a leaf's
``AccumulateGrad`` (the node that adds the gradient into the leaf's
``.grad``, named as torchviz names it) with the leaf tensor itself beside it,
an output tensor, a non-leaf tensor named by the learner, a saved tensor, or
"… more". An *arrow* is one drawn edge; arrows follow ``next_functions``, the
way gradients travel. Runs of repeated ops are drawn as one box each (see
``collapse``), and past ``max_nodes`` boxes the rest is summarised in one
"more" box, so any graph is quick to lay out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .adapter import FREED, is_leaf_node, is_tensor, order, saved_values
from .collapse import Run, find_runs

__all__ = ["Box", "Arrow", "GraphModel", "FREED", "named_tensors"]


@dataclass
class Box:
    id: str
    kind: str  # "op", "accumulate", "leaf", "output", "tensor", "saved" or "more"
    nodes: list = field(default_factory=list)  # the grad_fn nodes it stands for
    tensor: object = None  # the tensor shown ("accumulate", "leaf": the leaf; "saved": the value)
    name: str = ""  # the learner's name for the tensor, or the saved value's name
    count: int = 1  # > 1 for a collapsed run
    params: tuple = ()  # saved non-tensor values of an op, as ("dim", 1) pairs

    @property
    def node(self):
        return self.nodes[0] if self.nodes else None


@dataclass
class Arrow:
    id: str
    tail: str
    head: str
    kind: str = "grad"  # "grad" (along next_functions), "output", "tensor", "leaf", "saved",
    #                      "more"
    count: int = 0  # how many graph edges it stands for


class GraphModel:
    """Boxes and arrows for ``outputs``; see the module docstring."""

    def __init__(self) -> None:
        self.boxes: dict[str, Box] = {}
        self.arrows: dict[str, Arrow] = {}
        self.box_of: dict = {}  # grad_fn node -> box id
        self.arrow_of: dict = {}  # (node, index in next_functions) -> arrow id
        self.outputs: list = []
        self.ops: list = []  # every non-leaf node, in topological order
        self.runs: list[Run] = []
        self.run_at: dict = {}  # position in ops -> the Run it belongs to
        self.hidden = 0  # how many nodes the "more" box stands for
        self.leaf_box: dict[str, str] = {}  # AccumulateGrad box id -> its leaf tensor's box id
        self.learner_names: set = set()  # the names given with names=
        self._parents: dict = {}

    @classmethod
    def build(cls, outputs, names=None, *, collapse: int | None = 4, max_nodes: int = 200,
              saved: bool = False, id_prefix: str = "") -> "GraphModel":
        """``names``: ``{"x": x, ...}`` labels tensors; ``collapse``: the fewest
        repeats drawn as one box (None: never); ``max_nodes``: boxes before
        "more"; ``saved``: add the tensors saved for backward."""
        model = cls()
        model.outputs = list(outputs)
        named = {id(tensor): (name, tensor) for name, tensor in named_tensors(names).items()}
        model.learner_names = {name for name, _ in named.values()}
        roots = [t.grad_fn for t in model.outputs if t.grad_fn is not None]
        parents = _parents(roots)
        for root in roots:
            parents[root].append("output")  # so no run can swallow an output
        model.ops = _topological(roots)
        model._parents = parents
        model.runs = find_runs(model.ops, parents, collapse) if collapse else []
        model.run_at = {p: run for run in model.runs
                        for p in range(run.start, run.start + run.period * run.count)}
        model._add_outputs(named, id_prefix)
        order = model._add_graph_boxes(named, id_prefix)
        if len(order) > max_nodes:
            model._hide(order[max_nodes:], id_prefix)
        model._add_arrows()
        model._add_leaves(id_prefix)
        model._add_tensors(named)
        if saved:
            model._add_saved(named)
        return model

    def tensor_name(self, node, output_nr: int = 0) -> str | None:
        """The learner's name for the tensor that is output ``output_nr`` of
        ``node`` (for a leaf's AccumulateGrad: the leaf), if they gave one."""
        box = self.boxes.get(self.box_of.get(node))
        if box is not None and box.kind == "accumulate" and box.count == 1:
            return box.name or None
        for box in self.boxes.values():
            if box.kind in ("tensor", "output") and box.name and box.tensor.grad_fn is node \
                    and box.tensor.output_nr == output_nr:
                return box.name
        return None

    def name_of(self, node) -> str:
        """How narration names a node: ``MulBackward0``, or ``x`` for a named leaf."""
        box = self.boxes[self.box_of[node]]
        if box.kind == "accumulate" and box.name:
            return box.name
        return "AccumulateGrad" if is_leaf_node(node) else node.name()

    # ---- boxes ------------------------------------------------------------

    def _add_outputs(self, named, prefix) -> None:
        self.output_ids = []
        for i, tensor in enumerate(self.outputs):
            name = named.get(id(tensor), ("",))[0]
            self.output_ids.append(self._add(Box(f"{prefix}out{i}", "output", tensor=tensor,
                                                 name=name)))

    def _add_graph_boxes(self, named, prefix) -> list[str]:
        """One box per op and per leaf (one per run position when collapsed);
        returns the box ids in drawing order."""
        leaves, order = itertools.count(), []
        for position, node in enumerate(self.ops):
            run = self.run_at.get(position)
            twin = None  # the same position in the run's first block
            if run is not None and run.block_of(position) > 0:
                twin = self.ops[position - run.block_of(position) * run.period]
                self._join(node, self.box_of[twin])
            else:
                order.append(self._add(Box(f"{prefix}op{position}", "op", [node],
                                           count=run.count if run else 1)))
                self.box_of[node] = order[-1]
            for index, (child, _) in enumerate(node.next_functions):
                if not is_leaf_node(child) or child in self.box_of:
                    continue
                own = run is not None and len(self._parents[child]) == 1
                if own and twin is not None:  # a fresh leaf per block: drawn once, "× count"
                    twins_leaf = twin.next_functions[index][0]
                    if is_leaf_node(twins_leaf):
                        self._join(child, self.box_of[twins_leaf])
                        continue
                name = named.get(id(child.variable), ("",))[0]
                box = Box(f"{prefix}acc{next(leaves)}", "accumulate", [child], child.variable,
                          name, count=run.count if own and twin is None else 1)
                order.append(self._add(box))
                self.box_of[child] = box.id
        return order

    def _add(self, box: Box) -> str:
        self.boxes[box.id] = box
        return box.id

    def _join(self, node, box_id: str) -> None:
        self.boxes[box_id].nodes.append(node)
        self.box_of[node] = box_id

    def _hide(self, hidden_ids, prefix) -> None:
        more = self._add(Box(f"{prefix}more", "more"))
        for box_id in hidden_ids:
            for node in self.boxes.pop(box_id).nodes:
                self._join(node, more)
        self.hidden = len(self.boxes[more].nodes)

    def _add_arrows(self) -> None:
        position = {node: p for p, node in enumerate(self.ops)}
        for i, (tail, tensor) in enumerate(zip(self.output_ids, self.outputs)):
            if tensor.grad_fn is not None:
                self._arrow(f"{tail}-0", tail, self.box_of[tensor.grad_fn], "output",
                            ("output", i))
        for p, node in enumerate(self.ops):
            tail = self.box_of[node]
            if self.boxes[tail].kind == "more":
                continue
            run = self.run_at.get(p)
            for index, (child, _) in enumerate(node.next_functions):
                if child is None:
                    continue
                if run is not None and position.get(child, -1) in run \
                        and run.block_of(position[child]) != run.block_of(p):
                    continue  # the run's own chain: the "× count" label says it
                head = self.box_of[child]
                if self.boxes[head].kind == "more":
                    self._arrow(f"{tail}-more", tail, head, "more", (node, index))
                else:
                    self._arrow(f"{tail}-{index}", tail, head, "grad", (node, index))

    def _arrow(self, arrow_id, tail, head, kind, edge) -> None:
        arrow = self.arrows.setdefault(arrow_id, Arrow(arrow_id, tail, head, kind))
        arrow.count += 1
        self.arrow_of[edge] = arrow_id

    def _add_leaves(self, prefix) -> None:
        """Each leaf tensor drawn beside its AccumulateGrad box (``acc3`` -> ``leaf3``)."""
        for box in list(self.boxes.values()):
            if box.kind == "accumulate":
                leaf = self._add(Box(f"{prefix}leaf{box.id[len(prefix) + 3:]}", "leaf",
                                     tensor=box.tensor, name=box.name, count=box.count))
                self.leaf_box[box.id] = leaf
                self.arrows[f"{leaf}-arrow"] = Arrow(f"{leaf}-arrow", box.id, leaf, "leaf", 1)

    def _add_tensors(self, named) -> None:
        """Named non-leaf tensors, beside the op that made them."""
        outputs = {id(t) for t in self.outputs}
        found = {}
        for name, tensor in named.values():
            box_id = self.box_of.get(tensor.grad_fn)
            if id(tensor) in outputs or box_id is None or self.boxes[box_id].kind != "op" \
                    or self.boxes[box_id].count > 1:
                continue
            found.setdefault((box_id, tensor.output_nr), (name, tensor))
        for (op_id, nr), (name, tensor) in found.items():
            box_id = self._add(Box(f"{op_id}-tensor{nr}", "tensor", tensor=tensor, name=name))
            self.arrows[f"{box_id}-arrow"] = Arrow(f"{box_id}-arrow", box_id, op_id, "tensor", 1)

    def _add_saved(self, named) -> None:
        """What each op saved for backward: tensors as boxes, the rest as params."""
        names = {id(t): name for name, t in named.values()}
        for box in list(self.boxes.values()):
            if box.kind != "op" or box.count > 1:
                continue
            params = []
            for name, value in saved_values(box.node):
                if value is FREED or hasattr(value, "grad_fn"):
                    label = f"{name} = {names[id(value)]}" if id(value) in names else name
                    saved_id = self._add(Box(f"{box.id}-saved-{name}", "saved", tensor=value,
                                             name=label))
                    arrow_id = f"{saved_id}-arrow"
                    self.arrows[arrow_id] = Arrow(arrow_id, box.id, saved_id, "saved", 1)
                elif value is not None:
                    params.append((name, value))
            box.params = tuple(params)


def named_tensors(names) -> dict:
    """``{"x": x, ...}`` with modules replaced by their parameters, named as
    ``named_parameters()`` names them (``0.weight``; ``net.0.weight`` for
    ``{"net": net}``). ``names`` may be a module itself."""
    if names is None:
        return {}
    if hasattr(names, "named_parameters"):
        names = {"": names}
    found = {}
    for name, value in names.items():
        if hasattr(value, "named_parameters"):
            for inner, parameter in value.named_parameters():
                found[f"{name}.{inner}" if name else inner] = parameter
        elif is_tensor(value):
            found[name] = value
    return found


def _parents(roots) -> dict:
    """node -> the nodes whose next_functions point at it (one entry per edge)."""
    parents = {root: [] for root in roots}
    stack = list(dict.fromkeys(roots))
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            if child not in parents:
                parents[child] = []
                stack.append(child)
            parents[child].append(node)
    return parents


def _topological(roots) -> list:
    """Non-leaf nodes in the order the engine runs them (its own
    ``execution_order``: a node after all its parents, the newest ready node
    first), so an unrolled loop comes out block after block."""
    return [node for node in order(roots) if not is_leaf_node(node)]
