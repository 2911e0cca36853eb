"""The frames' picture: one layout, styled frame by frame.

The graph is laid out once, with every label at its widest (each arrow
already holds the longest gradient it will show, each leaf the longest grad),
so nothing moves from frame to frame. A frame is that picture with colours
and texts changed: the box that runs is gold with a thick border (in frame 0,
the output's, where backward starts), boxes already run are lilac with a
dashed border, arrows that carried a gradient are red and say it (thick in
the frame that carried it), leaves turn blue and show their grad so far (a
retained grad is written into its box, which keeps its colour), as
``widgets.legend`` says beside the picture.

The picture goes to the browser once, as an SVG with a style sheet. A frame
on the page is only its sentence and a marker (``mgXXXX f7 g1 g2 … g7``:
frame 7, at or past frames 1 to 7), and the style sheet says, per frame,
what changes: ``.minigrad-stepper:has(.mgXXXX.g7) #op3 polygon{fill:…}``. So a
frame costs its sentence and a few bytes per frame before it, never a copy of
the graph; a label that changes is in the SVG once per text it takes, hidden
until its frame. ``svg(k)`` also draws frame ``k`` as a plain SVG, for the
static copy beside the widget and for tests.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
import xml.etree.ElementTree as ET

from .draw import box_lines, digraph
from .frames import Frame
from .graph import GraphModel
from .render import inline_svg, render_svg

__all__ = ["FlipBook"]

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")

WAITING, CARRIED = "#bbbbbb", "#cc0000"
CURRENT_FILL, CURRENT_STROKE, DONE_FILL, LEAF_DONE = "#ffd966", "#b45f06", "#d9d2e9", "#9fc5e8"
DONE_DASH = "5,2"  # boxes that ran: a dashed border as well as their colour
FILLED = ("op", "accumulate", "more")  # kinds of box whose fill shows that they ran
# The box of the frame is gold whatever its kind (frame 0's is the output, where backward
# starts): the legend says "gold, thick border: where backward is (the output before it
# starts, then the node running ...)", so the picture draws both.


class FlipBook(Sequence):
    """The laid-out picture of ``frames`` over ``model``; see the module docstring.
    As a sequence, ``book[k]`` is frame ``k`` as a plain SVG (made when asked)."""

    def __init__(self, model: GraphModel, frames: list[Frame], *, max_values: int = 8,
                 engine: str | None = None) -> None:
        self.model, self.plan = model, frames
        # per group id (a box or an arrow): [(frame, lines)], the label from that frame on
        self.texts = {box.id: [(0, box_lines(model, box, max_values=max_values))]
                      for box in model.boxes.values()}
        self.texts.update({arrow_id: [(0, [""])] for arrow_id in model.arrows})
        for k, frame in enumerate(frames):
            for arrow_id, label in frame.arrows.items():
                self.texts[arrow_id].append((k, [label]))
            for box_id, lines in frame.labels.items():
                self.texts[box_id].append((k, lines))
        reserved = {box_id: _widest([lines for _, lines in self.texts[box_id]])
                    for box_id in model.boxes}
        arrows = {}  # room to spare between labels
        for arrow_id in model.arrows:
            longest = max((lines[0] for _, lines in self.texts[arrow_id]), key=len)
            arrows[arrow_id] = f"  {longest}  " if longest else ""
        graph = digraph(model, reserved, arrows)
        self.summary = graph.summary  # "graph of out: 4 operations, 1 leaf"
        self.root = ET.fromstring(render_svg(graph, engine))
        self.groups = {g.get("id"): g for g in self.root.iter(f"{{{SVG}}}g") if g.get("id")}
        _slim(self.root)
        self.root.set("role", "img")
        for arrow_id in model.arrows:
            self._paint_arrow(self.root, arrow_id, WAITING, "1")
        for group_id, labels in self.texts.items():
            _set_text(self._elements(self.root, group_id, "text"), labels[0][1])
        self.token = "mg" + hashlib.sha1(
            (ET.tostring(self.root, encoding="unicode") + "".join(f.text for f in frames))
            .encode()).hexdigest()[:10]

    # ---- frame k as a plain SVG (the static copy, tests) -------------------

    def __len__(self) -> int:
        return len(self.plan)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.svg(i) for i in range(*k.indices(len(self)))]
        return self.svg(range(len(self))[k])

    def svg(self, k: int) -> str:
        """Frame ``k`` as a standalone SVG, its sentence as its text alternative."""
        root = copy.deepcopy(self.root)
        groups = {g.get("id"): g for g in root.iter(f"{{{SVG}}}g") if g.get("id")}
        for j, frame in enumerate(self.plan[:k + 1]):
            for arrow_id, label in frame.arrows.items():
                _set_text(self._elements(root, arrow_id, "text", groups), [label])
                self._paint_arrow(root, arrow_id, CARRIED, "2.5" if j == k else "1", groups)
            for box_id, lines in frame.labels.items():
                _set_text(self._elements(root, box_id, "text", groups), lines)
                if self.model.boxes[box_id].kind == "leaf":  # (a retained grad keeps its colour)
                    self._fill(root, box_id, LEAF_DONE, groups)
            if j < k and self.model.boxes[frame.box].kind in FILLED:
                self._fill(root, frame.box, DONE_FILL, groups)
                shape = self._shape(root, frame.box, groups)
                if shape is not None:
                    shape.set("stroke-dasharray", DONE_DASH)
        current = self.plan[k].box
        shape = self._shape(root, current, groups)
        if shape is not None:
            shape.set("stroke", CURRENT_STROKE)
            shape.set("stroke-width", "3")
            shape.attrib.pop("stroke-dasharray", None)
            shape.set("fill", CURRENT_FILL)
            groups[current].set("class", groups[current].get("class", "") + " current")
        root.set("aria-label", self.plan[k].text)
        return ET.tostring(root, encoding="unicode")

    # ---- the picture for the browser: one SVG, a style sheet, markers --------

    def marker(self, k: int) -> str:
        """The classes of frame ``k``'s page, which select its styles."""
        return " ".join([self.token, f"f{k}"] + [f"g{j}" for j in range(1, k + 1)])

    def picture_html(self, label: str) -> str:
        """The SVG once, every label's texts in it, with the style sheet of all frames."""
        root = copy.deepcopy(self.root)
        groups = {g.get("id"): g for g in root.iter(f"{{{SVG}}}g") if g.get("id")}
        for group_id, labels in self.texts.items():
            if len(labels) > 1:
                self._variants(groups.get(group_id), group_id, labels)
        root.set("aria-label", label)
        css = "".join(self._rules())
        return (f'<div class="{self.token}-picture" style="overflow-x:auto">'
                f'<style>{css}</style>{inline_svg(ET.tostring(root, encoding="unicode"))}</div>')

    def _rules(self):
        token = self.token

        def at(k):  # frame k only
            return f".minigrad-stepper:has(.{token}.f{k})"

        def since(k):  # frame k and after
            return f".minigrad-stepper:has(.{token}.g{k})"

        def ids(group_ids):
            return ":is(" + ",".join(f"#{i}" for i in group_ids) + ")"

        yield f".{token}-picture .mg-later{{display:none}}"
        # Saved without a kernel, ipywidgets marks every widget "disconnected" (a red
        # broken chain). Play, the slider, the frames and the stepper's own buttons
        # work in the page, so only ipywidgets' buttons (the quiz's, which need the
        # kernel) keep the mark.
        yield (".minigrad-stepper.jupyter-widgets-disconnected::before,.minigrad-stepper "
               ".jupyter-widgets-disconnected:not(.jupyter-button)::before{display:none}")
        for k, frame in enumerate(self.plan):
            yield (f"{at(k)} #{frame.box} polygon{{stroke:{CURRENT_STROKE};stroke-width:3px;"
                   f"stroke-dasharray:none;fill:{CURRENT_FILL}}}")
            if self.model.boxes[frame.box].kind in FILLED:
                yield (f"{since(k + 1)} #{frame.box} polygon"
                       f"{{fill:{DONE_FILL};stroke-dasharray:{DONE_DASH.replace(',', ' ')}}}")
            if frame.arrows:
                arrows = ids(frame.arrows)
                yield (f"{since(k)} {arrows} :is(path,polygon){{stroke:{CARRIED}}}"
                       f"{since(k)} {arrows} :is(polygon,text){{fill:{CARRIED}}}"
                       f"{at(k)} {arrows} :is(path,polygon){{stroke-width:2.5px}}")
            leaves = [b for b in frame.labels if self.model.boxes[b].kind == "leaf"]
            if leaves:  # the legend's blue is a leaf's: a retained grad keeps its box's colour
                yield f"{since(k)} {ids(leaves)} polygon{{fill:{LEAF_DONE}}}"
            for group_id, labels in self.texts.items():
                for i, (start, _) in enumerate(labels):
                    if start == k and i > 0:
                        yield (f"{since(k)} #{group_id}-v{i}{{display:inline}}"
                               f"{since(k)} #{group_id}-v{i - 1}{{display:none}}")

    def _variants(self, group, group_id: str, labels: list) -> None:
        """Each text a label takes, as its own <g> (all but the first hidden)."""
        if group is None:
            return
        parent = next((element for element in group.iter()  # a box's texts are in its <a>
                       if any(child.tag == f"{{{SVG}}}text" for child in element)), None)
        if parent is None:
            return
        texts = [child for child in parent if child.tag == f"{{{SVG}}}text"]
        at = list(parent).index(texts[0])
        for text in texts:
            parent.remove(text)
        for i, (_, lines) in enumerate(labels):
            variant = ET.Element(f"{{{SVG}}}g", {"id": f"{group_id}-v{i}"})
            if i:
                variant.set("class", "mg-later")
            copies = [copy.deepcopy(text) for text in texts]
            _set_text(copies, lines)
            variant.extend(copies)
            parent.insert(at + i, variant)

    # ---- editing an SVG tree ------------------------------------------------

    def _elements(self, root, group_id: str, tag: str, groups: dict | None = None) -> list:
        group = (groups if groups is not None else self.groups).get(group_id)
        return [] if group is None else list(group.iter(f"{{{SVG}}}{tag}"))

    def _paint_arrow(self, root, arrow_id, colour, width, groups=None) -> None:
        for tag in ("path", "polygon"):
            for element in self._elements(root, arrow_id, tag, groups):
                element.set("stroke", colour)
                if tag == "polygon":
                    element.set("fill", colour)
                if width == "1":
                    element.attrib.pop("stroke-width", None)
                else:
                    element.set("stroke-width", width)
        for element in self._elements(root, arrow_id, "text", groups):
            element.set("fill", colour)

    def _shape(self, root, box_id, groups):
        shapes = self._elements(root, box_id, "polygon", groups)
        return shapes[0] if shapes else None

    def _fill(self, root, box_id, colour, groups) -> None:
        shape = self._shape(root, box_id, groups)
        if shape is not None:
            shape.set("fill", colour)


