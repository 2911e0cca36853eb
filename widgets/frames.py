"""Backward as frames that follow the drawing.

Frame 0 is before backward. Then comes one frame per box that backward
lights, in the order the engine first reaches it. A box drawn for one node is
lit by one engine step; a box drawn once for many nodes (a collapsed run
``MulBackward0 × 1,000``, or "… more") is lit by all their steps, and they
are one frame, whose sentence says how many steps it stands for. So a
15,000-step backward over a drawing of 11 boxes plays in 11 frames; the
stepper's ``.steps`` still holds every engine step.

For each frame the plan says what changes in the picture from then on: the
box that runs (gold in its frame, done after), the arrows that carried a
gradient (each shows the last one it carried) and the boxes whose label
changes (a leaf's grad, a retained grad). ``flipbook`` draws the frames.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from .draw import NO_GRAD, box_lines, grad_lines
from .graph import GraphModel
from .narrate import frame_label, narrate, narrate_group, narrate_start
from .text import short

__all__ = ["Frame", "plan_frames", "frame_html", "sentence_lines"]


@dataclass
class Frame:
    box: str  # the id of the box that runs in this frame (frame 0: the output)
    steps: list = field(default_factory=list)  # the engine's BackwardSteps it shows
    arrows: dict = field(default_factory=dict)  # arrow id -> the label it shows from now on
    labels: dict = field(default_factory=dict)  # box id -> its label lines from now on
    text: str = ""  # what happened, in words and numbers


def plan_frames(model: GraphModel, steps: list, gradient=None, *,
                max_values: int = 8) -> list[Frame]:
    """The frames of ``steps`` (a backward's ``BackwardStep`` list) over ``model``."""
    groups = _group(model, steps)
    boxes_of = {}  # id(tensor) -> the boxes showing it (for retained grads)
    for box in model.boxes.values():
        if box.kind in ("tensor", "output"):
            boxes_of.setdefault(id(box.tensor), []).append(box.id)
    frames = [Frame(model.output_ids[0],
                    text=narrate_start(model, steps, gradient, frames=len(groups)))]
    for group in groups:
        frame = Frame(model.box_of[group[0].node], group)
        carried = {}
        for step in group:
            for i, grad in _seeds(model, step):
                carried[model.arrow_of[("output", i)]] = grad
            for e, (_, _, grad) in enumerate(step.sent):
                if grad is not None and (step.node, e) in model.arrow_of:
                    carried[model.arrow_of[(step.node, e)]] = grad
            if step.is_leaf and frame.box in model.leaf_box:  # the leaf beside AccumulateGrad
                frame.labels[model.leaf_box[frame.box]] = step.leaf_grad
            for tensor, grad in step.retained:
                for box_id in boxes_of.get(id(tensor), ()):
                    frame.labels[box_id] = grad
        frame.arrows = {arrow_id: short(grad) for arrow_id, grad in carried.items()}
        frame.labels = {box_id: _with_grad(model, box_id, grad, max_values)
                        for box_id, grad in frame.labels.items()}
        seeded = gradient is not None  # (d(out)/d(...) only from backward's own seed, 1)
        frame.text = (narrate(group[0], model, len(steps), seeded=seeded) if len(group) == 1
                      else narrate_group(group, model, len(steps)))
        frames.append(frame)
    return frames


def _group(model: GraphModel, steps: list) -> list[list]:
    """The steps, one list per frame: a box that stands for several nodes gets
    all the steps that light it, at the place of the first."""
    groups, at = [], {}
    for step in steps:
        box_id = model.box_of[step.node]
        if len(model.boxes[box_id].nodes) > 1:
            if box_id in at:
                groups[at[box_id]].append(step)
                continue
            at[box_id] = len(groups)
        groups.append([step])
    return groups


def _seeds(model: GraphModel, step):
    """(output number, seed gradient) for the seeds this step received."""
    for source, _, grad in step.received:
        if source is None:
            for i, output in enumerate(model.outputs):
                if output.grad_fn is step.node:
                    yield i, grad


def _with_grad(model: GraphModel, box_id: str, grad, max_values: int) -> list[str]:
    box = model.boxes[box_id]
    lines = box_lines(model, box, grad=NO_GRAD, max_values=max_values)
    return lines + grad_lines(grad, max_values if box.count == 1 else 0)


def frame_html(picture: str, text: str, index: int | None, total: int, lines: int = 2,
               classes: str = "") -> str:
    """A frame for the page: its sentence, above ``picture`` (an inline SVG, or
    nothing when the picture is shown once beside the frames). Every frame
    keeps room for ``lines`` lines of sentence, so the picture stays put when
    the sentence wraps. ``classes`` mark the frame for the picture's styles."""
    return (f'<div class="minigrad-frame{" " + classes if classes else ""}" role="group" '
            f'aria-label="{frame_label(index, total)}">'
            f'<p style="margin:0 0 4px 0;white-space:normal;max-width:60em;line-height:1.4;'
            f'min-height:{1.4 * lines:.1f}em">{html.escape(text)}</p>'
            + (f'<div style="overflow-x:auto">{picture}</div>' if picture else "") + '</div>')


def sentence_lines(texts: list[str], per_line: int = 100) -> int:
    """Lines to keep for the longest sentence (60 em of text hold about 100 to
    120 characters; counted low so the room is never too small)."""
    return max(2, max((-(-len(text) // per_line) for text in texts), default=1))
