"""Moodle's grading worksheet downloaded from a Moodle in another language, through the real
``minigrad-kit grade`` and ``export --to moodle``.

Moodle writes the worksheet's headers with ``get_string`` in the language of the teacher
who downloads it (mod/assign/gradingtable.php: ``recordid``, ``fullname``, ``email``,
``status``, core ``grade``, ``maxgrade``, ``gradecanbechanged``, ``lastmodifiedsubmission``,
``lastmodifiedgrade``, then the feedback plugins' fields), and each participant as
``get_string('hiddenuser') . id`` ("Teilnehmer/in7": no space in German). Its upload
(mod/assign/feedback/offline/importgradeslib.php) finds the Identifier, Grade and Last
modified (grade) columns by those strings in the language of whoever uploads, and reads
the id after the length of ``hiddenuser``. The headers below are Moodle's language packs'
(AMOS: de, fr, es, zh_cn, ko; a string a pack lacks is written in English). A language
the kit does not know is refused, saying what could not be matched, and nothing is
written."""

import csv
import io
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, right
from moodle_reading import Assignment

from grader.cli import main

pytestmark = pytest.mark.slow

D = "derive_it_by_hand"
MODIFIED = "2026-11-30 09:15"
# language: (header as Moodle writes it, its "hiddenuser", its "Yes"); the header's columns:
# Identifier, Full name, Email address, Status, Grade, Maximum grade, Grade can be changed,
# Last modified (submission), Last modified (grade), Feedback comments
LANGUAGES = {
    "German": (["ID", "Vollständiger Name", "E-Mail-Adresse", "Status", "Bewertung",
                "Bestwertung", "Bewertung kann geändert werden", "Zuletzt geändert (Abgabe)",
                "Zuletzt geändert (Bewertung)", "Feedback als Kommentar"],
               "Teilnehmer/in", "Ja"),
    "French": (["Identifiant", "Nom complet", "Adresse de courriel", "Statut", "Note",
                "Note maximale", "La note peut être modifiée",
                "Dernière modification (travail remis)", "Dernière modification (note)",
                "Feedback par commentaires"], "Participant", "Oui"),
    "Spanish": (["Identificador", "Nombre completo", "Dirección de correo", "Estado",
                 "Calificación", "Calificación máxima", "La calificación puede cambiarse",
                 "Última modificación (entrega)", "Última modificación (calificación)",
                 "Comentarios de retroalimentación"], "Participante", "Sí"),
    "Chinese": (["识别码", "全名", "Email地址", "状态", "成绩", "最高成绩", "允许更改成绩",
                 "最后修改（学生）", "最后修改（教师）", "反馈评语"], "参与者", "是"),
    # (its language pack lacks gradecanbechanged: Moodle writes it in English)
    "Korean": (["식별자", "전체 이름", "이메일 주소", "상태", "성적", "최대 성적",
                "Grade can be changed", "마지막 수정됨(제출)", "마지막 수정됨(성적)",
                "피드백 댓글"], "참가자", "예"),
}
GRADE = 4


def _put(folder: Path, name: str, notebook) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / name)


def _write(path: Path, rows: list) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def _export(out: Path, roster: Path) -> int:
    return main(["export", str(out), "--to", "moodle", "--roster", str(roster)])


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Moodle's download: Alice A (participant 7) right, Bob B (8) wrong, graded."""
    base = tmp_path_factory.mktemp("moodle_languages")
    given = base / "dl"
    _put(given / "Alice A_7_assignsubmission_file_", "hw.ipynb",
         build(D, None, right(D, None)))
    _put(given / "Bob B_8_assignsubmission_file_", "hw.ipynb", build(D, None, WRONG[D]))
    out = base / "grades"
    assert main(["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt",
                 "kept", "--jobs", "1", "--variants", "none"]) == 0
    return out


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_worksheet_in_moodles_language_is_filled(graded, tmp_path, capsys, language):
    """Moodle in that language (its decimal sign), the assignment out of 100 with two
    decimals: Alice's 100 and Bob's 0 (scaled to the maximum) in the Grade column of the
    worksheet as downloaded, every other cell unchanged but Cy's Grade, left empty; after
    the upload (Moodle's, ported: ``moodle_reading.Assignment``) Moodle has Alice's 100,
    Bob's 0 and Cy's 55.55556 as it was (written back as downloaded, "55.56" or "55,56",
    the upload stored 55.56); the headers as Moodle wrote them, and the teacher told to
    upload in that language."""
    header, hidden, yes = LANGUAGES[language]
    sign = "," if language in ("German", "French", "Spanish") else "."
    moodle = Assignment(maximum=100, decimals=2, decsep=sign, grades={9: 55.55556})
    rows = moodle.worksheet([7, 8, 9], header, hidden, yes, "-", MODIFIED)
    assert rows[3][GRADE] == f"55{sign}56"
    _write(tmp_path / "worksheet.csv", rows)
    capsys.readouterr()
    assert _export(graded, tmp_path / "worksheet.csv") == 0
    said = capsys.readouterr().out
    after = list(csv.reader(io.StringIO((graded / "moodle.csv").read_text(encoding="utf-8"))))
    assert after[0] == header
    for old, new in zip(rows[1:], after[1:]):
        assert old[:GRADE] + old[GRADE + 1:] == new[:GRADE] + new[GRADE + 1:]
    # (the grades written are read as written in any language: test_moodle_reads_grades)
    assert [row[GRADE] for row in after[1:]] == ["100", "0", ""]
    moodle.upload(after, hidden)
    assert moodle.grades == {7: 100.0, 8: 0.0, 9: 55.55556}
    assert f"column {header[GRADE]!r}" in said
    assert f"headers are in {language}" in said


def test_a_locked_grade_in_german_is_said(graded, tmp_path, capsys):
    """"Bewertung kann geändert werden: Nein" (locked in Moodle's gradebook): said."""
    header, hidden, _yes = LANGUAGES["German"]
    _write(tmp_path / "worksheet.csv", [header] + [
        [f"{hidden}{number}", name, "x@uni.edu", "submitted", "", "100,00", can, MODIFIED, "-",
         ""] for number, name, can in ((7, "Alice A", "Nein"), (8, "Bob B", "Ja"))])
    assert _export(graded, tmp_path / "worksheet.csv") == 0
    said = capsys.readouterr().out
    assert "locked grades of Teilnehmer/in7 (" in said and "Teilnehmer/in8" not in said


def test_a_worksheet_in_a_language_the_kit_does_not_know(graded, tmp_path, capsys):
    """A worksheet whose headers are in Japanese (not among the kit's languages): refused,
    saying it is a worksheet whose columns could not be found and what to do; nothing
    written."""
    (graded / "moodle.csv").unlink(missing_ok=True)
    _write(tmp_path / "worksheet.csv", [
        ["識別子", "氏名", "メールアドレス", "ステータス", "評点", "最大評点", "評点は変更可能です",
         "最終更新日時 (提出)", "最終更新日時 (評定)", "フィードバックコメント"],
        ["参加者7", "Alice A", "a@uni.edu", "-", "", "100.00", "はい", MODIFIED, "-", ""]])
    capsys.readouterr()
    assert _export(graded, tmp_path / "worksheet.csv") == 1
    said = capsys.readouterr().err
    assert "looks like a Moodle grading worksheet" in said
    assert "'参加者7'" in said and "could not be found" in said
    assert "German" in said and "upload it in the same language" in said
    assert not (graded / "moodle.csv").exists()
