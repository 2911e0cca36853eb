"""The drawing in words: every box, arrow and value, for readers who cannot see it.

``draw_graph(out).text`` is this listing::

    graph of out: 4 operations, 1 leaf
    out0  output "out" = 27; backward starts here and goes to op0 (MeanBackward0)
    op0   MeanBackward0: y = mean of all n elements of x; sends its gradient to op1 (MulBackward0)
    ...
    leaf0 leaf "x" [2, 2] = [[1., 1.], [1., 1.]]; grad: None

Each line names a box by its id (the same id the SVG uses), what it is, its
label's text, and where its arrows go.
"""

from __future__ import annotations

from .graph import GraphModel
from .i18n import _

__all__ = ["describe"]


def _kind(kind: str) -> str:
    """The word a line starts with for a box of this kind."""
    return {"op": "", "accumulate": "", "leaf": _("leaf"), "output": _("output"), "tensor": _("tensor"),
            "saved": _("saved"), "more": _("more")}[kind]


def describe(model: GraphModel, labels: dict, summary: str, formulas: dict,
             values: dict | None = None) -> str:
    """``labels``: box id -> label lines; ``formulas``: box id -> the op's formula text;
    ``values``: arrow id -> the value it carried forward (``draw_graph(edge_values=True)``)."""
    values = values or {}
    lines = [summary]
    width = max((len(box_id) for box_id in model.boxes), default=0)
    arrows_from: dict = {}
    for arrow in model.arrows.values():
        arrows_from.setdefault(arrow.tail, []).append(arrow)
    for box in model.boxes.values():
        text = _box_text(box, labels[box.id], formulas.get(box.id))
        grouped: dict = {}  # (kind, head) -> edges, so parallel arrows are said once
        carried: dict = {}  # (kind, head) -> the value those arrows carried forward
        for arrow in arrows_from.get(box.id, []):
            grouped[(arrow.kind, arrow.head)] = grouped.get((arrow.kind, arrow.head), 0) \
                + arrow.count
            if arrow.id in values:
                carried[(arrow.kind, arrow.head)] = values[arrow.id]
        goes = [_arrow_text(labels, kind, head, count)
                + (_(" (forward, it carried {value})").format(value=carried[kind, head])
                   if (kind, head) in carried else "")
                for (kind, head), count in grouped.items()]
        if goes:
            text += "; " + ", ".join(goes)
        lines.append(f"{box.id.ljust(width)}  {text}")
    return "\n".join(lines)


def _box_text(box, label: list, formula: str | None) -> str:
    title, rest = label[0], [line.strip() for line in label[1:]]
    values = " ".join(rest)
    if box.kind == "op":  # one line per saved number: "(alpha = 1, beta = 1)"
        return f"{title}: {formula}" + (f" ({', '.join(rest)})" if rest else "")
    if box.kind == "more":
        return f"{title} {values}".strip()
    if box.kind == "accumulate":
        return title
    name = f'"{box.name}"' if box.name else ""
    shape = title[len(box.name):].strip() if box.name and title.startswith(box.name) else ""
    head = " ".join(part for part in (_kind(box.kind), name, shape) if part)
    if box.kind in ("leaf", "output", "tensor") and not box.name:
        head = title
    values = values.replace("grad:", "; grad:").replace(" ; grad:", "; grad:")
    return f"{head} = {values}" if values and not values.startswith(";") else head + values


def _arrow_text(labels: dict, kind: str, head_id: str, count: int) -> str:
    head = f"{head_id} ({' '.join(labels[head_id][0].split())})"
    if kind in ("grad", "more") and count > 1:
        return (_("sends its gradient to {head} along {count} edges") if kind == "grad" else
                _("sends gradients to {head} along {count} edges")).format(head=head, count=count)
    return {"output": _("backward starts here and goes to {head}"),
            "grad": _("sends its gradient to {head}"),
            "more": _("sends gradients to {head}"),
            "tensor": _("is the result of {head}"),
            "leaf": _("adds the gradient it receives into the .grad of {head}"),
            "saved": _("saved {head}")}[kind].format(head=head)
