"""Big graphs: repeated runs drawn once ("MulBackward0 × 300"), the rest windowed."""

import minigrad as torch

from widgets import BackwardStepper, draw_graph, render_svg
from widgets.graph import GraphModel

from widget_svg import groups, texts


def chain(n):
    x = torch.ones(3, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 2
    return x, y.sum()


def test_a_300_op_chain_is_one_box():
    x, out = chain(300)
    svg = render_svg(draw_graph(out, names={"x": x}))
    nodes = groups(svg, "node")
    assert len(nodes) == 5  # out, SumBackward0, the run, AccumulateGrad, x
    run = [g for g in nodes.values() if "collapsed" in g.get("class").split()]
    assert len(run) == 1 and texts(run[0]) == ["MulBackward0 × 300"]
    assert len(groups(svg, "edge")) == 4  # and the dashed line from AccumulateGrad to x


def test_the_tutorials_doubling_loop():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    assert "MulBackward0 × 10" in draw_graph(y, names={"x": x}).source


def test_short_runs_and_collapse_none_stay_expanded():
    assert "×" not in draw_graph(chain(3)[1]).source
    nodes = groups(render_svg(draw_graph(chain(20)[1], collapse=None)), "node")
    assert len(nodes) == 24  # out, 21 ops, AccumulateGrad, x


def test_an_unrolled_network_collapses_block_by_block():
    w = torch.randn(3, 3, requires_grad=True)
    b = torch.zeros(3, requires_grad=True)
    h = torch.ones(1, 3)
    for _ in range(50):
        h = (h @ w + b).tanh()
    model = GraphModel.build([h.sum()], {"w": w, "b": b})
    titles = sorted(box.node.name() for box in model.boxes.values() if box.count == 50)
    assert titles == ["AddBackward0", "MmBackward0", "TanhBackward0"]
    arrows = {model.boxes[a.head].name: a.count for a in model.arrows.values()
              if model.boxes[a.head].kind == "accumulate"}
    assert arrows == {"w": 50, "b": 50}  # the shared weights: drawn once, "× 50"
    source = draw_graph(h.sum(), names={"w": w, "b": b}).source
    assert "repeated × 50" in source and "cluster_" in source


def test_a_fresh_leaf_per_step_is_drawn_once():
    z = torch.ones(2, requires_grad=True)
    for _ in range(10):
        z = z * torch.ones(2, requires_grad=True)
    model = GraphModel.build([z.sum()])
    leaves = [box for box in model.boxes.values() if box.kind == "leaf"]
    assert sorted(box.count for box in leaves) == [1, 10]


def test_an_output_inside_a_run_is_not_swallowed():
    x = torch.ones(2, requires_grad=True)
    ys = [x]
    for _ in range(12):
        ys.append(ys[-1] * 2)
    model = GraphModel.build([ys[-1].sum(), ys[6].sum()])
    assert all(box.count < 12 for box in model.boxes.values())
    assert model.box_of[ys[6].grad_fn] != model.box_of[ys[7].grad_fn]


def test_past_max_nodes_the_rest_is_one_more_box():
    x = torch.ones(2, requires_grad=True)
    y = x
    for i in range(100):  # no repeats: alternate ops of differing structure
        y = (y * 2).exp() if i % 3 else y + 1
    svg = render_svg(draw_graph(y.sum(), collapse=None, max_nodes=30))
    nodes = groups(svg, "node")
    assert len(nodes) == 30 + 2  # the output and "more"
    assert "more" in nodes and texts(nodes["more"])[0].endswith("more nodes")


def test_box_ids_follow_the_topological_order():
    x, out = chain(5)
    model = GraphModel.build([out], collapse=None)
    assert [model.box_of[node] for node in model.ops] == [f"op{i}" for i in range(6)]


def test_a_run_of_thousands_is_counted_as_its_sentence_counts():
    """Lesson 4's loop of 1,000: the box said "MulBackward0 × 1000" beside the
    sentence's "MulBackward0 × 1,000: steps 2–1,001 of 1,002"."""
    x, out = chain(1000)
    run = [g for g in groups(render_svg(draw_graph(out)), "node").values()
           if "collapsed" in g.get("class").split()]
    assert texts(run[0]) == ["MulBackward0 × 1,000"]
    stepper = BackwardStepper(out)
    assert "MulBackward0 × 1,000" in stepper.svg and "MulBackward0 × 1,000:" in stepper.texts[2]
