"""``DerivativeCheck``: your derivative, autograd's and the finite differences, side by side.

It shows a table with one row per entry of each input and one column per
method, the largest absolute and relative differences, and PASS or FAIL for
the tolerance (which you can change). The comparison itself lives in
``widgets.gradients`` (no display), for graders.

>>> import minigrad as torch
>>> check = DerivativeCheck(lambda x: (3 * (x + 2) ** 2).mean(), torch.ones(2, 2),
...                         by_hand=lambda x: 1.5 * (x + 2))
>>> check.passed
True
"""

from __future__ import annotations

import ipywidgets as w
import traitlets

from .gradients import check_derivatives
from .static import StaticFallback
from .tolerance import CHECK_CLASS, ToleranceBoxes

__all__ = ["DerivativeCheck"]


class DerivativeCheck(StaticFallback, w.VBox):
    """Check a gradient three ways: autograd, finite differences and your formula.

    ``fn``: the function to differentiate; it takes the inputs and returns one
    number (a one-element tensor), e.g. ``lambda x: (x.sin() * x).sum()``.

    ``inputs``: the point where the gradient is checked, one value per
    argument of ``fn``. For a function of one argument: a tensor,
    ``torch.tensor([0.5, 1.0, 2.0])`` (a number or a list of numbers is read
    as ``torch.tensor`` reads it). For several: a list or tuple with one
    tensor per argument. They are copied: nothing of yours gets a ``.grad``.

    ``by_hand``: optional, your derivative as a function of the same
    arguments, returning the gradient for each (a tuple when there are
    several), e.g. ``lambda x: x.cos() * x + x.sin()``.

    ``atol``, ``rtol``: an entry agrees when |value - finite difference| <=
    atol + rtol * |finite difference| (``numpy.isclose``'s rule; the boxes
    under the table change them). ``eps``: the finite differences' step.
    ``names``: the inputs' names in the table (by default ``fn``'s argument names).

    ``.passed``, ``.autograd``, ``.numerical``, ``.by_hand``, ``.max_abs_diff``,
    ``.max_rel_diff`` hold the results.
    """

    atol = traitlets.Float(1e-5, help="Absolute tolerance: an entry passes when "
                                      "|value - reference| <= atol + rtol * |reference|.")
    rtol = traitlets.Float(1e-3, help="Relative tolerance (see atol).")

    def __init__(self, fn, inputs, by_hand=None, *, atol: float = 1e-5, rtol: float = 1e-3,
                 eps: float = 1e-6, names=None, **kwargs) -> None:
        self.result = check_derivatives(fn, inputs, by_hand, atol=atol, rtol=rtol, eps=eps,
                                        names=names)
        self._fn, self._inputs, self._by_hand, self._eps = fn, inputs, by_hand, eps
        self._names = names
        self._table = w.HTML()
        self._tolerance = ToleranceBoxes(self, atol, rtol)
        super().__init__(children=[self._table, self._tolerance], atol=atol, rtol=rtol, **kwargs)
        self.add_class(CHECK_CLASS)
        self._table.value = self.result._repr_html_()

    @traitlets.observe("atol", "rtol")
    def _rejudge(self, change) -> None:
        if hasattr(self, "_table"):  # (not while being built)
            self._tolerance.show(change["name"], change["new"])
            self.result = self.result.with_tolerance(self.atol, self.rtol)
            self._table.value = self.result._repr_html_()

    def check(self) -> bool:
        """Compute again (e.g. after changing the function's inputs); returns ``passed``."""
        self.result = check_derivatives(self._fn, self._inputs, self._by_hand, atol=self.atol,
                                        rtol=self.rtol, eps=self._eps, names=self._names)
        self._table.value = self.result._repr_html_()
        return self.passed

    @property
    def passed(self) -> bool:
        return self.result.passed

    @property
    def autograd(self) -> list:
        return self.result.autograd

    @property
    def numerical(self) -> list:
        return self.result.numerical

    @property
    def by_hand(self):
        return self.result.by_hand

    @property
    def max_abs_diff(self) -> float:
        return self.result.max_abs_diff

    @property
    def max_rel_diff(self) -> float:
        return self.result.max_rel_diff

    def static_html(self) -> str:
        """The table, as plain HTML (for previews without widgets)."""
        return self._table.value

    def __repr__(self) -> str:
        return f"DerivativeCheck({self.result.verdict()})"
