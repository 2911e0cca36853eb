"""Scenario 1: the stepper lesson in JupyterLab, clicked through in Chromium."""

import pytest

import minigrad as torch
from minigrad.autograd import backward_steps

from conftest import open_notebook, run_all, snapshot

pytestmark = pytest.mark.browser


def engine_order():
    """What the engine runs for the lesson's graph, as the SVG classes name it."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    return ["leaf" if step.is_leaf else step.node.name() for step in backward_steps(out)]


def shown_frame(stepper, index, total):
    frame = stepper.locator(f'.minigrad-frame[aria-label="frame {index} of {total}"]')
    frame.wait_for(state="visible", timeout=15_000)
    return frame


def test_step_through_backward_in_lab(page, lab):
    open_notebook(page, lab, "03_inside_backward.ipynb")
    run_all(page)
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=60_000)
    expected = engine_order()
    total = len(expected)

    frame = shown_frame(stepper, 0, total)
    for name in ("MeanBackward0", "MulBackward0", "AddBackward0", "leaf"):
        assert frame.locator(f"g.node.{name}").count() >= 1, f"no {name} box in the graph"
    assert "output" in frame.locator("g.node.current").get_attribute("class").split()
    snapshot(page, "1-lesson-stepper-before", stepper)

    step = stepper.get_by_role("button", name="step")
    for index, name in enumerate(expected, start=1):
        step.click()
        frame = shown_frame(stepper, index, total)
        current = frame.locator("g.node.current")
        assert current.count() == 1
        assert name in current.get_attribute("class").split(), (index, name)
        if index == 3:
            snapshot(page, "1-lesson-stepper-step-3", stepper)
    leaf = frame.locator("g.node.leaf")
    assert "4.5" in leaf.text_content()
    snapshot(page, "1-lesson-stepper-end", stepper)

    stepper.get_by_role("button", name="back").click()
    frame = shown_frame(stepper, total - 1, total)
    assert "4.5" not in frame.locator("g.node.leaf").text_content()
    stepper.get_by_role("button", name="reset").click()
    frame = shown_frame(stepper, 0, total)
    assert "output" in frame.locator("g.node.current").get_attribute("class").split()
