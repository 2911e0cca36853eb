"""The lessons' "Try it" exercises are real predict-then-check, and their answers are true.

Each "## Try it" section is followed by an empty cell for the learner (tagged
``try-it``, no output that could give the answer away) and then by the answer,
folded in a ``<details>`` block. Every ``python`` block in an answer runs after
the lesson's own cells, in the same namespace, as a learner would paste it;
when the answer says what it prints (a ``text`` block), that is what it prints.
Every lesson ends with "Read next" links and previous/next links that exist.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import matplotlib
matplotlib.use("Agg")  # before pyplot: no window, no backend from the environment
import matplotlib.pyplot  # noqa: E402
import nbformat  # noqa: E402
import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
LESSON_IDS = [p.stem for p in LESSONS]
RANDOM = re.compile(r"manual_seed|randn|rand\(|nn\.Linear")
BLOCK = re.compile(r"```(python|text)\n(.*?)```", re.S)


def cells(path):
    return nbformat.read(path, as_version=4).cells


def run(source: str, namespace: dict, where: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, where, "exec"), namespace)
    return out.getvalue()


@pytest.mark.parametrize("path", LESSONS, ids=LESSON_IDS)
def test_try_it_has_an_empty_cell_then_a_folded_answer(path):
    lesson = cells(path)
    sections = [i for i, c in enumerate(lesson)
                if c.cell_type == "markdown" and c.source.startswith("## Try it")]
    if path.stem == "00_start_here":
        assert not sections
        return
    assert sections, f"{path.name} has no Try it"
    for i in sections:
        empty, folded = lesson[i + 1], lesson[i + 2]
        assert empty.cell_type == "code" and "try-it" in empty.metadata.get("tags", [])
        assert all(line.startswith("#") for line in empty.source.splitlines()), empty.source
        assert not empty.get("outputs"), "the learner's cell must not show an answer"
        assert folded.cell_type == "markdown" and folded.source.startswith("<details>")
        assert folded.source.rstrip().endswith("</details>")


@pytest.mark.parametrize("library", ["minigrad", "torch"])
@pytest.mark.parametrize("path", [p for p in LESSONS if p.stem != "00_start_here"],
                         ids=[s for s in LESSON_IDS if s != "00_start_here"])
def test_answers_run_and_print_what_they_say(path, library, monkeypatch):
    """With minigrad, and with PyTorch (import swapped, minigrad-only cells left
    out), where what is printed is compared until the first random draw."""
    if library == "torch":
        pytest.importorskip("torch")
    monkeypatch.chdir(NOTEBOOKS)
    namespace = {"__name__": "__main__", "display": lambda *args, **kwargs: None}
    checked, random_drawn = 0, False
    for i, cell in enumerate(cells(path)):
        if cell.cell_type == "code":
            if library == "torch":
                if "minigrad-only" in cell.metadata.get("tags", []):
                    continue
                random_drawn = random_drawn or bool(RANDOM.search(cell.source))
            run(cell.source.replace("import minigrad as torch", f"import {library} as torch"),
                namespace, f"{path.name} cell {i}")
        elif cell.source.startswith("<details>"):
            blocks = BLOCK.findall(cell.source)
            for (kind, source), following in zip(blocks, blocks[1:] + [("", "")]):
                if kind != "python":
                    continue
                printed = run(source, namespace, f"{path.name} answer {i}")
                if following[0] == "text" and not random_drawn:
                    assert printed == following[1], (path.name, source)
                    checked += 1
    matplotlib.pyplot.close("all")
    assert checked or library == "torch", f"{path.name}: no answer says what it prints"


@pytest.mark.parametrize("path", LESSONS, ids=LESSON_IDS)
def test_lesson_ends_with_read_next_and_links_that_exist(path):
    lesson = cells(path)
    last = lesson[-1].source
    if path.stem != "00_start_here":
        assert last.startswith("## Read next") and "https://" in last, path.name
    links = re.findall(r"\]\(([^)\s]+\.ipynb)\)", last)
    assert links, f"{path.name}: no previous/next link"
    for link in links:
        assert (NOTEBOOKS / link).exists(), f"{path.name} links to a missing {link}"
    index = LESSON_IDS.index(path.stem)
    if index + 1 < len(LESSONS):
        assert f"{LESSON_IDS[index + 1]}.ipynb" in last, f"{path.name}: no link to the next lesson"
    if index > 0:
        assert f"{LESSON_IDS[index - 1]}.ipynb" in last, f"{path.name}: no link back"
