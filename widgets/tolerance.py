"""The atol and rtol boxes of the checks (``DerivativeCheck``, ``BackwardCheck``).

Each box shows its number as Python writes it (``1e-05``, not ``0.0000``) and
sets the check's trait of the same name when the learner presses Enter; a
typo is answered beside the boxes, and the check keeps its tolerance.

A check opened from a saved notebook, before its kernel runs it, shows its verdicts, table
and graph from the saved widget state; ipywidgets then marks every one of its widgets
"disconnected" (a red broken chain before each). The boxes carry a style that keeps the
mark on themselves only: judging again needs the kernel, reading does not (the stepper
does the same for its frames).
"""

from __future__ import annotations

import html

import ipywidgets as w

from .i18n import _

__all__ = ["ToleranceBoxes", "CHECK_CLASS"]

CHECK_CLASS = "minigrad-check"  # the class of every check's outer box (DerivativeCheck, ...)
QUIET_MARKS = (f"<style>.{CHECK_CLASS}.jupyter-widgets-disconnected::before,.{CHECK_CLASS} "
               ".jupyter-widgets-disconnected:not(.widget-text)::before{display:none}</style>")


class ToleranceBoxes(w.HBox):
    """``atol`` and ``rtol`` text boxes that set ``owner.atol`` and ``owner.rtol``."""

    def __init__(self, owner, atol: float, rtol: float) -> None:
        self.boxes = {name: w.Text(value=f"{value:g}", description=name, continuous_update=False,
                                   layout=w.Layout(width="180px"))
                      for name, value in (("atol", atol), ("rtol", rtol))}
        self.typo = w.HTML()
        marks = w.HTML(QUIET_MARKS, layout=w.Layout(display="none"))
        super().__init__(children=[*self.boxes.values(), self.typo, marks])
        for name, box in self.boxes.items():
            box.observe(lambda change, name=name: self._typed(owner, name, change["new"]),
                        "value")

    def show(self, name: str, value: float) -> None:
        """Write ``value`` in its box (after the owner's trait changed)."""
        self.boxes[name].value = f"{value:g}"

    def _typed(self, owner, name: str, text: str) -> None:
        try:
            value = float(text)
        except ValueError:
            self.typo.value = html.escape(_("{name} must be a number, like 1e-05; got {text}")
                                          .format(name=name, text=repr(text)), quote=False)
            return
        self.typo.value = ""
        setattr(owner, name, value)
