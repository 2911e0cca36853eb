"""What a teacher meets first (issue 13's defects, each with the test that would have caught
it): readable files, a submission graded against the wrong assignment, student versions given
where instructor notebooks belong, and copying the kit's notebooks out."""

import csv
import os
import stat

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT, with_module

from grader import notebook as nbg
from grader.cli import main
from grader.report import write_atomic

A2, A4 = BY_ASSIGNMENT["derive_it_by_hand"], BY_ASSIGNMENT["broadcasting_and_reductions"]


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask():
    def set_umask(mask):
        os.umask(mask)
    old = os.umask(0o022)
    yield set_umask
    os.umask(old)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_files_get_the_umasks_permissions(tmp_path, umask, mask, mode):
    """(mkstemp made every handout, gradebook and flags file 0600: unreadable by others.)"""
    umask(mask)
    write_atomic(tmp_path / "gradebook.csv", "student\n")
    write_atomic(tmp_path / "gradebook.csv", "student,points\n")  # replacing keeps it
    assert _mode(tmp_path / "gradebook.csv") == mode
    assert (tmp_path / "gradebook.csv").read_text() == "student,points\n"
    assert [p.name for p in tmp_path.iterdir()] == ["gradebook.csv"]  # no temporary left


def test_released_and_copied_files_are_readable_by_the_course(tmp_path, umask):
    umask(0o022)
    assert main(["release", str(A2), "--out", str(tmp_path / "release"), "--no-verify"]) == 0
    assert main(["lessons", str(tmp_path / "lessons")]) == 0
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) > 10 and {_mode(p) for p in files} == {0o644}


def _student_version(folder, source):
    released = nbg.student_version(nbformat.read(source, as_version=4))
    path = folder / source.name
    nbformat.write(released, path)
    with_module(nbg.assignment_name(released), folder)
    return path


def test_a_submission_for_another_assignment_is_reported_not_scored(tmp_path):
    """(It used to be matched by its cells, scored 0 with a misleading "cell was edited".)"""
    (tmp_path / "submitted").mkdir()
    submission = _student_version(tmp_path / "submitted", A2)
    submission.rename(tmp_path / "submitted" / "alice.ipynb")
    (tmp_path / "submitted" / "derive_it_by_hand.py").unlink()
    status = main(["grade", str(tmp_path / "submitted"), "--source", str(A4),
                   "--out", str(tmp_path / "grades")])
    assert status == 1
    with open(tmp_path / "grades" / "flags.csv", newline="") as file:
        flags = list(csv.reader(file))
    assert flags[1][:3] == ["alice", "unknown", ""]
    assert flags[1][3].startswith("could not be graded: ValueError: ")
    assert flags[1][3].endswith(
        "alice.ipynb answers the assignment 'derive_it_by_hand', but the instructor notebooks "
        "given are for broadcasting_and_reductions; it was not graded (add "
        "'derive_it_by_hand''s instructor notebook to --source)")
    gradebook = (tmp_path / "grades" / "gradebook.csv").read_text()
    assert gradebook.count("\n") == 1 and "alice" not in gradebook  # the header only


def test_release_recognises_a_student_version(tmp_path, capsys):
    """(It used to answer with eight "fix the solution..." problems.)"""
    student = _student_version(tmp_path, A2)
    assert main(["release", str(student), "--out", str(tmp_path / "again")]) == 1
    error = capsys.readouterr().err
    assert error == (f"problem: {student} is a student version (its solutions are stubbed and "
                     "its hidden tests removed); give the instructor notebook it was released "
                     "from\n")
    assert not (tmp_path / "again").exists()


def test_grade_refuses_a_student_version_as_source(tmp_path, capsys):
    """(--source release/ used to be accepted: no hidden tests, no solutions.)"""
    student = _student_version(tmp_path, A2)
    (tmp_path / "submitted").mkdir()
    nbformat.write(nbformat.read(student, as_version=4), tmp_path / "submitted" / "bob.ipynb")
    assert main(["grade", str(tmp_path / "submitted"), "--source", str(tmp_path),
                 "--out", str(tmp_path / "grades")]) == 1
    assert f"{student} is a student version" in capsys.readouterr().err
    assert not (tmp_path / "grades").exists()


def test_an_unstubbed_hand_edit_is_still_an_instructor_notebook():
    assert not any(nbg.is_student_version(nbformat.read(p, as_version=4))
                   for p in BY_ASSIGNMENT.values())


def test_lessons_copy_out_with_student_versions_of_the_assignments(tmp_path, capsys):
    assert main(["lessons", str(tmp_path / "my-lessons")]) == 0
    opening = f"open them with: jupyter lab {tmp_path / 'my-lessons'}\n"
    assert capsys.readouterr().out.endswith(opening)
    lessons = sorted(p.name for p in (tmp_path / "my-lessons").glob("*.ipynb"))
    assert lessons[0] == "00_start_here.ipynb" and len(lessons) >= 7
    assignments = tmp_path / "my-lessons" / "assignments"
    assert sorted(p.name for p in assignments.iterdir()) == sorted(
        [p.name for p in BY_ASSIGNMENT.values()] + [f"{name}.py" for name in BY_ASSIGNMENT])
    for path in assignments.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        assert nbg.is_student_version(notebook), path
        assert "BEGIN SOLUTION" not in str(notebook) and "HIDDEN TESTS" not in str(notebook)


def test_copies_refuse_to_overwrite_unless_forced(tmp_path, capsys):
    target = tmp_path / "course"
    assert main(["assignments", str(target)]) == 0
    capsys.readouterr()
    edited = target / A2.name
    edited.write_text("my edits")
    (target / "notes.md").write_text("mine")
    assert main(["assignments", str(target)]) == 1
    error = capsys.readouterr().err
    # 5 notebooks, 5 question modules, README.md, 2 x 6 catalogs in locale/
    assert "23 file(s) already exist and were left alone (nothing was written)" in error
    assert f"  {edited}\n" in error and "add --force to replace them" in error
    assert edited.read_text() == "my edits"
    assert main(["assignments", str(target), "--force"]) == 0
    assert edited.read_bytes() == A2.read_bytes() and (target / "notes.md").read_text() == "mine"
    assert sorted(p.name for p in target.iterdir()) == sorted(
        [p.name for p in BY_ASSIGNMENT.values()] + [f"{n}.py" for n in BY_ASSIGNMENT]
        + ["README.md", "notes.md", "locale"])  # locale/: the catalogs release --lang uses
