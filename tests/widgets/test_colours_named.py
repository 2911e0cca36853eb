"""A colour named in the text is the colour drawn.

The stepper's legend names a colour for each mark ("gold, thick border: where backward
is (the output before it starts, then the node running in this frame)"); lessons 1 and 2
name the graph's colours ("the green box at the top is the output"); lesson 10 names
BackwardCheck's ("green with ✓ for exact"). Each test reads the colour a word names from
the rendered SVG (or the style sheet the browser applies) and checks the word against its
hue, so a drawing that keeps a box green where the text says gold fails here.
"""

import colorsys
import json
import re
from pathlib import Path

import minigrad as torch
import pytest

from widgets import BackwardCheck, BackwardStepper
from widgets.backward_check import LOOK
from widgets.draw import FILL
from widgets.flipbook import FILLED
from widgets.legend import legend_items

from widget_svg import SVG, groups, parse

LESSONS = Path(__file__).resolve().parents[2] / "notebooks"


def names_of(colour: str) -> set:
    """The colour words that fit ``colour`` (``#rrggbb``), by hue and saturation."""
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue, light, saturation = colorsys.rgb_to_hls(red, green, blue)
    hue *= 360
    if saturation < 0.12 or light > 0.97:
        return {"grey", "white"} if light > 0.97 else {"grey"}
    words = set()
    for word, low, high in (("red", -15, 15), ("orange", 15, 40), ("gold", 38, 55),
                            ("yellow", 40, 60), ("green", 75, 160), ("blue", 190, 240),
                            ("lilac", 245, 300)):
        if low <= hue <= high or low <= hue - 360 <= high:
            words.add(word)
    return words


def test_the_colour_words_are_told_apart():
    assert names_of("#ffd966") >= {"gold"} and "green" not in names_of("#d9ead3") - {"green"}
    assert names_of("#d9ead3") == {"green"} and names_of("#cc0000") == {"red"}
    assert names_of("#bbbbbb") == {"grey"} and names_of("#d9d2e9") == {"lilac"}
    assert "gold" not in names_of("#d9ead3")  # the output's green is not gold


def _sample_colour(sample: str) -> str:
    """The colour of a legend sample: a box's fill, an arrow's stroke."""
    root = parse(sample)
    rect = root.find("rect")  # (the samples are inline HTML: no namespace)
    return rect.get("fill") if rect is not None else root.find("line").get("stroke")


def _legend() -> dict:
    """The legend's first word (its colour) -> the colour its sample draws."""
    out = {}
    for sample, words in legend_items():
        word = re.match(r"\w+", words).group()
        out[word] = _sample_colour(sample)
        assert word in names_of(out[word]), (word, out[word], words)
    return out


def test_each_legend_sample_has_the_colour_its_words_name():
    assert set(_legend()) == {"gold", "lilac", "blue", "red", "grey"}


def _polygon(group):
    """A box's shape (its first polygon)."""
    return next(group.iter(f"{SVG}polygon"))


def steppers():
    a, b, c = (torch.tensor(v, requires_grad=True) for v in (-2.0, 5.0, -4.0))
    q = a + b
    f = q * c
    yield "lesson 1", BackwardStepper(f, names={"x": a, "y": b, "z": c, "q": q, "f": f})
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    yield "lesson 4", BackwardStepper(out, names={"x": x, "y": y, "out": out})
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    y.retain_grad()
    out = (y * y * 3).mean()
    yield "retained y", BackwardStepper(out, names={"x": x, "y": y, "out": out})


