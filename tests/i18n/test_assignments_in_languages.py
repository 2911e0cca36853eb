"""Assignments in three languages: `release --lang zh` writes Chinese student versions, one
grader grades submissions in any language (same points), and check() and the feedback
speak the submission's language.

The catalogs here are small stand-ins written by the test (every notebook message
becomes "中文：<English>", a few hints get Korean or Chinese), so these tests prove the
mechanism whatever the state of the kit's own translations."""

import sys
from pathlib import Path

import nbformat
import pytest
from babel.messages.pofile import read_po, write_po

from grader import i18n as grader_i18n
from grader import student
from grader.cli import main as cli
from grader.grade import Options, grade_notebook
from grader.kit import copy_assignments
from grader.report import feedback_markdown
from grader.source import load_source
from kit_i18n import set_language
from kit_i18n.notebooks import code_without_comments

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "assignments"))
from samples import FULL, RIGHT, WRONG, Sample, build  # noqa: E402

NAME = "01_derive_it_by_hand"
MARK = "中文："


@pytest.fixture(autouse=True)
def english_first(monkeypatch):
    set_language(None)
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "JPY_SESSION_NAME"):
        monkeypatch.delenv(variable, raising=False)
    yield
    set_language(None)


def fill(path: Path, lang: str, translate) -> None:
    """Give every message of the catalog at ``path`` the translation ``translate(id)``."""
    with path.open("rb") as file:
        catalog = read_po(file, locale=lang)
    for message in catalog:
        if message.id and not isinstance(message.id, tuple):
            message.string = translate(message.id)
    with path.open("wb") as file:
        write_po(file, catalog)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The kit's assignments in a course folder, with a stand-in Chinese catalog for
    assignment 2's notebook, released in English and in Chinese (no verification runs:
    tests/assignments prove the release of the English one)."""
    folder = tmp_path_factory.mktemp("course")
    copy_assignments(folder)
    catalog = folder / "locale" / "zh" / "LC_MESSAGES" / f"{NAME}.po"
    assert catalog.is_file()  # copied with the assignments
    fill(catalog, "zh_CN", lambda text: MARK + text)
    for lang in ("en", "zh"):
        assert cli(["release", str(folder / f"{NAME}.ipynb"), "--out", str(folder / lang),
                    "--no-verify", "--lang", lang]) == 0
    return folder


def released(course, lang):
    return nbformat.read(course / lang / f"{NAME}.ipynb", as_version=4)


def test_release_lang_zh_writes_chinese_student_versions(course):
    english, chinese = released(course, "en"), released(course, "zh")
    assert chinese.metadata["lang"] == "zh-CN" and "lang" not in english.metadata
    markdown = [c.source for c in chinese.cells if c.cell_type == "markdown"]
    assert markdown and all(source.startswith(MARK) for source in markdown if source.strip())
    # the same cells, the same code and nbgrader metadata; only prose and comments differ
    assert len(chinese.cells) == len(english.cells)
    for a, b in zip(english.cells, chinese.cells):
        assert a.metadata.get("nbgrader", {}).get("grade_id") == \
            b.metadata.get("nbgrader", {}).get("grade_id")
        if a.cell_type == "code":
            assert code_without_comments(a.source) == code_without_comments(b.source)
    comments = [line for c in chinese.cells if c.cell_type == "code"
                for line in c.source.splitlines() if line.lstrip().startswith("# ")]
    assert any(MARK in line for line in comments)
    assert "# YOUR CODE HERE" in "\n".join(c.source for c in chinese.cells)  # markers kept
    assert (course / "zh" / "derive_it_by_hand.py").is_file()  # check() needs it


def test_release_lang_without_a_catalog_says_where_it_looked(course, tmp_path, capsys):
    lonely = tmp_path / f"{NAME}.ipynb"
    lonely.write_text((course / f"{NAME}.ipynb").read_text())
    (tmp_path / "derive_it_by_hand.py").write_text((course / "derive_it_by_hand.py").read_text())
    assert cli(["release", str(lonely), "--out", str(tmp_path / "out"), "--no-verify",
                "--lang", "ko"]) == 1
    error = capsys.readouterr().err
    assert "no ko catalog" in error and "locale/ko/LC_MESSAGES/01_derive_it_by_hand.po" in error


GRADER_ZH = {"{name} is right": "{name} 正确", "Question": "题目", "Points": "得分",
             "public": "公开", "hidden": "隐藏",
             "{name} is wrong at {wrong} of {count} values; {at}: yours is {yours}, "
             "{reference} {expected}": "{name} 有 {wrong}/{count} 个值错误；{at}：你的是 "
             "{yours}，{reference} {expected}"}
GRADER_KO = {"{name} is wrong at {wrong} of {count} values; {at}: yours is {yours}, "
             "{reference} {expected}": "{name}: 값 {count}개 중 {wrong}개가 틀렸습니다; {at}: "
             "내 값 {yours}, {reference} {expected}", "autograd gives": "autograd 값"}


@pytest.fixture
def grader_catalogs(tmp_path, monkeypatch):
    """The grader's domain reading stand-in zh and ko catalogs."""
    for lang, locale, entries in (("zh", "zh_CN", GRADER_ZH), ("ko", "ko_KR", GRADER_KO)):
        folder = tmp_path / "locale" / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        real = grader_i18n.DOMAIN.path(lang)
        (folder / "grader.po").write_bytes(real.read_bytes())
        fill(folder / "grader.po", locale, lambda text: entries.get(text, ""))
    monkeypatch.setattr(grader_i18n.DOMAIN, "folder", tmp_path / "locale")
    monkeypatch.setattr(grader_i18n.DOMAIN, "_loaded", {})


