"""Scenario 3: a lesson exported to HTML plays its stepper with no kernel and no network.

The export is what a teacher would do: ``jupyter nbconvert --to html`` with the
widget renderer pointed at a local copy of @jupyter-widgets/html-manager
(``tests/browser/install-browser.sh`` fetches it) placed beside the HTML.
The lesson stores its widget state (nbclient saves it when it runs the
notebook), so the frames, the slider and the Play button work in the page.

Every request off the machine is refused. The page still asks cdnjs for
require.js (nbconvert's template loads it; ``embed.js`` does not need it) and
MathJax (offline, formulas stay as TeX); nothing the widgets need is fetched.
Play and the slider are linked in the page (``jslink``), and the step/back/reset
buttons move the slider in the page: all of them are tested.
"""

import shutil
import subprocess
import sys

import pytest

from conftest import (HTML_MANAGER, REPO, current_box, engine_order, play_and_watch,
                      shown_frame, shown_text, snapshot)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    if not (HTML_MANAGER / "embed.js").exists():
        pytest.fail("the widget HTML manager is missing: run tests/browser/install-browser.sh "
                    "(make test does)")
    folder = tmp_path_factory.mktemp("export")
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "html",
                    "--HTMLExporter.widget_renderer_url=html-manager/embed.js",
                    "--output-dir", str(folder),
                    str(REPO / "notebooks" / "04_inside_backward.ipynb")],
                   check=True, capture_output=True)
    shutil.copytree(HTML_MANAGER, folder / "html-manager")
    return folder / "04_inside_backward.html"


def test_exported_lesson_plays_the_stepper_offline(page, exported):
    requested = []  # a predicate, not a glob: "http*://**" lets https through
    page.context.route(lambda url: not url.startswith("file:"),
                       lambda route: (requested.append(route.request.url), route.abort()))
    page.goto(exported.as_uri())
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=30_000)
    output_id, expected = engine_order()
    total = len(expected)

    frame = shown_frame(stepper, 0, total)
    assert "Before backward" in frame.inner_text()
    assert current_box(stepper, 0, total)[0] == output_id
    stepper.locator(".noUi-handle").focus()
    for index in (1, 2):
        page.keyboard.press("ArrowRight")  # the slider is keyboard operable
        frame = shown_frame(stepper, index, total)
        assert f"Step {index} of {total}" in frame.inner_text()
        assert current_box(stepper, index, total)[0] == expected[index - 1][0]
    snapshot(page, "3-exported-html-step-2", stepper)

    page.keyboard.press("Home")
    shown_frame(stepper, 0, total)
    # the buttons, with no kernel behind them
    stepper.get_by_role("button", name="step").click()
    shown_frame(stepper, 1, total)
    assert current_box(stepper, 1, total)[0] == expected[0][0]
    stepper.get_by_role("button", name="step").click()
    shown_frame(stepper, 2, total)
    stepper.get_by_role("button", name="back").click()
    shown_frame(stepper, 1, total)
    stepper.get_by_role("button", name="reset").click()
    shown_frame(stepper, 0, total)
    # Play, driven by the page alone: one frame a second
    seen = play_and_watch(page, stepper, stepper.locator(
        f'.minigrad-frame[aria-label="frame {total} of {total}"]'))
    assert seen == [(0, output_id)] + [(index, box_id) for index, (box_id, _)
                                       in enumerate(expected, start=1)], seen
    leaf = shown_text(stepper, "g.node.leaf")
    assert "grad:" in leaf and "4.5" in leaf, leaf
    snapshot(page, "3-exported-html-played", stepper)
    # nothing the widgets need came from the network: only the two known tries were made
    tries = {url.split("?")[0].rsplit("/", 1)[-1] for url in requested}
    assert "require.min.js" in tries, requested  # the block is live: it caught the template's
    assert tries <= {"require.min.js", "latest.js"}, requested
    assert not any("jupyter-widgets" in url or "unpkg" in url for url in requested), requested
