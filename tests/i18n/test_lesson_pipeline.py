"""The lesson pipeline: messages out of a notebook, translations back in, and a changed
English paragraph coming back to the translator as fuzzy (tools/translate_notebooks.py)."""

import json
from pathlib import Path

import nbformat
import pytest
from babel.messages.pofile import read_po, write_po

from kit_i18n.notebooks import code_without_comments, comments, markdown_blocks, messages, \
    translate
from translation_tool import load_tool

ROOT = Path(__file__).resolve().parents[2]

MARKDOWN = """# Lesson 1 · Title

A paragraph with `code` and $x^2$,
on two lines.

$$o = \\frac{1}{4}\\sum_i z_i$$

```python
answer = 2 * x  # the answer
# a comment block
# of two lines
print(answer)
```

---

<details><summary>Answer</summary>"""

CODE = """import minigrad as torch
# make x
x = torch.ones(2)  # a leaf
s = "# not a comment"
    # indented alone
y = x * 2  # 2 each
# ---
"""


def lesson():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(MARKDOWN), nbformat.v4.new_code_cell(CODE)]
    return nb


def test_the_blocks_of_a_markdown_cell():
    kinds = [kind for kind, _ in markdown_blocks(MARKDOWN) if kind != "gap"]
    assert kinds == ["prose", "prose", "keep", "code", "keep", "prose"]
    assert "\n".join(text for _, text in markdown_blocks(MARKDOWN)) == MARKDOWN


def test_comments_of_code():
    found = [(c["text"], c["inline"]) for c in comments(CODE)]
    assert found == [("make x", False), ("a leaf", True), ("indented alone", False),
                     ("2 each", True)]  # not the string, not "# ---"
    block = comments("# a comment block\n# of two lines\nx = 1")
    assert [c["text"] for c in block] == ["a comment block\nof two lines"]


def test_messages_are_prose_and_comments_in_order():
    assert [text for text, cell in messages(lesson())] == [
        "# Lesson 1 · Title", "A paragraph with `code` and $x^2$,\non two lines.",
        "the answer", "a comment block\nof two lines", "<details><summary>Answer</summary>",
        "make x", "a leaf", "indented alone", "2 each"]
    assert {cell for _, cell in messages(lesson())} == {1, 2}


def test_translate_changes_prose_and_comments_never_code():
    shout = translate(lesson(), lambda text: text.upper().replace("\n", "\n+ "))
    markdown, code = shout["cells"][0]["source"], shout["cells"][1]["source"]
    assert "A PARAGRAPH WITH `CODE` AND $X^2$,\n+ ON TWO LINES." in markdown
    assert "$$o = \\frac{1}{4}\\sum_i z_i$$" in markdown  # display math kept
    assert "answer = 2 * x  # THE ANSWER\n# A COMMENT BLOCK\n# + OF TWO LINES\n" in markdown
    assert "x = torch.ones(2)  # A LEAF" in code and 's = "# not a comment"' in code
    assert "    # INDENTED ALONE" in code and "# ---" in code
    assert code_without_comments(code) == code_without_comments(CODE)
    assert code_without_comments(CODE) == ('import minigrad as torch\nx = torch.ones(2)\n'
                                           's = "# not a comment"\ny = x * 2')  # no "# ---"
    # a translation with more lines than the English comment still leaves the code alone
    longer = translate(lesson(), lambda text: text + "\nmore")["cells"][1]["source"]
    assert code_without_comments(longer) == code_without_comments(CODE)


@pytest.fixture
def pipeline(tmp_path, monkeypatch):
    """tools/translate_notebooks.py working in a scratch copy of notebooks/."""
    tool = load_tool()
    monkeypatch.setattr(tool, "NOTEBOOKS", tmp_path)
    monkeypatch.setattr(tool, "LOCALE", tmp_path / "locale")
    monkeypatch.setattr(tool, "PACKAGES", {})
    nbformat.write(lesson(), tmp_path / "01_lesson.ipynb")
    return tool


