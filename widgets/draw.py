"""``draw_graph``: a tensor's grad_fn graph as a ``graphviz.Digraph``.

Grey boxes are the backward nodes (``MulBackward0``: hover for its
derivative; a leaf's is ``AccumulateGrad``, which adds the gradient into the
leaf's ``.grad``), blue boxes the leaf tensors with their ``.grad``, each
beside its ``AccumulateGrad``, the green box the output; yellow boxes are
non-leaf tensors you named, orange ones the tensors an op saved for backward.
Arrows follow ``next_functions``: the way gradients travel in backward, from
the output down to the leaves.

>>> import minigrad as torch
>>> x = torch.ones(2, 2, requires_grad=True)
>>> y = x + 2
>>> out = (y * y * 3).mean()
>>> graph = draw_graph(out, names={"x": x, "out": out})
>>> graph.summary
'graph of out: 4 operations, 1 leaf'
"""

from __future__ import annotations

from collections import Counter

import graphviz
from minigrad.autograd import formula_for

from .adapter import FREED, is_leaf_node
from .describe import describe
from .graph import Box, GraphModel
from .i18n import _, in_words, ngettext
from .render import Digraph
from .symbols import pytorch_words, rewrite, term
from .text import shape_text, short, value_lines

__all__ = ["draw_graph", "box_lines", "digraph"]

FILL = {"op": "#eeeeee", "accumulate": "#eeeeee", "leaf": "#cfe2f3", "output": "#d9ead3", "tensor": "#fff2cc",
        "saved": "#fce5cd", "more": "#ffffff"}
FONT = "Courier"  # in the SVG: font-family="Courier,monospace"
# The widest drawing shown at its own size, in inches (Graphviz's unit): 8.6 in is 826 px,
# within the 848 px of a notebook's output in JupyterLab in a 1280 px window with its file
# browser open, with room for a check's frame around its graph (12 px). A wider graph is
# drawn smaller to fit (Graphviz's "size"), rather than cut off at the panel's edge, where
# a learner would have to scroll sideways to see its leaves.
MAX_WIDTH = 8.6
SPINE_WEIGHT = 8  # an arrow between two ops costs this many times more to bend or stretch
NO_GRAD = object()  # a non-leaf that does not retain its grad: no "grad" line


def draw_graph(tensor, names: dict | None = None, *, show_saved: bool = False,
               collapse: int | None = 4, max_nodes: int = 200, max_values: int = 8,
               id_prefix: str = "", edge_values: bool = False) -> Digraph:
    """Draw the graph that ``tensor.backward()`` would walk.

    ``tensor``: one tensor or a list of them. ``names``: ``{"x": x, ...}``
    to label tensors (an ``nn.Module``, alone or as a value, names its
    parameters as ``named_parameters()`` does: ``0.weight``). The result's
    ``.text`` lists every box, arrow and value in words. ``show_saved``: also draw what each op saved for
    backward. ``collapse``: runs of at least this many repeated ops are drawn
    once, as ``MulBackward0 × 10`` (None: never). ``max_nodes``: beyond
    this many boxes the rest is one "… more" box. ``max_values``: tensors up
    to this many elements show their values, larger ones their range. ``id_prefix`` is put before
    every SVG id (to tell several graphs on one page apart). ``edge_values``:
    label each arrow with the value that travelled along it in the forward
    pass (``q = 3``), where that tensor is known: a leaf, an output, or a
    tensor named in ``names``.
    """
    outputs = list(tensor) if isinstance(tensor, (list, tuple)) else [tensor]
    for i, output in enumerate(outputs):
        if not output.requires_grad:
            raise ValueError(_("draw_graph: output {number} does not require grad, so it has "
                               "no graph to draw; create its inputs with requires_grad=True"
                               ).format(number=i))
    model = GraphModel.build(outputs, names, collapse=collapse, max_nodes=max_nodes,
                             saved=show_saved, id_prefix=id_prefix)
    labels = {box.id: box_lines(model, box, max_values=max_values)
              for box in model.boxes.values()}
    arrow_labels = {a.id: f"× {a.count:,}" for a in model.arrows.values()
                    if a.count > 1 and model.boxes[a.head].count == 1}
    forward = _forward_values(model) if edge_values else {}
    arrow_labels.update(forward)
    graph = digraph(model, labels, arrow_labels)
    formulas = {box.id: _formula_text(box.node.name(), model.learner_names)
                for box in model.boxes.values()
                if box.kind == "op"}
    graph.text = describe(model, labels, graph.summary, formulas, forward)
    return graph


