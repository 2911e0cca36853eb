"""The item analysis of a real grading run (tests/assignments/course_grades.py), opened from
disk in Chromium with every request off the file refused: its plots, tables and text show,
in English and in Chinese, and nothing is fetched. Screenshots: test-artifacts/browser/
item-analysis-*.png (the README's picture is one of them)."""

import sys

import pytest

from conftest import REPO, snapshot

sys.path.insert(0, str(REPO / "tests" / "assignments"))  # (the class graded for those tests)
from course_grades import A1, A2, course_grades  # noqa: E402

from grader.analysis_page import write_pages  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    graded = course_grades(tmp_path_factory)
    folder = tmp_path_factory.mktemp("report")
    return {lang: write_pages(graded["out"], lang, folder / lang) for lang in ("en", "zh")}


@pytest.mark.parametrize("lang, heading", [("en", "Item analysis · Derive it by hand"),
                                           ("zh", "题目分析 · 亲手推导")])
def test_the_item_analysis_reads_offline(page, pages, lang, heading):
    requested = []
    page.context.route(lambda url: not url.startswith("file:"),
                       lambda route: (requested.append(route.request.url), route.abort()))
    folder = pages[lang][0].parent
    page.goto((folder / f"{A2}.html").as_uri())
    assert page.locator("h1").inner_text() == heading
    figures = page.locator("figure svg")
    assert figures.count() == 3
    for index in range(3):
        box = figures.nth(index).bounding_box()
        assert box and box["width"] > 300 and box["height"] > 80, box
    # the question plot: a bar per question, its counts written on it as text
    said = [t.strip() for t in page.locator("figure").nth(1).locator("svg text")
            .all_text_contents()]
    assert {"q1", "q2", "q3", "q4"} <= set(said) and "5" in said  # q3: 5 with full marks
    rows = page.locator("table").first.locator("tbody tr")
    assert rows.count() == 4 and rows.first.locator("td").nth(3).inner_text() == "1"
    heading_box = page.locator("h1").bounding_box()
    assert heading_box["width"] > 200  # (glyphs drawn: CJK fonts present for zh)
    snapshot(page, f"item-analysis-{lang}", page.locator("body"))
    if lang == "en":  # the README's picture: the top of the page (notebooks/img/item-analysis.png)
        page.set_viewport_size({"width": 1000, "height": 1400})
        page.evaluate("window.scrollTo(0, 0)")
        snapshot(page, "item-analysis-top")
    page.goto((folder / f"{A1}.html").as_uri())
    flagged = page.locator("table.flags")
    assert "bob" in flagged.inner_text() and "q1 q2 q3" in flagged.inner_text()
    assert requested == []