@pytest.mark.slow
def test_one_grader_for_submissions_in_any_language(course, grader_catalogs):
    """A right answer gets full points in English and in Chinese, a wrong one none, the
    Chinese locked cells are not 'edited', and the feedback is in the submission's
    language."""
    source = load_source(course / f"{NAME}.ipynb")
    options = Options(timeout=60, variants="none")
    results = {}
    for lang in ("en", "zh"):
        for kind, answers in (("right", RIGHT), ("wrong", WRONG)):
            submission = build(released(course, lang), Sample(answers=answers))
            results[lang, kind] = grade_notebook(source, submission, "ada", f"{kind}.ipynb",
                                                 options)
    for lang in ("en", "zh"):
        right, wrong = results[lang, "right"], results[lang, "wrong"]
        assert {q.name: q.points for q in right.questions} == FULL, right.error
        assert all(q.points == 0 for q in wrong.questions)
        assert right.flags == [] and wrong.flags == []  # translated locked cells are theirs
        assert right.lang == lang
    english, chinese = (feedback_markdown(results[lang, "wrong"]) for lang in ("en", "zh"))
    assert "| Question | Points |" in english and "is wrong at" in english
    assert "| 题目 | 得分 |" in chinese and "个值错误" in chinese and "is wrong at" not in chinese
    # the same numbers in both
    numbers = [line.split("：")[-1] for line in chinese.splitlines() if "个值错误" in line]
    assert numbers and all(n.split("，")[0].strip().replace("你的是", "").strip()
                           in english for n in numbers)


def test_check_in_a_korean_assignment_answers_in_korean(course, grader_catalogs, monkeypatch,
                                                       tmp_path):
    """check() in a notebook whose metadata says ko: the kernel reads it (JupyterLab tells
    the kernel its notebook, JPY_SESSION_NAME) and the hints come in Korean."""
    folder = tmp_path / "ko"
    folder.mkdir()
    notebook = released(course, "en")
    notebook.metadata["lang"] = "ko"
    nbformat.write(notebook, folder / f"{NAME}.ipynb")
    (folder / "derive_it_by_hand.py").write_text((course / "derive_it_by_hand.py").read_text())
    monkeypatch.chdir(folder)
    monkeypatch.setenv("JPY_SESSION_NAME", f"ko/{NAME}.ipynb")
    student.start("derive_it_by_hand")
    namespace = {"f": lambda x: x ** 3 - 2 * x, "df": "3*x**2"}  # (the notebook's f)
    with pytest.raises(AssertionError) as raised:
        student.check("q1", namespace=namespace)
    assert "값" in str(raised.value) and "autograd 값" in str(raised.value)
    assert "is wrong" not in str(raised.value)
    monkeypatch.delenv("JPY_SESSION_NAME")
    with pytest.raises(AssertionError) as english:
        student.check("q1", namespace=namespace)
    assert "is wrong at" in str(english.value)
