"""Every link between lessons leads somewhere, and lesson 0's links to the
assignments lead to STUDENT versions (no solutions), both in a copy made by
``minigrad-kit lessons`` and in the course that ``make lab`` opens."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from grader.kit import copy_lessons

REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+\.ipynb)\)")
SOLUTION = "BEGIN SOLUTION"


def links(lesson: Path) -> list[str]:
    cells = nbformat.read(lesson, as_version=4).cells
    return [target for cell in cells if cell.cell_type == "markdown"
            for target in LINK.findall(cell.source) if "://" not in target]


def assert_links_resolve_to_student_versions(folder: Path) -> None:
    start = folder / "00_start_here.ipynb"
    targets = links(start)
    assignments = [t for t in targets if t.startswith("assignments/")]
    assert len(assignments) == 4, targets
    for target in assignments:
        linked = folder / target
        assert linked.is_file(), f"lesson 0 links {target}, which is not in {folder}"
        text = linked.read_text(encoding="utf-8")
        assert SOLUTION not in text, f"{linked} is an instructor version"
        assert "YOUR CODE HERE" in text, f"{linked} has no place for the student's answer"
        instructor = REPO / "notebooks" / target
        assert SOLUTION in instructor.read_text(encoding="utf-8")  # so the check above can fail
    for lesson in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
        for target in links(lesson):
            assert (lesson.parent / target).is_file(), f"{lesson.name} links {target}: missing"
    for lesson in [start, folder / "zh" / start.name, folder / "ko" / start.name]:
        assert lesson.is_file(), lesson
        assert repository_notes(lesson) == [], f"{lesson}: the repository's note was copied"


def repository_notes(lesson: Path) -> list[int]:
    """Where the cells tagged ``repository-only`` are (the cells' positions)."""
    cells = nbformat.read(lesson, as_version=4).cells
    return [i for i, cell in enumerate(cells) if "repository-only" in cell.metadata.get("tags", [])]


@pytest.mark.parametrize("lang", ["", "zh", "ko"])
def test_lesson_0_in_the_repository_says_its_links_are_not_the_student_versions(lang):
    """Opened in the kit's repository (not the copy that `make lab` opens), lesson 0's
    assignment links do not reach student versions: the instructor notebooks are beside
    the English lesson, and no assignments/ beside the translated ones. A note says so,
    above the first of those links, and says how to get the student versions."""
    lesson = REPO / "notebooks" / lang / "00_start_here.ipynb"
    cells = nbformat.read(lesson, as_version=4).cells
    notes = repository_notes(lesson)
    assert len(notes) == 1, notes
    first_link = next(i for i, cell in enumerate(cells) if cell.cell_type == "markdown"
                      and any(t.startswith("assignments/") for t in LINK.findall(cell.source)))
    assert notes[0] < first_link
    note = cells[notes[0]].source
    assert "make lab" in note and "minigrad-kit lessons my-lessons" in note, note
    if lang:
        assert f"LANG={lang}" in note, note  # the command that opens this language's copy
    for target in links(lesson):  # what the note says is so
        if target.startswith("assignments/"):
            linked = lesson.parent / target
            assert not linked.exists() if lang else SOLUTION in linked.read_text("utf-8"), target


def test_a_copied_course_links_student_versions(tmp_path):
    copy_lessons(tmp_path / "course")
    assert_links_resolve_to_student_versions(tmp_path / "course")


def test_make_lab_opens_a_course_that_links_student_versions(tmp_path):
    course = tmp_path / "course"
    env = {**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "data"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    run = subprocess.run(["make", "-s", "-C", str(REPO), "lab-setup", f"COURSE={course}"],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert_links_resolve_to_student_versions(course)
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^lab: lab-setup\n\t.*jupyter lab .*\$\(COURSE\)/(\$\(LAB_DIR\))?00_start_here"
                     r"\.ipynb",
                     makefile, re.M), "make lab must open the course's lesson 0"


@pytest.mark.parametrize("lesson", sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb")),
                         ids=lambda p: p.stem)
def test_links_between_lessons_resolve_in_the_repo(lesson):
    for target in links(lesson):
        if not target.startswith("assignments/"):
            assert (lesson.parent / target).is_file(), f"{lesson.name} links {target}"


def test_minigrad_kit_lessons_marks_the_lessons_trusted(tmp_path, monkeypatch, capsys):
    """So their stored graphs show on first open, as after `make lab` (not the assignments)."""
    from nbformat.sign import NotebookNotary

    from grader.cli import main

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "data"))
    assert main(["lessons", str(tmp_path / "my-lessons")]) == 0
    assert "lessons trusted" in capsys.readouterr().out
    notary = NotebookNotary()
    lessons = sorted((tmp_path / "my-lessons").rglob("[0-9][0-9]_*.ipynb"))
    signed = {p.relative_to(tmp_path / "my-lessons").as_posix():
              notary.check_signature(nbformat.read(p, as_version=4)) for p in lessons}
    assert signed["04_inside_backward.ipynb"] and signed["00_start_here.ipynb"]
    # (assignments/ and the translated zh/assignments/, ko/assignments/ are student versions)
    assignments = {name for name in signed if "assignments" in name.split("/")}
    assert {"zh/04_inside_backward.ipynb", "ko/04_inside_backward.ipynb"} <= signed.keys()
    assert all(ok for name, ok in signed.items() if name not in assignments), signed
    assert assignments and not any(signed[name] for name in assignments), signed
