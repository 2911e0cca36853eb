"""render_svg: graphviz-pure with no system dot, the system dot when chosen, a clear error
when neither can run, and a notebook display that never raises."""

import os
import shutil

import minigrad as torch
import pytest

import widgets.render as render
from widgets import Digraph, GraphvizNotFound, RenderError, draw_graph, find_program, render_svg

from widget_svg import groups, parse

SYSTEM_DOT = shutil.which("dot")


@pytest.fixture
def graph():
    x = torch.ones(3, requires_grad=True)
    return draw_graph((x * 2).sum(), names={"x": x})


@pytest.fixture
def no_dot_on_path(monkeypatch, tmp_path):
    """A PATH with nothing on it: no system Graphviz."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(render.ENV_VAR, raising=False)
    render._run.cache_clear()
    assert shutil.which("dot") is None


@pytest.fixture
def no_graphviz_at_all(no_dot_on_path, monkeypatch):
    monkeypatch.setattr(render, "_search_dirs", lambda: [])


def test_renders_with_no_dot_on_path(graph, no_dot_on_path):
    assert os.path.basename(find_program()) == "graphviz-pure"
    svg = render_svg(graph)
    assert "graphviz-pure" in svg  # the generator comment
    assert {"out0", "op0", "op1", "leaf0"} <= set(groups(svg, "node"))


def test_missing_graphviz_is_a_clear_error(graph, no_graphviz_at_all):
    with pytest.raises(GraphvizNotFound) as caught:
        render_svg(graph)
    message = str(caught.value)
    assert "pip install graphviz-pure" in message and "apt-get install graphviz" in message
    assert "graphviz-pure" in message and "'dot'" in message


def test_notebook_display_never_raises(graph, no_graphviz_at_all):
    bundle = graph._repr_mimebundle_()
    assert "image/svg+xml" not in bundle
    assert "pip install graphviz-pure" in bundle["text/plain"]
    assert "digraph" in bundle["text/plain"]  # the DOT, for the curious


def test_notebook_display_is_svg_through_render_svg(graph, no_dot_on_path):
    bundle = graph._repr_mimebundle_()
    assert parse(bundle["image/svg+xml"]).tag.endswith("svg")
    assert bundle["text/plain"] == graph.summary
    assert graph._repr_mimebundle_(include=["text/plain"]) == {"text/plain": graph.summary}
    assert isinstance(graph, Digraph)


def test_a_chosen_program_that_is_missing_is_named(graph, monkeypatch):
    monkeypatch.setenv(render.ENV_VAR, "/nowhere/dot")
    with pytest.raises(GraphvizNotFound, match=r"'/nowhere/dot' \(chosen by \$MINIGRAD_GRAPHVIZ\)"):
        render_svg(graph)


def test_a_program_that_cannot_run_falls_back_to_the_next(graph, no_dot_on_path, monkeypatch,
                                                          tmp_path):
    real = find_program("graphviz-pure")
    broken = tmp_path / "graphviz-pure"
    broken.write_bytes(b"\x7fELF not really a program")
    broken.chmod(0o755)
    monkeypatch.setattr(render, "_search_dirs", lambda: [tmp_path])
    with pytest.raises(GraphvizNotFound, match="could not run"):
        render_svg(graph)
    (tmp_path / "dot").symlink_to(real)  # a working "dot" after the broken one
    assert groups(render_svg(graph), "node")


def test_bad_dot_is_a_render_error():
    with pytest.raises(RenderError, match="syntax error"):
        render_svg("digraph { a -> }")


def test_layout_engine_is_passed_on(graph):
    graph.engine = "neato"
    assert groups(render_svg(graph), "node")


@pytest.mark.skipif(SYSTEM_DOT is None, reason="no system Graphviz `dot` on PATH "
                    "(apt-get install graphviz to run this test)")
def test_system_dot_when_chosen(graph, monkeypatch):
    render._run.cache_clear()
    svg = render_svg(graph, engine="dot")
    assert "graphviz-pure" not in svg
    assert {"out0", "op0", "op1", "leaf0"} <= set(groups(svg, "node"))
    monkeypatch.setenv(render.ENV_VAR, "dot")
    assert find_program() == SYSTEM_DOT
