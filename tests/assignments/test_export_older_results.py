"""A grades folder written by an older minigrad-kit, before the grader recorded the platforms'
ids (its results have no ``platform`` and no ``heading``), exported by the real
``minigrad-kit export``.

The older folder is made as that grader wrote it: graded by today's ``minigrad-kit grade``,
then each result file rewritten without those two fields, and the manifest with the new
files' hashes (what the older grader's manifest held). Where that grader named a student
by the head the platform wrote in the file's name (Canvas's user id; Moodle's ``Full
Name_<id>`` head of a file), the export reads the id from that head again, and says so;
a student of Moodle's folders is matched by name, which matches no worksheet row: said,
naming each, with the re-grade; after it, the same export fills the worksheet."""

import csv
import io
import json
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, right

from grader.cli import main
from grader.manifest import MANIFEST, Manifest

pytestmark = pytest.mark.slow

D = "derive_it_by_hand"
SALT = "kept by the teacher"


def _put(folder: Path, name: str, notebook) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, folder / name)


def _grade(given: Path, out: Path) -> int:
    return main(["grade", str(given), "--out", str(out), "--sandbox", "required", "--salt",
                 SALT, "--jobs", "1", "--variants", "none"])


def _as_older_grader_wrote(out: Path) -> None:
    """Each result file without ``platform`` and ``heading``, the manifest rehashed."""
    listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["results"]
    manifest = Manifest()
    for relative, entry in listed.items():
        data = json.loads((out / relative).read_text(encoding="utf-8"))
        assert data.pop("platform") and data.pop("heading")
        text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        (out / relative).write_text(text, encoding="utf-8")
        manifest.add(relative, text, entry["assignment"], entry["student"])
    (out / MANIFEST).write_text(manifest.to_text(), encoding="utf-8")


def _write(path: Path, rows: list) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def test_canvas_ids_read_again_from_the_file_names(tmp_path, capsys):
    """Canvas's download graded by the older grader (students 7 and 8, by user id): with no
    roster, one row per user id, each with their own points; said, naming both."""
    given, out = tmp_path / "dl", tmp_path / "grades"
    _put(given, "alicea_7_70_hw.ipynb", build(D, None, right(D, None)))
    _put(given, "bobb_late_8_80_alicea_7_70_hw.ipynb", build(D, None, WRONG[D]))
    assert _grade(given, out) == 0
    _as_older_grader_wrote(out)
    capsys.readouterr()
    assert main(["export", str(out), "--to", "canvas"]) == 0
    said = capsys.readouterr().out
    rows = list(csv.reader(io.StringIO((out / "canvas.csv").read_text(encoding="utf-8"))))
    assert {row[1]: row[-1] for row in rows[2:]} == {"7": "9", "8": "0"}
    assert "graded by an older minigrad-kit" in said and "7, 8 matched by the id" in said
    assert "grade the submissions again into the same folder" in said


def test_moodle_folders_named_by_name_then_graded_again(tmp_path, capsys):
    """Moodle's folders graded by the older grader: Alice_A_7 and Bob_B_8 are matched by
    name, which no worksheet row has: each named, with the re-grade, exit status 1. Graded
    again into the same folder (same salt), the same export fills the worksheet."""
    given, out = tmp_path / "dl", tmp_path / "grades"
    _put(given / "Alice A_7_assignsubmission_file_", "hw.ipynb", build(D, None, right(D, None)))
    _put(given / "Bob B_8_assignsubmission_file_", "hw.ipynb", build(D, None, WRONG[D]))
    assert _grade(given, out) == 0
    _as_older_grader_wrote(out)
    sheet = tmp_path / "worksheet.csv"
    _write(sheet, [["Identifier", "Full name", "Status", "Grade", "Maximum Grade",
                    "Grade can be changed", "Last modified (grade)"],
                   ["Participant 7", "Alice A", "submitted", "", "100.00", "Yes", "-"],
                   ["Participant 8", "Bob B", "submitted", "", "100.00", "Yes", "-"]])
    capsys.readouterr()
    assert main(["export", str(out), "--to", "moodle", "--roster", str(sheet)]) == 1
    said = capsys.readouterr()
    assert "Alice_A_7, Bob_B_8 matched by the name the grader gave them" in said.out
    assert "grade the submissions again into the same folder" in said.out
    assert "Alice_A_7 (derive_it_by_hand) matches no roster row" in said.err
    assert _grade(given, out) == 0
    capsys.readouterr()
    assert main(["export", str(out), "--to", "moodle", "--roster", str(sheet)]) == 0
    assert "older minigrad-kit" not in capsys.readouterr().out
    rows = list(csv.DictReader(io.StringIO((out / "moodle.csv").read_text(encoding="utf-8"))))
    assert {row["Identifier"]: row["Grade"] for row in rows} == {
        "Participant 7": "100", "Participant 8": "0"}
