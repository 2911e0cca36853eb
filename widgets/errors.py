"""The widgets' exceptions, in one place."""

from __future__ import annotations

__all__ = ["GraphvizNotFound", "RenderError"]


class GraphvizNotFound(RuntimeError):
    """No Graphviz program could be run to lay out a graph."""


class RenderError(RuntimeError):
    """Graphviz ran but could not lay out the graph (its message is included)."""
