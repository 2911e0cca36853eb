"""Real nbgrader 0.9.6 takes the instructor notebooks unchanged (the `nbgrader` extra).

In a temporary course: `nbgrader generate_assignment` releases the four
notebooks exactly as `minigrad-kit release` does, and `nbgrader autograde`
gives the solutions full marks and the blank release none. Samples show
the difference between grading in the kernel (nbgrader) and outside it.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT, SOURCES, with_module
from samples import SAMPLES, build

from grader import notebook as nbg
from grader.batch import grade_file
from grader.grade import Options

pytestmark = pytest.mark.slow
api = pytest.importorskip("nbgrader.api", reason="nbgrader is in the 'nbgrader' extra")

A2 = BY_ASSIGNMENT["derive_it_by_hand"].name
COMPARED = ("correct", "partial", "tamper_transformers")


def _nbgrader(course: Path, *args: str) -> None:
    bin_dir = str(Path(sys.executable).parent)  # nbgrader runs `alembic` from PATH
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    (root / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.root = {str(root)!r}\n"
        "c.CourseDirectory.course_id = 'minigrad'\n")
    (root / "source" / "kit").mkdir(parents=True)
    for path in SOURCES:  # each instructor notebook with its question module, as a course has
        shutil.copy(path, root / "source" / "kit")
        with_module(nbg.assignment_name(nbformat.read(path, as_version=4)), root / "source" / "kit")
    _nbgrader(root, "generate_assignment", "kit", "--force")
    released = root / "release" / "kit"
    shutil.copytree(root / "source" / "kit", root / "submitted" / "solution" / "kit")
    (root / "submitted" / "blank" / "kit").mkdir(parents=True)
    shutil.copy(released / A2, root / "submitted" / "blank" / "kit")
    for name in COMPARED:
        target = root / "submitted" / name / "kit"
        target.mkdir(parents=True)
        notebook = build(nbformat.read(released / A2, as_version=4), SAMPLES[name])
        nbformat.write(notebook, target / A2)
    _nbgrader(root, "autograde", "kit", "--create", "--force")
    scores = {}
    with api.Gradebook(f"sqlite:///{root / 'gradebook.db'}") as book:
        for student in ("solution", "blank", *COMPARED):
            for notebook in book.find_submission("kit", student).notebooks:
                scores[student, notebook.name] = {g.name: g.auto_score for g in notebook.grades}
    return root, scores


def test_generate_assignment_releases_what_minigrad_kit_releases(course):
    root, _ = course
    for path in SOURCES:
        theirs = nbformat.read(root / "release" / "kit" / path.name, as_version=4)
        ours = nbg.student_version(nbformat.read(path, as_version=4))
        assert [(c.source, c.metadata) for c in theirs.cells] == [
            (c.source, c.metadata) for c in ours.cells], path.name


def test_autograde_gives_the_solutions_full_marks_and_the_blank_none(course):
    root, scores = course
    for path in SOURCES:
        notebook = nbformat.read(path, as_version=4)
        expected = {nbg.grade_id(c): nbg.points(c) for c in notebook.cells
                    if nbg.role(c) == "test"}
        solution = scores["solution", path.stem]
        assert {q: solution[q] for q in expected} == expected, path.name
    assert scores["blank", Path(A2).stem] == {"q1": 0, "q2": 0, "q3": 0, "q4": 0}


def test_in_kernel_grading_is_fooled_where_minigrad_kit_is_not(course):
    root, scores = course
    sources = [str(p) for p in SOURCES]
    ours = {name: grade_file(str(root / "submitted" / name / "kit" / A2), sources,
                             Options(variants="none"))  # (nbgrader's: one for everyone)
            for name in COMPARED}
    for name in COMPARED:
        theirs = scores[name, Path(A2).stem]
        mine = {q.name: q.points for q in ours[name].questions}
        assert mine == SAMPLES[name].points, name
        if name in ("correct", "partial"):
            assert theirs == mine, name  # the two graders agree on honest work
    # An input transformer turns every test cell into `pass`: nbgrader sees no error.
    assert sum(scores["tamper_transformers", Path(A2).stem].values()) == 9
