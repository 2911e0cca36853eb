"""``GraphView``: a tensor's grad_fn graph in a notebook, with a refresh button.

The graph is drawn by ``draw_graph`` and laid out by ``render_svg`` (no
system Graphviz needed). Leaves show their ``.grad``: press refresh (or call
``refresh()``) after ``backward()`` to see the gradients arrive. When no
Graphviz program can run, the view says why and how to fix it instead of
failing.

>>> import minigrad as torch
>>> x = torch.ones(2, 2, requires_grad=True)
>>> view = GraphView((x * 3).sum(), names={"x": x})
>>> view
GraphView(graph of output: 2 operations, 1 leaf)
"""

from __future__ import annotations

import html

import ipywidgets as w
import traitlets

from .draw import draw_graph
from .errors import GraphvizNotFound, RenderError
from .i18n import _
from .render import inline_svg, render_svg
from .static import StaticFallback

__all__ = ["GraphView"]


class GraphView(StaticFallback, w.VBox):
    """Show ``draw_graph(tensor, names, ...)``; ``refresh()`` draws it again."""

    show_saved = traitlets.Bool(False, help="Also draw the tensors each op saved for backward.")
    collapse = traitlets.Int(4, allow_none=True,
                             help="Runs of at least this many repeated ops are drawn once "
                                  "(None: never).")
    svg = traitlets.Unicode("", help="The SVG shown (empty when it could not be drawn).")

    def __init__(self, tensor, names: dict | None = None, *, show_saved: bool = False,
                 collapse: int | None = 4, max_nodes: int = 200, engine: str | None = None,
                 **kwargs) -> None:
        self.tensor, self.names = tensor, names
        self.max_nodes, self.engine = max_nodes, engine
        self.graph = None  # the last graphviz.Digraph drawn
        self._picture = w.HTML()
        refresh = w.Button(description="↻ " + _("refresh"),
                           tooltip=_("draw again (e.g. after backward)"),
                           layout=w.Layout(width="auto"))
        refresh.on_click(lambda _: self.refresh())
        saved = w.Checkbox(description=_("saved tensors"), indent=False)
        super().__init__(children=[w.HBox([refresh, saved]), self._picture],
                         show_saved=show_saved, collapse=collapse, **kwargs)
        traitlets.link((self, "show_saved"), (saved, "value"))
        self.refresh()

    @traitlets.observe("show_saved", "collapse")
    def _redraw(self, _change) -> None:
        if hasattr(self, "_picture") and self.graph is not None:
            self.refresh()

    def refresh(self) -> "GraphView":
        """Draw the graph again, with the tensors' values and grads as they are now."""
        self.graph = draw_graph(self.tensor, self.names, show_saved=self.show_saved,
                                collapse=self.collapse, max_nodes=self.max_nodes)
        try:
            self.svg = inline_svg(render_svg(self.graph, self.engine))
        except (GraphvizNotFound, RenderError) as error:
            self.svg = ""
            self._picture.value = f"<pre>{html.escape(str(error))}</pre>"
        else:
            label = html.escape(self.graph.summary)
            self._picture.value = f'<div role="img" aria-label="{label}">{self.svg}</div>'
        return self

    def static_html(self) -> str:
        """The picture shown, as plain HTML (for previews without widgets)."""
        return self._picture.value

    def __repr__(self) -> str:
        return f"GraphView({self.graph.summary if self.graph is not None else 'not drawn'})"
