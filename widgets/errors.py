"""The widgets' exceptions, in one place."""

from __future__ import annotations

__all__ = ["GraphvizNotFound", "RenderError", "GraphFreed"]


class GraphvizNotFound(RuntimeError):
    """No Graphviz program could be run to lay out a graph."""


class RenderError(RuntimeError):
    """Graphviz ran but could not lay out the graph (its message is included)."""


class GraphFreed(RuntimeError):
    """A stepper was asked to step through a graph that ``backward()`` already freed.

    A learner meets it by re-running a cell, which is no bug in their code, so
    IPython shows it as its one sentence (``_render_traceback_``, IPython's hook
    for exceptions that render themselves) instead of a traceback into the
    widgets. It stays a ``RuntimeError``, as PyTorch's own error for the same cause.
    """

    def _render_traceback_(self) -> list[str]:
        return [str(self)]
