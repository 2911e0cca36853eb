"""Issue 15's widget features: quiz mode, accessibility, the text listing, labels
that fit, parameters named from a module, the learner's names in sentences."""

import re

import numpy as np
import pytest

import minigrad as torch
from minigrad import nn
from widget_svg import SVG, groups, parse, texts
from widgets import BackwardStepper, draw_graph, render_svg
from widgets.quiz import parse_answer


def tutorial():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return x, y, z, out


# ---- quiz mode ---------------------------------------------------------------------


def test_quiz_asks_before_each_step_and_says_right_or_wrong():
    x, y, z, out = tutorial()
    stepper = BackwardStepper(out, names={"x": x, "out": out}, quiz=True)
    expected = [step for step in stepper.steps]
    assert stepper.question == "What gradient will MeanBackward0 send to MulBackward0?"
    assert stepper.answer("0.25") is True
    assert stepper.feedback == "Right: MeanBackward0 sends 0.25 each to MulBackward0."
    assert stepper.index == 1
    assert stepper.question == "What gradient will MulBackward0 send to MulBackward0?"
    assert stepper.answer("[[0.5, 0.5], [0.5, 0.5]]") is False
    assert stepper.feedback == ("Not quite: you said [[0.5, 0.5], [0.5, 0.5]]; "
                                "MulBackward0 sends 0.75 each to MulBackward0.")
    assert stepper.index == 2
    assert stepper.answer("2.25 each") is True
    assert stepper.answer("[4.5, 4.5, 4.5, 4.5]") is False  # a shape that does not fit
    assert "has shape [4], the gradient has shape [2, 2]" in stepper.feedback
    assert stepper.question == "What will x.grad be after this step?"
    assert stepper.answer(str(expected[-1].leaf_grad.tolist())) is True
    assert stepper.index == len(stepper.steps) and stepper.question is None
    assert x.grad is None


def test_quiz_answers_are_read_as_numbers_or_lists():
    assert parse_answer(" 0.75 each ").tolist() == 0.75
    assert parse_answer("[1, 2.5]").tolist() == [1.0, 2.5]
    assert parse_answer("import os") is None
    assert parse_answer("") is None


def test_quiz_widgets_are_on_the_page_only_in_quiz_mode():
    x, y, z, out = tutorial()
    plain = BackwardStepper(out)
    assert not hasattr(plain, "_answer_box")
    quiz = BackwardStepper(out, quiz=True)
    quiz._answer_box.value = "0.25"
    quiz._check.click()
    assert quiz.index == 1 and quiz.feedback.startswith("Right")
    assert 'aria-live="polite"' in quiz._feedback.value and "Right" in quiz._feedback.value


# ---- accessibility -----------------------------------------------------------------


def test_sentences_are_announced_in_a_polite_live_region():
    x, y, z, out = tutorial()
    stepper = BackwardStepper(out, names={"x": x})
    assert 'aria-live="polite"' in stepper._live.value
    stepper.step()
    assert stepper.text.replace("&", "") in stepper._live.value.replace("&amp;", "")


def test_slider_and_step_button_have_different_accessible_names():
    x, y, z, out = tutorial()
    stepper = BackwardStepper(out)
    buttons = re.findall(r"<button[^>]*>(.*?)</button>", stepper.children[0].children[2].value)
    names = [stepper._slider.description] + [re.sub(r"<[^>]*>", "", b).strip() for b in buttons]
    assert names == ["frame", "reset", "back", "step"]
    quiz = BackwardStepper(out, quiz=True)  # (the quiz's buttons call the kernel)
    assert [quiz._slider.description] + [b.description for b in quiz.children[0].children
                                         if hasattr(b, "on_click")] == names


def test_the_graph_does_not_move_when_the_sentence_wraps():
    x, y, z, out = tutorial()
    stepper = BackwardStepper(out, names={"x": x})
    heights = {re.search(r'min-height:([\d.]+)em', page.value).group(1)
               for page in stepper._frames.children}
    assert len(heights) == 1  # every frame reserves the same room for its sentence
    longest = max(len(text) for text in stepper.texts)
    assert float(heights.pop()) >= 1.4 * longest / 100


