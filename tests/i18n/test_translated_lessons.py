"""The Chinese and Korean lessons against the English ones (drift), and the catalogs
against the code and the lessons they were extracted from."""

import json
import re
from pathlib import Path

import nbformat
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from kit_i18n.notebooks import code_without_comments, messages
from translation_tool import load_tool

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ENGLISH = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
LANGS = {"zh": "zh-CN", "ko": "ko"}
PAIRS = [(path, lang) for lang in LANGS for path in ENGLISH]
FIX = "run `make translations` (then `make notebooks`)"


def ids(path: Path) -> set:
    with path.open("rb") as file:
        return {message.id for message in read_po(file) if message.id}


@pytest.fixture(scope="module")
def tool():
    return load_tool()


def test_every_lesson_is_in_every_language():
    assert len(ENGLISH) >= 10
    for lang in LANGS:
        assert sorted(p.name for p in (NOTEBOOKS / lang).glob("*.ipynb")) == \
            [p.name for p in ENGLISH], f"notebooks/{lang}/ lacks lessons: {FIX}"
        catalogs = sorted(p.stem for p in (NOTEBOOKS / "locale" / lang / "LC_MESSAGES").glob("*"))
        assert catalogs == sorted([p.stem for p in ENGLISH] + ["common"])
    templates = sorted(p.stem for p in (NOTEBOOKS / "locale" / "templates").glob("*"))
    assert templates == sorted([p.stem for p in ENGLISH] + ["common"])


@pytest.mark.parametrize("english, lang", PAIRS, ids=[f"{lang}/{p.stem}" for p, lang in PAIRS])
def test_code_cells_are_the_english_ones(english, lang):
    """Drift: the same cells, and the same code in every code cell (comments aside)."""
    source = nbformat.read(english, as_version=4)
    translated = nbformat.read(NOTEBOOKS / lang / english.name, as_version=4)
    assert [c.cell_type for c in translated.cells] == [c.cell_type for c in source.cells], FIX
    for n, (a, b) in enumerate(zip(source.cells, translated.cells), 1):
        if a.cell_type == "code":
            assert code_without_comments(b.source) == code_without_comments(a.source), \
                f"{lang}/{english.name} cell {n} differs from the English lesson's code: {FIX}"
            assert b.metadata.get("tags") == a.metadata.get("tags")
    assert translated.metadata["lang"] == LANGS[lang]
    assert translated.metadata["minigrad_translation"]["source"] == f"../{english.name}"
    assert f"](../{english.name})" in translated.cells[0].source  # names its English source


@pytest.mark.parametrize("english, lang", PAIRS, ids=[f"{lang}/{p.stem}" for p, lang in PAIRS])
def test_translated_lessons_are_made_from_the_catalogs(english, lang, tool):
    """What the pipeline makes now from the English lesson and the catalog is what is
    stored (so an edit of either has been carried over)."""
    stored = nbformat.read(NOTEBOOKS / lang / english.name, as_version=4)
    assert tool.same_text(stored, tool.translated(english, lang)), \
        f"{lang}/{english.name} is not what its English lesson and catalog make: {FIX}"


@pytest.mark.parametrize("english", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_lesson_catalogs_hold_every_message(english):
    expected = {text for text, _ in messages(nbformat.read(english, as_version=4))}
    assert ids(NOTEBOOKS / "locale" / "templates" / f"{english.stem}.pot") == expected, FIX
    for lang in LANGS:
        assert ids(NOTEBOOKS / "locale" / lang / "LC_MESSAGES" / f"{english.stem}.po") == \
            expected, FIX


@pytest.mark.parametrize("domain, folder", [("widgets", "widgets"), ("grader", "grader"),
                                            ("assignments", "notebooks/assignments")])
def test_code_catalogs_hold_every_sentence_in_the_code(domain, folder, tool):
    """Every ``_()`` in the package is in its template and in each language's catalog
    (and, for the widgets, the words of minigrad's formula table)."""
    found = {message for _, _, message, _, _ in extract_from_dir(
        ROOT / folder, method_map=[("**.py", "python")])}
    if domain == "widgets":
        assert len(tool.formula_words()) > 50
        found |= set(tool.formula_words())
    locale = ROOT / folder / "locale"
    assert ids(locale / f"{domain}.pot") == found, FIX
    for lang in LANGS:
        assert ids(locale / lang / "LC_MESSAGES" / f"{domain}.po") == found, FIX


def test_links_of_translated_lessons_resolve_in_a_copied_course(tmp_path):
    """``minigrad-kit lessons`` copies zh/ and ko/ too; their links (to the sibling
    lessons, ../assignments/ and ../img/) all lead somewhere in the copy."""
    from grader.kit import copy_lessons

    copy_lessons(tmp_path)
    link = re.compile(r"\]\(([^)\s#]+)[^)\s]*\)")
    checked = assigned = 0
    for lang in LANGS:
        lessons = sorted((tmp_path / lang).glob("*.ipynb"))
        assert [p.name for p in lessons] == [p.name for p in ENGLISH]
        for lesson in lessons:
            for cell in nbformat.read(lesson, as_version=4).cells:
                for target in link.findall(cell.source) if cell.cell_type == "markdown" else ():
                    if "://" not in target:
                        assert (lesson.parent / target).exists(), f"{lesson} links {target}"
                        checked += 1
                    if target.startswith("assignments/"):  # the student version, in lang
                        linked = nbformat.read(lesson.parent / target, as_version=4)
                        assert linked.metadata["lang"] == LANGS[lang]
                        assert "BEGIN SOLUTION" not in json.dumps(linked)
                        assigned += 1
    assert checked > 40 and assigned == 2 * 6  # lesson 0 links all five, lesson 10 the fifth