@pytest.mark.parametrize("name, stepper", list(steppers()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_every_frame_draws_the_colours_the_legend_names(name, stepper):
    legend = _legend()
    book = stepper.frames
    ran = set()
    for k, frame in enumerate(stepper.plan):
        boxes = groups(book.svg(k), "node")
        current = boxes[frame.box]
        assert "current" in current.get("class")
        shape = _polygon(current)
        # frame 0 too: its box is the output's, green in draw_graph, gold while it is current
        assert shape.get("fill") == legend["gold"], (name, k, boxes[frame.box].get("class"))
        assert shape.get("stroke-width") == "3"
        for box_id in ran - {frame.box}:
            done = _polygon(boxes[box_id])
            assert done.get("fill") == legend["lilac"] and done.get("stroke-dasharray"), (k, box_id)
        for box_id in [b for j in range(1, k + 1) for b in stepper.plan[j].labels]:
            kind = stepper.model.boxes[box_id].kind
            if box_id != frame.box and kind == "leaf":
                assert _polygon(boxes[box_id]).get("fill") == legend["blue"], (k, box_id)
            elif box_id != frame.box:  # a retained grad: written in, its box not called a leaf
                assert _polygon(boxes[box_id]).get("fill") == FILL[kind], (k, box_id, kind)
        arrows = groups(book.svg(k), "edge")
        for arrow_id in stepper.model.arrows:
            label = "".join(t.text or "" for t in arrows[arrow_id].iter(f"{SVG}text")).strip()
            stroke = next(arrows[arrow_id].iter(f"{SVG}path")).get("stroke")
            assert stroke == (legend["red"] if label else legend["grey"]), (k, arrow_id, label)
        if stepper.model.boxes[frame.box].kind in FILLED:
            ran.add(frame.box)


@pytest.mark.parametrize("name, stepper", list(steppers()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_the_legends_gold_words_are_true_in_every_frame(name, stepper):
    """The legend is the same in every frame, so its words for the gold box must hold in
    frame 0, where no node has run yet and the gold box is the output's (audit 18 read "the
    node running in this frame" there), and in every later frame, where it is the box of the
    node(s) that frame runs."""
    gold = next(words for _, words in legend_items() if words.startswith("gold"))
    assert "the output before it starts" in gold and "node running in this frame" in gold
    first = stepper.plan[0]
    assert stepper.model.boxes[first.box].kind == "output" and not first.steps
    assert first.box in stepper.model.output_ids
    for k, frame in enumerate(stepper.plan[1:], 1):
        assert frame.steps and {stepper.model.box_of[s.node] for s in frame.steps} == {frame.box}, k


@pytest.mark.parametrize("name, stepper", list(steppers()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_the_browsers_style_sheet_paints_the_colours_the_legend_names(name, stepper):
    """In JupyterLab the frames are one SVG and a style sheet: frame k's rule must fill
    its box with the legend's gold, frame 0 (the output) included, and only leaves blue."""
    css = stepper._picture.value
    legend = _legend()
    token = stepper.frames.token
    for k, frame in enumerate(stepper.plan):
        rule = re.search(rf"\.{token}\.f{k}\) #{frame.box} polygon\{{([^}}]*)\}}", css)
        assert rule and f"fill:{legend['gold']}" in rule.group(1), (k, frame.box)
        blue = re.search(rf"\.{token}\.g{k}\) :is\(([^)]*)\) polygon\{{fill:{legend['blue']}", css)
        painted = set(re.findall(r"#([\w-]+)", blue.group(1))) if blue else set()
        assert painted == {b for b in frame.labels if stepper.model.boxes[b].kind == "leaf"}


# ---- the lessons' sentences about the colours of draw_graph and BackwardCheck ----------


def _stored_svgs(notebook: str) -> list:
    cells = json.loads((LESSONS / notebook).read_text(encoding="utf-8"))["cells"]
    return ["".join(output["data"]["image/svg+xml"]) for cell in cells
            for output in cell.get("outputs", []) if "image/svg+xml" in output.get("data", {})]


@pytest.mark.parametrize("notebook, said", [
    ("01_a_scalar_by_hand.ipynb", {"green": "output", "grey": "op", "blue": "leaf",
                                   "yellow": "tensor"}),
    ("02_tensors_that_track_history.ipynb", {"green": "output", "grey": "op", "blue": "leaf",
                                             "yellow": "tensor"}),
])
def test_the_graph_colours_a_lesson_names_are_drawn(notebook, said):
    text = " ".join("".join(cell["source"]) for cell in json.loads(
        (LESSONS / notebook).read_text(encoding="utf-8"))["cells"] if cell["cell_type"] == "markdown")
    svg = _stored_svgs(notebook)[0]
    boxes = groups(svg, "node")
    for word, kind in said.items():
        assert f"**{word}** box" in text, (notebook, word)
        fills = {_polygon(g).get("fill") for g in boxes.values() if kind in g.get("class").split()}
        assert fills and all(word in names_of(fill) for fill in fills), (word, kind, fills)


def test_backward_checks_colours_are_the_ones_lesson_10_names():
    text = "".join("".join(cell["source"]) for cell in json.loads(
        (LESSONS / "10_backprop_by_hand.ipynb").read_text(encoding="utf-8"))["cells"])
    assert "**green** with ✓" in text and "**pale green** with ≈" in text
    assert "**red**\nwith ✗" in text or "**red** with ✗" in text
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).sum()
    check = BackwardCheck(loss, {"x": x, "w": w})
    check.update({"x": w.detach().clone(), "w": torch.tensor([0.0, 0.0])})
    boxes = groups(check.svg, "node")
    for status in ("exact", "wrong"):
        fills = {_polygon(g).get("fill") for g in boxes.values() if status in g.get("class").split()}
        assert fills == {LOOK[status][0]}, (status, fills)
    assert "green" in names_of(LOOK["exact"][0])
    close, exact = (colorsys.rgb_to_hls(*(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)))[1]
                    for c in (LOOK["close"][0], LOOK["exact"][0]))
    assert "green" in names_of(LOOK["close"][0]) and close > exact  # pale green: lighter
    assert "red" in names_of(LOOK["wrong"][0]) and "red" in names_of(LOOK["wrong"][1])
    # one meaning, one colour: green says a verdict, so the loss's box (not checked) is not
    # green, as draw_graph's output is, but yellow, as any tensor named and not checked
    # (audit 19: it was drawn #d9ead3 beside the close verdict's #e2f0d9)
    (loss_box,) = [g for g in boxes.values() if "output" in g.get("class").split()]
    fill = _polygon(loss_box).get("fill")
    assert fill == FILL["tensor"] and "green" not in names_of(fill), fill
    assert fill not in {look[0] for look in LOOK.values()}


def _colour_word(words: str) -> str:
    """The colour a legend entry names: its first word, or the one after "pale"."""
    found = re.match(r"(?:pale )?(\w+)", words)
    return found.group(1)


@pytest.mark.parametrize("name, stepper", list(steppers()), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_every_colour_a_frame_draws_is_named_in_its_legend(name, stepper):
    """Lesson 1's yellow box q (a tensor named, made by the add), the grey nodes that have
    not run, the pale blue leaves and the green output were drawn in every frame and named
    in no legend (audit 21). Each box fill and arrow colour of every frame is a sample's
    colour in the stepper's legend, under words that name that colour."""
    from widgets.legend import legend_html
    items = legend_items(stepper._kinds)
    samples = {}
    for sample, words in items:
        colour = _sample_colour(sample)
        assert _colour_word(words) in names_of(colour), (words, colour)
        samples.setdefault(colour, []).append(words)
    for k in range(len(stepper.plan)):
        svg = stepper.frames.svg(k)
        fills = {_polygon(g).get("fill") for g in groups(svg, "node").values()}
        strokes = {p.get("stroke") for g in groups(svg, "edge").values()
                   for p in g.iter(f"{SVG}path")}
        unnamed = {c for c in fills | strokes if c not in samples and c != "none"}
        assert not unnamed, (name, k, unnamed, sorted(samples))
    assert all(words in legend_html(stepper._kinds) for _, words in items)
    assert f"{legend_html(stepper._kinds)}" in stepper.static_html()


def test_lesson_1s_yellow_box_is_named_in_its_steppers_legend():
    _, stepper = next(steppers())
    yellow = [words for sample, words in legend_items(stepper._kinds)
              if _sample_colour(sample) == FILL["tensor"]]
    assert yellow == ["yellow: a tensor you named that an operation made (not a leaf)"]
