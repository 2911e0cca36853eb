"""Notebook widgets for minigrad: see the graph, step through backward, check a derivative.

    draw_graph(tensor)          the grad_fn graph as a graphviz.Digraph
    render_svg(graph)           its SVG, with graphviz-pure or a system dot
    GraphView(tensor)           the graph as a widget, with a refresh button
    BackwardStepper(tensor)     backward one node at a time, over one fixed layout
    DerivativeCheck(fn, inputs) autograd vs finite differences vs your formula
    BackwardCheck(loss, named)  your backward pass by hand, tensor by tensor, against autograd
    check_derivatives(...)      the same comparison with no display (for graders)
    ProgressBar(total)          a bar that fills as a loop runs (set its .value)
    set_language("zh")          speak Chinese ("ko": Korean, "en": English; None: the
                                notebook's language, else the locale's, else English)

Each takes a minigrad tensor or a real ``torch`` tensor (torch is imported
only by code that hands one over; ``widgets.adapter`` is the one place that
knows how the two libraries differ).

``widgets`` uses ``minigrad``; ``minigrad`` never imports ``widgets``.
"""

from .backward_check import BackwardCheck
from .derivative import DerivativeCheck
from .draw import draw_graph
from .errors import GraphvizNotFound, RenderError
from .gradients import DerivativeComparison, check_derivatives
from .graph_view import GraphView
from .i18n import language, set_language
from .progress import ProgressBar
from .render import Digraph, find_program, render_svg
from .stepper import BackwardStepper

__all__ = ["draw_graph", "render_svg", "find_program", "Digraph", "GraphView",
           "BackwardStepper", "DerivativeCheck", "BackwardCheck", "check_derivatives", "DerivativeComparison",
           "ProgressBar", "GraphvizNotFound", "RenderError", "set_language", "language"]
