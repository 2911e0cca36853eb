"""The Chinese course in a Chinese JupyterLab: the stepper lesson stepped through in Chromium.

JupyterLab's own menus are Chinese (its language pack, chosen by the translation
setting's locale), the lesson is notebooks/zh/'s, and its widgets speak Chinese because
the notebook's metadata says so (the kernel learns its notebook from JupyterLab). The
expected words are the kit's own catalog's, so the test follows the translation.
"""

import secrets
import shutil
import subprocess
import sys

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from conftest import (_CURRENT, REPO, SETTINGS, engine_order, lab_env, running_lab, shown_text,
                      snapshot, wait_for_idle_kernel)
from widgets.i18n import DOMAIN

pytestmark = pytest.mark.browser

ZH = DOMAIN.translations("zh")


@pytest.fixture(scope="module")
def lab_zh(tmp_path_factory):
    """JupyterLab in Chinese (the user setting @jupyterlab/translation-extension:plugin,
    as `make lab LANG=zh` writes it for a learner) on a copy of notebooks/."""
    base = tmp_path_factory.mktemp("lab-zh")
    root = base / "notebooks"
    shutil.copytree(REPO / "notebooks", root)
    env = lab_env(base, {**SETTINGS,
                         "@jupyterlab/translation-extension/plugin": {"locale": "zh_CN"}})
    subprocess.run([sys.executable, "-m", "jupyter", "trust", *map(str, root.glob("zh/*.ipynb"))],
                   env=env, check=True, capture_output=True)
    with running_lab(base, root, env) as served:
        yield served


def frame(stepper, index: int, total: int):
    label = ZH.gettext("frame {index} of {total}").format(index=index, total=total)
    found = stepper.locator(f'.minigrad-frame[aria-label="{label}"]')
    found.wait_for(state="visible", timeout=15_000)
    return found


def highlighted(stepper, index: int, total: int) -> str:
    """The box the picture highlights, read when frame ``index`` is the one on screen."""
    label = ZH.gettext("frame {index} of {total}").format(index=index, total=total)
    found = stepper.evaluate(_CURRENT, label)
    assert len(found) == 1, found
    return found[0][0]


def test_the_chinese_stepper_lesson_in_a_chinese_lab(page, lab_zh):
    url, token, _ = lab_zh
    output_id, expected = engine_order()
    total = len(expected)
    page.goto(f"{url}/lab/workspaces/{secrets.token_hex(4)}/tree/zh/04_inside_backward.ipynb"
              f"?reset&token={token}")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    # JupyterLab's own menus are in Chinese (its language pack)
    menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
    assert "文件" in menus and "编辑" in menus and "运行" in menus, menus
    wait_for_idle_kernel(lab_zh, "zh/04_inside_backward.ipynb")
    # run all (Chinese menu "运行"), after clearing what is stored
    page.get_by_role("menuitem", name="编辑", exact=True).click()
    page.locator('li[data-command="editmenu:clear-all"]').click()
    page.locator(".jp-Notebook .jp-OutputArea-output").first.wait_for(state="detached")
    stepper = page.locator(".minigrad-stepper").first
    for attempt in range(3):
        # (under load a click on the menu item can be lost: Lab then never runs the
        # cells, seen once in CI; running all again is harmless)
        page.get_by_role("menuitem", name="运行", exact=True).click()
        page.locator('li[data-command="runmenu:run-all"]').click()
        try:
            stepper.locator("svg").first.wait_for(timeout=30_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
    start = frame(stepper, 0, total).inner_text()
    assert "Before backward" not in start and "反向" in start, start
    step = stepper.get_by_role("button", name=ZH.gettext("step"))
    for index, (box_id, name) in enumerate(expected, start=1):
        step.click()
        text = frame(stepper, index, total).inner_text()
        assert highlighted(stepper, index, total) == box_id
        assert f"Step {index} of" not in text and name in text or name == "AccumulateGrad", text
        if index == 3:
            snapshot(page, "zh-lesson-stepper-step-3", stepper)
    leaf = shown_text(stepper, "g.node.leaf")
    assert "4.5" in leaf, leaf
    snapshot(page, "zh-lesson-stepper-end", stepper)
    shot = snapshot(page, "zh-lab-stepper")
    assert shot.stat().st_size > 10_000