def _forward_values(model: GraphModel) -> dict:
    """Arrow id -> ``"q = 3"``: the value each arrow carried forward (its
    tensor's name and value), for the arrows whose tensor is drawn."""
    tensor_of = {}  # box id -> the box showing that box's tensor (a leaf, or a named result)
    for acc_id, leaf_id in model.leaf_box.items():
        if model.boxes[leaf_id].count == 1:
            tensor_of[acc_id] = model.boxes[leaf_id]
    for arrow in model.arrows.values():
        if arrow.kind in ("tensor", "output") and model.boxes[arrow.tail].count == 1:
            tensor_of.setdefault(arrow.head, model.boxes[arrow.tail])
    labels = {}
    for arrow in model.arrows.values():
        shown = {"grad": tensor_of.get(arrow.head),
                 "output": model.boxes[arrow.tail]}.get(arrow.kind)
        if shown is not None and arrow.count <= 1:
            # TRANSLATORS: an arrow's label, "value = 3", for a tensor with no name
            name = shown.name or _("value")  # (a call of _ outside an f-string is extracted)
            labels[arrow.id] = f"{name} = {short(shown.tensor)}"
    return labels


def box_lines(model: GraphModel, box: Box, grad=None, max_values: int = 8) -> list[str]:
    """The label of ``box``, line by line; the first line is its title.
    ``grad`` replaces the tensor's current ``.grad`` (the stepper uses it)."""
    if box.kind == "op":
        title = box.node.name() + (f" × {box.count:,}" if box.count > 1 else "")
        return [title] + [f"{name} = {short(value) if hasattr(value, 'shape') else value!r}"
                          for name, value in box.params]
    if box.kind == "accumulate":  # the name torch's AccumulateGrad.name() gives, shortened
        return ["AccumulateGrad" + (f" × {box.count:,}" if box.count > 1 else "")]
    if box.kind == "more":
        return [_("… {count} more nodes").format(count=model.hidden),
                _("(draw_graph(..., max_nodes=N) shows more)")]
    if box.kind == "saved":
        saved = _("saved {name}").format(name=box.name)
        if box.tensor is FREED:
            return [saved, _("(freed after backward)")]  # FREED, in words
        return [f"{saved}  {shape_text(box.tensor)}", *value_lines(box.tensor, max_values)]
    tensor = box.tensor
    title = box.name or {"leaf": _("leaf"), "output": _("output"),
                         "tensor": _("retained")}[box.kind]
    title += f" × {box.count:,}" if box.count > 1 else ""
    lines = [title if tensor.dim() == 0 else f"{title}  {shape_text(tensor)}"]
    if box.count == 1:
        lines += value_lines(tensor, max_values)
    grad = _current_grad(tensor) if grad is None else grad
    if grad is not NO_GRAD:
        lines += grad_lines(grad, max_values if box.count == 1 else 0)
    return lines


def grad_lines(grad, max_values: int = 8) -> list[str]:
    """``["grad: 4.5"]``, ``["grad:", "[[4.5, 4.5],", " [4.5, 4.5]]"]`` or ``["grad: None"]``
    (``max_values`` 0: one short summary)."""
    if grad is None:
        return ["grad: None"]
    lines = value_lines(grad, max_values) if max_values else [short(grad)]
    return [f"grad: {lines[0]}"] if len(lines) == 1 else ["grad:", *lines]


def _current_grad(tensor):
    if tensor.is_leaf or tensor.retains_grad:  # reading it otherwise only warns
        return tensor.grad
    return NO_GRAD


def digraph(model: GraphModel, labels: dict, arrow_labels: dict,
            fills: dict | None = None) -> Digraph:
    """The DOT for ``model`` with the given box labels (lists of lines) and arrow labels;
    ``fills``: {box id: colour} for boxes not filled with their kind's colour."""
    # Courier: Graphviz sizes boxes by its metrics, and every browser's fallback
    # monospace font has the same advance (0.6 em), so labels fit their boxes on
    # any machine (with Helvetica, a browser without it draws wider text).
    said = summary(model)
    # newrank: a box beside its op or AccumulateGrad (a cluster of the two) keeps its rank;
    # the op boxes' "ordering=out" asks for their inputs left to right in next_functions'
    # order (addmm's bias, input, weight; Graphviz keeps it where the clusters let it), so
    # the layers of a network stack up straight instead of each one stepping right of the
    # one above it (lesson 9's graph was 1,900 px wide, drawn at 0.44 without it)
    graph = Digraph(name=said, graph_attr={"rankdir": "TB", "nodesep": "0.3",
                                           "ranksep": "0.35", "newrank": "true",
                                           "size": f"{MAX_WIDTH},1000"},
                    node_attr={"shape": "box", "style": "filled", "fontname": FONT,
                               "fontsize": "11", "color": "#666666", "margin": "0.1,0.04"},
                    edge_attr={"fontname": FONT, "fontsize": "10", "color": "#555555"})
    graph.summary = said
    fills = fills or {}
    for box in model.boxes.values():
        graph.node(box.id, graphviz.nohtml(_label(labels[box.id])), id=box.id,
                   fillcolor=fills.get(box.id, FILL[box.kind]),
                   tooltip=graphviz.escape(_tooltip(box)),
                   **{"class": _classes(box)},
                   **({"style": "filled,dashed"} if box.kind in ("more", "saved") else {}),
                   **({"penwidth": "2"} if box.count > 1 else {}),
                   **({"ordering": "out"} if box.kind == "op" else {}))
    _add_groups(graph, model)
    between = Counter((arrow.tail, arrow.head) for arrow in model.arrows.values())
    for arrow in model.arrows.values():
        style = {"saved": {"style": "dotted", "arrowhead": "none"},
                 "tensor": {"style": "dashed", "arrowhead": "none"},
                 "leaf": {"style": "dashed", "arrowhead": "none"},
                 "more": {"style": "dashed"}}.get(arrow.kind, {})
        label = arrow_labels.get(arrow.id)
        # a leaf left of its AccumulateGrad, as a named tensor is left of its op (a flat
        # edge's tail is drawn left of its head); heavy arrows between ops keep the chain of
        # ops straight, with leaves and named tensors hung on its left
        ends = (arrow.head, arrow.tail) if arrow.kind == "leaf" else (arrow.tail, arrow.head)
        spine = arrow.kind == "grad" and model.boxes[arrow.tail].kind == "op" \
            and model.boxes[arrow.head].kind == "op"
        # two labelled arrows between the same boxes (y * y) get a rank more between them:
        # squeezed into one, the left arrow bulged around its label like a loop (Chinese)
        twin = label and between[arrow.tail, arrow.head] > 1
        graph.edge(*ends, id=arrow.id, **{"class": arrow.kind}, **style,
                   **({"weight": str(SPINE_WEIGHT)} if spine else {}),
                   **({"minlen": "2"} if twin else {}),
                   **({"label": graphviz.escape(label)} if label else {}))
    return graph


