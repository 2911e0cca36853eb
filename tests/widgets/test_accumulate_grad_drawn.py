"""A leaf's ``AccumulateGrad`` is drawn by name, as torchviz draws it.

The edge that reaches a leaf in ``next_functions`` ends at a box that says
``AccumulateGrad`` (the node ``backward`` runs for the leaf); the leaf tensor
itself, with its name, shape, values and grad, is drawn beside it, joined by a
dashed line. In minigrad and torch graphs alike, and in the stepper's frames:
the AccumulateGrad box is the one that runs, the leaf's label gets the grad.
"""

from __future__ import annotations

import minigrad
import pytest

from widgets import BackwardStepper, draw_graph, render_svg
from widgets.graph import GraphModel

from widget_svg import groups, texts

LIBRARIES = ["minigrad", "torch"]


def library(name):
    return minigrad if name == "minigrad" else pytest.importorskip("torch")


def tutorial(lib):
    x = lib.ones(2, 2, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    return x, out


@pytest.mark.parametrize("name", LIBRARIES)
def test_the_edge_into_a_leaf_ends_at_a_box_named_accumulate_grad(name):
    x, out = tutorial(library(name))
    graph = draw_graph(out, names={"x": x, "out": out})
    nodes, edges = groups(render_svg(graph), "node"), groups(render_svg(graph), "edge")
    assert texts(nodes["acc0"]) == ["AccumulateGrad"]
    assert nodes["acc0"].get("class").split() == ["node", "accumulate", "AccumulateGrad"]
    # AddBackward0's next_functions edge ends at AccumulateGrad, not at the tensor
    assert 'op3 -> acc0 [class=grad id="op3-0"]' in graph.source
    # the leaf keeps its name, shape, values and grad, beside its AccumulateGrad
    assert texts(nodes["leaf0"]) == ["x  [2, 2]", "[[1., 1.],", " [1., 1.]]", "grad: None"]
    # (written leaf -> acc: a flat edge's tail is drawn on the left, where named tensors are)
    assert "leaf0 -> acc0 [arrowhead=none class=leaf" in graph.source
    assert "leaf0-arrow" in edges
    assert "rank=same\n\t\tleaf0\n\t\tacc0" in graph.source
    # in words too
    assert "acc0   AccumulateGrad; adds the gradient it receives into the .grad of leaf0 " \
           "(x [2, 2])" in graph.text
    assert graph.summary == "graph of out: 4 operations, 1 leaf"


@pytest.mark.parametrize("name", LIBRARIES)
def test_each_leaf_has_its_own_accumulate_grad_and_one_only(name):
    lib = library(name)
    a, b = lib.ones(3, requires_grad=True), lib.ones(3, requires_grad=True)
    out = (a * b + a).sum()  # a is used twice: one AccumulateGrad, two edges into it
    model = GraphModel.build([out], {"a": a, "b": b})
    accumulates = [box for box in model.boxes.values() if box.kind == "accumulate"]
    assert sorted(box.name for box in accumulates) == ["a", "b"]
    for box in accumulates:
        assert box.node.variable is box.tensor
        leaf = model.boxes[model.leaf_box[box.id]]
        assert (leaf.kind, leaf.name, leaf.tensor) == ("leaf", box.name, box.tensor)
    into_a = [arrow for arrow in model.arrows.values()
              if arrow.kind == "grad" and model.boxes[arrow.head].name == "a"]
    assert len(into_a) == 2 and {model.boxes[arrow.head].kind for arrow in into_a} == {
        "accumulate"}


@pytest.mark.parametrize("name", LIBRARIES)
def test_the_stepper_runs_accumulate_grad_and_the_leaf_beside_it_gets_the_grad(name):
    x, out = tutorial(library(name))
    stepper = BackwardStepper(out, names={"x": x, "out": out})
    assert stepper.plan[-1].box == "acc0"
    assert set(stepper.plan[-1].labels) == {"leaf0"}
    stepper.to_end()
    nodes = groups(stepper.svg, "node")
    assert "current" in nodes["acc0"].get("class").split()
    assert "current" not in nodes["leaf0"].get("class").split()
    assert texts(nodes["leaf0"])[-2:] == ["[[4.5, 4.5],", " [4.5, 4.5]]"]
    assert stepper.text.startswith("Step 5 of 5: AccumulateGrad for x got d(out)/d(x) = 4.5 each")
    assert x.grad is None  # watching changed nothing


def test_a_collapsed_run_with_a_fresh_leaf_per_step_draws_one_pair():
    z = minigrad.ones(2, requires_grad=True)
    for _ in range(10):
        z = z * minigrad.ones(2, requires_grad=True)
    model = GraphModel.build([z.sum()])
    pairs = sorted((box.count, model.boxes[model.leaf_box[box.id]].count)
                   for box in model.boxes.values() if box.kind == "accumulate")
    assert pairs == [(1, 1), (10, 10)]
    source = draw_graph(z.sum()).source
    assert "AccumulateGrad × 10" in source and "leaf × 10" in source
