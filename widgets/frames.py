"""Backward as a flip-book: one layout, one SVG frame per step.

The graph is laid out once, with every label at its final size (each arrow
already carries the gradient it will carry, each leaf the grad it will end
with), so nothing moves from frame to frame. A frame is that SVG with
colours and texts changed: the node that runs is gold, arrows that have
carried a gradient are red and show it, leaves show their grad so far.
Frame 0 is before backward; frame k is after step k.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

from .draw import NO_GRAD, box_lines, digraph, grad_lines
from .graph import GraphModel
from .narrate import narrate, narrate_start
from .render import render_svg
from .text import short

__all__ = ["flip_book", "frame_html", "sentence_lines"]

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")

WAITING, CARRIED = "#bbbbbb", "#cc0000"
CURRENT_FILL, CURRENT_STROKE, DONE_FILL, LEAF_DONE = "#ffd966", "#b45f06", "#d9d2e9", "#9fc5e8"


def flip_book(model: GraphModel, steps: list, gradient=None, *, max_values: int = 8,
              engine: str | None = None) -> tuple[list[str], list[str]]:
    """``(svg_frames, narration)``, one of each per frame (``len(steps) + 1``)."""
    plan = _Plan(model, steps, max_values)
    reserved = {box_id: _widest(lines) for box_id, lines in plan.box_labels.items()}
    arrows = {arrow_id: f"  {max(texts, key=len)}  " if max(texts, key=len) else ""
              for arrow_id, texts in plan.arrow_texts.items()}  # room to spare between labels
    root = ET.fromstring(render_svg(digraph(model, reserved, arrows), engine))
    book = _Book(root, model, plan)
    texts = [narrate_start(model, steps, gradient)]
    frames = [book.frame(-1, texts[0])]
    for step in steps:
        texts.append(narrate(step, model, len(steps)))
        frames.append(book.frame(step.index, texts[-1]))
    return frames, texts


def frame_html(svg: str, text: str, index: int, total: int, lines: int = 2) -> str:
    """A frame for the page: the sentence above the picture. Every frame keeps
    room for ``lines`` lines of sentence, so the picture stays put when the
    sentence wraps."""
    return (f'<div class="minigrad-frame" role="group" aria-label="frame {index} of {total}">'
            f'<p style="margin:0 0 4px 0;white-space:normal;max-width:60em;line-height:1.4;'
            f'min-height:{1.4 * lines:.1f}em">'
            f'{html.escape(text)}</p><div style="overflow-x:auto">{svg}</div></div>')


def sentence_lines(texts: list[str], per_line: int = 100) -> int:
    """Lines to keep for the longest sentence (60 em of text hold about 100 to
    120 characters; counted low so the room is never too small)."""
    return max(2, max((-(-len(text) // per_line) for text in texts), default=1))


class _Plan:
    """What changes when: per step, the labels of the arrows and boxes it touches."""

    def __init__(self, model: GraphModel, steps: list, max_values: int) -> None:
        self.box_labels = {box.id: [box_lines(model, box, max_values=max_values)]
                           for box in model.boxes.values()}
        self.arrow_texts = {arrow.id: [""] for arrow in model.arrows.values()}
        self.changes = []  # per step: (box id, [(arrow id, text)], {box id: lines})
        for step in steps:
            box_id = model.box_of[step.node]
            arrows = [(model.arrow_of[("output", i)], short(g))
                      for i, g in self._seeds(model, step)]
            arrows += [(model.arrow_of[(step.node, e)], short(grad))
                       for e, (_, _, grad) in enumerate(step.sent)
                       if grad is not None and (step.node, e) in model.arrow_of]
            labels = {}
            if step.is_leaf and model.boxes[box_id].kind == "leaf":
                labels[box_id] = self._with_grad(model, box_id, step.leaf_grad, max_values)
            for tensor, grad in step.retained:
                for box in model.boxes.values():
                    if box.tensor is tensor and box.kind in ("tensor", "output"):
                        labels[box.id] = self._with_grad(model, box.id, grad, max_values)
            for arrow_id, text in arrows:
                self.arrow_texts[arrow_id].append(text)
            for label_id, lines in labels.items():
                self.box_labels[label_id].append(lines)
            self.changes.append((box_id, arrows, labels))

    @staticmethod
    def _seeds(model, step):
        """(output number, seed gradient) for the seeds this step received."""
        for source, _, grad in step.received:
            if source is None:
                for i, output in enumerate(model.outputs):
                    if output.grad_fn is step.node:
                        yield i, grad

    @staticmethod
    def _with_grad(model, box_id, grad, max_values) -> list[str]:
        box = model.boxes[box_id]
        lines = box_lines(model, box, grad=NO_GRAD, max_values=max_values)
        return lines + grad_lines(grad, max_values if box.count == 1 else 0)


def _widest(labels: list[list[str]]) -> list[str]:
    """Line by line, the longest text any frame will show (to reserve its room)."""
    height = max(len(lines) for lines in labels)
    return [max((lines[i] if i < len(lines) else "" for lines in labels), key=len) or " "
            for i in range(height)]


class _Book:
    """The laid-out SVG, changed step by step and copied out as frames."""

    def __init__(self, root: ET.Element, model: GraphModel, plan: _Plan) -> None:
        self.root, self.model, self.plan = root, model, plan
        self.groups = {g.get("id"): g for g in root.iter(f"{{{SVG}}}g") if g.get("id")}
        self.current = None
        self.fresh = []  # arrows that carried a gradient in the step just shown
        self.strokes = {}  # box id -> its stroke colour before it was highlighted
        _slim(root)
        root.set("role", "img")
        for arrow_id in model.arrows:
            self._arrow(arrow_id, None)
        for box_id, labels in plan.box_labels.items():
            self._text(box_id, labels[0])

    def frame(self, index: int, text: str) -> str:
        """Apply step ``index`` (-1: none yet) and return the frame's SVG."""
        for arrow_id in self.fresh:
            self._paint_arrow(arrow_id, width="1")
        if self.current is not None:
            self._paint_box(self.current, done=True)
        if index < 0:
            box_id, arrows, labels = self.model.output_ids[0], [], {}
        else:
            box_id, arrows, labels = self.plan.changes[index]
        for arrow_id, label in arrows:
            self._arrow(arrow_id, label)
        for label_id, lines in labels.items():
            self._text(label_id, lines)
            self._fill(label_id, LEAF_DONE)
        self.fresh = [arrow_id for arrow_id, _ in arrows]
        self.current = box_id
        self._paint_box(box_id, done=False)
        self.root.set("aria-label", text)
        return ET.tostring(self.root, encoding="unicode")

    # ---- editing the SVG ----------------------------------------------------

    def _elements(self, group_id: str, tag: str) -> list:
        group = self.groups.get(group_id)
        return [] if group is None else list(group.iter(f"{{{SVG}}}{tag}"))

    def _text(self, group_id: str, lines: list[str]) -> None:
        texts = self._elements(group_id, "text")
        for i, element in enumerate(texts):
            element.text = lines[i] if i < len(lines) else ""
        if len(lines) > len(texts) and texts:  # more lines than reserved: keep them all
            texts[-1].text = " ".join(lines[len(texts) - 1:])

    def _arrow(self, arrow_id: str, label: str | None) -> None:
        texts = self._elements(arrow_id, "text")
        if texts:
            texts[0].text = label or ""
        self._paint_arrow(arrow_id, width="2.5" if label else "1",
                          colour=CARRIED if label is not None else WAITING)

    def _paint_arrow(self, arrow_id: str, width: str, colour: str | None = None) -> None:
        for element in self._elements(arrow_id, "path") + self._elements(arrow_id, "polygon"):
            if colour:
                element.set("stroke", colour)
                if element.tag.endswith("polygon"):
                    element.set("fill", colour)
            _set(element, "stroke-width", width, default="1")
        if colour:
            for element in self._elements(arrow_id, "text"):
                element.set("fill", colour)

    def _paint_box(self, box_id: str, done: bool) -> None:
        shape = self._shape(box_id)
        if shape is None:
            return
        if done:
            shape.set("stroke", self.strokes.get(box_id, "#666666"))
            _set(shape, "stroke-width", "1", default="1")
            if self.model.boxes[box_id].kind in ("op", "more"):
                shape.set("fill", DONE_FILL)
            self.groups[box_id].set("class", self._classes(box_id).replace(" current", ""))
        else:
            self.strokes.setdefault(box_id, shape.get("stroke", "#666666"))
            shape.set("stroke", CURRENT_STROKE)
            shape.set("stroke-width", "3")
            if self.model.boxes[box_id].kind in ("op", "more"):
                shape.set("fill", CURRENT_FILL)
            self.groups[box_id].set("class", self._classes(box_id) + " current")

    def _classes(self, box_id: str) -> str:
        return self.groups[box_id].get("class", "").replace(" current", "")

    def _fill(self, box_id: str, colour: str) -> None:
        shape = self._shape(box_id)
        if shape is not None:
            shape.set("fill", colour)

    def _shape(self, box_id: str):
        shapes = self._elements(box_id, "polygon")
        return shapes[0] if shapes else None


def _set(element, name: str, value: str, default: str) -> None:
    """Set an attribute, leaving it out when it has its default value (smaller frames)."""
    if value == default:
        element.attrib.pop(name, None)
    else:
        element.set(name, value)


def _slim(root: ET.Element) -> None:
    """Make every frame smaller: fonts set once on the root instead of on each
    text, and no per-node <title> (the node's tooltip says more)."""
    root.set("font-family", "Courier,monospace")
    root.set("font-size", "11.00")
    for text in root.iter(f"{{{SVG}}}text"):
        if text.get("font-family") == "Courier,monospace":
            del text.attrib["font-family"]
        if text.get("font-size") == "11.00":
            del text.attrib["font-size"]
    for group in root.iter(f"{{{SVG}}}g"):
        if "node" in group.get("class", "").split() or "edge" in group.get("class", "").split():
            for title in group.findall(f"{{{SVG}}}title"):
                group.remove(title)
