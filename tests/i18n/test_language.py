"""Which language the kit speaks (set_language, the notebook's metadata, the locale,
English) and how a sentence is looked up in a catalog."""

import json

import minigrad as torch
import pytest

import kit_i18n
import widgets
from kit_i18n import Domain, language, set_language, speaking
from widgets import i18n as widget_i18n

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def automatic(monkeypatch):
    """Each test starts with no language chosen, no notebook and an English-less locale."""
    set_language(None)
    for variable in LOCALE_VARIABLES + ("JPY_SESSION_NAME",):
        monkeypatch.delenv(variable, raising=False)
    yield
    set_language(None)


def notebook(folder, name: str, lang) -> None:
    metadata = {"kernelspec": {"name": "python3", "language": "python"}}
    if lang is not None:
        metadata["lang"] = lang
    (folder / name).write_text(json.dumps({"cells": [], "metadata": metadata, "nbformat": 4,
                                           "nbformat_minor": 5}), encoding="utf-8")


@pytest.mark.parametrize("tag, lang", [("zh", "zh"), ("zh-CN", "zh"), ("zh_CN.UTF-8", "zh"),
                                       ("zh-Hans", "zh"), ("ko", "ko"), ("ko_KR", "ko"),
                                       ("en_GB", "en"), ("EN", "en")])
def test_set_language_takes_codes_and_locales(tag, lang):
    set_language(tag)
    assert language() == lang


@pytest.mark.parametrize("tag", ["fr", "", "klingon", 3])
def test_set_language_refuses_a_language_the_kit_does_not_speak(tag):
    set_language("ko")
    with pytest.raises(ValueError, match="the kit speaks 'en', 'zh', 'ko'"):
        set_language(tag)
    assert language() == "ko"  # unchanged


def test_english_when_nothing_says_otherwise():
    assert language() == "en"


@pytest.mark.parametrize("variable", LOCALE_VARIABLES)
def test_the_locale(monkeypatch, variable):
    monkeypatch.setenv(variable, "ko_KR.UTF-8")
    assert language() == "ko"


def test_the_locale_in_gettexts_order(monkeypatch):
    monkeypatch.setenv("LANG", "ko_KR.UTF-8")
    monkeypatch.setenv("LANGUAGE", "zh_CN:ko")
    assert language() == "zh"
    monkeypatch.setenv("LANGUAGE", "fr_FR")  # a language the kit lacks: English
    assert language() == "en"
    monkeypatch.setenv("LANGUAGE", "C.UTF-8")
    assert language() == "en"


def test_the_notebooks_metadata_as_jupyterlab_names_the_notebook(monkeypatch, tmp_path):
    # JupyterLab: JPY_SESSION_NAME is the path from the server's root; the kernel runs
    # in the notebook's folder
    (tmp_path / "course" / "zh").mkdir(parents=True)
    notebook(tmp_path / "course" / "zh", "03_gradients.ipynb", "zh-CN")
    monkeypatch.chdir(tmp_path / "course" / "zh")
    monkeypatch.setenv("JPY_SESSION_NAME", "course/zh/03_gradients.ipynb")
    monkeypatch.setenv("LANG", "ko_KR.UTF-8")
    assert language() == "zh"  # the notebook before the locale
    set_language("en")
    assert language() == "en"  # set_language before the notebook


def test_a_notebook_without_lang_leaves_it_to_the_locale(monkeypatch, tmp_path):
    notebook(tmp_path, "lesson.ipynb", None)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "lesson.ipynb"))
    monkeypatch.setenv("LC_ALL", "ko_KR.UTF-8")
    assert language() == "ko"


def test_speaking_is_for_a_while():
    set_language("zh")
    with speaking("ko"):
        assert language() == "ko"
    assert language() == "zh"
    with speaking(None):
        assert language() == "zh"


def test_widgets_and_grader_share_the_choice():
    import grader

    widgets.set_language("ko")
    assert grader.language() == widgets.language() == kit_i18n.language() == "ko"


