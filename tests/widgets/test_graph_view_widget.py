"""GraphView: the graph in a widget, refreshed after backward."""

import widgets.render as render
from widgets import GraphView

from widget_svg import groups, texts


def test_view_shows_the_graph_and_refresh_shows_grads(tutorial):
    x, y, z, out = tutorial
    view = GraphView(out, names={"x": x})
    assert repr(view) == "GraphView(graph of output: 4 operations, 1 leaf)"
    assert texts(groups(view.svg, "node")["leaf0"])[-1] == "grad: None"
    assert view.svg in view._picture.value and 'role="img"' in view._picture.value
    out.backward(retain_graph=True)
    view.refresh()
    assert texts(groups(view.svg, "node")["leaf0"])[-1] == " [4.5, 4.5]]"


def test_saved_tensors_toggle_redraws(tutorial):
    *_, out = tutorial
    view = GraphView(out)
    assert "op2-saved-self" not in groups(view.svg, "node")
    view.show_saved = True
    assert "op2-saved-self" in groups(view.svg, "node")


def test_no_graphviz_shows_the_fix_instead_of_failing(tutorial, monkeypatch, tmp_path):
    *_, out = tutorial
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(render, "_search_dirs", lambda: [])
    render._run.cache_clear()
    view = GraphView(out)
    assert view.svg == "" and "pip install graphviz-pure" in view._picture.value