def _set_text(texts: list, lines: list[str]) -> None:
    for i, element in enumerate(texts):
        element.text = lines[i] if i < len(lines) else ""
    if len(lines) > len(texts) and texts:  # more lines than reserved: keep them all
        texts[-1].text = " ".join(lines[len(texts) - 1:])


def _widest(labels: list[list[str]]) -> list[str]:
    """Line by line, the longest text any frame will show (to reserve its room)."""
    height = max(len(lines) for lines in labels)
    return [max((lines[i] if i < len(lines) else "" for lines in labels), key=len) or " "
            for i in range(height)]


def _slim(root: ET.Element) -> None:
    """A smaller picture: fonts set once on the root instead of on each text,
    and no per-node <title> (the node's tooltip says more)."""
    family = next((t.get("font-family") for t in root.iter(f"{{{SVG}}}text")
                   if t.get("font-family")), "Courier,monospace")  # (render_svg chose it)
    root.set("font-family", family)
    root.set("font-size", "11.00")
    for text in root.iter(f"{{{SVG}}}text"):
        if text.get("font-family") == family:
            del text.attrib["font-family"]
        if text.get("font-size") == "11.00":
            del text.attrib["font-size"]
    for group in root.iter(f"{{{SVG}}}g"):
        if "node" in group.get("class", "").split() or "edge" in group.get("class", "").split():
            for title in group.findall(f"{{{SVG}}}title"):
                group.remove(title)
