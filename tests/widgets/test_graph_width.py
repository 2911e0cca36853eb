"""How wide draw_graph's drawings are: a graph wider than a notebook's output area (845 px
in JupyterLab in a 1280 px window, file browser open) is drawn smaller to fit; a network's
layers stack up straight, inputs left to right in next_functions' order, each leaf right
beside its AccumulateGrad, so that fitting it keeps its text readable."""

import re

import minigrad as torch

from widgets import draw_graph, render_svg
from widgets.draw import MAX_WIDTH

from widget_svg import groups

nn = torch.nn


def size_and_scale(svg: str) -> tuple[float, float]:
    """The drawing's width in pt and the scale Graphviz drew it at."""
    width = float(re.search(r'<svg width="([\d.]+)pt"', svg).group(1))
    scale = re.search(r'class="graph" transform="scale\(([\d.]+)', svg)
    return width, float(scale.group(1)) if scale else 1.0


def boxes(svg: str) -> dict:
    """box id -> (left, right, middle y) of its polygon, in the drawing's units."""
    found = {}
    for box_id, group in groups(svg, "node").items():
        polygon = next(g for g in group.iter() if g.tag.endswith("polygon"))
        points = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        found[box_id] = (min(xs), max(xs), (min(ys) + max(ys)) / 2)
    return found


def lesson_9_graph():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(),
                          nn.Linear(16, 2))
    loss = nn.CrossEntropyLoss()(model(torch.randn(200, 2)), torch.randint(0, 2, (200,)))
    return render_svg(draw_graph(loss, names={**dict(model.named_parameters()), "loss": loss},
                                 max_values=4))


def test_a_three_layer_network_fits_the_panel_and_stays_readable():
    width, scale = size_and_scale(lesson_9_graph())
    assert width <= MAX_WIDTH * 72 + 1  # 1,913 px wide on main: each layer stepped right
    # 11 pt labels stay at 9 px or more (as the browser test asks): 0.71 here, 0.44 without
    # ordering=out
    assert scale * 11 * 4 / 3 >= 9, f"drawn at {scale:.2f} of its size: text too small to read"


def test_a_small_graph_keeps_its_own_size(tutorial):
    x, y, z, out = tutorial
    width, scale = size_and_scale(render_svg(draw_graph(out, names={"x": x, "out": out})))
    assert scale == 1.0 and width < MAX_WIDTH * 72


def test_leaves_sit_right_beside_their_accumulate_grad_and_inputs_go_left_to_right():
    svg = lesson_9_graph()
    drawn = boxes(svg)
    for leaf in (i for i in drawn if i.startswith("leaf")):
        arrow = groups(svg, "edge")[f"{leaf}-arrow"]
        acc = ends(arrow)[0]
        (a_left, a_right, a_y), (l_left, l_right, l_y) = drawn[acc], drawn[leaf]
        assert abs(a_y - l_y) < 1, f"{leaf} is not on its AccumulateGrad's row"
        between = [i for i, (left, right, y) in drawn.items() if abs(y - a_y) < 1
                   and i not in (acc, leaf) and left < max(a_left, l_left)
                   and right > min(a_right, l_right)]
        assert not between, f"{between} drawn between {acc} and {leaf}"
    # every AddmmBackward0's inputs, addmm(bias, input, weight.t()), in that order
    middles = {i: (left + right) / 2 for i, (left, right, _) in drawn.items()}
    edges = groups(svg, "edge")
    addmms = [i for i, g in groups(svg, "node").items() if "AddmmBackward0" in g.get("class")]
    assert len(addmms) == 3
    for addmm in addmms:
        inputs = [ends(edges[f"{addmm}-{k}"])[1] for k in range(3) if f"{addmm}-{k}" in edges]
        xs = [middles[i] for i in inputs]
        assert len(xs) >= 2 and xs == sorted(xs), f"{addmm}'s inputs {inputs} at {xs}"


def ends(edge) -> list[str]:
    """[tail id, head id] of an edge group (its title is "tail->head")."""
    return edge.find("{http://www.w3.org/2000/svg}title").text.split("->")