def po(path: Path, lang: str):
    with path.open("rb") as file:
        return read_po(file, locale=lang)


def translate_all(path: Path, lang: str, prefix: str) -> None:
    catalog = po(path, lang)
    for message in catalog:
        if message.id:
            message.string = prefix + message.id
    with path.open("wb") as file:
        write_po(file, catalog)


def test_a_changed_paragraph_becomes_fuzzy_and_stays_english(pipeline, tmp_path):
    pipeline.main(["extract"])
    catalog = tmp_path / "locale" / "zh" / "LC_MESSAGES" / "01_lesson.po"
    assert (tmp_path / "locale" / "templates" / "01_lesson.pot").is_file()
    assert [m.id for m in po(catalog, "zh_CN") if m.id][:2] == [
        "# Lesson 1 · Title", "A paragraph with `code` and $x^2$,\non two lines."]
    assert all(not m.string for m in po(catalog, "zh_CN") if m.id)  # waiting for a translator
    translate_all(catalog, "zh_CN", "译 ")
    pipeline.main(["build"])
    built = nbformat.read(tmp_path / "zh" / "01_lesson.ipynb", as_version=4)
    assert built.cells[0].source.startswith("译 # Lesson 1 · Title\n\n译 A paragraph")
    assert "x = torch.ones(2)  # 译 a leaf" in built.cells[1].source
    assert built.metadata["lang"] == "zh-CN"
    assert built.metadata["minigrad_translation"]["source"] == "../01_lesson.ipynb"
    assert "[01_lesson.ipynb](../01_lesson.ipynb)" in built.cells[0].source  # names its source
    assert built.cells[1].outputs == []

    # The English paragraph changes: its old translation comes back fuzzy, the rest stays
    english = lesson()
    english.cells[0].source = english.cells[0].source.replace("on two lines", "on 2 lines")
    nbformat.write(english, tmp_path / "01_lesson.ipynb")
    pipeline.main([])
    entries = {m.id: m for m in po(catalog, "zh_CN") if m.id}
    changed = entries["A paragraph with `code` and $x^2$,\non 2 lines."]
    assert changed.fuzzy and changed.string == "译 A paragraph with `code` and $x^2$,\non two lines."
    # the English it was translated from is beside it, for the translator
    previous = [line for line in catalog.read_text().splitlines() if line.startswith("#| msgid")]
    assert len(previous) == 1 and '"on two lines."' in previous[0]
    assert not entries["# Lesson 1 · Title"].fuzzy
    rebuilt = nbformat.read(tmp_path / "zh" / "01_lesson.ipynb", as_version=4)
    assert "\nA paragraph with `code` and $x^2$,\non 2 lines." in rebuilt.cells[0].source
    assert rebuilt.cells[0].source.startswith("译 # Lesson 1")


def test_an_unchanged_lesson_is_left_alone(pipeline, tmp_path):
    pipeline.main([])
    target = tmp_path / "ko" / "01_lesson.ipynb"
    stored = json.loads(target.read_text())
    stored["cells"][1]["outputs"] = [{"output_type": "stream", "name": "stdout",
                                      "text": "stored\n"}]
    target.write_text(json.dumps(stored))
    assert pipeline.build() == []  # nothing changed: its stored outputs stay
    assert json.loads(target.read_text())["cells"][1]["outputs"][0]["text"] == "stored\n"


def test_links_from_a_translated_lesson(pipeline):
    lessons = {"02_next.ipynb"}
    text = ("[next](02_next.ipynb) ![graph](img/graph.svg) [README](../README.md) "
            "[web](https://pytorch.org) [here](#top) [中文](zh/00_start_here.ipynb) "
            "[A1](assignments/01_a.ipynb)")
    assert pipeline.relink(text, lessons) == (
        "[next](02_next.ipynb) ![graph](../img/graph.svg) [README](../README.md) "
        "[web](https://pytorch.org) [here](#top) [中文](../zh/00_start_here.ipynb) "
        "[A1](assignments/01_a.ipynb)")  # a copied course has <lang>/assignments/
