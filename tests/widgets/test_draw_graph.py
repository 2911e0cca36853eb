"""draw_graph: the DOT it builds and the SVG it renders to (parsed, never compared as bytes)."""

import subprocess
import sys

import minigrad as torch
import pytest

import widgets
from widgets import draw_graph, render_svg

from widget_svg import groups, texts


def test_tutorial_graph_has_one_box_per_node_and_edges_along_next_functions(tutorial):
    x, y, z, out = tutorial
    svg = render_svg(draw_graph(out, names={"x": x, "out": out}))
    nodes, edges = groups(svg, "node"), groups(svg, "edge")
    assert set(nodes) == {"out0", "op0", "op1", "op2", "op3", "acc0", "leaf0"}
    names = {i: texts(g)[0] for i, g in nodes.items()}
    assert names == {"out0": "out", "op0": "MeanBackward0", "op1": "MulBackward0",
                     "op2": "MulBackward0", "op3": "AddBackward0", "acc0": "AccumulateGrad",
                     "leaf0": "x  [2, 2]"}
    # y * y: two edges from the same MulBackward0 to AddBackward0; AddBackward0's edge goes to
    # x's AccumulateGrad (as torchviz draws it), with x beside it
    assert set(edges) == {"out0-0", "op0-0", "op1-0", "op2-0", "op2-1", "op3-0", "leaf0-arrow"}
    assert "op" in nodes["op1"].get("class").split() and "MulBackward0" in nodes["op1"].get("class")
    assert nodes["acc0"].get("class") == "node accumulate AccumulateGrad"
    assert nodes["leaf0"].get("class") == "node leaf"


def test_leaf_shows_values_and_grad_after_backward(tutorial):
    x, y, z, out = tutorial
    before = texts(groups(render_svg(draw_graph(out, names={"x": x})), "node")["leaf0"])
    assert before[1:] == ["[[1., 1.],", " [1., 1.]]", "grad: None"]
    out.backward()
    after = texts(groups(render_svg(draw_graph(out, names={"x": x})), "node")["leaf0"])
    assert after[-3:] == ["grad:", "[[4.5, 4.5],", " [4.5, 4.5]]"]


def test_big_tensors_show_shape_not_values():
    w = torch.ones(10, 10, requires_grad=True)
    source = draw_graph(w.sum(), names={"w": w}).source
    assert "w  [10, 10]" in source and "1., 1." not in source


def test_ids_are_stable_across_runs(tutorial):
    def build():
        x = torch.ones(2, 2, requires_grad=True)
        y = x + 2
        return draw_graph((y * y * 3).mean(), names={"x": x})

    first, second = build(), build()
    assert first.source == second.source
    assert set(groups(render_svg(first), "node")) == set(groups(render_svg(second), "node"))


def test_named_non_leaves_get_their_own_box(tutorial):
    x, y, z, out = tutorial
    y.retain_grad()
    out.backward()
    nodes = groups(render_svg(draw_graph(out, names={"x": x, "y": y})), "node")
    assert texts(nodes["op3-tensor0"]) == ["y  [2, 2]", "[[3., 3.],", " [3., 3.]]",
                                           "grad:", "[[4.5, 4.5],", " [4.5, 4.5]]"]
    # the widgets read only the public graph, where a tensor is not reachable
    # from its grad_fn: an unnamed non-leaf has no box of its own
    assert "op3-tensor0" not in groups(render_svg(draw_graph(out)), "node")


def test_saved_tensors_are_optional_and_show_when_freed(tutorial):
    x, y, z, out = tutorial
    assert "saved" not in draw_graph(out).source
    nodes = groups(render_svg(draw_graph(out, show_saved=True)), "node")
    assert {"op1-saved-other", "op2-saved-self", "op2-saved-other"} <= set(nodes)
    # (y * y) * 3: the factor y * y is needed only for the gradient of the constant 3,
    # so, as in PyTorch, it is not saved (_saved_self is None) and has no box
    assert "op1-saved-self" not in nodes
    assert texts(nodes["op1-saved-other"]) == ["saved other  scalar int64", "3"]
    out.backward()
    nodes = groups(render_svg(draw_graph(out, show_saved=True)), "node")
    assert texts(nodes["op2-saved-self"]) == ["saved self", "(freed after backward)"]


def test_op_tooltips_state_the_derivative(tutorial):
    *_, out = tutorial
    assert "d(result)/d(self) = other" in draw_graph(out).source


def test_several_outputs_and_id_prefix():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    graph = draw_graph([b.sum(), (b * 3).sum()], id_prefix="g1-")
    nodes = groups(render_svg(graph), "node")
    assert {"g1-out0", "g1-out1", "g1-leaf0"} <= set(nodes)
    assert len([i for i in nodes if i.startswith("g1-op")]) == 4


def test_a_tensor_without_grad_is_a_clear_error():
    with pytest.raises(ValueError, match="does not require grad"):
        draw_graph(torch.ones(2))


def test_nothing_breaks_on_odd_names():
    x = torch.ones(2, requires_grad=True)
    source = draw_graph(x.sum(), names={'x "quoted" \\n <b>': x}).source
    assert render_svg(source)


def test_minigrad_never_imports_widgets_or_graphviz():
    code = ("import sys, minigrad; bad = [m for m in sys.modules if m.split('.')[0] in "
            "('widgets', 'ipywidgets', 'graphviz')]; print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_public_names():
    for name in ("draw_graph", "render_svg", "GraphView", "BackwardStepper", "DerivativeCheck",
                 "check_derivatives", "Digraph", "GraphvizNotFound"):
        assert hasattr(widgets, name)


@pytest.mark.parametrize("library", ["minigrad", "torch"])
def test_edge_values_label_each_arrow_with_the_value_it_carried(library):
    lib = torch if library == "minigrad" else pytest.importorskip("torch")
    x, y, z = (lib.tensor(v, requires_grad=True) for v in (-2.0, 5.0, -4.0))
    q = x + y
    f = q * z
    names = {"x": x, "y": y, "z": z, "q": q, "f": f}
    edges = groups(render_svg(draw_graph(f, names=names, edge_values=True)), "edge")
    labels = {edge_id: texts(group) for edge_id, group in edges.items()}
    # f's arrow into MulBackward0, Mul's arrows to q's AddBackward0 and to z, Add's to x and y
    assert labels == {"out0-0": ["f = -12"], "op0-0": ["q = 3"], "op0-1": ["z = -4"],
                      "op1-0": ["x = -2"], "op1-1": ["y = 5"], "op1-tensor0-arrow": [],
                      "leaf0-arrow": [], "leaf1-arrow": [], "leaf2-arrow": []}
    listing = draw_graph(f, names=names, edge_values=True).text  # the same, in words
    for value in ("f = -12", "q = 3", "z = -4", "x = -2", "y = 5"):
        assert f"(forward, it carried {value})" in listing, listing
    plain = draw_graph(f, names=names)
    assert all(texts(group) == [] for group in groups(render_svg(plain), "edge").values())
    assert "carried" not in plain.text


def test_edge_values_skip_arrows_whose_tensor_is_not_drawn():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (a.exp() * 2).sum()  # a.exp() and a.exp() * 2 are not named: no value on their arrows
    edges = groups(render_svg(draw_graph(out, names={"a": a, "out": out}, edge_values=True)),
                   "edge")
    labelled = {edge_id: texts(group) for edge_id, group in edges.items() if texts(group)}
    assert labelled == {"out0-0": ["out = 20.21"], "op2-0": ["a = [1, 2]"]}  # 2 (e + e²)