PO = """\
msgid ""
msgstr ""
"Language: ko_KR\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "Step {number} of {total}: {who} got {gradient}; {clauses}."
msgstr "{total}단계 중 {number}단계: {who}이(가) {gradient}을(를) 받았습니다; {clauses}."

#, fuzzy
msgid "{term}, so it sends {gradient} to {node}"
msgstr "{term}, 따라서 {node}에 {gradient}을(를) 보냅니다"

msgid "it sends {gradient} to {node}"
msgstr ""

msgid "{count} operation"
msgid_plural "{count} operations"
msgstr[0] ""

msgid "{count} leaf"
msgid_plural "{count} leaves"
msgstr[0] "{count}个叶子"

msgid "mean of all n elements of x"
msgstr "x의 n개 원소 전체의 평균"
"""


@pytest.fixture
def korean_widgets(tmp_path, monkeypatch):
    """The widgets' domain reading a small Korean catalog instead of the kit's."""
    folder = tmp_path / "locale"
    (folder / "ko" / "LC_MESSAGES").mkdir(parents=True)
    (folder / "ko" / "LC_MESSAGES" / "widgets.po").write_text(PO, encoding="utf-8")
    domain = Domain("widgets", folder)
    monkeypatch.setattr(widget_i18n.DOMAIN, "folder", folder)
    monkeypatch.setattr(widget_i18n.DOMAIN, "_loaded", {})
    return domain


def test_a_catalog_translates_finished_entries_only(korean_widgets):
    set_language("ko")
    assert korean_widgets.gettext("it sends {gradient} to {node}") == \
        "it sends {gradient} to {node}"  # untranslated: English
    assert korean_widgets.gettext("{term}, so it sends {gradient} to {node}") == \
        "{term}, so it sends {gradient} to {node}"  # fuzzy: not used
    assert korean_widgets.gettext(
        "Step {number} of {total}: {who} got {gradient}; {clauses}.").startswith("{total}단계")


def test_formula_words_come_from_the_catalog_and_symbols_stay(korean_widgets, tutorial_graph):
    english = widgets.draw_graph(tutorial_graph).text
    # the table's symbols said in PyTorch's words (result, self), the same in every language
    assert "MeanBackward0: result = mean of all n elements of self." in english
    set_language("ko")
    korean = widgets.draw_graph(tutorial_graph).text
    assert "MeanBackward0: result = self의 n개 원소 전체의 평균." in korean
    assert ("MulBackward0: result = self * other. d(result)/d(self) = other,  "
            "d(result)/d(other) = self") in korean


def test_plurals_untranslated_stay_english(korean_widgets):
    set_language("ko")
    assert korean_widgets.ngettext("{count} operation", "{count} operations", 1) == \
        "{count} operation"
    assert korean_widgets.ngettext("{count} operation", "{count} operations", 4) == \
        "{count} operations"
    assert korean_widgets.ngettext("{count} leaf", "{count} leaves", 4) == "{count}个叶子"


def test_the_stepper_speaks_through_the_catalog(korean_widgets, tutorial_graph):
    english = widgets.BackwardStepper(tutorial_graph)
    set_language("ko")
    korean = widgets.BackwardStepper(tutorial_graph)
    # MeanBackward0 is step 1 of 5; the numbers and the formula are the same in both
    assert english.texts[1] == ("Step 1 of 5: MeanBackward0 got 1 from the start (the seed); "
                                "d(result)/d(self_i) = 1/n = 0.25, so it sends 0.25 each to MulBackward0.")
    assert korean.texts[1] == ("5단계 중 1단계: MeanBackward0이(가) 1 from the start (the seed)"
                               "을(를) 받았습니다; d(result)/d(self_i) = 1/n = 0.25, so it sends 0.25 each "
                               "to MulBackward0.")  # (the fuzzy entry is not used)
    set_language("en")
    assert widgets.BackwardStepper(tutorial_graph).texts == english.texts


@pytest.fixture
def tutorial_graph():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    return (y * y * 3).mean()