def _add_groups(graph: Digraph, model: GraphModel) -> None:
    """A dashed frame around each repeated block; tensor boxes beside their op (in a
    frameless cluster of the two, so that nothing comes between them)."""
    for run in model.runs:
        first = model.box_of[model.ops[run.start]]
        if run.period > 1 and first in model.boxes:
            with graph.subgraph(name=f"cluster_{first}") as loop:
                loop.attr(label=_("repeated × {count}").format(count=f"{run.count:,}"), style="dashed",
                          color="#999999",
                          fontname=FONT, fontsize="10", labeljust="r", id=f"{first}-run")
                for node in model.ops[run.start:run.start + run.period]:
                    loop.node(model.box_of[node])
    for box in model.boxes.values():
        if box.kind in ("tensor", "leaf"):
            arrow = model.arrows[box.id + "-arrow"]
            with graph.subgraph(name=f"cluster_{box.id}") as beside:
                beside.attr(rank="same", peripheries="0", margin="0", id=f"{box.id}-beside")
                beside.node(box.id)
                beside.node(arrow.head if arrow.tail == box.id else arrow.tail)


def _label(lines: list[str]) -> str:
    """Title centred, the other lines (values) left-aligned."""
    body = "".join(graphviz.escape(line) + "\\l" for line in lines[1:])
    return graphviz.escape(lines[0]) + "\\n" + body


def _classes(box: Box) -> str:
    classes = [box.kind]
    if box.kind == "op":
        classes.append(box.node.name())
    if box.kind == "accumulate":
        classes.append("AccumulateGrad")
    if box.count > 1:
        classes.append("collapsed")
    return " ".join(classes)


def _tooltip(box: Box) -> str:
    if box.kind == "op":
        tip = f"{box.node.name()}: {_formula_text(box.node.name())}"
        return tip + (_(" (a run of {count} of them)").format(count=box.count)
                      if box.count > 1 else "")
    if box.kind == "accumulate":
        return _("AccumulateGrad: adds the gradient it receives into the .grad of the leaf "
                 "beside it")
    return {"leaf": _("a leaf tensor: backward adds into its .grad"),
            "output": _("the output: backward starts here"),
            "tensor": _("a non-leaf tensor (its .grad is kept only after retain_grad())"),
            "saved": _("a tensor this op saved for its backward"),
            "more": _("nodes not drawn")}[box.kind]


def _formula_text(name: str, taken=()) -> str:
    """``result = self * other. d(result)/d(self) = other,  d(result)/d(other) = self``,
    from the table, in PyTorch's words and none of the learner's ``taken`` names."""
    formula = in_words(formula_for(name))
    if formula is None:
        return _("no formula on file for this node")
    words = pytorch_words(formula, taken)
    terms = ",  ".join(term(formula, name, words) for name in formula.inputs)
    return (f"{rewrite(formula.output, words)} = {rewrite(formula.expression, words)}."
            + (f" {terms}" if terms else ""))


def summary(model: GraphModel) -> str:
    """One line: what the drawing of ``model`` holds."""
    names = [box.name or _("output") for box in model.boxes.values() if box.kind == "output"]
    ops = len(model.ops)
    leaves = sum(is_leaf_node(node) for node in model.box_of)
    text = _("graph of {names}: {operations}, {leaves}").format(
        names=", ".join(names) or "out",
        operations=ngettext("{count} operation", "{count} operations", ops).format(count=ops),
        leaves=ngettext("{count} leaf", "{count} leaves", leaves).format(count=leaves))
    if model.runs:
        text += ngettext(", {count} repeated run collapsed", ", {count} repeated runs collapsed",
                         len(model.runs)).format(count=len(model.runs))
    if model.hidden:
        text += _(", {count} nodes not drawn").format(count=model.hidden)
    return text
