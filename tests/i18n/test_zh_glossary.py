"""The Chinese catalogs use one word per idea: notebooks/locale/zh/GLOSSARY.md's table
names, for each term, the words not to use, and no Chinese message may use them; and no
Chinese paragraph of a lesson or an assignment breaks a line between Chinese characters
(Markdown renders the break as a stray space)."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "notebooks" / "locale" / "zh" / "GLOSSARY.md"
MARKDOWN = sorted((ROOT / "notebooks").glob("**/locale/zh/LC_MESSAGES/*.po"))
CATALOGS = MARKDOWN + [ROOT / "widgets" / "locale" / "zh" / "LC_MESSAGES" / "widgets.po",
                       ROOT / "grader" / "locale" / "zh" / "LC_MESSAGES" / "grader.po"]
HAN = "\u4e00-\u9fff"


def avoided() -> dict:
    """{word to avoid: the term's Chinese}, from the glossary's table."""
    words = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[2] and not set(cells[2]) <= set("-"):
            if cells[2].startswith("not"):
                continue
            for word in cells[2].split(","):
                words[word.strip()] = cells[1]
    return words


def messages(path: Path):
    with path.open("rb") as file:
        for message in read_po(file):
            if message.id and message.string:
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                yield from strings


def test_the_glossary_has_words_to_avoid():
    words = avoided()
    assert {"就地", "逐步演示器", "向量-雅可比矩阵乘积"} <= set(words), words


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_a_catalog_uses_the_glossarys_words(path):
    words = avoided()
    found = [(word, words[word], text[:80]) for text in messages(path)
             for word in words if word in text]
    assert not found, found


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.name)
def test_no_line_break_between_chinese_characters(path):
    broken = [text[:80] for text in messages(path)
              if re.search(f"[{HAN}]\n[{HAN}]", text)]
    assert not broken, broken
