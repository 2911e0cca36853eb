"""``ProgressBar``: how far a loop has come, as a bar that fills (lesson 9's training).

It is ipywidgets' ``IntProgress`` with one difference. Opened from a saved notebook before
its kernel runs it, ipywidgets marks every widget "disconnected" with a red broken chain
before it, which tells a learner that a control needs the kernel; a bar has nothing to
press, so there the mark only looks like an error. The bar carries a style that hides
the mark on itself (the checks do the same for everything but their atol and rtol boxes).

>>> bar = ProgressBar(300)
>>> bar.value = 120
>>> bar.bar.value, bar.bar.max
(120, 300)
"""

from __future__ import annotations

import ipywidgets as w
import traitlets

__all__ = ["ProgressBar", "PROGRESS_CLASS"]

PROGRESS_CLASS = "minigrad-progress"  # the class of the bar's outer box
QUIET_MARKS = (f"<style>.{PROGRESS_CLASS}.jupyter-widgets-disconnected::before,"
               f".{PROGRESS_CLASS} .jupyter-widgets-disconnected::before{{display:none}}</style>")


class ProgressBar(w.HBox):
    """A bar from 0 to ``total``; set ``value`` as the loop runs."""

    value = traitlets.Int(0, help="How many of the total are done (the bar's filled part).")

    def __init__(self, total: int) -> None:
        self.bar = w.IntProgress(min=0, max=total)
        marks = w.HTML(QUIET_MARKS, layout=w.Layout(display="none"))
        super().__init__(children=[self.bar, marks])
        self.add_class(PROGRESS_CLASS)
        traitlets.dlink((self, "value"), (self.bar, "value"))

    def __repr__(self) -> str:
        return f"ProgressBar({self.bar.value} of {self.bar.max})"
