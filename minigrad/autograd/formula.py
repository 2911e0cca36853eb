"""Each backward node's formula and local derivatives, as data.

A node class carries one attribute, ``formula``::

    class MulBackward0(Node):
        formula = Formula("z", "self * other", d={"self": "other", "other": "self"})

``d`` gives, per input, the local derivative d(output)/d(input) of an
elementwise op (the gradient sent is the gradient received times it);
``grad`` gives, per input, the gradient sent written with ``G``, the gradient
that arrived (for ops that are not elementwise: ``G @ mat2^T``); ``note``
says anything else in words. Inputs are listed in the order of the node's
``next_functions``.

The class docstring is made from the formula (``Node.__init_subclass__``
calls ``docstring()``), and ``FORMULAS`` maps node names to formulas, so
anything that explains a node by its name (the widgets' narration, for
minigrad's nodes and PyTorch's alike) reads the same data. Formulas and
symbols are not translated; ``note`` is words and may be.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Formula", "FORMULAS", "formula_for"]


@dataclass(frozen=True)
class Formula:
    """``output = expression``, with how the gradient flows to each input."""

    output: str  # the result's symbol, e.g. "z"
    expression: str  # e.g. "self * other", or words: "mean of all n elements of x"
    d: dict = field(default_factory=dict)  # input -> d output / d input (elementwise)
    grad: dict = field(default_factory=dict)  # input -> the gradient sent, in terms of G
    note: str = ""  # anything else, in words
    order: tuple = ()  # the inputs in next_functions order, when d and grad are mixed

    @property
    def inputs(self) -> tuple:
        """The input symbols, in the order of ``next_functions``."""
        return self.order or (*self.d, *self.grad)

    def term(self, name: str) -> str:
        """``dz/dself = other`` or ``grad self = G @ mat2^T``."""
        if name in self.d:
            if len(self.output) == 1:
                return f"d{self.output}/d{name} = {self.d[name]}"
            return f"d {self.output} / d {name} = {self.d[name]}"
        return f"grad {name} = {self.grad[name]}"

    def docstring(self) -> str:
        text = f"{self.output} = {self.expression}."
        terms = ",  ".join(self.term(name) for name in self.inputs)
        if terms:
            text += f"   {terms}"
            if self.grad:
                text += f"   (G: the gradient of {self.output})"
        if self.note:
            text += f"\n\n{self.note}"
        return text


FORMULAS: dict = {}  # node name -> Formula, filled as node classes are defined


def formula_for(name: str) -> Formula | None:
    """The formula of the node named ``name`` (``"MulBackward0"``), or None."""
    return FORMULAS.get(name)
