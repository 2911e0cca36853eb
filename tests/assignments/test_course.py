"""A course of one's own: a fifth assignment from a temporary course folder, released and
graded by the commands a teacher types, with the question module of the teachers' guide
(notebooks/assignments/README.md) run exactly as written there."""

import csv
import re

import nbformat
import pytest
from assignment_files import FOLDER

from grader import notebook as nbg
from grader.cli import main

GUIDE = FOLDER / "README.md"
SOLUTION = "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"
TEST = ('check("q1")\n### BEGIN HIDDEN TESTS\nassert double(torch.tensor([4.0])).item() == 8.0'
        "\n### END HIDDEN TESTS")


def guide_module() -> str:
    """The question module of the guide: the python block after its marker comment."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(r"<!-- the test tests/assignments/test_course.py runs this module as "
                      r"written -->\n```python\n(.*?)```", text, re.S)
    assert found, "the guide's example question module is gone"
    return found.group(1)


def _cell(kind, source, gid, **meta):
    cell = (nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell)(
        source)
    cell.metadata["nbgrader"] = {"grade": False, "solution": False, "locked": False,
                                 "grade_id": gid, "schema_version": 3, "task": False, **meta}
    return cell


def instructor_notebook():
    """The notebook of the guide's table."""
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Double it\n\nWrite `double(x)`."),
        _cell("code", 'import minigrad as torch\nfrom grader import check, check_all, start\n'
                      'start("double_it")', "setup", locked=True),
        _cell("code", SOLUTION, "q1_answer", solution=True),
        _cell("code", TEST, "q1", grade=True, locked=True, points=1),
    ])
    notebook.metadata["minigrad_kit"] = {"assignment": "double_it"}
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    return notebook


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    root = tmp_path_factory.mktemp("teacher")
    (root / "course").mkdir()
    nbformat.write(instructor_notebook(), root / "course" / "06_double_it.ipynb")
    (root / "course" / "double_it.py").write_text(guide_module(), encoding="utf-8")
    status = main(["release", str(root / "course" / "06_double_it.ipynb"),
                   "--out", str(root / "release"), "--timeout", "20"])
    return root, status


def test_release_writes_the_notebook_and_its_question_module(course):
    root, status = course
    assert status == 0
    assert sorted(p.name for p in (root / "release").iterdir()) == [
        "06_double_it.ipynb", "double_it.py"]
    released = nbformat.read(root / "release" / "06_double_it.ipynb", as_version=4)
    assert nbg.is_student_version(released)
    assert "return 2 * x" not in str(released) and "HIDDEN" not in str(released)


def test_grade_finds_the_module_beside_the_notebooks(course):
    root, _ = course
    released = nbformat.read(root / "release" / "06_double_it.ipynb", as_version=4)
    answers = {"ada": "def double(x):\n    return x + x", "bob": "def double(x):\n    return 3 * x",
               "cy": None}
    (root / "submitted").mkdir()
    for student, answer in answers.items():
        notebook = nbformat.from_dict(released)
        for cell in notebook.cells:
            if answer and nbg.grade_id(cell) == "q1_answer":
                cell.source = answer
        nbformat.write(notebook, root / "submitted" / f"{student}.ipynb")
    status = main(["grade", str(root / "submitted"), "--source", str(root / "course"),
                   "--out", str(root / "grades"), "--timeout", "20"])
    assert status == 0
    with open(root / "grades" / "gradebook.csv", newline="") as file:
        rows = [(r["student"], r["assignment"], r["question"], r["points"], r["max"])
                for r in csv.DictReader(file)]
    assert rows == [("ada", "double_it", "q1", "1", "1"), ("bob", "double_it", "q1", "0", "1"),
                    ("cy", "double_it", "q1", "0", "1")]
    feedback = (root / "grades" / "feedback" / "double_it" / "bob.md").read_text()
    assert feedback.startswith("# Double it · bob")
    assert ("- ✗ public: double(x) is wrong at 2 of 3 values; at index (1,): yours is 3, "
            "expected 2") in feedback
    # (a hidden test of code quotes nothing of what the code returned: judging.WITHHELD)
    assert ("- ✗ hidden: double(x) is wrong (a hidden test: what your code returned is not "
            "shown)") in feedback


def test_a_notebook_without_its_question_module_is_refused(tmp_path, capsys):
    nbformat.write(instructor_notebook(), tmp_path / "06_double_it.ipynb")
    assert main(["release", str(tmp_path / "06_double_it.ipynb"), "--out",
                 str(tmp_path / "release"), "--no-verify"]) == 1
    error = capsys.readouterr().err
    assert (f"its questions belong in {tmp_path / 'double_it.py'} (the notebook metadata names "
            "the assignment 'double_it'), which does not exist") in error
    assert not (tmp_path / "release").exists()


def test_a_question_that_declares_no_kind_is_refused(tmp_path, capsys):
    """Each question says how its answer reaches the grader: read as data, or run as code."""
    nbformat.write(instructor_notebook(), tmp_path / "06_double_it.ipynb")
    module = guide_module()
    assert "kind=CODE" in module
    (tmp_path / "double_it.py").write_text(module.replace("kind=CODE", "kind=''"))
    for command in (["release", str(tmp_path / "06_double_it.ipynb"), "--out",
                     str(tmp_path / "release"), "--no-verify"],
                    ["grade", str(tmp_path / "06_double_it.ipynb"), "--source",
                     str(tmp_path / "06_double_it.ipynb"), "--out", str(tmp_path / "grades")]):
        assert main(command) == 1
        error = capsys.readouterr().err
        assert "question 'q1' declares no kind; add kind=DATA" in error, error
    assert not (tmp_path / "release").exists()
