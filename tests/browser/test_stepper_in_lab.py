"""Scenario 1: the stepper lesson in JupyterLab, clicked through in Chromium.

The order the gold box must follow comes from the engine itself
(``backward_steps``) and the box ids from the drawing's own numbering
(``GraphModel``: ``op0``..., ``acc0``, ``out0``), so the two MulBackward0 boxes
are told apart and a wrong order cannot pass.
"""

import pytest

from conftest import (current_box, engine_order, open_notebook, run_all, shown_frame,
                      shown_text, snapshot, step_through)

pytestmark = pytest.mark.browser


def _rgb(colour: str) -> str:
    """``#ffd966`` as the browser computes it, ``rgb(255, 217, 102)``."""
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


def fill_of(stepper, box_id: str) -> str:
    return stepper.locator(f"g.node#{box_id} polygon").first.evaluate(
        "e => getComputedStyle(e).fill")


def legend_gold(stepper) -> str:
    """The fill of the legend's first sample ("gold, thick border: ...")."""
    return _rgb(stepper.locator(".minigrad-legend li").first.locator("rect").get_attribute("fill"))


def test_step_through_backward_in_lab(page, lab):
    output_id, expected = engine_order()
    assert [name for _, name in expected] == [
        "MeanBackward0", "MulBackward0", "MulBackward0", "AddBackward0", "AccumulateGrad"]
    total = len(expected)

    open_notebook(page, lab, "04_inside_backward.ipynb")
    run_all(page)
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=60_000)

    shown_frame(stepper, 0, total)
    for box_id, name in expected:  # the rendered graph: Graphviz's node ids survive
        assert name in stepper.locator(f"g.node#{box_id}").get_attribute("class").split()
    assert current_box(stepper, 0, total)[0] == output_id
    legend = stepper.locator(".minigrad-legend li")
    # (the five marks, then the resting colour of each kind of box lesson 4's graph holds:
    # the output, backward nodes, leaves, a saved tensor)
    assert legend.count() == 9 and all(item.is_visible() for item in legend.all())
    assert "thick border" in legend.nth(0).inner_text()
    assert "dashed border" in legend.nth(1).inner_text()
    # the colour the legend names is the one drawn: frame 0's box (the output) is gold too,
    # not green with a gold border
    assert legend.nth(0).inner_text().startswith("gold")
    # ... and its words hold in frame 0 too, where no node runs yet and the gold box is the
    # output's (it said "the node running in this frame")
    assert "the output before it starts" in legend.nth(0).inner_text()
    assert fill_of(stepper, output_id) == legend_gold(stepper)
    snapshot(page, "1-lesson-stepper-before", stepper)

    step_through(page, stepper, expected, "the engine", (3, "1-lesson-stepper-step-3"))
    assert fill_of(stepper, output_id) != legend_gold(stepper)  # gold only while it is current
    leaf = shown_text(stepper, "g.node.leaf")
    assert "grad:" in leaf and "4.5" in leaf, leaf
    # the legend's marks are the picture's: a node that ran has a dashed border
    ran = stepper.locator(f"g.node#{expected[0][0]} polygon").first
    assert "5" in ran.evaluate("e => getComputedStyle(e).strokeDasharray")
    snapshot(page, "1-lesson-stepper-end", stepper)

    stepper.get_by_role("button", name="back").click()
    shown_frame(stepper, total - 1, total)
    assert current_box(stepper, total - 1, total)[0] == expected[-2][0]
    assert "4.5" not in shown_text(stepper, "g.node.leaf")

    stepper.get_by_role("button", name="reset").click()
    shown_frame(stepper, 0, total)
    assert current_box(stepper, 0, total)[0] == output_id
    assert fill_of(stepper, output_id) == legend_gold(stepper)
    assert stepper.locator(".widget-readout").first.inner_text().strip() == "0"
    snapshot(page, "1-lesson-stepper-reset", stepper)
