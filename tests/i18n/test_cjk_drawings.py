"""Chinese and Korean text in the drawings: every label fits its box, with both renderers,
and the SVG names fonts that have the glyphs.

A browser draws Latin text in Courier or its monospace fallback (0.6 em a character, the
metric Graphviz lays out with) and a Chinese or Korean character, which those fonts lack,
from a CJK font, full width: 1 em. The labels here are real: the learner's own names in
Chinese and Korean, and the kit's words from its catalogs."""

import shutil
import unicodedata
import xml.etree.ElementTree as ET

import minigrad as torch
import pytest

from kit_i18n import set_language
from widgets import BackwardStepper, draw_graph, render_svg
from widgets.render import FONT_STACK

SVG = "{http://www.w3.org/2000/svg}"
RENDERERS = ["graphviz-pure"] + (["dot"] if shutil.which("dot") else [])


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language(None)


def advance(text: str) -> float:
    """Width in em: 1 for a full-width (CJK) character, 0.6 for any other."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in text)


def overflowing(svg: str) -> list:
    root = ET.fromstring(svg)
    family = root.get("font-family")  # (a stepper frame sets it once, on the root)
    found = []
    for group in root.iter(f"{SVG}g"):
        if "node" not in group.get("class", "").split():
            continue
        polygon = group.find(f".//{SVG}polygon")
        xs = [float(point.split(",")[0]) for point in polygon.get("points").split()]
        left, right = min(xs), max(xs)
        for text in group.iter(f"{SVG}text"):
            size = float(text.get("font-size") or root.get("font-size") or 11)
            width = advance((text.text or "").replace("\xa0", " ")) * size
            x = float(text.get("x"))
            start = {"start": x, "middle": x - width / 2, "end": x - width}[
                text.get("text-anchor", "start")]
            if start < left - 0.5 or start + width > right + 0.5:
                found.append(text.text)
            if any(unicodedata.east_asian_width(c) in "WF" for c in text.text or ""):
                assert (text.get("font-family") or family) == FONT_STACK  # names CJK fonts
    return found


def drawings(names: dict):
    """The kinds of drawing: named leaves and output, saved tensors, a collapsed run,
    the "… more" box, and a tensor held back by retain_grad."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    y.retain_grad()
    out = (y * y * 3).mean()
    out.backward(retain_graph=True)
    chain = x
    for _ in range(6):
        chain = chain * 1.5
    long = chain.sum()
    return [draw_graph(out, names={names["x"]: x, names["y"]: y, names["out"]: out},
                       show_saved=True),
            draw_graph(long, names={names["x"]: x}),
            draw_graph(long, max_nodes=3)], (out, {names["x"]: x, names["out"]: out})


NAMES = {"zh": {"x": "输入张量", "y": "中间结果", "out": "输出"},
         "ko": {"x": "입력텐서", "y": "중간값", "out": "출력값"}}


@pytest.mark.parametrize("engine", RENDERERS)
@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_chinese_and_korean_labels_fit_their_boxes(lang, engine):
    set_language(lang)
    graphs, (out, names) = drawings(NAMES[lang])
    for graph in graphs:
        svg = render_svg(graph, engine=engine)
        assert overflowing(svg) == [], graph.source
    wide = [c for graph in graphs for c in graph.source
            if unicodedata.east_asian_width(c) in "WF"]
    assert len(wide) > 20  # real CJK text was laid out
    stepper = BackwardStepper(out, names=names, engine=engine)
    for frame in stepper.frames:
        assert overflowing(frame) == []


def test_the_svg_names_cjk_fonts_only_when_it_needs_them():
    graphs, _ = drawings({"x": "x", "y": "y", "out": "out"})
    english = render_svg(graphs[0])
    assert 'font-family="Courier,monospace"' in english and "CJK" not in english
    set_language("zh")
    graphs, _ = drawings(NAMES["zh"])
    chinese = render_svg(graphs[0])
    assert f'font-family="{FONT_STACK}"' in chinese
    assert "'Noto Sans CJK SC'" in FONT_STACK and "'Noto Sans CJK KR'" in FONT_STACK
    assert FONT_STACK.startswith("Courier,monospace,")  # Latin text keeps Courier's metric
