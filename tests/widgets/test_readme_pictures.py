"""The README's picture of BackwardCheck says in its text alternative what the picture marks.

Its alt text said "logits, W2 and h close" while the picture (tools/make_readme_images.py)
marked the three exact: each tensor the sentence names must carry that verdict in the SVG.
"""

import re
from pathlib import Path

from widget_svg import groups, texts

REPO = Path(__file__).resolve().parents[2]
WORDS = {"exact": "exact", "close": "close", "wrong": "wrong", "not derived yet": "missing"}
VERDICT = re.compile(r"(.*?) (exact|close|wrong|not derived yet)$")


def said(alt: str) -> dict:
    """{tensor name: verdict} from "a, b and c exact, d wrong (why), e not derived yet"."""
    found, names = {}, []
    for part in re.split(r", | and ", re.sub(r" \([^)]*\)", "", alt.split(": ", 1)[1])):
        verdict = VERDICT.match(part)
        names.append(verdict.group(1) if verdict else part)
        if verdict:
            found.update({name: WORDS[verdict.group(2)] for name in names})
            names = []
    assert not names, f"{names} have no verdict in {alt!r}"
    return found


def test_the_backward_check_picture_is_what_its_alt_text_says():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    alt = re.search(r"!\[(BackwardCheck[^\]]*)\]\(notebooks/img/backward-check\.svg\)",
                    readme).group(1)
    svg = (REPO / "notebooks" / "img" / "backward-check.svg").read_text(encoding="utf-8")
    marked = {}
    for group in groups(svg, "node").values():
        status = set(group.get("class").split()) & set(WORDS.values())
        if status:
            marked[texts(group)[0].split()[0]] = status.pop()
    assert said(alt) == marked, alt
