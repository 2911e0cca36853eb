"""Scenario 3: a lesson exported to HTML plays its stepper with no kernel and no network.

The export is what a teacher would do: ``jupyter nbconvert --to html`` with the
widget renderer pointed at a local copy of @jupyter-widgets/html-manager
(``tests/browser/install-browser.sh`` fetches it) placed beside the HTML.
The lesson stores its widget state (nbclient saves it when it runs the
notebook), so the frames, the slider and the Play button work in the page.
"""

import shutil
import subprocess
import sys

import pytest

from conftest import HTML_MANAGER, REPO, snapshot

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
                    str(REPO / "notebooks" / "03_inside_backward.ipynb")],
                   check=True, capture_output=True)
    shutil.copytree(HTML_MANAGER, folder / "html-manager")
    return folder / "03_inside_backward.html"


def test_exported_lesson_plays_the_stepper_offline(page, exported):
    requested = []
    page.route("http*://**", lambda route: (requested.append(route.request.url),
                                            route.abort()))
    page.goto(exported.as_uri())
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=30_000)

    def shown(index):
        frame = stepper.locator(f'.minigrad-frame[aria-label="frame {index} of 5"]')
        frame.wait_for(state="visible", timeout=10_000)
        return frame

    assert "Before backward" in shown(0).inner_text()
    handle = stepper.locator(".noUi-handle")
    handle.focus()
    for index in (1, 2):
        page.keyboard.press("ArrowRight")  # the slider is keyboard operable
        assert f"Step {index} of 5" in shown(index).inner_text()
    snapshot(page, "3-exported-html-step-2", stepper)

    page.keyboard.press("Home")
    shown(0)
    stepper.locator(".widget-play button").first.click()  # Play, driven by the page alone
    last = shown(5)
    assert "4.5" in last.locator("g.node.leaf").text_content()
    snapshot(page, "3-exported-html-played", stepper)
    # nothing was fetched from the network (MathJax is the only thing that tries)
    assert all("mathjax" in url.lower() for url in requested), requested
