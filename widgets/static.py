"""A static picture next to every live widget.

A live widget needs a running kernel or saved widget state. A notebook seen
on a code host's preview, or exported without its widget state, shows the
richest *other* output instead. So each widget also offers ``text/html``: a
plain HTML copy of what it shows right now (the current frame, the table).
JupyterLab, with the widget manager, still prefers the live widget.
"""

from __future__ import annotations

__all__ = ["StaticFallback"]


class StaticFallback:
    """Mixin for widgets: add ``static_html()`` to the notebook output."""

    def static_html(self) -> str:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            bundle["text/html"] = self.static_html()
        return bundle