# ---- the text listing --------------------------------------------------------------


def test_text_lists_every_box_arrow_and_value():
    x, y, z, out = tutorial()
    out.backward()
    graph = draw_graph(out, names={"x": x, "y": y, "out": out})
    lines = graph.text.splitlines()
    assert lines[0] == graph.summary
    ids = {line.split()[0] for line in lines[1:]}
    assert ids == set(groups(render_svg(graph), "node"))
    text = graph.text
    assert 'output "out" = 27; backward starts here and goes to op0 (MeanBackward0)' in text
    assert ("MulBackward0: result = self * other. d(result)/d(self) = other,  "
            "d(result)/d(other) = self") in text
    assert 'leaf "x" [2, 2] = [[1., 1.], [1., 1.]]; grad: [[4.5, 4.5], [4.5, 4.5]]' in text
    assert "sends its gradient to op3 (AddBackward0) along 2 edges" in text
    assert 'tensor "y" [2, 2] = [[3., 3.], [3., 3.]]; is the result of op3 (AddBackward0)' in text


# ---- labels fit their boxes --------------------------------------------------------


def label_overflows(svg: str) -> list:
    """Texts wider than their box. Courier's advance is 0.6 em (Graphviz's metric and
    every browser's monospace fallback), so a line's width is 0.6 * size * characters."""
    assert 'font-family="Courier,monospace"' in svg  # the metric below is Courier's
    found = []
    for box_id, group in groups(svg, "node").items():
        polygon = group.find(f".//{SVG}polygon")
        xs = [float(point.split(",")[0]) for point in polygon.get("points").split()]
        left, right = min(xs), max(xs)
        for text in group.iter(f"{SVG}text"):
            size = float(text.get("font-size", "11"))
            width = 0.6 * size * len((text.text or "").replace("\xa0", " "))
            x = float(text.get("x"))
            start = {"start": x, "middle": x - width / 2, "end": x - width}[
                text.get("text-anchor", "start")]
            if start < left - 0.5 or start + width > right + 0.5:
                found.append((box_id, text.text))
    return found


def test_labels_fit_their_boxes_in_every_kind_of_drawing():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 3))
    points = torch.randn(5, 2) * 300
    loss = nn.functional.cross_entropy(model(points), torch.tensor([0, 1, 2, 1, 0]))
    loss.backward(retain_graph=True)
    x, y, z, out = tutorial()
    big = torch.tensor([257.4955, -270.5508, 1311.585, 2.0], requires_grad=True)
    drawings = [draw_graph(loss, names=model), draw_graph(out, names={"x": x, "out": out},
                                                           show_saved=True),
                draw_graph((big * 1000).sum(), names={"a long name for a tensor": big})]
    for graph in drawings:
        assert label_overflows(render_svg(graph)) == []
    stepper = BackwardStepper(loss, names=model)
    for frame in stepper.frames[::3]:
        assert label_overflows(frame) == []


# ---- parameters of a module --------------------------------------------------------


def test_module_parameters_are_named_and_large_values_summarised():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 3))
    loss = model(torch.randn(4, 2)).sum()
    nodes = groups(render_svg(draw_graph(loss, names=model)), "node")
    leaves = {texts(g)[0]: texts(g) for g in nodes.values() if "leaf" in g.get("class").split()}
    assert set(leaves) == {"0.weight  [8, 2]", "0.bias  [8]", "2.weight  [3, 8]", "2.bias  [3]"}
    weight = model[0].weight.detach().numpy()
    real = pytest.importorskip("torch")  # the two ends as PyTorch prints them, alike
    printed = str(real.tensor([weight.min(), weight.max()]))[len("tensor(["):-2].split(",")
    low, high = re.fullmatch(r"16 values from (\S+) to (\S+)", leaves["0.weight  [8, 2]"][1]
                             ).groups()
    assert [float(low), float(high)] == [float(n) for n in printed]
    assert len(low.split(".")[1]) == len(high.split(".")[1])
    named = draw_graph(loss, names={"net": model})
    assert "net.2.bias  [3]" in named.source
