"""Scenario 9: lesson 10's BackwardCheck in JupyterLab.

The lesson is run with one more cell at the end that checks a wrong gradient (the
bias's gradient without its sum). The check shown near the top of the lesson is
the same widget, so after Run All it shows the final state: every tensor right
but that one, marked on the graph by colour and text, named in the table with
what is likely wrong, and said in the live region. The verdicts expected come
from the same cells run in this process. Then the learner tightens the second
check's tolerance in the page, and its close gradient turns wrong.
"""

from pathlib import Path

import nbformat
import pytest

from conftest import REPO, open_notebook, run_all, snapshot

pytestmark = pytest.mark.browser

LESSON = REPO / "notebooks" / "10_backprop_by_hand.ipynb"
WRONG = 'check.add("b2", dlogits)  # the sum over the batch forgotten'


def lesson_with_a_mistake() -> nbformat.NotebookNode:
    notebook = nbformat.read(LESSON, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    notebook.cells.append(nbformat.v4.new_code_cell(WRONG))
    return notebook


def expected(notebook) -> dict:
    """The same cells, run here: the checks' state at the end."""
    scope = {"__name__": "__main__"}
    for cell in notebook.cells:
        if cell.cell_type == "code" and "try-it" not in cell.metadata.get("tags", []):
            exec(cell.source, scope)
    check, fast = scope["check"], scope["fast"]
    return {"summary": check.summary, "b2": check.verdict("b2"), "fast": fast.summary,
            "right": sum(v.right for v in check.verdicts.values())}


def svg_text(locator) -> list[str]:
    """The words of an SVG group's texts (an SVG element has no inner_text)."""
    return locator.evaluate("g => [...g.querySelectorAll('text')].map(t => t.textContent)"
                            ".join(' ')").split()


def test_backprop_by_hand_checked_in_lab(page, lab):
    notebook = lesson_with_a_mistake()
    want = expected(notebook)
    assert want["b2"].status == "wrong" and want["right"] == 16
    nbformat.write(notebook, Path(lab[2]) / "10_backprop_check.ipynb")

    page.set_viewport_size({"width": 1280, "height": 1600})  # the whole check on screen
    open_notebook(page, lab, "10_backprop_check.ipynb")
    run_all(page)
    checks = page.locator(".minigrad-backward-check")
    check = checks.first
    check.get_by_text(want["summary"]).wait_for(timeout=120_000)
    picture = check.locator("svg").first
    picture.wait_for()
    wrong = check.locator("svg g.node.wrong")
    assert wrong.count() == 1
    assert svg_text(wrong.first) == ["b2", "[27]", "✗", "wrong"]
    assert check.locator("svg g.node.exact").count() + check.locator(
        "svg g.node.close").count() == 16
    assert check.locator("svg g.node.missing").count() == 0
    assert "AccumulateGrad" in svg_text(picture)
    # the box of what it checks against: "the loss", as the lesson calls it (was "output")
    assert svg_text(check.locator("svg g.node.output").first)[0] == "loss"
    row = check.locator('tr.minigrad-verdict[data-name="b2"]')
    assert want["b2"].hint in row.inner_text()
    assert "wrong" in row.get_attribute("class").split()
    live = check.locator('[role="status"][aria-live="polite"]')
    assert live.inner_text().strip() == want["b2"].sentence()
    assert picture.get_attribute("aria-label") is None  # (the label is on its container)
    assert check.locator('[role="img"]').first.get_attribute("aria-label") == want["summary"]
    check.scroll_into_view_if_needed()
    check.locator('[role="img"]').first.evaluate(  # the graph's box scrolled to b2
        "(box, id) => box.scrollTop = box.querySelector('#' + id).getBoundingClientRect().top"
        " - box.getBoundingClientRect().top - 200", wrong.first.get_attribute("id"))
    snapshot(page, "9-backward-check-one-wrong", check)

    # the second check: F.cross_entropy's gradient in one line, close; with no tolerance
    # at all (typed in the page, sent to the kernel) it is wrong
    fast = checks.nth(2)  # (the lesson shows the first check twice, then the second)
    fast.get_by_text(want["fast"]).wait_for(timeout=30_000)
    assert fast.locator("svg g.node.close").count() == 1
    for name in ("atol", "rtol"):
        box = fast.get_by_role("textbox", name=name)
        box.fill("0")
        box.press("Enter")
    fast.locator("svg g.node.wrong").wait_for(timeout=30_000)
    assert svg_text(fast.locator("svg g.node.wrong").first)[0] == "logits"
    fast.locator('tr.minigrad-verdict.wrong[data-name="logits"]').wait_for(timeout=30_000)
    assert "atol=0, rtol=0" in fast.inner_text()
    fast.scroll_into_view_if_needed()
    snapshot(page, "9-backward-check-no-tolerance", fast)
