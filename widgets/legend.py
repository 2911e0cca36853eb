"""The stepper's legend: what each colour of a frame means, each with its mark too.

Colour is never the only signal (WCAG 1.4.1): the box of the frame (the output in
frame 0, before backward starts, then the node that runs) has a thick border, boxes
that already ran a dashed one, an arrow that carried a gradient is labelled with it,
and a leaf writes its ``.grad`` in its box. The legend shows a small sample of each,
drawn with the same colours and marks as the picture, and says both in words.
After them, the colours boxes have before backward reaches them (``draw_graph``'s, as
lessons 1 and 2 name them), for the kinds of box the picture holds: every colour drawn
is named (audit 21: lesson 1's yellow box ``q`` was in no legend).
"""

from __future__ import annotations

import html

from .draw import FILL
from .flipbook import (CARRIED, CURRENT_FILL, CURRENT_STROKE, DONE_DASH, DONE_FILL, LEAF_DONE,
                       WAITING)
from .i18n import _

__all__ = ["legend_html", "legend_items"]


def legend_items(kinds=()) -> list[tuple[str, str]]:
    """``[(sample SVG, words), ...]`` in the order shown: the colours of backward's
    progress, then those of the box ``kinds`` drawn ("output", "op", "leaf", ...)."""
    def box(fill, stroke="#000000", width=1, dash=""):
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<svg width="34" height="18" aria-hidden="true"><rect x="2" y="2" width="30" '
                f'height="14" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dashes}/>'
                f'</svg>')

    def arrow(colour, label):
        return (f'<svg width="46" height="18" aria-hidden="true"><line x1="2" y1="12" x2="36" '
                f'y2="12" stroke="{colour}" stroke-width="2"/><polygon points="36,8 44,12 36,16" '
                f'fill="{colour}"/><text x="10" y="8" font-size="9" fill="{colour}">'
                f'{html.escape(label)}</text></svg>')

    items = [
        (box(CURRENT_FILL, CURRENT_STROKE, 3),  # (frame 0's gold box is the output's)
         _("gold, thick border: where backward is (the output before it starts, then the "
           "node running in this frame)")),
        (box(DONE_FILL, dash=DONE_DASH), _("lilac, dashed border: a node that already ran")),
        (box(LEAF_DONE), _("blue: a leaf, with its .grad so far written in it")),
        (arrow(CARRIED, "0.25"), _("red arrow with a number: the gradient it carried (thick "
                                   "in the frame that sent it)")),
        (arrow(WAITING, ""), _("grey arrow, no number: no gradient along it yet")),
    ]
    before = {  # (the output is gold in frame 0 only)
        "output": _("green: the output, where backward starts"),
        "op": _("grey: a backward node that has not run yet"),
        "leaf": _("pale blue: a leaf backward has not reached yet"),
        "tensor": _("yellow: a tensor you named that an operation made (not a leaf)"),
        "saved": _("orange: a tensor saved for backward"),
    }
    kinds = {"op" if kind == "accumulate" else kind for kind in kinds}
    return items + [(box(FILL[kind]), words) for kind, words in before.items() if kind in kinds]


def legend_html(kinds=()) -> str:
    """The legend as one line of HTML (a list, for screen readers); ``kinds``: those of the
    boxes drawn."""
    items = "".join(
        f'<li style="display:inline-flex;align-items:center;gap:4px;margin-right:14px">'
        f'{sample}<span>{html.escape(words)}</span></li>'
        for sample, words in legend_items(kinds))
    name = html.escape(_("legend: what the colours and marks of the picture mean"), quote=True)
    return (f'<ul class="minigrad-legend" aria-label="{name}" '
            f'style="list-style:none;padding:0;margin:4px 0;font-size:12px;display:flex;'
            f'flex-wrap:wrap">{items}</ul>')
