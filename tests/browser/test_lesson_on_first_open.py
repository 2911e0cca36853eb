"""Scenario 4: a learner's first look at a lesson, before running anything.

`make lab` trusts the lessons and switches JupyterLab's news pop-up off (the
`lab` fixture runs the same `make lab-setup`). Opened unrun, lesson "inside
backward" must show its stored outputs as a learner should see them: the
graphs as SVG pictures, not as "graph of output: ..." text, and a stepper
whose Play button plays the frames in the page, with no "Error displaying
widget" anywhere and no pop-up covering the notebook.
"""

from urllib.parse import unquote

import pytest

from conftest import (current_box, engine_order, open_notebook, play_and_watch, shown_frame,
                      snapshot)

pytestmark = pytest.mark.browser

LESSON = "04_inside_backward.ipynb"
# The fills of the stepper's boxes on screen (as the browser paints them, the frame's style
# sheet applied) that no sample of its legend has: the yellow boxes of named tensors, the
# grey nodes not yet run and the pale blue leaves were named nowhere (audit 21).
_UNNAMED = """stepper => {
    const named = new Set([...stepper.querySelectorAll('.minigrad-legend rect')]
        .map(r => getComputedStyle(r).fill));
    const drawn = new Set([...stepper.querySelectorAll('svg g.node polygon')]
        .filter(p => p.getClientRects().length > 0).map(p => getComputedStyle(p).fill));
    return [...drawn].filter(c => !named.has(c) && c !== 'none');
}"""


def test_unrun_lesson_shows_graphs_and_plays(page, lab):
    output_id, expected = engine_order()
    total = len(expected)
    open_notebook(page, lab, LESSON)
    # the collapsed chain drawn by draw_graph: stored SVG, shown as a picture
    # (Lab draws a trusted SVG output as an <img>; untrusted, it prints a refusal)
    graph = page.locator(".jp-RenderedSVG img")
    graph.first.wait_for(timeout=30_000)
    picture = unquote(graph.first.get_attribute("src"))
    assert picture.startswith("data:image/svg+xml") and "MulBackward0 ×" in picture, picture[:300]
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=30_000)
    text = page.locator(".jp-Notebook").inner_text()
    assert "Error displaying widget" not in text
    assert page.locator(".jp-RenderedText", has_text="graph of output").count() == 0
    assert page.locator(".jp-RenderedSVG", has_text="untrusted").count() == 0
    assert not page.get_by_text("official Jupyter news").is_visible()
    shown_frame(stepper, 0, total)
    assert current_box(stepper, 0, total)[0] == output_id
    assert stepper.evaluate(_UNNAMED) == []  # every fill on screen is in the legend
    snapshot(page, "4-unrun-lesson-stepper", stepper)

    # Play: frames switch in the page
    seen = play_and_watch(page, stepper, stepper.locator(
        f'.minigrad-frame[aria-label="frame {total} of {total}"]'))
    assert seen == [(0, output_id)] + [(index, box_id) for index, (box_id, _)
                                       in enumerate(expected, start=1)], seen
    assert not page.get_by_text("official Jupyter news").is_visible()
    assert stepper.evaluate(_UNNAMED) == []
    snapshot(page, "4-unrun-lesson-played", stepper)


def test_lesson_0_opens_the_student_version_of_an_assignment(page, lab):
    """What `make lab` opens (my-lessons/, the learner's copy): lesson 0's link to an
    assignment opens its student version, not a "File Load Error" nor the solutions."""
    open_notebook(page, lab, "my-lessons/00_start_here.ipynb")
    page.locator(".jp-RenderedMarkdown a", has_text="Derive it by hand").first.click()
    tab = page.locator(".lm-TabBar-tab", has_text="01_derive_it_by_hand.ipynb")
    tab.first.wait_for(timeout=30_000)
    notebook = page.locator(".jp-NotebookPanel:visible .jp-Notebook")
    notebook.locator(".jp-Cell").first.wait_for(timeout=30_000)
    notebook.locator(".jp-RenderedMarkdown h1", has_text="Assignment 1").first.wait_for(
        timeout=30_000)
    assert page.get_by_text("File Load Error").count() == 0
    source = (lab[2] / "my-lessons" / "assignments" / "01_derive_it_by_hand.ipynb").read_text()
    assert "BEGIN SOLUTION" not in source and "YOUR CODE HERE" in source
    assert notebook.locator(".jp-CodeCell .cm-content", has_text="YOUR CODE HERE").count() > 0
    snapshot(page, "4-lesson-0-assignment-link")


@pytest.mark.parametrize("lesson", ["03_gradients.ipynb", "10_backprop_by_hand.ipynb"])
def test_unrun_checks_mark_only_the_boxes_that_need_a_kernel(page, lab, lesson):
    """A DerivativeCheck (lesson 3) or BackwardCheck (lesson 10) opened unrun shows its
    saved verdicts; ipywidgets marks its widgets 'disconnected' (a red broken chain before
    each, eight per check), but only the atol and rtol boxes need the kernel: the chain
    shows on them alone, not before the verdict, the table or the graph."""
    open_notebook(page, lab, lesson)
    check = page.locator(".minigrad-check").first
    check.locator(".widget-html-content").first.wait_for(timeout=30_000)
    marks = check.evaluate("""c => [c, ...c.querySelectorAll('*')]
        .filter(e => e.classList.contains('jupyter-widgets-disconnected'))
        .map(e => [e.classList.contains('widget-text'), getComputedStyle(e, '::before').display])""")
    shown = [needs_kernel for needs_kernel, display in marks if display != "none"]
    assert len(marks) > 2 and shown == [True, True], marks
    snapshot(page, f"4-unrun-check-{lesson[:2]}", check)
